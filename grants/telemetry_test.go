package grants

import (
	"strings"
	"testing"
)

// TestTelemetryLayers: [telemetry] is read from the global config and the
// managed policy only (the managed one wins whole); a project config,
// trusted or not, or a grants file that sets it is ignored with a warning,
// so that a cloned repository cannot send a user's records elsewhere.
func TestTelemetryLayers(t *testing.T) {
	const global = "[telemetry]\notlp_endpoint = \"http://127.0.0.1:4317\"\nheaders = { authorization = \"Bearer xyz\" }\n[telemetry.resource_attributes]\n\"deployment.environment\" = \"dev\"\n"
	for _, tc := range []struct {
		name     string
		f        policyFiles
		endpoint string
		warn     bool
	}{
		{name: "default off"},
		{name: "global", f: policyFiles{global: global}, endpoint: "http://127.0.0.1:4317"},
		{name: "managed wins", f: policyFiles{managed: "[telemetry]\notlp_endpoint = \"https://otel.corp:4318\"\nprotocol = \"http/protobuf\"\n", global: global}, endpoint: "https://otel.corp:4318"},
		{name: "managed off binds", f: policyFiles{managed: "[telemetry]\n", global: global}},
		{name: "untrusted project ignored", f: policyFiles{project: "[telemetry]\notlp_endpoint = \"http://evil.example:4317\"\n"}, warn: true},
		{name: "trusted project ignored", f: policyFiles{global: global, project: "[telemetry]\notlp_endpoint = \"http://evil.example:4317\"\n", trust: true}, endpoint: "http://127.0.0.1:4317", warn: true},
		{name: "grants file ignored", f: policyFiles{grants: "[telemetry]\notlp_endpoint = \"http://evil.example:4317\"\n"}, warn: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.lay(t, tc.f)
			s := Load(e.p, e.proj)
			if s.Err != nil {
				t.Fatal(s.Err)
			}
			if s.Telemetry.Endpoint != tc.endpoint || s.Telemetry.Enabled() != (tc.endpoint != "") {
				t.Errorf("endpoint = %q, want %q", s.Telemetry.Endpoint, tc.endpoint)
			}
			warned := strings.Contains(strings.Join(s.Warnings, "\n"), "[telemetry] ignored")
			if warned != tc.warn {
				t.Errorf("warnings %q, want a [telemetry] warning: %v", s.Warnings, tc.warn)
			}
			if tc.name == "global" {
				tl := s.Telemetry
				if tl.Protocol != ProtoGRPC || tl.IncludeCommand != CommandRedacted || tl.Project != ProjectHashed ||
					tl.Headers["authorization"] != "Bearer xyz" || tl.ResourceAttributes["deployment.environment"] != "dev" {
					t.Errorf("telemetry = %+v", tl)
				}
			}
		})
	}
}

func TestTelemetryErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[telemetry]\notlp_endpoint = \"localhost:4317\"\n", "must be a URL"},
		{"[telemetry]\notlp_endpoint = \"http://u:secretpw@host:4317\"\n", "no user info"},
		{"[telemetry]\nprotocol = \"http/json\"\n", `"grpc" or "http/protobuf"`},
		{"[telemetry]\ninclude_command = \"full\"\n", `"redacted", "hash" or "none"`},
		{"[telemetry]\nproject = \"plain\"\n", `"hashed" or "named"`},
		{"[telemetry]\nheaders = \"x\"\n", "must be a table"},
		{"[telemetry]\nheaders = { authorization = 1 }\n", "must be a string"},
		{"[telemetry]\nendpoint = \"http://x:1\"\n", `unknown key "telemetry.endpoint"`},
		{"telemetry = 1\n", "telemetry must be a table"},
	} {
		_, err := parseConfig("c.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "c.toml:") {
			t.Errorf("%q: error %v, want one naming c.toml and %q", tc.text, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "secretpw") {
			t.Errorf("%q: error %v echoes the password", tc.text, err)
		}
	}
	// the line of the bad key
	_, err := parseConfig("c.toml", []byte("unknown = \"ask\"\n\n[telemetry]\nprotocol = \"udp\"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "c.toml:4:") {
		t.Errorf("error %v, want c.toml:4:", err)
	}
}
