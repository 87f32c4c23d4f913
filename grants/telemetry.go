package grants

import (
	"fmt"
	"slices"
	"strings"
)

// Telemetry protocols, command forms and project forms ([telemetry]).
const (
	ProtoGRPC = "grpc"          // OTLP over gRPC (the collector's port 4317)
	ProtoHTTP = "http/protobuf" // OTLP over HTTP with protobuf bodies (port 4318)

	CommandRedacted = "redacted" // the command as the audit keeps it, secrets redacted
	CommandHash     = "hash"     // only the keyed hash of the text
	CommandNone     = "none"     // neither

	ProjectHashed = "hashed" // a hash of the project root's path
	ProjectNamed  = "named"  // the project root's base name
)

// Telemetry is the [telemetry] table: where guard-cli's flusher sends the
// audit records over OTLP (docs/formats.md). It is read only from the
// managed policy and the user's global config.toml, so that a project
// cannot send a user's records elsewhere; the managed policy's table, when
// it has one, is the whole of it. An empty Endpoint means telemetry is off.
type Telemetry struct {
	Endpoint           string            // otlp_endpoint: a URL (http://host:port or https://…)
	Protocol           string            // ProtoGRPC or ProtoHTTP
	Headers            map[string]string // sent with every export (an API key, a tenant)
	ResourceAttributes map[string]string // added to the resource (deployment.environment, team, …)
	IncludeCommand     string            // CommandRedacted, CommandHash or CommandNone
	Project            string            // ProjectHashed or ProjectNamed
	File               string            // the file it came from, for messages
}

// Enabled reports whether records are to be exported.
func (t Telemetry) Enabled() bool { return t.Endpoint != "" }

// DefaultTelemetry is the built-in [telemetry]: off; when an endpoint is
// set, gRPC, the redacted command and a hashed project.
func DefaultTelemetry() Telemetry {
	return Telemetry{Protocol: ProtoGRPC, IncludeCommand: CommandRedacted, Project: ProjectHashed}
}

// telemetryConfig is one file's [telemetry] table.
type telemetryConfig struct {
	set bool
	t   Telemetry
}

// isTelemetryKey reports whether k is the [telemetry] table or a key in it.
func isTelemetryKey(k []string) bool { return k[0] == "telemetry" }

var telemetryKeys = []string{"otlp_endpoint", "protocol", "headers", "resource_attributes", "include_command", "project"}

// parse reads one key of [telemetry]. Header values are never echoed: they
// often hold an API key.
func (tc *telemetryConfig) parse(k []string, raw map[string]any, text, file string) error {
	errAt := func(name string, format string, args ...any) error {
		line, col := locateKey(text, name)
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	t, ok := raw["telemetry"].(map[string]any)
	if !ok {
		return errAt("telemetry", "telemetry must be a table: [telemetry]")
	}
	if !tc.set {
		tc.set = true
		tc.t = DefaultTelemetry()
		tc.t.File = file
	}
	if len(k) == 1 {
		return nil
	}
	key := k[1]
	if !slices.Contains(telemetryKeys, key) {
		return errAt(k[len(k)-1], "unknown key %q in [telemetry] (%s)", strings.Join(k, "."), strings.Join(telemetryKeys, ", "))
	}
	if len(k) > 2 {
		if key == "headers" || key == "resource_attributes" {
			if _, ok := t[key].(map[string]any)[k[2]].(string); !ok || len(k) > 3 {
				return errAt(k[len(k)-1], "telemetry.%s.%s must be a string", key, k[2])
			}
			return nil // read with the table, below
		}
		return errAt(k[len(k)-1], "unknown key %q in [telemetry]", strings.Join(k, "."))
	}
	str := func() (string, bool) { s, ok := t[key].(string); return s, ok }
	switch key {
	case "otlp_endpoint":
		s, _ := str()
		if !endpointURL(s) {
			return errAt(key, "telemetry.otlp_endpoint must be a URL like http://localhost:4317 (http or https, no user info)")
		}
		tc.t.Endpoint = s
	case "protocol":
		s, _ := str()
		if s != ProtoGRPC && s != ProtoHTTP {
			return errAt(key, `telemetry.protocol must be "grpc" or "http/protobuf"`)
		}
		tc.t.Protocol = s
	case "include_command":
		s, _ := str()
		if s != CommandRedacted && s != CommandHash && s != CommandNone {
			return errAt(key, `telemetry.include_command must be "redacted", "hash" or "none"`)
		}
		tc.t.IncludeCommand = s
	case "project":
		s, _ := str()
		if s != ProjectHashed && s != ProjectNamed {
			return errAt(key, `telemetry.project must be "hashed" or "named"`)
		}
		tc.t.Project = s
	case "headers", "resource_attributes":
		m, ok := t[key].(map[string]any)
		if !ok {
			return errAt(key, "telemetry.%s must be a table of name = \"value\"", key)
		}
		out := make(map[string]string, len(m))
		for name, v := range m {
			s, ok := v.(string)
			if !ok {
				return errAt(name, "telemetry.%s.%s must be a string", key, name)
			}
			if name == "" || strings.ContainsAny(name, "\r\n") || strings.ContainsAny(s, "\r\n") {
				return errAt(name, "telemetry.%s: a name or value with a line break", key)
			}
			out[name] = s
		}
		if key == "headers" {
			tc.t.Headers = out
		} else {
			tc.t.ResourceAttributes = out
		}
	}
	return nil
}

// mergeTelemetry applies one layer's [telemetry]. Only the managed policy
// and the global config are read; the managed policy's table, read first,
// wins whole. Anywhere else the table is ignored with a warning: a project
// must not redirect a user's records.
func (s *Settings) mergeTelemetry(tc *telemetryConfig, layer, file, text string) {
	if !tc.set {
		return
	}
	if layer != LayerManaged && layer != LayerGlobal {
		line, col := locateKey(text, "telemetry")
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s:%d:%d: [telemetry] ignored: it is read only from the global config.toml or the managed policy", file, line, col))
		return
	}
	if s.Telemetry.File != "" {
		return // the managed policy's
	}
	s.Telemetry = tc.t
	if s.Telemetry.Endpoint == "" {
		s.Telemetry.File = file // a table without an endpoint still binds, and is off
	}
}

// endpointURL reports whether s is an http or https URL with a host and no
// user info. (Not net/url: guard links this package, and net/url's init
// would be paid on every command; guard-cli parses it for real.)
func endpointURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "https://")
	}
	if !ok || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	host, _, _ := strings.Cut(rest, "/")
	return host != "" && !strings.Contains(host, "@") && host[0] != ':'
}
