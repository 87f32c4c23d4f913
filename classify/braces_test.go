package classify

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The brace and arithmetic evaluators replaced mvdan.cc/sh/v3/expand's
// (kept out of the guard binary for its start-up cost); these tests hold
// them to expand's results, which follow bash.

var braceSeeds = []string{
	"a{b,c}d", "{a,b}{c,d}", "x{1..3}", "{3..1}", "{1..10..3}", "{10..1..-3}",
	"{01..10}", "{-3..3}", "{-05..5..5}", "{a..e}", "{e..a..2}", "/{etc,usr}/{passwd,bin}",
	"{a,{b,c}}", "{,x}", "pre{a,\"b c\",$x}post", "{1..3}{a..b}", "{a..5}", "{1..a}",
	"rm{,} -rf /", "{0x1..3}", "{1..2..0}", "plain", "{}", "{a}", "a{b,c",
}

func braceWords(t testing.TB, src string, mine bool) ([]string, bool) {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader("echo "+src), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 {
		return nil, false
	}
	var out []string
	for _, w := range call.Args[1:] {
		syntax.SplitBraces(w)
		var words []*syntax.Word
		if mine {
			expandBraces(w, func(bw *syntax.Word) bool {
				words = append(words, bw)
				return len(words) <= 1000
			})
			if len(words) > 1000 {
				return nil, false
			}
		} else {
			for bw, err := range expand.BracesSeq(nil, w) {
				if err != nil || len(words) >= 1000 {
					return nil, false
				}
				words = append(words, bw)
			}
		}
		for _, bw := range words {
			var sb strings.Builder
			syntax.NewPrinter().Print(&sb, bw)
			out = append(out, sb.String())
		}
	}
	return out, true
}

func checkBraces(t *testing.T, src string) bool {
	want, ok := braceWords(t, src, false)
	if !ok {
		return false
	}
	got, ok := braceWords(t, src, true)
	if !ok || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("braces %q: got %q, want (expand) %q", src, got, want)
	}
	return true
}

func TestBracesMatchExpand(t *testing.T) {
	n := 0
	for _, src := range braceSeeds {
		if checkBraces(t, src) {
			n++
		}
	}
	if n < len(braceSeeds)-2 {
		t.Errorf("only %d of %d seeds were compared", n, len(braceSeeds))
	}
}

func FuzzBracesMatchExpand(f *testing.F) {
	for _, s := range braceSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 64 || strings.ContainsAny(src, "\n;&|<>()`") {
			return
		}
		checkBraces(t, src)
	})
}

var arithSeeds = []string{
	"1+2*3", "(1+2)*3", "7/2", "-7/2", "7%3", "-7%3", "2**10", "2**-1", "1/0", "1%0",
	"010", "0x1f", "0X1F", "2#101", "36#zz", "64#@_", "1<<3", "-8>>1", "5&3", "5|3", "5^3",
	"~5", "!0", "!7", "-(3)", "+3", "1==1", "1!=1", "1<2", "2<=1", "3>2", "3>=4",
	"0&&1/0", "1||1/0", "1&&2", "0||0", "1?2:3", "0?2:3", "1,2", "9223372036854775807+1",
	"65#1", "1#1", "08", "0x", "3#22",
}

func checkArith(t *testing.T, src string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader("echo $(("+src+"))"), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 || len(call.Args[1].Parts) != 1 {
		return false
	}
	ae, ok := call.Args[1].Parts[0].(*syntax.ArithmExp)
	if !ok {
		return false
	}
	if _, ok := constArith(ae.X); !ok {
		return false // only constant expressions are ever evaluated
	}
	want, werr := expand.Arithm(&expand.Config{}, ae.X)
	got, gerr := evalArith(ae.X)
	if (werr == nil) != (gerr == nil) || (werr == nil && got != want) {
		t.Errorf("$((%s)): got %d, %v; want (expand) %d, %v", src, got, gerr, want, werr)
	}
	return true
}

func TestArithMatchesExpand(t *testing.T) {
	n := 0
	for _, src := range arithSeeds {
		if checkArith(t, src) {
			n++
		}
	}
	if n < len(arithSeeds)-12 { // constArith refuses BASE#, 08, overflow
		t.Errorf("only %d of %d seeds were compared", n, len(arithSeeds))
	}
}

func FuzzArithMatchesExpand(f *testing.F) {
	for _, s := range arithSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 64 || strings.ContainsAny(src, "\n`$") {
			return
		}
		checkArith(t, src)
	})
}
