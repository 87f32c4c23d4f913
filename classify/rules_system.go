package classify

// Rules on the system: security switches, signalling every process, and
// the built-in asks of database, cluster and container tools.

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// securityUnits are the services that enforce security policy. A slice,
// not a map: it is also tried in turn against unit globs (systemctl stop 'fire*').
var securityUnits = []string{"apparmor", "auditd", "firewalld", "ufw", "iptables", "ip6tables", "nftables", "selinux", "fail2ban"}

func securityUnit(name string) bool { return slices.Contains(securityUnits, name) }

func (w *walker) securityOff(c int) bool {
	fs := w.info[c].fields
	ops := operands(fs)
	first := ""
	if len(ops) > 0 {
		first = strings.ToLower(ops[0].val)
	}
	switch w.a.Commands[c].Name {
	case "setenforce":
		return first == "0" || first == "permissive"
	case "ufw":
		if first == "disable" || first == "reset" || first == "default" && len(ops) > 1 && ops[1].val == "allow" {
			return true
		}
		// ufw allow from any (to any): every address to every port
		if first == "allow" || first == "route" && len(ops) > 1 && ops[1].val == "allow" {
			rest := ops[1:]
			if first == "route" {
				rest = ops[2:]
			}
			return ufwOpensAll(rest)
		}
	case "iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft":
		// read with iptables' own grammar: -F in a bundle flushes (-vF),
		// an F inside a chain name does not (-PFORWARD DROP)
		p := w.words(c)
		if p.Has("flush", "delete-chain") || acceptAll(p) {
			return true
		}
		if p.Has("policy") {
			for _, wd := range p.Operands() {
				if strings.EqualFold(wd.Val, "ACCEPT") {
					return true
				}
			}
		}
	case "nft":
		all := ""
		for _, f := range fs[1:] {
			all += " " + f.val
		}
		return strings.Contains(all, "flush") || strings.Contains(all, "delete table")
	case "systemctl":
		verb := ""
		for _, f := range ops {
			v := f.val
			if verb == "" {
				verb = v
				if verb != "stop" && verb != "disable" && verb != "mask" && verb != "kill" {
					return false
				}
				continue
			}
			unit := strings.TrimSuffix(v, ".service")
			if securityUnit(unit) {
				return true
			}
			for _, u := range securityUnits {
				if strings.ContainsAny(unit, "*?[") && matchGlob(unit, u) {
					return true // systemctl takes unit globs: 'fire*'
				}
			}
		}
	case "service":
		return len(ops) >= 2 && securityUnit(ops[0].val) && ops[1].val == "stop"
	case "csrutil":
		return first == "disable"
	case "pfctl":
		p := w.words(c)
		return p.Has("d", "F") || p.Unknown && hasShort(fs, 'd') || hasWord(fs, "all")
	case "tee":
		for _, f := range ops {
			ps, _ := w.paths(c, f)
			for _, p := range ps {
				if securityFile(p) {
					return true
				}
			}
		}
	case "sysctl":
		// kernel.randomize_va_space=0 turns ASLR off, net.ipv4.ip_forward=1
		// makes the machine a router: a switch set to anything but its safe
		// values (or to a value guard cannot see)
		for _, f := range fs[1:] {
			k, v, ok := strings.Cut(strings.ReplaceAll(f.val, "/", "."), "=")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			for _, sw := range kernelSwitches {
				if k == sw.key && (f.dyn || !slices.Contains(sw.safe, v)) {
					return true
				}
			}
		}
	case "iptables-restore", "ip6tables-restore", "iptables-legacy-restore", "ip6tables-legacy-restore", "iptables-nft-restore", "ip6tables-nft-restore":
		// replaces every rule of each table it names with what it reads (from
		// /dev/null: none), unless told to keep them (-n) or only to test (-t)
		for _, f := range fs[1:] {
			long, isLong := strings.CutPrefix(f.val, "--")
			switch {
			case f.val == "--":
				return true
			case isLong && long != "" && (strings.HasPrefix("noflush", long) || strings.HasPrefix("test", long) || strings.HasPrefix("help", long) || strings.HasPrefix("version", long)):
				return false // getopt_long: --nof is --noflush
			case !isLong && len(f.val) > 1 && f.val[0] == '-' && strings.ContainsAny(f.val[1:], "ntVh"):
				return false
			}
		}
		return true

	case "spctl":
		return hasWord(fs, "--master-disable", "--global-disable")
	case "auditctl":
		for i, f := range fs {
			if f.val == "-e" && i+1 < len(fs) && fs[i+1].val == "0" || f.val == "-e0" {
				return true
			}
			if f.val == "-D" {
				return true
			}
		}
	case "aa-teardown", "aa-disable", "aa-complain":
		return true
	case "apparmor_parser":
		p := w.words(c)
		return p.Has("remove") || p.Unknown && hasShort(fs, 'R')
	case "apparmor", "auditd", "firewalld", "netfilter-persistent":
		// /etc/init.d/apparmor stop
		return first == "stop" || first == "teardown" || first == "flush"
	case "invoke-rc.d", "rc-service":
		return len(ops) >= 2 && securityUnit(ops[0].val) && (ops[1].val == "stop" || ops[1].val == "teardown")
	case "update-rc.d":
		return len(ops) >= 2 && securityUnit(ops[0].val) && (ops[1].val == "disable" || ops[1].val == "remove")
	case "chkconfig":
		return len(ops) >= 2 && securityUnit(ops[0].val) && ops[1].val == "off"
	case "pkill", "killall":
		for _, f := range ops {
			if securityUnit(f.val) {
				return true
			}
		}
	case "firewall-cmd":
		return hasPrefixWord(fs, "--set-default-zone=trusted", "--panic-off") || hasWord(fs, "--set-default-zone") && hasWord(fs, "trusted")
	}
	return false
}

// kernelSwitches are the kernel settings that keep a protection on, with
// the values that keep it: sysctl KEY=VALUE with any other value turns it
// off (or weakens it).
var kernelSwitches = []struct {
	key  string
	safe []string
}{
	{"kernel.randomize_va_space", []string{"2"}},
	{"kernel.yama.ptrace_scope", []string{"1", "2", "3"}},
	{"kernel.kptr_restrict", []string{"1", "2"}},
	{"kernel.dmesg_restrict", []string{"1"}},
	{"kernel.unprivileged_bpf_disabled", []string{"1", "2"}},
	{"net.ipv4.ip_forward", []string{"0"}},
	{"net.ipv4.conf.all.forwarding", []string{"0"}},
	{"net.ipv6.conf.all.forwarding", []string{"0"}},
	{"fs.protected_symlinks", []string{"1"}},
	{"fs.protected_hardlinks", []string{"1"}},
	{"fs.protected_fifos", []string{"1", "2"}},
	{"fs.protected_regular", []string{"1", "2"}},
	{"fs.suid_dumpable", []string{"0"}},
	{"vm.mmap_min_addr", []string{"4096", "65536"}},
}

// kernelSwitchFile reports a /proc/sys file of a kernelSwitches setting:
// a write there sets it to a value guard does not read.
func kernelSwitchFile(p string) bool {
	key, ok := strings.CutPrefix(path.Clean(p), "/proc/sys/")
	if !ok {
		return false
	}
	key = strings.ReplaceAll(key, "/", ".")
	for _, sw := range kernelSwitches {
		if sw.key == key {
			return true
		}
	}
	return false
}

// ufwOpensAll reports the words of a ufw allow rule that let every address
// reach every port: nothing but from any / to any (and in/out, on IFACE).
func ufwOpensAll(ws []field) bool {
	if len(ws) == 0 {
		return false // ufw allow alone is an error
	}
	for i := 0; i < len(ws); i++ {
		switch ws[i].val {
		case "in", "out":
		case "from", "to", "on":
			if i+1 >= len(ws) || ws[i].val != "on" && ws[i+1].val != "any" && ws[i+1].val != "0.0.0.0/0" && ws[i+1].val != "::/0" {
				return false
			}
			i++
		default:
			return false // a port, a service or a protocol narrows it
		}
	}
	return true
}

// acceptAll reports an iptables rule that accepts everything: -I/-A CHAIN
// -j ACCEPT with no match of its own.
func acceptAll(p *Parsed) bool {
	add, accept := false, false
	for _, wd := range p.Words {
		switch wd.Name {
		case "":
			// the chain and rule number of -I INPUT 1 are operands
		case "I", "A", "insert", "append":
			add = true
		case "j", "jump":
			accept = strings.EqualFold(wd.Val, "ACCEPT")
		case "t", "table", "w", "wait":
		default:
			return false // a match (-p, -s, -i, -m …) narrows the rule
		}
	}
	return add && accept
}

func (w *walker) killAll(c int) bool {
	fs := w.info[c].fields
	switch w.a.Commands[c].Name {
	case "killall5":
		return true
	case "pkill", "killall":
		return w.killsEveryMatch(c)
	case "kill":
	default:
		return false
	}
	if w.pidsOfAll(c) {
		return true // kill -9 $(pgrep .), pgrep . | xargs kill -9
	}
	i := 1
	if i < len(fs) {
		switch a := fs[i].val; {
		case a == "-s" || a == "-n" || a == "--signal":
			i += 2
		case a == "-l" || a == "-L" || a == "--list" || a == "--table":
			return false
		case strings.HasPrefix(a, "-") && a != "--" && !isMinusOne(a):
			i++
		case isMinusOne(a) && i+1 < len(fs) && fs[i+1].val != "--":
			// kill -1 PID… sends SIGHUP; -1 is the signal here.
			i++
		}
	}
	for ; i < len(fs); i++ {
		if fs[i].val == "--" {
			continue
		}
		if isMinusOne(fs[i].val) {
			return true
		}
	}
	return false
}

// killsEveryMatch: pkill/killall with only user, group or session
// selectors (pkill -9 -u $USER) or a pattern every name matches (killall
// -r ., pkill ”) signals every process it can reach.
func (w *walker) killsEveryMatch(c int) bool {
	fs := w.info[c].fields
	cmd := &w.a.Commands[c]
	p := w.words(c)
	var pats []Word
	selectors := false
	for _, wd := range p.Words {
		switch {
		case wd.Name == "":
			pats = append(pats, wd)
		case slices.Contains(killSelectors, wd.Name):
			selectors = true
		}
	}
	if (cmd.Name == "pkill" || cmd.Name == "pgrep") && p.Has("n", "o", "newest", "oldest") {
		return false // pkill -n/-o signals one process
	}
	if len(pats) == 0 {
		return selectors // no name at all: every process of those users
	}
	regex := cmd.Name == "pkill" || cmd.Name == "pgrep" || p.Has("regexp") || p.Unknown && hasShort(fs, 'r') // killall -9 -r .: -9 is not in the spec
	for _, wd := range pats {
		if wd.Arg < len(cmd.Dynamic) && cmd.Dynamic[wd.Arg] {
			continue
		}
		if wd.Val == "" {
			return true
		}
		if regex {
			if re, err := regexp.Compile(wd.Val); err == nil && matchesAnyName(re) {
				return true // ., .*, ^, $: every name matches
			}
		}
	}
	return false
}

// pidsOfAll reports a kill whose process ids come from a lister of every
// process it can reach: a substitution in its words (kill -9 $(pgrep .)),
// or, run by xargs, the pipeline feeding xargs (ps -eo pid | xargs kill),
// through filters that keep every line (awk '{print $2}', cut, tr, sort).
func (w *walker) pidsOfAll(c int) bool {
	for _, s := range w.info[c].substCmds {
		if w.listsAll(s, 0) {
			return true
		}
	}
	if p := w.a.Commands[c].Parent; p >= 0 && w.a.Commands[p].Name == "xargs" {
		if f := int(w.info[p].fedBy); f > 0 && w.listsAll(f-1, 0) {
			return true
		}
	}
	// a variable that holds such ids: a loop over them (for p in
	// $(pgrep .)), or read from such a lister's pipe (pgrep . | while
	// read p)
	for _, f := range w.info[c].fields[1:] {
		name := varName(f)
		if name == "" {
			continue
		}
		if w.pidVars[name] {
			return true
		}
		for r := range w.a.Commands {
			if w.a.Commands[r].Name == "read" && w.info[r].fedBy > 0 && slices.Contains(w.a.Commands[r].Args[1:], name) && w.listsAll(int(w.info[r].fedBy)-1, 0) {
				return true
			}
		}
	}
	return false
}

// varName returns NAME when a word is just $NAME or ${NAME} (quoted or
// not), "" otherwise.
func varName(f field) string {
	if !f.dyn {
		return ""
	}
	v := strings.Trim(f.val, "\"")
	v, ok := strings.CutPrefix(v, "$")
	if !ok {
		return ""
	}
	if b, ok := strings.CutPrefix(v, "{"); ok {
		v, ok = strings.CutSuffix(b, "}")
		if !ok {
			return ""
		}
	}
	for i := 0; i < len(v); i++ {
		if !isIdentByte(v[i]) {
			return ""
		}
	}
	return v
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// noteLoopPids records a for loop's variable as holding every process's
// id when its items are the output of a lister of every process: the
// commands from index first on are its items' substitutions, and the one
// whose output nothing among them reads is what the loop gets.
func (w *walker) noteLoopPids(name string, first int) {
	for c := first; c < len(w.a.Commands); c++ {
		sink := true
		for d := first; d < len(w.a.Commands); d++ {
			if int(w.info[d].fedBy) == c+1 {
				sink = false
			}
		}
		if sink && w.listsAll(c, 0) {
			if w.pidVars == nil {
				w.pidVars = map[string]bool{}
			}
			w.pidVars[name] = true
			return
		}
	}
}

// listsAll reports a command that prints the ids of every process it can
// reach (pgrep ., pgrep -u $USER, ps -e, ps aux, ps -eo pid), or a filter
// that keeps every line of such a command's output.
func (w *walker) listsAll(c, depth int) bool {
	if depth > 8 {
		return false
	}
	cm := &w.a.Commands[c]
	switch cm.Name {
	case "pgrep":
		return w.killsEveryMatch(c)
	case "ps":
		// every process unless it picks them by id, name, tty or session
		// (ps mixes UNIX -p, BSD p and GNU --pid= forms: read the words)
		fs := w.info[c].fields
		for i := 1; i < len(fs); i++ {
			v := fs[i].val
			if name, ok := strings.CutPrefix(v, "--"); ok {
				name, _, eq := strings.Cut(name, "=")
				if slices.Contains(psPicks, name) {
					return false
				}
				if !eq && slices.Contains(psLongValues, name) {
					i++
				}
				continue
			}
			for k := len(v) - len(strings.TrimPrefix(v, "-")); k < len(v); k++ {
				if strings.IndexByte("pqCtsN", v[k]) >= 0 {
					return false
				}
				if strings.IndexByte("oOuUgGk", v[k]) >= 0 && (v[0] == '-' || v[k] != 'u') {
					if k+1 == len(v) {
						i++ // its value is the next word
					}
					break
				}
			}
		}
		return true
	case "awk", "gawk", "mawk", "cut", "tr", "sort", "uniq", "cat", "tail":
		if cm.Name == "tail" && !tailFromLine(w.info[c].fields) {
			return false // tail -5 picks lines; tail -n +2 drops a header
		}
		if cm.Name == "awk" || cm.Name == "gawk" || cm.Name == "mawk" {
			for _, wd := range w.words(c).ByRole(RoleScript) {
				if !strings.HasPrefix(strings.TrimSpace(wd.Val), "{") && !strings.HasPrefix(strings.TrimSpace(wd.Val), "NR>1") {
					return false // /node/{print $2} picks lines
				}
			}
		}
		if f := int(w.info[c].fedBy); f > 0 {
			return w.listsAll(f-1, depth+1)
		}
	}
	return false
}

// tailFromLine reports tail -n +N (or +N, -n+N, --lines=+N): from a
// line on, every line after it.
func tailFromLine(fs []field) bool {
	for i := 1; i < len(fs); i++ {
		v := fs[i].val
		switch {
		case (v == "-n" || v == "--lines") && i+1 < len(fs):
			return strings.HasPrefix(fs[i+1].val, "+")
		case strings.HasPrefix(v, "-n+"), strings.HasPrefix(v, "--lines=+"), strings.HasPrefix(v, "+"):
			return true
		}
	}
	return false
}

// psPicks are ps's long options that pick processes by id, tty or
// session; psLongValues those that take a value.
var (
	psPicks      = []string{"pid", "quick-pid", "ppid", "tty", "sid", "deselect"}
	psLongValues = []string{"format", "sort", "user", "User", "group", "Group", "cols", "columns", "lines", "rows", "width"}
)

// killSelectors are pkill's and killall's options, by the specs' names,
// that select processes by owner, group, session, terminal or parent.
var killSelectors = []string{"u", "U", "G", "g", "s", "t", "P", "user", "euid", "uid", "group", "pgroup", "session", "terminal", "parent"}

// matchesAnyName reports a regexp that matches names of every shape.
func matchesAnyName(re *regexp.Regexp) bool {
	for _, n := range []string{"a", "Z", "7", "_", "-", "."} {
		if !re.MatchString(n) {
			return false
		}
	}
	return true
}

func sqlDestroys(s string) bool {
	u := strings.ToUpper(s)
	for _, kw := range []string{"DROP ", "TRUNCATE ", "DROP\t", "TRUNCATE\t", "DROP\n", "TRUNCATE\n"} {
		if strings.Contains(u, kw) {
			return true
		}
	}
	return strings.HasSuffix(u, "TRUNCATE")
}

func (w *walker) sqlDrop(c int) bool {
	switch w.a.Commands[c].Name {
	case "psql", "mysql", "mariadb", "sqlite3", "duckdb", "clickhouse-client", "cockroach":
	default:
		return false
	}
	// the SQL the argument model types as script: psql -c, mysql -e or
	// --exec (abbreviated), sqlite3 DB SQL
	p := w.words(c)
	for _, wd := range p.Words {
		if (wd.Role == RoleScript || wd.Role == RoleUnknown) && sqlDestroys(wd.Val) {
			return true
		}
	}
	return false
}

// verb returns the first operand of a CLI that takes global options with
// values (kubectl -n NS delete …).
func verb(fs []field, withValue ...string) (int, string) {
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && contains(withValue, a) {
				i++
			}
			continue
		}
		return i, a
	}
	return -1, ""
}

func (w *walker) kubectlDelete(c int) bool {
	switch w.a.Commands[c].Name {
	case "kubectl", "oc", "microk8s.kubectl", "k3s":
	default:
		return false
	}
	fs := w.info[c].fields
	_, v := verb(fs, "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--as", "--token")
	if v == "kubectl" && w.a.Commands[c].Name == "k3s" {
		i, _ := verb(fs)
		_, v = verb(fs[i:], "-n", "--namespace", "--context", "--kubeconfig")
	}
	return v == "delete"
}

func (w *walker) terraformDestroy(c int) bool {
	switch w.a.Commands[c].Name {
	case "terraform", "tofu", "terragrunt":
	default:
		return false
	}
	fs := w.info[c].fields
	_, v := verb(fs, "-chdir")
	return v == "destroy" || (v == "apply" && hasWord(fs, "-destroy", "--destroy"))
}

func (w *walker) dockerPrune(c int) bool {
	switch w.a.Commands[c].Name {
	case "docker", "podman", "nerdctl":
	default:
		return false
	}
	fs := w.info[c].fields
	i, v := verb(fs, "-H", "--host", "--context", "-c", "--config", "-l", "--log-level")
	if i < 0 {
		return false
	}
	switch v {
	case "system", "volume", "image", "container", "network", "builder", "buildx":
		_, v2 := verb(fs[i:])
		return v2 == "prune"
	}
	return false
}
