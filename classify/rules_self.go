package classify

// The guard-self rule: guard's own files, and the words that write them.

import (
	"strings"
)

// guardPrograms are guard's own programs: guard hands its management
// commands to guard-cli, which an agent could also run directly.
func guardPrograms(name string) bool {
	name = strings.ToLower(name) // GUARD runs guard on a case-insensitive disk
	return name == "guard" || name == "guard-cli"
}

// guardVerbs are the management verbs only a human may run (given the
// verb and the word after it): those that grant, approve or trust; watch
// and ui, which answer requests; install and uninstall, which rewire an agent's
// settings; policy reset, which undoes an escalation; and hook, which only
// the agent's runtime runs (from a guarded command it could leave a ticket
// that lets a command skip guard's question). policy show and policy test
// only read, and grants list only lists.
func guardVerbs(v, next string) bool {
	switch v {
	case "trust", "approve", "reject", "watch", "ui", "untrust", "hook", "install", "uninstall":
		return true
	case "policy":
		return next != "show" && next != "test"
	case "grants":
		return next != "list" && next != "ls"
	}
	return false
}

// readers may name guard's files without changing them.
func readers(name string) bool {
	switch name {
	case "cat", "less", "more", "head", "tail", "grep", "rg", "ls",
		"stat", "wc", "diff", "cmp", "file", "du", "echo", "printf",
		"test", "[", "realpath", "readlink", "dirname", "basename",
		"md5sum", "sha1sum", "sha256sum", "jq", "bat", "cd", "pushd",
		"guard", "guard-cli", "tree", "which", "type":
		return true
	}
	return false
}

func (w *walker) guardSelf(c int) bool {
	cm := &w.a.Commands[c]
	fs := w.info[c].fields
	if cm.Name == "make" || cm.Name == "gmake" {
		// make exports command-line variables to its recipes
		for _, f := range fs[1:] {
			if strings.HasPrefix(f.val, "GUARD_") && strings.Contains(f.val, "=") {
				return true
			}
		}
	}
	if guardPrograms(cm.Name) {
		ops := operands(fs)
		if len(ops) > 0 {
			next := ""
			if len(ops) > 1 {
				next = ops[1].val
			}
			if guardVerbs(ops[0].val, next) {
				return true
			}
		}
	}
	if cm.Name == "chmod" || cm.Name == "chown" || cm.Name == "chgrp" {
		// any bit, in any spelling of the mode (chmod -x reads as an
		// option to the argument model): every operand is a target, and
		// with -R a directory above guard's files
		recursive := hasShort(fs, 'R') || hasWord(fs, "--recursive")
		if ops := operands(fs); cm.Name == "chmod" && len(ops) > 0 && onlyRestricts(ops[0].val) {
			recursive = false // chmod -R go-rwx ~/.config takes access away from others only
		}
		for _, f := range operands(fs) {
			var cb [3]field
			for _, g := range w.candidates(f, cb[:0]) {
				ps, _ := w.paths(c, g)
				for _, p := range ps {
					if w.isProtected(p) || recursive && w.aboveProtected(p) {
						return true
					}
				}
			}
		}
	}
	// A relative word can only reach guard's paths from a directory in or
	// above them, or by climbing with ..; rule the rest out cheaply.
	dirNear := w.info[c].dirs == nil
	for _, d := range w.info[c].dirs {
		for _, prot := range w.opt.Protected {
			dirNear = dirNear || strings.HasPrefix(prot, d) || strings.HasPrefix(d, prot)
		}
	}
	return w.writesWhere(c, dirNear, func(p string, deletes, moves bool) bool {
		if deletes && w.onlyCache(p) {
			return false // clearing caches, guard's among them, is fine
		}
		return w.isProtected(p) || moves && w.aboveProtected(p)
	})
}

// writesWhere reports a path command c writes, deletes or moves (by the
// argument model's roles, a script's output files, sed -i's inputs, find
// -delete's roots) for which hit holds. near: a relative word may reach
// the paths hit looks for (false: only words with /, ~ or a glob count).
func (w *walker) writesWhere(c int, near bool, hit func(p string, deletes, moves bool) bool) bool {
	cm := &w.a.Commands[c]
	fs := w.info[c].fields
	p := w.words(c)
	if readers(cm.Name) && !p.Has("in-place", "i", "w") {
		return false
	}
	moves := fileMovers(cm.Name)
	deletes := cm.Name == "rm" || cm.Name == "rmdir" || cm.Name == "unlink"
	findDel := cm.Name == "find" && parseFind(fs).delete
	// an interpreter (perl -i, python3 x.py FILE) or a parse the spec
	// could not follow may write any file it is given
	_, interp := interpreterName(cm.Name)
	awk := cm.Name == "awk" || cm.Name == "gawk" || cm.Name == "mawk" || cm.Name == "nawk" // writes only through its script
	strict := !p.Spec || p.Unknown || (interp || runsCode(cm.Name)) && !awk
	// sed -i, gofmt -w, perl -i: the files read are written back
	inPlace := p.Has("in-place", "i") && (cm.Name == "sed" || cm.Name == "gsed") || cm.Name == "gofmt" && p.Has("w")
	// ln TARGET LINK, cp -s|-l: the link is a second name for the target, so
	// a later write through it (ln -s .claude c; cp x c/settings.json)
	// writes the target
	links := cm.Name == "ln" || cm.Name == "cp" && p.Has("link", "symbolic-link", "l", "s")
	for _, wd := range p.Words {
		f := w.valueField(c, wd)
		var texts []string
		switch {
		case wd.Role == RoleScript:
			// awk's print > "FILE", sed's w FILE: a script writes files too
			texts = scriptPaths(f.val)
			if f.dyn {
				// sed "w $XDG_CONFIG_HOME/x": the script's unknown parts,
				// '*' in its pattern, may name guard's paths
				texts = append(texts, scriptPaths(f.pat)...)
			}
		case !guardSelfRole(wd.Role, strict) && !((inPlace || links) && wd.Role == RoleRead) && !(findDel && wd.Name == ""):
			continue
		}
		// a link's target is judged as the file itself, not as a tree
		// the command replaces (ln -s /etc x only names /etc)
		wordMoves := moves && !(links && wd.Role == RoleRead && !guardSelfRole(wd.Role, strict))
		cands := []field{f}
		if texts != nil {
			cands = cands[:0]
			for _, t := range texts {
				cands = append(cands, field{val: t, pat: w.homePat(t)})
			}
		}
		for _, f := range cands {
			if !near && !strings.ContainsAny(f.pat, "/~*?[") {
				continue
			}
			var cb [3]field
			for _, g := range w.candidates(f, cb[:0]) {
				ps, _ := w.paths(c, g)
				for _, p := range ps {
					if hit(p, deletes, wordMoves) {
						return true
					}
				}
			}
		}
	}
	return false
}

// guardSelfRole reports a role whose path guard-self checks: what is
// written, and when strict (no spec, an interpreter, an option the spec
// does not know) what is read or run too.
func guardSelfRole(r Role, strict bool) bool {
	switch r {
	case RoleWrite, RoleUnknown, RoleDir:
		return true
	case RoleRead, RoleURL, RoleProgram, RoleUse:
		return strict
	}
	return false
}

// scriptPaths returns the words of a script (awk, sed, a jq filter) that
// look like paths: print > "/x/y", w /x/y.
func scriptPaths(script string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(script, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' || r == ';' || r == '{' || r == '}' || r == '>' || r == '|' || r == '(' || r == ')' || r == ','
	}) {
		if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~/") || strings.HasPrefix(t, "*/") {
			out = append(out, t)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// fileMovers copy, move, link or delete whole trees: pointed at a directory
// holding guard's files (mv ~/.config x, ln -sfn /tmp/x ~/.config), they
// replace guard's config along with it.
func fileMovers(name string) bool {
	switch name {
	case "cp", "mv", "ln", "rm", "rmdir", "rsync",
		"install", "tar", "unzip", "rename":
		return true
	}
	return false
}

// within reports p naming dir itself or something inside it.
func within(p, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return p == dir || len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir)
}

// isCacheDir reports guard's cache among its protected paths: a cache may
// be cleared along with the directory that holds it.
func isCacheDir(prot string) bool { return strings.Contains(prot, "/.cache/") }

// aboveProtected reports a directory that holds one of guard's paths
// (its cache aside), other than the home directory and / themselves.
func (w *walker) aboveProtected(p string) bool {
	for _, prot := range w.opt.Protected {
		if prot != "" && !isCacheDir(prot) && w.holds(p, prot) {
			return true
		}
	}
	return false
}

// holds reports p as a directory above prot (not the home directory or /).
func (w *walker) holds(p, prot string) bool {
	return p != "/" && p != w.opt.Home && strings.HasPrefix(p, "/") && p != prot && within(prot, p)
}

// isProtected reports a path inside guard's own config or state. A
// pattern with unknown parts counts when it names a guard directory.
func (w *walker) isProtected(p string) bool {
	if guardPattern(p) {
		return true
	}
	for _, prot := range w.opt.Protected {
		if prot != "" && namesPath(p, prot) {
			return true
		}
	}
	return false
}

// guardPattern reports a pattern with unknown parts that names a guard
// directory ($XDG_CONFIG_HOME/guard/…).
func guardPattern(p string) bool {
	return strings.Contains(p, "*") && (strings.Contains(p, "/guard/") || strings.HasSuffix(p, "/guard"))
}

// namesPath reports p, possibly a glob, naming prot or something in it.
func namesPath(p, prot string) bool {
	if within(p, prot) {
		return true
	}
	return strings.ContainsAny(p, "*?[") && (matchGlob(p, prot) || matchGlob(p, prot+"/x") || globPrefix(p, prot))
}

// globPrefix reports a glob whose leading components can match all of
// prot's (~/.config/g?ard/grants.toml against ~/.config/guard).
func globPrefix(p, prot string) bool {
	pc := strings.Split(p, "/")
	qc := strings.Split(prot, "/")
	if len(pc) <= len(qc) {
		return false
	}
	for i := range qc {
		if !matchGlob(pc[i], qc[i]) {
			return false
		}
	}
	return true
}

// onlyCache reports a path that can name no guard file but its cache, and
// that does not name the cache directory itself (rm -rf ~/.cache/* clears
// caches; rm -rf ~/.cache/guard targets guard).
func (w *walker) onlyCache(p string) bool {
	if guardPattern(p) {
		return false
	}
	for _, prot := range w.opt.Protected {
		switch {
		case prot == "":
		case isCacheDir(prot):
			if within(p, prot) {
				return false
			}
		case namesPath(p, prot) || w.holds(p, prot):
			return false
		}
	}
	return true
}

// agentDirs are the directories where an agent reads its project
// configuration: hooks and MCP servers defined there run outside guard.
var agentDirs = []string{".claude", ".gemini", ".codex", ".cursor", ".opencode", ".windsurf", ".roo", ".continue", ".amazonq", ".kiro", ".zed", ".kilocode"}

// agentFiles are the project files that define an agent's hooks, tasks or
// MCP servers (DIR/NAME for a file in a directory).
var agentFiles = []string{".mcp.json", "opencode.json", "opencode.jsonc", ".opencode.json", ".vscode/tasks.json", ".vscode/mcp.json", ".vscode/settings.json",
	".aider.conf.yml", ".aider.conf.yaml"}

// agentConfig reports a path (possibly a glob) inside an agent's
// configuration directory or naming one of its configuration files.
func agentConfig(p string) bool {
	// Each component is lowered and looked at once (this runs for every
	// path every command writes): last and prev are the last two, for
	// agentFiles.
	var last, prev string
	var lastGlob, prevGlob bool
	n := 0
	for c := range strings.SplitSeq(p, "/") {
		c = strings.ToLower(c)
		glob := isNameGlob(c)
		for _, d := range agentDirs {
			if globNames(c, d, glob) {
				return true
			}
		}
		prev, last = last, c
		prevGlob, lastGlob = lastGlob, glob
		n++
	}
	for _, f := range agentFiles {
		dir, base, inDir := strings.Cut(f, "/")
		if !inDir {
			base, dir = dir, ""
		}
		if globNames(last, base, lastGlob) && (dir == "" || n > 1 && globNames(prev, dir, prevGlob)) {
			return true
		}
	}
	return false
}

// globNames reports a path component that names name: the name itself,
// or a glob with some literal text that matches it (a glob matches a dot
// file only when it starts with a dot; a word guard cannot know at all is
// not taken to name an agent's file). Case is ignored: on a disk that
// ignores it (macOS, Windows) .CLAUDE/settings.json is .claude's, so comp
// comes lowered, and glob is isNameGlob(comp), asked once per component.
func globNames(comp, name string, glob bool) bool {
	if comp == name {
		return true
	}
	return glob && (name[0] != '.' || comp[0] == '.') && matchGlob(comp, name)
}

// isNameGlob reports a component with glob characters and some literal
// text (globNames).
func isNameGlob(comp string) bool {
	return strings.ContainsAny(comp, "*?[") && strings.Trim(comp, "*?") != ""
}

// agentConfigWrite is the agent-config ask: a command that writes an
// agent's project configuration, which no grant covers.
func (w *walker) agentConfigWrite(c int) bool {
	return w.writesWhere(c, true, func(p string, _, _ bool) bool { return agentConfig(p) })
}

// onlyRestricts reports a chmod mode that only takes permissions away from
// the group and others (go-rwx, o-w,g-w) or leaves the owner alone with
// everything (700).
func onlyRestricts(mode string) bool {
	if mode == "700" || mode == "0700" {
		return true
	}
	if mode == "" {
		return false
	}
	for _, clause := range strings.Split(mode, ",") {
		who, perm, ok := strings.Cut(clause, "-")
		if !ok || who == "" || strings.Trim(who, "go") != "" || strings.Trim(perm, "rwxXst") != "" {
			return false
		}
	}
	return true
}
