package telemetry

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
)

// full is a record with every field set, so that its JSON form has every key.
func full() ccs.Record {
	return ccs.Record{Time: time.Unix(1700000000, 5), Agent: "claude", Session: "s1", Cwd: "/home/u/p/sub",
		Command: "make test", HMAC: "abcd", Decision: "allow", Rule: "make *", Answer: "cache", Via: "rule",
		Mode: "shell", Exit: 2, DurationMS: 30, Risk: "low", PolicyMode: "enforce", Confined: "fs=project net=open",
		Project: "/home/u/p", OverheadUS: 900, ID: 7}
}

// TestFieldsCoverRecord: every field of an audit record has its attribute
// (a new field without one fails here before it fails a flush).
func TestFieldsCoverRecord(t *testing.T) {
	named := grants.Telemetry{IncludeCommand: grants.CommandRedacted, Project: grants.ProjectNamed}
	// every field of ccs.Record set, whatever fields it grows
	var every ccs.Record
	v := reflect.ValueOf(&every).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int, reflect.Int64:
			f.SetInt(1)
		case reflect.Bool:
			f.SetBool(true)
		}
	}
	every.Time = time.Unix(1, 0)
	if _, err := attributes(every, named, nil); err != nil {
		t.Fatal(err)
	}
	attrs, err := attributes(full(), named, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range attrs {
		got[string(a.Key)] = a.Value.Emit()
	}
	if len(got) != len(Fields) { // every field but time, plus guard.cache_hit
		t.Errorf("%d attributes for %d fields: %v", len(got), len(Fields), got)
	}
	for k, want := range map[string]string{"process.exit.code": "2", "guard.project": "p", "guard.cwd": "/home/u/p/sub",
		"process.command_line": "make test", CacheHitAttr: "true", "gen_ai.agent.name": "claude", "session.id": "s1"} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
}

// TestIncludeCommand: what the settings keep back stays back.
func TestIncludeCommand(t *testing.T) {
	for _, tc := range []struct {
		t          grants.Telemetry
		cmd, hmac  bool
		cwd        bool
		projectLen int
	}{
		{grants.Telemetry{IncludeCommand: grants.CommandRedacted, Project: grants.ProjectHashed}, true, true, false, 16},
		{grants.Telemetry{IncludeCommand: grants.CommandHash, Project: grants.ProjectHashed}, false, true, false, 16},
		{grants.Telemetry{IncludeCommand: grants.CommandNone, Project: grants.ProjectNamed}, false, false, true, 1},
	} {
		attrs, err := attributes(full(), tc.t, func(s string) string { return strings.Repeat("f", 64) })
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, a := range attrs {
			got[string(a.Key)] = a.Value.Emit()
		}
		_, cmd := got["process.command_line"]
		_, hmac := got["guard.command.hmac"]
		_, cwd := got["guard.cwd"]
		if cmd != tc.cmd || hmac != tc.hmac || cwd != tc.cwd || len(got["guard.project"]) != tc.projectLen {
			t.Errorf("%+v: attributes %v", tc.t, got)
		}
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{time.Minute, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 30 * time.Minute, 30 * time.Minute}
	for n, w := range want {
		if got := backoff(n); got != w {
			t.Errorf("backoff(%d) = %s, want %s", n, got, w)
		}
	}
}

// TestFieldsDocumented: docs/formats.md has a row for every field.
func TestFieldsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, f := range Fields {
		row := "| `" + f.JSON + "` | "
		if f.Attr != "" {
			row += "`" + f.Attr + "`"
		}
		if !strings.Contains(doc, row) {
			t.Errorf("docs/formats.md has no row %q", row)
		}
	}
	for _, name := range []string{CacheHitAttr, "guard.decisions", "guard.overhead", "guard.command.duration", EventName} {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("docs/formats.md does not name %s", name)
		}
	}
}

// TestReadmeExample: the README shows examples/otelcol.yaml, the config
// TestCollector starts the collector with, and a [telemetry] table that
// parses.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := os.ReadFile("../examples/otelcol.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body := string(yaml[strings.Index(string(yaml), "receivers:"):])
	if !strings.Contains(string(readme), "```yaml\n"+body+"```") {
		t.Error("README.md does not show examples/otelcol.yaml from receivers: on")
	}
	_, block, ok := strings.Cut(string(readme), "```toml\n[telemetry]\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok {
		t.Fatal("README.md has no [telemetry] example")
	}
	dir := t.TempDir()
	p := grants.Paths{Home: dir, Managed: dir + "/none", ConfigDir: dir + "/conf", StateDir: dir, CacheDir: dir, DataDir: dir}
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.GlobalConfig(), []byte("[telemetry]\n"+block), 0o600); err != nil {
		t.Fatal(err)
	}
	s := grants.Load(p, dir)
	if s.Err != nil || !s.Telemetry.Enabled() || s.Telemetry.Headers["authorization"] == "" {
		t.Errorf("the README's [telemetry] loads as %+v, %v", s.Telemetry, s.Err)
	}
}
