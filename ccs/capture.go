package ccs

import (
	"bytes"

	"github.com/guard-dev/guard/redact"
)

// MaxCapture is how much of one run's output guard keeps (all streams
// together): what comes after is passed on to the agent as before but not
// kept, and the run is marked truncated (never served).
const MaxCapture = 8 << 20

// A Capture gathers one run's output in the order it was read, in memory
// only: nothing reaches the disk before Output has redacted it.
type Capture struct {
	reads     []chunkLen // stream and length of each read (runs of one stream merged)
	size      int
	truncated bool
	bufs      [3]bytes.Buffer // per stream, the raw bytes in order
}

// Add records p, just read from stream (Stdout or Stderr). p is copied.
func (c *Capture) Add(stream int, p []byte) {
	if len(p) == 0 || c.truncated && c.size >= MaxCapture {
		return
	}
	if c.size+len(p) > MaxCapture {
		p = p[:MaxCapture-c.size]
		c.truncated = true
	}
	c.size += len(p)
	c.bufs[stream].Write(p)
	if n := len(c.reads); n > 0 && c.reads[n-1].stream == stream {
		c.reads[n-1].n += len(p)
		return
	}
	c.reads = append(c.reads, chunkLen{stream, len(p)})
}

// Full reports whether the capture took all it keeps (MaxCapture).
func (c *Capture) Full() bool { return c.size >= MaxCapture }

// Passed records that output went on to the agent without being kept.
func (c *Capture) Passed() { c.truncated = true }

// Empty reports whether nothing was captured.
func (c *Capture) Empty() bool { return c.size == 0 }

// Truncated reports whether output was left out past MaxCapture.
func (c *Capture) Truncated() bool { return c.truncated }

// Output redacts what was captured, each stream as a whole (so a secret
// split across reads is caught as if written at once), and returns the
// chunks and whether redaction changed anything. When it changed nothing
// the chunks are exactly the reads, in order, so a replay interleaves
// stdout and stderr as the command did; when it did, each stream's
// redacted text comes back as one chunk, stdout first.
func (c *Capture) Output(r *redact.Redactor) (chunks []Chunk, redacted bool) {
	var red [3][]byte
	for s := Stdout; s <= Stderr; s++ {
		var changed bool
		red[s], changed = r.Redact(c.bufs[s].Bytes())
		redacted = redacted || changed
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
