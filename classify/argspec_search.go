package classify

import "strings"

// Specs of the search tools. grep and rg take a pattern first unless -e
// or -f gave one; -c, -l, -L and -q print counts or names, not contents.

func searchSpec(name string) *Spec {
	switch name {
	case "grep", "egrep", "fgrep", "zgrep", "ggrep":
		return &grepSpec
	case "rg":
		return &rgSpec
	case "ag", "ack":
		return &agSpec
	case "find", "gfind":
		return &findSpec
	case "fd", "fdfind":
		return &fdSpec
	}
	return nil
}

var grepSpec = Spec{ReadOnly: AnyUse, ReadOnlyFor: []string{"grep"}, PrintsFiles: true, Grant: GrantPlain, GrantFor: []string{"grep", "egrep", "fgrep"}, Abbrev: true, First: RolePattern, FirstBy: []string{"regexp", "file"}, Operands: RoleRead,
	MetaIf: []string{"count", "files-with-matches", "files-without-match", "quiet"}, Opts: []Opt{
		{Short: "e", Long: []string{"regexp"}, Val: RolePattern},
		{Short: "f", Long: []string{"file"}, Val: RoleRead},
		{Short: "c", Long: []string{"count"}},
		{Short: "l", Long: []string{"files-with-matches"}},
		{Short: "L", Long: []string{"files-without-match"}},
		{Short: "q", Long: []string{"quiet", "silent"}},
		{Short: "s", Long: []string{"no-messages"}},
		{Short: "v", Long: []string{"invert-match"}},
		{Short: "r", Long: []string{"recursive"}},
		{Short: "R", Long: []string{"dereference-recursive"}},
		{Short: "ABCm", Long: []string{"after-context", "before-context", "context", "max-count", "label", "binary-files", "devices", "directories", "group-separator"}, Val: RoleText},
		{Short: "d", Val: RoleText},
		{Long: []string{"include", "exclude", "exclude-dir"}, Val: RolePattern},
		{Long: []string{"exclude-from"}, Val: RoleRead},
		{Long: []string{"color", "colour", "context"}, Val: RoleText, Optional: true},
		{Short: "EFGPivwxyUzZabhHnoTIuV0123456789", Long: []string{"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case", "no-ignore-case", "invert-match", "word-regexp", "line-regexp", "text", "byte-offset", "no-filename", "with-filename", "line-number", "only-matching", "initial-tab", "null", "null-data", "line-buffered", "binary"}},
	}}

// rgSpec: rg's options from its manual (testdata/options/rg.txt), audited
// whole (Closed): an option it does not know takes rg out of the
// read-only set too.
var rgSpec = Spec{ReadsHere: true, PrintsFiles: true, ReadOnly: AnyUse, Closed: true, Grant: GrantPlain, Exec: rgExec, First: RolePattern, FirstBy: []string{"regexp", "file"}, Operands: RoleRead,
	MetaIf: []string{"count", "count-matches", "files-with-matches", "files-without-match", "quiet", "files"}, Opts: []Opt{
		{Short: "e", Long: []string{"regexp"}, Val: RolePattern},
		{Short: "f", Long: []string{"file"}, Val: RoleRead},
		{Short: "c", Long: []string{"count"}},
		{Long: []string{"count-matches", "files"}},
		{Short: "l", Long: []string{"files-with-matches"}},
		{Long: []string{"files-without-match"}},
		{Short: "q", Long: []string{"quiet"}},
		{Long: []string{"pre", "hostname-bin"}, Val: RoleProgram},
		{Long: []string{"pre-glob"}, Val: RolePattern},
		{Short: "z", Long: []string{"search-zip"}},
		{Short: "gr", Long: []string{"glob", "iglob", "replace"}, Val: RolePattern},
		{Long: []string{"ignore-file"}, Val: RoleRead},
		{Short: "ABCmMjtTE", Long: []string{"after-context", "before-context", "context", "max-count", "max-columns", "threads", "type", "type-not", "encoding", "type-add", "max-depth", "sort", "sortr", "colors", "color", "path-separator", "context-separator", "field-match-separator", "engine", "max-filesize", "dfa-size-limit", "regex-size-limit", "type-clear", "field-context-separator"}, Val: RoleText},
		{Short: "uLHhNiIsSvwxFPUaobnp0.", Long: []string{"hidden", "no-ignore", "unrestricted", "follow", "with-filename", "no-filename", "ignore-case", "smart-case", "case-sensitive", "invert-match", "word-regexp", "line-regexp", "fixed-strings", "pcre2", "multiline", "text", "only-matching", "byte-offset", "line-number", "pretty", "null", "json", "vimgrep", "no-heading", "heading", "no-messages", "trim", "stats", "debug",
			"auto-hybrid-regex", "binary", "block-buffered", "column", "no-context-separator", "crlf", "glob-case-insensitive", "help",
			"ignore-file-case-insensitive", "include-zero", "line-buffered", "max-columns-preview", "mmap", "multiline-dotall", "no-config",
			"no-ignore-dot", "no-ignore-vcs", "no-ignore-exclude", "no-ignore-files", "no-ignore-global", "no-ignore-messages", "no-ignore-parent",
			"no-line-number", "no-mmap", "no-pcre2-unicode", "no-require-git", "no-unicode", "unicode", "null-data", "one-file-system",
			"passthru", "pcre2-version", "type-list", "version",
			"ignore", "ignore-dot", "ignore-exclude", "ignore-files", "ignore-global", "ignore-messages", "ignore-parent", "ignore-vcs", "messages",
			"no-auto-hybrid-regex", "no-binary", "no-block-buffered", "no-column", "no-crlf", "no-encoding", "no-fixed-strings", "no-follow",
			"no-glob-case-insensitive", "no-hidden", "no-ignore-file-case-insensitive", "no-json", "no-line-buffered", "no-max-columns-preview",
			"no-multiline", "no-multiline-dotall", "no-one-file-system", "no-pcre2", "no-pre", "no-search-zip", "no-stats", "no-text", "no-trim",
			"pcre2-unicode", "print0", "require-git", "trace"}},
		{Short: "V"},
	}}

var agSpec = Spec{Grant: GrantPlain, First: RolePattern, Operands: RoleRead, MetaIf: []string{"count", "files-with-matches", "files-without-matches"}, Opts: []Opt{
	{Short: "c", Long: []string{"count"}},
	{Short: "l", Long: []string{"files-with-matches"}},
	{Short: "L", Long: []string{"files-without-matches"}},
	{Short: "GgABCm", Long: []string{"file-search-regex", "ignore", "after", "before", "context", "max-count", "depth"}, Val: RolePattern},
	{Short: "p", Long: []string{"path-to-ignore"}, Val: RoleRead},
}}

// findSpec: find's operators take one dash and their own arguments; the
// expression grammar itself (-exec … ;, -delete, -fprint) is parseFind's.
// The spec types the values of the operators that take one.
var findSpec = Spec{ProgramsWalked: true, ReadsHere: true, DeletesTree: findDeletesTree, ReadOnly: AnyUse, ReadOnlyFor: []string{"find"}, Grant: GrantPlain, GrantFor: []string{"find"}, Exec: findExec, OneDash: true, NoDashDash: true, Operands: RoleMeta, Joined: []string{"O"}, Opts: []Opt{
	{Long: []string{"O"}, Val: RoleText, Optional: true},
	{Long: []string{"neweraa", "neweraB", "newerac", "neweram", "newerat", "newerBa", "newerBB", "newerBc", "newerBm", "newerBt", "newerca", "newercB", "newercc", "newercm", "newerct", "newerma", "newermB", "newermc", "newermm", "newermt"}, Val: RoleText},
	{Long: []string{"help", "version"}},
	{Long: []string{"name", "iname", "path", "ipath", "wholename", "iwholename", "regex", "iregex", "lname", "ilname"}, Val: RolePattern},
	{Long: []string{"fprint", "fprint0", "fprintf", "fls"}, Val: RoleWrite},
	{Long: []string{"newer", "anewer", "cnewer", "samefile", "files0-from"}, Val: RoleMeta},
	{Long: []string{"exec", "execdir", "ok", "okdir"}, Val: RoleProgram},
	{Long: []string{"maxdepth", "mindepth", "type", "xtype", "size", "mtime", "mmin", "atime", "amin", "ctime", "cmin", "perm", "user", "group", "uid", "gid", "links", "inum", "used", "fstype", "printf", "regextype", "D", "context", "newerXY"}, Val: RoleText},
	{Long: []string{"delete", "print", "print0", "ls", "prune", "quit", "depth", "empty", "executable", "readable", "writable", "true", "false", "nouser", "nogroup", "xdev", "mount", "follow", "L", "H", "P", "noleaf", "daystart", "ignore_readdir_race", "not", "and", "or", "a", "o"}},
}}

var fdSpec = Spec{First: RolePattern, Operands: RoleMeta, Opts: []Opt{
	{Short: "x", Long: []string{"exec"}, Val: RoleProgram, Rest: true},
	{Short: "X", Long: []string{"exec-batch"}, Val: RoleProgram, Rest: true},
	{Short: "edtEScj", Long: []string{"extension", "max-depth", "type", "exclude", "size", "changed-within", "changed-before", "owner", "color", "threads", "base-directory", "search-path", "format"}, Val: RoleText},
	{Short: "HIuLpgFasl0", Long: []string{"hidden", "no-ignore", "unrestricted", "follow", "full-path", "glob", "fixed-strings", "absolute-path", "case-sensitive", "list-details", "print0"}},
}}

// rgExec is the exec-capable argument table of rgSpec's programs (see [ExecRule]).
var rgExec = []ExecRule{
	{ID: "rg-pre", Opts: []string{"pre", "hostname-bin", "search-zip", "z"},
		Reason: "rg --pre/--hostname-bin/-z runs other programs"},
}

// checkFindWrite marks find's -delete, -fprint* and -fls operators, read
// with find's operator grammar: find . -name -delete names a file.
func checkFindWrite(c *Command, p Parsed, m Marker) {
	const why = "find -delete/-fprint/-fls deletes or writes files"
	for _, wd := range p.Words {
		switch {
		case wd.Name == "delete":
			m.Mark(wd.Arg, why)
		case wd.Role == RoleWrite:
			m.Mark(wd.Arg-1, why)
			m.Mark(wd.Arg, why)
		case wd.Role == RoleUnknown && strings.HasPrefix(wd.Name, "fprint"):
			m.Mark(wd.Arg, why)
		}
	}
}

// findExec is find's exec-capable argument table (see [ExecRule]). gfind
// shares find's spec; the rules name find alone, as they always have.
var findExec = []ExecRule{
	{ID: "find-exec", Only: []string{"find", "gfind"}, Opts: []string{"exec", "execdir", "ok", "okdir"},
		Reason: "find -exec/-execdir/-ok/-okdir runs another program"},
	{ID: "find-write", Only: []string{"find", "gfind"}, Check: checkFindWrite,
		Reason: "find -delete/-fprint/-fls deletes or writes files"},
}

// findArgs says how many words each find primary takes after it.
func findArgs(primary string) int {
	switch primary {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
		"-regex", "-iregex", "-regextype", "-type", "-xtype", "-user", "-group",
		"-perm", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime",
		"-cmin", "-newer", "-anewer", "-cnewer", "-maxdepth", "-mindepth",
		"-links", "-inum", "-samefile", "-uid", "-gid", "-fstype",
		"-printf", "-fprint", "-fprint0", "-fls", "-lname",
		"-ilname", "-used", "-context", "-files0-from", "-newerXY":
		return 1
	case "-fprintf":
		return 2
	}
	return 0
}

// findParse splits a find command into its starting points and its
// expression, and reports the -exec-style actions and -delete.
type findInfo struct {
	roots    []field
	delete   bool
	execs    [][]field
	filtered bool // tests like -name or -mtime choose what the actions touch
}

func parseFind(fs []field) findInfo {
	var fi findInfo
	i := 1
	for i < len(fs) {
		a := fs[i].val
		if a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O") {
			i++
			continue
		}
		if a == "-D" {
			i += 2
			continue
		}
		break
	}
	for i < len(fs) {
		a := fs[i].val
		if !fs[i].dyn && (strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")") && a != "-" {
			break
		}
		fi.roots = append(fi.roots, fs[i])
		i++
	}
	for i < len(fs) {
		a := fs[i].val
		switch {
		case a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir":
			j := i + 1
			var cmd []field
			for ; j < len(fs); j++ {
				if fs[j].val == ";" || (fs[j].val == "+" && j > i+1 && fs[j-1].val == "{}") {
					break
				}
				cmd = append(cmd, fs[j])
			}
			fi.execs = append(fi.execs, cmd)
			i = j + 1
		case a == "-delete":
			fi.delete = true
			i++
		case strings.HasPrefix(a, "-newer") && len(a) == 8:
			i += 2
		default:
			if findArgs(a) > 0 && a != "-maxdepth" && a != "-mindepth" {
				fi.filtered = true
			}
			if a == "-empty" || a == "-executable" || a == "-readable" || a == "-writable" {
				fi.filtered = true
			}
			i += 1 + findArgs(a)
		}
	}
	return fi
}

// wrapFind: each -exec/-execdir/-ok/-okdir runs a command with the names
// found; guard judges it with {} standing for the starting point.
func (w *walker) wrapFind(c int, fs []field) {
	fi := parseFind(fs)
	root := field{val: ".", pat: "."}
	if len(fi.roots) > 0 {
		root = fi.roots[0]
	}
	for _, cmd := range fi.execs {
		if len(cmd) == 0 {
			continue
		}
		inner := make([]field, len(cmd))
		for i, f := range cmd {
			if f.val == "{}" {
				// {} stays as written; for path rules it stands for
				// the starting point (find / -exec rm -rf {} ;).
				f.pat, f.dyn, f.home = root.pat, root.dyn, root.home
			}
			inner[i] = f
		}
		if idx := w.generated(c, 0, inner, "find -exec"); idx >= 0 {
			w.info[idx].fromFind = !fi.filtered // every file, recursively
		}
	}
	if len(fi.execs) > 0 {
		// InnerStart points at the first action's command.
		for i, f := range fs {
			if f.val == "-exec" || f.val == "-execdir" || f.val == "-ok" || f.val == "-okdir" {
				w.a.Commands[c].InnerStart = i + 1
				break
			}
		}
	}
}

// findDeletesTree: find -delete deletes what it finds.
func findDeletesTree(_ string, p Parsed) bool { return p.Has("delete") }
