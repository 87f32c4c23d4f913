package classify

// Package approvals' extraction: which packages an install names, in which
// ecosystem, at which exact version. Pure: words in, packages out.

import "strings"

// Package is one package a command installs by name.
type Package struct {
	Ecosystem string // npm, pypi, cargo, go, gem, brew, apt
	Name      string // as the ecosystem spells it (scoped npm names keep their @scope/)
	// Version is the exact version asked for; "" when the request is not
	// pinned to one (no version, a range, a tag like latest, a branch).
	Version string
	// Asked is the version text as written ("^1.2", "latest"), for the
	// hint; "" when none was given.
	Asked string
}

// Ecosystems returns the package ecosystems an approval may name, as the
// installers' table (pkgTools) names them.
func Ecosystems() []string {
	return []string{"npm", "pypi", "cargo", "go", "gem", "brew", "apt", "conda", "composer"}
}

// String is the approval's form: ecosystem:name@version, or
// ecosystem:name when it is not pinned.
func (p Package) String() string {
	if p.Version == "" {
		return p.Ecosystem + ":" + p.Name
	}
	return p.Ecosystem + ":" + p.Name + "@" + p.Version
}

// Unversioned reports a package that needs a pin before it can be
// approved (brew has no pins: its formulae are approved by name).
func (p Package) Unversioned() bool { return p.Version == "" && p.Ecosystem != "brew" }

// PackageInstall is what [Packages] found in one command.
type PackageInstall struct {
	Packages []Package
	// Dynamic: a package word is not literal, so what is installed is
	// not known.
	Dynamic bool
	// Pin is how to pin a version in this ecosystem, for the hint
	// ("npm install NAME@VERSION").
	Pin string
}

// pkgTool describes one installer: the subcommand words that install
// named packages, how a version is attached, and the options that take a
// separate value (so the value is not read as a package).
type pkgTool struct {
	eco      string
	subs     []string // words after the command that make it an install ("install", "i", "add")
	skip     int      // operands before the packages (pipx inject ENV PKG)
	then     []string // when set, the word after subs that makes it one (uv pip install, uv tool install, yarn global add)
	sep      string   // version separator: "@" (npm, cargo, go), "==" (pip), "=" (apt), ":" (gem)
	versOpts []string // options whose value is the version (cargo --version, gem -v)
	valOpts  []string // options that take a separate value
	pin      string
	// requirements: options that read a list of packages from a file
	// (pip -r): such an install falls under the bash grants.
	requirements []string
}

var npmVal = []string{"--registry", "--prefix", "-w", "--workspace", "--cache", "--tag", "--userconfig", "--omit", "--include", "--install-strategy", "-C", "--dir", "--filter", "--cwd", "--modules-folder"}

// pnpmVal: pnpm's -w is --workspace-root, a flag (pnpm add -w PKG installs PKG).
var pnpmVal = []string{"--registry", "--prefix", "--workspace", "--cache", "--tag", "--userconfig", "--omit", "--include", "--install-strategy", "-C", "--dir", "--filter", "-F", "--cwd", "--modules-folder"}
var pipVal = []string{"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url", "-t", "--target",
	"--prefix", "--root", "-f", "--find-links", "--platform", "--python-version", "--implementation", "--abi", "--src", "--upgrade-strategy",
	"--progress-bar", "--cache-dir", "--log", "--proxy", "--retries", "--timeout", "--trusted-host", "--cert", "--client-cert",
	"--exists-action", "--global-option", "-C", "--config-settings", "--python", "-p", "--group", "--optional", "--index",
	"--default-index", "--extra", "--tag", "--branch", "--rev", "--package", "--only-binary", "--no-binary",
	// uv tool install's; its --with PKG and --from SPEC name packages too,
	// so their values are read as operands.
	"--with-editable", "--with-requirements", "--constraints", "--overrides"}
var pipxVal = []string{"--python", "--suffix", "--pip-args", "--index-url", "-i", "--preinstall", "--fetch-missing-python", "--backend"}

// The value-taking options of the installers below. An option whose value
// is not certain is left out: a value read as a package is asked about,
// a package read as a value would pass unseen.
var pyProjVal = []string{"-G", "--group", "-E", "--extras", "--source", "--python", "-C", "--directory", "-P", "--project", "-r", "--requirements", "--features"}
var condaVal = []string{"-n", "--name", "-p", "--prefix", "-c", "--channel", "--file", "--environment", "--manifest-path", "--platform", "--feature"}
var composerVal = []string{"-d", "--working-dir"}
var cargoVal = []string{"--version", "--vers", "--git", "--branch", "--tag", "--rev", "--path", "--root", "--registry", "--index", "--features",
	"-F", "--target", "--target-dir", "--profile", "-j", "--jobs", "--bin", "--example", "--rename", "-p", "--package", "--manifest-path", "--config", "-Z"}
var goVal = []string{"-C", "-o", "-tags", "-modfile", "-ldflags", "-gcflags", "-asmflags", "-p", "-mod", "-overlay", "-pgo", "-toolexec", "-exec"}
var gemVal = []string{"-v", "--version", "-i", "--install-dir", "-n", "--bindir", "-s", "--source", "-P", "--trust-policy", "--platform", "-g", "--file"}
var aptVal = []string{"-o", "--option", "-t", "--target-release", "-c", "--config-file"}

// The table of installers, one slice per command name (package variables
// that the linker lays out: a map literal would be built by init code in
// every guard process). pkgTools looks them up.
var (
	pkgNpm = []pkgTool{{eco: "npm", subs: []string{"install", "i", "add", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall"},
		sep: "@", valOpts: npmVal, pin: "npm install NAME@VERSION"}}
	pkgPnpm = []pkgTool{{eco: "npm", subs: []string{"add", "install", "i"}, sep: "@", valOpts: pnpmVal, pin: "pnpm add NAME@VERSION"}}
	pkgYarn = []pkgTool{
		{eco: "npm", subs: []string{"add"}, sep: "@", valOpts: npmVal, pin: "yarn add NAME@VERSION"},
		{eco: "npm", subs: []string{"global"}, then: []string{"add", "upgrade"}, sep: "@", valOpts: npmVal, pin: "yarn global add NAME@VERSION"},
	}
	pkgBun  = []pkgTool{{eco: "npm", subs: []string{"add", "install", "i"}, sep: "@", valOpts: npmVal, pin: "bun add NAME@VERSION"}}
	pkgPip  = []pkgTool{{eco: "pypi", subs: []string{"install"}, sep: "==", valOpts: pipVal, pin: "pip install NAME==VERSION", requirements: []string{"-r", "--requirement"}}}
	pkgPip3 = []pkgTool{{eco: "pypi", subs: []string{"install"}, sep: "==", valOpts: pipVal, pin: "pip install NAME==VERSION", requirements: []string{"-r", "--requirement"}}}
	pkgUv   = []pkgTool{
		{eco: "pypi", subs: []string{"add"}, sep: "==", valOpts: pipVal, pin: "uv add NAME==VERSION", requirements: []string{"-r", "--requirements"}},
		{eco: "pypi", subs: []string{"pip"}, then: []string{"install"}, sep: "==", valOpts: pipVal, pin: "uv pip install NAME==VERSION", requirements: []string{"-r", "--requirement", "--requirements"}},
		{eco: "pypi", subs: []string{"tool"}, then: []string{"install", "upgrade"}, sep: "==", valOpts: pipVal, pin: "uv tool install NAME==VERSION"},
	}
	// pipx install|upgrade put a package's programs on PATH; inject adds
	// packages to an installed one's environment.
	pkgPipx = []pkgTool{
		{eco: "pypi", subs: []string{"install", "upgrade"}, sep: "==", valOpts: pipxVal, pin: "pipx install NAME==VERSION"},
		{eco: "pypi", subs: []string{"inject"}, skip: 1, sep: "==", valOpts: pipxVal, pin: "pipx inject ENV NAME==VERSION"},
	}
	pkgCargo = []pkgTool{
		{eco: "cargo", subs: []string{"install"}, sep: "@", versOpts: []string{"--version", "--vers"}, valOpts: cargoVal, pin: "cargo install NAME@VERSION"},
		{eco: "cargo", subs: []string{"add"}, sep: "@", valOpts: cargoVal, pin: "cargo add NAME@VERSION"},
	}
	pkgGo = []pkgTool{
		{eco: "go", subs: []string{"install"}, sep: "@", valOpts: goVal, pin: "go install MODULE@vX.Y.Z"},
		{eco: "go", subs: []string{"get"}, sep: "@", valOpts: goVal, pin: "go get MODULE@vX.Y.Z"},
	}
	// poetry, pdm, rye and pipenv add PyPI packages to the project (poetry
	// self add to poetry itself); X@1.2.3 is asked as a range.
	pkgPoetry = []pkgTool{
		{eco: "pypi", subs: []string{"add"}, sep: "==", valOpts: pyProjVal, pin: "poetry add NAME==VERSION"},
		{eco: "pypi", subs: []string{"self"}, then: []string{"add"}, sep: "==", valOpts: pyProjVal, pin: "poetry self add NAME==VERSION"},
	}
	pkgPdm    = []pkgTool{{eco: "pypi", subs: []string{"add"}, sep: "==", valOpts: pyProjVal, pin: "pdm add NAME==VERSION"}}
	pkgRye    = []pkgTool{{eco: "pypi", subs: []string{"add"}, sep: "==", valOpts: pyProjVal, pin: "rye add NAME==VERSION"}}
	pkgPipenv = []pkgTool{{eco: "pypi", subs: []string{"install"}, sep: "==", valOpts: pyProjVal, pin: "pipenv install NAME==VERSION", requirements: []string{"-r", "--requirements"}}}
	pkgBundle = []pkgTool{{eco: "gem", subs: []string{"add"}, sep: ":", versOpts: []string{"-v", "--version"}, valOpts: []string{"-v", "--version", "-g", "--group", "-s", "--source", "--require", "--path", "--git", "--github", "--branch", "--ref", "--glob"}, pin: "bundle add NAME --version VERSION"}}
	// conda, mamba, micromamba and pixi install from conda channels.
	pkgConda = []pkgTool{{eco: "conda", subs: []string{"install", "add", "update", "upgrade"}, sep: "=", valOpts: condaVal, pin: "conda install NAME=VERSION", requirements: []string{"--file"}}}
	pkgPixi  = []pkgTool{
		{eco: "conda", subs: []string{"add", "upgrade"}, sep: "=", valOpts: condaVal, pin: "pixi add NAME==VERSION"},
		{eco: "conda", subs: []string{"global"}, then: []string{"install", "add", "upgrade"}, sep: "=", valOpts: condaVal, pin: "pixi global install NAME==VERSION"},
	}
	// composer require vendor/name:1.2.3 runs the package's scripts and plugins.
	pkgComposer = []pkgTool{
		{eco: "composer", subs: []string{"require", "req", "r"}, sep: ":", valOpts: composerVal, pin: "composer require VENDOR/NAME:VERSION"},
		{eco: "composer", subs: []string{"global"}, then: []string{"require", "req", "r"}, sep: ":", valOpts: composerVal, pin: "composer global require VENDOR/NAME:VERSION"},
	}
	pkgGem    = []pkgTool{{eco: "gem", subs: []string{"install", "i"}, sep: ":", versOpts: []string{"-v", "--version"}, valOpts: gemVal, pin: "gem install NAME -v VERSION"}}
	pkgBrew   = []pkgTool{{eco: "brew", subs: []string{"install"}, valOpts: []string{"--cask-dir"}, pin: "brew install NAME"}}
	pkgAptGet = []pkgTool{{eco: "apt", subs: []string{"install"}, sep: "=", valOpts: aptVal, pin: "apt-get install NAME=VERSION"}}
	pkgApt    = []pkgTool{{eco: "apt", subs: []string{"install"}, sep: "=", valOpts: aptVal, pin: "apt install NAME=VERSION"}}
)

// pkgTools returns the installers of command name.
func pkgTools(name string) []pkgTool {
	switch name {
	case "uv":
		return pkgUv
	case "cargo":
		return pkgCargo
	case "go":
		return pkgGo
	case "gem":
		return pkgGem
	case "npm":
		return pkgNpm
	case "pnpm":
		return pkgPnpm
	case "yarn":
		return pkgYarn
	case "bun":
		return pkgBun
	case "pip":
		return pkgPip
	case "pip3":
		return pkgPip3
	case "pipx":
		return pkgPipx
	case "poetry":
		return pkgPoetry
	case "pdm":
		return pkgPdm
	case "rye":
		return pkgRye
	case "pipenv":
		return pkgPipenv
	case "bundle":
		return pkgBundle
	case "conda", "mamba", "micromamba":
		return pkgConda
	case "pixi":
		return pkgPixi
	case "composer":
		return pkgComposer
	case "brew":
		return pkgBrew
	case "apt-get":
		return pkgAptGet
	case "apt":
		return pkgApt
	}
	return nil
}

// Packages returns the packages command c installs by name, or nil when
// it is not such an install: npm install X (i, add; pnpm add, yarn add, bun
// add), pip install X (uv add, uv pip install, python -m pip install),
// cargo install|add, go install X@V, go get X, gem install, brew install,
// apt-get install. A bare npm install, npm ci, pip install -r FILE, go
// install ./cmd/x or cargo install --path . installs what the project
// pins, and returns nil: the bash grants decide it. Local paths, archives
// and URLs are not packages (a URL's host is the network tier's).
func Packages(c *Command) *PackageInstall {
	if c == nil || len(c.Args) < 2 {
		return nil
	}
	args := c.Args
	dyn := c.Dynamic
	name := c.Name
	if (name == "python" || name == "python3") && len(args) > 3 && args[1] == "-m" && (args[2] == "pip" || args[2] == "pip3") {
		// python3 -m pip install X is pip install X
		args, name = args[2:], "pip"
		if dyn != nil {
			dyn = dyn[2:]
		}
	}
	tools := pkgTools(name)
	for ti := range tools {
		t := &tools[ti]
		at := subAt(args, dyn, t)
		if at < 0 {
			continue
		}
		return t.scan(args, dyn, at)
	}
	return nil
}

// subAt returns the index just past t's subcommand words in args (options
// before them skipped), or -1 when args do not start that subcommand.
func subAt(args []string, dyn []bool, t *pkgTool) int {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") && !(i < len(dyn) && dyn[i]) {
		if contains(t.valOpts, args[i]) {
			i++
		}
		i++
	}
	if i >= len(args) || !contains(t.subs, args[i]) || (i < len(dyn) && dyn[i]) {
		return -1
	}
	if t.then == nil {
		return i + 1
	}
	if i+1 < len(args) && contains(t.then, args[i+1]) && !(i+1 < len(dyn) && dyn[i+1]) {
		return i + 2
	}
	return -1
}

func (t *pkgTool) scan(args []string, dyn []bool, from int) *PackageInstall {
	in := &PackageInstall{Pin: t.pin}
	var version string
	fromFile := false
	skip := 0
	for i := from; i < len(args); i++ {
		a := args[i]
		d := i < len(dyn) && dyn[i]
		if !d && strings.HasPrefix(a, "-") && len(a) > 1 {
			opt, val, attached := strings.Cut(a, "=")
			if contains(t.requirements, opt) {
				fromFile = true
			}
			if contains(t.versOpts, opt) {
				if attached {
					version = val
				} else if i+1 < len(args) {
					version = args[i+1]
				}
			}
			if !attached && contains(t.valOpts, opt) {
				i++
			}
			continue
		}
		if skip < t.skip {
			skip++
			continue
		}
		if d {
			in.Dynamic = true
			continue
		}
		if p, ok := t.parse(a); ok {
			in.Packages = append(in.Packages, p)
		}
	}
	if version != "" && len(in.Packages) == 1 {
		in.Packages[0].Asked = version
		in.Packages[0].Version = exactVersion(t.eco, version)
	}
	if len(in.Packages) == 0 && !in.Dynamic {
		_ = fromFile // a lockfile, a requirements file, the project itself: the bash grants decide
		return nil
	}
	return in
}

// parse reads one operand as a package; ok is false for a local path, an
// archive or a URL.
func (t *pkgTool) parse(a string) (Package, bool) {
	if a == "" || strings.HasPrefix(a, ".") || strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") ||
		strings.Contains(a, "://") || strings.HasPrefix(a, "file:") || strings.HasPrefix(a, "git+") ||
		strings.HasSuffix(a, ".tgz") || strings.HasSuffix(a, ".tar.gz") || strings.HasSuffix(a, ".whl") ||
		strings.HasSuffix(a, ".deb") || strings.HasSuffix(a, ".gem") || strings.HasSuffix(a, ".zip") {
		return Package{}, false
	}
	p := Package{Ecosystem: t.eco, Name: a}
	switch t.eco {
	case "npm", "cargo", "go":
		// the version follows the last @ that is not the first character
		// (@scope/name@1.2.3)
		if k := strings.LastIndexByte(a, '@'); k > 0 {
			p.Name, p.Asked = a[:k], a[k+1:]
		}
		if t.eco == "go" && strings.HasSuffix(p.Name, "/...") {
			p.Name = strings.TrimSuffix(p.Name, "/...")
		}
		if t.eco == "go" && !strings.Contains(p.Name, ".") {
			return Package{}, false // a package of the main module or the standard library
		}
	case "pypi":
		// name[extras]==1.2.3 (also ===); any other specifier is a range
		name, spec := a, ""
		if k := strings.IndexAny(a, "=<>!~;@ "); k >= 0 {
			name, spec = a[:k], a[k:]
		}
		if k := strings.IndexByte(name, '['); k >= 0 {
			name = name[:k]
		}
		p.Name = strings.ToLower(name)
		switch {
		case strings.HasPrefix(spec, "==="):
			p.Asked = spec[3:]
		case strings.HasPrefix(spec, "=="):
			p.Asked = spec[2:]
			if strings.ContainsAny(p.Asked, "*,;") {
				p.Asked = spec
			}
		default:
			p.Asked = spec
		}
	case "conda":
		// name=1.2.3 or name==1.2.3; name=1.2 or >=1 is a range
		if k := strings.IndexAny(a, "=<>!~ "); k > 0 {
			p.Name, p.Asked = a[:k], strings.TrimPrefix(a[k:], "=")
			if strings.HasPrefix(p.Asked, "=") {
				p.Asked = p.Asked[1:]
			} else if strings.Count(p.Asked, ".") < 2 {
				p.Asked = a[k:] // conda's name=1.2 means 1.2.*
			}
		}
	case "gem", "composer":
		if k := strings.IndexByte(a, ':'); k > 0 {
			p.Name, p.Asked = a[:k], a[k+1:]
		}
	case "apt":
		if k := strings.IndexByte(a, '='); k > 0 {
			p.Name, p.Asked = a[:k], a[k+1:]
		} else if k := strings.IndexByte(a, '/'); k > 0 {
			p.Name, p.Asked = a[:k], "/"+a[k+1:] // a release, not a version
		}
	}
	p.Version = exactVersion(t.eco, p.Asked)
	return p, true
}

// exactVersion returns v when it names one exact version in ecosystem
// eco, else "": npm, cargo and go need all three numbers (npm's 1 and 1.2
// are ranges, go's v1 a query); pip, gem and apt any version that starts
// with a digit (apt may start with an epoch, 1:2.3-4). Ranges, tags and
// branches are not versions.
func exactVersion(eco, v string) string {
	if v == "" || strings.ContainsAny(v, "^~<>=*|, ") || strings.Contains(v, ".x") || strings.HasPrefix(v, "/") {
		return ""
	}
	n := strings.TrimPrefix(strings.TrimPrefix(v, "="), "v")
	if n == "" || n[0] < '0' || n[0] > '9' {
		return ""
	}
	switch eco {
	case "npm", "cargo", "go":
		core, _, _ := strings.Cut(n, "-")
		core, _, _ = strings.Cut(core, "+")
		if strings.Count(core, ".") != 2 {
			return ""
		}
		for _, part := range strings.Split(core, ".") {
			if part == "" || strings.Trim(part, "0123456789") != "" {
				return ""
			}
		}
		if eco == "go" && !strings.HasPrefix(v, "v") {
			return ""
		}
	}
	return v
}
