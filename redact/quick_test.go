package redact

import (
	"fmt"
	"strings"
	"testing"
)

// quickTexts are the tables' inputs, secrets and look-alikes, each line
// alone too.
func quickTexts() []string {
	var ts []string
	add := func(s string) {
		ts = append(ts, s)
		if strings.Contains(s, "\n") {
			ts = append(ts, strings.Split(s, "\n")...)
		}
	}
	for _, c := range redactTests {
		add(c.in)
	}
	for _, c := range formatTests {
		add(c.in)
	}
	for _, c := range classTests {
		add(c.in)
	}
	for _, c := range streamCases {
		add(c.text)
	}
	for _, s := range keepTests {
		add(s)
	}
	for _, s := range keepProse {
		add(s)
	}
	return append(ts, "git status", "true", "ls -la src", "go test ./...", "guard: allow: git status: allowed by \"git status\" (global)")
}

// TestCleanHasNoTrigger checks the quick answer against the tables: a
// text that clean passes holds no trigger the scan finds, and no
// environment secret.
func TestCleanHasNoTrigger(t *testing.T) {
	r := New([]string{"X_TOKEN=envsecretvalue99", "GITHUB_TOKEN=" + ghp})
	r.ready()
	passed := 0
	for _, s := range quickTexts() {
		for _, b := range [][]byte{[]byte(s), []byte(strings.ToUpper(s)), []byte(strings.ToLower(s))} {
			if !r.clean(b) {
				continue
			}
			passed++
			if hits := r.scan(b); len(hits) > 0 {
				t.Errorf("clean passed %q, where the scan finds %d triggers (owner %d at %d)", b, len(hits), hits[0].owner, hits[0].s)
			}
			if out, changed := r.redactFull(b); changed {
				t.Errorf("clean passed %q, which redacts to %q", b, out)
			}
		}
	}
	if passed == 0 {
		t.Fatal("clean passed no text at all: the test tests nothing")
	}
	if !r.clean([]byte("git status")) {
		t.Error("clean does not pass `git status`: the quick path does not work")
	}
	if New([]string{"X_TOKEN=envsecretvalue99"}, WithPatterns("hunter")).clean([]byte("hunter2")) {
		t.Error("clean passed a text with a user's pattern set")
	}
	if New([]string{"X_TOKEN=envsecretvalue99"}).clean([]byte("a envsecretvalue99 b")) {
		t.Error("clean passed an environment secret")
	}
}

// FuzzClean compares the quick answer with the whole redaction: what clean
// passes, Redact without it leaves alone.
func FuzzClean(f *testing.F) {
	for _, s := range quickTexts() {
		f.Add(s)
	}
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		if !r.clean(b) {
			return
		}
		if out, changed := r.redactFull(b); changed {
			t.Fatalf("clean passed %q, which redacts to %q", b, out)
		}
	})
}

// TestQuickSets checks the written-out quickSets against the built-in
// triggers; when they differ it prints the table to paste into
// quicksets.go.
func TestQuickSets(t *testing.T) {
	sets, ok := builtinQuickSets()
	if !ok {
		t.Fatal("a built-in pattern has no trigger: clean must then pass nothing (set quickCheck.off)")
	}
	if sets == quickSets {
		return
	}
	var b strings.Builder
	b.WriteString("var quickSets = [3]quickSet{\n")
	for _, s := range sets {
		b.WriteString("\t{")
		for i, x := range s {
			if i%4 == 0 {
				b.WriteString("\n\t\t")
			} else {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%#016x,", x)
		}
		b.WriteString("\n\t},\n")
	}
	b.WriteString("}\n")
	t.Errorf("quickSets differs from the built-in triggers; in quicksets.go write:\n%s", b.String())
}
