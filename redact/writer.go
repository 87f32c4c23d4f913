package redact

import (
	"errors"
	"fmt"
	"io"
)

// defaultChunk is how much a Writer gathers beyond its hold-back before it
// redacts and passes text on, so that many small writes cost one scan.
const defaultChunk = 32 << 10

var errClosed = errors.New("redact: write after close")

// Writer returns a filter that redacts what is written to it and writes the
// result to w. It keeps back the last bytes it was given (at least the
// longest secret it can recognise) until more arrive, so a secret split
// across writes is still caught; output therefore lags input by up to that
// much. Close flushes the rest; it does not close w.
func (r *Redactor) Writer(w io.Writer) io.WriteCloser {
	return r.writer(w, r.hold, defaultChunk)
}

func (r *Redactor) writer(w io.Writer, hold, chunk int) *streamWriter {
	return &streamWriter{r: r, w: w, hold: hold, chunk: chunk}
}

type streamWriter struct {
	r      *Redactor
	w      io.Writer
	buf    []byte
	hold   int // never pass on the last hold bytes before Close
	chunk  int // pass on only once this much beyond hold has gathered
	err    error
	closed bool
}

func (sw *streamWriter) Write(p []byte) (int, error) {
	if sw.closed {
		return 0, errClosed
	}
	if sw.err != nil {
		return 0, sw.err
	}
	sw.buf = append(sw.buf, p...)
	if len(sw.buf) >= sw.hold+sw.chunk {
		cut := sw.r.safeCut(sw.buf, len(sw.buf)-sw.hold)
		if cut == 0 && len(sw.buf) > 4*sw.hold+sw.chunk {
			// Overlapping candidates chained all the way back: give up
			// exactness rather than memory.
			cut = len(sw.buf) - sw.hold
		}
		if err := sw.flush(cut); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// flush redacts and writes buf[:cut], keeping the rest.
func (sw *streamWriter) flush(cut int) error {
	if cut <= 0 {
		return nil
	}
	out := sw.r.redact(sw.buf[:cut])
	if _, err := sw.w.Write(out); err != nil {
		sw.err = fmt.Errorf("write redacted output: %w", err)
		return sw.err
	}
	sw.buf = sw.buf[:copy(sw.buf, sw.buf[cut:])]
	return nil
}

// Close redacts and writes everything still held back.
func (sw *streamWriter) Close() error {
	if sw.closed {
		return sw.err
	}
	sw.closed = true
	if sw.err != nil {
		return sw.err
	}
	err := sw.flush(len(sw.buf))
	sw.buf = nil
	return err
}
