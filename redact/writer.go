package redact

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

var errClosed = errors.New("redact: write after close")

// Writer returns a filter that redacts what is written to it and writes the
// result to w. It is line-buffered: each complete line goes on (redacted)
// in the Write that completes it, and a line longer than 64 KiB goes on in
// 64 KiB pieces, so output lags input by at most one line or 64 KiB. The
// exception is a private-key block: the newline after its last line so far
// is held until the next line shows whether the block goes on.
//
// The output equals what Bytes returns for the whole input, however the
// input is cut into writes. Close flushes the rest; it does not close w.
// A Writer is for one goroutine; the Redactor behind it may serve many.
func (r *Redactor) Writer(w io.Writer) io.WriteCloser {
	return r.Stream(w)
}

// Stream is Writer with its concrete type, for callers that need to know
// whether anything was redacted (an output store must not replay a
// redacted output as if it were the real one).
func (r *Redactor) Stream(w io.Writer) *Stream {
	return &Stream{r: r, w: w}
}

// A Stream is the filter Writer returns.
type Stream struct {
	r *Redactor
	w io.Writer
	// buf holds the input not yet passed on, the start of a line (or of
	// a piece of a long one), after back bytes passed on already: the
	// end of the piece before, kept for the seam of its cut
	buf      []byte
	back     int
	st       state
	err      error
	closed   bool
	redacted bool
}

func (sw *Stream) Write(p []byte) (int, error) {
	if sw.closed {
		return 0, errClosed
	}
	if sw.err != nil {
		return 0, sw.err
	}
	// Scan only what is new for a newline: a long line written in many
	// small pieces must not cost a rescan of the whole line each time.
	old := len(sw.buf)
	sw.buf = append(sw.buf, p...)
	k := 0
	if hasNL(sw.buf[old:]) || len(sw.buf)-sw.back > maxLine+carry {
		k = completeUnits(sw.buf[sw.back:])
	}
	if k == 0 {
		return len(p), nil
	}
	k += sw.back
	if err := sw.flush(k, false); err != nil {
		return 0, err
	}
	return len(p), nil
}

func hasNL(b []byte) bool {
	for _, c := range b {
		if c == '\n' {
			return true
		}
	}
	return false
}

// flush redacts and writes buf[back:k], keeping the rest, and the carry
// bytes before k when k is a cut.
func (sw *Stream) flush(k int, final bool) error {
	out, changed := sw.r.process(nil, sw.buf, sw.back, k, &sw.st, final)
	if !changed {
		out = sw.buf[sw.back:k]
	}
	sw.redacted = sw.redacted || changed
	if len(out) > 0 {
		if _, err := sw.w.Write(out); err != nil {
			sw.err = fmt.Errorf("write redacted output: %w", err)
			return sw.err
		}
	}
	keep := 0
	if k > sw.back && sw.buf[k-1] != '\n' {
		keep = min(k, carry) // a cut: its seam needs what came before
	}
	sw.buf = sw.buf[:copy(sw.buf, sw.buf[k-keep:])]
	sw.back = keep
	return nil
}

// Redacted reports whether anything written so far and passed on was
// replaced (after Close: anything at all).
func (sw *Stream) Redacted() bool {
	return sw.redacted
}

// Buffered returns how many bytes were written but not yet passed on.
func (sw *Stream) Buffered() int {
	return len(sw.buf) - sw.back
}

// Close redacts and writes everything still held back.
func (sw *Stream) Close() error {
	if sw.closed {
		return sw.err
	}
	sw.closed = true
	if sw.err != nil {
		return sw.err
	}
	err := sw.flush(len(sw.buf), true)
	sw.buf, sw.back = nil, 0
	return err
}

// CloseCut is Close for a text that was cut short rather than ended (a
// record's size limit): the end of its last line after the last blank,
// quote or other separator is dropped (see CutTail), so that the start of
// a secret cut in two is not kept.
func (sw *Stream) CloseCut() error {
	if !sw.closed && sw.err == nil {
		sw.buf = sw.buf[:sw.back+CutTail(sw.buf[sw.back:])]
	}
	return sw.Close()
}

// CutTail returns how much of b to keep when b is the start of a text cut
// short: all of it up to its last newline or separator (a blank, a quote,
// one of ,;&<>) in its last 4 KiB, else all but those 4 KiB. What it
// drops is the start of the word the cut fell in: the first part of a
// token matches no pattern, and would be kept as it is.
func CutTail(b []byte) int {
	lo := max(0, len(b)-carry)
	if i := bytes.LastIndexAny(b[lo:], "\n \t,;\"'&<>"); i >= 0 {
		return lo + i + 1
	}
	return lo
}
