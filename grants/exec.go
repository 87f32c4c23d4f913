package grants

import (
	"path"
	"slices"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// typedWords is the argument model's parse of c, with a group its entry
// names resolved (classify.Spec.Groups): docker container run is docker
// run.
func typedWords(c *classify.Command) classify.Parsed {
	p := c.Words()
	if s := classify.SpecFor(c.Name); s != nil && s.Groups != nil && slices.Contains(s.Groups, p.SubName(c.Args)) && p.Sub+1 < len(c.Args) {
		q := classify.ParseCommand(c.Name, append([]string{c.Name}, c.Args[p.Sub+1:]...))
		for i := range q.Words {
			q.Words[i].Arg += p.Sub
		}
		if q.Sub >= 0 {
			q.Sub += p.Sub
		}
		return q
	}
	return p
}

// marks are the sensitive words of one command and why.
type marks struct {
	sens   []bool // per word of Args
	reason string // first reason found
	all    bool   // no allow pattern with '*' covers the command at all (LESSOPEN)
	any    bool
	// root is the project root "outside the project" is judged against
	// (Settings.Root); "" takes the command's own directory.
	root string
	// tiers, when set, knows the user's write grants: a write outside the
	// project that one covers is not marked (tiers.go, writeGranted).
	tiers *tiers
	// untyped are the option words the argument model could not type
	// (closed world under '*'): a '*' does not cover them either, but
	// they are no reason to leave the read-only set. ureason names the
	// first: "npm: --editor is not an option guard knows; asked".
	untyped []bool
	ureason string
}

// markUntyped marks the option words c's spec (or the lack of one) does
// not type: under a '*' grant guard asks about what it cannot read.
// Wrappers, shells and interpreters are marked whole already.
func markUntyped(c *classify.Command, m *marks, p classify.Parsed) {
	m.untyped = make([]bool, len(c.Args))
	if c.Name == "" || len(c.Args) < 2 || c.Wrap != classify.WrapNone || c.Opaque {
		return
	}
	if strings.HasPrefix(c.Args[0], "./") && classify.SpecFor(c.Name) == nil {
		return // the project's own script: its options are its own, like its operands
	}
	name := c.Name
	if c.Name != "go" && interpreterLike(c.Name) {
		// python -m pytest is pytest (every name python's spec is for is
		// an interpreter to classify); the rest is judged by what it runs
		q, ok := classify.PytestWords(c, p)
		if !ok {
			return
		}
		p, name = q, "pytest"
	}
	// a word computed at run time may turn out to be any option of a
	// program guard has no spec for: $X, "$@" (./$X, "$DIR"/x and a word
	// after -- cannot). A spec's options are typed, and the exec table
	// marks a dynamic word of the programs it knows.
	dashdash := classify.SpecFor(name) != nil
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == "--" && !dyn(c, i) {
			dashdash = true
		}
		if dashdash || !dyn(c, i) || m.sens[i] || !mayBeOption(c.Args[i]) {
			continue
		}
		m.untyped[i] = true
		if m.ureason == "" {
			m.ureason = name + ": " + c.Args[i] + " is computed at run time and may be an option guard cannot type; asked"
		}
	}
	for _, w := range p.UntypedOptions(c.Args) {
		if isHelpWord(c.Args[w.Arg]) || m.sens[w.Arg] {
			continue
		}
		m.untyped[w.Arg] = true
		if w.Name != "" && w.Val == "" && w.Arg+1 < len(c.Args) && !strings.HasPrefix(c.Args[w.Arg+1], "-") {
			m.untyped[w.Arg+1] = true // its value may be the next word
		}
		if m.ureason == "" {
			opt := classify.OptionSpelling(c.Args, w)
			switch {
			case classify.SpecFor(name) == nil:
				m.ureason = name + ": guard has no spec of " + name + "'s options, so " + opt + " is not one it knows; asked"
			case !p.Spec && p.Sub >= 0:
				m.ureason = c.Name + " " + c.Args[p.Sub] + ": guard has no spec of this subcommand, so " + opt + " is not an option it knows; asked"
			case p.Sub >= 0 && p.Sub < w.Arg:
				m.ureason = c.Name + " " + c.Args[p.Sub] + ": " + opt + " is not an option guard knows; asked"
			default:
				m.ureason = name + ": " + opt + " is not an option guard knows; asked"
			}
		}
	}
}

func (m *marks) Mark(i int, reason string) {
	if i < 0 || i >= len(m.sens) {
		return
	}
	m.sens[i] = true
	m.any = true
	if m.reason == "" {
		m.reason = reason
	}
}

// MarkAll: no allow pattern with a '*' covers the command at all.
func (m *marks) MarkAll(reason string) {
	m.all, m.any = true, true
	if m.reason == "" {
		m.reason = reason
	}
}

// OutsideProject reports a repository or package path on this machine
// outside the project (otherRepository).
func (m *marks) OutsideProject(c *classify.Command, v string) bool {
	return otherRepository(v, c.Dir, m.root)
}

// Parse is the argument model, for the checks of classify's entries.
func (m *marks) Parse(name string, args []string) classify.Parsed {
	return classify.ParseCommand(name, args)
}

// MarkWord marks a typed word and, for an option's value given as the
// next word, the option word before it.
func (m *marks) MarkWord(c *classify.Command, wd classify.Word, reason string) {
	m.Mark(wd.Arg, reason)
	if wd.Name != "" && wd.Role != classify.RoleFlag && wd.Arg < len(c.Args) && c.Args[wd.Arg] == wd.Val && wd.Arg > 1 {
		m.Mark(wd.Arg-1, reason) // -o FILE: the option word too
	}
	if wd.Role == classify.RoleUnknown && wd.Name != "" && wd.Val == "" {
		m.Mark(wd.Arg+1, reason) // an option the spec does not know: its value may be the next word
	}
}

// markCommand fills m for c: table hits, wrapped commands and interpreter
// scripts, and dynamic words of programs the table knows.
func markCommand(c *classify.Command, m *marks) {
	m.sens = make([]bool, len(c.Args))
	switch c.Wrap {
	case classify.WrapTransparent, classify.WrapGenerated:
		if c.InnerStart > 0 {
			for i := c.InnerStart; i < len(c.Args); i++ {
				m.Mark(i, c.Name+" runs another command")
			}
		}
	case classify.WrapShell:
		for i := 1; i < len(c.Args); i++ {
			m.Mark(i, c.Name+" runs a shell script")
		}
	}
	if c.Opaque {
		for i := 1; i < len(c.Args); i++ {
			m.Mark(i, c.Name+" runs a script guard cannot read")
		}
	}
	var p classify.Parsed
	parsed := false
	known := false
	apply := func(r *classify.ExecRule) {
		if r.Only != nil && !slices.Contains(r.Only, c.Name) {
			return
		}
		if !parsed {
			p, parsed = typedWords(c), true
		}
		if r.Sub != nil && p.Sub >= 0 && dyn(c, p.Sub) {
			known = true // a dynamic subcommand could be any of them
		}
		if r.Sub != nil && !slices.Contains(r.Sub, p.SubName(c.Args)) {
			return
		}
		known = true
		if r.Rest {
			from := 1
			if r.Sub != nil {
				from = p.Sub
			}
			for i := from; i < len(c.Args); i++ {
				if !isHelpWord(c.Args[i]) {
					m.Mark(i, r.Reason)
				}
			}
			return
		}
		if r.Check != nil {
			r.Check(c, p, m)
		}
		for _, wd := range p.Words {
			if r.Global && p.Sub >= 0 && wd.Arg >= p.Sub {
				break
			}
			if r.Hit(wd) {
				m.MarkWord(c, wd, r.Reason)
			}
		}
	}
	// the program's own entry in classify holds its exec-capable rules
	if s := classify.SpecFor(c.Name); s != nil {
		for ri := range s.Exec {
			apply(&s.Exec[ri])
		}
	}
	if !parsed {
		p = typedWords(c)
	}
	markRoles(c, m, &p)
	markUntyped(c, m, p)
	markSecrets(c, m)
	if known && c.Dynamic != nil {
		for i := 1; i < len(c.Args) && i < len(c.Dynamic); i++ {
			if c.Dynamic[i] {
				m.Mark(i, "a dynamic argument to "+c.Name+" could be an exec-capable option")
			}
		}
	}
}

func isHelpWord(w string) bool { return classify.HelpWord(w) }

// mayBeOption reports a dynamic word, as written, that may expand to a
// word starting with a dash: one that starts with an expansion ($X,
// "$X", ${X}, $(…), `…`), not with literal text (./$X, x$Y).
func mayBeOption(src string) bool {
	src = strings.TrimLeft(src, "\"'")
	return src == "" || src[0] == '$' || src[0] == '`' || src[0] == '-'
}

// markRoles marks what the argument model types as running another
// program, or as writing, working or reading instructions outside the
// project (cp x .git/hooks/pre-commit, curl -D ~/.bashrc, make -C
// elsewhere, docker compose -f ../x.yml, pytest -p plugin): the promise of
// a '*' grant is that it never covers those.
//
// pp is the parse markCommand already made, nil when it made none.
func markRoles(c *classify.Command, m *marks, pp *classify.Parsed) {
	if c.Name == "" || len(c.Args) < 2 || c.Wrap != classify.WrapNone || c.Opaque ||
		c.Name != "go" && interpreterLike(c.Name) {
		return // shells, interpreters and wrappers are judged by what they run
	}
	var p classify.Parsed
	if pp != nil {
		p = *pp
	} else {
		p = typedWords(c)
	}
	if !p.Spec && p.Sub < 0 {
		return
	}
	spec := classify.SpecFor(c.Name)
	// tar xzf F: the entry says its first word may be options without a dash
	oldTar := spec != nil && spec.DashlessFirst && !strings.HasPrefix(c.Args[1], "-")
	mark := func(wd classify.Word, why string) {
		if oldTar || wd.Arg >= len(c.Args) {
			for i := 1; i < len(c.Args); i++ {
				m.Mark(i, why)
			}
			return
		}
		m.Mark(wd.Arg, why)
	}
	sub := p.SubName(c.Args)
	instructions := spec != nil && spec.Instructions || c.Name == "npm"
	upload := spec != nil && spec.Uploads || uploader(c.Name)
	repoURLs := spec != nil && spec.RepoURLs
	for _, wd := range p.Words {
		dynamic := wd.Arg < len(c.Dynamic) && c.Dynamic[wd.Arg]
		switch wd.Role {
		case classify.RoleProgram:
			// find -exec's command is walked and judged on its own
			// (ProgramsWalked); pytest -p no:NAME turns a plugin off
			if !(spec != nil && spec.ProgramsWalked) && !strings.HasPrefix(wd.Val, "no:") {
				mark(wd, c.Name+" runs another program")
			}
		case classify.RoleWrite, classify.RoleDir:
			if v, ok := writeTarget(c.Name, wd); ok && (dynamic || elsewhere(v, c.Dir, m.root) && !m.tiers.writeGranted(c, v)) {
				mark(wd, c.Name+" writes or works outside the project")
			}
		case classify.RoleUse:
			if instructions && wd.Name != "" && (dynamic || elsewhere(wd.Val, c.Dir, m.root)) {
				mark(wd, c.Name+" reads its configuration from outside the project")
			}
		case classify.RoleURL:
			if repoURLs && (dynamic || otherRepository(wd.Val, c.Dir, m.root)) {
				mark(wd, "git reads from another repository on this machine, outside the project")
			}
		case classify.RoleRead:
			switch {
			case upload && secretFile(wd.Val):
				mark(wd, c.Name+" sends a secret file (.env, .git/config, keys) elsewhere")
			case instructions && (dynamic || elsewhere(wd.Val, c.Dir, m.root)) && (wd.Name != "" || sub == "build"):
				mark(wd, c.Name+" reads its instructions from outside the project")
			}
		}
		// what the entry says of one word (make CFLAGS=-B/tmp, docker
		// --privileged, npm -g): classify.Spec.WordRisk
		if spec != nil && spec.WordRisk != nil {
			if why := spec.WordRisk(c, sub, wd, p); why != "" {
				mark(wd, why)
			}
		}
	}
	if why := subRisk(c, p, sub); why != "" {
		for i := max(p.Sub, 1); i < len(c.Args); i++ {
			m.Mark(i, why)
		}
	}
	// Files written into the command's own directory, named by no word
	// (curl -O, wget, tar -x): after cd ~ that directory is not the project.
	if writesHere(c.Name, p) && elsewhere(".", c.Dir, m.root) {
		for i := 1; i < len(c.Args); i++ {
			m.Mark(i, c.Name+" writes into a directory outside the project")
		}
	}
}

// writeTarget returns the path a write word names, as the program's
// entry reads it (classify.Spec.WriteTarget: docker build --output
// type=local,dest=PATH); ok is false when it names none on this machine.
func writeTarget(name string, wd classify.Word) (string, bool) {
	if s := classify.SpecFor(name); s != nil && s.WriteTarget != nil {
		return s.WriteTarget(wd)
	}
	return wd.Val, true
}

// otherRepository reports a git repository URL that is a path on this
// machine (/x, ~/x, ../x, file:///x) outside the project: git fetches its
// objects and refs, and its config and hooks are not the project's. A
// remote's name, host:path and scheme://host URLs are not paths; a path
// in scratch space is not exempt, as it is for writes.
func otherRepository(v, dir, root string) bool {
	if rest, ok := strings.CutPrefix(v, "file://"); ok {
		v = rest
	} else if strings.Contains(v, "::") || strings.Contains(v, "://") {
		return false // ext:: and fd:: are judged by the exec table; network URLs go elsewhere by design
	} else if k := strings.IndexByte(v, ':'); k > 0 && !strings.Contains(v[:k], "/") {
		return false // host:path
	}
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~") && !strings.HasPrefix(v, ".") {
		return false // a remote's name
	}
	if strings.HasPrefix(v, "~") {
		return true
	}
	if dir == "" {
		rel := path.Clean(v)
		return path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../")
	}
	abs := v
	if !path.IsAbs(abs) {
		abs = path.Join(dir, abs)
	}
	abs = path.Clean(abs)
	project := root
	if project == "" {
		project = dir
	}
	return abs != project && !strings.HasPrefix(abs, strings.TrimSuffix(project, "/")+"/")
}

// writesHere reports a command that writes files into its working
// directory without a word naming them, as the program's entry says
// (classify.Spec.WritesHere: curl -O, wget without -O, tar -x without -C).
func writesHere(name string, p classify.Parsed) bool {
	s := classify.SpecFor(name)
	return s != nil && s.WritesHere != nil && s.WritesHere(p)
}

// uploader: programs without an entry (classify.Spec.Uploads) that can
// send a local file to another machine.
func uploader(name string) bool {
	switch name {
	case "http", "https", "xh", "rclone":
		return true
	}
	return false
}

// elsewhere reports a path outside the project — /tmp aside — or a place
// inside it that runs or configures things: .git/config, .git/hooks/,
// dotfiles, systemd and autostart units. A relative p resolves against dir,
// the command's directory after any cd; inside and outside are judged
// against root, the project's root ("" takes dir): after cd ~ or
// cd .git/hooks a relative name is where the cd went, not in the project.
func elsewhere(p, dir, root string) bool {
	p = strings.TrimPrefix(p, "@")
	switch p {
	case "", "-", "/dev/null", "/dev/stdout", "/dev/stderr":
		return false
	}
	if k := strings.Index(p, ":"); k > 0 && !strings.Contains(p[:k], "/") {
		return false // host:path, a remote side
	}
	if dir == "" {
		// no working directory known: a relative path stays where the
		// command runs, unless it climbs out or names a place that runs code
		if !path.IsAbs(p) {
			rel := path.Clean(p)
			return rel == ".." || strings.HasPrefix(rel, "../") || runsFromHere(rel)
		}
		return !strings.HasPrefix(p, "/tmp/") && !strings.HasPrefix(p, "/var/tmp/") || runsFromHere(p)
	}
	abs := p
	if !path.IsAbs(p) {
		abs = path.Join(dir, p)
	}
	abs = path.Clean(abs)
	project := root
	if project == "" {
		project = dir
	}
	inside := abs == project || strings.HasPrefix(abs, strings.TrimSuffix(project, "/")+"/")
	if !inside {
		// scratch space is fine, unless the project itself lives there
		// (then a home or project beside it may too)
		scratch := strings.HasPrefix(abs, "/tmp/") || strings.HasPrefix(abs, "/var/tmp/")
		tmpProject := strings.HasPrefix(project, "/tmp/") || strings.HasPrefix(project, "/var/tmp/")
		return !scratch || tmpProject || runsFromHere(abs)
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(abs, project), "/")
	return runsFromHere(rel)
}

// runsFromHere reports a project-relative path whose contents something
// runs or obeys: git's config and hooks, shell dotfiles, service units.
func runsFromHere(rel string) bool {
	comps := strings.Split(rel, "/")
	for i, c := range comps {
		// git's directory, also as a glob that may name it (.g?t, .gi[t])
		// and in any case (a case-folding filesystem): its config, hooks and
		// info, and those of its submodules (.git/modules/M/hooks)
		if names(c, ".git") {
			if i+1 == len(comps) {
				return true
			}
			for _, d := range comps[i+1:] {
				if names(d, "config") || names(d, "hooks") || names(d, "info") {
					return true
				}
			}
		}
		if c == "systemd" || c == "autostart" || c == "LaunchAgents" || c == "LaunchDaemons" || c == ".husky" {
			return true
		}
		// an editor runs the tasks and launch configurations it finds here
		if names(c, ".vscode") && i+1 < len(comps) {
			return true
		}
	}
	switch path.Base(rel) {
	case ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
		".envrc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".gitconfig", ".gitattributes", ".pre-commit-config.yaml", ".inputrc", ".curlrc", ".wgetrc":
		return true
	}
	return false
}

// names reports whether the path component c may name name: equal in any
// case, or a glob pattern (*, ?, [...]) that matches it in any case.
func names(c, name string) bool {
	if strings.EqualFold(c, name) {
		return true
	}
	if !strings.ContainsAny(c, "*?[") {
		return false
	}
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(c, ".") {
		return false // bash's globs match a leading dot only when it is written
	}
	ok, err := path.Match(strings.ToLower(c), name)
	return ok || err != nil // a malformed pattern: assume the worst
}

// secretFile reports a file that holds secrets: .env files (templates
// aside), git's config (remote URLs with tokens), keys and tokens.
func secretFile(v string) bool {
	if k := strings.LastIndexByte(v, '@'); k >= 0 {
		v = v[k+1:] // curl -d @file, -F name=@file
	}
	v, _, _ = strings.Cut(v, ";") // -F file=@x;type=text/plain
	base := path.Base(v)
	switch base {
	case ".env.example", ".env.sample", ".env.template":
		return false
	case ".env", ".netrc", ".npmrc", ".pypirc", ".git-credentials", "id_rsa", "id_ed25519", "id_ecdsa", "credentials":
		return true
	}
	return strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") || strings.HasSuffix(base, ".pem") ||
		strings.HasSuffix(base, ".key") || strings.Contains(v, ".git/config") || strings.Contains(v, "/.ssh/") || strings.HasPrefix(v, ".ssh/")
}

// subRisk: subcommands that run code or change how later commands run,
// as the program's entry in classify says (classify.Spec.SubRisk: npm
// create PKG, npm config set script-shell, docker context use, go run
// MODULE@VERSION).
func subRisk(c *classify.Command, p classify.Parsed, sub string) string {
	if s := classify.SpecFor(c.Name); s != nil && s.SubRisk != nil {
		return s.SubRisk(c, p, sub)
	}
	return ""
}

// markSecrets marks a command the argument model says may print secrets
// (classify's EffectMayPrintSecret: kubectl get secret -o yaml, vault
// read, printenv alone), and the environment dumps (set, export -p): no
// '*' in a grant covers it, only the literal text does.
func markSecrets(c *classify.Command, m *marks) {
	if c.Wrap != classify.WrapNone || len(c.Args) == 0 {
		return
	}
	p := typedWords(c)
	if p.Effect&(classify.EffectMayPrintSecret|classify.EffectPrintsSecret) == 0 && !envDump(c) {
		return
	}
	m.all, m.any = true, true
	if m.reason == "" {
		m.reason = c.Name + " may print secrets: only a grant of its exact text covers it"
	}
	for i := 1; i < len(c.Args); i++ {
		m.sens[i] = true
	}
}
