package redact

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible returns s as it may reach a terminal or a page: every character
// that could move the cursor, clear a line, reorder or hide text is shown
// as an escape instead of being sent raw. Text from an agent or a command
// goes through it before a human reads it, so that a command cannot draw
// a fake line over itself ("rm -rf ~ #\x1b[1G\x1b[2K  command: git
// status") and the human sees exactly what they approve.
//
// What is escaped, and how:
//
//   - newline, tab and carriage return: \n, \t, \r;
//   - the other C0 controls (ESC is \x1b) and DEL: \xNN;
//   - the C1 controls U+0080–U+009F (U+009B is a CSI to some terminals):
//     \u0080 … \u009f;
//   - format characters (Unicode Cf): the bidi marks, embeddings,
//     overrides and isolates (U+200E/F, U+061C, U+202A–U+202E,
//     U+2066–U+2069), zero-width characters (U+200B–U+200D, U+2060,
//     U+FEFF), the soft hyphen, the invisible tag characters U+E0001
//     and U+E0020–U+E007F, …: \u202e, \U000e0041;
//   - the line and paragraph separators U+2028 and U+2029, and the Hangul
//     fillers that render as blank letters (U+115F, U+1160, U+3164,
//     U+FFA0);
//   - each byte that is not UTF-8: \xNN.
//
// Everything else, letters of every script, emoji, punctuation and the
// replacement character U+FFFD itself, is kept as it is. A backslash is
// not doubled, so `printf '\x1b'` and a real ESC look alike: [HasControl]
// tells them apart, and a view that shows a request says so when it holds
// real ones. Text with nothing to escape is returned as it is, without an
// allocation.
func Visible(s string) string {
	i := firstEscaped(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && escaped(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0xffff && escaped(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		case escaped(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// HasControl reports whether s holds a character that [Visible] escapes
// other than newline and tab: a control or format character, a separator,
// a blank letter or a byte that is not UTF-8. Newlines and tabs are left
// out because ordinary scripts hold them; a view that shows a command
// holding any of the others adds a line saying so.
func HasControl(s string) bool {
	for i := 0; i < len(s); {
		j := firstEscaped(s[i:])
		if j < 0 {
			return false
		}
		if c := s[i+j]; c != '\n' && c != '\t' {
			return true
		}
		i += j + 1
	}
	return false
}

// firstEscaped returns the index of the first byte of s that Visible
// escapes (or that starts a character it escapes), or -1.
func firstEscaped(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || escaped(r) {
			return i
		}
		i += n
	}
	return -1
}

// escaped reports whether Visible shows r as an escape.
func escaped(r rune) bool {
	switch {
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return true // C0, DEL, C1
	case r < 0xa0:
		return false
	}
	switch r {
	case 0x2028, 0x2029, // line and paragraph separators
		0x115f, 0x1160, 0x3164, 0xffa0: // Hangul fillers: blank letters
		return true
	}
	return unicode.Is(unicode.Cf, r)
}
