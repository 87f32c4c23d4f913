package classify

import (
	"slices"
	"strings"
)

// Specs of the system tools the hard denylist names: disk tools (their
// operands are devices, written), security and service switches (verbs
// and unit names, text), database shells (a database file, then SQL).
// The rules keep their own readings of these grammars (verbs, dd's
// of=); the specs give path tiers and the exec table the roles.

func adminSpec(name string) *Spec {
	switch name {
	case "fdisk", "sfdisk", "gdisk", "cfdisk", "sgdisk", "parted", "blkdiscard", "sg_format", "pvcreate", "vgcreate",
		"cryptsetup", "nvme", "hdparm", "mdadm", "zpool", "wipefs", "mke2fs", "mkswap", "mkntfs",
		"mkdosfs", "mkexfatfs", "mklabel", "mkfs", "ddrescue", "newfs", "format", "format.com":
		return &diskSpec
	case "diskutil":
		// diskutil VERB [apfs VERB] ARGS: verbs and disk names (disk0), text;
		// the disk-format rule reads the verb
		return &textSpec
	case "iptables-restore", "ip6tables-restore", "iptables-legacy-restore", "ip6tables-legacy-restore", "iptables-nft-restore", "ip6tables-nft-restore":
		return &iptablesRestoreSpec
	case "dd", "dcfldd", "dc3dd", "gpg", "gpg2":
		// dd's if=FILE of=FILE (the disk-write rule reads them), gpg's
		// many modes: any word may be a file read or written
		return &unknownSpec
	case "iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft":
		return &iptablesSpec
	case "setenforce", "ufw", "nft", "systemctl", "service", "csrutil", "spctl", "auditctl", "aa-teardown", "aa-disable",
		"aa-complain", "firewall-cmd", "sysctl", "invoke-rc.d", "rc-service",
		"update-rc.d", "chkconfig", "netfilter-persistent", "killall5", "guard", "guard-cli", "setpriv", "chpst",
		"machinectl":
		return &textSpec
	case "sudoedit", "runuser", "calife", "super", "sudo-rs", "su-exec", "gosu", "ksu", "dzdo", "pfexec", "capsh", "systemd-run":
		return &wrapperSpec
	case "sqlite3":
		return &sqlite3Spec
	case "duckdb", "clickhouse-client", "cockroach":
		return &sqlSpec
	case "badblocks":
		return &badblocksSpec
	case "pfctl":
		return &pfctlSpec
	case "apparmor_parser":
		return &apparmorParserSpec
	case "killall":
		return &killallSpec
	case "pkill", "pgrep":
		return &pkillSpec
	}
	if strings.HasPrefix(name, "mkfs.") || strings.HasPrefix(name, "newfs_") {
		return &diskSpec
	}
	return nil
}

var diskSpec = Spec{Operands: RoleWrite}

// iptablesRestoreSpec: iptables-restore [FILE] replaces each table it
// names (the security-off rule reads -n/--noflush and -t/--test).
var iptablesRestoreSpec = Spec{Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "n", Long: []string{"noflush"}},
	{Short: "t", Long: []string{"test"}},
	{Short: "wWMT", Long: []string{"wait", "wait-interval", "modprobe", "table"}, Val: RoleText},
	{Short: "cvhV", Long: []string{"counters", "verbose", "help", "version"}},
}}

// unknownSpec: a command whose words guard types conservatively.
var unknownSpec = Spec{Operands: RoleUnknown}

// sqlSpec: sqlite3 DB [SQL…]: the database file, then statements.
var sqlSpec = Spec{First: RoleRead, Operands: RoleScript, Opts: []Opt{
	{Long: []string{"cmd", "init"}, Val: RoleScript},
	{Long: []string{"separator", "newline", "nullvalue"}, Val: RoleText},
}}

// sqlite3Spec: sqlite3 [OPTIONS] DB [SQL…] (sqlite3 -help;
// testdata/options/sqlite3.txt): one-dash options; the SQL and -cmd are
// script text, whose dot-commands (.shell, .system, .output FILE, .load)
// grants' exec table judges; -init reads commands from a file. -A runs
// .archive, which extracts files: untyped.
var sqlite3Spec = Spec{Exec: sqlite3Exec, OneDash: true, First: RoleRead, Operands: RoleScript, Untyped: []string{"A", "nonce", "vfs", "deserialize"}, Opts: []Opt{
	{Long: []string{"cmd"}, Val: RoleScript},
	{Long: []string{"init"}, Val: RoleProgram},
	{Long: []string{"separator", "newline", "nullvalue", "lookaside", "maxsize", "mmap", "pagecache"}, Val: RoleText},
	{Long: []string{"append", "ascii", "bail", "batch", "box", "column", "csv", "echo", "header", "noheader", "help", "html", "interactive", "json", "line",
		"list", "markdown", "memtrace", "nofollow", "quote", "readonly", "safe", "stats", "table", "tabs", "version", "zip"}},
}}

// iptablesSpec: the commands (-F flush, -X delete chain, -P CHAIN TARGET)
// and the options that take a value; -L, -S and -Z take an optional chain
// as a separate word, typed as an operand.
var iptablesSpec = Spec{Abbrev: true, Operands: RoleText, Opts: []Opt{
	{Short: "F", Long: []string{"flush"}},
	{Short: "X", Long: []string{"delete-chain"}},
	{Short: "P", Long: []string{"policy"}, Val: RoleText},
	{Short: "AIDRNE", Long: []string{"append", "insert", "delete", "replace", "new-chain", "rename-chain"}, Val: RoleText},
	{Short: "tjgpsdiomw", Long: []string{"table", "jump", "goto", "protocol", "source", "destination", "in-interface", "out-interface", "match", "wait", "dport", "sport", "state", "ctstate", "to-destination", "to-source", "comment", "set-counters"}, Val: RoleText},
	{Short: "LSZvnxhVc46", Long: []string{"list", "list-rules", "zero", "verbose", "numeric", "exact", "line-numbers", "help", "version", "check"}},
}}

// badblocksSpec: -w (write test) and -n (non-destructive read-write)
// write the device.
var badblocksSpec = Spec{Operands: RoleWrite, Opts: []Opt{
	{Short: "bcdeptO", Val: RoleText},
	{Short: "i", Val: RoleRead},
	{Short: "o", Val: RoleWrite},
	{Short: "fnsvwBX"},
}}

// pfctlSpec: -d disables the packet filter, -F flushes (-F all).
var pfctlSpec = Spec{Operands: RoleText, Opts: []Opt{
	{Short: "aDFiKkoptTsx", Val: RoleText},
	{Short: "f", Val: RoleRead},
	{Short: "AdeghmNnOqRrSvz"},
}}

// apparmorParserSpec: -R/--remove unloads profiles.
var apparmorParserSpec = Spec{Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Short: "R", Long: []string{"remove"}},
	{Short: "IbfmMLODjo", Long: []string{"Include", "base", "subdomainfs", "match-string", "features-file", "cache-loc", "Optimize", "dump", "jobs", "ofile", "config-file", "warn", "kernel-features", "compile-features", "policy-features"}, Val: RoleText},
	{Short: "arCBNSpkKTWqQvVdh", Long: []string{"add", "replace", "complain", "binary", "names", "stdout", "preprocess", "show-cache", "skip-cache", "skip-read-cache", "write-cache", "quiet", "skip-kernel-load", "verbose", "version", "debug", "help", "purge-cache", "abort-on-error", "skip-bad-cache", "print-cache-dir"}},
}}

// killallSpec: -r/--regexp makes the names regular expressions (killall
// -r . signals everything); -SIGNAL forms are not options it knows.
var killallSpec = Spec{Abbrev: true, Operands: RoleText, Opts: []Opt{
	{Short: "r", Long: []string{"regexp"}},
	{Short: "suoynZ", Long: []string{"signal", "user", "older-than", "younger-than", "ns", "context"}, Val: RoleText},
	{Short: "eIgilqvwV", Long: []string{"exact", "ignore-case", "process-group", "interactive", "list", "quiet", "verbose", "wait", "version"}},
}}

// pkillSpec: -u/-U/-G/-g/-s/-t/-P select processes by owner, group,
// session, terminal or parent; with no pattern they select everything of
// theirs (pkill -9 -u $USER). -SIGNAL forms are not options it knows.
var pkillSpec = Spec{Abbrev: true, Operands: RoleText, Opts: []Opt{
	{Short: "uUGgstP", Long: []string{"euid", "uid", "group", "pgroup", "session", "terminal", "parent"}, Val: RoleText},
	{Short: "Fqr", Long: []string{"signal", "pidfile", "queue", "runstates", "ns", "nslist", "cgroup", "env"}, Val: RoleText},
	{Short: "fxinoeLlavcAwhVH", Long: []string{"full", "exact", "ignore-case", "newest", "oldest", "echo", "logpidfile", "list-name", "list-full", "inverse", "count", "ignore-ancestors", "lightweight", "help", "version", "require-handler"}},
}}

// sqlite3Exec is the exec-capable argument table of sqlite3Spec's programs (see [ExecRule]).
var sqlite3Exec = []ExecRule{
	{ID: "sqlite-dot", Check: checkSqlite,
		Reason: "sqlite3 .shell/.system/.output/.load, writefile(), load_extension() or ATTACH run programs or touch other files"},
}

// sqliteDotSafe are the dot-commands that only print or set how sqlite3
// prints; any other (.shell, .system, .output, .once, .import, .read,
// .load, .open, .save, .backup, .cd, .log, .archive, …) runs a program or
// touches another file.
var sqliteDotSafe = []string{"tables", "table", "schema", "fullschema", "headers", "header", "mode", "indexes", "indices", "databases", "width",
	"nullvalue", "timer", "stats", "help", "quit", "exit", "show", "separator", "print", "dump", "dbinfo", "eqp", "explain", "echo", "changes",
	"bail", "count", "lint"}

// sqliteSQLUnsafe are SQL words that load code, write or read files, run
// an editor, or open another database.
var sqliteSQLUnsafe = []string{"load_extension", "writefile", "readfile", "edit(", "attach", "vacuum into", "fts3_tokenizer", "sqlar_"}

// sqliteScriptUnsafe reports SQL or dot-commands that do more than query.
func sqliteScriptUnsafe(s string) bool {
	low := strings.ToLower(s)
	for _, w := range sqliteSQLUnsafe {
		if strings.Contains(low, w) {
			return true
		}
	}
	for _, line := range strings.Split(low, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, ".") {
			continue
		}
		name, _, _ := strings.Cut(line[1:], " ")
		name = strings.TrimRight(name, ";")
		if !slices.Contains(sqliteDotSafe, name) {
			return true
		}
	}
	return false
}

// checkSqlite marks sqlite3's SQL and -cmd text with a dot-command or SQL
// function that runs a program or touches another file.
func checkSqlite(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if wd.Role == RoleScript && sqliteScriptUnsafe(wd.Val) {
			m.MarkWord(c, wd, "sqlite3 .shell/.system/.output/.load, writefile(), load_extension() or ATTACH run programs or touch other files")
		}
	}
}
