package ccs

import (
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
//
// The raw bytes are kept once: the goroutine reads them where Add put
// them (Add only ever appends, so what it reads never moves under it), and
// its redacted copy is made only from the first change on (sink).
type Capture struct {
	reads     []chunkLen // stream and length of each read (runs of one stream merged)
	size      int
	limit     int // what it keeps at most; 0: MaxCapture
	truncated bool

	mu   sync.Mutex // guards raw once the goroutine runs
	raw  [3][]byte  // per stream, the bytes read, in order
	done [3]int     // per stream, how much of raw the goroutine has taken

	redactor func() *redact.Redactor
	ahead    *ahead // the redacting goroutine; nil until it runs
}

// ahead is the goroutine that redacts beside the run. Add never waits for
// it (the command's output must never wait for redaction): it appends
// under the capture's lock and wakes the goroutine, which takes all there
// is.
type ahead struct {
	closed  bool          // under Capture.mu: nothing more comes
	cut     bool          // under Capture.mu: the streams were cut short (truncated)
	wake    chan struct{} // one wake-up is enough: the goroutine takes everything
	fin     chan struct{} // closed when all was redacted
	sinks   [3]*sink
	streams [3]*redact.Stream
}

// A sink takes a stream's redacted output. Until the stream first changes
// something the output is the input, so it only counts; from then on it
// keeps a copy: the input so far, then each redacted piece.
type sink struct {
	stream *redact.Stream
	raw    func() []byte // the stream's raw bytes the goroutine has taken (Capture.taken)
	same   int           // bytes passed on unchanged before the first change
	out    []byte        // nil until the first change
}

func (k *sink) Write(p []byte) (int, error) {
	if k.out == nil && !k.stream.Redacted() {
		k.same += len(p)
		return len(p), nil
	}
	if k.out == nil {
		k.out = append(make([]byte, 0, k.same+len(p)+len(p)/2), k.raw()[:k.same]...)
	}
	k.out = append(k.out, p...)
	return len(p), nil
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
	if a := c.ahead; a != nil {
		c.mu.Lock()
		c.raw[stream] = append(c.raw[stream], p...)
		c.mu.Unlock()
		a.signal()
	} else {
		if c.raw[stream] == nil {
			c.raw[stream] = make([]byte, 0, c.firstCap(len(p)))
		}
		c.raw[stream] = append(c.raw[stream], p...)
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

// firstCap is the capacity of a stream's buffer at its first read of n
// bytes: a short output gets what it needs, and a stream whose first read
// filled a pipe (64 KiB or more: bulk output) gets the whole limit at once,
// so that appending never copies it (the kernel provides the pages only
// when they are written).
func (c *Capture) firstCap(n int) int {
	if n >= 64<<10 {
		return c.max()
	}
	return min(max(n, 4<<10), c.max())
}

// startRedacting starts the goroutine that redacts each stream as it
// arrives. Each stream's buffer is made as big as the capture may grow
// (memory the kernel gives only when it is written), so that appending
// never copies it.
func (c *Capture) startRedacting() {
	r := c.redactor()
	a := &ahead{wake: make(chan struct{}, 1), fin: make(chan struct{})}
	for s := Stdout; s <= Stderr; s++ {
		if room := c.max() - c.size + len(c.raw[s]); cap(c.raw[s]) < room {
			c.raw[s] = append(make([]byte, 0, room), c.raw[s]...)
		}
		k := &sink{raw: func() []byte { return c.taken(s) }}
		a.sinks[s] = k
		a.streams[s] = r.Stream(k)
		k.stream = a.streams[s]
	}
	c.ahead = a
	go c.run()
	a.signal()
}

// taken returns the part of stream s's raw bytes the goroutine has taken.
func (c *Capture) taken(s int) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.raw[s][:c.done[s]]
}

func (a *ahead) signal() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// run redacts what Add appended until Output closed the capture.
func (c *Capture) run() {
	a := c.ahead
	defer close(a.fin)
	for range a.wake {
		var take [3][]byte
		c.mu.Lock()
		for s := Stdout; s <= Stderr; s++ {
			take[s] = c.raw[s][c.done[s]:len(c.raw[s]):len(c.raw[s])]
			c.done[s] = len(c.raw[s])
		}
		closed, cut := a.closed, a.cut
		c.mu.Unlock()
		for s := Stdout; s <= Stderr; s++ {
			if len(take[s]) > 0 {
				_, _ = a.streams[s].Write(take[s]) // a sink takes every write
			}
		}
		if closed {
			for s := Stdout; s <= Stderr; s++ {
				if cut {
					_ = a.streams[s].CloseCut()
				} else {
					_ = a.streams[s].Close()
				}
			}
			return
		}
	}
}

// finish waits until everything added was redacted; with cut, the
// streams were cut short (see redact.CutTail).
func (a *ahead) finish(mu *sync.Mutex, cut bool) {
	mu.Lock()
	a.closed, a.cut = true, cut
	mu.Unlock()
	a.signal()
	<-a.fin
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
// chunks and whether redaction changed anything. A truncated capture
// ends where a stream was cut, maybe inside a secret: the word the cut
// fell in is dropped (redact.CutTail), as the start of a token would
// match no pattern. When it changed nothing
// the chunks are exactly the reads, in order, so a replay interleaves
// stdout and stderr as the command did; when it did, each stream's
// redacted text comes back as one chunk, stdout first. Nothing may be
// added after Output.
func (c *Capture) Output(r *redact.Redactor) (chunks []Chunk, redacted bool) {
	var red [3][]byte
	if a := c.ahead; a != nil {
		a.finish(&c.mu, c.truncated)
		for s := Stdout; s <= Stderr; s++ {
			k := a.sinks[s]
			red[s] = c.raw[s][:k.same] // all it passed on, less a cut word
			if k.out != nil {
				red[s], redacted = k.out, true
			}
		}
	} else {
		for s := Stdout; s <= Stderr; s++ {
			raw := c.raw[s]
			if c.truncated {
				raw = raw[:redact.CutTail(raw)]
			}
			var changed bool
			red[s], changed = r.Redact(raw)
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
		n := min(rd.n, len(red[rd.stream])-off[rd.stream]) // less the cut word
		if n <= 0 {
			continue
		}
		chunks = append(chunks, Chunk{Stream: rd.stream, Data: red[rd.stream][off[rd.stream] : off[rd.stream]+n]})
		off[rd.stream] += n
	}
	return chunks, false
}
