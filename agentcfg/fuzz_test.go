package agentcfg

import (
	"bytes"
	"testing"
)

// FuzzJSONEditUndo: any settings file agentcfg accepts comes back with
// the same values after an edit and its undo, and an untouched document
// is written back byte for byte.
func FuzzJSONEditUndo(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, "{\n  \"hooks\": {\"PreToolUse\": []}\n}\n",
		`{"env":{"X":"1"},"permissions":{"deny":["Bash"]}}`,
		`{"hooks":{"PreToolUse":"oops"}}`, `{"a":[1,{"b":null}],"c":"\u00e9"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseJSON(data)
		if err != nil {
			return
		}
		if got := d.Bytes(); len(bytes.TrimSpace(data)) > 0 && string(got) != string(data) {
			t.Fatalf("untouched document changed: %q -> %q", data, got)
		}
		before := Canonical(d.Root)
		var undo []Change
		if c, ok, err := d.Append([]string{"hooks", "PreToolUse"}, Obj("matcher", "Bash")); err == nil && ok {
			undo = append(undo, c)
		}
		if c, ok, err := d.Set([]string{"env", "CLAUDE_CODE_SHELL"}, "/x/bash"); err == nil && ok {
			undo = append(undo, c)
		}
		// what is written parses back to the same values
		again, err := ParseJSON(d.Bytes())
		if err != nil {
			t.Fatalf("edited output does not parse: %v\n%s", err, d.Bytes())
		}
		if Canonical(again.Root) != Canonical(d.Root) {
			t.Fatalf("edited output reads back differently")
		}
		for i := len(undo) - 1; i >= 0; i-- {
			if _, err := d.Undo(undo[i]); err != nil {
				t.Fatal(err)
			}
		}
		if got := Canonical(d.Root); got != before {
			t.Fatalf("undo: %s, want %s", got, before)
		}
	})
}

// FuzzTOMLSetUndo: a set on any valid file loads, and its undo gives the
// file back as it was.
func FuzzTOMLSetUndo(f *testing.F) {
	for _, s := range []string{
		"", "model = \"o3\"\n", "# c\nsandbox_mode = \"workspace-write\" # mine\n\n[features]\nx = true\n",
		"[a]\nb = 1\n[features]\ncodex_hooks = false\n", "features.x = true\n", "[[features]]\n",
	} {
		f.Add(s, "features", "codex_hooks")
	}
	f.Fuzz(func(t *testing.T, text, table, key string) {
		if CheckTOML(text) != nil || len(text) > 4096 {
			return
		}
		out, c, changed, err := TOMLSet(text, table, key, "true")
		if err != nil || !changed {
			return
		}
		if CheckTOML(out) != nil {
			t.Fatalf("set produced invalid TOML:\n%s", out)
		}
		back, ok := TOMLUndo(out, c)
		if !ok {
			t.Fatalf("undo did not find its line in\n%s", out)
		}
		if back != text && back != text+"\n" {
			t.Fatalf("undo: %q, want %q", back, text)
		}
	})
}
