package shim

import (
	"encoding/json"
	"reflect"
	"testing"
)

// hookJSONSeeds are requests as agents send them, and the shapes that
// json.Unmarshal reads in ways easy to get wrong: keys in other cases
// (and "ſ", the Kelvin sign), duplicates, null for each kind of field,
// tool_input twice (merged, not replaced), escapes and surrogates, invalid
// UTF-8, wrong types, and JSON that is not well-formed.
var hookJSONSeeds = []string{
	`{"session_id":"s","transcript_path":"/t","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"d"},"tool_use_id":"t"}`,
	`{"tool_name":"shell","tool_input":{"command":["bash","-lc","ls -la"],"workdir":"sub"}}`,
	`{"command":"ls","cwd":"/w"}`,
	`{"command":null}`, `{"command":1}`, `{"cwd":null}`, `{"cwd":1}`, `{"cwd":{}}`, `{"cwd":[]}`, `{"cwd":true}`,
	`{"tool_input":null}`, `{"tool_input":"x"}`, `{"tool_input":[]}`, `{"tool_input":{}}`,
	`{"tool_input":{"command":"a"},"tool_input":{"x":null}}`,
	`{"tool_input":{"command":"a","command":"b"}}`,
	`{"CWD":"/a","cwd":"/b","Cwd":"/c"}`, `{"ſession_id":"x","tool_name":"K"}`, `{"\u0063wd":"/e"}`,
	`{"TOOL_INPUT":{"Command":"x"}}`, `{"tool_input":{"command":"\ud83d\ude00 \ud83d \ude00x \u00e9\n\t\"\\\/"}}`,
	"{\"cwd\":\"\xff\xfe/a\xed\xa0\x80\"}", `{"cwd":"\u0000"}`,
	`null`, ` null `, `[]`, `"x"`, `1`, `true`, `{}`, ` { } `, ``, `{`, `{"cwd":}`, `{"cwd":"a",}`, `{"cwd":"a"} x`,
	`{"a":[1,{"b":"]}"},"\""],"cwd":"/x","n":-1.5e3,"t":true,"f":false,"z":null}`,
}

// FuzzDecodeHookIn holds decodeHookIn to json.Unmarshal: an error for the
// same inputs, and the same struct for the rest.
func FuzzDecodeHookIn(f *testing.F) {
	for _, s := range hookJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want, got hookIn
		werr := json.Unmarshal(raw, &want)
		gerr := decodeHookIn(raw, &got)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: json.Unmarshal error %v, decodeHookIn error %v", raw, werr, gerr)
		}
		if werr != nil {
			if werr.Error() != gerr.Error() {
				t.Fatalf("%q: message %q, want %q", raw, gerr, werr)
			}
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", raw, got, want)
		}
		for k, v := range want.ToolInput {
			// each value read as a string and as a list, as command() and
			// cwd() read them
			var s string
			serr := json.Unmarshal(v, &s)
			if gs, ok := jsonStringValue(v); ok != (serr == nil && len(v) > 0 && v[0] == '"') || ok && gs != s {
				t.Fatalf("%q: tool_input.%s as a string: %q %v, want %q %v", raw, k, gs, ok, s, serr)
			}
			var elems []json.RawMessage
			lerr := json.Unmarshal(v, &elems)
			gl, ok := jsonArrayValues(v)
			if ok != (lerr == nil) || ok && !reflect.DeepEqual(gl, elems) {
				t.Fatalf("%q: tool_input.%s as a list: %q %v, want %q %v", raw, k, gl, ok, elems, lerr)
			}
		}
	})
}
