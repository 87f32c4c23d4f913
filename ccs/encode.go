package ccs

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// marshalRecord encodes rec exactly as json.Marshal does, byte for byte
// (FuzzEncodeRecord holds it to that), without reflection: json.Marshal's
// first call in a process costs about 0.14 ms, which guard's hot path
// cannot spare. The journal is still read back with encoding/json.
func marshalRecord(rec Record) ([]byte, error) {
	t, err := rec.Time.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("json: error calling MarshalJSON for type time.Time: %w", err)
	}
	n := 160 + len(t) + len(rec.Agent) + len(rec.Session) + len(rec.Cwd) + len(rec.Command) + len(rec.HMAC) +
		len(rec.Decision) + len(rec.Rule) + len(rec.Answer) + len(rec.Via) + len(rec.Mode) + len(rec.Risk) + len(rec.PolicyMode) + len(rec.Confined) + len(rec.Project)
	b := make([]byte, 0, n)
	b = append(b, `{"time":`...)
	b = append(b, t...)
	b = append(b, `,"agent":`...)
	b = appendJSONString(b, rec.Agent)
	if rec.Session != "" { // omitempty
		b = append(b, `,"session":`...)
		b = appendJSONString(b, rec.Session)
	}
	for _, f := range [...]struct{ key, val string }{
		{`,"cwd":`, rec.Cwd},
		{`,"command":`, rec.Command},
		{`,"hmac":`, rec.HMAC},
		{`,"decision":`, rec.Decision},
		{`,"rule":`, rec.Rule},
		{`,"answer":`, rec.Answer},
		{`,"via":`, rec.Via},
		{`,"mode":`, rec.Mode},
	} {
		b = append(b, f.key...)
		b = appendJSONString(b, f.val)
	}
	b = append(b, `,"exit":`...)
	b = strconv.AppendInt(b, int64(rec.Exit), 10)
	b = append(b, `,"duration_ms":`...)
	b = strconv.AppendInt(b, rec.DurationMS, 10)
	for _, f := range [...]struct{ key, val string }{{`,"risk":`, rec.Risk}, {`,"policy_mode":`, rec.PolicyMode}, {`,"confined":`, rec.Confined}, {`,"project":`, rec.Project}} {
		if f.val != "" { // omitempty
			b = append(b, f.key...)
			b = appendJSONString(b, f.val)
		}
	}
	if rec.OverheadUS != 0 {
		b = append(b, `,"overhead_us":`...)
		b = strconv.AppendInt(b, rec.OverheadUS, 10)
	}
	if rec.ID != 0 {
		b = append(b, `,"id":`...)
		b = strconv.AppendInt(b, rec.ID, 10)
	}
	return append(b, '}'), nil
}

const hexDigits = "0123456789abcdef"

// appendJSONString is the audit record's string: encoding/json's default,
// HTML escaping on.
func appendJSONString(dst []byte, s string) []byte { return AppendJSONString(dst, s, true) }

// AppendJSONString appends s as a JSON string the way encoding/json writes
// it: ", \ and control characters escaped, \b \f \n \r \t by name, U+2028
// and U+2029 escaped, each byte of invalid UTF-8 as \ufffd, and with
// escapeHTML (encoding/json's default; off for json.Encoder.SetEscapeHTML
// false) < > & as \u003c \u003e \u0026. The audit, the hook's answer and
// check --json all write through it.
func AppendJSONString(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= ' ' && b != '"' && b != '\\' && (!escapeHTML || b != '<' && b != '>' && b != '&') {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other control characters, < > &
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
