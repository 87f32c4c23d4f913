package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/webui"
)

// The web console's answers to requests nobody waits for (the guard that
// asked gave up, or guard ui is not the console): they go to the request
// files and grants as guard approve and guard reject would put them.
func TestUIBackendAnswers(t *testing.T) {
	a := testApp(t, os.Stdin, os.Stdout)
	paths := a.paths()
	store := a.openStore()
	defer store.Close()
	b := &uiBackend{a: a, store: store, paths: paths, held: map[string]*watchItem{}}
	proj := filepath.Join(a.Getenv("HOME"), "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	add := func(text, suggest string) string {
		t.Helper()
		sum, err := store.Sum(text)
		if err != nil {
			t.Fatal(err)
		}
		p, err := store.AddPending(ccs.Pending{Time: a.Now(), Cwd: proj, Root: proj, Command: text, HMAC: sum, Suggest: suggest})
		if err != nil {
			t.Fatal(err)
		}
		return p.ID
	}

	once := add("touch a", "touch a")
	deny := add("touch b", "touch b")
	proj1 := add("touch c", "touch c")
	composite := add("touch d && touch e", "")

	list, err := b.Pending()
	if err != nil || len(list) != 4 {
		t.Fatalf("Pending: %+v %v", list, err)
	}
	for _, r := range list {
		want := "unknown"
		if r.ID == composite {
			want = "composite"
		}
		if r.Rule != want || r.Waiting || r.Revealed || (r.ID == composite) != r.OnceOnly {
			t.Errorf("pending %+v", r)
		}
	}
	if _, err := b.Reveal(once); err == nil {
		t.Errorf("Reveal without a waiting guard gave the text")
	}

	if err := b.Answer(once, webui.Answer{Kind: webui.AnswerOnce}); err != nil {
		t.Fatal(err)
	}
	if p, _ := store.GetPending(once); p.Status != ccs.StatusApprovedOnce {
		t.Errorf("allow once: %s", p.Status)
	}
	if err := b.Answer(once, webui.Answer{Kind: webui.AnswerDeny}); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("a second answer: %v", err)
	}

	if err := b.Answer(deny, webui.Answer{Kind: webui.AnswerDeny, Message: "use make test"}); err != nil {
		t.Fatal(err)
	}
	if p, _ := store.GetPending(deny); p.Status != ccs.StatusRejected || p.Message != "use make test" {
		t.Errorf("deny with a message: %s %q", p.Status, p.Message)
	}

	if err := b.Answer(composite, webui.Answer{Kind: webui.AnswerProject, Pattern: "touch *"}); err == nil {
		t.Errorf("a composite command got a grant")
	}
	if err := b.Answer(proj1, webui.Answer{Kind: webui.AnswerProject, Pattern: "bash *"}); err == nil {
		t.Errorf("an interpreter-wide pattern was stored")
	}
	if err := b.Answer(proj1, webui.Answer{Kind: webui.AnswerProject, Pattern: "touch c*", For: "2h"}); err != nil {
		t.Fatal(err)
	}
	if p, _ := store.GetPending(proj1); p.Status != ccs.StatusApprovedProject {
		t.Errorf("allow in project: %s", p.Status)
	}
	s := grants.LoadAt(paths, proj, a.Now())
	found := false
	for _, r := range s.Rules {
		if r.Pattern == "touch c*" && r.Layer == grants.LayerProjectGrants && r.Expires.After(a.Now().Add(time.Hour)) {
			found = true
		}
	}
	if !found {
		t.Errorf("the project grant with its time is not stored: %+v", s.Rules)
	}
	gs, err := b.Grants()
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 || gs[0].Pattern != "touch c*" || gs[0].Scope != "project" || gs[0].Project != proj {
		t.Errorf("Grants: %+v", gs)
	}

	// the audit has the page's answers, via ui
	recs, err := store.Audit(ccs.Query{})
	if err != nil {
		t.Fatal(err)
	}
	vias := map[string]int{}
	for _, r := range recs {
		vias[r.Via+" "+r.Answer]++
	}
	if vias["ui once"] != 1 || vias["ui deny"] != 1 || vias["ui edited"] != 1 {
		t.Errorf("audit of the answers: %v", vias)
	}
}
