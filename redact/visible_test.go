package redact_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/guard-dev/guard/redact"
)

// visibleTests holds one case for every class Visible escapes, and the
// look-alikes it must leave as they are. hidden is what HasControl says.
var visibleTests = []struct {
	in, want string
	hidden   bool
}{
	// kept
	{"", "", false},
	{"git status", "git status", false},
	{`printf '\x1b[2K' \u202e`, `printf '\x1b[2K' \u202e`, false}, // written out: a backslash is not doubled
	{"café naïve Ærø", "café naïve Ærø", false},
	{"日本語のファイル.txt 한국어", "日本語のファイル.txt 한국어", false},
	{"עברית العربية", "עברית العربية", false},     // right-to-left letters, no override
	{"echo 🙂 👍🏽 ❤️ 🇫🇷", "echo 🙂 👍🏽 ❤️ 🇫🇷", false}, // skin tone, variation selector, flag
	{"a\u00a0b\u3000c", "a\u00a0b\u3000c", false}, // spaces that look like spaces
	{"x\ufffd", "x\ufffd", false},                 // a real replacement character
	{"~ ` ! @ # $ % ^ & * ( ) - _ = + [ ] { } \\ | ; : ' \" , < . > / ?", "~ ` ! @ # $ % ^ & * ( ) - _ = + [ ] { } \\ | ; : ' \" , < . > / ?", false},

	// newline and tab: escaped, but scripts hold them
	{"a\nb", `a\nb`, false},
	{"a\tb", `a\tb`, false},
	{"cat <<EOF\n\thi\nEOF", `cat <<EOF\n\thi\nEOF`, false},

	// C0 controls and DEL
	{"a\rb", `a\rb`, true},
	{"\x00", `\x00`, true},
	{"\x07bell", `\x07bell`, true},
	{"back\bspace", `back\x08space`, true},
	{"\x0b\x0c", `\x0b\x0c`, true},
	{"\x1b", `\x1b`, true},
	{"\x1f", `\x1f`, true},
	{"del\x7f", `del\x7f`, true},
	// the attack of issue 22: a comment that draws a line over itself
	{"touch /tmp/x #\x1b[1G\x1b[2K  command: git status", `touch /tmp/x #\x1b[1G\x1b[2K  command: git status`, true},
	{"ls\x1b]0;title\x07", `ls\x1b]0;title\x07`, true},            // OSC
	{"ls\x1b]8;;http://x\x1b\\", `ls\x1b]8;;http://x\x1b\`, true}, // a hyperlink

	// C1 controls, as UTF-8
	{"\u0080", `\u0080`, true},
	{"\u0085next line", `\u0085next line`, true},
	{"\u009b2K", `\u009b2K`, true},
	{"\u009f", `\u009f`, true},

	// bidi marks, embeddings, overrides and isolates
	{"\u200e\u200f", `\u200e\u200f`, true},
	{"\u061c", `\u061c`, true},
	{"a\u202ab\u202bc\u202cd\u202de\u202ef", `a\u202ab\u202bc\u202cd\u202de\u202ef`, true},
	{"rm -rf \u202e/ sl", `rm -rf \u202e/ sl`, true},
	{"\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`, true},

	// zero-width and other format characters
	{"g\u200bit", `g\u200bit`, true},
	{"\u200c\u200d", `\u200c\u200d`, true},
	{"👨\u200d👩", `👨\u200d👩`, true}, // a joined emoji shows its joiner
	{"\u2060", `\u2060`, true},
	{"\ufeffls", `\ufeffls`, true},
	{"soft\u00adhyphen", `soft\u00adhyphen`, true},
	{"tag\U000e0041\U000e007f", `tag\U000e0041\U000e007f`, true}, // invisible ASCII smuggling

	// separators and blank letters
	{"a\u2028b\u2029c", `a\u2028b\u2029c`, true},
	{"x\u3164y\u115f\u1160\uffa0", `x\u3164y\u115f\u1160\uffa0`, true},

	// bytes that are not UTF-8
	{"\xff", `\xff`, true},
	{"a\x9b2Kb", `a\x9b2Kb`, true},         // a raw 8-bit CSI
	{"\xe2\x80", `\xe2\x80`, true},         // a cut character
	{"\xed\xa0\x80", `\xed\xa0\x80`, true}, // a surrogate
	{"\xc0\xaf", `\xc0\xaf`, true},         // an overlong '/'
}

func TestVisible(t *testing.T) {
	for _, tt := range visibleTests {
		if got := redact.Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := redact.HasControl(tt.in); got != tt.hidden {
			t.Errorf("HasControl(%q) = %t, want %t", tt.in, got, tt.hidden)
		}
	}
}

// TestVisibleEveryRune checks each code point against the rule: what comes
// out is printable ASCII or a printable, non-format character of its own.
func TestVisibleEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue // not encodable
		}
		in := string(r)
		out := redact.Visible(in)
		if err := safeForTerminal(out); err != nil {
			t.Fatalf("Visible(%U) = %q: %v", r, out, err)
		}
		mustEscape := unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029
		if mustEscape && out == in {
			t.Fatalf("Visible(%U) kept it", r)
		}
		if !mustEscape && out != in && r > 0xffff {
			t.Fatalf("Visible(%U) = %q, want it kept", r, out)
		}
	}
}

// safeForTerminal says why s could still steer a terminal, or nil.
func safeForTerminal(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("not UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
			return fmt.Errorf("holds %U", r)
		}
	}
	return nil
}

func TestVisibleKeepsWithoutCopy(t *testing.T) {
	s := strings.Repeat("plain text, é, 日本, 🙂 ", 100)
	if n := testing.AllocsPerRun(10, func() { _ = redact.Visible(s) }); n != 0 {
		t.Errorf("Visible of plain text allocates %v times", n)
	}
}

func FuzzVisible(f *testing.F) {
	for _, tt := range visibleTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := redact.Visible(in)
		if err := safeForTerminal(out); err != nil {
			t.Fatalf("Visible(%q) = %q: %v", in, out, err)
		}
		if redact.HasControl(in) && !strings.Contains(out, `\`) {
			t.Fatalf("HasControl(%q) but Visible escaped nothing", in)
		}
		if !redact.HasControl(in) && strings.ContainsAny(in, "\x1b\r") {
			t.Fatalf("HasControl(%q) is false", in)
		}
		if redact.Visible(out) != out {
			t.Fatalf("Visible(%q) is not stable: %q", out, redact.Visible(out))
		}
	})
}

func ExampleVisible() {
	cmd := "touch /tmp/x #\x1b[1G\x1b[2K  command: git status"
	fmt.Println(redact.Visible(cmd))
	fmt.Println(redact.HasControl(cmd))
	fmt.Println(redact.Visible("ls \u202egnp.exe"))
	// Output:
	// touch /tmp/x #\x1b[1G\x1b[2K  command: git status
	// true
	// ls \u202egnp.exe
}

func BenchmarkVisible(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"plain command", "git log --oneline -n 20 -- cmd/guard-cli/audit.go"},
		{"utf-8 command", "echo 'café 日本語 🙂' > notes.txt"},
		{"attack", "touch pwned #\x1b[1G\x1b[2K  command: git status"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.in)))
			for b.Loop() {
				_ = redact.Visible(bc.in)
			}
		})
	}
}
