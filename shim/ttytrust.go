package shim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/guard-dev/guard/redact"
)

// TTYTrust is the verdict on one terminal: may guard ask a human there?
type TTYTrust struct {
	Human  bool
	Why    string // one line, lowercase: why not (or what holds it when Human)
	Holder int    // pid holding the master side, 0 if unknown
	// Console is the device of a console terminal (/dev/tty2) that
	// trusted_terminals does not list, and Program the program of a holder
	// that is not a terminal guard knows (tmux, say): what the human may
	// list there.
	Console, Program string
}

// Hint says where an answer can come from when guard will not ask on this
// terminal; config is the global config.toml. One line, no trailing period.
func (t TTYTrust) Hint(config string) string {
	return t.hint(config, "run guard watch in a terminal of your own, outside the agent and not inside tmux or screen: commands then wait there for your answer")
}

// TypedHint is Hint for a line the person typed in guard's interactive
// shell: in their words, not the agent's.
func (t TTYTrust) TypedHint(config string) string {
	return t.hint(config, "run guard watch in another terminal of yours, not inside tmux or screen: the lines you type here then wait there for your answer")
}

func (t TTYTrust) hint(config, h string) string {
	switch {
	case t.Console != "":
		return h + "; or list " + t.Console + " in trusted_terminals in " + config
	case t.Program != "":
		return h + "; or list " + redact.Visible(t.Program) + " in trusted_terminals in " + config + " (for a multiplexer that lets any of your processes answer)"
	}
	return h
}

// TrustTerminal judges the terminal open as tty, for this process.
//
// The rule is in doc.go ("Whose terminal is it"). It reads /proc, so it runs
// only when guard must ask, never on the way of an allowed command.
func TrustTerminal(tty *os.File, trusted []string) TTYTrust {
	major, minor, bad := terminalDevice(tty)
	if bad != nil {
		return *bad
	}
	return judgeTerminal(os.Getpid(), major, minor, trusted)
}

// terminalDevice returns the device number of the terminal open as tty
// (the controlling one, for /dev/tty), or the verdict when there is none
// guard can name.
func terminalDevice(tty *os.File) (major, minor uint32, bad *TTYTrust) {
	fail := func(why string) (uint32, uint32, *TTYTrust) {
		t := untrusted(0, why)
		return 0, 0, &t
	}
	if runtime.GOOS != "linux" {
		return fail("cannot tell who holds this terminal")
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(tty.Fd()), &st); err != nil {
		return fail("cannot read the terminal: " + err.Error())
	}
	if st.Mode&unix.S_IFMT != unix.S_IFCHR || !term.IsTerminal(int(tty.Fd())) {
		return fail("not a terminal")
	}
	major, minor = unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
	if major == 5 && minor == 0 {
		// /dev/tty is whichever terminal controls this process.
		self, err := readStat(os.Getpid())
		if err != nil {
			return fail("cannot read guard's own process: " + err.Error())
		}
		if self.ttyNr == 0 {
			return fail("guard has no controlling terminal")
		}
		major, minor = ttyNrDev(self.ttyNr)
	}
	return major, minor, nil
}

// TrustGrantingTerminal judges the terminal a verb that grants without a
// question (guard grants add, grants rm, trust, policy reset) was typed on. Nobody is
// asked there, so the holder of a pseudo-terminal is not judged (a human
// may type it in tmux); but a console (VT, serial line, kernel console)
// counts only when trusted_terminals lists it, as for a prompt, and no
// terminal counts that a process outside this verb's own chain of parents
// can push keys into (tiocsti): such a process may have typed the verb
// into the human's shell.
func TrustGrantingTerminal(tty *os.File, trusted []string) TTYTrust {
	major, minor, bad := terminalDevice(tty)
	if bad != nil {
		return *bad
	}
	chain, err := ancestors(os.Getpid())
	if err != nil {
		return untrusted(0, "cannot read the process tree: "+err.Error())
	}
	if _, isPty := ptyIndex(major, minor); !isPty {
		if major == 5 || major == 0 {
			return untrusted(0, "cannot tell which terminal this is")
		}
		return judgeConsole(chain, major, minor, trusted)
	}
	if why := injectionWhy(chain, 0, major, minor); why != "" {
		return untrusted(0, why)
	}
	return TTYTrust{Human: true, Why: "no process outside this one's parents can type into it"}
}

// TrustProcessTerminal judges process pid's controlling terminal (for checking a peer, e.g. the approval console).
func TrustProcessTerminal(pid int, trusted []string) TTYTrust {
	if runtime.GOOS != "linux" {
		return untrusted(0, "cannot tell who holds this terminal")
	}
	st, err := readStat(pid)
	if err != nil {
		return untrusted(0, fmt.Sprintf("cannot read process %d: %v", pid, err))
	}
	if st.ttyNr == 0 {
		return untrusted(0, fmt.Sprintf("process %d has no controlling terminal", pid))
	}
	major, minor := ttyNrDev(st.ttyNr)
	return judgeTerminal(pid, major, minor, trusted)
}

func untrusted(holder int, why string) TTYTrust {
	return TTYTrust{Holder: holder, Why: oneLine(why)}
}

// hostKind is what a terminal host is; the rule treats each differently.
type hostKind int

const (
	notHost  hostKind = iota
	emulator          // draws the terminal on the human's screen
	editor            // an editor's terminal (its pty host)
	relay             // carries a remote human's keys (sshd)
)

// hosts are the programs that hold terminals, by the name of their
// executable: those that may hold the human's terminal (with their kind;
// the executable must also be installed by root, see hostOf), and those
// that may not, with why (kind notHost). Interpreters (python, perl, node,
// ruby, java) and pty drivers (script, expect, socat, unbuffer, empty, ssh)
// are not listed and never are hosts: they run whatever an agent gives
// them. A slice, not a map: it costs nothing when guard does not ask.
var hosts = []struct {
	name string
	kind hostKind
	why  string
}{
	{"gnome-terminal-server", emulator, ""}, {"gnome-terminal", emulator, ""}, {"kgx", emulator, ""},
	{"ptyxis-agent", emulator, ""}, {"ptyxis", emulator, ""}, {"xterm", emulator, ""}, {"uxterm", emulator, ""},
	{"urxvt", emulator, ""}, {"urxvtd", emulator, ""}, {"rxvt", emulator, ""}, {"rxvt-unicode", emulator, ""},
	{"kitty", emulator, ""}, {"alacritty", emulator, ""}, {"foot", emulator, ""}, {"tilix", emulator, ""},
	{"xfce4-terminal", emulator, ""}, {"mate-terminal", emulator, ""}, {"lxterminal", emulator, ""},
	{"qterminal", emulator, ""}, {"terminology", emulator, ""}, {"sakura", emulator, ""}, {"st", emulator, ""},
	{"ghostty", emulator, ""}, {"contour", emulator, ""}, {"rio", emulator, ""}, {"tabby", emulator, ""},
	{"hyper", emulator, ""}, {"warp", emulator, ""}, {"warp-terminal", emulator, ""}, {"roxterm", emulator, ""},
	{"mlterm", emulator, ""}, {"zutty", emulator, ""}, {"cool-retro-term", emulator, ""},
	{"deepin-terminal", emulator, ""}, {"io.elementary.terminal", emulator, ""}, {"kmscon", emulator, ""},

	{"code", editor, ""}, {"code-insiders", editor, ""}, {"codium", editor, ""}, {"code-oss", editor, ""},
	{"cursor", editor, ""}, {"windsurf", editor, ""},

	{"sshd", relay, ""}, {"sshd-session", relay, ""}, {"dropbear", relay, ""},

	// They hold terminals, but any process of the same user can type
	// into them, so an answer typed there may come from the agent.
	{"tmux", notHost, "tmux lets any process of this user type into its panes (tmux send-keys)"},
	{"tmate", notHost, "tmate lets any process of this user type into its panes (send-keys)"},
	{"screen", notHost, "screen lets any process of this user type into its windows (screen -X stuff)"},
	{"zellij", notHost, "zellij lets any process of this user type into its panes (zellij action write-chars)"},
	{"abduco", notHost, "abduco lets any process of this user attach and type"},
	{"dtach", notHost, "dtach lets any process of this user attach and type"},
	{"wezterm-gui", notHost, "wezterm lets any process of this user type into its panes (wezterm cli send-text)"},
	{"wezterm", notHost, "wezterm lets any process of this user type into its panes (wezterm cli send-text)"},
	{"konsole", notHost, "konsole lets any process of this user type into it over d-bus (sendtext)"},
	{"yakuake", notHost, "yakuake lets any process of this user type into it over d-bus (sendtext)"},
	{"mosh-server", notHost, "any process of this user can start a mosh-server and type into it over udp"},
	{"guake", notHost, "guake is a python program: guard cannot tell it from a script"},
	{"terminator", notHost, "terminator is a python program: guard cannot tell it from a script"},
}

// shellPrograms are the programs between an agent and guard that are not the
// agent: what the agent ran guard through.
var shellPrograms = []string{
	"bash", "sh", "dash", "zsh", "ksh", "ksh93", "mksh", "pdksh", "oksh", "yash", "fish",
	"busybox", "ash", "tcsh", "csh", "rbash",
}

// judgeTerminal applies the rule to pid and the terminal major:minor.
func judgeTerminal(pid int, major, minor uint32, trusted []string) TTYTrust {
	idx, isPty := ptyIndex(major, minor)
	if !isPty && (major == 5 || major == 0) {
		return untrusted(0, "cannot tell which terminal this is")
	}
	chain, err := ancestors(pid)
	if err != nil {
		return untrusted(0, "cannot read the process tree: "+err.Error())
	}
	if !isPty {
		return judgeConsole(chain, major, minor, trusted)
	}
	holders, err := ptyHolders(idx)
	if err != nil {
		return untrusted(0, "cannot tell who holds this terminal: "+err.Error())
	}
	self, _ := os.Executable()
	guards := Binaries(self)
	// The agent: the nearest process, from pid up, that is not a shell
	// and not guard.
	agent := -1
	for i, p := range chain {
		exe, _, err := procExe(p.pid)
		if err == nil && (isOneOf(filepath.Base(exe), shellPrograms) || isOneOf(exe, guards)) {
			continue
		}
		agent = i
		break
	}
	if agent < 0 {
		return untrusted(0, "no program above guard but shells")
	}
	at := map[int]int{}
	for i, p := range chain {
		at[p.pid] = i
	}
	viaSSH := false
	if len(holders) == 0 {
		h, ok := sshSession(chain, agent, major, minor)
		if !ok {
			return untrusted(0, "cannot tell who holds this terminal")
		}
		holders, viaSSH = []int{h}, true
	}
	best := TTYTrust{}
	for _, h := range holders {
		t := judgeHolder(h, chain, at, agent, trusted, viaSSH)
		if !t.Human {
			return t
		}
		if best.Holder == 0 || at[h] < at[best.Holder] {
			best = t
		}
	}
	// The agent's tree shares the terminal: it may push keys into its
	// input (TIOCSTI) as if typed. With no agent below the holder (a human
	// typed the command in it), anyone outside guard's own chain may be it.
	agentPid := 0
	if at[best.Holder] > agent {
		agentPid = chain[agent].pid
	}
	if why := injectionWhy(chain, agentPid, major, minor); why != "" {
		return untrusted(best.Holder, why)
	}
	return best
}

// judgeConsole judges a terminal that is no pseudo-terminal: a virtual
// console, a serial line, the kernel's console. No program holds it that
// guard could name, and an agent that can open it (root can) may make it
// its own and run guard there, so it counts only when the human listed its
// device in trusted_terminals, and only while nothing of the agent's tree
// can push keys into it.
func judgeConsole(chain []procInfo, major, minor uint32, trusted []string) TTYTrust {
	dev, err := charDevName(major, minor)
	if err != nil {
		return untrusted(0, fmt.Sprintf("cannot tell which terminal %d:%d is: %v", major, minor, err))
	}
	if !consoleListed(dev, unix.Mkdev(major, minor), trusted) {
		return TTYTrust{Console: dev, Why: oneLine(fmt.Sprintf("%s is a console, not a pseudo-terminal: it counts as a human's only when listed in trusted_terminals", dev))}
	}
	agent := -1
	self, _ := os.Executable()
	guards := Binaries(self)
	for i, p := range chain {
		exe, _, err := procExe(p.pid)
		if err == nil && (isOneOf(filepath.Base(exe), shellPrograms) || isOneOf(exe, guards) || isOneOf(filepath.Base(exe), sessionPrograms)) {
			continue
		}
		if p.pid == 1 {
			break
		}
		agent = i
		break
	}
	agentPid := 0
	if agent >= 0 {
		agentPid = chain[agent].pid
	}
	if why := injectionWhy(chain, agentPid, major, minor); why != "" {
		return untrusted(0, why)
	}
	return TTYTrust{Human: true, Why: fmt.Sprintf("the console %s, listed in trusted_terminals", dev)}
}

// sessionPrograms start a person's session on a console: between them and
// pid 1 there is no agent.
var sessionPrograms = []string{"login", "agetty", "getty", "mingetty", "su", "sudo", "doas", "runuser", "systemd"}

// consoleListed reports whether trusted_terminals lists the console dev
// (e.g. /dev/tty2): by its path, by a glob (/dev/tty[0-9]*), or by another
// path to the same device (/dev/serial/by-id/…).
func consoleListed(dev string, rdev uint64, trusted []string) bool {
	for _, t := range trusted {
		if !strings.HasPrefix(t, "/dev/") {
			continue
		}
		if ok, _ := filepath.Match(t, dev); ok {
			return true
		}
		var st unix.Stat_t
		if !strings.ContainsAny(t, "*?[\\") && unix.Stat(t, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFCHR && st.Rdev == rdev {
			return true
		}
	}
	return false
}

// charDevName names a character device by its number, as the kernel does
// (/sys/dev/char/MAJ:MIN/uevent, DEVNAME).
func charDevName(major, minor uint32) (string, error) {
	b, err := readProcFile(fmt.Sprintf("/sys/dev/char/%d:%d/uevent", major, minor), procStatLimit)
	if err != nil {
		return "", err
	}
	return parseDevName(b)
}

// parseDevName reads DEVNAME from a uevent file as a /dev path.
func parseDevName(b []byte) (string, error) {
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "DEVNAME="); ok {
			if v == "" || strings.Contains(v, "..") || strings.HasPrefix(v, "/") {
				break
			}
			return "/dev/" + v, nil
		}
	}
	return "", errors.New("no device name")
}

// injectionWhy says why the agent's tree can push keys into the terminal
// major:minor, or "" when it cannot. A process can when the terminal is its
// controlling one and the kernel allows TIOCSTI (before Linux 6.2, or
// dev.tty.legacy_tiocsti=1), or when it has CAP_SYS_ADMIN (root, usually)
// and holds the terminal at all. The agent's tree is the agent and what
// descends from it (guard itself aside); with no agent (agentPid 0: a human
// typed guard's command line) it is every process outside guard's own
// chain of parents. A scan that cannot finish is an injector.
func injectionWhy(chain []procInfo, agentPid int, major, minor uint32) string {
	users, err := terminalUsers(major, minor)
	if err != nil {
		return "cannot tell who else holds this terminal: " + err.Error()
	}
	inChain := map[int]bool{}
	for _, p := range chain {
		inChain[p.pid] = true
	}
	for i := range users {
		u := &users[i]
		switch {
		case u.pid == chain[0].pid:
			continue // guard itself
		case agentPid == 0:
			u.inTree = !inChain[u.pid]
		default:
			u.inTree = u.pid == agentPid || descendsFrom(u.pid, agentPid)
		}
		if u.inTree {
			u.sysAdmin = procSysAdmin(u.pid)
			if st, err := readStat(u.pid); err == nil {
				u.name = procName(st)
			}
		}
	}
	return injectorWhy(users, agentPid, tiocstiAllowed(), isVT(major, minor) && vtPasteOpen())
}

// isVT reports a virtual console (/dev/tty1 to /dev/tty63).
func isVT(major, minor uint32) bool { return major == 4 && minor >= 1 && minor < 64 }

// vtPasteOpen reports whether any process that holds a virtual console
// may paste into its input: TIOCLINUX's copy and paste (set a selection of
// what it wrote on the screen, then paste it) needed no capability before
// Linux 6.7. A release guard cannot read counts as open.
func vtPasteOpen() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return true
	}
	major, minor, ok := kernelVersion(unix.ByteSliceToString(u.Release[:]))
	return !ok || major < 6 || major == 6 && minor < 7
}

// kernelVersion reads the major and minor numbers of a kernel release
// ("6.1.0-18-amd64").
func kernelVersion(release string) (major, minor int, ok bool) {
	a, rest, found := strings.Cut(release, ".")
	if !found {
		return 0, 0, false
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	ma, err1 := strconv.Atoi(a)
	mi, err2 := strconv.Atoi(rest[:end])
	return ma, mi, err1 == nil && err2 == nil
}

// termUser is a process that holds a terminal: as its controlling terminal
// (ctty), through a descriptor (fd), or both.
type termUser struct {
	pid      int
	ctty, fd bool
	inTree   bool // the agent's tree (see injectionWhy)
	sysAdmin bool // has CAP_SYS_ADMIN, or guard could not tell
	name     string
}

// injectorWhy is injectionWhy's decision on what the scan found; legacy
// says whether the kernel allows TIOCSTI on a controlling terminal, paste
// whether any holder of the terminal may paste into it (a virtual console
// before Linux 6.7).
func injectorWhy(users []termUser, agentPid int, legacy, paste bool) string {
	var found *termUser
	for i := range users {
		u := &users[i]
		if !u.inTree || !((u.ctty && legacy) || u.sysAdmin || paste) {
			continue
		}
		if found == nil || u.pid == agentPid {
			found = u
		}
	}
	if found == nil {
		return ""
	}
	who := fmt.Sprintf("a process of the agent's tree (%s pid %d)", found.name, found.pid)
	switch {
	case found.pid == agentPid:
		who = fmt.Sprintf("the agent (%s pid %d)", found.name, found.pid)
	case agentPid == 0:
		who = fmt.Sprintf("another process (%s pid %d)", found.name, found.pid)
	}
	switch {
	case found.ctty && legacy:
		return who + " shares this terminal and the kernel lets it type into it (tiocsti); sysctl dev.tty.legacy_tiocsti=0 closes that"
	case !found.sysAdmin && paste:
		return who + " holds this virtual console, and before linux 6.7 any holder may paste into it (tioclinux)"
	}
	return who + " holds this terminal with cap_sys_admin (as root), which lets it type into it (tiocsti)"
}

// judgeHolder judges one process holding the master side. viaSSH: h is an
// sshd process guard cannot read, found by sshSession.
func judgeHolder(h int, chain []procInfo, at map[int]int, agent int, trusted []string, viaSSH bool) TTYTrust {
	hs, err := readStat(h)
	if err != nil {
		return untrusted(h, fmt.Sprintf("cannot read the process %d holding this terminal", h))
	}
	name := procName(hs)
	pos, above := at[h]
	if !above || pos < agent {
		if descendsFrom(h, chain[agent].pid) || (above && pos < agent) {
			return untrusted(h, fmt.Sprintf("terminal held by the agent's process tree: %s pid %d", name, h))
		}
		return untrusted(h, fmt.Sprintf("terminal held by %s pid %d, which is not above guard", name, h))
	}
	kind, why := relay, ""
	if !viaSSH {
		kind, why = hostOf(h, trusted)
	}
	if kind == notHost {
		if pos == agent && !listedNotHost(why) {
			return untrusted(h, fmt.Sprintf("terminal held by the agent's process tree: %s pid %d", name, h))
		}
		t := untrusted(h, fmt.Sprintf("terminal held by %s pid %d: %s", name, h, why))
		t.Program, _, _ = procExe(h)
		return t
	}
	if pos == agent && kind != emulator {
		// Nothing between the host and guard but shells: whoever drives
		// the host's other end ran the command.
		switch kind {
		case editor:
			return untrusted(h, fmt.Sprintf("terminal of %s pid %d with no agent program between it and guard: an editor extension may be typing into it", name, h))
		default:
			return untrusted(h, fmt.Sprintf("terminal of %s pid %d with no agent program between it and guard: the client may be the agent", name, h))
		}
	}
	if v, ok, err := procEnv(h, "GUARD_ACTIVE"); !viaSSH && (err != nil || (ok && v != "")) {
		return untrusted(h, fmt.Sprintf("terminal held by %s pid %d, which a command run by guard started", name, h))
	}
	switch kind {
	case editor:
		if _, ok, err := procEnv(h, "ELECTRON_RUN_AS_NODE"); err != nil || ok {
			return untrusted(h, fmt.Sprintf("terminal held by %s pid %d running as a plain node script (electron_run_as_node)", name, h))
		}
	case relay:
		// the client is named to the first process below the sshd ones
		below := pos - 1
		for below > 0 && isSSHD(chain[below]) {
			below--
		}
		if why := sshFromHere(chain[below].pid); why != "" {
			return untrusted(h, fmt.Sprintf("terminal of %s pid %d: %s", name, h, why))
		}
	}
	return TTYTrust{Human: true, Holder: h, Why: fmt.Sprintf("held by %s pid %d", name, h)}
}

// hostOf says whether pid runs a terminal host: a program in
// terminalHosts installed by root (the file and its directory owned by
// root, writable by no one else, so an agent cannot name its own program
// xterm), or one of the user's trusted paths (owned by root or the user,
// writable by no one else).
func hostOf(pid int, trusted []string) (hostKind, string) {
	exe, _, err := procExe(pid)
	if err != nil {
		return notHost, "cannot read its program"
	}
	running := "/proc/" + strconv.Itoa(pid) + "/exe" // the file it runs, even if replaced since
	for _, t := range trusted {
		if exe != t {
			if real, err := filepath.EvalSymlinks(t); err != nil || real != exe {
				continue
			}
		}
		if why := safeFile(running, filepath.Dir(exe), true); why != "" {
			return notHost, why
		}
		return emulator, ""
	}
	name := filepath.Base(exe)
	for _, h := range hosts {
		if h.name != name {
			continue
		}
		if h.kind == notHost {
			return notHost, h.why
		}
		if os.Geteuid() == 0 {
			// As root, "installed by root" proves nothing: the agent runs
			// as root too and can copy any program under a terminal's name
			// (the red-team pass drove guard from python named xterm).
			// Only the terminals the human lists in trusted_terminals count.
			return notHost, "guard runs as root, so a program named like a terminal may be the agent's; list the real one in trusted_terminals"
		}
		if why := safeFile(running, filepath.Dir(exe), false); why != "" {
			return notHost, why
		}
		return h.kind, ""
	}
	return notHost, "not a known terminal program"
}

// listedNotHost says whether why is the reason hosts gives for a program
// that holds terminals but is no human's (tmux, screen, …). Such a program
// directly above guard's shells is not the agent: the message names it and
// its reason, which is what the human needs to read (and what
// trusted_terminals answers), rather than "the agent's process tree".
func listedNotHost(why string) bool {
	for _, h := range hosts {
		if h.kind == notHost && h.why == why {
			return true
		}
	}
	return false
}

// sshdNames are the names an sshd session process runs under.
var sshdNames = []string{"sshd", "sshd-session", "dropbear"}

func isSSHD(p procInfo) bool {
	if exe, _, err := procExe(p.pid); err == nil {
		return isOneOf(filepath.Base(exe), sshdNames)
	}
	return isOneOf(p.comm, sshdNames)
}

// sshSession finds the holder when guard could read none: an sshd session
// process that changed to the user is undumpable, so a user who is not
// root cannot list its descriptors. The terminal is the one sshd made when
// guard's session leader (whose controlling terminal it is) was started by
// an sshd process that guard cannot read, whose parent is root's sshd: no
// agent can place a process under root's sshd. The leader must be above
// the agent (no agent between sshd and guard is refused later, as for any
// relay).
func sshSession(chain []procInfo, agent int, major, minor uint32) (int, bool) {
	lead := -1
	for i, p := range chain {
		if p.pid == chain[0].session {
			lead = i
			break
		}
	}
	if lead < agent || lead+2 >= len(chain) {
		return 0, false
	}
	if maj, min := ttyNrDev(chain[lead].ttyNr); maj != major || min != minor {
		return 0, false
	}
	sshd, parent := chain[lead+1], chain[lead+2]
	if !isOneOf(sshd.comm, sshdNames) || fdsReadable(sshd.pid) || !isOneOf(parent.comm, sshdNames) {
		return 0, false
	}
	if uid, err := procUID(parent.pid); err != nil || uid != 0 {
		return 0, false
	}
	return sshd.pid, true
}

// safeFile checks that a program and its directory are root's (or, for a
// path the user trusted, root's or the user's) and writable by no one else.
func safeFile(file, dir string, userOK bool) string {
	for _, p := range []string{file, dir} {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			return "cannot check its program"
		}
		owner := st.Uid == 0 || (userOK && int(st.Uid) == os.Geteuid())
		if !owner {
			return "its program is not installed by root"
		}
		if st.Mode&0o022 != 0 {
			return "its program can be replaced by others"
		}
	}
	return ""
}

// sshFromHere checks the ssh session a relay started: SSH_CONNECTION in the
// environment of the process it started (which no child can change) names
// the client. A client on this machine may be the agent. "" means remote.
func sshFromHere(pid int) string {
	v, ok, err := procEnv(pid, "SSH_CONNECTION")
	if err != nil || !ok {
		return "cannot tell where the ssh client is"
	}
	f := strings.Fields(v)
	if len(f) != 4 {
		return "cannot tell where the ssh client is"
	}
	client, ok1 := parseIP(f[0])
	server, ok2 := parseIP(f[2])
	if !ok1 || !ok2 {
		return "cannot tell where the ssh client is"
	}
	if client.loopback() || client == server {
		return "the ssh client runs on this machine, and may be the agent"
	}
	return ""
}

// tiocstiAllowed reports whether the kernel lets a process push input into
// its controlling terminal. Kernels before 6.2 have no switch: they do.
func tiocstiAllowed() bool {
	b, err := readProcFile("/proc/sys/dev/tty/legacy_tiocsti", 64)
	return err != nil || strings.TrimSpace(string(b)) != "0"
}

// descendsFrom reports whether pid has anc among its ancestors.
func descendsFrom(pid, anc int) bool {
	chain, _ := ancestors(pid)
	for _, p := range chain[min(1, len(chain)):] {
		if p.pid == anc {
			return true
		}
	}
	return false
}

// procName names a process for a message: its program's file name, else
// its comm.
func procName(p procInfo) string {
	if exe, _, err := procExe(p.pid); err == nil {
		return redact.Visible(filepath.Base(exe))
	}
	return redact.Visible(p.comm)
}

func isOneOf(path string, list []string) bool {
	for _, p := range list {
		if p == path {
			return true
		}
	}
	return false
}

// ip is an address as 16 bytes, IPv4 in its IPv4-mapped IPv6 form, so that
// ::ffff:10.0.0.1 and 10.0.0.1 are one address. (net/netip would do; its
// package init costs every guard run about 0.03 ms, for this one check.)
type ip [16]byte

var v4InV6 = [12]byte{10: 0xff, 11: 0xff}

func (a ip) loopback() bool {
	if [12]byte(a[:12]) == v4InV6 {
		return a[12] == 127
	}
	return a == ip{15: 1}
}

// parseIP reads a dotted IPv4 address or an IPv6 address (with ::, an
// embedded IPv4 tail, and a %zone, which is dropped) as sshd prints them.
func parseIP(s string) (ip, bool) {
	if i := strings.IndexByte(s, '%'); i >= 0 {
		if i == len(s)-1 || !strings.Contains(s[:i], ":") {
			return ip{}, false // a zone is named, and only an IPv6 address has one
		}
		s = s[:i]
	}
	if !strings.Contains(s, ":") {
		var a ip
		copy(a[:], v4InV6[:])
		return a, parseIPv4(s, a[12:])
	}
	var groups []uint16
	gap := -1 // index in groups where "::" stands
	var tail [4]byte
	hasTail := false
	rest := s
	if strings.HasPrefix(rest, "::") {
		gap, rest = 0, rest[2:]
	}
	for rest != "" {
		part, after, more := strings.Cut(rest, ":")
		if strings.Contains(part, ".") && !more {
			if !parseIPv4(part, tail[:]) {
				return ip{}, false
			}
			hasTail = true
			break
		}
		if part == "" || len(part) > 4 {
			return ip{}, false
		}
		var g uint16
		for i := 0; i < len(part); i++ {
			d := hexDigit(part[i])
			if d < 0 {
				return ip{}, false
			}
			g = g<<4 | uint16(d)
		}
		groups = append(groups, g)
		rest = after
		if more && strings.HasPrefix(rest, ":") {
			if gap >= 0 {
				return ip{}, false // two "::"
			}
			gap, rest = len(groups), rest[1:]
		} else if more && rest == "" {
			return ip{}, false // a trailing single ':'
		}
	}
	want := 8
	if hasTail {
		want = 6
	}
	if len(groups) > want || (gap < 0 && len(groups) != want) || (gap >= 0 && len(groups) == want) {
		return ip{}, false
	}
	full := make([]uint16, 0, want)
	full = append(full, groups[:max(gap, 0)]...)
	if gap >= 0 {
		full = append(full, make([]uint16, want-len(groups))...)
		full = append(full, groups[gap:]...)
	} else {
		full = groups
	}
	var a ip
	for i, g := range full {
		a[2*i], a[2*i+1] = byte(g>>8), byte(g)
	}
	if hasTail {
		copy(a[12:], tail[:])
	}
	return a, true
}

// parseIPv4 reads four dotted decimal octets into out.
func parseIPv4(s string, out []byte) bool {
	for i := range 4 {
		part, rest, more := strings.Cut(s, ".")
		if more != (i < 3) || part == "" || len(part) > 3 || (len(part) > 1 && part[0] == '0') {
			return false
		}
		n := 0
		for j := 0; j < len(part); j++ {
			if part[j] < '0' || part[j] > '9' {
				return false
			}
			n = n*10 + int(part[j]-'0')
		}
		if n > 255 {
			return false
		}
		out[i] = byte(n)
		s = rest
	}
	return true
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
