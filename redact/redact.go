package redact

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// marker starts every replacement: [REDACTED:kind].
const marker = "[REDACTED:"

// maxMarker bounds the length of a marker that insideMarker recognises
// (env:NAME kinds carry a variable's name).
const maxMarker = 256

// minEnvValue is the shortest environment value treated as a secret; shorter
// values ("1", "true", "us") would redact ordinary words everywhere.
const minEnvValue = 8

// maxLine is the longest unit of text redacted as one: a longer line is cut
// (see segCut), so that a stream never holds back more than this.
const maxLine = 64 << 10

// cutWindow is how far back from maxLine segCut looks for a separator.
const cutWindow = 4 << 10

// carry is how far a secret may reach across a cut of a long line: the
// text around each cut, carry bytes on either side (a seam), is matched
// again as one line, and what it finds across the cut is replaced in both
// pieces (see seams). It is longer than any token with a shape, and
// shorter than a piece, so that a seam spans two pieces at most.
const carry = 4 << 10

// envWords mark an environment variable as secret when its name (in upper
// case) contains one of them, once the envNotWords are taken out.
var envWords = [...]string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "AUTH", "PRIVATE"}

// envNotWords are names that merely look secret: GIT_AUTHOR_NAME holds a
// person's name, KEYBOARD_LAYOUT a keyboard.
var envNotWords = [...]string{"AUTHOR", "KEYBOARD", "KEYMAP"}

// Owners of spans that are not a pattern or an environment value.
const (
	ownDropped   = -3 // the rest of a secret whose marker came before it (an escape between): dropped
	ownBlockRest = -2 // lines of a private-key block after its first: dropped
	ownBlock     = -1 // a private-key block that goes on past its line
)

// A Redactor replaces secrets with [REDACTED:kind]. It is immutable after New
// and safe for concurrent use.
//
// Text is redacted one line at a time (a line longer than 64 KiB is cut in
// pieces, see segCut); only a private-key block spans lines, and it is
// followed line by line. That is what makes the streaming Writer's output
// equal to the whole-buffer result, however the input is cut into writes.
//
// Secrets are found in one pass: every environment value and every
// pattern's trigger strings sit in one table, and a scan of the input notes
// where they occur. Environment values are secrets where they occur; a
// pattern's matcher then runs only on the lines holding one of its
// triggers.
type Redactor struct {
	// build makes the tables below from environ and opts on first use
	// (see ready): most runs of guard redact nothing, and the tables
	// cost more than the decision.
	build   sync.Once
	environ []string
	opts    options
	// quick holds what a short text is first checked against (see
	// clean), made on first use by quickOnce: most of what guard redacts
	// is a command's text or a reason, where no trigger occurs.
	quickOnce sync.Once
	quick     *quickCheck

	env      []envSecret // longest value first
	pats     []*pattern  // the built-in table, then the user's
	always   []int       // patterns with no trigger: run on every line
	triggers []trigger
	// A trigger is found by its first three bytes (two for a two-byte
	// one), each spelling of them when folded. The triggers fall in 64
	// classes, neighbours in the order of their first bytes together;
	// class[j][c] has bit k set when byte j of a trigger of class k can be
	// c (any c for the third of a two-byte trigger). Where the three
	// bytes at a position share a bit, the bucket of the bytes (see
	// bucketOf) lists the triggers to compare, in their order:
	// bucketIdx[bucketOff[k]:bucketOff[k+1]].
	class     [3][256]uint64
	bucketOff [triBuckets + pairBuckets + 1]int32
	bucketIdx []int32
	// compiled holds each pattern's regexp once a trigger made it needed:
	// compiling all of them costs more than guard's whole decision.
	// encoded is the owner of the encoded pattern (scanEncoded), -1
	// when there is none
	encoded  int
	compiled []*regexp.Regexp
	once     []sync.Once
	keyRE    [len(keyExprSrc)]*regexp.Regexp
	keyOnce  [len(keyExprSrc)]sync.Once
}

// Buckets of the trigger tables.
const (
	triBuckets  = 1 << 10
	pairBuckets = 1 << 8
)

// triHash hashes the three bytes of key (the first in the low byte) to 16
// bits.
func triHash(key uint32) uint32 {
	return key * 0x9E3779B1 >> 16
}

// pairBucket hashes the two bytes of key to a bucket of bucketOff.
func pairBucket(key uint32) uint32 {
	return triBuckets + key*0x9E3779B1>>24
}

// regexp returns pattern i's compiled expression, compiling it on first use.
func (r *Redactor) regexp(i int) *regexp.Regexp {
	r.once[i].Do(func() { r.compiled[i] = r.pats[i].compile() })
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
	text      string
	fold      bool
	wordStart bool // only where no letter, digit or '_' comes before
	owner     int
	// a cheap test of the eight bytes x at a position (the first in the
	// low byte): (x|headFold)&headMask == head holds wherever the
	// trigger's first eight bytes (or all of it, when shorter) are;
	// headFold sets 0x20 in each byte of a folded trigger, which makes a
	// letter lower-case
	head, headMask, headFold uint64
}

// An Option changes what a Redactor looks for.
type Option func(*options)

type options struct {
	patterns []userPattern
}

// WithPatterns adds regular expressions (Go syntax) whose matches are
// redacted as [REDACTED:custom], or only their groups named s when they have
// any. They can only add redaction. A match never spans lines. An
// expression that does not compile is matched as literal text instead, so
// that a typo never silently drops the redaction it asked for; check
// expressions with CheckPattern first to report it.
func WithPatterns(exprs ...string) Option {
	return func(o *options) {
		for _, e := range exprs {
			if e != "" {
				o.patterns = append(o.patterns, userPattern(e))
			}
		}
	}
}

// New returns a Redactor for the patterns of this package and for the values
// of the secret-looking variables in environ (as returned by os.Environ).
// New(nil) knows only the patterns. New does no I/O, compiles nothing and
// only keeps its arguments: the tables are built the first time the
// Redactor redacts, and each expression is compiled the first time its
// trigger is seen.
func New(environ []string, opts ...Option) *Redactor {
	r := &Redactor{environ: slices.Clone(environ)}
	for _, opt := range opts {
		opt(&r.opts)
	}
	return r
}

// maxQuick is the longest text clean looks at: a longer one is output,
// for which the tables are worth building.
const maxQuick = 4 << 10

// A quickCheck says, without the trigger tables, that a short text holds
// no trigger, so that nothing in it is redacted: the text has no NUL, no
// environment secret, and no position whose first four bytes start a
// trigger of four bytes or more, whose three are a trigger of three, or
// whose two a trigger of two (quickSets), with 0x20 set in every byte on both sides
// (which makes a letter lower-case, as in bucketOf). Setting 0x20 merges
// bytes, and the sets are hashed, so it may find a trigger where there is
// none, never the other way. Four bytes, because three pass too little
// ordinary text: "git" starts github_pat_.
type quickCheck struct {
	env []envSecret
	off bool // user patterns: no quick answer
}

// A quickSet holds the triggers' first bytes by quickHash.
type quickSet [1 << 12 / 64]uint64

// quickHash hashes the first n bytes of k (the first in the low byte) to
// 12 bits.
func quickHash(k uint32, n int) uint32 {
	k |= 0x20202020
	k &= ^uint32(0) >> (32 - 8*n)
	return k * 0x9E3779B1 >> 20
}

// builtinQuickSets returns the quickSets of the built-in triggers, by their
// first four bytes (a trigger of four or more), three (of three) and two
// (of two); ok is false when a pattern has no trigger (it runs on every
// line, so no text is clean). quickSets is its result, written out.
func builtinQuickSets() (sets [3]quickSet, ok bool) {
	for _, p := range builtin() {
		if len(p.triggers) == 0 {
			return sets, false
		}
		for _, t := range p.triggers {
			n := min(4, len(t))
			var k uint32
			for j := n - 1; j >= 0; j-- {
				k = k<<8 | uint32(t[j])
			}
			h := quickHash(k, n)
			sets[4-n][h/64] |= 1 << (h % 64)
		}
	}
	return sets, true
}

// quickTables returns r's quickCheck, made on first use.
func (r *Redactor) quickTables() *quickCheck {
	r.quickOnce.Do(func() {
		r.quick = &quickCheck{env: envSecrets(r.environ), off: len(r.opts.patterns) > 0}
	})
	return r.quick
}

// clean reports whether b, a whole text, certainly holds nothing to
// redact (see quickCheck); false when it may.
func (r *Redactor) clean(b []byte) bool {
	if len(b) > maxQuick || bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	q := r.quickTables()
	if q.off {
		return false
	}
	for _, e := range q.env {
		if bytes.Contains(b, e.value) {
			return false
		}
	}
	in := func(set *quickSet, k uint32, n int) bool {
		h := quickHash(k, n)
		return set[h/64]&(1<<(h%64)) != 0
	}
	four, three, two := &quickSets[0], &quickSets[1], &quickSets[2]
	for i := 0; i+1 < len(b); i++ {
		k := uint32(load8(b, i))
		if in(two, k, 2) || i+2 < len(b) && in(three, k, 3) || i+3 < len(b) && in(four, k, 4) {
			return false
		}
	}
	return true
}

// ready builds r's tables, once: every path to them goes through process,
// which calls it.
func (r *Redactor) ready() {
	r.build.Do(r.init)
}

// init builds the tables from New's arguments.
func (r *Redactor) init() {
	o := r.opts
	r.env = r.quickTables().env
	bi := builtin()
	r.pats = make([]*pattern, 0, len(bi)+len(o.patterns))
	for i := range bi {
		r.pats = append(r.pats, &bi[i])
	}
	for _, u := range o.patterns {
		r.pats = append(r.pats, u.pattern())
	}
	r.compiled = make([]*regexp.Regexp, len(r.pats))
	r.once = make([]sync.Once, len(r.pats))

	n := len(r.env)
	for _, p := range r.pats {
		n += len(p.triggers)
	}
	r.triggers = make([]trigger, 0, n)
	for i, e := range r.env {
		r.triggers = append(r.triggers, trigger{text: string(e.value), owner: i})
	}
	r.encoded = -1
	for i, p := range r.pats {
		if len(p.triggers) == 0 {
			r.always = append(r.always, i)
		}
		if p.encoded {
			r.encoded = len(r.env) + i
		}
		for _, t := range p.triggers {
			r.triggers = append(r.triggers, trigger{text: t, fold: p.fold, wordStart: p.wordStart, owner: len(r.env) + i})
		}
	}
	r.buildBuckets()
	r.environ, r.opts = nil, options{}
}

// buildBuckets fills the class tables and the buckets of the triggers.
// A folded trigger's bucket is that of its bytes with 0x20 set (a
// lower-case letter for a letter of either case), so that it sits in one
// bucket; a bucket lists its triggers in their order (a counting sort).
func (r *Redactor) buildBuckets() {
	off := &r.bucketOff
	// order sorts the triggers by their first three bytes with 0x20 set,
	// two-byte triggers after the others: the class of a trigger is its
	// rank among the distinct keys of its kind, scaled to the classes of
	// its kind, so that a class holds triggers that start alike and its
	// bytes in class are few. Two-byte triggers pass any third byte: in
	// a class of their own (up to 8 of them) they do not open the others
	// to it. key is the bytes, the first the highest, and 1<<24 for two;
	// the sort counts by key>>16, then sorts each run of one first byte
	// (a few triggers) by insertion.
	nt := len(r.triggers)
	key := make([]uint32, nt)
	order := make([]uint64, nt) // key<<32 | trigger
	var count [512 + 1]int32
	for ti := range r.triggers {
		t := &r.triggers[ti]
		n := min(8, len(t.text))
		var x uint64
		for j := n - 1; j >= 0; j-- {
			x = x<<8 | uint64(t.text[j])
		}
		t.headMask = ^uint64(0) >> (64 - 8*n)
		if t.fold {
			t.headFold = 0x2020202020202020 & t.headMask
		}
		t.head = x | t.headFold
		off[bucketOf(uint32(x), len(t.text) > 2)+1]++
		f := uint32(x | 0x202020)
		key[ti] = f&0xff<<16 | f&0xff00
		if len(t.text) > 2 {
			key[ti] |= f >> 16 & 0xff
		} else {
			key[ti] |= 1 << 24
		}
		count[key[ti]>>16+1]++
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1]
	}
	for ti := range r.triggers {
		c := key[ti] >> 16
		order[count[c]] = uint64(key[ti])<<32 | uint64(ti)
		count[c]++
	}
	for k := 1; k < len(order); k++ {
		e := order[k]
		j := k
		for ; j > 0 && order[j-1] > e; j-- {
			order[j] = order[j-1]
		}
		order[j] = e
	}
	var distinct [2]int // of three bytes or more, of two
	for k, e := range order {
		if k == 0 || e>>32 != order[k-1]>>32 {
			distinct[e>>56]++
		}
	}
	classes := [2]int{64, 0}
	if distinct[1] > 0 {
		classes[1] = min(8, distinct[1])
		classes[0] -= classes[1]
	}
	rank := [2]int{-1, -1}
	var anyThird uint64 // the classes of two-byte triggers
	var bit uint64
	for k, e := range order {
		t := &r.triggers[uint32(e)]
		if k == 0 || e>>32 != order[k-1]>>32 {
			g := e >> 56
			rank[g]++
			bit = 1 << (int(g)*classes[0] + rank[g]*classes[g]/distinct[g])
		}
		for j := range min(3, len(t.text)) {
			c := t.text[j]
			r.class[j][c] |= bit
			if t.fold && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				r.class[j][c^0x20] |= bit
			}
		}
		if len(t.text) == 2 {
			anyThird |= bit
		}
	}
	if anyThird != 0 {
		for c := range r.class[2] {
			r.class[2][c] |= anyThird
		}
	}
	sum := int32(0)
	for k := range off {
		sum += off[k]
		off[k] = sum
	}
	// each trigger goes to the start of its bucket's free part: the
	// offsets move up as they go and end one bucket on, so they are
	// shifted back after
	r.bucketIdx = make([]int32, len(r.triggers))
	for ti := range r.triggers {
		t := &r.triggers[ti]
		q := bucketOf(uint32(t.head), len(t.text) > 2)
		r.bucketIdx[off[q]] = int32(ti)
		off[q]++
	}
	copy(off[1:], off[:len(off)-1])
	off[0] = 0
}

// bucketOf returns the bucket of a trigger that starts with the bytes of
// key (three when three, else two; the first in the low byte).
func bucketOf(key uint32, three bool) uint32 {
	key |= 0x202020
	if three {
		return triHash(key&0xffffff) >> 6
	}
	return pairBucket(key & 0xffff)
}

// cases returns c, and its other case when fold is set and c is a letter,
// in buf.
func cases(c byte, fold bool, buf *[2]byte) []byte {
	buf[0] = c
	if !fold {
		return buf[:1]
	}
	switch {
	case 'a' <= c && c <= 'z':
		buf[1] = c - 'a' + 'A'
	case 'A' <= c && c <= 'Z':
		buf[1] = c - 'A' + 'a'
	default:
		return buf[:1]
	}
	return buf[:2]
}

// envSecrets returns the values of the secret-looking variables in environ,
// longest first.
func envSecrets(environ []string) []envSecret {
	var env []envSecret
	var seen map[string]bool
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !secretName(name) {
			continue
		}
		// A value of several lines is looked for line by line: nothing
		// but a private key spans lines here.
		for _, v := range strings.Split(value, "\n") {
			v = strings.TrimSuffix(v, "\r")
			if len(v) < minEnvValue || seen[v] || !secretEnvValue(v) {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[v] = true
			env = append(env, envSecret{value: []byte(v), replacement: []byte(marker + "env:" + name + "]")})
		}
	}
	slices.SortStableFunc(env, func(a, b envSecret) int { return cmp.Compare(len(b.value), len(a.value)) })
	return env
}

// secretName reports whether an environment variable's name says it holds a
// secret.
func secretName(name string) bool {
	// The common case costs no copy: an ASCII name in upper case already
	// and without a not-word (this runs for every variable of the
	// environment).
	if isASCII(name) {
		n := name
		for i := range len(name) {
			if 'a' <= name[i] && name[i] <= 'z' {
				n = strings.ToUpper(name)
				break
			}
		}
		plain := true
		for _, w := range envNotWords {
			plain = plain && !strings.Contains(n, w)
		}
		if plain {
			for _, w := range envWords {
				if strings.Contains(n, w) {
					return true
				}
			}
			return false
		}
	}
	// strings.ToUpper maps some letters outside ASCII into it (ſ is S)
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

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// secretEnvValue rejects the values of secret-named variables that are not
// secrets: a path (SSH_AUTH_SOCK, XAUTHORITY, GOOGLE_APPLICATION_CREDENTIALS
// name files, which show up in ordinary output) or a placeholder.
func secretEnvValue(v string) bool {
	if strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " +=") && strings.Count(v, "/") >= 2 {
		return false
	}
	return !placeholder([]byte(v))
}

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	b, changed := r.Redact([]byte(s))
	if !changed {
		return s // most text holds no secret: no second copy
	}
	return string(b)
}

// Bytes returns b with every secret replaced. b is never modified; when
// nothing is found the result may be b itself.
func (r *Redactor) Bytes(b []byte) []byte {
	return r.redact(b)
}

// Redact is Bytes that also reports whether anything was replaced.
func (r *Redactor) Redact(b []byte) ([]byte, bool) {
	if r.clean(b) {
		return b, false
	}
	return r.redactFull(b)
}

// redactFull is Redact without the quick answer.
func (r *Redactor) redactFull(b []byte) ([]byte, bool) {
	var st state
	out, changed := r.process(nil, b, 0, len(b), &st, true)
	if !changed {
		return b, false
	}
	return out, true
}

func (r *Redactor) redact(b []byte) []byte {
	out, _ := r.Redact(b)
	return out
}

// replacement is what replaces a span of owner.
func (r *Redactor) replacement(owner int) string {
	switch {
	case owner == ownBlockRest || owner == ownDropped:
		return ""
	case owner == ownBlock:
		return marker + "private-key]"
	case owner < len(r.env):
		return string(r.env[owner].replacement)
	}
	return marker + r.pats[owner-len(r.env)].kind + "]"
}

// A span is text to replace, b[s:e], named after its owner.
type span struct{ s, e, owner int }

// A unit is one line (or piece of a long line): content b[s:e], and the next
// unit starts at n (e+1 after a newline, e after a cut or at the end).
type unit struct{ s, e, n int }

// A hit is a trigger found in unit u: a pattern to run there (owner ≥
// len(env)) or an environment value at b[s:e].
type hit struct {
	u     unit
	owner int
	s, e  int
}

// state carries a private-key block from one call of process to the next.
type state struct {
	inBlock   bool
	body      bool // a base64 line has been seen: no more headers
	pendingNL bool // the newline after the block's last line, held back
	prefix    int  // how far into its line the block's BEGIN armour started
}

// unitAt returns the unit of b holding position i. b starts at a unit start.
func unitAt(b []byte, i int) unit {
	ls := bytes.LastIndexByte(b[:i], '\n') + 1
	le := len(b)
	if n := bytes.IndexByte(b[i:], '\n'); n >= 0 {
		le = i + n
	}
	s := ls
	for {
		c := segCut(b[s:le])
		if i < s+c || s+c == le {
			e := s + c
			n := e
			if e == le && le < len(b) {
				n = le + 1
			}
			return unit{s, e, n}
		}
		s += c
	}
}

// segCut returns the length of the first unit of a line piece: all of it up
// to maxLine, else a cut just after the last separator in the window before
// maxLine (so that a token is not cut in two), else maxLine. It depends only
// on p[:maxLine+1], so a stream can decide it as soon as that has arrived.
func segCut(p []byte) int {
	if len(p) <= maxLine {
		return len(p)
	}
	w := p[maxLine-cutWindow : maxLine]
	if j := bytes.LastIndexAny(w, " \t,;\"'&<>"); j >= 0 {
		return maxLine - cutWindow + j + 1
	}
	return maxLine
}

// completeUnits returns how much of b (which starts at a unit start) is
// whole units: up to the last newline, and then each piece of an unfinished
// line that is followed by more than maxLine+carry bytes (the carry bytes
// after its cut are the seam's, see seams).
func completeUnits(b []byte) int {
	k := bytes.LastIndexByte(b, '\n') + 1
	for len(b)-k > maxLine+carry {
		k += segCut(b[k:])
	}
	return k
}

// seams returns the spans that cross the cuts of the long lines of
// all[lo:hi] (in its offsets), cut to the units on either side of each:
// the part before a cut is named after its secret, the part after it is
// dropped (ownDropped), unless the secret starts after the cut (a label's
// value, the label before it). all[:lo] is text already passed on (the
// end of the piece before, when all[lo:] starts at a cut), all[hi:] text
// still to come (when all[hi:] starts at a cut): each seam is the carry
// bytes of the line on either side of its cut, matched as one line, so
// that a stream that holds them finds what the whole buffer finds.
func (r *Redactor) seams(all []byte, lo, hi int) []span {
	b := all[lo:hi]
	var cuts []int
	if lo > 0 && lo < hi && all[lo-1] != '\n' {
		cuts = append(cuts, 0)
	}
	for p := 0; len(b)-p > maxLine; {
		if i := bytes.LastIndexByte(b[p:p+maxLine+1], '\n'); i >= 0 {
			p += i + 1
			continue
		}
		le := len(b)
		if i := bytes.IndexByte(b[p:], '\n'); i >= 0 {
			le = p + i
		}
		for s := p; le-s > maxLine; {
			s += segCut(b[s:le])
			cuts = append(cuts, s)
		}
		p = le + 1
	}
	if hi > lo && hi < len(all) && all[hi-1] != '\n' {
		cuts = append(cuts, len(b))
	}
	if len(cuts) == 0 {
		return nil // no long line: the common case
	}
	var out []span
	for _, c := range cuts {
		at := lo + c
		ws := max(0, at-carry)
		if i := bytes.LastIndexByte(all[ws:at], '\n'); i >= 0 {
			ws += i + 1
		}
		we := min(len(all), at+carry)
		if i := bytes.IndexByte(all[at:we], '\n'); i >= 0 {
			we = at + i
		}
		for _, sp := range r.lineSpans(all[ws:we]) {
			s, e := ws+sp.s-lo, ws+sp.e-lo // in b
			if e <= c {
				continue // before the cut: its own unit finds it
			}
			owner := sp.owner
			if owner < 0 {
				owner = len(r.env) // a private key: no block opens in a seam
			}
			if s < c {
				if c > 0 {
					out = append(out, span{max(s, 0), c, owner})
				}
				owner, s = ownDropped, c
			}
			if s < len(b) {
				out = append(out, span{s, min(e, len(b)), owner})
			}
		}
	}
	slices.SortFunc(out, func(a, b span) int { return cmp.Compare(a.s, b.s) })
	return out
}

// minCut is the shortest unit that ends at a cut rather than a newline
// (see segCut): a unit starts inside a line only that far from its start.
const minCut = maxLine - cutWindow + 1

// scan finds every trigger in b, in order. A hit counts only when its
// trigger ends inside its unit (never across a cut).
//
// It looks up each byte in the class tables (three loads and two ANDs a
// position, four positions from each 64-bit load, one branch for the
// four): ordinary text passes at a few positions in a hundred, and there
// the bucket holds about one trigger.
func (r *Redactor) scan(b []byte) []hit {
	s := scanner{r: r, b: b, nl: -1}
	c0, c1, c2 := &r.class[0], &r.class[1], &r.class[2]
	i := 0
	for ; i+8 <= len(b); i += 4 {
		x := binary.LittleEndian.Uint64(b[i:])
		b0, b1, b2, b3, b4, b5 := byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40)
		m0 := c0[b0] & c1[b1] & c2[b2]
		m1 := c0[b1] & c1[b2] & c2[b3]
		m2 := c0[b2] & c1[b3] & c2[b4]
		m3 := c0[b3] & c1[b4] & c2[b5]
		if m0|m1|m2|m3 == 0 {
			continue
		}
		for j, m := range [4]uint64{m0, m1, m2, m3} {
			if m != 0 {
				s.at(i+j, uint32(x>>(8*j))&0xffffff, true)
			}
		}
	}
	// the last positions: at looks at each
	for ; i+1 < len(b); i++ {
		three := i+2 < len(b)
		k := uint32(load8(b, i)) & 0xffffff
		if !three {
			k &= 0xffff
		}
		s.at(i, k, three)
	}
	return s.hits
}

// load8 returns the eight bytes of b from i (the first in the low byte),
// zeros past its end.
func load8(b []byte, i int) uint64 {
	if i+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[i:])
	}
	var x uint64
	for j := len(b) - 1; j >= i; j-- {
		x = x<<8 | uint64(b[j])
	}
	return x
}

// A scanner is the state of one scan.
type scanner struct {
	r    *Redactor
	b    []byte
	hits []hit
	cur  unit // the unit of the last hit, when have
	have bool
	// nl is a newline before the current position, or -1 (b starts a
	// unit): a unit starts inside a line only minCut after it
	nl int
	// seen marks the patterns already noted for cur
	seen []uint64
	// run is the last run of a flag's name measured (see
	// pattern.flagRun): b[run[0]:run[1]], in cur; runLong is what
	// flagName said of a name of maxFlagWord bytes or more ending there
	// (it looks at no more), when runKnown
	run               [2]int
	runLong, runKnown bool
}

// at tries the triggers that may start at i, whose first three bytes are
// key (two when not three), in the order of triggers: those
// of three bytes or more from the bucket of key, the others from the
// bucket of its first two.
func (s *scanner) at(i int, key uint32, three bool) {
	r := s.r
	var tl, pl []int32
	if three {
		q := bucketOf(key, true)
		tl = r.bucketIdx[r.bucketOff[q]:r.bucketOff[q+1]]
	}
	q := bucketOf(key&0xffff, false)
	pl = r.bucketIdx[r.bucketOff[q]:r.bucketOff[q+1]]
	x := load8(s.b, i)
	ts := r.triggers
	maybe := func(ti int32) bool {
		t := &ts[ti]
		return (x|t.headFold)&t.headMask == t.head
	}
	for {
		for len(tl) > 0 && !maybe(tl[0]) {
			tl = tl[1:]
		}
		for len(pl) > 0 && !maybe(pl[0]) {
			pl = pl[1:]
		}
		switch {
		case len(tl) > 0 && (len(pl) == 0 || tl[0] < pl[0]):
			s.try(i, tl[0])
			tl = tl[1:]
		case len(pl) > 0:
			s.try(i, pl[0])
			pl = pl[1:]
		default:
			return
		}
	}
}

// try notes trigger ti at i when it is there, ends in its unit and passes
// its pattern's checks. The checks that need no unit come first, so that
// a word such as "path" (the trigger "pat") costs no look for its line.
func (s *scanner) try(i int, ti int32) {
	r, b := s.r, s.b
	t := &r.triggers[ti]
	if !t.at(b, i) {
		return
	}
	inCur := s.have && i < s.cur.n
	pi := t.owner - len(r.env)
	var p *pattern
	if pi >= 0 {
		p = r.pats[pi]
		if inCur && s.seen != nil && s.seen[pi/64]&(1<<(pi%64)) != 0 {
			return
		}
		// a word character before the trigger: only a unit that starts
		// at i (a cut) lets it pass, and none starts within minCut of
		// a newline
		if t.wordStart && !inCur && i > 0 && isWord(b[i-1]) && i < s.nl+1+minCut {
			return
		}
		if p.nearAny && !p.near(b, i) {
			return
		}
	}
	if !inCur {
		s.cur, s.have = unitAt(b, i), true
		if s.cur.n > s.cur.e {
			s.nl = s.cur.e
		}
		clear(s.seen)
	}
	cur := s.cur
	if i+len(t.text) > cur.e {
		return
	}
	if p == nil {
		s.hits = append(s.hits, hit{u: cur, owner: t.owner, s: i, e: i + len(t.text)})
		return
	}
	if t.wordStart && i > cur.s && isWord(b[i-1]) {
		return
	}
	if p.flagRun {
		// a position inside the run measured last has its end
		if k := i + 2; !(s.run[0] <= k && k < s.run[1] && s.run[1] <= cur.e && s.run[0] >= cur.s) {
			s.run = [2]int{k, cur.s + flagEnd(b[cur.s:cur.e], k-cur.s)}
			s.runKnown = false
		}
		name := b[i+2 : s.run[1]]
		if len(name) < maxFlagWord {
			if !flagName(name) {
				return
			}
		} else {
			if !s.runKnown {
				s.runLong, s.runKnown = flagName(name), true
			}
			if !s.runLong {
				return
			}
		}
	} else if p.near != nil && !p.near(b[cur.s:cur.e], i-cur.s) {
		return
	}
	if s.seen == nil {
		s.seen = make([]uint64, (len(r.pats)+63)/64)
	}
	if s.seen[pi/64]&(1<<(pi%64)) != 0 {
		return
	}
	s.seen[pi/64] |= 1 << (pi % 64)
	s.hits = append(s.hits, hit{u: cur, owner: t.owner})
}

func isWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// at reports whether t occurs in b at i.
func (t *trigger) at(b []byte, i int) bool {
	if len(b)-i < len(t.text) {
		return false
	}
	if !t.fold {
		return string(b[i:i+len(t.text)]) == t.text
	}
	for j := range len(t.text) {
		c, d := t.text[j], b[i+j]
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if d != c {
			return false
		}
	}
	return true
}

// process appends the redaction of b = all[from:to] to dst. b starts at
// a unit start and, unless final, ends at a unit end (see completeUnits);
// all[:from] is the text passed on before it and all[to:] the text that
// follows, read only for the seams of the cuts at b's ends (see seams). st
// carries an open private-key block between calls. changed reports whether the output
// differs from b; when it does not and dst is nil, out may be nil (b is the
// output).
//
// The output is made at the first change: until then it is b[:pos], so a
// line whose trigger turns out to hold no secret (password_file, the
// word token in prose) costs no copy.
func (r *Redactor) process(dst, all []byte, from, to int, st *state, final bool) (out []byte, changed bool) {
	r.ready()
	b := all[from:to]
	hits := r.nulHits(b, r.scan(b))
	seams := r.seams(all, from, to)
	si := 0
	// grow makes dst when the first change comes
	grow := func() {
		if dst == nil {
			dst = make([]byte, 0, len(b)+len(b)/16+64)
		}
	}
	var spans []span       // reused by every unit
	var sink *spanSink     // for the hand-written matchers, made on first use
	pos, ns, hi := 0, 0, 0 // output made up to pos; the next unit starts at ns
	changed = st.pendingNL
	for ns < len(b) {
		if st.inBlock {
			u := unitAt(b, ns)
			end, goesOn := r.blockLine(b[u.s:u.e], st)
			switch {
			case goesOn:
				grow()
				dst = append(dst, b[pos:u.s]...)
				st.pendingNL = u.n > u.e
				pos, ns = u.n, u.n
				changed = true
				for hi < len(hits) && hits[hi].u.s < u.n {
					hi++
				}
				for si < len(seams) && seams[si].s < u.n {
					si++
				}
				continue
			case end >= 0:
				st.inBlock, st.pendingNL = false, false
				spans, hi, si = r.unitSpans(&sink, b, u, hits, hi, seams, si, append(spans[:0], span{u.s, u.s + end, ownBlockRest}))
				grow()
				dst = append(dst, b[pos:u.s]...)
				var open int
				dst, open = r.emitSpans(dst, b, u, spans)
				changed = true
				pos, ns = r.afterUnit(u, open, st)
				continue
			default:
				st.inBlock = false
				if st.pendingNL {
					grow()
					dst = append(append(dst, b[pos:u.s]...), '\n')
					pos = u.s
					st.pendingNL = false
				}
			}
		}
		var u unit
		switch {
		case len(r.always) > 0:
			u = unitAt(b, ns)
		case si < len(seams) && (hi >= len(hits) || seams[si].s < hits[hi].u.s):
			u = unitAt(b, seams[si].s)
		case hi < len(hits):
			u = hits[hi].u
		default:
			ns = len(b)
			continue
		}
		spans, hi, si = r.unitSpans(&sink, b, u, hits, hi, seams, si, spans[:0])
		if len(spans) == 0 {
			ns = u.n // nothing to replace: the unit stays in b[pos:]
			continue
		}
		grow()
		dst = append(dst, b[pos:u.s]...)
		var open int
		dst, open = r.emitSpans(dst, b, u, spans)
		changed = true
		pos, ns = r.afterUnit(u, open, st)
	}
	if !changed {
		return dst, false // dst is nil: the caller has b
	}
	grow()
	dst = append(dst, b[pos:]...)
	if final && st.pendingNL {
		dst = append(dst, '\n')
		*st = state{}
	}
	return dst, true
}

// afterUnit returns where processing goes on after unit u; when u opened a
// private-key block, its newline is held back (it goes if the block does).
func (r *Redactor) afterUnit(u unit, open int, st *state) (pos, ns int) {
	if open < 0 {
		return u.e, u.n
	}
	st.inBlock, st.body = true, false
	st.pendingNL = u.n > u.e
	st.prefix = open - u.s
	return u.n, u.n
}

// unitSpans appends to spans what to replace in unit u of b: the
// environment values hit in it, the matches of every pattern hit in it
// (hits from index hi on) and the seams' spans in it (from index si on),
// merged. It returns the index of the first hit and of the first seam
// span past u.
func (r *Redactor) unitSpans(sink **spanSink, b []byte, u unit, hits []hit, hi int, seams []span, si int, spans []span) ([]span, int, int) {
	for ; si < len(seams) && seams[si].s < u.e; si++ {
		if seams[si].s >= u.s {
			spans = append(spans, seams[si])
		}
	}
	line := b[u.s:u.e]
	for ; hi < len(hits) && hits[hi].u.s == u.s; hi++ {
		h := hits[hi]
		if h.owner < len(r.env) {
			spans = append(spans, span{h.s, h.e, h.owner})
			continue
		}
		spans = r.run(sink, spans, line, u.s, h.owner-len(r.env))
	}
	for _, pi := range r.always {
		spans = r.run(sink, spans, line, u.s, pi)
	}
	return merge(spans), hi, si
}

// emitSpans appends unit u of b to dst with spans replaced, and where a
// private-key block that goes on to the next line starts in u (-1: none).
func (r *Redactor) emitSpans(dst, b []byte, u unit, spans []span) ([]byte, int) {
	open := -1
	last := u.s
	for _, sp := range spans {
		dst = append(dst, b[last:sp.s]...)
		rep := r.replacement(sp.owner)
		if rep != "" && sp.s > last && b[sp.s-1] == 0x1b {
			// an ESC just before the marker would read its '[' as the
			// start of an escape sequence, and a second pass would find
			// a secret in the rest: the ESC goes with the secret
			dst = dst[:len(dst)-1]
		}
		dst = append(dst, rep...)
		last = sp.e
		if sp.owner == ownBlock && sp.e == u.e {
			open = sp.s
		}
	}
	return append(dst, b[last:u.e]...), open
}

// run appends pattern pi's spans in line (which starts at offset off of the
// input). A hand-written matcher gets *sink, made on first use and kept
// for a whole process: one made at each call would go to the heap.
func (r *Redactor) run(sink **spanSink, spans []span, line []byte, off, pi int) []span {
	p := r.pats[pi]
	owner := len(r.env) + pi
	if p.scan != nil {
		if *sink == nil {
			*sink = new(spanSink)
		}
		sink := *sink
		*sink = spanSink{spans: spans, off: off, owner: owner}
		p.scan(r, line, sink)
		spans = sink.spans
		sink.spans = nil
		return spans
	}
	if p.pre != nil && !p.pre(line) {
		return spans
	}
	return p.find(r.regexp(pi), spans, line, off, owner)
}

// A spanSink collects what a hand-written matcher finds in a line.
type spanSink struct {
	spans      []span
	off, owner int
}

// add records line[s:e]; with open, a private-key block that goes on to
// the next line.
func (k *spanSink) add(s, e int, open bool) {
	o := k.owner
	if open {
		o = ownBlock
	}
	k.spans = append(k.spans, span{k.off + s, k.off + e, o})
}

// addOwner records line[s:e] as a secret of owner (an encoded line's
// matcher names what it found in the plain form).
func (k *spanSink) addOwner(s, e, owner int) {
	k.spans = append(k.spans, span{k.off + s, k.off + e, owner})
}

// find appends p's spans in b (which starts at offset off of the input).
func (p *pattern) find(re *regexp.Regexp, spans []span, b []byte, off, owner int) []span {
	names := re.SubexpNames()
	for _, m := range re.FindAllSubmatchIndex(b, -1) {
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
			if s < 0 || s == e || insideMarker(b, s) || !p.accept(b[s:e]) {
				continue
			}
			spans = append(spans, span{off + s, off + e, owner})
		}
		if !grouped && m[0] < m[1] && p.accept(b[m[0]:m[1]]) {
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

// insideMarker reports whether position i of b falls inside a complete
// marker ("[REDACTED:github]" holds a ':' that looks like a label's
// separator). Only a well-formed, closed marker counts, so that text made to
// look like the start of one cannot hide a secret.
func insideMarker(b []byte, i int) bool {
	// A marker is short: look back no further than the longest one.
	w := b[max(0, i-maxMarker):i]
	if bytes.IndexByte(w, '[') < 0 {
		return false // the common case, found with a vector search
	}
	m := bytes.LastIndex(w, []byte(marker))
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
