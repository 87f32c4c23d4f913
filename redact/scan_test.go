package redact

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// refTables are the lookup tables scan used before triggers were bucketed
// by their first three bytes: every trigger in 1024 buckets hashed on its
// first two bytes, behind a bitmap of those pairs and a hashed one of the
// first three bytes. They are built from r.triggers, in their order.
type refTables struct {
	pairIdx   []int32
	pairOff   [1024 + 1]int32
	pairs     [1 << 16 / 64]uint64
	trigrams  [1 << 16 / 64]uint64
	pairsOpen [1 << 16 / 64]uint64
}

func refPairBucket(a, b byte) int {
	return int((uint32(a)<<8|uint32(b))*0x9E3779B1>>22) & 1023
}

func refTrigram(a, b, c byte) uint32 {
	return (uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9E3779B1 >> 16
}

func newRefTables(r *Redactor) *refTables {
	r.ready()
	rt := &refTables{}
	var entries [][2]int32
	for idx, t := range r.triggers {
		var fa, fb, fc [2]byte
		firsts, seconds := cases(t.text[0], t.fold, &fa), cases(t.text[1], t.fold, &fb)
		var thirds []byte
		if len(t.text) > 2 {
			thirds = cases(t.text[2], t.fold, &fc)
		}
		for _, a := range firsts {
			for _, b := range seconds {
				entries = append(entries, [2]int32{int32(refPairBucket(a, b)), int32(idx)})
				k := uint(a)<<8 | uint(b)
				rt.pairs[k/64] |= 1 << (k % 64)
				if thirds == nil {
					rt.pairsOpen[k/64] |= 1 << (k % 64)
				}
				for _, c := range thirds {
					h := refTrigram(a, b, c)
					rt.trigrams[h/64] |= 1 << (h % 64)
				}
			}
		}
	}
	for _, e := range entries {
		rt.pairOff[e[0]+1]++
	}
	for k := 1; k < len(rt.pairOff); k++ {
		rt.pairOff[k] += rt.pairOff[k-1]
	}
	rt.pairIdx = make([]int32, len(entries))
	var fill [len(rt.pairOff)]int32
	for _, e := range entries {
		k := e[0]
		rt.pairIdx[rt.pairOff[k]+fill[k]] = e[1]
		fill[k]++
	}
	return rt
}

// scanReference is scan as it was before the trigram buckets, kept to
// prove that the faster scan finds exactly the same hits.
func scanReference(r *Redactor, rt *refTables, b []byte) []hit {
	var hits []hit
	var cur unit
	have := false
	var seen []uint64
	pairs, trigrams, open := &rt.pairs, &rt.trigrams, &rt.pairsOpen
	for i := 0; i+1 < len(b); i++ {
		k := uint(b[i])<<8 | uint(b[i+1])
		if pairs[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		if i+2 < len(b) && open[k/64]&(1<<(k%64)) == 0 {
			if h := refTrigram(b[i], b[i+1], b[i+2]); trigrams[h/64]&(1<<(h%64)) == 0 {
				continue
			}
		}
		pb := refPairBucket(b[i], b[i+1])
		for _, ti := range rt.pairIdx[rt.pairOff[pb]:rt.pairOff[pb+1]] {
			t := &r.triggers[ti]
			if !t.at(b, i) {
				continue
			}
			if !have || i >= cur.n {
				cur, have = unitAt(b, i), true
				clear(seen)
			}
			if i+len(t.text) > cur.e {
				continue
			}
			if t.owner < len(r.env) {
				hits = append(hits, hit{u: cur, owner: t.owner, s: i, e: i + len(t.text)})
				continue
			}
			if t.wordStart && i > cur.s && isWord(b[i-1]) {
				continue
			}
			p := r.pats[t.owner-len(r.env)]
			if p.near != nil && !p.near(b[cur.s:cur.e], i-cur.s) {
				continue
			}
			pi := t.owner - len(r.env)
			if seen == nil {
				seen = make([]uint64, (len(r.pats)+63)/64)
			}
			if seen[pi/64]&(1<<(pi%64)) != 0 {
				continue
			}
			seen[pi/64] |= 1 << (pi % 64)
			hits = append(hits, hit{u: cur, owner: t.owner})
		}
	}
	return hits
}

// streamWith redacts b as a Stream does, in writes of n bytes, with
// process p; it returns the output and whether anything changed.
func streamWith(b []byte, n int, p func(all []byte, from, to int, st *state, final bool) ([]byte, bool)) ([]byte, bool) {
	var out, buf []byte
	var st state
	back := 0
	any := false
	flush := func(k int, final bool) {
		o, changed := p(buf, back, k, &st, final)
		if !changed {
			o = buf[back:k]
		}
		any = any || changed
		out = append(out, o...)
		keep := 0
		if k > back && buf[k-1] != '\n' {
			keep = min(k, carry)
		}
		buf = buf[:copy(buf, buf[k-keep:])]
		back = keep
	}
	for off := 0; off < len(b); off += n {
		buf = append(buf, b[off:min(off+n, len(b))]...)
		if k := completeUnits(buf[back:]); k > 0 {
			flush(back+k, false)
		}
	}
	flush(len(buf), true)
	return out, any
}

// diffProcess reports the first difference between process and
// processReference on b, whole and in writes of n bytes, or "".
func diffProcess(r *Redactor, rt *refTables, b []byte, n int) string {
	var st, rst state
	got, gc := r.process(nil, b, 0, len(b), &st, true)
	want, wc := processReference(r, rt, nil, b, 0, len(b), &rst, true)
	if gc != wc || gc && !bytes.Equal(got, want) {
		return fmt.Sprintf("whole: changed %v, want %v:\n%s", gc, wc, lineDiff(want, got))
	}
	got, gc = streamWith(b, n, func(all []byte, from, to int, st *state, final bool) ([]byte, bool) {
		return r.process(nil, all, from, to, st, final)
	})
	want, wc = streamWith(b, n, func(all []byte, from, to int, st *state, final bool) ([]byte, bool) {
		return processReference(r, rt, nil, all, from, to, st, final)
	})
	if gc != wc || !bytes.Equal(got, want) {
		return fmt.Sprintf("in writes of %d: changed %v, want %v:\n%s", n, gc, wc, lineDiff(want, got))
	}
	return ""
}

// diffScan reports the first difference between scan and scanReference on
// b, or "".
func diffScan(r *Redactor, rt *refTables, b []byte) string {
	got, want := r.scan(b), scanReference(r, rt, b)
	if slices.Equal(got, want) {
		return ""
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("hit %d of %d/%d: got %+v, want %+v", i, len(got), len(want), got[i], want[i])
		}
	}
	return fmt.Sprintf("got %d hits, want %d", len(got), len(want))
}

// scanRedactors are redactors with environment secrets and user patterns
// of every shape (two-byte prefixes, folded, literal) beside the table.
func scanRedactors() []*Redactor {
	return []*Redactor{
		New(nil),
		New([]string{"GITHUB_TOKEN=" + ghp, "AWS_SECRET_ACCESS_KEY=" + awsSecret, "X_TOKEN=envsecretvalue99", "MY_PASSWORD=path=/api/v1/items"},
			WithPatterns(`ab[0-9]+`, `(?i)zq-[a-z]+`, `Mx[0-9]{4}`, `inter(nal`, `(?i)id=[0-9]+`, `[a-z]+@example\.com`, `--x`, `pa`)),
	}
}

// scanTexts are the benchmark inputs, the corpus and the test tables.
func scanTexts(t *testing.T) map[string][]byte {
	texts := benchInputs()
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			texts[filepath.Base(file)+"/"+f.Name] = f.Data
		}
	}
	texts["seeds"] = []byte(strings.Join(streamSeeds(), "\n"))
	return texts
}

// TestScanEqualsReference runs scan and scanReference over the benchmark
// inputs, the corpus and the test tables, whole and cut at odd places
// (a buffer may end inside a trigger), and over long lines that are cut
// into units.
func TestScanEqualsReference(t *testing.T) {
	for ri, r := range scanRedactors() {
		rt := newRefTables(r)
		for name, text := range scanTexts(t) {
			if d := diffScan(r, rt, text); d != "" {
				t.Errorf("redactor %d, %s: %s", ri, name, d)
			}
			if d := diffProcess(r, rt, text, 4096); d != "" {
				t.Errorf("redactor %d, %s: %s", ri, name, d)
			}
			text = text[:min(len(text), 96<<10)] // cut: a part is enough
			for _, n := range []int{1, 2, 3, 4, 5, 17, 4093} {
				if n < len(text) {
					if d := diffScan(r, rt, text[:len(text)-n]); d != "" {
						t.Errorf("redactor %d, %s less %d bytes: %s", ri, name, n, d)
					}
					if d := diffScan(r, rt, text[n:]); d != "" {
						t.Errorf("redactor %d, %s from %d: %s", ri, name, n, d)
					}
				}
			}
		}
		// runs of dashes and flags, which scan measures once a run
		for _, text := range []string{strings.Repeat("-", 3000), strings.Repeat("--x", 1000) + "--password=1\n" + strings.Repeat("-", 79) + "\n",
			"a --token--x --pass--word=2 --no-password --api_KEY x\n--\n---\n-- --secret", strings.Repeat("--pass", 500) + " --x\n"} {
			if d := diffScan(r, rt, []byte(text)); d != "" {
				t.Errorf("redactor %d, flags %q: %s", ri, text[:10], d)
			}
			if d := diffProcess(r, rt, []byte(text), 100); d != "" {
				t.Errorf("redactor %d, flags %q: %s", ri, text[:10], d)
			}
		}
		// a trigger that must start a word, right at a cut after a word
		// character (the cut starts its unit, so it counts), and one
		// byte off
		for _, at := range []string{"pat" + strings.Repeat("a", 14) + "." + strings.Repeat("0f", 32), "AKIA" + strings.Repeat("Q", 16), "MT" + strings.Repeat("x", 22) + ".abcdef." + strings.Repeat("y", 27)} {
			for _, n := range []int{maxLine - 1, maxLine, maxLine + 1} {
				for _, pre := range []string{"", "a\n", strings.Repeat("b", 3000) + "\n"} {
					text := []byte(pre + strings.Repeat("x", n) + at + " tail\n")
					if d := diffScan(r, rt, text); d != "" {
						t.Errorf("redactor %d, %q at %d: %s", ri, at[:4], n, d)
					}
				}
			}
		}
		// lines longer than maxLine, cut with and without separators, so
		// that units start right after a word character
		for _, fill := range []string{"x", "ab ", "pat", "MTxxxxxxxxxxxxxxxxxxxxxx.", "--pass ", "secretpatMT-ghp_"} {
			long := strings.Repeat(fill, 3*maxLine/len(fill))
			for _, text := range []string{long, "a\n" + long, long + "\n" + long, "patxxxxxxxxxxxxxx." + long, long + "pat\nsecret_x pat" + long} {
				if d := diffScan(r, rt, []byte(text)); d != "" {
					t.Errorf("redactor %d, long line of %q: %s", ri, fill, d)
				}
				if ri > 0 {
					continue // the user's expressions run slowly on 64 KiB units
				}
				if d := diffProcess(r, rt, []byte(text), 40000); d != "" {
					t.Errorf("redactor %d, long line of %q: %s", ri, fill, d)
				}
			}
		}
	}
}

// TestScanRandom runs scan and scanReference over random texts made of
// trigger texts (in both cases), their pieces and separators.
func TestScanRandom(t *testing.T) {
	seps := []string{" ", "\n", "\t", "=", ":", ".", "_", "-", "/", "\"", "x", "7", "\r\n", "A", "-----BEGIN " + "PRIVATE KEY-----\n", "-----END " + "PRIVATE KEY-----", pemBody, "\n\n", ghp, "://u:p@h", "password=hunter2 ",
		// the encoded spellings and the attribute forms
		"\x1b[1m", "\x1b]8;;", "\x00", utf16(ghp[:8]), "6768705f", "414b4941494f53464f444e4e", ` value="`, ` key="ClearTextPassword"`, "SECRET_KEY=", "$%^&*("}
	for ri, r := range scanRedactors() {
		rt := newRefTables(r)
		var words []string
		for _, tr := range r.triggers {
			words = append(words, tr.text, strings.ToUpper(tr.text), tr.text[:len(tr.text)-1], tr.text[1:])
		}
		rng := rand.New(rand.NewPCG(1, uint64(ri)))
		for n := range 3000 {
			var sb strings.Builder
			for range rng.IntN(40) {
				if rng.IntN(3) == 0 {
					sb.WriteString(seps[rng.IntN(len(seps))])
				} else {
					sb.WriteString(words[rng.IntN(len(words))])
				}
				if rng.IntN(2) == 0 {
					sb.WriteString(seps[rng.IntN(len(seps))])
				}
			}
			text := []byte(sb.String())
			if d := diffScan(r, rt, text); d != "" {
				t.Fatalf("redactor %d, text %d %q: %s", ri, n, text, d)
			}
			if d := diffProcess(r, rt, text, 1+n%7); d != "" {
				t.Fatalf("redactor %d, text %d %q: %s", ri, n, text, d)
			}
		}
	}
}

// FuzzScan compares scan with scanReference on any text.
func FuzzScan(f *testing.F) {
	for _, s := range streamSeeds() {
		f.Add(s)
	}
	f.Add("path=/x pat " + strings.Repeat("a", 14) + ".x MTxxxxxxxxxxxxxxxxxxxxxxxx.y --password=x")
	rs := scanRedactors()
	rts := make([]*refTables, len(rs))
	for i, r := range rs {
		rts[i] = newRefTables(r)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for i, r := range rs {
			if d := diffScan(r, rts[i], []byte(text)); d != "" {
				t.Fatalf("redactor %d: %s", i, d)
			}
			if d := diffProcess(r, rts[i], []byte(text), 1+len(text)%5); d != "" {
				t.Fatalf("redactor %d: %s", i, d)
			}
		}
	})
}

// processReference is process as it was before it made its output only
// at the first change. process appends the redaction of b to dst. b starts at a unit start and,
// unless final, ends at a unit end (see completeUnits); st carries an open
// private-key block between calls. changed reports whether the output
// differs from b; when it does not and dst is nil, out may be nil (b is the
// output).
//
// It takes the seams' spans (see seams) as process does: they are new
// since, and shared.
func processReference(r *Redactor, rt *refTables, dst, all []byte, from, to int, st *state, final bool) (out []byte, changed bool) {
	b := all[from:to]
	hits := r.nulHits(b, scanReference(r, rt, b))
	seams := r.seams(all, from, to)
	si := 0
	if dst == nil && (len(hits) > 0 || len(r.always) > 0 || st.inBlock || len(seams) > 0) {
		dst = make([]byte, 0, len(b)+len(b)/16+64)
	}
	var scratch []span     // reused by every unit
	pos, ns, hi := 0, 0, 0 // copied up to pos; the next unit starts at ns
	changed = st.pendingNL
	for ns < len(b) {
		if st.inBlock {
			u := unitAt(b, ns)
			end, goesOn := r.blockLine(b[u.s:u.e], st)
			switch {
			case goesOn:
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
				scratch = append(scratch[:0], span{u.s, u.s + end, ownBlockRest})
				var open int
				dst, hi, si, open, _ = emitUnitReference(r, dst, b, u, hits, hi, seams, si, scratch)
				changed = true
				pos, ns = r.afterUnit(u, open, st)
				continue
			default:
				st.inBlock = false
				if st.pendingNL {
					dst = append(dst, '\n')
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
			if dst == nil && !changed {
				return nil, false // the caller has b
			}
			return append(dst, b[pos:]...), changed
		}
		dst = append(dst, b[pos:u.s]...)
		var open int
		var did bool
		dst, hi, si, open, did = emitUnitReference(r, dst, b, u, hits, hi, seams, si, scratch[:0])
		changed = changed || did
		pos, ns = r.afterUnit(u, open, st)
	}
	dst = append(dst, b[pos:]...)
	if final && st.pendingNL {
		dst = append(dst, '\n')
		*st = state{}
	}
	return dst, changed
}

// emitUnitReference is emitUnit as it was: it appends unit u of b, redacted, to dst: the spans given, the
// environment values hit in it, and the matches of every pattern hit in it
// (hits from index hi on). It returns the index of the first hit past u,
// where a private-key block that goes on to the next line starts in u (-1:
// none), and whether anything was replaced.
func emitUnitReference(r *Redactor, dst, b []byte, u unit, hits []hit, hi int, seams []span, si int, spans []span) ([]byte, int, int, int, bool) {
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
		spans = r.run(new(*spanSink), spans, line, u.s, h.owner-len(r.env))
	}
	for _, pi := range r.always {
		spans = r.run(new(*spanSink), spans, line, u.s, pi)
	}
	spans = merge(spans)
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
	return append(dst, b[last:u.e]...), hi, si, open, len(spans) > 0
}

// TestLabelNameLastLetter checks labelName's shortcut: every labelWord
// ends in a letter it lets through.
func TestLabelNameLastLetter(t *testing.T) {
	for _, w := range labelWords {
		for _, name := range []string{w, strings.ToUpper(w), "db_" + w + "_", "x." + w + "-"} {
			if !labelName([]byte(name)) {
				t.Errorf("labelName(%q) = false", name)
			}
		}
	}
	for _, name := range []string{"", "_", "-._", "name", "tokens", "passwordx"} {
		if labelName([]byte(name)) {
			t.Errorf("labelName(%q) = true", name)
		}
	}
}

// flagNearReference is flagNear as it was, with a lower-case copy.
func flagNearReference(line []byte, i int) bool {
	j := i + 2
	for j < len(line) && (isWord(line[j]) || line[j] == '-') {
		j++
	}
	name := bytes.ToLower(line[i+2 : j])
	for _, w := range flagWords {
		if bytes.HasSuffix(name, []byte(w)) {
			return true
		}
	}
	return false
}

// TestFlagNear compares flagNear with flagNearReference on random flags.
func TestFlagNear(t *testing.T) {
	for _, w := range flagWords {
		if len(w) > maxFlagWord {
			t.Fatalf("flag word %q is longer than maxFlagWord", w)
		}
	}
	parts := []string{"-", "pass", "PASS", "word", "Token", "key", "KEY", "api_", "x", "=", " ", "secret", "é", "K", "\u212a"}
	rng := rand.New(rand.NewPCG(2, 3))
	for range 20000 {
		var sb strings.Builder
		sb.WriteString("--")
		for range rng.IntN(6) {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		line := []byte(sb.String())
		if got, want := flagNear(line, 0), flagNearReference(line, 0); got != want {
			t.Fatalf("flagNear(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestPre checks that a pattern's pre check holds on every line where its
// expression matches: the lines of the corpus, the test tables and the
// benchmark inputs, and lines made of tokens of every length.
func TestPre(t *testing.T) {
	var lines [][]byte
	for _, text := range scanTexts(t) {
		lines = append(lines, bytes.Split(text[:min(len(text), 256<<10)], []byte("\n"))...)
	}
	rng := rand.New(rand.NewPCG(4, 5))
	sets := []string{"0123456789abcdef", "0123456789abcdefABCDEFxyz", "0123456789abcdefABCDEFxyz_. \t"}
	for range 5000 {
		chars := sets[rng.IntN(len(sets))]
		tok := make([]byte, rng.IntN(90))
		for i := range tok {
			tok[i] = chars[rng.IntN(len(chars))]
		}
		if len(tok) > 20 && rng.IntN(2) == 0 {
			tok[14] = '.' // airtable: pat, 14 letters or digits, a dot
		}
		for _, p := range []string{"key-", "pat", "ntn_", "secret_", "password ", "  password\t", "machine h login u password ", " login u password "} {
			lines = append(lines, append([]byte(p), tok...), append([]byte("x "+p), tok...))
		}
	}
	r := New(nil)
	for i, p := range r.pats {
		if p.pre == nil {
			continue
		}
		re := r.regexp(i)
		n := 0
		for _, line := range lines {
			if re.Match(line) {
				n++
				if !p.pre(line) {
					t.Errorf("%s: pre turns away %q, where %s matches", p.kind, line, p.expr)
				}
			}
		}
		if n < 5 {
			t.Errorf("%s: only %d lines match %s", p.kind, n, p.expr)
		}
	}
}

// scanLabelsReference is scanLabels as it was before it jumped from one
// separator to the next with a vector search: it tries labelAt at every
// ':' and '='.
func scanLabelsReference(_ *Redactor, line []byte, sink *spanSink) {
	scanLinePrefixes(line, sink)
	for j := 0; j < len(line); j++ {
		c := line[j]
		if c != ':' && c != '=' {
			continue
		}
		if j = labelAt(line, j, sink); j < 0 {
			return
		}
	}
}

// TestScanLabels compares scanLabels with scanLabelsReference on the lines
// of the corpus, the test tables and the benchmark inputs, and on random
// lines of labels, separators and values.
func TestScanLabels(t *testing.T) {
	var lines [][]byte
	for _, text := range scanTexts(t) {
		lines = append(lines, bytes.Split(text[:min(len(text), 256<<10)], []byte("\n"))...)
	}
	parts := []string{"password", "api_key", "token", "secret", ":", "=", ": ", " = ", ":=", "==", "::", "\"", "'", "\\\"", " ", "\t", "x", "hunter2", "${X}", "/", "-", "&", "#", ",", "[REDACTED:x]", "- ", "export ", "self.", "key", "API Key"}
	rng := rand.New(rand.NewPCG(6, 7))
	for range 20000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		lines = append(lines, []byte(sb.String()))
	}
	found := 0
	for _, line := range lines {
		var got, want spanSink
		scanLabels(nil, line, &got)
		scanLabelsReference(nil, line, &want)
		if !slices.Equal(got.spans, want.spans) {
			t.Fatalf("scanLabels(%q) = %v, want %v", line, got.spans, want.spans)
		}
		if len(want.spans) > 0 {
			found++
		}
	}
	if found < 500 {
		t.Errorf("only %d lines hold a label's value", found)
	}
}
