package shim

import (
	"encoding/json"
	"io"

	"github.com/guard-dev/guard/ccs"
)

// writeClaude writes Claude Code's PreToolUse answer, as one line:
//
//	{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":D,"permissionDecisionReason":R,"updatedInput":U}}
//
// with the reason left out when empty and updatedInput when empty. It is
// what encoding/json wrote for the same struct (without HTML escaping),
// byte for byte, without the reflection over the struct's fields that cost
// every hook a third of its instructions. updated must be compact JSON
// (rewrite's output).
func writeClaude(w io.Writer, decision, reason string, updated json.RawMessage) {
	b := make([]byte, 0, 128+len(reason)+len(updated))
	b = append(b, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":`...)
	b = appendJSONString(b, decision)
	if reason != "" {
		b = append(b, `,"permissionDecisionReason":`...)
		b = appendJSONString(b, reason)
	}
	if len(updated) > 0 {
		b = append(b, `,"updatedInput":`...)
		b = append(b, updated...)
	}
	b = append(b, "}}\n"...)
	_, _ = w.Write(b) // into a bytes.Buffer: cannot fail
}

// appendJSONString appends s as a JSON string as encoding/json encodes it
// with HTML escaping off (ccs.AppendJSONString). FuzzAppendJSONString holds
// it to encoding/json.
func appendJSONString(dst []byte, s string) []byte { return ccs.AppendJSONString(dst, s, false) }

// AppendJSON appends o as one line of JSON, the bytes encoding/json writes
// for it with HTML escaping off (json.Encoder.Encode, newline included):
// guard check --stdin --json answers every line with one, and reflection
// over the struct cost more than writing the fields out.
// TestCheckJSONAppend and FuzzCheckJSONAppend hold it to encoding/json.
func (o *CheckJSON) AppendJSON(b []byte) []byte {
	b = append(b, `{"command":`...)
	b = appendJSONString(b, o.Command)
	b = append(b, `,"decision":`...)
	b = appendJSONString(b, o.Decision)
	b = append(b, `,"rule":`...)
	b = appendJSONString(b, o.Rule)
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, o.Reason)
	b = append(b, `,"risk":`...)
	b = appendJSONString(b, o.Risk)
	if o.Composite {
		b = append(b, `,"composite":true,"commands":`...)
	} else {
		b = append(b, `,"composite":false,"commands":`...)
	}
	if o.Commands == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, args := range o.Commands {
			if i > 0 {
				b = append(b, ',')
			}
			if args == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for j, a := range args {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendJSONString(b, a)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	for _, f := range [...]struct{ key, val string }{
		{`,"layer":`, o.Layer}, {`,"file":`, o.File}, {`,"suggest":`, o.Suggest},
		{`,"confined":`, o.Confined}, {`,"mode":`, o.Mode}, {`,"would":`, o.Would},
	} {
		if f.val != "" { // omitempty
			b = append(b, f.key...)
			b = appendJSONString(b, f.val)
		}
	}
	return append(b, "}\n"...)
}
