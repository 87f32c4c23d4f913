package shim

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/redact"
)

// Capturing a run: the command's stdout and stderr are pipes whose other
// ends guard reads in the goroutine that waits for it. Every read is
// written on to the agent's own descriptor at once (or, with redact_live,
// up to its last full line), then kept in memory for the store. The same
// poll(2) waits for the command's exit on a pidfd, so capturing costs no
// thread.

// captureBuf is the size of one read from a pipe (a Linux pipe holds 64 KiB).
const captureBuf = 64 << 10

// A stream that has passed bigPipeAt bytes gets a pipe of bigPipe bytes
// (when the system allows it), and is then moved bigPipe bytes at a time:
// with 64 KiB pipes, a command that prints at full speed costs a wake-up
// of three processes every 64 KiB. When the agent reads from a pipe too,
// that pipe is asked to grow as well: guard can move no more per wake-up
// than it holds. Pipes grow only then, because their size counts against
// the user's pipe quota while they live (past the quota the kernel says
// no, and they stay as they are).
const (
	bigPipeAt = 1 << 20
	bigPipe   = 1 << 20
)

// liveHold is the most redact_live keeps back: a line longer than this
// is redacted and passed on in pieces.
const liveHold = 64 << 10

// After the command exits, the pipes are read until every writer has
// closed them. A process the command left running in the background may
// hold them open: guard stops waiting drainIdle after the last byte, and
// at drainMax in all; the output is then incomplete and is not served.
const (
	drainIdle = 100 * time.Millisecond
	drainMax  = time.Second
)

// capture is one run's capture: the pipes, where their bytes go, and what
// is kept.
type capture struct {
	keep      *ccs.Capture // nil: nothing is stored (only redact_live)
	dst       [3]*os.File  // the agent's stdout and stderr
	read      [3]*os.File  // guard's ends of the pipes
	write     [3]*os.File  // the command's ends
	live      [3]*liveRedactor
	red       *redact.Redactor
	exited    bool         // the command exited (the pidfd said so)
	cut       bool         // the pipes were still open when guard stopped reading
	noSplice  [3]bool      // splice(2) cannot write to the agent's descriptor
	back      [3]*readBack // streams that go straight to the agent's file, read back after
	grown     [3]bool      // the pipe was asked to grow to bigPipe
	passed    [3]int64     // bytes moved through stream s's pipe so far
	forwarded int64
	err       error // the last write to the agent that failed
}

// newCapture makes the pipes for a run whose output goes to stdout and
// stderr. keep says whether the output is stored; red, when set, redacts
// what the agent sees.
//
// When stdout and stderr are the same file (the agent merged them, 2>&1)
// the command gets one pipe for both, so that their interleaving reaches
// the agent exactly as the command wrote it; everything is then kept as
// stdout (the key says the streams were merged: sameFile).
//
// A stream whose destination is a regular file the agent opened is not
// piped at all: the command writes to that file as it would without
// guard, and what it appended is read back from the file when it is done
// (readBack). Nothing then stands between the command and the agent's
// file: no copy, no wake-up, and cat's copy_file_range stays a copy in
// the kernel.
func newCapture(stdout, stderr *os.File, keep bool, red *redact.Redactor) (*capture, error) {
	c := &capture{dst: [3]*os.File{nil, stdout, stderr}}
	if keep {
		c.keep = &ccs.Capture{}
	}
	for s := ccs.Stdout; s <= ccs.Stderr; s++ {
		if s == ccs.Stderr && sameFile(stdout, stderr) {
			c.write[s] = c.write[ccs.Stdout] // read[Stderr] and back[Stderr] stay nil: stdout's has both
			break
		}
		if keep && red == nil {
			if b := openReadBack(c.dst[s]); b != nil {
				c.back[s] = b
				c.write[s] = c.dst[s] // the agent's own file: never closed here
				continue
			}
		}
		// Bare blocking descriptors: os.Pipe would register both ends with
		// the runtime's poller (an epoll set and six more system calls on
		// every command) for files only poll(2) and read(2) touch.
		var p [2]int
		if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
			c.closeAll()
			return nil, fmt.Errorf("capture output: %w", err)
		}
		c.read[s], c.write[s] = os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1")
		if red != nil {
			c.live[s] = &liveRedactor{red: red}
		}
	}
	return c, nil
}

// closeAll closes every pipe end still open.
func (c *capture) closeAll() {
	for s := range c.read {
		for _, f := range []*os.File{c.read[s], c.write[s]} {
			if f != nil && !c.agents(f) {
				f.Close() // a second Close of a shared end is harmless
			}
		}
		c.read[s], c.write[s] = nil, nil
		c.back[s] = nil
	}
}

// agents reports whether f is one of the agent's own files.
func (c *capture) agents(f *os.File) bool {
	return f == c.dst[ccs.Stdout] || f == c.dst[ccs.Stderr]
}

// started closes the command's ends of the pipes in guard, so that the
// pipes end when the command (and whatever it started) closes them.
func (c *capture) started() {
	for s := range c.write {
		if c.write[s] != nil && !c.agents(c.write[s]) {
			c.write[s].Close()
		}
		c.write[s] = nil
	}
}

// readBack is a stream that goes straight to a regular file of the
// agent's: which file, and where the command's output in it starts.
type readBack struct {
	dst      *os.File
	dev, ino uint64
	start    int64
	append   bool // the agent's handle appends: the output is what the file grew by
}

// where returns where output written now on b's handle would land: the
// end of the file for an appending handle (its offset moves only when it
// writes), else the handle's offset.
func (b *readBack) where() (int64, error) {
	if b.append {
		var st unix.Stat_t
		err := unix.Fstat(int(b.dst.Fd()), &st)
		return st.Size, err
	}
	return unix.Seek(int(b.dst.Fd()), 0, io.SeekCurrent)
}

// openReadBack returns a read-back for dst when it is a regular file, or
// nil: then the stream is piped.
func openReadBack(dst *os.File) *readBack {
	if dst == nil {
		return nil
	}
	var st unix.Stat_t
	if unix.Fstat(int(dst.Fd()), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil
	}
	flags, err := unix.FcntlInt(dst.Fd(), unix.F_GETFL, 0)
	if err != nil {
		return nil
	}
	b := &readBack{dst: dst, dev: st.Dev, ino: st.Ino, append: flags&unix.O_APPEND != 0}
	if b.append {
		b.start = st.Size
	} else if b.start, err = unix.Seek(int(dst.Fd()), 0, io.SeekCurrent); err != nil {
		return nil
	}
	return b
}

// readBack keeps what the command wrote to stream s's file: from where its
// first write would have landed to where the next would (the command
// shared the agent's handle, so its writes moved it), at most what the
// capture keeps. The agent's handle is often write-only, so the file is
// opened again, for reading, through /proc/self/fd; a file guard cannot
// read that way is not kept (the run is marked truncated).
func (c *capture) readBack(s int) {
	b := c.back[s]
	end, err := b.where()
	if err != nil || end < b.start {
		c.keep.Passed() // moved back: what it wrote is not known
		return
	}
	n := end - b.start
	if n == 0 {
		return
	}
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(int(b.dst.Fd())), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		c.keep.Passed()
		return
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Dev != b.dev || st.Ino != b.ino {
		c.keep.Passed() // not the same file (replaced meanwhile)
		return
	}
	want := min(n, int64(c.keep.Room()))
	buf := make([]byte, want)
	got := 0
	for int64(got) < want {
		k, err := unix.Pread(fd, buf[got:], b.start+int64(got))
		if err == unix.EINTR {
			continue
		}
		if err != nil || k == 0 {
			break // cut short meanwhile
		}
		got += k
	}
	c.keep.Add(s, buf[:got])
	if int64(got) < n {
		c.keep.Passed()
	}
}

// sameFile reports whether a and b are the same open file: the same
// pipe, socket or file (device and inode).
func sameFile(a, b *os.File) bool {
	var sa, sb unix.Stat_t
	if unix.Fstat(int(a.Fd()), &sa) != nil || unix.Fstat(int(b.Fd()), &sb) != nil {
		return false
	}
	return sa.Dev == sb.Dev && sa.Ino == sb.Ino
}

// readsBack reports whether any stream goes straight to the agent's file.
func (c *capture) readsBack() bool {
	return c.back[ccs.Stdout] != nil || c.back[ccs.Stderr] != nil
}

// piped reports whether any stream passes through a pipe guard reads.
func (c *capture) piped() bool {
	return c.read[ccs.Stdout] != nil || c.read[ccs.Stderr] != nil
}

// fd is the descriptor poll watches for stream s (-1: none).
func (c *capture) fd(s int) int32 {
	if c.read[s] == nil {
		return -1
	}
	return int32(c.read[s].Fd())
}

// pump forwards and keeps output until the command exited and its pipes
// are drained (see drainIdle). pidfd is the command's pidfd, readable once
// it exited; without one (-1) pump polls exited every 20 ms instead.
func (c *capture) pump(pidfd int, exited func() bool) {
	fds := []unix.PollFd{
		{Fd: int32(pidfd), Events: unix.POLLIN},
		{Fd: c.fd(ccs.Stdout), Events: unix.POLLIN},
		{Fd: c.fd(ccs.Stderr), Events: unix.POLLIN},
	}
	buf := make([]byte, captureBuf) // grows with the pipe (grow)
	var exitedAt time.Time
	markExited := func() {
		c.exited = true
		exitedAt = time.Now()
		fds[0].Fd = -1
	}
	for {
		if !c.exited && pidfd < 0 && exited() {
			markExited()
		}
		timeout := -1
		if pidfd < 0 && !c.exited {
			timeout = 20
		}
		if c.exited {
			if fds[1].Fd < 0 && fds[2].Fd < 0 {
				break
			}
			left := drainMax - time.Since(exitedAt)
			if left <= 0 {
				c.cut = true
				break
			}
			timeout = int(min(left, drainIdle) / time.Millisecond)
		}
		n, err := unix.Poll(fds, timeout)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			c.cut = true
			break
		}
		if n == 0 {
			if c.exited {
				c.cut = true // the pipes are held open by something still running
				break
			}
			continue
		}
		for s := ccs.Stdout; s <= ccs.Stderr; s++ {
			if fds[s].Fd < 0 || fds[s].Revents == 0 {
				continue
			}
			ok := true
			if c.passOn(s) {
				// Nothing more is kept or redacted: the kernel moves the
				// bytes on (splice), with no copy through guard.
				k, err := unix.Splice(int(fds[s].Fd), nil, int(c.dst[s].Fd()), nil, bigPipe, 0)
				switch {
				case err == unix.EINTR || err == unix.EAGAIN:
					continue
				case err == unix.EPIPE:
					ok = false
				case err != nil:
					c.noSplice[s] = true // not a file or pipe splice can write to: copy
					continue
				case k == 0:
					fds[s].Fd = -1
					continue
				}
				c.forwarded += k
				c.grow(s, k)
				if c.keep != nil {
					c.keep.Passed() // the run's output is no longer whole
				}
			} else {
				if c.grown[s] && len(buf) < bigPipe {
					buf = make([]byte, bigPipe)
				}
				k, err := unix.Read(int(fds[s].Fd), buf)
				if err == unix.EINTR || err == unix.EAGAIN {
					continue
				}
				if k <= 0 {
					fds[s].Fd = -1
					continue
				}
				ok = c.forward(s, buf[:k])
				c.grow(s, int64(k))
			}
			if !ok {
				// The agent closed its end: close ours, so that the
				// command learns it (EPIPE, SIGPIPE) as it would have.
				fds[s].Fd = -1
				c.read[s].Close()
				c.read[s] = nil
				c.cut = true
			}
		}
		if fds[0].Fd >= 0 && fds[0].Revents != 0 {
			markExited()
		}
	}
	c.finish()
}

// grow counts n more bytes through stream s, and grows its pipe once they
// pass bigPipeAt.
func (c *capture) grow(s int, n int64) {
	c.passed[s] += n
	if !c.grown[s] && c.passed[s] >= bigPipeAt {
		c.grown[s] = true
		// EPERM past the user's pipe quota: the pipe stays as it is
		_, _ = unix.FcntlInt(c.read[s].Fd(), unix.F_SETPIPE_SZ, bigPipe)
		var st unix.Stat_t
		if d := c.dst[s]; d != nil && unix.Fstat(int(d.Fd()), &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFIFO {
			if n, err := unix.FcntlInt(d.Fd(), unix.F_GETPIPE_SZ, 0); err == nil && n < bigPipe {
				_, _ = unix.FcntlInt(d.Fd(), unix.F_SETPIPE_SZ, bigPipe)
			}
		}
	}
}

// passOn reports whether stream s is only passed on now: nothing more is
// kept (the capture is full, or nothing is stored) and nothing redacted.
func (c *capture) passOn(s int) bool {
	return c.live[s] == nil && !c.noSplice[s] && c.dst[s] != nil && (c.keep == nil || c.keep.Full())
}

// forward passes p (read from stream s) on to the agent, then keeps it.
// It reports false when the agent's descriptor is gone (EPIPE).
func (c *capture) forward(s int, p []byte) bool {
	ok := true
	if c.live[s] != nil {
		ok = c.write1(s, c.live[s].write(p, false))
	} else {
		ok = c.write1(s, p)
	}
	if c.keep != nil {
		c.keep.Add(s, p)
	}
	return ok
}

// finish passes on what redact_live still holds, reads back the streams
// that went to the agent's files, and closes guard's ends.
func (c *capture) finish() {
	for s := ccs.Stdout; s <= ccs.Stderr; s++ {
		if c.live[s] != nil {
			c.write1(s, c.live[s].write(nil, true))
		}
		if c.back[s] != nil && c.keep != nil {
			c.readBack(s)
		}
	}
	c.closeAll()
}

// write1 writes p whole to the agent's descriptor for stream s. It
// reports false when the descriptor's reader is gone.
func (c *capture) write1(s int, p []byte) bool {
	if len(p) == 0 || c.dst[s] == nil {
		return true
	}
	fd := int(c.dst[s].Fd())
	for len(p) > 0 {
		k, err := unix.Write(fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			// a non-blocking descriptor the agent gave us: wait until it drains
			_, _ = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}, -1)
			continue
		case err != nil:
			c.err = err
			return err != unix.EPIPE
		}
		c.forwarded += int64(k)
		p = p[k:]
	}
	return true
}

// liveRedactor is redact_live on one stream: it passes on everything up to
// the last newline it has, redacted, and keeps the rest (at most liveHold)
// for the next read. An unfinished PEM block is kept whole, up to liveHold.
type liveRedactor struct {
	red *redact.Redactor
	buf []byte
}

func (l *liveRedactor) write(p []byte, final bool) []byte {
	l.buf = append(l.buf, p...)
	cut := len(l.buf)
	if !final && len(l.buf) < liveHold {
		cut = bytes.LastIndexByte(l.buf, '\n') + 1
		if b := bytes.LastIndex(l.buf[:cut], []byte("-----BEGIN ")); b >= 0 && !bytes.Contains(l.buf[b:cut], []byte("-----END ")) {
			cut = b // the rest of a private key may still come
		}
	}
	if cut <= 0 {
		return nil
	}
	out := l.red.Bytes(l.buf[:cut])
	if len(out) > 0 && &out[0] == &l.buf[0] {
		out = append([]byte(nil), out...)
	}
	l.buf = l.buf[:copy(l.buf, l.buf[cut:])]
	return out
}
