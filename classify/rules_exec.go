package classify

// Rules on what runs: privilege, downloads run as code, fork bombs and
// code hidden in text bash evaluates.

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// privileged are commands that run another as a different user. Like
// every set here it is a switch rather than a map: a map literal is built
// by init code in every guard process, a switch costs nothing until used.
func privileged(name string) bool {
	// in any case: on a case-insensitive file system (macOS, Windows)
	// SUDO runs sudo
	switch strings.ToLower(name) {
	case "sudo", "sudoedit", "su", "doas", "pkexec", "run0", "runuser",
		"calife", "super", "sudo-rs", "su-exec", "gosu", "ksu", "dzdo",
		"pfexec", "capsh",
		// graphical and distribution front ends to the same
		"kdesu", "kdesudo", "gksu", "gksudo", "lxqt-sudo", "lxsudo", "xdg-su",
		"please", "pleaseedit", "beesu", "sux", "ssu", "sudo.exe", "gsudo":
		return true
	}
	return false
}

func (w *walker) privilege(c int) bool {
	name := w.a.Commands[c].Name
	if privileged(name) {
		return true
	}
	fs := w.info[c].fields
	switch name {
	case "setpriv":
		return hasPrefixWord(fs, "--reuid", "--regid", "--init-groups", "--inh-caps", "--ambient-caps")
	case "chpst":
		return hasPrefixWord(fs, "-u", "-U")
	case "machinectl":
		_, v := verb(fs)
		return v == "shell" || v == "login"
	case "systemd-run":
		// the system manager runs it as root unless --user asks for the
		// user's own manager (and no other user is named)
		return hasPrefixWord(fs, "--uid", "--gid", "-pUser=", "--property=User=", "--system", "-M", "--machine") ||
			!hasWord(fs, "--user")
	case "flatpak-spawn":
		return hasWord(fs, "--host") // leaves the sandbox for the host
	case "distrobox-host-exec", "host-spawn":
		return true // runs on the host, outside the container
	case "ssh", "slogin", "autossh", "mosh", "scp", "sftp", "rsync":
		return w.rootHere(c)
	}
	return false
}

// rootHere reports ssh (and the tools that log in through it) as root
// on this machine: ssh root@localhost is sudo by another name. The user
// comes from USER@HOST (scp and rsync: in any operand, HOST:PATH) or -l;
// the host is this machine by any of its common names.
func (w *walker) rootHere(c int) bool {
	cm := &w.a.Commands[c]
	p := w.words(c)
	user := ""
	for _, wd := range p.Words {
		switch {
		case wd.Name == "l" || wd.Name == "login_name":
			user = wd.Val
		case wd.Name == "o":
			// -o User=root, -o 'User root'
			k, v, ok := strings.Cut(strings.TrimSpace(wd.Val), "=")
			if !ok {
				k, v, ok = strings.Cut(strings.TrimSpace(wd.Val), " ")
			}
			if ok && strings.EqualFold(strings.TrimSpace(k), "user") {
				user = strings.TrimSpace(v)
			}
		}
	}
	for _, wd := range p.Words {
		if wd.Name != "" {
			continue
		}
		v := wd.Val
		if cm.Name == "ssh" || cm.Name == "slogin" || cm.Name == "autossh" || cm.Name == "mosh" {
			v = strings.TrimPrefix(v, "ssh://")
		} else if k := strings.IndexByte(v, ':'); k > 0 {
			v = v[:k] // USER@HOST:PATH
		} else {
			continue
		}
		u, host, at := strings.Cut(v, "@")
		if !at {
			u, host = user, v
		}
		if b, _, ok := strings.Cut(strings.TrimPrefix(host, "["), "]"); ok && strings.HasPrefix(host, "[") {
			host = b // [::1]:22
		} else if strings.Count(host, ":") == 1 {
			host, _, _ = strings.Cut(host, ":") // HOST:PORT; ::1 is an address
		}
		if u == "root" && localHost(host) {
			return true
		}
		if cm.Name == "ssh" || cm.Name == "slogin" || cm.Name == "autossh" || cm.Name == "mosh" {
			break // the first operand is the host; the rest is the command
		}
	}
	return false
}

// localHost reports a name for this machine.
func localHost(h string) bool {
	h = strings.Trim(strings.ToLower(h), "[]")
	return h == "localhost" || h == "::1" || h == "0.0.0.0" || h == "0" || strings.HasPrefix(h, "127.") || strings.HasSuffix(h, ".localhost") || h == "localhost.localdomain" || h == "ip6-localhost" ||
		h == "ip6-loopback" || h == "localhost6" || h == "localhost6.localdomain6" || strings.TrimSuffix(h, ".") == "localhost" ||
		loopbackNumber(h) || loopbackDNS(strings.TrimSuffix(h, "."))
}

// downloaders are commands that can fetch data from the network.
func downloaders(name string) bool {
	switch name {
	case "curl", "wget", "wget2", "fetch", "http", "https", "xh",
		"xhs", "lwp-request", "GET", "POST", "aria2c", "nc", "ncat", "netcat", "socat",
		"lynx", "links", "w3m", "elinks", "openssl", "ssh", "telnet", "httpie":
		return true
	}
	return false
}

// runsCode are commands that run text they are given as code.
func runsCode(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "rbash", "eval", "source", ".":
		return true
	}
	_, ok := interpreterName(name)
	return ok
}

// fetchedFiles adds the files c downloads to (curl -o F, curl -O URL,
// wget URL, wget -O F) to fetched.
func (w *walker) fetchedFiles(c int, fetched []string) []string {
	name := w.a.Commands[c].Name
	if name != "curl" && name != "wget" && name != "wget2" {
		return fetched
	}
	p := w.words(c)
	add := func(f field) {
		ps, _ := w.paths(c, f)
		fetched = append(fetched, ps...)
	}
	named := false
	for _, rt := range w.redirs {
		// wget -O- URL > x, curl URL > x: the download goes where stdout does
		if rt.cmd == c && rt.op != syntax.RdrIn && rt.op != syntax.DplOut && rt.op != syntax.DplIn {
			fetched = append(fetched, rt.paths...)
		}
	}
	for _, wd := range p.Words {
		if wd.Role == RoleWrite && (wd.Name == "output" || wd.Name == "output-document") {
			add(w.valueField(c, wd))
			named = true
		}
	}
	remote := name == "wget" || name == "wget2" || p.Has("O", "remote-name", "remote-name-all")
	if remote && !named {
		for _, wd := range p.ByRole(RoleURL) {
			u := strings.TrimSuffix(wd.Val, "/")
			if k := strings.LastIndexByte(u, '/'); k >= 0 && k+1 < len(u) {
				base, _, _ := strings.Cut(u[k+1:], "?")
				add(field{val: base, pat: base})
			}
		}
	}
	return fetched
}

// runsFetched reports a command that runs a file downloaded earlier in
// the same text: sh x, bash ./x, python3 x, source x, ./x.
func (w *walker) runsFetched(c int, fetched []string) bool {
	cm := &w.a.Commands[c]
	if len(fetched) == 0 || cm.Name == "" {
		return false
	}
	fs := w.info[c].fields
	var cands []field
	if runsCode(cm.Name) {
		for _, f := range fs[1:] {
			if !strings.HasPrefix(f.val, "-") {
				cands = append(cands, f)
				break
			}
		}
	}
	if strings.Contains(fs[0].val, "/") {
		cands = append(cands, fs[0])
	}
	for _, f := range cands {
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if slices.Contains(fetched, p) {
				return true
			}
		}
	}
	return false
}

func (w *walker) downloadExec(c int) bool {
	if w.a.Commands[c].Dynamic[0] {
		// $(curl …) as the command word: the download is the command
		for _, s := range w.info[c].substCmds {
			if downloaders(w.a.Commands[w.effective(s)].Name) {
				return true
			}
		}
		return false
	}
	if !runsCode(w.a.Commands[c].Name) {
		return false
	}
	for _, s := range w.info[c].substCmds {
		if downloaders(w.a.Commands[w.effective(s)].Name) {
			return true
		}
	}
	return false
}

// forkBombs finds functions that call themselves (through any cycle of
// functions) concurrently or more than once: they fork without end.
func (w *walker) forkBombs() {
	if len(w.funcs) == 0 {
		return
	}
	reach := func(from string) map[string]bool {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, call := range w.funcs[f] {
				if _, defined := w.funcs[call.name]; defined && call.name != "" && !seen[call.name] {
					seen[call.name] = true
					stack = append(stack, call.name)
				}
			}
		}
		return seen
	}
	reaches := map[string]map[string]bool{}
	for f := range w.funcs {
		if f != "" {
			reaches[f] = reach(f)
		}
	}
	for f, r := range reaches {
		if !r[f] {
			continue
		}
		// The cycle's members: g with f→g and g→f.
		edges, concurrent := 0, false
		for g := range r {
			if !reaches[g][f] {
				continue
			}
			for _, call := range w.funcs[g] {
				if call.name == f || (r[call.name] && reaches[call.name][f]) {
					edges++
					concurrent = concurrent || call.concurrent
				}
			}
		}
		if concurrent || edges >= 2 {
			cmd := -1
			for i := range w.a.Commands {
				if w.a.Commands[i].Name == f {
					cmd = i
					break
				}
			}
			w.hitDeny("fork-bomb", cmd)
			return
		}
	}
}

// forkBomb: the per-command forms of a fork bomb. An interpreter
// one-liner that forks in an endless loop (perl -e 'fork while 1',
// python3 -c 'while 1: os.fork()', ruby -e 'loop { fork }'), and xargs -P 0
// or parallel -j 0 fed by an endless stream (yes | xargs -P0 sh): every line
// starts another process, with no limit on how many run at once. (The
// function that calls itself in the background, and the shell loop that
// backgrounds forever, are found while walking: funcForks, endlessForks.)
func (w *walker) forkBomb(c int) bool {
	cm := &w.a.Commands[c]
	if cm.Opaque {
		for _, wd := range w.words(c).ByRole(RoleScript) {
			if strings.Contains(wd.Val, "fork") && endlessLoop(wd.Val) && !strings.Contains(wd.Val, "wait") {
				return true
			}
		}
	}
	switch cm.Name {
	case "xargs", "parallel":
		if f := int(w.info[c].fedBy); f > 0 && endlessSource(w.a.Commands[f-1].Args) && w.unlimitedJobs(c) {
			return true
		}
	}
	return false
}

// endlessLoop reports a loop that never ends in a perl, python, ruby,
// node, php or lua one-liner (while 1, while(true), until 0, for(;;),
// loop { }), or a fork that is its own loop's condition (fork while fork),
// read with blanks removed.
func endlessLoop(script string) bool {
	s := strings.Join(strings.Fields(script), "")
	for _, l := range endlessLoops {
		if strings.Contains(s, l) {
			return true
		}
	}
	return false
}

var endlessLoops = [...]string{"while1", "while(1)", "whiletrue", "while(true)", "whileTrue", "while(!0)", "while:", "whilefork",
	"while(fork", "until0", "until(0)", "untilfalse", "until(false)", "for(;;)", "loop{", "loopdo", "forkwhile", "fork()while",
	"forkuntil", "fork()until", "forkfor", "fork()for"}

// endlessSource reports a command whose output never ends: yes, cat or
// head of /dev/zero or /dev/urandom without a count.
func endlessSource(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch path.Base(args[0]) {
	case "yes":
		return true
	case "cat":
		return len(args) == 2 && (args[1] == "/dev/zero" || args[1] == "/dev/urandom" || args[1] == "/dev/random")
	}
	return false
}

// unlimitedJobs reports xargs -P 0 (--max-procs=0) or parallel -j 0: as
// many processes at once as lines arrive.
func (w *walker) unlimitedJobs(c int) bool {
	fs := w.info[c].fields
	for i := 1; i < len(fs); i++ {
		v := fs[i].val
		switch {
		case v == "-P" || v == "--max-procs" || v == "-j" || v == "--jobs":
			if i+1 < len(fs) && (fs[i+1].val == "0" || fs[i+1].dyn) {
				return true
			}
		case v == "-P0" || v == "--max-procs=0" || v == "-j0" || v == "--jobs=0" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.HasSuffix(v, "P0"):
			return true
		}
	}
	return false
}

// endlessForks: a shell loop whose condition is always true (while true,
// while :, while [ 1 ], while ((1)), until false, for ((;;))) and whose
// body only starts commands in the background (while :; do sh & done,
// while :; do (sh &); done) forks without end. A body with a command in
// the foreground (sleep, wait, inotifywait) may pace itself: it is not
// judged here.
func (w *walker) endlessForks(cond []*syntax.Stmt, until bool, body []*syntax.Stmt) {
	if cond != nil {
		if len(cond) != 1 || cond[0].Background {
			return
		}
		if until && !alwaysFalse(cond[0].Cmd) || !until && !alwaysTrue(cond[0].Cmd) {
			return
		}
	}
	if len(body) == 0 {
		return
	}
	for _, s := range body {
		if !s.Background && !s.Coprocess && !backgroundGroup(s) && !instant(s) {
			return // a command in the foreground may pace the loop (sleep, wait, inotifywait)
		}
	}
	w.hitDeny("fork-bomb", -1)
}

// alwaysTrue reports a loop condition that is true every time: true, :,
// [ WORD ] or test WORD with a literal non-empty word, [[ WORD ]], ((N))
// with a literal number other than 0.
func alwaysTrue(c syntax.Command) bool {
	switch x := c.(type) {
	case *syntax.CallExpr:
		if len(x.Assigns) > 0 || len(x.Args) == 0 {
			return false
		}
		lits := make([]string, len(x.Args))
		for i, a := range x.Args {
			lits[i] = a.Lit()
			if lits[i] == "" {
				return false // not a literal word
			}
		}
		switch {
		case len(lits) == 1:
			return lits[0] == "true" || lits[0] == ":"
		case len(lits) == 3 && lits[0] == "[" && lits[2] == "]", len(lits) == 2 && lits[0] == "test":
			return true
		}
	case *syntax.TestClause:
		if w, ok := x.X.(*syntax.Word); ok {
			return w.Lit() != ""
		}
	case *syntax.ArithmCmd:
		if w, ok := x.X.(*syntax.Word); ok {
			n, err := strconv.Atoi(w.Lit())
			return err == nil && n != 0
		}
	}
	return false
}

// alwaysFalse reports an until condition that is false every time.
func alwaysFalse(c syntax.Command) bool {
	x, ok := c.(*syntax.CallExpr)
	return ok && len(x.Assigns) == 0 && len(x.Args) == 1 && x.Args[0].Lit() == "false"
}

// instant reports a statement that returns at once and so paces nothing:
// true, :, echo, printf, let, an assignment.
func instant(s *syntax.Stmt) bool {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	if len(call.Args) == 0 {
		return true // x=1
	}
	switch call.Args[0].Lit() {
	case "true", ":", "echo", "printf", "let":
		return true
	}
	return false
}

// backgroundGroup reports a subshell or group whose every statement runs
// in the background: (sh &), { sh & }.
func backgroundGroup(s *syntax.Stmt) bool {
	var stmts []*syntax.Stmt
	switch x := s.Cmd.(type) {
	case *syntax.Subshell:
		stmts = x.Stmts
	case *syntax.Block:
		stmts = x.Stmts
	}
	if len(stmts) == 0 {
		return false
	}
	for _, t := range stmts {
		if !t.Background && !t.Coprocess {
			return false
		}
	}
	return true
}

// setPositional follows set -- ARG… and shift, which give the script new
// positional parameters: set -- /; rm -rf "$1" deletes /. Literal words
// set them; a word guard cannot see, or a set inside a branch, loop or
// function (it may not run), makes them unknown.
func (w *walker) setPositional(idx int) {
	fs := w.info[idx].fields
	p0 := "bash"
	if len(w.pos) > 0 {
		p0 = w.pos[0]
	}
	if w.a.Commands[idx].Name == "shift" {
		n := 1
		if len(fs) > 1 {
			k, err := strconv.Atoi(fs[1].val)
			if err != nil || fs[1].dyn {
				w.pos = nil
				return
			}
			n = k
		}
		switch {
		case w.pos == nil:
		case w.cond > 0 || n < 0:
			w.pos = nil
		case 1+n <= len(w.pos):
			w.pos = append([]string{p0}, w.pos[1+n:]...)
		}
		return
	}
	i := 1
	args := false
	for ; i < len(fs); i++ {
		v := fs[i].val
		if fs[i].dyn {
			w.pos = nil
			return
		}
		if v == "--" || v == "-" {
			i++
			args = true
			break
		}
		if !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
			args = true
			break
		}
		if v == "-o" || v == "+o" {
			i++ // set -o pipefail
		}
	}
	if !args {
		return // set -e, set -o pipefail: the parameters stay
	}
	vals := []string{p0}
	for _, f := range fs[i:] {
		if f.dyn || f.glob {
			w.pos = nil
			return
		}
		vals = append(vals, f.val)
	}
	if w.cond > 0 {
		w.pos = nil
		return
	}
	w.pos = vals
}

// sedCommands returns the command lines a sed script runs: the text of
// an e command (1e CMD), and the replacement of an s command with the e
// flag (s/.*/CMD/e runs the pattern space, which the replacement makes
// CMD when the whole line matches; judged as written). A script it
// cannot follow yields what it found so far.
func sedCommands(script string) []string {
	var out []string
	last := "" // the replacement of the last s command
	i, n := 0, len(script)
	// part reads up to an unescaped d, unescaping \d; ok is false when
	// it does not end
	part := func(d byte) (string, bool) {
		var b strings.Builder
		for i < n {
			c := script[i]
			switch {
			case c == '\\' && i+1 < n:
				if script[i+1] == d {
					b.WriteByte(d)
				} else if script[i+1] == 'n' {
					b.WriteByte('\n')
				} else {
					b.WriteByte(c)
					b.WriteByte(script[i+1])
				}
				i += 2
				continue
			case c == d:
				i++
				return b.String(), true
			}
			b.WriteByte(c)
			i++
		}
		return b.String(), false
	}
	for i < n {
		c := script[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '!' || c == '{' || c == '}' || c == ',' || c == '$' || c >= '0' && c <= '9' || c == '~' || c == '+':
			i++
		case c == '/' || c == '\\' && i+1 < n:
			// an address /re/ or \cREc
			d := byte('/')
			if c == '\\' {
				d = script[i+1]
				i++
			}
			i++
			if _, ok := part(d); !ok {
				return out
			}
			for i < n && (script[i] == 'I' || script[i] == 'M') {
				i++
			}
		case c == 'e':
			i++
			end := strings.IndexByte(script[i:], '\n')
			if end < 0 {
				end = n - i
			}
			if cmd := strings.TrimSpace(script[i : i+end]); cmd != "" {
				out = append(out, cmd)
			} else if last != "" {
				out = append(out, last) // s/.*/CMD/;e runs the pattern space s made
			}
			i += end
		case c == 's' || c == 'y':
			if i+1 >= n {
				return out
			}
			d := script[i+1]
			i += 2
			if _, ok := part(d); !ok {
				return out
			}
			repl, ok := part(d)
			if !ok {
				return out
			}
			if c == 's' {
				last = repl
			}
			flags := i
			for i < n && script[i] != ';' && script[i] != '\n' && script[i] != '}' && script[i] != 'w' {
				i++
			}
			if c == 's' && strings.IndexByte(script[flags:i], 'e') >= 0 {
				out = append(out, repl)
			}
			if i < n && script[i] == 'w' {
				i = skipLine(script, i)
			}
		case strings.IndexByte("aicrRwWbtT:#qQlL", c) >= 0:
			// commands whose argument runs to the end of the line
			i = skipLine(script, i)
		default:
			i++
		}
	}
	return out
}

// skipLine returns the index of the newline ending the line at i, or len(s).
func skipLine(s string, i int) int {
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(s)
}

// feedXargsField judges the command xargs c runs with a here-string
// word guard cannot fully see (xargs rm -rf <<< ${X:-/}) as its last
// argument, the way the same word written after rm is judged.
func (w *walker) feedXargsField(c int, f field, where string) {
	cm := &w.a.Commands[c]
	if cm.Name != "xargs" || len(cm.Inner) == 0 {
		return
	}
	fs := append([]field(nil), w.info[cm.Inner[0]].fields...)
	for k := range fs {
		if strings.Contains(fs[k].val, "{}") && !fs[k].dyn {
			fs[k] = f // xargs -I{} cmd {}
			w.innerCommand(c, fs, where)
			return
		}
	}
	w.innerCommand(c, append(fs, f), where)
}

// lessEnvCommands returns the command lines in a LESS value: a word
// starting with + is a command less runs at start (to the next $ or the
// end), and +!CMD or +|mCMD runs CMD in a shell.
func lessEnvCommands(v string) []string {
	var out []string
	for i := 0; i < len(v); i++ {
		if v[i] != '+' || i > 0 && v[i-1] != ' ' && v[i-1] != '\t' {
			continue
		}
		cmd := v[i:]
		if k := strings.IndexByte(cmd, '$'); k >= 0 {
			cmd = cmd[:k]
		}
		i += len(cmd)
		cmd = strings.TrimLeft(cmd, "+")
		switch {
		case strings.HasPrefix(cmd, "!"):
			out = append(out, cmd[1:])
		case strings.HasPrefix(cmd, "|") && len(cmd) > 2:
			out = append(out, cmd[2:])
		}
	}
	return out
}

func isMinusOne(s string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(s)) // bash skips blanks around a number
	return err == nil && n == -1
}

// nameTakers are builtins whose arguments name variables; bash evaluates a
// subscript in such a name as arithmetic, running any $( ) in it, even from
// inside single quotes: test -v 'a[$(id)]'.
func nameTakers(name string) bool {
	switch name {
	case "test", "[", "printf", "read", "mapfile", "readarray",
		"unset", "declare", "typeset", "local", "export", "readonly",
		"getopts", "wait", "let":
		return true
	}
	return false
}

// hiddenExec: a name-taking builtin given, where it expects a variable
// name, a word with a subscript holding code.
func (w *walker) hiddenExec(c int) bool {
	name := w.a.Commands[c].Name
	if !nameTakers(name) {
		return false
	}
	for _, f := range nameWords(name, w.info[c].fields) {
		if codeInSubscript(f.val) {
			return true
		}
	}
	return false
}

// nameWords returns the words a builtin takes as variable names: test -v
// NAME, printf -v NAME, read NAME…, unset NAME…, getopts OPTS NAME, let EXPR….
func nameWords(name string, fs []field) []field {
	var out []field
	switch name {
	case "test", "[", "printf", "wait":
		flag := "-v"
		if name == "wait" {
			flag = "-p"
		}
		for i := 1; i < len(fs); i++ {
			switch {
			case (fs[i].val == flag || name != "printf" && fs[i].val == "-R") && i+1 < len(fs):
				out = append(out, fs[i+1])
			case name == "printf" && strings.HasPrefix(fs[i].val, "-v") && len(fs[i].val) > 2:
				g := fs[i]
				g.val = g.val[2:]
				out = append(out, g)
			}
		}
	case "read", "mapfile", "readarray":
		for i := 1; i < len(fs); i++ {
			a := fs[i].val
			switch {
			case a == "-a" && i+1 < len(fs):
				out = append(out, fs[i+1])
				i++
			case len(a) == 2 && a[0] == '-' && strings.ContainsRune("dnNptuiOscCd", rune(a[1])):
				i++ // an option with a value
			case strings.HasPrefix(a, "-"):
			default:
				out = append(out, fs[i])
			}
		}
	case "getopts":
		if len(fs) > 2 {
			out = append(out, fs[2:]...)
		}
	default: // unset, declare, typeset, local, export, readonly, let
		for _, f := range fs[1:] {
			if !strings.HasPrefix(f.val, "-") {
				out = append(out, f)
			}
		}
	}
	return out
}

// codeInSubscript reports text with a [ … ] that holds $, a backquote or
// a nested subscript: bash would evaluate it.
func codeInSubscript(s string) bool {
	k := strings.IndexByte(s, '[')
	return k >= 0 && strings.ContainsAny(s[k:], "$`") || k >= 0 && strings.Contains(s[k+1:], "[")
}

// loopbackDNS reports a public name that resolves to this machine:
// localtest.me and lvh.me (and their subdomains), and the wildcard
// services that spell the address in the name (127.0.0.1.nip.io,
// 127-0-0-1.sslip.io, 7f000001.nip.io).
func loopbackDNS(h string) bool {
	for _, d := range []string{"localtest.me", "lvh.me", "vcap.me", "lacolhost.com"} {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	for _, d := range []string{".nip.io", ".sslip.io", ".xip.io", ".traefik.me"} {
		if name, ok := strings.CutSuffix(h, d); ok {
			k := strings.LastIndexAny(name, ".-")
			label := name[k+1:] // 127.0.0.1.nip.io, app.7f000001.nip.io
			if strings.Contains(name, "127.") || strings.Contains(name, "127-") || label == "7f000001" || strings.HasPrefix(name, "127") {
				return true
			}
		}
	}
	return false
}

// loopbackNumber reports an address of this machine in any numeric
// spelling ssh's resolver takes: inet_aton's (127.1, 2130706433,
// 0x7f000001, 0177.0.0.1, 0x7f.1), an IPv6 loopback or unspecified
// address (0:0:0:0:0:0:0:1, ::ffff:127.0.0.1, ::), with or without
// brackets or a zone.
func loopbackNumber(h string) bool {
	h = strings.Trim(h, "[]")
	h, _, _ = strings.Cut(h, "%")
	if strings.Contains(h, ":") {
		// (ipaddr.go's parser: net/netip would cost every guard start)
		a, ok := parseAddr(h)
		if !ok {
			return false
		}
		if a == (addr16{15: 1}) || a == (addr16{}) {
			return true // ::1, ::
		}
		if [12]byte(a[:12]) == v4Prefix {
			return a[12] == 127 || a == v4(0, 0, 0, 0)
		}
		return false
	}
	v, ok := inetAton(h)
	return ok && (v>>24 == 127 || v == 0)
}

// inetAton parses an IPv4 address as inet_aton does: one to four parts,
// each decimal, octal (leading 0) or hex (0x), the last filling the
// remaining bytes.
func inetAton(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return 0, false
	}
	var out uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32)
		if p == "" || err != nil {
			return 0, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return 0, false
			}
			out |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(4-i)) {
			return 0, false
		}
		out |= n
	}
	return uint32(out), true
}
