package redact

import (
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// marker starts every replacement: [REDACTED:kind].
const marker = "[REDACTED:"

// maxMarker bounds the length of a marker that insideMarker recognises
// (env:NAME kinds carry a variable's name).
const maxMarker = 256

// minEnvValue is the shortest environment value treated as a secret; shorter
// values ("1", "true", "us") would redact ordinary words everywhere.
const minEnvValue = 8

// envWords mark an environment variable as secret when its name (in upper
// case) contains one of them, once the envNotWords are taken out.
var envWords = [...]string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH"}

// envNotWords are names that merely look secret: GIT_AUTHOR_NAME holds a
// person's name, KEYBOARD_LAYOUT a keyboard.
var envNotWords = [...]string{"AUTHOR", "KEYBOARD", "KEYMAP"}

// A Redactor replaces secrets with [REDACTED:kind]. It is immutable after New
// and safe for concurrent use.
//
// Secrets are found in one pass: every environment value and every
// pattern's trigger strings sit in one table indexed by their first two
// bytes, and a scan of the input notes where they occur. Environment values
// are secrets where they occur; a pattern's regular expression then runs
// only on the lines holding one of its triggers.
type Redactor struct {
	env      []envSecret // longest value first
	triggers []trigger
	byFirst  [256][]int32 // trigger indices by first byte (both cases when folded)
	pairs    [1 << 16 / 64]uint64
	hold     int // bytes the streaming writer keeps back
	// compiled holds each pattern's regexp once a trigger made it needed:
	// compiling all of them costs more than guard's whole decision.
	compiled [len(patterns)]*regexp.Regexp
	once     [len(patterns)]sync.Once
}

// regexp returns pattern i's compiled expression, compiling it on first use.
func (r *Redactor) regexp(i int) *regexp.Regexp {
	r.once[i].Do(func() { r.compiled[i] = regexp.MustCompile(patterns[i].expr) })
	return r.compiled[i]
}

type envSecret struct {
	value       []byte
	replacement []byte
}

// A trigger is a string whose presence makes its owner worth a look. Owners
// number the env secrets first, then the patterns; a lower owner wins when
// matches overlap.
type trigger struct {
	text  []byte
	fold  bool
	owner int
}

// New returns a Redactor for the patterns of this package and for the values
// of the secret-looking variables in environ (as returned by os.Environ).
// New(nil) knows only the patterns.
func New(environ []string) *Redactor {
	r := &Redactor{hold: maxMatch}
	seen := map[string]bool{}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || len(value) < minEnvValue || seen[value] || !secretName(name) {
			continue
		}
		seen[value] = true
		r.env = append(r.env, envSecret{
			value:       []byte(value),
			replacement: []byte(marker + "env:" + name + "]"),
		})
		r.hold = max(r.hold, len(value))
	}
	slices.SortStableFunc(r.env, func(a, b envSecret) int { return cmp.Compare(len(b.value), len(a.value)) })

	for i, e := range r.env {
		r.addTrigger(trigger{text: e.value, owner: i})
	}
	for i := range patterns {
		p := &patterns[i]
		for _, t := range p.triggers {
			r.addTrigger(trigger{text: []byte(t), fold: p.fold, owner: len(r.env) + i})
		}
	}
	return r
}

func (r *Redactor) addTrigger(t trigger) {
	idx := int32(len(r.triggers))
	r.triggers = append(r.triggers, t)
	firsts, seconds := []byte{t.text[0]}, []byte{t.text[1]}
	if t.fold {
		firsts, seconds = bothCases(t.text[0]), bothCases(t.text[1])
	}
	for _, a := range firsts {
		r.byFirst[a] = append(r.byFirst[a], idx)
		for _, b := range seconds {
			k := uint(a)<<8 | uint(b)
			r.pairs[k/64] |= 1 << (k % 64)
		}
	}
}

func bothCases(c byte) []byte {
	switch {
	case 'a' <= c && c <= 'z':
		return []byte{c, c - 'a' + 'A'}
	case 'A' <= c && c <= 'Z':
		return []byte{c, c - 'A' + 'a'}
	}
	return []byte{c}
}

// secretName reports whether an environment variable's name says it holds a
// secret.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range envNotWords {
		n = strings.ReplaceAll(n, w, "_")
	}
	for _, w := range envWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	return string(r.redact([]byte(s)))
}

// Bytes returns b with every secret replaced. b is never modified; when
// nothing is found the result may be b itself.
func (r *Redactor) Bytes(b []byte) []byte {
	return r.redact(b)
}

func (r *Redactor) redact(b []byte) []byte {
	spans := r.find(b, false)
	if len(spans) == 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	last := 0
	for _, sp := range spans {
		out = append(out, b[last:sp.s]...)
		out = append(out, r.replacement(sp.owner)...)
		last = sp.e
	}
	return append(out, b[last:]...)
}

func (r *Redactor) replacement(owner int) []byte {
	if owner < len(r.env) {
		return r.env[owner].replacement
	}
	return []byte(marker + patterns[owner-len(r.env)].kind + "]")
}

// A span is text to replace, b[s:e], named after its owner.
type span struct{ s, e, owner int }

// A region is a stretch of input (whole lines) a pattern must be run on.
type region struct{ s, e int }

// find returns the disjoint spans of b to replace, in order. Overlapping
// matches are merged and named after the lowest owner. With whole set, a
// pattern's span is its whole match (label included) rather than its
// secret groups, and no candidate is rejected: the streaming writer uses
// that to know where it must not cut.
func (r *Redactor) find(b []byte, whole bool) []span {
	var spans []span
	var regions [][]region // by pattern, made on the first trigger found
	for i := 0; i+1 < len(b); i++ {
		k := uint(b[i])<<8 | uint(b[i+1])
		if r.pairs[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, ti := range r.byFirst[b[i]] {
			t := &r.triggers[ti]
			if !t.at(b, i) {
				continue
			}
			if t.owner < len(r.env) {
				spans = append(spans, span{i, i + len(t.text), t.owner})
				continue
			}
			if regions == nil {
				regions = make([][]region, len(patterns))
			}
			pi := t.owner - len(r.env)
			rs := regions[pi]
			if len(rs) > 0 && i < rs[len(rs)-1].e {
				continue // this line is already to be searched
			}
			ls := bytes.LastIndexByte(b[:i], '\n') + 1
			le := len(b)
			if !patterns[pi].multiline {
				if n := bytes.IndexByte(b[i:], '\n'); n >= 0 {
					le = i + n
				}
			}
			regions[pi] = append(rs, region{ls, le})
		}
	}
	for pi, rs := range regions {
		for _, rg := range rs {
			spans = patterns[pi].find(r.regexp(pi), spans, b[rg.s:rg.e], rg.s, len(r.env)+pi, whole)
		}
	}
	return merge(spans)
}

// at reports whether t occurs in b at i.
func (t *trigger) at(b []byte, i int) bool {
	if len(b)-i < len(t.text) {
		return false
	}
	if !t.fold {
		return bytes.Equal(b[i:i+len(t.text)], t.text)
	}
	for j, c := range t.text {
		d := b[i+j]
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if d != c {
			return false
		}
	}
	return true
}

// find appends p's spans in b (which starts at offset off of the input).
func (p *pattern) find(re *regexp.Regexp, spans []span, b []byte, off, owner int, whole bool) []span {
	names := re.SubexpNames()
	for _, m := range re.FindAllSubmatchIndex(b, -1) {
		if whole {
			spans = append(spans, span{off + m[0], off + m[1], owner})
			continue
		}
		if insideMarker(b, m[0]) {
			continue // text redacted before: guard may redact twice
		}
		grouped := false
		for g := 1; g < len(names); g++ {
			if names[g] != "s" {
				continue
			}
			grouped = true
			s, e := m[2*g], m[2*g+1]
			if s < 0 || (p.valid != nil && !p.valid(b[s:e])) {
				continue
			}
			spans = append(spans, span{off + s, off + e, owner})
		}
		if !grouped && (p.valid == nil || p.valid(b[m[0]:m[1]])) {
			spans = append(spans, span{off + m[0], off + m[1], owner})
		}
	}
	return spans
}

// merge sorts spans and joins the overlapping ones; the joined span keeps
// the lowest owner.
func merge(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.s, b.s), cmp.Compare(a.owner, b.owner))
	})
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.s < last.e {
			last.e = max(last.e, sp.e)
			last.owner = min(last.owner, sp.owner)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// safeCut returns the largest cut <= want such that no secret found in b
// starts before the cut and ends after it.
func (r *Redactor) safeCut(b []byte, want int) int {
	for _, sp := range r.find(b, true) {
		if sp.s < want && want < sp.e {
			return sp.s
		}
	}
	return want
}

// insideMarker reports whether position i of b falls inside a complete
// marker ("[REDACTED:github]" holds a ':' that looks like a label's
// separator). Only a well-formed, closed marker counts, so that text made to
// look like the start of one cannot hide a secret.
func insideMarker(b []byte, i int) bool {
	// A marker is short: look back no further than the longest one.
	m := bytes.LastIndex(b[max(0, i-maxMarker):i], []byte(marker))
	if m < 0 {
		return false
	}
	m += max(0, i-maxMarker)
	for j := m + len(marker); j < len(b); j++ {
		c := b[j]
		if c == ']' {
			return j >= i
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == ':' || c == '.') {
			return false
		}
	}
	return false
}
