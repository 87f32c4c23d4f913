package redact

import (
	"bytes"
	"encoding/hex"
)

// Secrets that reach the output in another spelling: split by a
// terminal's escape sequences (a colourised log, ls --color), in UTF-16
// (a Windows file: a NUL after each ASCII letter), or hex-encoded (xxd -p,
// a debug dump). The line is matched again in its plain form, and what is
// found there is mapped back to the bytes that spell it: the escapes stay
// and the secret goes.

// hexPrefixes are the starts of the secrets looked for in hex: each has a
// trigger, the hex of its first three or four bytes (in lower case: the
// trigger is folded). They are the tokens most worth a look (VCS and
// cloud keys, AI keys, private keys, JWTs): each trigger costs every scan
// a little, as digits are common.
var hexPrefixes = [...]string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "AKIA", "ASIA", "akia",
	"sk-", "xox", "AIza", "eyJ", "npm_", "hf_", "-----BEGIN",
}

// encodedTriggers returns the triggers of the encoded forms: the two
// introducers of the escapes stripped (CSI, OSC) and the hexPrefixes in
// hex. UTF-16 text needs none: a unit holding a NUL is found by a vector
// search (nulHits), which costs less than a trigger for each letter pair.
func encodedTriggers() []string {
	ts := []string{"\x1b[", "\x1b]"}
	seen := map[string]bool{}
	for _, p := range hexPrefixes {
		t := hex.EncodeToString([]byte(p[:min(4, len(p))]))
		if !seen[t] {
			seen[t] = true
			ts = append(ts, t)
		}
	}
	return ts
}

// nulHits adds to hits (in order) a hit of the encoded pattern for each
// unit of b that holds a NUL byte and none yet: UTF-16 text.
func (r *Redactor) nulHits(b []byte, hits []hit) []hit {
	i := bytes.IndexByte(b, 0)
	if i < 0 || r.encoded < 0 {
		return hits
	}
	var units []unit
	for i >= 0 {
		u := unitAt(b, i)
		units = append(units, u)
		if u.n >= len(b) {
			break
		}
		i = bytes.IndexByte(b[u.n:], 0)
		if i >= 0 {
			i += u.n
		}
	}
	out := make([]hit, 0, len(hits)+len(units))
	hi := 0
	for _, u := range units {
		for hi < len(hits) && hits[hi].u.s < u.s {
			out = append(out, hits[hi])
			hi++
		}
		have := false
		for ; hi < len(hits) && hits[hi].u.s == u.s; hi++ {
			have = have || hits[hi].owner == r.encoded
			out = append(out, hits[hi])
		}
		if !have {
			out = append(out, hit{u: u, owner: r.encoded})
		}
	}
	return append(out, hits[hi:]...)
}

// minHexRun is the shortest run of hex digits decoded: 16 bytes, less
// than any token worth a look, more than most ids.
const minHexRun = 32

// scanEncoded matches the plain forms of a line that holds an escape, a
// NUL or a hex run.
func scanEncoded(r *Redactor, line []byte, sink *spanSink) {
	if bytes.IndexByte(line, 0x1b) >= 0 {
		if plain, at := stripEscapes(line); plain != nil {
			r.mapSpans(plain, at, true, sink)
		}
	}
	if bytes.IndexByte(line, 0) >= 0 {
		if plain, at := dropNULs(line); plain != nil {
			r.mapSpans(plain, at, false, sink)
		}
	}
	scanHexRuns(r, line, sink)
}

// mapSpans redacts plain, whose byte i is line's byte at[i], and adds what
// it finds to sink at the bytes of line that spell it. With gaps, a
// secret's bytes that are not next to each other in line (an escape
// between them) are replaced piece by piece, the marker in the first and
// nothing in the others, so that what stood between them stays.
func (r *Redactor) mapSpans(plain []byte, at []int32, gaps bool, sink *spanSink) {
	for _, sp := range r.lineSpans(plain) {
		owner := sp.owner
		if owner < 0 {
			owner = len(r.env) // a private key: pattern 0, and no block opens
		}
		s := int(at[sp.s])
		if !gaps {
			sink.addOwner(s, int(at[sp.e-1])+1, owner)
			continue
		}
		for i := sp.s + 1; i <= sp.e; i++ {
			if i == sp.e || at[i] != at[i-1]+1 {
				sink.addOwner(s, int(at[i-1])+1, owner)
				owner = ownDropped
				if i < sp.e {
					s = int(at[i])
				}
			}
		}
	}
}

// lineSpans returns the spans to replace in line, a line of text (no
// newline, at most maxLine bytes) that is not part of the input: the
// plain form of an encoded line.
func (r *Redactor) lineSpans(line []byte) []span {
	if len(line) == 0 || len(line) > maxLine {
		return nil
	}
	hits := r.nulHits(line, r.scan(line))
	if len(hits) == 0 && len(r.always) == 0 {
		return nil
	}
	var sink *spanSink
	spans, _, _ := r.unitSpans(&sink, line, unit{0, len(line), len(line)}, hits, 0, nil, 0, nil)
	return spans
}

// stripEscapes returns line without its terminal escape sequences (CSI:
// ESC [ params final; OSC: ESC ] … BEL or ESC \; and two-byte ESC x),
// and where each byte left came from; nil when there is none.
func stripEscapes(line []byte) ([]byte, []int32) {
	plain := make([]byte, 0, len(line))
	at := make([]int32, 0, len(line))
	found := false
	for i := 0; i < len(line); {
		c := line[i]
		if c != 0x1b || i+1 >= len(line) {
			plain = append(plain, c)
			at = append(at, int32(i))
			i++
			continue
		}
		found = true
		switch line[i+1] {
		case '[':
			j := i + 2
			for j < len(line) && line[j] >= 0x20 && line[j] <= 0x3f {
				j++
			}
			if j < len(line) && line[j] >= 0x40 && line[j] <= 0x7e {
				j++
			}
			i = j
		case ']':
			j := i + 2
			for j < len(line) && line[j] != 0x07 && !(line[j] == 0x1b && j+1 < len(line) && line[j+1] == '\\') {
				j++
			}
			switch {
			case j < len(line) && line[j] == 0x07:
				j++
			case j < len(line):
				j += 2
			}
			i = j
		default:
			i += 2
		}
	}
	if !found {
		return nil, nil
	}
	return plain, at
}

// dropNULs returns line without its NUL bytes (UTF-16 text of ASCII:
// g\0h\0p\0_\0…), and where each byte left came from; nil when fewer than
// a quarter of its bytes are NUL (binary noise, not text).
func dropNULs(line []byte) ([]byte, []int32) {
	n := bytes.Count(line, []byte{0})
	if n*4 < len(line) {
		return nil, nil
	}
	plain := make([]byte, 0, len(line)-n)
	at := make([]int32, 0, len(line)-n)
	for i, c := range line {
		if c != 0 {
			plain = append(plain, c)
			at = append(at, int32(i))
		}
	}
	return plain, at
}

// scanHexRuns decodes each run of minHexRun hex digits or more (of even
// length, inside word boundaries) that spells printable ASCII, and redacts
// the hex digits that spell a secret: 6768705f31… is ghp_1….
func scanHexRuns(r *Redactor, line []byte, sink *spanSink) {
	for i := 0; i < len(line); {
		if !isHex(line[i]) || i > 0 && isWord(line[i-1]) && !(i >= 2 && line[i-1] == 'x' && line[i-2] == '0') {
			i++
			continue
		}
		j := i
		for j < len(line) && isHex(line[j]) {
			j++
		}
		start, end := i, j
		i = j
		if end-start < minHexRun || end < len(line) && isWord(line[end]) {
			continue
		}
		end -= (end - start) % 2
		plain := make([]byte, (end-start)/2)
		if _, err := hex.Decode(plain, line[start:end]); err != nil || !printable(plain) {
			continue
		}
		for _, sp := range r.lineSpans(plain) {
			owner := sp.owner
			if owner < 0 {
				owner = len(r.env)
			}
			sink.addOwner(start+2*sp.s, start+2*sp.e, owner)
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// printable reports whether b is printable ASCII (tabs too).
func printable(b []byte) bool {
	for _, c := range b {
		if (c < 0x20 || c > 0x7e) && c != '\t' {
			return false
		}
	}
	return true
}
