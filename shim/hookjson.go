package shim

import (
	"encoding/json"
	"errors"
	"unicode"
	"unicode/utf8"
)

// The agent's request is read here without encoding/json's reflection: on
// every hook, json.Unmarshal into hookIn spent a fifth of the hook's
// instructions building the struct's field table. What these functions
// return is what json.Unmarshal returns for the same bytes: an error for
// the same inputs, the same struct otherwise (FuzzDecodeHookIn holds them
// to it). json.Valid checks the syntax first, with encoding/json's own
// scanner, so that what is read below is well-formed JSON.

// errHookType says a field of the request has the wrong JSON type (what
// json.Unmarshal reports as an UnmarshalTypeError).
var errHookType = errors.New("json: a field of the request has the wrong type")

// decodeHookIn reads raw into in as json.Unmarshal(raw, in) would.
func decodeHookIn(raw []byte, in *hookIn) error {
	if !json.Valid(raw) {
		// the same syntax error encoding/json gives, with its message
		var v struct{}
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		return errors.New("json: invalid request")
	}
	d := jsonReader{b: raw}
	d.space()
	switch d.b[d.i] {
	case 'n':
		return nil // null: nothing set
	case '{':
	default:
		return typeError(raw)
	}
	typeErr := false
	d.i++ // {
	for {
		d.space()
		if d.b[d.i] == '}' {
			break
		}
		key := d.str()
		d.space()
		d.i++ // :
		d.space()
		switch string(foldJSONName(key)) {
		case "SESSION_ID":
			typeErr = d.strField(&in.SessionID) || typeErr
		case "CWD":
			typeErr = d.strField(&in.Cwd) || typeErr
		case "HOOK_EVENT_NAME":
			typeErr = d.strField(&in.HookEventName) || typeErr
		case "PERMISSION_MODE":
			typeErr = d.strField(&in.PermissionMode) || typeErr
		case "TOOL_NAME":
			typeErr = d.strField(&in.ToolName) || typeErr
		case "TOOL_INPUT":
			switch d.b[d.i] {
			case 'n':
				in.ToolInput = nil
				d.skip()
			case '{':
				if in.ToolInput == nil {
					in.ToolInput = map[string]json.RawMessage{}
				}
				d.rawMembers(in.ToolInput)
			default:
				typeErr = true
				d.skip()
			}
		case "COMMAND":
			switch d.b[d.i] {
			case 'n':
				in.Command = nil
				d.skip()
			case '"':
				s := string(d.str())
				in.Command = &s
			default:
				typeErr = true
				d.skip()
			}
		default:
			d.skip()
		}
		d.space()
		if d.b[d.i] == ',' {
			d.i++
		}
	}
	if typeErr {
		return typeError(raw)
	}
	return nil
}

// typeError is encoding/json's own message for a request with a field of
// the wrong type (a refusal says it; the common path never pays for it).
func typeError(raw []byte) error {
	var in hookIn
	if err := json.Unmarshal(raw, &in); err != nil {
		return err
	}
	return errHookType
}

// jsonStringValue decodes raw (one well-formed JSON value, as the request's
// fields are) when it is a string, and only then.
func jsonStringValue(raw json.RawMessage) (string, bool) {
	d := jsonReader{b: raw}
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", false
	}
	return string(d.str()), true
}

// jsonArrayValues splits raw (one well-formed JSON value) into its
// elements when it is an array; ok is false for anything else but null,
// which gives no elements.
func jsonArrayValues(raw json.RawMessage) (elems []json.RawMessage, ok bool) {
	d := jsonReader{b: raw}
	d.space()
	if d.i >= len(d.b) {
		return nil, false
	}
	switch d.b[d.i] {
	case 'n':
		return nil, true
	case '[':
	default:
		return nil, false
	}
	d.i++
	elems = []json.RawMessage{} // [] is an empty list, not null
	for {
		d.space()
		if d.b[d.i] == ']' {
			return elems, true
		}
		start := d.i
		d.skip()
		elems = append(elems, json.RawMessage(d.b[start:d.i]))
		d.space()
		if d.b[d.i] == ',' {
			d.i++
		}
	}
}

// jsonReader walks well-formed JSON (json.Valid said so): it never checks
// syntax, only reads it.
type jsonReader struct {
	b []byte
	i int
}

func (d *jsonReader) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// strField sets *s from a string value, leaves it for null (as
// encoding/json does), and reports a type error for anything else.
func (d *jsonReader) strField(s *string) (typeErr bool) {
	switch d.b[d.i] {
	case '"':
		*s = string(d.str())
		return false
	case 'n':
		d.skip()
		return false
	}
	d.skip()
	return true
}

// rawMembers adds an object's members to m, each value as the bytes it was
// sent as (a later duplicate key wins, as in encoding/json).
func (d *jsonReader) rawMembers(m map[string]json.RawMessage) {
	d.i++ // {
	for {
		d.space()
		if d.b[d.i] == '}' {
			d.i++
			return
		}
		key := string(d.str())
		d.space()
		d.i++ // :
		d.space()
		start := d.i
		d.skip()
		m[key] = append(json.RawMessage(nil), d.b[start:d.i]...)
		d.space()
		if d.b[d.i] == ',' {
			d.i++
		}
	}
}

// skip moves past one value.
func (d *jsonReader) skip() {
	switch d.b[d.i] {
	case '"':
		d.i++
		for d.b[d.i] != '"' {
			if d.b[d.i] == '\\' {
				d.i++
			}
			d.i++
		}
		d.i++
	case '{', '[':
		depth := 0
		for {
			switch d.b[d.i] {
			case '"':
				d.skip()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			d.i++
			if depth == 0 {
				return
			}
		}
	default: // number, true, false, null
		for d.i < len(d.b) {
			switch d.b[d.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			d.i++
		}
	}
}

// str reads a string value (d at its opening quote) and returns it
// unquoted as encoding/json does: escapes decoded, a lone or reversed
// surrogate and every byte of invalid UTF-8 read as U+FFFD.
func (d *jsonReader) str() []byte {
	d.i++ // "
	start := d.i
	for d.b[d.i] != '"' && d.b[d.i] != '\\' && d.b[d.i] < utf8.RuneSelf {
		d.i++
	}
	if d.b[d.i] == '"' {
		d.i++
		return d.b[start : d.i-1] // plain ASCII: as it is
	}
	out := append([]byte(nil), d.b[start:d.i]...)
	for {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return out
		case c == '\\':
			d.i++
			switch e := d.b[d.i]; e {
			case 'u':
				r := hex4(d.b[d.i+1 : d.i+5])
				d.i += 5
				if utf16IsSurrogate(r) {
					r2 := rune(-1)
					if d.i+6 <= len(d.b) && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
						r2 = hex4(d.b[d.i+2 : d.i+6])
					}
					if pair := utf16Decode(r, r2); pair != unicode.ReplacementChar {
						d.i += 6
						out = utf8.AppendRune(out, pair)
						continue
					}
					r = unicode.ReplacementChar
				}
				out = utf8.AppendRune(out, r)
				continue
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			default: // " \ /
				out = append(out, e)
			}
			d.i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			d.i++
		default:
			r, n := utf8.DecodeRune(d.b[d.i:])
			if r == utf8.RuneError && n == 1 {
				out = utf8.AppendRune(out, unicode.ReplacementChar)
			} else {
				out = append(out, d.b[d.i:d.i+n]...)
			}
			d.i += n
		}
	}
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

func utf16IsSurrogate(r rune) bool { return 0xd800 <= r && r < 0xe000 }

// utf16Decode is the rune of a surrogate pair, or U+FFFD when r1, r2 are
// not one (r2 is -1 when no \u escape follows).
func utf16Decode(r1, r2 rune) rune {
	if 0xd800 <= r1 && r1 < 0xdc00 && 0xdc00 <= r2 && r2 < 0xe000 {
		return (r1-0xd800)<<10 | (r2 - 0xdc00) + 0x10000
	}
	return unicode.ReplacementChar
}

// foldJSONName is a key as encoding/json compares it with a field's name
// when no name matches exactly: ASCII upper case, and every other rune as
// the least of its simple case folding orbit (so "ſ" is "S" and the Kelvin
// sign "K").
func foldJSONName(in []byte) []byte {
	var arr [32]byte
	out := arr[:0]
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}
