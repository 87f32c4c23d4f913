package shim

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/guard-dev/guard/grants"
)

// auditEntry is one decision, as shim hands it to the audit trail.
type auditEntry struct {
	Time       time.Time
	Agent      string
	Session    string // the agent's session id, when a hook was told it
	Cwd        string
	Command    string // redacted
	HMAC       string // keyed hash of the text as judged (unredacted)
	Decision   string
	Rule       string
	Answer     string
	Via        string
	Mode       string
	Exit       int
	DurationMS int64
	Risk       string // none | low | high
	Policy     string // the rollout mode: enforce | dry_run | off
	Confined   string // the kernel boundary it ran in (ccs.Record.Confined)
	Project    string // the project root ("" before the settings were loaded)
	OverheadUS int64  // guard's own time, in microseconds (see app.overhead)
}

// pendingRequest is an ask that nobody could answer.
type pendingRequest struct {
	Time    time.Time
	Cwd     string
	Root    string
	Command string
	HMAC    string
	Suggest string
}

// journal is the audit trail and the pending approvals.
type journal interface {
	Append(e auditEntry) error
	// AddPending stores the request and returns its id for guard approve.
	AddPending(p pendingRequest) (string, error)
	// TakeOnce consumes an approve --once for exactly this text in this cwd.
	TakeOnce(sum, cwd string, now time.Time) (bool, error)
	// Rejected reports when a human rejected this text in this project
	// root, if that was within window before now, and what they said.
	Rejected(sum, root string, now time.Time, window time.Duration) (at time.Time, message string, found bool, err error)
	// Sum is the keyed hash of a text.
	Sum(text string) (string, error)
	Close() error
}

// journal opens the store once per run. A store that cannot be opened is
// warned about once and the run goes on without it.
func (a *app) journal() journal {
	if !a.jOpen {
		a.jOpen = true
		a.j, a.jErr = a.eng.journal()
		if a.jErr != nil {
			a.j = nil
			a.warn(a.jErr)
		}
	}
	return a.j
}

// close releases the journal at the end of the run.
func (a *app) close() {
	if a.j != nil {
		_ = a.j.Close()
	}
}

// warn prints the audit warning, once per run.
func (a *app) warn(err error) {
	if a.warned || a.insideBoundary() {
		return
	}
	a.warned = true
	fmt.Fprintf(a.env.Stderr, "guard: warning: audit not written: %s\n", oneLine(a.eng.redact(err.Error())))
}

// record writes the audit record of one decision.
func (a *app) record(j job, v grants.Verdict, decision string, how answered, exit int, start time.Time) {
	jr := a.journal()
	if jr == nil {
		return
	}
	sum, sumErr := a.textSum(j.text)
	now := a.env.now()
	err := jr.Append(auditEntry{
		Time: start, Agent: a.agent(), Session: j.session, Cwd: j.cwd, Command: a.eng.redact(j.text), HMAC: sum,
		Decision: decision, Rule: v.Rule, Answer: how.answer, Via: how.via, Mode: j.mode, Exit: exit,
		DurationMS: now.Sub(start).Milliseconds(), Risk: string(v.Risk), Policy: string(v.Mode),
		Confined: a.confined, Project: a.root, OverheadUS: a.overhead(start, now).Microseconds(),
	})
	if err != nil {
		if a.auditRequired && !a.warned {
			// the probe passed, yet the record did not land (the disk
			// filled while the command ran): said as loudly as a refusal
			a.warned = true
			a.errorf("audit_required is set and the audit record of this command was not written (it ran, exit %d): %s",
				exit, oneLine(a.eng.redact(err.Error())))
		}
		a.warn(err)
		a.noteLost()
	} else if sumErr != nil {
		a.warn(sumErr) // written, without the hash
	}
	if err == nil && a.telemetry && a.eng.flushTelemetry != nil {
		a.eng.flushTelemetry(now) // a stat, unless a flush is due (telemetry.go)
	}
}

// overhead is guard's own share of a run that started at start and is
// recorded at now: the whole of it less the time the command ran (from
// the fork to the wait that reaped it). The first run of the process
// counts from guard's start (Env.Started), so the settings, the parse and
// the decision are in it; the runtime's start before main is not.
func (a *app) overhead(start, now time.Time) time.Duration {
	if !a.env.Started.IsZero() && !a.startCounted {
		a.startCounted = true
		if a.env.Started.Before(start) {
			start = a.env.Started
		}
	}
	d := now.Sub(start) - a.ran
	a.ran = 0
	return max(d, 0)
}

// lossNoter is a journal that can count the records it lost (ccs can; the
// tests' journal need not).
type lossNoter interface {
	NoteLost(at time.Time) error
}

// noteLost counts one audit record that could not be written, so that
// guard audit can say so later. Best effort: with the whole state directory
// unusable there is nowhere to count it, and the warning is all there is.
func (a *app) noteLost() {
	if n, ok := a.j.(lossNoter); ok {
		_ = n.NoteLost(a.env.now())
	}
}

// prober is a journal that can tell, before a command runs, whether its
// record could be written.
type prober interface {
	Probe() error
}

// probeAudit checks that the audit record could be written (audit_required).
func (a *app) probeAudit() error {
	jr := a.journal()
	if jr == nil {
		if a.jErr != nil {
			return a.jErr
		}
		return errors.New("no audit journal")
	}
	if p, ok := jr.(prober); ok {
		return p.Probe()
	}
	return nil
}

// agent names who asked: GUARD_AGENT, else the parent process's name. It
// is looked up once per run; a run that ran a command did so while the
// command started.
func (a *app) agent() string {
	a.agentOnce.Do(func() { a.agentName = a.lookupAgent() })
	return a.agentName
}

func (a *app) lookupAgent() string {
	if v := a.env.getenv("GUARD_AGENT"); v != "" {
		return v
	}
	// A bare descriptor: os.ReadFile would set up the runtime's poller
	// first, for a file that is read once and never polled.
	fd, err := syscall.Open("/proc/"+strconv.Itoa(os.Getppid())+"/comm", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return ""
	}
	defer syscall.Close(fd)
	var b [64]byte // comm is at most 16 bytes
	n, err := syscall.Read(fd, b[:])
	if err != nil || n <= 0 {
		return ""
	}
	return strings.TrimSpace(string(b[:n]))
}
