package ccs

import (
	"bytes"
	"sync"

	"github.com/guard-dev/guard/redact"
)

// MaxCapture is how much of one run's output guard keeps (all streams
// together) when the run may answer later ones (a [[cache]] rule matched
// it): what comes after is passed on to the agent as before but not kept,
// and the run is marked truncated (never served).
const MaxCapture = 8 << 20

// MaxRecord is how much guard keeps of a run that is only recorded (no
// [[cache]] rule matched it): its first MiB. Keeping costs a copy and
// redaction of every byte kept; a command that prints 100 MB at full
// speed would pay for 8 MiB of it with about half its own run time, and no
// agent reads a record that long back.
const MaxRecord = 1 << 20

// redactAhead is how much output a Capture holds before it starts
// redacting beside the run (see Capture): below it, redacting at the end
// costs less than handing the work to another goroutine.
const redactAhead = 256 << 10

// A Capture gathers one run's output in the order it was read, in memory
// only: nothing reaches the disk before Output has redacted it.
//
// Redacting 8 MiB takes tens of milliseconds, and done at the end it would
// delay the command's exit by that much. So once a run has printed more
// than redactAhead bytes and a redactor was given (SetRedactor), a
// goroutine redacts each stream as it arrives, on another core, while the
// command still writes: at the end only the last piece is left. The
// result is the same as redacting each stream whole (redact.Stream's
// contract, fuzzed as FuzzRedactStream).
type Capture struct {
	reads     []chunkLen // stream and length of each read (runs of one stream merged)
	size      int
	limit     int // what it keeps at most; 0: MaxCapture
	truncated bool
	bufs      [3]bytes.Buffer // per stream, the raw bytes not yet handed to the redactor

	redactor func() *redact.Redactor
	ahead    *ahead // the redacting goroutine; nil until it runs
}

// ahead is the goroutine that redacts beside the run. Add never waits for
// it (the command's output must never wait for redaction): it appends to
// pending under mu and wakes the goroutine, which takes all there is.
type ahead struct {
	mu      sync.Mutex
	pending [3][]byte
	closed  bool
	wake    chan struct{} // one wake-up is enough: the goroutine takes everything
	done    chan struct{} // closed when all was redacted
	red     [3]bytes.Buffer
	streams [3]*redact.Stream
}

// SetRedactor lets the capture redact beside the run, with the redactor fn
// returns (called once, when it starts). Output must then be given the
// same redactor.
func (c *Capture) SetRedactor(fn func() *redact.Redactor) { c.redactor = fn }

// SetLimit makes the capture keep at most n bytes (MaxRecord,
// MaxCapture), instead of MaxCapture.
func (c *Capture) SetLimit(n int) { c.limit = min(n, MaxCapture) }

func (c *Capture) max() int {
	if c.limit > 0 {
		return c.limit
	}
	return MaxCapture
}

// Add records p, just read from stream (Stdout or Stderr). p is copied.
func (c *Capture) Add(stream int, p []byte) {
	if len(p) == 0 || c.truncated && c.size >= c.max() {
		return
	}
	if c.size+len(p) > c.max() {
		p = p[:c.max()-c.size]
		c.truncated = true
	}
	c.size += len(p)
	if c.ahead != nil {
		c.ahead.add(stream, p)
	} else {
		c.bufs[stream].Write(p)
		if c.size > redactAhead && c.redactor != nil {
			c.startRedacting()
		}
	}
	if n := len(c.reads); n > 0 && c.reads[n-1].stream == stream {
		c.reads[n-1].n += len(p)
		return
	}
	c.reads = append(c.reads, chunkLen{stream, len(p)})
}

// startRedacting starts the goroutine that redacts each stream as it
// arrives and hands it what was captured so far.
func (c *Capture) startRedacting() {
	r := c.redactor()
	a := &ahead{wake: make(chan struct{}, 1), done: make(chan struct{})}
	for s := Stdout; s <= Stderr; s++ {
		a.streams[s] = r.Stream(&a.red[s])
		a.pending[s] = append(a.pending[s], c.bufs[s].Bytes()...)
		c.bufs[s] = bytes.Buffer{}
	}
	c.ahead = a
	go a.run()
	a.signal()
}

func (a *ahead) add(stream int, p []byte) {
	a.mu.Lock()
	a.pending[stream] = append(a.pending[stream], p...)
	a.mu.Unlock()
	a.signal()
}

func (a *ahead) signal() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// run redacts what Add gave until Output closed the capture.
func (a *ahead) run() {
	defer close(a.done)
	var spare [3][]byte
	for range a.wake {
		a.mu.Lock()
		take, closed := a.pending, a.closed
		a.pending = spare
		a.mu.Unlock()
		for s, b := range take {
			if len(b) > 0 {
				_, _ = a.streams[s].Write(b) // a bytes.Buffer takes every write
			}
			spare[s] = b[:0]
		}
		if closed {
			break
		}
	}
	for s := Stdout; s <= Stderr; s++ {
		_ = a.streams[s].Close()
	}
}

// finish waits until everything added was redacted.
func (a *ahead) finish() {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.signal()
	<-a.done
}

// Room is how many more bytes the capture keeps.
func (c *Capture) Room() int { return max(c.max()-c.size, 0) }

// Full reports whether the capture took all it keeps (its limit).
func (c *Capture) Full() bool { return c.size >= c.max() }

// Passed records that output went on to the agent without being kept.
func (c *Capture) Passed() { c.truncated = true }

// Empty reports whether nothing was captured.
func (c *Capture) Empty() bool { return c.size == 0 }

// Truncated reports whether output was left out past the limit.
func (c *Capture) Truncated() bool { return c.truncated }

// Output redacts what was captured, each stream as a whole (so a secret
// split across reads is caught as if written at once), and returns the
// chunks and whether redaction changed anything. When it changed nothing
// the chunks are exactly the reads, in order, so a replay interleaves
// stdout and stderr as the command did; when it did, each stream's
// redacted text comes back as one chunk, stdout first. Nothing may be
// added after Output.
func (c *Capture) Output(r *redact.Redactor) (chunks []Chunk, redacted bool) {
	var red [3][]byte
	if a := c.ahead; a != nil {
		a.finish()
		for s := Stdout; s <= Stderr; s++ {
			red[s] = a.red[s].Bytes()
			redacted = redacted || a.streams[s].Redacted()
		}
	} else {
		for s := Stdout; s <= Stderr; s++ {
			var changed bool
			red[s], changed = r.Redact(c.bufs[s].Bytes())
			redacted = redacted || changed
		}
	}
	if redacted {
		for s := Stdout; s <= Stderr; s++ {
			if len(red[s]) > 0 {
				chunks = append(chunks, Chunk{Stream: s, Data: red[s]})
			}
		}
		return chunks, true
	}
	var off [3]int
	for _, rd := range c.reads {
		chunks = append(chunks, Chunk{Stream: rd.stream, Data: red[rd.stream][off[rd.stream] : off[rd.stream]+rd.n]})
		off[rd.stream] += rd.n
	}
	return chunks, false
}
