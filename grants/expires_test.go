package grants

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/classify"
)

// An allow stored with an expiry counts until then, is kept and marked
// expired after, and a later add without a time makes it permanent.
func TestExpiringGrant(t *testing.T) {
	e := newEnv(t)
	file := e.p.GlobalGrants()
	t0 := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	if err := AddRuleUntil(file, Allow, "npm test *", t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := AddRule(file, Allow, "make *"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), "[permissions.bash.expires]") || !strings.Contains(string(b), `"npm test *" = 2026-12-04T12:00:00Z`) {
		t.Errorf("grants file:\n%s", b)
	}
	decide := func(at time.Time, text string) (Decision, *Rule) {
		s := LoadAt(e.p, e.proj, at)
		if s.Err != nil {
			t.Fatal(s.Err)
		}
		var rule *Rule
		for i := range s.Rules {
			if s.Rules[i].Pattern == "npm test *" {
				rule = &s.Rules[i]
			}
		}
		return Decide(classify.Analyze(text, classify.Options{Cwd: e.proj}), s).Decision, rule
	}
	if d, r := decide(t0.Add(time.Hour), "npm test -- x"); d != Allow || r == nil || r.Expired {
		t.Errorf("before expiry: %s %+v", d, r)
	}
	if d, r := decide(t0.Add(2*time.Hour), "npm test -- x"); d != Ask || r == nil || !r.Expired || !r.Expires.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("at expiry: %s %+v", d, r)
	}
	if d, _ := decide(t0.Add(3*time.Hour), "make build"); d != Allow {
		t.Errorf("a grant without expiry: %s", d)
	}
	// the latest add wins
	if err := AddRule(file, Allow, "npm test *"); err != nil {
		t.Fatal(err)
	}
	if d, r := decide(t0.Add(3*time.Hour), "npm test -- x"); d != Allow || !r.Expires.IsZero() {
		t.Errorf("made permanent: %s %+v", d, r)
	}
	if b, _ := os.ReadFile(file); strings.Contains(string(b), "expires") {
		t.Errorf("an expiry left behind:\n%s", b)
	}
	if err := AddRuleUntil(file, Deny, "rm *", t0); err == nil {
		t.Error("a deny with an expiry was stored")
	}
}

func TestExpiresErrors(t *testing.T) {
	for _, text := range []string{
		"[permissions.bash]\nallow = [\"x\"]\nexpires = 3\n",
		"[permissions.bash.expires]\n\"x\" = \"tomorrow\"\n",
		"[permissions.bash.expires]\n\"x\" = 5\n",
	} {
		e := newEnv(t)
		write(t, e.p.GlobalGrants(), text)
		if s := Load(e.p, e.proj); s.Err == nil || !strings.Contains(s.Err.Error(), "expires") {
			t.Errorf("%q: err %v", text, s.Err)
		}
	}
	e := newEnv(t)
	write(t, e.p.GlobalGrants(), "[permissions.bash]\nallow = [\"x\"]\n[permissions.bash.expires]\n\"x\" = \"2026-12-04T12:00:00+01:00\"\n")
	if s := LoadAt(e.p, e.proj, time.Date(2026, 12, 4, 11, 30, 0, 0, time.UTC)); s.Err != nil || len(s.Rules) == 0 || !s.Rules[len(s.Rules)-1].Expired {
		t.Errorf("an RFC 3339 string: %v %+v", s.Err, s.Rules)
	}
}
