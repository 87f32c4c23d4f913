package classify

import "strings"

// Specs of the system tools the hard denylist names: disk tools (their
// operands are devices, written), security and service switches (verbs
// and unit names, text), database shells (a database file, then SQL).
// The rules keep their own readings of these grammars (verbs, dd's
// of=); the specs give path tiers and the exec table the roles.

func adminSpec(name string) *Spec {
	switch name {
	case "fdisk", "sfdisk", "gdisk", "cfdisk", "sgdisk", "parted", "blkdiscard", "sg_format", "pvcreate", "vgcreate",
		"cryptsetup", "nvme", "hdparm", "badblocks", "mdadm", "zpool", "wipefs", "mke2fs", "mkswap", "mkntfs",
		"mkdosfs", "mkexfatfs", "mklabel", "mkfs", "ddrescue":
		return &diskSpec
	case "dd", "dcfldd", "dc3dd", "gpg", "gpg2":
		// dd's if=FILE of=FILE (the disk-write rule reads them), gpg's
		// many modes: any word may be a file read or written
		return &unknownSpec
	case "iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft":
		return &iptablesSpec
	case "setenforce", "ufw", "nft", "systemctl", "service", "csrutil", "spctl", "auditctl", "aa-teardown", "aa-disable",
		"aa-complain", "apparmor_parser", "firewall-cmd", "pfctl", "sysctl", "invoke-rc.d", "rc-service",
		"update-rc.d", "chkconfig", "netfilter-persistent", "killall5", "guard", "guard-cli", "setpriv", "chpst",
		"machinectl":
		return &textSpec
	case "sudoedit", "runuser", "calife", "super", "sudo-rs", "su-exec", "gosu", "ksu", "dzdo", "pfexec", "capsh", "systemd-run":
		return &wrapperSpec
	case "sqlite3", "duckdb", "clickhouse-client", "cockroach":
		return &sqlSpec
	}
	if strings.HasPrefix(name, "mkfs.") {
		return &diskSpec
	}
	return nil
}

var diskSpec = Spec{Operands: RoleWrite}

// unknownSpec: a command whose words guard types conservatively.
var unknownSpec = Spec{Operands: RoleUnknown}

// sqlSpec: sqlite3 DB [SQL…]: the database file, then statements.
var sqlSpec = Spec{First: RoleRead, Operands: RoleScript, Opts: []Opt{
	{Long: []string{"cmd", "init"}, Val: RoleScript},
	{Long: []string{"separator", "newline", "nullvalue"}, Val: RoleText},
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
