package shim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/guard-dev/guard/grants"
)

// Confinement: what guard lets run stays inside a kernel boundary. This
// file says what the boundary is (portable, no system calls beyond stat);
// confine_linux.go draws it (Landlock, a mount namespace, a network
// namespace, seccomp); proxy.go is the network's one way out under
// network = "hosts". See doc.go, "Confinement".

// confinement is the boundary of one run; nil runs unconfined.
type confinement struct {
	spec grants.Confine
	home string // $HOME when absolute and a directory, else ""
	root string // the project root
	// write are the trees the command may write (and read): the project,
	// its git directories, the temporary trees, the toolchain caches,
	// write grants. Only existing ones are listed.
	write []string
	// keep are the entries of home the command sees (everything else in
	// home is hidden): the project and writable trees under home, the
	// toolchains and caches, the read grants, a few harmless dotfiles.
	keep []kept
	// protect are existing paths inside writable trees that stay
	// read-only: the project's agent and guard configs, .git/hooks,
	// .git/config, guard's own config and binaries.
	protect []string
	// hide are existing paths the command must not read even where a
	// tree around them is readable: guard's state (approvals, the hash
	// key) and, for root, the credential files under /etc.
	hide []string
	// self is guard's own program: run confined commands may exec it (a
	// nested guard), never write it.
	self string
	// proxy is guard's proxy, for network = "hosts".
	proxy *proxyLink
	// applied says what the kernel took, for the record ("" until run);
	// mounted: the mount namespace was drawn.
	applied string
	mounted bool
	// before, when set, is waited for just before the fork (run's
	// Meanwhile work, done while the boundary is drawn).
	before <-chan struct{}
}

// keptWritable reports whether p is inside a writable entry of home's view.
func (c *confinement) keptWritable(p string) bool {
	for _, k := range c.keep {
		if k.writable && under(p, k.path) {
			return true
		}
	}
	return false
}

// kept is an entry of home the confined command sees.
type kept struct {
	path     string
	writable bool
}

// homeToolchains are the trees under home that toolchains and their caches
// live in: readable and writable (a build fills its cache). Only existing
// ones count. A file holding credentials inside one of these (cargo's
// credentials.toml) is listed in homeHidden.
var homeCaches = []string{
	"go/pkg/mod", ".cache/go-build", ".cache/golangci-lint",
	".cargo/registry", ".cargo/git", ".rustup",
	".npm", ".cache/yarn", ".yarn/berry/cache", ".pnpm-store", ".local/share/pnpm", ".cache/pnpm", ".bun/install/cache",
	".cache/pip", ".cache/pypoetry", ".cache/uv", ".cache/pre-commit",
	".m2/repository", ".gradle/caches", ".gradle/wrapper",
	".cache/deno", ".nuget/packages", ".cache/ccache", ".ccache", ".cache/sccache", ".cache/node-gyp",
}

// homeCacheTools names, for a cache in homeCaches outside ~/.cache, the
// programs that fill it. A fresh home has none of them, and a cache only
// counts when it exists: so the first npm install, go build or cargo fetch
// that guard allowed failed, unable to mkdir its own cache (ENOENT under the
// boundary). guard makes such a cache, empty, when the text names its tool.
var homeCacheTools = map[string][]string{
	".npm":            {"npm", "npx"},
	"go/pkg/mod":      {"go"},
	".cargo/registry": {"cargo"}, ".cargo/git": {"cargo"},
	".yarn/berry/cache": {"yarn"},
	".pnpm-store":       {"pnpm"}, ".local/share/pnpm": {"pnpm"},
	".bun/install/cache": {"bun", "bunx"},
	".m2/repository":     {"mvn", "mvnw"},
	".gradle/caches":     {"gradle", "gradlew"}, ".gradle/wrapper": {"gradle", "gradlew"},
	".nuget/packages": {"dotnet", "nuget"},
}

// makeToolCaches makes the missing caches of the tools the text names (a
// word of it, or a path's last part: ./gradlew). It only ever makes an empty
// directory from homeCacheTools; what the command may do there is what it
// could do had the tool made it before.
func makeToolCaches(home, text string) {
	if text == "" {
		return
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	})
	for rel, tools := range homeCacheTools {
		named := false
		for _, w := range words {
			named = named || slices.Contains(tools, w)
		}
		if p := filepath.Join(home, rel); named && !exists(p) {
			_ = os.MkdirAll(p, 0o755) // a failure leaves the cache missing, as before
		}
	}
}

// homeTools are the trees under home that hold installed toolchains:
// readable, never writable.
var homeTools = []string{
	".pyenv", ".rbenv", ".nvm", ".volta", ".asdf", ".sdkman", ".cargo/bin", "go/bin", ".local/bin", ".local/lib",
	".bun/bin", ".deno/bin", ".dotnet", ".nix-profile", ".local/share/mise",
}

// homeDotfiles are harmless configuration files a command may read:
// git's, the shells' and the editors'. Nothing here holds a credential by
// convention (git's credential store is ~/.git-credentials, not listed).
var homeDotfiles = []string{
	".gitconfig", ".config/git", ".gitignore_global", ".bashrc", ".bash_profile", ".bash_login", ".profile",
	".bash_logout", ".zshrc", ".zshenv", ".zprofile", ".inputrc", ".editorconfig", ".vimrc", ".tmux.conf",
}

// homeHidden are credential files inside kept trees: hidden again.
var homeHidden = []string{".cargo/credentials", ".cargo/credentials.toml", ".gradle/gradle.properties", ".m2/settings-security.xml"}

// projectProtected are the project's files that define what runs outside
// guard (agents' hooks and MCP servers, editors' tasks, git's hooks and
// config) or what guard allows: read-only for a confined command, even
// though the project is writable.
var projectProtected = []string{
	".claude", ".mcp.json", ".gemini", ".codex", ".cursor", ".vscode/tasks.json", ".vscode/settings.json",
	".opencode", ".guard", ".pi",
}

// gitProtected are the files of a git directory that run code or say
// where code comes from.
var gitProtected = []string{"hooks", "config", "config.worktree", "info/attributes"}

// etcSecrets are the credential files a root command must not read under
// /etc. Non-root users cannot read them anyway.
var etcSecrets = []string{
	"shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "security/opasswd",
	"ssl/private", "pki/tls/private", "letsencrypt/live", "letsencrypt/archive", "letsencrypt/keys", "letsencrypt/accounts",
	"ssh/ssh_host_rsa_key", "ssh/ssh_host_ecdsa_key", "ssh/ssh_host_ed25519_key", "ssh/ssh_host_dsa_key",
	"krb5.keytab", "wireguard", "NetworkManager/system-connections", "openvpn", "ipsec.secrets", "ipsec.d/private",
	"strongswan/ipsec.secrets", "swanctl/private", "ppp/chap-secrets", "ppp/pap-secrets",
	"postfix/sasl_passwd", "postfix/sasl_passwd.db", "sssd/sssd.conf", "ldap.secret", "libnss-ldap.secret", "pam_ldap.secret",
	"mysql/debian.cnf", "rancher/k3s/k3s.yaml", "rancher/node/password", "kubernetes/admin.conf", "kubernetes/pki",
	"gitlab-runner/config.toml", "apt/auth.conf", "apt/auth.conf.d", "docker/key.json", "containerd/certs.d",
	"cups/ssl", "dovecot/private", "samba/smbpasswd", "exim4/passwd.client", "fetchmailrc", "shadow.lock",
	"wpa_supplicant/wpa_supplicant.conf", "wpa_supplicant.conf", "machine-id.key", "restic", "borg",
}

// controlSockets are local control APIs a confined command must not reach
// through the filesystem (root through the Docker API is root on the host).
var controlSockets = []string{
	"/run/docker.sock", "/var/run/docker.sock", "/run/containerd/containerd.sock", "/run/podman/podman.sock",
	"/run/crio/crio.sock", "/run/buildkit/buildkitd.sock", "/var/run/libvirt/libvirt-sock", "/run/k3s/containerd/containerd.sock",
}

// newConfinement says what a command allowed under s and v may touch, or
// nil when confinement is off. proj is the project root, getenv the
// command's environment, self guard's program and guardPaths guard's own
// config, state, cache and data directories.
func newConfinement(s *grants.Settings, v grants.Verdict, cwd, text string, getenv func(string) string, paths grants.Paths, self string) *confinement {
	spec := s.ConfineFor(v)
	if spec.Mode == grants.ConfineOff {
		return nil
	}
	c := &confinement{spec: spec, self: self}
	if h := getenv("HOME"); filepath.IsAbs(h) && h != "/" && isDir(h) {
		c.home = filepath.Clean(h)
	}
	c.root = s.Root
	if c.root == "" {
		c.root = grants.ProjectRoot(cwd)
	}
	if c.root == "" || c.root == "/" {
		c.root = cwd
	}
	add := func(list *[]string, p string) {
		if p != "" && filepath.IsAbs(p) && exists(p) && !slices.Contains(*list, filepath.Clean(p)) {
			*list = append(*list, filepath.Clean(p))
		}
	}
	// mark lists paths the mount step binds or covers: it stats each one
	// there and skips what is missing, so they are not stat'ed here too
	// (seventy /etc names for root, on every command)
	mark := func(list *[]string, p string) {
		if p != "" && filepath.IsAbs(p) && !slices.Contains(*list, filepath.Clean(p)) {
			*list = append(*list, filepath.Clean(p))
		}
	}
	// A project root of / or home would make everything writable: then
	// only the working directory is (and never / or home itself).
	if c.root != "/" && c.root != c.home {
		add(&c.write, c.root)
	}
	gitDirs := gitDirs(c.root)
	for _, d := range gitDirs {
		add(&c.write, d)
	}
	for _, t := range []string{"/tmp", "/var/tmp", "/dev/shm", getenv("TMPDIR")} {
		if t != "/" && t != c.home {
			add(&c.write, t)
		}
	}
	for _, t := range spec.Write {
		add(&c.write, t)
	}
	for _, t := range envCaches(getenv, c.home, paths) {
		add(&c.write, t)
	}
	for i := range s.Tiers {
		r := &s.Tiers[i]
		if r.Kind != grants.Allow || r.Tier != grants.TierWrite || r.Layer == grants.LayerProject && !r.Trusted {
			continue
		}
		if p := filepath.Clean(r.Pattern); p != "/" && p != c.home {
			add(&c.write, p)
		}
	}
	if c.home != "" {
		// the XDG cache tree is the caches' own (guard's cache in it stays
		// hidden): made if missing, so a first build can fill it
		xdgCache := filepath.Join(c.home, ".cache")
		if !exists(xdgCache) {
			_ = os.Mkdir(xdgCache, 0o700)
		}
		add(&c.write, xdgCache)
		makeToolCaches(c.home, text)
		// About sixty names below are looked for in home, most of them
		// missing: home's own entries, read once, rule out those whose
		// first component is not there without a stat each.
		names := homeNames(c.home)
		inHome := func(rel string) bool {
			if names == nil {
				return exists(filepath.Join(c.home, rel)) // home unreadable or huge: stat each
			}
			first, _, _ := strings.Cut(rel, "/")
			_, found := slices.BinarySearch(names, first)
			return found && exists(filepath.Join(c.home, rel))
		}
		keepAt := func(rel string, writable bool) bool {
			if !inHome(rel) {
				return false
			}
			c.keep = append(c.keep, kept{filepath.Join(c.home, rel), writable})
			return true
		}
		for _, rel := range homeCaches {
			if p := filepath.Join(c.home, rel); keepAt(rel, true) && !slices.Contains(c.write, p) {
				c.write = append(c.write, p) // add, without its stat again
			}
		}
		for _, rel := range homeTools {
			keepAt(rel, false)
		}
		for _, rel := range homeDotfiles {
			keepAt(rel, false)
		}
		for i := range s.Tiers {
			r := &s.Tiers[i]
			if r.Kind == grants.Allow && r.Tier == grants.TierRead && (r.Layer != grants.LayerProject || r.Trusted) &&
				under(r.Pattern, c.home) && r.Pattern != c.home && exists(r.Pattern) {
				c.keep = append(c.keep, kept{filepath.Clean(r.Pattern), false})
			}
		}
		// Claude Code sources its shell snapshot before every command.
		for _, d := range []string{getenv("CLAUDE_CONFIG_DIR"), filepath.Join(c.home, ".claude")} {
			if d != "" && under(d, c.home) {
				keepAt(strings.TrimPrefix(filepath.Join(d, "shell-snapshots"), c.home+"/"), false)
			}
		}
		for _, w := range c.write {
			if under(w, c.home) && w != c.home {
				c.keep = append(c.keep, kept{w, true})
			}
		}
		// a nested guard judges with the same config and finds its links
		for _, d := range []string{paths.ConfigDir, paths.DataDir, filepath.Dir(self)} {
			if d != "" && under(d, c.home) && d != c.home && exists(d) {
				c.keep = append(c.keep, kept{filepath.Clean(d), false})
			}
		}
		for _, rel := range homeHidden {
			if inHome(rel) {
				c.hide = append(c.hide, filepath.Join(c.home, rel))
			}
		}
	}
	for _, rel := range projectProtected {
		mark(&c.protect, filepath.Join(c.root, rel))
	}
	for _, d := range gitDirs {
		for _, rel := range gitProtected {
			mark(&c.protect, filepath.Join(d, rel))
		}
	}
	// guard's own files: the config is readable (a nested guard judges
	// with it), never writable; the state (approvals, the hash key, the
	// journal) and the cache are neither.
	mark(&c.protect, paths.ConfigDir)
	mark(&c.protect, paths.DataDir)
	mark(&c.protect, paths.Managed)
	for _, b := range Binaries(self) {
		mark(&c.protect, b)
	}
	mark(&c.hide, paths.StateDir)
	mark(&c.hide, paths.CacheDir)
	for _, sock := range controlSockets {
		mark(&c.hide, sock)
	}
	if os.Geteuid() == 0 {
		for _, rel := range etcSecrets {
			mark(&c.hide, filepath.Join("/etc", rel))
		}
	}
	return c
}

// cacheVars name the caches a toolchain was told to use.
var cacheVars = []string{
	"GOCACHE", "GOMODCACHE", "XDG_CACHE_HOME", "npm_config_cache", "NPM_CONFIG_CACHE", "YARN_CACHE_FOLDER",
	"PIP_CACHE_DIR", "UV_CACHE_DIR", "CARGO_HOME", "RUSTUP_HOME", "GRADLE_USER_HOME", "DENO_DIR",
	"BUN_INSTALL_CACHE_DIR", "NUGET_PACKAGES", "CCACHE_DIR", "SCCACHE_DIR", "PRE_COMMIT_HOME",
}

// systemTrees are never writable, whatever a variable says.
var systemTrees = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/proc", "/sys", "/dev", "/opt", "/var/lib", "/var/log", "/run"}

// envCaches are the caches the environment names, where they can be
// nothing else: the agent sets the environment, so a variable may not make
// home, a system tree or a short path (/root) writable. Inside home only a
// tree under ~/.cache or one of the known caches counts.
func envCaches(getenv func(string) string, home string, paths grants.Paths) []string {
	var out []string
	for _, v := range cacheVars {
		p := getenv(v)
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		if strings.Count(p, "/") < 3 || (home != "" && under(home, p)) {
			continue
		}
		bad := false
		for _, t := range systemTrees {
			bad = bad || under(p, t)
		}
		for _, g := range []string{paths.ConfigDir, paths.StateDir, paths.DataDir} {
			bad = bad || under(g, p)
		}
		if home != "" && under(p, home) {
			ok := under(p, filepath.Join(home, ".cache"))
			for _, rel := range homeCaches {
				ok = ok || under(p, filepath.Join(home, rel))
			}
			bad = bad || !ok
		}
		if !bad {
			out = append(out, p)
		}
	}
	return out
}

// gitDirs are the project's git directory and, for a worktree or a
// submodule (.git is a file naming it), that directory and its common
// directory: where git commit writes.
func gitDirs(root string) []string {
	dotgit := filepath.Join(root, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return []string{dotgit}
	}
	if !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return nil
	}
	b, err := os.ReadFile(dotgit)
	if err != nil {
		return nil
	}
	line, _, _ := strings.Cut(string(b), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return nil
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	out := []string{dir}
	if b, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil && len(b) < 4096 {
		common := strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		out = append(out, filepath.Clean(common))
	}
	return out
}

// under reports whether p is dir or below it.
func under(p, dir string) bool {
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	return p == dir || strings.HasPrefix(p, dir+"/") || dir == "/"
}

// homeNames returns the names of home's entries, sorted, or nil when home
// cannot be read or holds more than a thousand (then each name is stat'ed).
func homeNames(home string) []string {
	fd, err := syscall.Open(home, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), home) // no poller: a directory
	defer f.Close()
	names, err := f.Readdirnames(1001)
	if err != nil || len(names) > 1000 {
		return nil
	}
	slices.Sort(names)
	return names
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// confineJob readies the boundary of an allowed job (a.conf, and what the
// record says of it). With [confine] required, a kernel that cannot
// confine refuses the command; without it, the command runs as before and
// the human is told at most once a day. The agent's own plumbing and
// hooks run as the agent would run them.
func (a *app) confineJob(j job, s *grants.Settings, v grants.Verdict, start time.Time) (refused bool, exit int) {
	a.conf, a.confined = nil, ""
	if a.eng.confine == nil || j.hookCall || j.plumbing != "" {
		return false, 0
	}
	if a.insideBoundary() {
		a.confined = "inside an outer guard's boundary"
		return false, 0
	}
	c := a.eng.confine(j, s, v)
	if c == nil {
		a.confined = grants.ConfineOff
		return false, 0
	}
	if landlockABI() < 1 {
		why := "this kernel has no Landlock"
		a.confined = "unconfined: " + why
		if c.spec.Required {
			fmt.Fprintf(a.env.Stderr, "guard: denied: confine: %s and [confine] required = true, so the command did not run\n", why)
			v.Rule, v.Reason = "confine-required", why
			a.record(j, v, "deny", byRule, ExitRefused, start)
			return true, ExitRefused
		}
		if a.eng.confineNotice != nil {
			a.eng.confineNotice(why)
		}
		return false, 0
	}
	a.conf, a.confined = c, c.spec.String()
	if c.spec.Network == grants.NetHosts {
		cli, _ := FindCLI(a.env.Self, a.env.getenv("PATH"))
		c.proxy = &proxyLink{cli: cli, cwd: j.cwd, text: a.eng.redact(j.text), environ: a.env.Environ}
	}
	return false, 0
}

// confineNotice tells the human, at most once a day (a marker file in the
// state directory), that commands run unconfined here and why.
func confineNotice(stateDir string, w io.Writer, why string) {
	marker := filepath.Join(stateDir, "confine-notice")
	if fi, err := os.Lstat(marker); err == nil && time.Since(fi.ModTime()) < 24*time.Hour {
		return
	}
	fmt.Fprintf(w, "guard: warning: commands run unconfined: %s (guard doctor says more; [confine] required = true refuses instead)\n", why)
	if f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600); err == nil {
		f.Close()
		now := time.Now()
		_ = os.Chtimes(marker, now, now)
	}
}

// ConfigReadOnly reports whether guard's config directory (or, before it
// exists, its nearest existing parent) is on a read-only mount: what every
// process a confined command started sees, detached or not. guard-cli's
// granting verbs refuse there with a line that says so.
func ConfigReadOnly(dir string) bool {
	for d := filepath.Clean(dir); filepath.IsAbs(d); d = filepath.Dir(d) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err == nil {
			return st.Flags&1 != 0 // ST_RDONLY
		}
		if d == "/" {
			break
		}
	}
	return false
}

// LandlockABI is the kernel's Landlock ABI version (0: none): whether guard
// can confine what it runs here.
func LandlockABI() int { return landlockABI() }

// ProbeConfinement runs a harmless probe inside the boundary a command in
// cwd would get: it tries to create a file directly in home, which must
// fail. It reports what the kernel took ("landlock+mounts", …) or why the
// boundary does not hold.
func ProbeConfinement(s *grants.Settings, cwd string, getenv func(string) string, self string) (string, error) {
	c := newConfinement(s, grants.Verdict{Decision: grants.Allow}, cwd, "", getenv, grants.PathsFromEnv(getenv), self)
	if c == nil {
		return "", errors.New(`[confine] mode = "off"`)
	}
	if landlockABI() < 1 {
		return "", errUnconfined
	}
	if c.home == "" {
		return "", errors.New("HOME is not a directory")
	}
	probe := filepath.Join(c.home, ".guard-doctor-probe")
	sh := "/bin/sh"
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return "", err
	}
	defer devnull.Close()
	fd := devnull.Fd()
	pid, release, err := c.start(nil, sh, []string{"sh", "-c", `: > "$1"`, "sh", probe}, &syscall.ProcAttr{
		Dir: cwd, Env: []string{"PATH=/usr/bin:/bin"}, Files: []uintptr{fd, fd, fd},
		Sys: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		return "", err
	}
	var ws syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			break
		}
	}
	release()
	if _, err := os.Lstat(probe); err == nil || ws.ExitStatus() == 0 {
		os.Remove(probe)
		return c.applied, fmt.Errorf("a confined probe created %s: the boundary does not hold", probe)
	}
	return c.applied, nil
}

// insideBoundary reports whether this guard runs inside another guard's
// boundary (a nested guard: a confined command ran bash through guard's
// link). The kernel says so, not the environment: no_new_privs and a
// seccomp filter are set, and guard's state directory is on a read-only
// mount. The outer guard judged the whole text, keeps its record and holds
// the boundary; this one judges again but neither confines again (Landlock
// allows 16 nested domains) nor warns that it cannot write a record.
func (a *app) insideBoundary() bool {
	a.insideOnce.Do(func() {
		if a.env.getenv("GUARD_DEPTH") == "" || a.env.getenv("GUARD_DEPTH") == "0" {
			return
		}
		b, err := os.ReadFile("/proc/self/status")
		if err != nil || !strings.Contains(string(b), "\nNoNewPrivs:\t1\n") || !strings.Contains(string(b), "\nSeccomp:\t2\n") {
			return
		}
		a.inside = ConfigReadOnly(grants.PathsFromEnv(a.env.getenv).StateDir)
	})
	return a.inside
}
