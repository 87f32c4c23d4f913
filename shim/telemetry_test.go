package shim

import (
	"testing"
	"time"

	"github.com/guard-dev/guard/grants"
)

// TestTelemetryRecord: each record carries the project root and guard's
// overhead, and with [telemetry] set guard asks for a flush after the
// record (nothing without it).
func TestTelemetryRecord(t *testing.T) {
	for _, on := range []bool{false, true} {
		r := newTestRun(t, "allow")
		r.env.Started = time.Now()
		var flushes int
		got := r.do(func(a *app) int {
			a.eng.settings = func(string) *grants.Settings {
				s := &grants.Settings{Root: r.dir, Telemetry: grants.DefaultTelemetry()}
				if on {
					s.Telemetry.Endpoint = "http://127.0.0.1:4317"
				}
				return s
			}
			a.eng.flushTelemetry = func(time.Time) { flushes++ }
			a.env.Args = []string{"guard", "-c", "true"}
			return a.shell()
		})
		if got != 0 {
			t.Fatalf("exit %d: %s", got, r.errOut())
		}
		recs := r.audit()
		if len(recs) != 1 || recs[0].Project != r.dir || recs[0].OverheadUS <= 0 {
			t.Errorf("telemetry %v: records %+v", on, recs)
		}
		if want := map[bool]int{false: 0, true: 1}[on]; flushes != want {
			t.Errorf("telemetry %v: %d flushes asked for, want %d", on, flushes, want)
		}
	}
}
