package shim

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

var jsonStringSeeds = []string{
	"", "git status", `guard: allow: git status: allowed by "git status" (global)`,
	"a\\b", "tab\there", "line\nbreak\r\n", "\x00\x01\x1f\x7f", "\b\f", "<script>&amp;</script>",
	"\u2028\u2029", "é✓😀", "\xff\xfe", "a\xc3", "\xed\xa0\x80", "\xf4\x90\x80\x80", "日本\x80語",
}

// encodingJSON is what encoding/json writes for s with HTML escaping off.
func encodingJSON(t *testing.T, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func checkJSONString(t *testing.T, s string) {
	got := appendJSONString(nil, s)
	if want := encodingJSON(t, s); !bytes.Equal(got, want) {
		t.Fatalf("appendJSONString(%q) = %s, encoding/json writes %s", s, got, want)
	}
	var back string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("appendJSONString(%q) = %s does not parse: %v", s, got, err)
	}
	if utf8.ValidString(s) && back != s {
		t.Fatalf("appendJSONString(%q) = %s parses to %q", s, got, back)
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range jsonStringSeeds {
		checkJSONString(t, s)
	}
	for c := range 256 {
		checkJSONString(t, string([]byte{'x', byte(c), 'y'}))
	}
}

// FuzzAppendJSONString holds the hook answer's string encoder to
// encoding/json: the same bytes, which parse back to the same string.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range jsonStringSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkJSONString(t, s) })
}

// TestWriteClaude compares the Claude answer with what encoding/json made
// of the struct it replaced.
func TestWriteClaude(t *testing.T) {
	type specific struct {
		HookEventName            string          `json:"hookEventName"`
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
		UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	}
	type out struct {
		HookSpecificOutput specific `json:"hookSpecificOutput"`
	}
	for _, c := range []struct {
		decision, reason string
		updated          json.RawMessage
	}{
		{"allow", `guard: allow: git status: allowed by "git status" (global)`, nil},
		{"deny", "guard: deny: rm-root: <b>&\u2028\x01; do not retry or work around it", nil},
		{"ask", "", nil},
		{"allow", "guard: ask: x; routed through guard for approval", json.RawMessage(`{"command":"/bin/guard -c 'ls'","description":"<ls>"}`)},
	} {
		var got, want bytes.Buffer
		writeClaude(&got, c.decision, c.reason, c.updated)
		writeJSON(&want, out{specific{"PreToolUse", c.decision, c.reason, c.updated}})
		if got.String() != want.String() {
			t.Errorf("writeClaude(%q, %q, %s):\n got %s\nwant %s", c.decision, c.reason, c.updated, got.String(), want.String())
		}
	}
}

// checkCheckJSON compares CheckJSON.AppendJSON with encoding/json's Encode.
func checkCheckJSON(t *testing.T, o CheckJSON) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&o); err != nil {
		t.Fatal(err)
	}
	if got := o.AppendJSON(nil); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("AppendJSON(%#v):\n got %s\nwant %s", o, got, want.Bytes())
	}
}

// TestCheckJSONAppend covers each field empty and set, nil and empty
// command lists, and strings that need escaping.
func TestCheckJSONAppend(t *testing.T) {
	checkCheckJSON(t, CheckJSON{})
	checkCheckJSON(t, CheckJSON{Commands: [][]string{}})
	checkCheckJSON(t, CheckJSON{Commands: [][]string{nil, {}, {"a"}}})
	for _, s := range jsonStringSeeds {
		checkCheckJSON(t, CheckJSON{Command: s, Decision: "deny", Rule: s, Reason: s, Risk: s, Composite: true,
			Commands: [][]string{{s, s}, {"ls"}}, Layer: s, File: s, Suggest: s, Confined: s, Mode: s, Would: s})
		checkCheckJSON(t, CheckJSON{Command: s, Decision: "allow", Commands: [][]string{{s}}, Suggest: s, Would: s})
	}
}

// FuzzCheckJSONAppend holds guard check --json's object to encoding/json.
func FuzzCheckJSONAppend(f *testing.F) {
	for _, s := range jsonStringSeeds {
		f.Add(s, "rule", true, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s, r string, comp bool, set uint8) {
		pick := func(bit uint8, v string) string {
			if set&bit != 0 {
				return v
			}
			return ""
		}
		o := CheckJSON{Command: s, Decision: r, Rule: r, Reason: s, Risk: pick(1, s), Composite: comp,
			Layer: pick(2, r), File: pick(4, s), Suggest: pick(8, s), Confined: pick(16, r), Mode: pick(32, s), Would: pick(64, r)}
		if set&128 != 0 {
			o.Commands = [][]string{{s, r}, nil, {}}
		}
		checkCheckJSON(t, o)
	})
}
