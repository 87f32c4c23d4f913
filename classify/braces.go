package classify

import (
	"errors"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Brace expansion and constant arithmetic, as bash does them. classify used
// mvdan.cc/sh/v3/expand for both; that package compiles regular expressions
// and reads the environment when it is initialised, which every guard run
// paid for (about 0.03 ms) to use two small functions. The tests check both
// against expand, word for word and value for value.

// expandBraces calls yield with each word that brace expansion makes of
// word (after syntax.SplitBraces), left to right as bash prints them; the
// words may share parts. It returns false when yield stopped it.
func expandBraces(word *syntax.Word, yield func(*syntax.Word) bool) bool {
	for i, wp := range word.Parts {
		br, ok := wp.(*syntax.BraceExp)
		if !ok {
			continue
		}
		left, rest := word.Parts[:i:i], word.Parts[i+1:]
		each := func(mid []syntax.WordPart) bool {
			parts := make([]syntax.WordPart, 0, len(mid)+len(rest))
			next := &syntax.Word{Parts: append(append(parts, mid...), rest...)}
			return expandBraces(next, func(w *syntax.Word) bool {
				w.Parts = append(left[:len(left):len(left)], w.Parts...)
				return yield(w)
			})
		}
		if !br.Sequence {
			for _, e := range br.Elems {
				if !each(e.Parts) {
					return false
				}
			}
			return true
		}
		return braceSequence(br, func(s string) bool {
			return each([]syntax.WordPart{&syntax.Lit{Value: s}})
		})
	}
	return yield(&syntax.Word{Parts: word.Parts})
}

// braceSequence yields the members of {FROM..TO[..STEP]}: integers (padded
// to the wider end when either end has a leading zero) or single
// characters. The step's sign is ignored: the direction comes from the ends.
func braceSequence(br *syntax.BraceExp, yield func(string) bool) bool {
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	chars := err1 != nil || err2 != nil
	if chars {
		if fromLit == "" || toLit == "" {
			return true
		}
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	width := 0
	if !chars && (leadingZero(fromLit) || leadingZero(toLit)) {
		width = max(len(fromLit), len(toLit))
	}
	step := int64(1)
	if len(br.Elems) > 2 {
		if n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64); n != 0 {
			step = n
			if step < 0 {
				step = -step
			}
		}
	}
	up := from <= to
	if !up {
		step = -step
	}
	for n := from; (up && n <= to) || (!up && n >= to); n += step {
		var s string
		switch {
		case chars:
			s = string(rune(n))
		case width > 0:
			s = padInt(n, width)
		default:
			s = strconv.FormatInt(n, 10)
		}
		if !yield(s) {
			return false
		}
		if (up && n > to-step) || (!up && n < to-step) {
			break // the next step would overflow past to
		}
	}
	return true
}

func leadingZero(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// padInt is n in decimal, zero-padded to width characters (the sign
// counts, as printf's %0*d counts it).
func padInt(n int64, width int) string {
	digits := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		digits = digits[1:]
	}
	pad := width - len(digits)
	if neg {
		pad--
	}
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for ; pad > 0; pad-- {
		sb.WriteByte('0')
	}
	sb.WriteString(digits)
	return sb.String()
}

var errArith = errors.New("arithmetic error")

// evalArith evaluates an arithmetic expression that constArith found
// constant (numbers and operators only), with bash's 64-bit integers.
// Division by zero and a negative exponent are errors, as in bash.
func evalArith(x syntax.ArithmExpr) (int, error) {
	switch x := x.(type) {
	case *syntax.Word:
		return int(arithNumber(x.Lit())), nil
	case *syntax.ParenArithm:
		return evalArith(x.X)
	case *syntax.UnaryArithm:
		v, err := evalArith(x.X)
		if err != nil {
			return 0, err
		}
		switch x.Op {
		case syntax.Not:
			return boolInt(v == 0), nil
		case syntax.BitNegation:
			return ^v, nil
		case syntax.Plus:
			return v, nil
		case syntax.Minus:
			return -v, nil
		}
		return 0, errArith
	case *syntax.BinaryArithm:
		return evalBinary(x)
	}
	return 0, errArith
}

func evalBinary(x *syntax.BinaryArithm) (int, error) {
	l, err := evalArith(x.X)
	if err != nil {
		return 0, err
	}
	switch x.Op {
	case syntax.TernQuest:
		alt, ok := x.Y.(*syntax.BinaryArithm)
		if !ok || alt.Op != syntax.TernColon {
			return 0, errArith
		}
		if l != 0 {
			return evalArith(alt.X)
		}
		return evalArith(alt.Y)
	case syntax.AndArit:
		if l == 0 {
			return 0, nil
		}
	case syntax.OrArit:
		if l != 0 {
			return 1, nil
		}
	}
	r, err := evalArith(x.Y)
	if err != nil {
		return 0, err
	}
	switch x.Op {
	case syntax.AndArit, syntax.OrArit:
		return boolInt(r != 0), nil
	case syntax.Add:
		return l + r, nil
	case syntax.Sub:
		return l - r, nil
	case syntax.Mul:
		return l * r, nil
	case syntax.Quo, syntax.Rem:
		if r == 0 {
			return 0, errArith
		}
		if x.Op == syntax.Quo {
			return l / r, nil
		}
		return l % r, nil
	case syntax.Pow:
		if r < 0 {
			return 0, errArith
		}
		p := 1
		for ; r > 0; r >>= 1 {
			if r&1 != 0 {
				p *= l
			}
			l *= l
		}
		return p, nil
	case syntax.Eql:
		return boolInt(l == r), nil
	case syntax.Neq:
		return boolInt(l != r), nil
	case syntax.Lss:
		return boolInt(l < r), nil
	case syntax.Leq:
		return boolInt(l <= r), nil
	case syntax.Gtr:
		return boolInt(l > r), nil
	case syntax.Geq:
		return boolInt(l >= r), nil
	case syntax.And:
		return l & r, nil
	case syntax.Or:
		return l | r, nil
	case syntax.Xor:
		return l ^ r, nil
	case syntax.Shl:
		return l << uint(r), nil
	case syntax.Shr:
		return l >> uint(r), nil
	case syntax.Comma:
		return r, nil
	}
	return 0, errArith
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// arithNumber reads a number the way bash's arithmetic does: an optional
// sign, then 0x/0X hex, a leading 0 for octal, BASE#DIGITS (bases 2 to 64,
// digits 0-9 a-z A-Z @ _), else decimal. What it cannot read is 0.
func arithNumber(s string) int64 {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	base := int64(10)
	switch {
	case strings.HasPrefix(s, "0x"), strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0"):
		base, s = 8, s[1:]
	default:
		if b, digits, ok := strings.Cut(s, "#"); ok {
			n, err := strconv.ParseInt(b, 10, 8)
			if err != nil || n < 2 || n > 64 {
				return 0
			}
			base, s = n, digits
		}
	}
	var n int64
	if base <= 36 {
		n, _ = strconv.ParseInt(s, int(base), 64)
	} else {
		for i := 0; i < len(s); i++ {
			d := digitValue(s[i])
			if d < 0 || d >= base {
				return 0
			}
			n = n*base + d
		}
	}
	if neg {
		n = -n
	}
	return n
}

// digitValue is c's value as a digit of a base above 36.
func digitValue(c byte) int64 {
	switch {
	case c >= '0' && c <= '9':
		return int64(c - '0')
	case c >= 'a' && c <= 'z':
		return int64(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int64(c-'A') + 36
	case c == '@':
		return 62
	case c == '_':
		return 63
	}
	return -1
}
