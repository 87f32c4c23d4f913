package shim

// Tickets: no double prompting when an agent's hook already asked.
//
// Claude Code runs guard hook claude before a command and guard (the bash
// link) as the shell that runs it. When the hook answers ask, Claude asks
// the human in its own UI; if the human allows, the same command reaches
// guard as the shell, where guard would ask again. So the hook leaves a
// ticket, and the shell takes it instead of asking. The argument is in
// docs/agents.md; in short, a ticket is
//   - named by the keyed hash of the exact text and directory (a different
//     command, or the same one elsewhere, finds none; the key is guard's
//     per-install HMAC key, which the agent's commands may not read);
//   - bound to the agent process (pid and start time of the nearest
//     ancestor that is neither a shell nor guard) and to GUARD_DEPTH, so
//     another process, another Claude, or a guard nested inside the command
//     does not match;
//   - single use (taken by an atomic rename) and short-lived (ticketTTL);
//   - left only when Claude will really ask a human (its permission mode
//     is one that prompts), and taken only for an ask verdict, never a deny.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/guard-dev/guard/grants"
)

const (
	// ticketTTL is how long a ticket waits for its command: the human
	// answers Claude's prompt first.
	ticketTTL = 10 * time.Minute
	// maxTicketScan bounds the files one look at the directory reads.
	maxTicketScan = 256
	// maxTicketFile bounds one ticket's size.
	maxTicketFile = 1024
	ticketDirName = "tickets"
	// viaAgentUI: the answer came from the agent's own prompt (a ticket).
	viaAgentUI = "agent"
)

// askingModes are Claude Code's permission modes in which an ask reaches a
// human. In the others (bypassPermissions, dontAsk, auto, …) nobody is
// asked, so no ticket is left and guard as the shell decides on its own.
var askingModes = []string{"default", "acceptEdits", "plan"}

// ticket is the file's content.
type ticket struct {
	AgentPID   int    `json:"agent_pid"`
	AgentStart uint64 `json:"agent_start"` // clock ticks after boot (/proc/PID/stat field 22)
	Depth      string `json:"depth"`       // GUARD_DEPTH as the agent's children see it
	Expires    int64  `json:"expires"`     // unix nanoseconds
}

// agentProc identifies a process across pid reuse.
type agentProc struct {
	pid   int
	start uint64
}

// leaveTicket records that the agent is asking its human about j. Best
// effort: without a ticket the shell asks again, which is safe.
func (a *app) leaveTicket(j job, mode string) {
	if !isOneOf(mode, askingModes) || a.env.getenv("GUARD_ACTIVE") != "" {
		return // nobody will be asked, or a guarded command runs this hook
	}
	who, err := agentOf(a.env.Self)
	if err != nil {
		err = fmt.Errorf("cannot tell which process is the agent: %w", err)
	} else {
		err = a.writeTicket(j, who)
	}
	if err != nil {
		fmt.Fprintf(a.env.Stderr, "guard: warning: guard will ask again when the command runs: %s\n", oneLine(a.eng.redact(err.Error())))
	}
}

// writeTicket leaves a ticket for j, for the agent process who.
func (a *app) writeTicket(j job, who agentProc) error {
	key, err := a.ticketKey(j)
	if err != nil {
		return err
	}
	dir, err := a.ticketDir(true)
	if err != nil {
		return err
	}
	b, err := json.Marshal(ticket{AgentPID: who.pid, AgentStart: who.start, Depth: a.env.getenv("GUARD_DEPTH"),
		Expires: a.env.now().Add(ticketTTL).UnixNano()})
	if err != nil {
		return err
	}
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return err
	}
	name := filepath.Join(dir, key+"."+hex.EncodeToString(r[:]))
	tmp := name + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("write ticket: %w", err)
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, name)
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write ticket: %w", werr)
	}
	a.pruneTickets(dir)
	return nil
}

// askOrTicket resolves an ask: a ticket the agent's hook left for exactly
// this command, in this directory, from this agent, else asking as always.
func (a *app) askOrTicket(j job, v grants.Verdict, lim limits) answered {
	self := func() (agentProc, error) { return agentOf(a.env.Self) }
	if j.envelope != "" && v.Decision == grants.Ask && a.takeTicket(j, self) {
		return answered{answerOnce, viaAgentUI}
	}
	return a.ask(j, v, lim)
}

// takeTicket consumes a valid ticket for j, if there is one, left for the
// agent process whoAmI returns (looked up only when a ticket is found).
func (a *app) takeTicket(j job, whoAmI func() (agentProc, error)) bool {
	dir, err := a.ticketDir(false)
	if err != nil {
		return false
	}
	key, err := a.ticketKey(j)
	if err != nil {
		return false
	}
	names, err := ticketNames(dir)
	if err != nil {
		return false
	}
	var who *agentProc
	now := a.env.now()
	for _, n := range names {
		if !strings.HasPrefix(n, key+".") || strings.Count(n, ".") != 1 {
			continue
		}
		p := filepath.Join(dir, n)
		t, err := readTicket(p)
		if err != nil {
			continue
		}
		if now.UnixNano() >= t.Expires || t.Expires-now.UnixNano() > int64(ticketTTL) {
			_ = os.Remove(p)
			continue
		}
		if who == nil {
			w, err := whoAmI()
			if err != nil {
				return false
			}
			who = &w
		}
		if t.AgentPID != who.pid || t.AgentStart != who.start || t.Depth != a.env.getenv("GUARD_DEPTH") {
			continue // another agent's, or a nested guard: not this one's to take
		}
		// single use: of two takers, one rename succeeds
		taken := p + ".taken" + strconv.Itoa(os.Getpid())
		if os.Rename(p, taken) != nil {
			continue
		}
		_ = os.Remove(taken)
		return true
	}
	return false
}

// ticketKey names j's tickets: the keyed hash of its directory and text.
func (a *app) ticketKey(j job) (string, error) {
	jr := a.journal()
	if jr == nil {
		return "", errors.New("no audit store, so no key to name a ticket with")
	}
	cwd := j.cwd
	if p, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = p // Claude tracks its directory with pwd -P
	}
	return jr.Sum("guard-ticket\x00" + cwd + "\x00" + j.text)
}

// ticketDir is StateDir/tickets, private to the user; create makes it.
func (a *app) ticketDir(create bool) (string, error) {
	dir := filepath.Join(grants.PathsFromEnv(a.env.getenv).StateDir, ticketDirName)
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", fmt.Errorf("ticket directory: %w", err)
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o022 != 0 {
		return "", fmt.Errorf("%s is not a private directory of this user", dir)
	}
	return dir, nil
}

// ticketNames lists the directory, bounded.
func ticketNames(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(maxTicketScan)
}

// readTicket reads one ticket file: a small regular file, never a link.
func readTicket(p string) (ticket, error) {
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ticket{}, err
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxTicketFile {
		return ticket{}, errors.New("not a ticket")
	}
	b := make([]byte, maxTicketFile+1)
	n, err := f.Read(b)
	if err != nil || n > maxTicketFile {
		return ticket{}, errors.New("not a ticket")
	}
	var t ticket
	if err := json.Unmarshal(b[:n], &t); err != nil {
		return ticket{}, err
	}
	return t, nil
}

// pruneTickets removes expired tickets and leftovers (best effort).
func (a *app) pruneTickets(dir string) {
	names, err := ticketNames(dir)
	if err != nil {
		return
	}
	now := a.env.now()
	for _, n := range names {
		p := filepath.Join(dir, n)
		if strings.Count(n, ".") != 1 {
			if fi, err := os.Lstat(p); err == nil && now.Sub(fi.ModTime()) > ticketTTL {
				_ = os.Remove(p) // a .tmp or .taken left by a killed guard
			}
			continue
		}
		if t, err := readTicket(p); err != nil || now.UnixNano() >= t.Expires {
			_ = os.Remove(p)
		}
	}
}

// agentOf returns the agent above this process: the nearest ancestor that
// is neither a shell nor guard (self and its sibling programs).
func agentOf(self string) (agentProc, error) {
	guards := Binaries(self)
	pid := os.Getppid()
	for range maxAncestors {
		b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/stat", procStatLimit)
		if err != nil {
			return agentProc{}, err
		}
		st, err := parseStat(b)
		if err != nil {
			return agentProc{}, err
		}
		start, err := statStartTime(b)
		if err != nil {
			return agentProc{}, err
		}
		exe, _, err := procExe(pid)
		if err != nil {
			return agentProc{}, err
		}
		if !isOneOf(filepath.Base(exe), shellPrograms) && !isOneOf(exe, guards) {
			return agentProc{pid: pid, start: start}, nil
		}
		if st.ppid <= 1 {
			break
		}
		pid = st.ppid
	}
	return agentProc{}, errors.New("no program above guard but shells")
}

// statStartTime reads field 22 (starttime) of a /proc/PID/stat line.
func statStartTime(b []byte) (uint64, error) {
	end := strings.LastIndexByte(string(b), ')')
	if end < 0 {
		return 0, errors.New("malformed stat line")
	}
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 20 {
		return 0, errors.New("malformed stat line: too few fields")
	}
	return strconv.ParseUint(f[19], 10, 64)
}
