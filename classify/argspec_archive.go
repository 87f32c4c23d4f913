package classify

import "strings"

// Specs of the archivers. tar's archive is written when creating and read
// otherwise; tarArgs turns the old form (tar xvf a.tar) into options first.

func archiveSpec(name string) *Spec {
	switch name {
	case "tar", "gtar", "bsdtar":
		return &tarSpec
	case "zip":
		return &zipSpec
	case "unzip":
		return &unzipSpec
	case "7z", "7za", "7zz":
		return &sevenZipSpec
	}
	return nil
}

var tarSpec = Spec{DashlessFirst: true, WordRisk: tarWordRisk, ReadOnly: tarReadOnly, ReadOnlyFor: []string{"tar"}, Grant: GrantExact, GrantFor: []string{"tar"}, WritesHere: tarWritesHere, Exec: tarExec, Abbrev: true, Operands: RoleText, Opts: []Opt{
	{Short: "c", Long: []string{"create"}},
	{Short: "x", Long: []string{"extract", "get"}},
	{Short: "t", Long: []string{"list"}},
	{Short: "r", Long: []string{"append"}},
	{Short: "u", Long: []string{"update"}},
	{Short: "A", Long: []string{"catenate", "concatenate"}},
	{Long: []string{"delete"}},
	{Short: "d", Long: []string{"diff", "compare"}},
	{Short: "f", Long: []string{"file"}, Val: RoleText}, // the archive: tarRoles types it
	{Short: "C", Long: []string{"directory"}, Val: RoleDir},
	{Short: "I", Long: []string{"use-compress-program"}, Val: RoleProgram},
	{Long: []string{"to-command", "rsh-command"}, Val: RoleProgram},
	{Short: "F", Long: []string{"info-script", "new-volume-script"}, Val: RoleProgram},
	{Long: []string{"index-file"}, Val: RoleWrite},
	{Long: []string{"one-top-level"}, Val: RoleWrite, Optional: true},
	{Long: []string{"checkpoint-action"}, Val: RoleProgram},
	{Short: "TX", Long: []string{"files-from", "exclude-from"}, Val: RoleRead},
	{Short: "g", Long: []string{"listed-incremental"}, Val: RoleWrite},
	{Short: "V", Long: []string{"label"}, Val: RoleText},
	{Short: "bHKLN", Long: []string{"blocking-factor", "format", "starting-file", "tape-length", "newer", "after-date", "exclude", "transform", "xform", "owner", "group", "mode", "mtime", "strip-components", "checkpoint", "occurrence"}, Val: RoleText},
	{Long: []string{"rmt-command"}, Val: RoleProgram},
	{Long: []string{"add-file", "exclude-ignore", "exclude-ignore-recursive", "group-map", "owner-map"}, Val: RoleRead},
	{Long: []string{"volno-file"}, Val: RoleWrite},
	{Long: []string{"newer-mtime", "warning", "sparse-version", "xattrs-exclude", "xattrs-include", "level", "record-size", "sort", "suffix", "no-quote-chars",
		"quote-chars", "quoting-style", "hole-detection", "pax-option", "exclude-tag", "exclude-tag-under", "exclude-tag-all"}, Val: RoleText},
	{Long: []string{"backup", "atime-preserve"}, Val: RoleText, Optional: true},
	{Short: "nRo?", Long: []string{"test-label", "check-device", "incremental", "ignore-failed-read", "no-check-device", "no-seek", "seek", "exclude-backups",
		"exclude-caches", "exclude-caches-all", "exclude-caches-under", "exclude-vcs", "exclude-vcs-ignores", "no-null", "no-unquote", "no-verbatim-files-from",
		"null", "unquote", "verbatim-files-from", "anchored", "ignore-case", "no-anchored", "no-ignore-case", "no-wildcards", "no-wildcards-match-slash",
		"wildcards-match-slash", "keep-directory-symlink", "keep-newer-files", "no-overwrite-dir", "overwrite-dir", "skip-old-files", "ignore-command-error",
		"no-ignore-command-error", "clamp-mtime", "delay-directory-restore", "touch", "no-delay-directory-restore", "no-same-owner", "no-same-permissions",
		"same-owner", "preserve-order", "same-order", "acls", "no-acls", "no-selinux", "no-xattrs", "selinux", "xattrs", "force-local", "read-full-records",
		"old-archive", "portability", "posix", "lzip", "lzop", "no-auto-compress", "ungzip", "uncompress", "hard-dereference", "full-time", "check-links",
		"block-number", "show-defaults", "show-omitted-dirs", "show-snapshot-field-ranges", "show-transformed-names", "show-stored-names", "utc",
		"confirmation", "help", "restrict", "usage", "version"}},
	{Short: "vzjJaZOPkmpshiSWBlGMUwy", Long: []string{"verbose", "gzip", "gunzip", "bzip2", "xz", "lzma", "zstd", "auto-compress", "compress", "to-stdout", "absolute-names", "keep-old-files", "overwrite", "preserve-permissions", "same-permissions", "dereference", "ignore-zeros", "sparse", "verify", "interactive", "one-file-system", "multi-volume", "unlink-first", "recursive-unlink", "no-recursion", "recursion", "remove-files", "totals", "wildcards", "numeric-owner"}},
}}

// zipSpec: zip's options (zip's manual, Info-ZIP zip 3.0;
// testdata/options/zip.txt). zip spells some options with two letters
// (-TT, -lf, -sf, -db); the spec reads them as bundles of its letters,
// which keeps their values typed: -lf FILE's log file and -O FILE are
// written (the log file reads as the archive, a write), -TT CMD runs a
// program (checkZipTT), -s, -t and -Z take a value.
var zipSpec = Spec{Exec: zipExec, First: RoleWrite, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"unzip-command"}, Val: RoleProgram},
	{Short: "T", Long: []string{"test"}},
	{Short: "xi", Long: []string{"exclude", "include"}, Val: RolePattern},
	{Short: "P", Long: []string{"password"}, Val: RoleSecret},
	{Short: "bnstZ", Long: []string{"temp-path", "suffixes", "from-date", "before-date", "split-size", "compression-method", "dot-size"}, Val: RoleText},
	{Short: "O", Long: []string{"output-file", "out", "logfile-path"}, Val: RoleWrite},
	{Short: "rRjqvumdgyDX0123456789e@ABCEFIJLMNQSUVacfhklopwz$", Long: []string{"recurse-paths", "junk-paths", "quiet", "verbose", "move", "grow", "symlinks", "encrypt",
		"DOS-names", "Q-flag", "VMS-dot-versions", "VMS-portable", "VMS-specific", "VMS-versions", "absolute-path", "adjust-sfx", "archive-clear",
		"archive-comment", "archive-set", "ascii", "binary", "copy-entries", "datafork", "delete", "difference-archive", "display-bytes",
		"display-counts", "display-dots", "display-globaldots", "display-usize", "display-volume", "entry-comments", "fifo", "filesync", "fix",
		"fixfix", "freshen", "from-crlf", "help", "ignore-case", "junk-sfx", "latest-time", "license", "log-append", "log-info", "longnames",
		"more-help", "must-match", "names-stdin", "no-dir-entries", "no-extra", "no-image", "no-wild", "notes", "paths", "preserve-case",
		"preserve-case-2", "preserve-case-5", "recurse-patterns", "regex", "show-command", "show-files", "show-just-unicode", "show-options",
		"show-unicode", "split-bell", "split-pause", "split-verbose", "system-hidden", "to-crlf", "unicode", "update", "use-privileges",
		"volume-label", "wild-stop-dirs"}},
}}

var unzipSpec = Spec{Grant: GrantExact, First: RoleRead, Operands: RoleText, Opts: []Opt{
	{Short: "d", Val: RoleWrite},
	{Short: "P", Val: RoleSecret},
	{Short: "x", Val: RolePattern},
	{Short: "lvtzpcfunoqajCLKXVMWZ"},
}}

var sevenZipSpec = Spec{Operands: RoleRead}

// tarArgs returns tar's argv with the old form's first word (tar xvf
// a.tar dir) turned into options that take their values from the words
// after it, in order: tar cfC a.tar dir x reads "-c -f a.tar -C dir x".
func tarArgs(args []string) []string {
	if len(args) < 2 || args[1] == "" || args[1][0] == '-' {
		return args
	}
	out := make([]string, 0, len(args)+len(args[1]))
	out = append(out, args[0])
	next := 2
	for k := 0; k < len(args[1]); k++ {
		b := args[1][k]
		out = append(out, "-"+string(b))
		if o := tarSpec.short(b); o != nil && o.takes() && next < len(args) {
			out = append(out, args[next])
			next++
		}
	}
	return append(out, args[next:]...)
}

// tarMode returns what a tar command does to its archive: "create"
// (writes it, reads the operands), "extract" (reads it, writes files),
// "list" (only reads it), or "" when no mode is given.
func tarMode(p *Parsed) string {
	switch {
	case p.Has("create", "append", "update", "catenate", "delete"):
		return "create"
	case p.Has("extract"):
		return "extract"
	case p.Has("list", "diff"):
		return "list"
	}
	return ""
}

// tarRoles types what tar's mode decides: creating reads the operands and
// writes the archive; otherwise the archive is read and the operands
// name members, which extracting writes (tar -xf a.tar
// .claude/settings.json writes that file, like cp would; to stdout, -O,
// it writes none).
func tarRoles(p *Parsed) {
	mode := tarMode(p)
	create := mode == "create"
	extract := mode == "extract" && !p.Has("to-stdout", "O")
	for i := range p.Words {
		wd := &p.Words[i]
		switch {
		case wd.Name == "file" && wd.Role != RoleFlag && create:
			wd.Role = RoleWrite
		case wd.Name == "file" && wd.Role != RoleFlag:
			wd.Role = RoleRead
		case wd.Name == "" && create:
			wd.Role = RoleRead
		case wd.Name == "" && extract && !wd.Rest:
			wd.Role = RoleWrite
		}
	}
}

// unzipRoles: the operands after the archive name the members unzip
// extracts, and so writes (unzip a.zip .mcp.json), unless it only lists,
// tests or prints them (-l, -t, -v, -z, -p, -c).
func unzipRoles(p *Parsed) {
	if p.Has("l", "t", "v", "z", "p", "c") {
		return
	}
	for i := range p.Words {
		if wd := &p.Words[i]; wd.Name == "" && wd.Role == RoleText {
			wd.Role = RoleWrite
		}
	}
}

// tarExec is the exec-capable argument table of tarSpec's programs (see [ExecRule]).
var tarExec = []ExecRule{
	{ID: "tar-exec",
		Opts:   []string{"to-command", "checkpoint-action", "use-compress-program", "rsh-command", "info-script", "new-volume-script", "F", "I"},
		Reason: "tar --to-command/--checkpoint-action/--use-compress-program/-I/--rsh-command/-F runs another program"},
}

// zipExec is the exec-capable argument table of zipSpec's programs (see [ExecRule]).
var zipExec = []ExecRule{
	{ID: "zip-test", Opts: []string{"unzip-command"}, Check: checkZipTT,
		Reason: "zip -TT/--unzip-command runs another program"},
}

// checkZipTT marks zip -TT CMD: the spec reads -TT as -T twice, the two
// letters of one word.
func checkZipTT(c *Command, p Parsed, m Marker) {
	for k := 1; k < len(p.Words); k++ {
		a, b := p.Words[k-1], p.Words[k]
		if a.Name == "test" && b.Name == "test" && a.Arg == b.Arg && strings.HasPrefix(c.Args[a.Arg], "-TT") {
			m.Mark(a.Arg, "zip -TT runs another program")
			m.Mark(a.Arg+1, "zip -TT runs another program")
		}
	}
}

// tarWritesHere: tar -x without -C extracts into the working directory.
func tarWritesHere(p Parsed) bool {
	return p.Has("extract") && !p.Has("directory")
}

// tarReadOnly: tar -t/--list only lists an archive: its mode, read from
// the parsed options (tar -xPft.tar extracts, whatever letters follow).
func tarReadOnly(_ *Command, p Parsed) bool {
	return p.Has("list") && !p.Has("extract", "create", "append", "update", "catenate", "delete", "diff")
}

// tarWordRisk: tar -P while extracting writes to the absolute paths the
// archive names.
func tarWordRisk(_ *Command, _ string, wd Word, p Parsed) string {
	if wd.Role == RoleFlag && (wd.Name == "P" || wd.Name == "absolute-names") && p.Has("extract") {
		return "tar -P extracts to absolute paths"
	}
	return ""
}
