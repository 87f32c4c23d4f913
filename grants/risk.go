package grants

import (
	"path"
	"slices"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// Risk grades what a command text does, from what classify knows of it,
// so that the word in a prompt, in guard check --json and in the audit
// tells a human something:
//
//   - none: it only reads, inside the project (the built-in read-only set,
//     every path it names under Settings.Root);
//   - low: it writes inside the project, or builds and tests (a known build
//     tool, or a command a grant covers);
//   - high: it names a path outside the project, reaches the network,
//     installs packages, deletes a tree, or runs something guard cannot see
//     into (an interpreter on a script, a shell reading a script, a dynamic
//     command word, a command no spec knows and no grant covers, a redirect
//     whose target guard does not track).
//
// The grade of a text is the highest grade of its commands. A verdict of
// the hard denylist or a fail-closed verdict is always high. The dry-run
// escalation (Settings.Escalate) counts only high would-deny verdicts.

// riskRank orders the grades.
func riskRank(r Risk) int {
	switch r {
	case RiskNone:
		return 0
	case RiskLow:
		return 1
	}
	return 2
}

// gradeRisk is the risk of a verdict on a: covered says a rule allowed
// what runs (a grant, or composite each).
func gradeRisk(a *classify.Analysis, s *Settings, v Verdict) Risk {
	if a == nil || a.Fail != "" || len(a.Deny) > 0 || (v.Decision == Deny && v.Layer == LayerBuiltin && v.Rule != RuleUnknown) {
		return RiskHigh
	}
	if len(a.Ask) > 0 {
		return RiskHigh // built-in destructive patterns: git push --force, rm -r, …
	}
	covered := v.Decision == Allow
	r := RiskNone
	for _, why := range a.Composite {
		switch why {
		case classify.CompFunction:
			if s != nil && s.Person {
				// typed in the interactive shell: the body's commands
				// are graded below, as its parts
				continue
			}
			return RiskHigh
		case classify.CompRedirect, classify.CompHeredoc, classify.CompProcSubst:
			// a redirect's target is not in the Analysis: it may be
			// anywhere (the path tiers will say where)
			return RiskHigh
		case classify.CompBackground:
			r = RiskLow
		}
	}
	root := ""
	if s != nil {
		root = s.Root
	}
	for i := range a.Commands {
		r = maxRisk(r, commandRisk(&a.Commands[i], root, covered))
		if r == RiskHigh {
			return r
		}
	}
	return r
}

// commandRisk grades one simple command (the commands a wrapper runs are
// graded on their own, as they are in Analysis.Commands too).
func commandRisk(c *classify.Command, root string, covered bool) Risk {
	if len(c.Args) == 0 {
		return RiskNone
	}
	if dyn(c, 0) || c.Opaque || c.Tainted && !printsArgs(c.Name) || c.DirUnknown {
		return RiskHigh
	}
	name := commandName(c)
	switch c.Wrap {
	case classify.WrapGenerated:
		return RiskHigh // xargs, find -exec: arguments guard cannot see
	case classify.WrapShell:
		if len(c.Inner) == 0 && len(c.Args) > 1 {
			return RiskHigh
		}
		return RiskNone // its script's commands are graded on their own
	case classify.WrapTransparent:
		if len(c.Inner) > 0 {
			return RiskNone
		}
		if c.InnerStart > 0 && c.InnerStart < len(c.Args) {
			in := classify.Command{Args: c.Args[c.InnerStart:], Dir: c.Dir, Name: path.Base(c.Args[c.InnerStart])}
			if c.Dynamic != nil {
				in.Dynamic = c.Dynamic[c.InnerStart:]
			}
			return commandRisk(&in, root, covered)
		}
		return RiskNone
	}
	switch name {
	case "cd", "pushd", "popd", "pwd", "true", "false", ":", "exit":
		return RiskNone // moving around reads nothing: what runs after is graded where it runs
	}
	if c.Dir != "" && root != "" && outsideProject(c.Dir, "", root) {
		return RiskHigh // it works outside the project (after cd /)
	}
	spec := classify.SpecFor(name) // the program's entry, asked once for the facts below
	if networkCommand(name, spec) {
		return RiskHigh
	}
	if isInterpreter(name, spec) && name != "go" && len(c.Args) > 1 && !versionArgs(c.Args) {
		return RiskHigh // python x.py, bash script.sh, node app.js: guard cannot see into it
	}
	var p classify.Parsed
	if c.Typed != nil || spec != nil {
		p = c.Words()
	}
	sub := p.SubName(c.Args)
	if installs(name, sub, spec) || networkSub(sub, spec) || deletesTree(name, p, spec) {
		return RiskHigh
	}
	r := RiskNone
	for k, wd := range p.Words {
		d := wd.Arg < len(c.Dynamic) && c.Dynamic[wd.Arg]
		switch wd.Role {
		case classify.RoleURL:
			return RiskHigh
		case classify.RoleRead, classify.RoleMeta, classify.RoleUse, classify.RoleDir:
			if d || outsideProject(wd.Val, c.Dir, root) {
				return RiskHigh
			}
		case classify.RoleWrite:
			if d || outsideProject(wd.Val, c.Dir, root) {
				return RiskHigh
			}
			r = RiskLow
		case classify.RoleUnknown:
			if d || pathLike(wd.Val) && outsideProject(wd.Val, c.Dir, root) {
				return RiskHigh
			}
		case classify.RoleProgram:
			if wd.Name != "" || k > 0 && !programsWalked(name) {
				return RiskHigh
			}
		}
	}
	// a command without a spec: its arguments' roles are unknown
	if !p.Spec {
		for k := 1; k < len(c.Args); k++ {
			if dyn(c, k) || pathLike(c.Args[k]) && outsideProject(c.Args[k], c.Dir, root) {
				return RiskHigh
			}
		}
	}
	if check, ok := readOnlySet(c.Args[0]); ok && (check == nil || check(c)) {
		return r // the read-only set: none, unless an option writes
	}
	if buildTool(name, spec) {
		return maxRisk(r, RiskLow)
	}
	if !p.Spec && !covered {
		return RiskHigh // guard knows nothing of it and no grant vouches for it
	}
	return maxRisk(r, RiskLow)
}

// pathLike reports a word that names a file: it holds a slash, or starts
// with a dot or a tilde.
func pathLike(w string) bool {
	return strings.Contains(w, "/") || strings.HasPrefix(w, ".") || strings.HasPrefix(w, "~")
}

// outsideProject reports a path that resolves outside root (the command's
// own directory standing in when root is ""). /dev/null and the standard
// streams are nowhere; a host:path names another machine.
func outsideProject(p, dir, root string) bool {
	switch p {
	case "", "-", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin":
		return false
	}
	if k := strings.Index(p, ":"); k > 0 && !strings.Contains(p[:k], "/") && !strings.HasPrefix(p, "~") {
		return true // host:path, another machine
	}
	if strings.HasPrefix(p, "~") {
		return true
	}
	project := root
	if project == "" {
		project = dir
	}
	if project == "" {
		if path.IsAbs(p) {
			return true
		}
		rel := path.Clean(p)
		return rel == ".." || strings.HasPrefix(rel, "../")
	}
	abs := p
	if !path.IsAbs(p) {
		base := dir
		if base == "" {
			base = project
		}
		abs = path.Join(base, p)
	}
	abs = path.Clean(abs)
	return abs != project && !strings.HasPrefix(abs, strings.TrimSuffix(project, "/")+"/")
}

// isInterpreter reports a shell or language runtime: given a file, it runs
// a program guard cannot see into.
func isInterpreter(name string, s *classify.Spec) bool {
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "xonsh", "nu", "elvish", "pwsh", "powershell",
		"node", "nodejs", "perl", "ruby", "irb", "php", "lua", "luajit", "tclsh", "wish",
		"Rscript", "julia", "osascript", "deno", "source", ".", "guard":
		return true
	}
	// the entries say it of theirs (expect FILE, script, busybox sh FILE);
	// python, pypy and the other runtimes classify knows by name
	if s != nil && slices.Contains(s.RunsFile, name) {
		return true
	}
	return classify.Interpreter(name)
}

// versionArgs: TOOL --version and friends print and exit.
func versionArgs(args []string) bool {
	if len(args) != 2 {
		return false
	}
	switch args[1] {
	case "--version", "-V", "-version", "--help", "-h":
		return true
	}
	return false
}

// networkCommand: programs whose job is to reach another machine.
func networkCommand(name string, s *classify.Spec) bool {
	if s != nil && s.Network && s.For(s.NetworkFor, name) {
		return true // the program's entry says (curl, ssh, gh, kubectl)
	}
	switch name {
	case "http", "https", "xh", "httpie", "telnet", "ftp", "rclone", "ssh-copy-id", "mosh",
		"mongo", "mongosh",
		"aws", "gcloud", "az", "ansible", "ansible-playbook", "glab":
		return true
	}
	return false
}

// networkSub: subcommands that fetch or send (git clone|fetch|pull|push,
// docker pull|push, go get|mod download), as the program's entry in
// classify lists them (Spec.Reaches).
func networkSub(sub string, s *classify.Spec) bool {
	if s != nil && s.Reaches != nil {
		return sub != "" && slices.Contains(s.Reaches, sub) // the program's entry says
	}
	return false
}

// installs: package installs (they fetch, and run the package's scripts).
func installs(name, sub string, s *classify.Spec) bool {
	if s != nil {
		if slices.Contains(s.InstallsAll, name) {
			return true // npx PKG, as its entry says
		}
		if s.Installs != nil && s.For(s.InstallsFor, name) {
			return slices.Contains(s.Installs, sub) // the program's entry says (npm install, uv add)
		}
	}
	switch name {
	case "brew", "apt", "apt-get", "dnf", "yum", "apk", "pacman", "zypper", "snap", "flatpak", "port", "nix-env":
		return true
	}
	return false
}

// deletesTree: rm -r, find -delete, shred, as their entries say
// (classify.Spec.DeletesTree), and wipefs, mkfs.
func deletesTree(name string, p classify.Parsed, s *classify.Spec) bool {
	if s != nil && s.DeletesTree != nil {
		return s.DeletesTree(name, p)
	}
	switch name {
	case "wipefs", "mkfs":
		return true
	}
	return false
}

// buildTool: build and test drivers run the project's own code in the
// project (make, go test, cargo test, npm test): low, not none.
func buildTool(name string, s *classify.Spec) bool {
	if s != nil && s.Builds {
		return true // the program's entry says (make, go, cargo)
	}
	switch name {
	case "javac", "tsc", "ninja":
		return true
	}
	return false
}

// printsArgs: a program that only prints its arguments, whatever they
// hold (echo $f names no file).
func printsArgs(name string) bool {
	switch name {
	case "echo", "true", "false", ":":
		return true
	}
	return false
}
