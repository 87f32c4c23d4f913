package classify

import (
	"slices"
	"strings"
)

// Specs of coreutils and the other file tools: what each operand and
// option value is. Options without a value need listing only when a rule
// asks for them by name; an unlisted option marks the parse Unknown but
// keeps the operands' roles.

// filesSpec returns the spec of a file tool, nil when it is not one.
func filesSpec(name string) *Spec {
	switch name {
	case "more":
		return &moreSpec
	case "cat", "pv", "most", "tac", "nl", "rev", "bat", "batcat", "strings", "paste", "column", "fold", "fmt", "expand", "unexpand", "pr", "md5sum", "sha1sum", "sha256sum", "sha512sum", "sha224sum", "sha384sum", "b2sum", "cksum", "sum", "base32", "basenc", "iconv", "look", "tsort", "shuf":
		return &readerSpec
	case "head", "tail":
		return &headSpec
	case "less":
		return &lessSpec
	case "base64":
		return &base64Spec
	case "xxd", "od", "hexdump", "hd":
		return &dumpSpec
	case "cut":
		return &cutSpec
	case "sort":
		return &sortSpec
	case "uniq":
		return &uniqSpec
	case "comm", "diff", "colordiff", "sdiff", "diff3", "join":
		return &diffSpec
	case "cmp":
		return &cmpSpec
	case "wc":
		return &wcSpec
	case "file":
		return &fileSpec
	case "ls", "stat", "du", "realpath", "readlink", "dirname", "basename", "test", "[", "lsattr", "namei", "getfacl":
		return &metaSpec
	case "tree":
		return &treeSpec
	case "nm", "readelf", "objdump", "size", "ldd":
		return &binSpec
	case "touch", "mkdir", "rm", "rmdir", "unlink", "shred", "truncate", "mkfifo", "sync":
		return &writerSpec
	case "tee", "sponge":
		return &teeSpec
	case "cp", "install":
		return &cpSpec
	case "mv":
		return &mvSpec
	case "ln":
		return &lnSpec
	case "chmod", "chown", "chgrp", "chattr":
		return &chmodSpec
	case "echo", "printf", "true", "false", "sleep", "seq", "yes", "tr", "expr", "kill":
		return &textSpec
	case "hostname":
		return &hostnameSpec
	case "date":
		return &dateSpec
	case "ps":
		return &psSpec
	case "jq", "yq", "gojq", "jaq":
		return &jqSpec
	case "sed", "gsed":
		return &sedSpec
	case "awk", "gawk", "mawk", "nawk":
		return &awkSpec
	case "gzip", "gunzip", "zcat", "bzip2", "bunzip2", "bzcat", "xz", "unxz", "xzcat", "zstd", "unzstd", "zstdcat", "lz4", "pigz":
		return &gzipSpec
	case "htpasswd":
		return &htpasswdSpec
	case "cd", "pushd", "popd", "pwd", "df", "lsof":
		return &metaSpec
	case "exit", ":", "type", "which", "whereis", "id", "whoami", "uname", "nproc", "free", "uptime", "netstat", "ss", "hash":
		return &textSpec
	case "vi", "vim", "view", "vimdiff", "gvim", "rvim", "ex":
		return &editorSpec
	case "nvim":
		return &nvimSpec
	case "emacs", "emacsclient":
		return &emacsSpec
	case "nano":
		return &nanoSpec
	case "man":
		return &manSpec
	}
	return nil
}

var files0 = Opt{Long: []string{"files0-from"}, Val: RoleRead}

var readerSpec = Spec{ReadOnly: AnyUse, ReadOnlyFor: []string{"cat", "tac", "nl", "rev", "md5sum", "sha1sum", "sha256sum", "sha512sum", "paste", "column", "strings", "fold"}, PrintsFiles: true, Grant: GrantPlain, GrantFor: []string{"cat", "more", "bat", "sha256sum", "md5sum", "strings"}, Exec: pagerExec, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "AbeEnstTuvq", Long: []string{"show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"}},
	{Short: "w", Long: []string{"width"}, Val: RoleText},
	{Short: "c", Long: []string{"check"}},
}}

var headSpec = Spec{PrintsFiles: true, ReadOnly: AnyUse, Grant: GrantPlain, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "c", Long: []string{"bytes"}, Val: RoleText},
	{Short: "n", Long: []string{"lines"}, Val: RoleText},
	{Short: "qvzfF", Long: []string{"quiet", "silent", "verbose", "zero-terminated", "follow", "retry"}},
	{Short: "s", Long: []string{"sleep-interval"}, Val: RoleText},
	{Long: []string{"pid", "max-unchanged-stats"}, Val: RoleText},
}}

// lessRoles types less's +CMD operands (before --), commands less runs
// when it starts: +!CMD and +|mCMD run CMD in a shell (a program); any
// other (+G, +/pattern) is text, not a file.
func lessRoles(p *Parsed, args []string) {
	for i := range p.Words {
		wd := &p.Words[i]
		if wd.Name != "" || !strings.HasPrefix(wd.Val, "+") || wd.Arg > 0 && wd.Arg < len(args) && slices.Contains(args[1:wd.Arg], "--") {
			continue
		}
		cmd := strings.TrimLeft(wd.Val, "+")
		switch {
		case strings.HasPrefix(cmd, "!"):
			wd.Role, wd.Val = RoleProgram, cmd[1:]
		case strings.HasPrefix(cmd, "|") && len(cmd) > 2:
			wd.Role, wd.Val = RoleProgram, cmd[2:]
		default:
			wd.Role = RoleText
		}
	}
}

// lessSpec: less's options (less --help, less 590; testdata/options/
// pager.txt); long names abbreviate. -k loads a lesskey file, whose #env
// section may set LESSOPEN (less-lesskey); -o/-O write a log.
var lessSpec = Spec{Grant: GrantPlain, Exec: pagerExec, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "NnRrSsiIFXMmEeKfgGqQuUVwWaABcdJL~?", Long: []string{"LINE-NUMBERS", "RAW-CONTROL-CHARS", "chop-long-lines", "quit-if-one-screen", "no-init",
		"help", "search-skip-screen", "SEARCH-SKIP-SCREEN", "auto-buffers", "clear-screen", "dumb", "quit-at-eof", "QUIT-AT-EOF", "force",
		"hilite-search", "HILITE-SEARCH", "ignore-case", "IGNORE-CASE", "status-column", "quit-on-intr", "no-lessopen", "long-prompt", "LONG-PROMPT",
		"line-numbers", "quiet", "QUIET", "silent", "SILENT", "raw-control-chars", "squeeze-blank-lines", "underline-special", "UNDERLINE-SPECIAL",
		"version", "hilite-unread", "HILITE-UNREAD", "tilde", "file-size", "follow-name", "incsearch", "mouse", "no-keypad", "no-histdups",
		"save-marks", "use-backslash", "use-color"}},
	{Short: "D#\"", Long: []string{"color", "shift", "quotes", "line-num-width", "rscroll", "status-col-width", "wheel-lines"}, Val: RoleText},
	{Short: "o", Long: []string{"log-file"}, Val: RoleWrite},
	{Short: "O", Long: []string{"LOG-FILE"}, Val: RoleWrite},
	{Short: "k", Long: []string{"lesskey-file"}, Val: RoleRead},
	{Short: "p", Long: []string{"pattern"}, Val: RolePattern},
	{Short: "t", Long: []string{"tag"}, Val: RoleText},
	{Short: "T", Long: []string{"tag-file"}, Val: RoleRead},
	{Short: "P", Long: []string{"prompt"}, Val: RoleText},
	{Short: "x", Long: []string{"tabs"}, Val: RoleText},
	{Short: "b", Long: []string{"buffers"}, Val: RoleText},
	{Short: "h", Long: []string{"max-back-scroll"}, Val: RoleText},
	{Short: "y", Long: []string{"max-forw-scroll"}, Val: RoleText},
	{Short: "z", Long: []string{"window"}, Val: RoleText},
	{Short: "j", Long: []string{"jump-target"}, Val: RoleText},
}}

// moreSpec: util-linux more's options (more --help, 2.38.1;
// testdata/options/pager.txt): none runs a program; +CMD operands are
// pager-command's.
var moreSpec = Spec{Exec: pagerExec, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "n", Long: []string{"lines"}, Val: RoleText},
	{Short: "dflcpesuhV", Long: []string{"silent", "logical", "no-pause", "print-over", "clean-print", "exit-on-eof", "squeeze", "plain", "help", "version"}},
}}

var base64Spec = Spec{ReadOnly: AnyUse, Exec: base64Exec, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "diD", Long: []string{"decode", "ignore-garbage"}},
	{Short: "w", Long: []string{"wrap"}, Val: RoleText},
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Short: "b", Long: []string{"break"}, Val: RoleText},
}}

var dumpSpec = Spec{ReadOnly: AnyUse, ReadOnlyFor: []string{"od", "hexdump"}, PrintsFiles: true, Grant: GrantPlain, GrantFor: []string{"xxd", "od", "hexdump"}, Operands: RoleRead, Last: RoleWrite, LastBy: []string{"r"}, Opts: []Opt{
	{Short: "r", Long: []string{"revert"}},
	{Short: "pibeuvCdxXcaE", Long: []string{"ps", "plain", "include", "bits", "uppercase", "version", "canonical"}},
	{Short: "lscgonAjNtwSf", Long: []string{"len", "seek", "cols", "groupsize", "skip-bytes", "read-bytes", "address-radix", "format", "width", "strings", "endian"}, Val: RoleText},
}}

var cutSpec = Spec{PrintsFiles: true, ReadOnly: AnyUse, Grant: GrantPlain, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "bcdf", Long: []string{"bytes", "characters", "delimiter", "fields"}, Val: RoleText},
	{Long: []string{"output-delimiter"}, Val: RoleText},
	{Short: "nsz", Long: []string{"complement", "only-delimited", "zero-terminated"}},
}}

var sortSpec = Spec{PrintsFiles: true, ReadOnly: AnyUse, Grant: GrantPlain, Exec: sortExec, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Short: "T", Long: []string{"temporary-directory"}, Val: RoleDir},
	{Long: []string{"compress-program"}, Val: RoleProgram},
	files0,
	{Short: "ktS", Long: []string{"key", "field-separator", "buffer-size", "parallel", "batch-size"}, Val: RoleText},
	{Long: []string{"sort", "random-source"}, Val: RoleText},
	{Short: "bdfgiMhnRrVcCmsuz", Long: []string{"ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "check", "merge", "stable", "unique", "zero-terminated", "debug"}},
}}

var uniqSpec = Spec{PrintsFiles: true, ReadOnly: uniqReadOnly, Grant: GrantPlain, Abbrev: true, Operands: RoleRead, Last: RoleWrite, Opts: []Opt{
	{Short: "cdDiuz", Long: []string{"count", "repeated", "all-repeated", "ignore-case", "unique", "zero-terminated", "group"}},
	{Short: "fsw", Long: []string{"skip-fields", "skip-chars", "check-chars"}, Val: RoleText},
}}

var diffSpec = Spec{ReadOnly: AnyUse, ReadOnlyFor: []string{"comm", "diff"}, PrintsFiles: true, Grant: GrantPlain, GrantFor: []string{"diff"}, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "rNqsuacyiwbBtTpdeEZ123", Long: []string{"recursive", "new-file", "brief", "report-identical-files", "unified", "context", "side-by-side", "ignore-case", "text", "unidirectional-new-file"}},
	{Short: "UCWFDLIxXSo", Long: []string{"label", "ignore-matching-lines", "exclude", "exclude-from", "starting-file", "width", "line-format", "output"}, Val: RoleText},
	{Long: []string{"from-file", "to-file"}, Val: RoleRead},
}}

var cmpSpec = Spec{PrintsFiles: true, ReadOnly: AnyUse, Grant: GrantPlain, Abbrev: true, Operands: RoleMeta, ReadIf: []string{"verbose", "print-bytes"}, Opts: []Opt{
	{Short: "l", Long: []string{"verbose"}},
	{Short: "b", Long: []string{"print-bytes"}},
	{Short: "s", Long: []string{"quiet", "silent"}},
	{Short: "in", Long: []string{"ignore-initial", "bytes"}, Val: RoleText},
}}

var wcSpec = Spec{PrintsFiles: true, ReadOnly: AnyUse, Grant: GrantPlain, Abbrev: true, Operands: RoleMeta, Opts: []Opt{
	{Short: "cmlLw", Long: []string{"bytes", "chars", "lines", "max-line-length", "words", "total"}},
	files0,
}}

// fileSpec: file's options (file --help, 5.44; testdata/options/
// sysinfo.txt), audited whole: -C writes a compiled magic file.
var fileSpec = Spec{PrintsFiles: true, ReadOnly: fileReadOnly, Closed: true, Grant: GrantPlain, Abbrev: true, Operands: RoleMeta, Opts: []Opt{
	{Short: "C", Long: []string{"compile"}},
	{Short: "m", Long: []string{"magic-file"}, Val: RoleRead},
	{Short: "f", Long: []string{"files-from"}, Val: RoleRead},
	{Short: "F", Long: []string{"separator"}, Val: RoleText},
	{Short: "eP", Long: []string{"exclude", "parameter", "exclude-quiet"}, Val: RoleText},
	{Short: "bcdhiIkLlnNprsSvzZ0", Long: []string{"brief", "mime", "mime-type", "mime-encoding", "special-files", "dereference", "no-dereference", "keep-going", "raw", "uncompress", "print0", "extension", "apple", "no-buffer", "no-pad", "list", "preserve-date", "no-sandbox",
		"uncompress-noreport", "checking-printout", "debug", "help", "version"}},
}}

// metaSpec: tools that look at names, never at contents.
var metaSpec = Spec{Operands: RoleMeta, Opts: []Opt{files0, {Long: []string{"format", "printf", "time-style", "block-size", "ignore", "hide", "exclude", "threshold", "max-depth", "relative-to", "relative-base", "color", "sort", "time", "width", "quoting-style", "indicator-style", "tabsize"}, Val: RoleText}}}

// treeSpec: tree's options (tree --help, 2.1.0; testdata/options/
// tree.txt). --fromfile lists the paths its operands hold, so it prints
// their lines: the operands are read. --infofile, --hintro and --houtro
// print a file's text in the listing; -o writes it to a file.
var treeSpec = Spec{ReadsHere: true, ReadOnly: treeReadOnly, Closed: true, Grant: GrantPlain, Operands: RoleMeta, ReadIf: []string{"fromfile"}, Opts: []Opt{
	{Short: "o", Val: RoleWrite},
	{Short: "LPIHT", Long: []string{"filelimit", "timefmt", "charset", "sort"}, Val: RoleText},
	{Long: []string{"gitfile", "infofile", "hintro", "houtro"}, Val: RoleRead},
	{Short: "R"},
	{Short: "acdfghilnpqrstuvxACDFJQNSUX", Long: []string{"fromfile", "gitignore", "matchdirs", "metafirst", "ignore-case", "nolinks", "inodes", "device",
		"dirsfirst", "filesfirst", "si", "du", "prune", "fflinks", "info", "noreport", "version", "help"}},
}}

// binSpec: binary tools dump what they read (objdump -s, readelf -x).
var binSpec = Spec{Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"plugin"}, Val: RoleProgram},
	{Short: "t", Long: []string{"radix", "format", "target", "size-sort"}, Val: RoleText},
}}

var writerSpec = Spec{DeletesTree: writerDeletesTree, Grant: GrantExact, GrantFor: []string{"touch", "mkdir", "rmdir", "rm", "unlink", "truncate", "shred"}, Abbrev: true, Operands: RoleWrite, Opts: []Opt{
	{Short: "r", Long: []string{"recursive"}},
	{Short: "R", Long: []string{"recursive"}},
	{Short: "fidvpPm", Long: []string{"recursive", "force", "interactive", "dir", "verbose", "parents", "one-file-system", "no-preserve-root", "preserve-root", "mode"}},
	{Short: "s", Long: []string{"size"}, Val: RoleText},
	{Short: "n", Long: []string{"reference", "iterations", "random-source"}, Val: RoleText},
}}

var teeSpec = Spec{Abbrev: true, Operands: RoleWrite, Opts: []Opt{
	{Short: "aip", Long: []string{"append", "ignore-interrupts", "output-error"}},
}}

var cpSpec = Spec{Grant: GrantExact, Abbrev: true, Operands: RoleRead, Last: RoleWrite, Opts: cpOpts}

var cpOpts = []Opt{
	{Short: "t", Long: []string{"target-directory"}, Val: RoleWrite},
	{Short: "S", Long: []string{"suffix"}, Val: RoleText},
	{Long: []string{"backup", "preserve", "no-preserve", "sparse", "reflink", "update"}, Val: RoleText, Optional: true},
	{Short: "mogC", Long: []string{"mode", "owner", "group"}, Val: RoleText},
	{Short: "a", Long: []string{"archive"}},
	{Short: "r", Long: []string{"recursive"}},
	{Short: "R", Long: []string{"recursive"}},
	{Short: "finlsPLHdpuvxbTDZv", Long: []string{"force", "interactive", "no-clobber", "link", "symbolic-link", "no-dereference", "dereference", "update", "verbose", "one-file-system", "no-target-directory", "parents", "strip"}},
}

// mvSpec: mv removes its sources too, so every operand is written.
var mvSpec = Spec{Grant: GrantExact, Abbrev: true, Operands: RoleWrite, Opts: cpOpts}

// lnSpec: ln TARGET… LINK: a link exposes its target under another name,
// so the targets count as read.
var lnSpec = Spec{Symlinks: []string{"symbolic", "s"}, Grant: GrantExact, Abbrev: true, Operands: RoleRead, Last: RoleWrite, Opts: cpOpts}

var chmodSpec = Spec{Abbrev: true, First: RoleText, FirstBy: []string{"reference"}, Operands: RoleWrite, Opts: []Opt{
	{Long: []string{"reference"}, Val: RoleMeta},
	{Short: "RfvchHLP", Long: []string{"recursive", "silent", "quiet", "verbose", "changes", "no-dereference", "dereference"}},
	{Long: []string{"from"}, Val: RoleText},
}}

var textSpec = Spec{Operands: RoleText}

var hostnameSpec = Spec{ReadOnly: hostnameReadOnly, Abbrev: true, Operands: RoleText, Opts: []Opt{
	{Short: "F", Long: []string{"file"}, Val: RoleRead},
	{Short: "abdfiIsyAvVh", Long: []string{"alias", "boot", "domain", "fqdn", "long", "ip-address", "all-ip-addresses", "short", "yp", "nis", "verbose", "all-fqdns", "version", "help"}},
}}

// dateSpec leaves --resolution (coreutils 9.5: prints the clock's
// resolution) untyped: too new and rare to be worth a role.
var dateSpec = Spec{ReadOnly: dateReadOnly, Grant: GrantPlain, Abbrev: true, Operands: RoleText, Untyped: []string{"resolution"}, Opts: []Opt{
	{Short: "s", Long: []string{"set"}, Val: RoleText},
	{Short: "d", Long: []string{"date"}, Val: RoleText},
	{Short: "f", Long: []string{"file"}, Val: RoleRead},
	{Short: "r", Long: []string{"reference"}, Val: RoleMeta},
	{Short: "I", Long: []string{"iso-8601", "rfc-3339"}, Val: RoleText, Optional: true},
	{Short: "uR", Long: []string{"utc", "universal", "rfc-email", "debug"}},
}}

// psSpec: ps takes BSD letters without a dash (ps eww); the e letter
// prints every process's environment. psEnv checks for it.
var psSpec = Spec{DumpsEnv: psEnv, ReadOnly: AnyUse, Grant: GrantPlain, Operands: RoleText, Opts: []Opt{
	{Short: "oOpqtuUgGCsk", Long: []string{"format", "pid", "ppid", "user", "group", "sort", "cols", "columns", "rows", "tty", "Group", "quick-pid", "sid", "User", "width", "lines"}, Val: RoleText},
	{Short: "AaefFlHjLmMTwxyZdNPcV", Long: []string{"forest", "headers", "no-headers", "no-heading", "help", "version", "deselect", "context", "cumulative"}},
}}

// jqSpec: jq FILTER [FILE…], and gojq, jaq and yq. A filter that names
// env, $ENV or yq's strenv prints the environment (DumpsEnv); yq's load
// functions read the file they name (jq-load).
var jqSpec = Spec{DumpsEnv: jqDumpsEnv, Exec: jqExec, ReadOnly: AnyUse, ReadOnlyFor: []string{"jq"}, Grant: GrantPlain, First: RoleScript, FirstBy: []string{"from-file"}, Operands: RoleRead, Opts: []Opt{
	{Short: "f", Long: []string{"from-file"}, Val: RoleRead},
	{Short: "L", Val: RoleDir},
	{Long: []string{"arg", "argjson"}, Val: RoleText, Pair: true},
	{Long: []string{"slurpfile", "rawfile"}, Val: RoleRead, Pair: true},
	{Long: []string{"indent", "tab-width"}, Val: RoleText},
	{Short: "nrjacCMSseh0", Long: []string{"null-input", "raw-output", "join-output", "ascii-output", "compact-output", "color-output", "monochrome-output", "sort-keys", "slurp", "exit-status", "raw-input", "tab", "seq", "stream", "args", "jsonargs"}},
}}

// jqDumpsEnv: a filter that reads the environment (env, env.NAME,
// $ENV, yq's env(NAME) and strenv(NAME)).
// It reads the words itself: the parse (Command.Words) reaches the specs,
// and a spec's function may not call back into it.
func jqDumpsEnv(c *Command) bool {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "--arg" || a == "--argjson" || a == "--slurpfile" || a == "--rawfile":
			i += 2
		case a == "--indent" || a == "--tab-width" || a == "-L":
			i++
		case a == "-f" || a == "--from-file" || strings.HasPrefix(a, "--from-file="):
			return false // the filter is a file's
		case a == "--":
			return i+1 < len(c.Args) && jqEnv(c.Args[i+1])
		case strings.HasPrefix(a, "-") && len(a) > 1:
		case c.Name == "yq" && (a == "eval" || a == "e" || a == "eval-all" || a == "ea"):
			// yq's subcommand; its filter follows
		default:
			return jqEnv(a)
		}
	}
	return false
}

// jqEnv reports env as a word of filter f (not .env, $env or a longer
// name), $ENV, or strenv.
func jqEnv(f string) bool {
	if strings.Contains(f, "$ENV") {
		return true
	}
	for i := 0; i+3 <= len(f); i++ {
		if f[i:i+3] != "env" {
			continue
		}
		before := i == 0 || !isIdentByte(f[i-1]) || i >= 3 && f[i-3:i] == "str" && (i == 3 || !isIdentByte(f[i-4]))
		after := i+3 == len(f) || !isIdentByte(f[i+3])
		if before && after && (i == 0 || f[i-1] != '.' && f[i-1] != '$') {
			return true
		}
	}
	return false
}

// jqExec is the exec-capable argument table of jqSpec's programs (see [ExecRule]).
var jqExec = []ExecRule{
	{ID: "jq-load", Check: checkJqLoad, Reason: "yq load/load_str/load_xml/load_props/load_base64 read the file they name"},
}

// checkJqLoad marks a filter that calls one of yq's load functions, which
// read a file the filter names, wherever it is. Every operand is looked
// at: after yq eval the filter is the second.
func checkJqLoad(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if wd.Name != "" && wd.Role != RoleScript {
			continue // an operand is the filter, or yq eval's, or a file
		}
		for i := strings.Index(wd.Val, "load"); i >= 0; {
			rest := strings.TrimLeft(wd.Val[i+4:], "_abcdefghijklmnopqrstuvwxyz0123456789")
			if (i == 0 || !isIdentByte(wd.Val[i-1])) && strings.HasPrefix(strings.TrimLeft(rest, " "), "(") {
				m.MarkWord(c, wd, "yq load(…) reads the file it names")
				break
			}
			k := strings.Index(wd.Val[i+4:], "load")
			if k < 0 {
				break
			}
			i += 4 + k
		}
	}
}

var sedSpec = Spec{InPlace: []string{"in-place", "i"}, PrintsFiles: true, Grant: GrantPlain, GrantFor: []string{"sed"}, Exec: sedExec, ReadOnly: sedReadOnly, Abbrev: true, First: RoleScript, FirstBy: []string{"expression", "file"}, Operands: RoleRead, Opts: []Opt{
	{Short: "e", Long: []string{"expression"}, Val: RoleScript},
	{Short: "f", Long: []string{"file"}, Val: RoleRead},
	{Short: "i", Long: []string{"in-place"}, Val: RoleText, Optional: true},
	{Short: "l", Long: []string{"line-length"}, Val: RoleText},
	{Short: "nErsuzE", Long: []string{"quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix", "sandbox", "debug", "follow-symlinks"}},
	{Long: []string{"help", "version"}},
}}

// awkSpec: gawk's options (gawk's manual, 5.2.1) and mawk's (-W usage,
// 1.3.4; testdata/options/awk.txt). -f, -E, -i, -l and -D load code
// guard cannot read; -o, -d and -p write a file, named only when
// attached (-oFILE, --profile=FILE); mawk's -W takes gawk's long names
// and its own (-W exec FILE).
var awkSpec = Spec{PrintsFiles: true, Grant: GrantPlain, GrantFor: []string{"awk"}, Exec: awkExec, ReadOnly: AnyUse, Abbrev: true, First: RoleScript, FirstBy: []string{"file", "source", "exec"}, Operands: RoleRead, Opts: []Opt{
	{Short: "f", Long: []string{"file"}, Val: RoleRead},
	{Short: "vF", Long: []string{"assign", "field-separator"}, Val: RoleText},
	{Short: "e", Long: []string{"source"}, Val: RoleScript},
	{Short: "i", Long: []string{"include"}, Val: RoleRead},
	{Short: "l", Long: []string{"load"}, Val: RoleRead},
	{Short: "E", Long: []string{"exec"}, Val: RoleRead},
	{Short: "D", Long: []string{"debug"}, Val: RoleRead, Optional: true},
	{Short: "o", Long: []string{"pretty-print"}, Val: RoleWrite, Optional: true},
	{Short: "d", Long: []string{"dump-variables"}, Val: RoleWrite, Optional: true},
	{Short: "p", Long: []string{"profile"}, Val: RoleWrite, Optional: true},
	{Short: "L", Long: []string{"lint"}, Val: RoleText, Optional: true},
	{Short: "W", Val: RoleText},
	{Short: "bcCghIMnNOPrsStV", Long: []string{"characters-as-bytes", "traditional", "copyright", "gen-pot", "help", "trace", "bignum", "non-decimal-data",
		"use-lc-numeric", "optimize", "posix", "re-interval", "no-optimize", "sandbox", "lint-old", "version", "usage"}},
}}

var gzipSpec = Spec{Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "c", Long: []string{"stdout", "to-stdout"}},
	{Short: "l", Long: []string{"list"}},
	{Short: "t", Long: []string{"test"}},
	{Short: "r", Long: []string{"recursive"}},
	{Short: "dfhkLnNqvV123456789", Long: []string{"decompress", "uncompress", "force", "keep", "license", "no-name", "name", "quiet", "verbose", "fast", "best", "rsyncable"}},
	{Short: "S", Long: []string{"suffix"}, Val: RoleText},
	{Short: "T", Long: []string{"threads"}, Val: RoleText},
}}

var htpasswdSpec = Spec{Operands: RoleText, Last: RoleSecret, LastBy: []string{"b"}, Opts: []Opt{
	{Short: "b"},
	{Short: "cnmBdsp2iDvFrC", Val: RoleNone},
}}

// editorSpec: an editor shows and writes the files it opens (unknown: both);
// -c, +CMD and --cmd run editor commands (which can run programs), -S and
// -u read scripts.
var editorSpec = Spec{Grant: GrantPlain, GrantFor: []string{"vim", "vi"}, Exec: editorExec, Operands: RoleUnknown, Opts: editorOpts}

// editorOpts: vim's options. -c/--cmd run editor commands, -S and -u
// source a file, -s replays keystrokes from one (grants' vim-command
// marks them); -w and -W write one.
//
// The list is vim's --help (9.0) and nvim's (0.7.2), testdata/options/
// editor.txt. -i names the viminfo (nvim: shada) file, which is written on
// exit; --startuptime and --log write a file; -V[N]FILE writes the
// verbose log to FILE (vim-log); -o/-O/-p take an attached count.
var editorOpts = []Opt{
	{Short: "c", Long: []string{"cmd"}, Val: RoleScript},
	{Short: "SuUs", Val: RoleProgram},
	{Short: "wWi", Long: []string{"startuptime", "log"}, Val: RoleWrite},
	{Short: "T", Val: RoleText},
	{Short: "V", Val: RoleText, Optional: true},
	{Short: "oOp", Val: RoleText, Optional: true},
	{Short: "RbdeEgyZmMnNlLhAHFXrvxCD", Long: []string{"noplugin", "clean", "version", "help", "headless", "embed", "not-a-term", "ttyfail", "nofork", "api-info"}},
}

// nvimSpec: nvim -l SCRIPT runs a Lua script, --listen/--server reach
// another instance's RPC socket (untyped).
var nvimSpec = Spec{Exec: editorExec, Operands: RoleUnknown, Untyped: []string{"listen", "server", "remote", "remote-send", "remote-expr"},
	Opts: append([]Opt{{Short: "l", Val: RoleProgram}}, editorOpts...)}

// emacsSpec: emacs takes one-dash and two-dash long options (emacs's
// manual, GNU Emacs 28.2; testdata/options/editor.txt); --eval,
// -l/--load, -f/--funcall, --script, -x and -u (another user's init) run
// Lisp, -L adds a load path, --init-directory points at another init.
var emacsSpec = Spec{Grant: GrantPlain, GrantFor: []string{"emacs"}, Exec: emacsExec, OneDash: true, Operands: RoleUnknown, Opts: []Opt{
	{Long: []string{"eval", "execute", "load", "l", "funcall", "f", "script", "x", "L", "directory", "user", "u", "init-directory", "socket-name", "s", "server-file"}, Val: RoleProgram},
	{Long: []string{"chdir", "t", "terminal", "display", "d", "geometry", "g", "fg", "bg", "font", "fn", "name", "title", "T", "alternate-editor", "a", "tty",
		"background-color", "foreground-color", "border-color", "bd", "border-width", "bw", "cursor-color", "cr", "internal-border", "ib", "line-spacing", "lsp",
		"mouse-color", "ms", "parent-id", "xrm"}, Val: RoleText},
	{Long: []string{"color"}, Val: RoleText, Optional: true},
	{Long: []string{"file", "find-file", "visit", "insert"}, Val: RoleRead},
	{Long: []string{"batch", "nw", "no-window-system", "Q", "quick", "q", "no-init-file", "no-site-file", "no-site-lisp", "no-splash", "no-desktop", "debug-init",
		"daemon", "fg-daemon", "bg-daemon", "version", "help", "fullscreen", "fs", "maximized", "mm", "fullwidth", "fw", "fullheight", "fh", "iconic",
		"no-x-resources", "no-loadup", "nl", "c", "create-frame", "n", "no-wait", "w", "timeout", "r", "reuse-frame",
		"basic-display", "D", "kill", "no-bitmap-icon", "nbi", "no-blinking-cursor", "nbc", "no-shared-memory", "nsl", "reverse-video", "rv",
		"vertical-scroll-bars", "vb"}},
}}

// nanoSpec: nano's -o/--operatingdir and --rcfile point it elsewhere,
// -Y/--syntax names a syntax; the rest only shape the editing.
var nanoSpec = Spec{Grant: GrantPlain, Operands: RoleUnknown, Untyped: []string{"rcfile", "operatingdir", "o", "speller", "s"}, Opts: []Opt{
	{Short: "TYrQ", Long: []string{"tabsize", "syntax", "fill", "quotestr", "guidestripe", "wordchars", "W", "punct", "brackets"}, Val: RoleText},
	{Short: "ABCDEFGHIJKLMNOPRSUVWZabcdefghijklmnpqtuvwxyz%_0!", Long: []string{"help", "version", "view", "restricted", "nohelp", "linenumbers", "mouse", "smooth", "softwrap", "autoindent", "tabstospaces",
		"nowrap", "ignorercfiles", "backup", "constantshow", "indicator", "minibar", "zap", "afterends", "atblanks", "breaklonglines", "boldtext",
		"casesensitive", "cutfromcursor", "emptyline", "jumpyscrolling", "locking", "noconvert", "nonewlines", "positionlog", "preserve", "rawsequences",
		"saveonexit", "showcursor", "stateflags", "trimblanks", "unix", "wordbounds", "historylog", "magic", "modernbindings"}},
}}

// manSpec: man's pager and preprocessors are programs it runs
// (man --help, man-db 2.11.2; testdata/options/pager.txt): -P, -H, -p
// and -X run a program, -C reads a config whose DEFINE lines name the
// programs man runs, -l formats the files it is given (man-local).
var manSpec = Spec{Exec: pagerExec, Abbrev: true, Operands: RoleText, Opts: []Opt{
	{Short: "P", Long: []string{"pager"}, Val: RoleProgram},
	{Short: "H", Long: []string{"html"}, Val: RoleProgram, Optional: true},
	{Short: "X", Long: []string{"gxditview"}, Val: RoleProgram, Optional: true},
	{Short: "p", Long: []string{"preprocessor"}, Val: RoleProgram},
	{Short: "C", Long: []string{"config-file"}, Val: RoleProgram},
	{Short: "MSmLReETr", Long: []string{"manpath", "sections", "systems", "locale", "recode", "extension", "encoding", "troff-device", "prompt"}, Val: RoleText},
	{Long: []string{"warnings"}, Val: RoleText, Optional: true},
	{Short: "afkKlwWtZiIdDcu7V?", Long: []string{"all", "whatis", "apropos", "global-apropos", "local-file", "where", "path", "troff", "ditroff", "ignore-case",
		"match-case", "regex", "wildcard", "names-only", "debug", "default", "where-cat", "catman", "update", "no-subpages", "ascii", "no-hyphenation",
		"no-justification", "help", "usage", "version"}},
}}

// sortExec is the exec-capable argument table of sortSpec's programs (see [ExecRule]).
var sortExec = []ExecRule{
	{ID: "sort-write", Opts: []string{"compress-program"},
		Reason: "sort --compress-program runs a program"},
}

// base64Exec is the exec-capable argument table of base64Spec's programs (see [ExecRule]).
var base64Exec = []ExecRule{
	{ID: "base64-output", Opts: []string{"output", "o"},
		Reason: "base64 -o writes a file"},
}

// emacsExec is the exec-capable argument table of emacsSpec's programs (see [ExecRule]).
var emacsExec = []ExecRule{
	{ID: "emacs-lisp", Opts: []string{"eval", "execute", "load", "l", "funcall", "f", "script", "x", "L", "directory", "user", "u", "init-directory"},
		Reason: "emacs --eval/-l/-f/--script runs Lisp"},
	{ID: "editor-outside", Check: checkEditorOutside,
		Reason: "an editor opens a file outside the project, which it may write"},
}

// editorExec is the exec-capable argument table of editorSpec and nvimSpec's programs (see [ExecRule]).
var editorExec = []ExecRule{
	{ID: "vim-command", Opts: []string{"cmd", "S", "u", "U", "s", "l", "c"}, Words: []string{"+*"},
		Reason: "vim -c/+cmd/--cmd/-S/-s (nvim -l) runs editor commands or a script"},
	{ID: "vim-log", Check: checkVimLog,
		Reason: "vim -V[N]FILE writes its verbose log to FILE"},
	{ID: "editor-outside", Check: checkEditorOutside,
		Reason: "an editor opens a file outside the project, which it may write"},
}

// checkEditorOutside marks an editor's file operand outside the project
// (vim ~/.bashrc, vim -r /etc/x): the editor shows it and may write it,
// which a '*' grant for the project's editing does not cover.
func checkEditorOutside(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		file := wd.Name == "" && wd.Arg != p.Sub && wd.Role == RoleUnknown || slices.Contains([]string{"file", "find-file", "visit"}, wd.Name) // emacs --file
		if file && !strings.HasPrefix(wd.Val, "+") && m.OutsideProject(c, wd.Val) {
			m.MarkWord(c, wd, "an editor opens a file outside the project, which it may write")
		}
	}
}

// checkVimLog marks vim -V[N]FILE: what follows the level is a file
// vim writes its log to (-V9/tmp/x, -Vx).
func checkVimLog(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if wd.Name == "V" && strings.TrimLeft(wd.Val, "0123456789") != "" {
			m.MarkWord(c, wd, "vim -V[N]FILE writes its verbose log to FILE")
		}
	}
}

// sedExec is the exec-capable argument table of sedSpec's programs (see [ExecRule]).
var sedExec = []ExecRule{
	{ID: "sed-inplace", Opts: []string{"in-place", "i"},
		Reason: "sed -i writes files"},
	{ID: "sed-script", Check: checkSed,
		Reason: "sed script with e/w/W/r/R or -f runs programs or touches other files"},
}

// checkSed judges sed's scripts as the spec types them (the first
// operand, -e/--expression values, attached or not) and marks -f, whose
// script guard cannot read.
func checkSed(c *Command, p Parsed, m Marker) {
	const why = "sed script with e/w/W/r/R or -f runs programs or touches other files"
	for _, wd := range p.Words {
		switch {
		case wd.Name == "file" || Unresolved(wd, "file", "f"):
			m.Mark(0, why)
			m.MarkWord(c, wd, why)
		case wd.Role == RoleScript && !sedScriptSafe(wd.Val, false):
			m.Mark(wd.Arg, why)
		}
	}
}

// sedScriptSafe scans a sed script. With printOnly it accepts only
// addresses with p, =, l, q, Q; otherwise anything except commands that run
// programs or touch other files (e, w, W, r, R, s///e, s///w). What it cannot
// follow is unsafe.
func sedScriptSafe(s string, printOnly bool) bool {
	i, n := 0, len(s)
	skipSpace := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	// delimited reads a part ending in an unescaped d; false if unterminated.
	delimited := func(d byte) bool {
		for i < n {
			switch s[i] {
			case '\\':
				i += 2
				continue
			case '\n':
				return false
			case d:
				i++
				return true
			}
			i++
		}
		return false
	}
	address := func() bool {
		switch {
		case i < n && s[i] >= '0' && s[i] <= '9':
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < n && s[i] == '$':
			i++
		case i < n && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < n && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !delimited(d) {
				return false
			}
		}
		return true
	}
	cmds := 0
	for i < n {
		skipSpace()
		if i >= n {
			break
		}
		if s[i] == ';' || s[i] == '\n' {
			i++
			continue
		}
		if !address() {
			return false
		}
		skipSpace()
		if i < n && s[i] == ',' {
			i++
			skipSpace()
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
			}
			if !address() {
				return false
			}
			skipSpace()
		}
		if i < n && s[i] == '!' {
			i++
			skipSpace()
		}
		if i >= n {
			return false
		}
		c := s[i]
		i++
		cmds++
		toEnd := func() bool { // the rest of the command must be blank up to ; or newline
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == ' ' || s[i] == '\t') {
				i++
			}
			return i == n || s[i] == ';' || s[i] == '\n' || (!printOnly && s[i] == '}')
		}
		if printOnly {
			if strings.IndexByte("p=lqQ", c) < 0 || !toEnd() {
				return false
			}
			continue
		}
		switch {
		case c == '{' || c == '}':
		case strings.IndexByte("=dDgGhHlnNpPqQxzF", c) >= 0:
			if !toEnd() {
				return false
			}
		case c == '#' || c == 'a' || c == 'i' || c == 'c':
			for i < n && s[i] != '\n' {
				i++
			}
		case c == ':' || c == 'b' || c == 't' || c == 'T' || c == 'v':
			for i < n && s[i] != ';' && s[i] != '\n' {
				i++
			}
		case c == 's' || c == 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return false
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return false
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				if c == 'y' && s[i] != ' ' {
					return false
				}
				if s[i] == 'e' || s[i] == 'w' || s[i] == 'W' || s[i] == 'r' || s[i] == 'R' {
					return false
				}
				if !(s[i] == 'g' || s[i] == 'p' || s[i] == 'i' || s[i] == 'I' || s[i] == 'm' || s[i] == 'M' || s[i] >= '0' && s[i] <= '9' || s[i] == ' ') {
					return false
				}
				i++
			}
		default: // e, w, W, r, R and anything unknown
			return false
		}
	}
	return !printOnly || cmds > 0
}

// sedPrintFlags are sed's options, by the spec's names, that leave a
// printing script printing.
var sedPrintFlags = []string{"E", "r", "s", "u", "z", "regexp-extended", "separate", "unbuffered", "null-data", "posix", "sandbox", "debug", "line-length"}

// sedReadOnly: sed -n whose scripts only print (sed -n 5p, sed -n '1,10p' f),
// read from the argument model's parse.
func sedReadOnly(_ *Command, p Parsed) bool {
	if !p.Spec || p.Unknown {
		return false
	}
	quiet, scripts := false, 0
	for _, wd := range p.Words {
		switch {
		case wd.Name == "n" || wd.Name == "quiet" || wd.Name == "silent":
			quiet = true
		case wd.Role == RoleScript:
			if !sedScriptSafe(wd.Val, true) {
				return false
			}
			scripts++
		case wd.Name == "":
		case !slices.Contains(sedPrintFlags, wd.Name):
			return false // -i, -f, --follow-symlinks …
		}
	}
	return quiet && scripts > 0
}

// awkExec is the exec-capable argument table of awkSpec's programs (see [ExecRule]).
var awkExec = []ExecRule{
	{ID: "awk-program", Check: checkAwk,
		Reason: "awk program with system(), |, >, getline or -f runs programs or writes files"},
}

// awkProgramUnsafe reports whether an awk program can run programs,
// write files or print the environment (ENVIRON): system(), getline, @load/@include, or a print or printf
// statement with > or | (print > "FILE", print | "CMD"). A > elsewhere
// is a comparison ($1 > 5, NR>1), and || is a logical or.
func awkProgramUnsafe(p string) bool {
	if strings.Contains(p, "system") || strings.Contains(p, "getline") || strings.Contains(p, "@load") || strings.Contains(p, "@include") ||
		strings.Contains(p, "ENVIRON") || strings.Contains(p, "PROCINFO") {
		return true // ENVIRON prints the environment's secrets
	}
	inPrint, depth := false, 0
	for i := 0; i < len(p); i++ {
		b := p[i]
		switch {
		case b == '"':
			// a string: skip to its end
			for i++; i < len(p) && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case b == '|':
			if i+1 < len(p) && p[i+1] == '|' {
				i++
				continue
			}
			return true // print | "cmd", "cmd" | getline, |&
		case b == '>':
			if inPrint && depth == 0 {
				return true // print > "file", print >> "file"
			}
		case b == '(' || b == '[':
			depth++
		case b == ')' || b == ']':
			depth--
		case b == ';' || b == '}' || b == '{' || b == '\n':
			inPrint, depth = false, 0
		case isAwkWordStart(p, i, "printf"):
			inPrint, depth = true, 0
			i += len("printf") - 1
		case isAwkWordStart(p, i, "print"):
			inPrint, depth = true, 0
			i += len("print") - 1
		}
	}
	return false
}

// isAwkWordStart reports the word w at p[i:], not inside a longer name.
func isAwkWordStart(p string, i int, w string) bool {
	if !strings.HasPrefix(p[i:], w) {
		return false
	}
	if i > 0 && (isIdentByte(p[i-1]) || p[i-1] == '$') {
		return false
	}
	return i+len(w) == len(p) || !isIdentByte(p[i+len(w)])
}

// awkCodeFiles are awk's options that load code guard cannot read
// (-f FILE, gawk -i/-l/-E), by the spec's names.
var awkCodeFiles = []string{"file", "i", "l", "E", "include", "load", "exec", "debug", "D"}

// awkSafeW are the values of mawk's -W (gawk's long names given to -W)
// that neither load code nor write a file.
var awkSafeW = []string{"version", "dump", "help", "interactive", "posix_space", "usage", "random", "sprintf", "traditional", "posix", "lint",
	"lint-old", "re-interval", "sandbox", "characters-as-bytes", "non-decimal-data", "use-lc-numeric", "optimize", "no-optimize", "copyright", "bignum", "field-separator", "assign"}

func checkAwk(c *Command, p Parsed, m Marker) {
	const why = "awk program with system(), |, >, getline or -f runs programs or writes files"
	for _, wd := range p.Words {
		switch {
		case slices.Contains(awkCodeFiles, wd.Name) || Unresolved(wd, awkCodeFiles...):
			m.MarkWord(c, wd, why)
		case (wd.Role == RoleScript || wd.Name == "e" || wd.Name == "source") && awkProgramUnsafe(wd.Val):
			m.Mark(wd.Arg, why)
		case wd.Name == "W":
			if k, _, _ := strings.Cut(wd.Val, "="); !slices.Contains(awkSafeW, k) {
				m.MarkWord(c, wd, "awk -W "+k+" may load a program file or write one (mawk -W exec FILE)")
			}
		case slices.Contains([]string{"pretty-print", "dump-variables", "profile"}, wd.Name) || Unresolved(wd, "pretty-print", "dump-variables", "profile"):
			m.MarkWord(c, wd, "gawk -o/-d/-p (--pretty-print, --dump-variables, --profile) writes a file")
		}
	}
}

func checkPager(c *Command, p Parsed, m Marker) {
	const why = "less/more/man with LESSOPEN, +cmd or -P/-H runs another program"
	for _, a := range c.Assigns {
		if strings.HasPrefix(a, "LESSOPEN=") || strings.HasPrefix(a, "LESSCLOSE=") || strings.HasPrefix(a, "MANPAGER=") || strings.HasPrefix(a, "PAGER=") {
			m.MarkAll(why)
		}
	}
	if c.Name == "man" {
		return // man-pager: -P/-H/--pager are options
	}
	end := slices.Index(c.Args, "--") // less -- +x names a file
	for _, wd := range p.Words {
		if wd.Name == "" && strings.HasPrefix(wd.Val, "+") && (end < 0 || wd.Arg < end) {
			m.Mark(wd.Arg, why)
		}
	}
}

// checkManLocal marks man -l FILE of a file outside the project: the
// operands are files then, not page names, and man prints them.
func checkManLocal(c *Command, p Parsed, m Marker) {
	if !p.Has("local-file", "l") {
		return
	}
	for _, wd := range p.Operands() {
		if m.OutsideProject(c, wd.Val) {
			m.MarkWord(c, wd, "man -l formats and prints a file from outside the project")
		}
	}
}

// pagerExec is the exec-capable argument table of the pagers and man
// (see [ExecRule]); more and most share cat's spec.
var pagerExec = []ExecRule{
	{ID: "pager-command", Only: []string{"less", "more", "most", "man"}, Check: checkPager,
		Reason: "less/more/man with LESSOPEN, +cmd or -P/-H runs another program"},
	{ID: "less-lesskey", Only: []string{"less"}, Opts: []string{"lesskey-file", "k"},
		Reason: "less -k/--lesskey-file loads key bindings whose #env section can set LESSOPEN, a program less runs"},
	{ID: "man-pager", Only: []string{"man"}, Opts: []string{"pager", "html", "preprocessor", "gxditview", "config-file", "P", "H", "p", "X", "C"},
		Reason: "man -P/--pager/-H/-X/--preprocessor runs another program, -C reads a config that names them"},
	{ID: "man-local", Only: []string{"man"}, Check: checkManLocal,
		Reason: "man -l formats and prints a file from outside the project"},
}

// dateReadOnly: date that only prints: no -s/--set (or an abbreviation
// the spec resolves), and no MMDDhhmm operand, which sets the clock too;
// +FORMAT operands print.
func dateReadOnly(_ *Command, p Parsed) bool {
	return typedOnly(p, []string{"set", "s"}, func(wd Word) bool { return strings.HasPrefix(wd.Val, "+") })
}

// fileReadOnly: file without -C/--compile, which writes a magic file.
func fileReadOnly(_ *Command, p Parsed) bool {
	return typedOnly(p, []string{"compile", "C"}, func(Word) bool { return true })
}

// typedOnly reports a command whose typed words hold none of the options
// bad (by the spec's name; an option the spec cannot type fails closed
// when it could be one), and whose operands all pass operand.
func typedOnly(p Parsed, bad []string, operand func(Word) bool) bool {
	for _, wd := range p.Words {
		switch {
		case wd.Name == "":
			if !operand(wd) {
				return false
			}
		case slices.Contains(bad, wd.Name), Unresolved(wd, bad...):
			return false
		}
	}
	return true
}

// treeReadOnly: tree -o FILE writes its listing to FILE.
func treeReadOnly(c *Command, _ Parsed) bool {
	for _, w := range c.Args[1:] {
		if w == "-o" || strings.HasPrefix(w, "-o") && len(w) > 2 && !strings.HasPrefix(w, "--") || w == "-H" || w == "-R" {
			return false // -o writes the listing; -R with -H writes 00Tree.html files
		}
	}
	return true
}

// uniqReadOnly: uniq [OPTION]… [INPUT [OUTPUT]] writes OUTPUT when given.
func uniqReadOnly(c *Command, _ Parsed) bool {
	operands := 0
	for _, w := range c.Args[1:] {
		if w == "-" || !strings.HasPrefix(w, "-") {
			operands++
		}
	}
	return operands <= 1
}

// hostnameReadOnly: hostname alone prints the name; with an operand or -F FILE
// it sets it.
func hostnameReadOnly(_ *Command, p Parsed) bool {
	return len(p.Operands()) == 0 && !p.Has("file")
}

// sedScripts returns sed's script texts: each -e/--expression value, or
// the first operand when there is none.
func sedScripts(fs []field) []field {
	var out []field
	first := -1
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		switch {
		case (a == "-e" || a == "--expression") && i+1 < len(fs):
			out = append(out, fs[i+1])
			i++
		case strings.HasPrefix(a, "--expression="):
			f := fs[i]
			f.val = strings.TrimPrefix(a, "--expression=")
			out = append(out, f)
		case a == "-f" || a == "--file" || a == "-l" || a == "--line-length":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if first < 0 {
				first = i
			}
		}
	}
	if len(out) == 0 && first > 0 {
		out = append(out, fs[first])
	}
	return out
}

// wrapSed: sed's e command runs a shell command (e CMD), or the pattern
// space itself (e alone, s///e): judged as a script, or as code fed from
// stdin.
func (w *walker) wrapSed(c int, fs []field) {
	for _, sc := range sedScripts(fs) {
		if sc.dyn {
			continue
		}
		for _, cmd := range strings.FieldsFunc(sc.val, func(r rune) bool { return r == ';' || r == '\n' }) {
			cmd = strings.TrimSpace(cmd)
			// an address may come first: 1e, /x/e, $e
			k := strings.IndexFunc(cmd, func(r rune) bool { return r == 'e' })
			if k < 0 || strings.HasPrefix(cmd, "s") || strings.HasPrefix(cmd, "y") {
				if strings.HasPrefix(cmd, "s") && strings.ContainsRune(sedSubstFlags(cmd), 'e') {
					w.info[c].readStdin = true // s///e runs the result
					w.a.Commands[c].Opaque = true
				}
				continue
			}
			addr := cmd[:k]
			if strings.Trim(addr, "0123456789,$/^.*[]!~ ") != "" && !strings.HasPrefix(addr, "/") {
				continue
			}
			arg := strings.TrimSpace(cmd[k+1:])
			if arg == "" {
				w.info[c].readStdin = true // e alone runs the pattern space
				w.a.Commands[c].Opaque = true
				continue
			}
			w.nested(c, arg, "sed e", false)
		}
	}
}

// sedSubstFlags returns the flags of a sed s command (s/a/b/ge → "ge"):
// what follows the third unescaped delimiter.
func sedSubstFlags(cmd string) string {
	if len(cmd) < 2 {
		return ""
	}
	delim := cmd[1]
	n := 0
	for i := 2; i < len(cmd); i++ {
		switch cmd[i] {
		case '\\':
			i++
		case delim:
			n++
			if n == 2 {
				return cmd[i+1:]
			}
		}
	}
	return ""
}

// wrapAwk: system("…") and print | "…" run their string through the
// shell; system($0) runs what arrives on stdin.
func (w *walker) wrapAwk(c int, fs []field) {
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		if a == "-f" || a == "-v" || a == "-F" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") || fs[i].dyn {
			continue
		}
		prog := a
		for _, kw := range []string{"system(", "| \"", "|\""} {
			for rest := prog; ; {
				k := strings.Index(rest, kw)
				if k < 0 {
					break
				}
				rest = rest[k+len(kw):]
				arg := strings.TrimSpace(rest)
				if strings.HasPrefix(arg, "\"") || strings.HasSuffix(kw, "\"") {
					arg = strings.TrimPrefix(arg, "\"")
					if e := strings.IndexByte(arg, '"'); e >= 0 {
						w.nested(c, arg[:e], "awk "+strings.TrimSuffix(kw, "(\""), false)
					}
				} else {
					// system($0), system(x): a command built at run time
					w.info[c].readStdin = true
					w.a.Commands[c].Opaque = true
				}
			}
		}
		break // the program is the first operand
	}
}

// exShellCommand returns the shell command an Ex command runs: "!CMD",
// ":!CMD", ":silent !CMD", ":silent! !CMD".
func exShellCommand(ex string) (string, bool) {
	s := strings.TrimLeft(ex, ": \t")
	if rest, ok := strings.CutPrefix(s, "silent"); ok {
		s = strings.TrimLeft(strings.TrimPrefix(rest, "!"), " \t")
	}
	return strings.CutPrefix(s, "!")
}

// psEnv: BSD letters without a dash, e among them, show each process's
// environment (ps e, ps auxe).
func psEnv(c *Command) bool {
	for _, w := range c.Args[1:] {
		if !strings.HasPrefix(w, "-") && strings.Trim(w, "auxwefjlmrsSTvZcghnLHOpqtU") == "" && strings.ContainsRune(w, 'e') {
			return true
		}
	}
	return false
}

// writerDeletesTree: rm -r (or an rm the parser could not read) deletes
// a tree; shred wipes what it is given.
func writerDeletesTree(name string, p Parsed) bool {
	switch name {
	case "rm":
		return p.Has("recursive", "r", "R") || !p.Spec
	case "shred":
		return true
	}
	return false
}
