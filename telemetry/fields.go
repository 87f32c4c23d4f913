package telemetry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"go.opentelemetry.io/otel/attribute"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
)

// A Field is one audit record field (its key in guard audit --json) and
// the attribute a log record carries it in.
type Field struct {
	JSON string // the key in guard audit --json
	Attr string // the log record attribute; "" for the record's timestamp
}

// Fields maps every field of an audit record to its OTLP form, in
// docs/formats.md's order (TestFieldsDocumented holds the two together).
var Fields = [...]Field{
	{"time", ""},
	{"id", "guard.record.id"},
	{"agent", "gen_ai.agent.name"},
	{"session", "session.id"},
	{"cwd", "guard.cwd"},
	{"command", "process.command_line"},
	{"hmac", "guard.command.hmac"},
	{"decision", "guard.decision"},
	{"rule", "guard.rule"},
	{"answer", "guard.answer"},
	{"via", "guard.via"},
	{"mode", "guard.mode"},
	{"exit", "process.exit.code"},
	{"duration_ms", "guard.duration_ms"},
	{"risk", "guard.risk"},
	{"policy_mode", "guard.policy_mode"},
	{"confined", "guard.confined"},
	{"project", "guard.project"},
	{"overhead_us", "guard.overhead_us"},
}

// CacheHitAttr is the one attribute that is not a field of its own: true
// when the output cache answered (answer = "cache").
const CacheHitAttr = "guard.cache_hit"

// EventName names every log record guard sends.
const EventName = "guard.decision"

// fieldByJSON indexes Fields.
func fieldByJSON(key string) (Field, bool) {
	for _, f := range Fields {
		if f.JSON == key {
			return f, true
		}
	}
	return Field{}, false
}

// attributes returns a record's attributes under t: every field of its
// JSON form (what guard audit --json prints), so the two never drift. A
// field Fields does not know is an error, never a silent drop.
func attributes(rec ccs.Record, t grants.Telemetry, hash func(string) string) ([]attribute.KeyValue, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	attrs := make([]attribute.KeyValue, 0, len(m)+1)
	for _, f := range Fields { // in the table's order
		v, ok := m[f.JSON]
		if !ok {
			continue
		}
		delete(m, f.JSON)
		switch f.JSON {
		case "time":
			continue // the timestamp
		case "command":
			if t.IncludeCommand != grants.CommandRedacted {
				continue
			}
		case "hmac":
			if t.IncludeCommand == grants.CommandNone {
				continue
			}
		case "cwd":
			if t.Project != grants.ProjectNamed {
				continue
			}
		case "project":
			v = projectName(rec.Project, t.Project, hash)
		}
		switch x := v.(type) {
		case string:
			attrs = append(attrs, attribute.String(f.Attr, x))
		case json.Number:
			n, err := x.Int64()
			if err != nil {
				return nil, fmt.Errorf("audit field %s: %w", f.JSON, err)
			}
			attrs = append(attrs, attribute.Int64(f.Attr, n))
		default:
			return nil, fmt.Errorf("audit field %s: unexpected %T", f.JSON, v)
		}
	}
	for k := range m {
		return nil, fmt.Errorf("audit field %q has no OTLP attribute (telemetry.Fields)", k)
	}
	return append(attrs, attribute.Bool(CacheHitAttr, rec.Answer == "cache")), nil
}

// projectName is the project root as sent: its base name, or a hash
// (hash, the install's keyed hash, so that a path cannot be guessed from
// it; a plain SHA-256 where there is none).
func projectName(root, how string, hash func(string) string) string {
	if how == grants.ProjectNamed {
		return filepath.Base(root)
	}
	if hash != nil {
		if h := hash(root); len(h) >= 16 {
			return h[:16]
		}
	}
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:8])
}
