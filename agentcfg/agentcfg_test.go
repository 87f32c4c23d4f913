package agentcfg

import (
	"strings"
	"testing"
)

func TestJSONRoundTripKeepsOrderAndNumbers(t *testing.T) {
	in := "{\n    \"zeta\": 1.50,\n    \"alpha\": {\"x\": [1, 2e3, null, true]},\n    \"big\": 12345678901234567890\n}\n"
	d, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(d.Bytes()); got != in {
		t.Errorf("untouched document changed:\n%s", got)
	}
	// an edit rewrites the containers on its path, and only those
	if _, _, err := d.Set([]string{"new"}, "v"); err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"zeta\": 1.50,\n    \"alpha\": {\"x\": [1, 2e3, null, true]},\n    \"big\": 12345678901234567890,\n    \"new\": \"v\"\n}\n"
	if got := string(d.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestJSONSetAppendUndo(t *testing.T) {
	in := "{\n  \"env\": {\"A\": \"1\"},\n  \"other\": true\n}\n"
	d, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	orig := "{\n  \"env\": {\n    \"A\": \"1\"\n  },\n  \"other\": true\n}\n"
	var changes []Change
	for _, f := range []func() (Change, bool, error){
		func() (Change, bool, error) { return d.Set([]string{"env", "SHELL_X"}, "/x/bash") },
		func() (Change, bool, error) { return d.Set([]string{"env", "A"}, "2") },
		func() (Change, bool, error) {
			return d.Append([]string{"hooks", "PreToolUse"}, Obj("matcher", "Bash"))
		},
		func() (Change, bool, error) { return d.Set([]string{"deep", "a", "b"}, true) },
	} {
		c, ok, err := f()
		if err != nil || !ok {
			t.Fatalf("edit: %v %v", ok, err)
		}
		changes = append(changes, c)
	}
	// a second append of the same element is no change
	if _, ok, _ := d.Append([]string{"hooks", "PreToolUse"}, Obj("matcher", "Bash")); ok {
		t.Error("second append changed the document")
	}
	for i := len(changes) - 1; i >= 0; i-- {
		if ok, err := d.Undo(changes[i]); !ok || err != nil {
			t.Fatalf("undo %d: %v %v", i, ok, err)
		}
	}
	if got := string(d.Bytes()); got != orig {
		t.Errorf("undo did not restore:\n%s\nwant\n%s", got, orig)
	}
}

func TestJSONUndoLeavesUserChanges(t *testing.T) {
	d, _ := ParseJSON([]byte(`{}`))
	c, _, _ := d.Set([]string{"env", "X"}, "guard")
	d.Root.Vals["env"].(*Object).Put("X", "mine")
	if ok, _ := d.Undo(c); ok {
		t.Error("undo reverted a value the user changed")
	}
}

func TestJSONRefusesComments(t *testing.T) {
	_, err := ParseJSON([]byte("{\n  // note\n  \"a\": 1\n}\n"))
	if err == nil || !strings.Contains(err.Error(), "2:") || !strings.Contains(err.Error(), "comments") {
		t.Errorf("err = %v", err)
	}
	if _, err := ParseJSON([]byte(`["a"]`)); err == nil {
		t.Error("array root accepted")
	}
	if _, err := ParseJSON([]byte(`{"a":1} x`)); err == nil {
		t.Error("trailing data accepted")
	}
}

func TestTOMLSetUndo(t *testing.T) {
	in := "# my codex config\nmodel = \"o3\"\nsandbox_mode = \"workspace-write\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n"
	out, c1, ok, err := TOMLSet(in, "", "sandbox_mode", `"read-only"`)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	out, c2, ok, err := TOMLSet(out, "", "approval_policy", `"untrusted"`)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	out, c3, ok, err := TOMLSet(out, "features", "codex_hooks", "true")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	want := "# my codex config\nmodel = \"o3\"\nsandbox_mode = \"read-only\"\napproval_policy = \"untrusted\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n\n[features]\ncodex_hooks = true\n"
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if _, _, ok, _ := TOMLSet(out, "features", "codex_hooks", "true"); ok {
		t.Error("second set changed the file")
	}
	for _, c := range []TOMLChange{c3, c2, c1} {
		var ok bool
		out, ok = TOMLUndo(out, c)
		if !ok {
			t.Fatalf("undo %+v failed", c)
		}
	}
	if out != in {
		t.Errorf("undo: got\n%s\nwant\n%s", out, in)
	}
}

func TestTOMLRefuses(t *testing.T) {
	if _, _, _, err := TOMLSet("a = [\n", "", "b", "1"); err == nil {
		t.Error("broken file accepted")
	}
	if _, _, _, err := TOMLSet("features.x = true\n", "features", "codex_hooks", "true"); err == nil {
		t.Error("dotted table accepted")
	}
}

func TestBlock(t *testing.T) {
	in := "# Project\n\nSome text.\n"
	out, err := SetBlock(in, "first")
	if err != nil {
		t.Fatal(err)
	}
	out2, _ := SetBlock(out, "second")
	if strings.Contains(out2, "first") || !strings.Contains(out2, "second") || strings.Count(out2, BlockEnd) != 1 {
		t.Errorf("update in place failed:\n%s", out2)
	}
	back, ok, err := RemoveBlock(out2)
	if err != nil || !ok || back != in {
		t.Errorf("remove: %q %v %v", back, ok, err)
	}
	if _, err := SetBlock("x\n"+BlockBegin+"\n", "y"); err == nil {
		t.Error("unterminated block accepted")
	}
}

func TestDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	got := Diff("old", "new", old, new)
	want := "--- old\n+++ new\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -9,3 +9,4 @@\n i\n j\n k\n+l\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Diff("a", "b", "x\n", "x\n") != "" {
		t.Error("equal texts differ")
	}
	got = Diff("a", "b", "", "x\n")
	if got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("from empty: %q", got)
	}
}
