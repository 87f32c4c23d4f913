package telemetry_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/telemetry"
)

// The test runs guard with [telemetry] set against a real OpenTelemetry
// Collector: testdata/otelcol (its own module: the OTLP receiver and the
// file exporter, every collector module at one release), built here with
// go build and started with examples/otelcol.yaml, the README's example.
// It asserts what reaches the collector's file: every decision once, with
// the audit's fields, at the decision's time, and no secret; across a
// collector that is down for a while, nothing is lost or sent twice.

// fakeToken looks like a GitHub token: redact knows its shape.
const fakeToken = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"

func TestCollector(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an OpenTelemetry Collector (about a minute and a half on 2 cores)")
	}
	bin := t.TempDir()
	build(t, "..", bin, "./cmd/guard", "./cmd/guard-cli")
	build(t, filepath.Join("..", "testdata", "otelcol"), bin, ".")
	example, err := filepath.Abs(filepath.Join("..", "examples", "otelcol.yaml"))
	if err != nil {
		t.Fatal(err)
	}

	work := t.TempDir()
	grpcPort, httpPort := freePort(t), freePort(t)
	col := &collector{bin: filepath.Join(bin, "otelcol"), config: example, dir: work,
		grpc: "127.0.0.1:" + grpcPort, http: "127.0.0.1:" + httpPort}
	t.Cleanup(col.stop)

	t.Run("grpc", func(t *testing.T) {
		g := newGuard(t, bin, fmt.Sprintf("[telemetry]\notlp_endpoint = \"http://127.0.0.1:%s\"\nproject = \"named\"\n"+
			"[telemetry.resource_attributes]\n\"deployment.environment\" = \"ci\"\n", grpcPort))
		col.start(t)

		// guard starts the flusher by itself, detached, the first time
		g.run(t, "echo one")
		col.waitLogs(t, 1)
		g.waitFlusher(t)
		// from here on only the test flushes
		g.holdFlusher(t)

		g.run(t, "echo TOKEN="+fakeToken)
		g.run(t, "rm -rf /") // refused: never run
		g.run(t, "true")
		if out := g.flush(t, true); !strings.Contains(out, "sent 3 records") {
			t.Errorf("flush said %q, want sent 3 records", out)
		}

		// the collector goes down: records wait, nothing is lost
		col.stop()
		g.run(t, "echo two")
		g.run(t, "echo three")
		before := g.lastID(t)
		g.flush(t, false)
		if after := g.lastID(t); after != before {
			t.Fatalf("a failed flush moved the position from %d to %d", before, after)
		}
		// the same file: the records sent before the restart must still
		// be in it
		col.restart(t)
		if out := g.flush(t, true); !strings.Contains(out, "sent 2 records") {
			t.Errorf("flush after the restart said %q, want sent 2 records", out)
		}
		if out := g.flush(t, true); !strings.Contains(out, "sent 0 records") {
			t.Errorf("a second flush said %q, want sent 0 records", out)
		}
		col.stop()

		audit := g.audit(t)
		got := col.read(t)
		checkOnce(t, audit, got)
		checkFields(t, audit, got, true, true)
		checkSecret(t, col)
		checkMetrics(t, got, len(audit))
		for _, r := range got.logs {
			if r.resource["service.name"] != "guard" || r.resource["deployment.environment"] != "ci" || r.resource["service.instance.id"] == "" {
				t.Errorf("resource %v", r.resource)
				break
			}
		}
	})

	// The collector goes down in the middle of a flush: the first batch of
	// two records got through, the second finds nobody. The position stays
	// after the first batch; the next flush sends the rest, once.
	t.Run("down-mid-flush", func(t *testing.T) {
		var requests atomic.Int32
		killAt := int32(3) // batch 1 is a logs and a metrics request; batch 2's logs find it gone
		target, _ := url.Parse("http://" + col.http)
		proxy := httputil.NewSingleHostReverseProxy(target)
		proxy.ErrorLog = log.New(io.Discard, "", 0) // the failure is the point
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if requests.Add(1) == killAt {
				// SIGTERM, so that the collector writes out what it
				// accepted (the file exporter buffers for a second): a
				// record it took and lost would be its loss, not guard's
				col.stop()
			}
			proxy.ServeHTTP(w, r)
		}))
		defer srv.Close()
		g := newGuard(t, bin, fmt.Sprintf("[telemetry]\notlp_endpoint = %q\nprotocol = \"http/protobuf\"\n", srv.URL))
		g.holdFlusher(t)
		col.forget()
		col.start(t)
		for _, c := range []string{"echo a", "echo b", "echo c", "echo d", "echo e"} {
			g.run(t, c)
		}
		g.flush(t, false, "--batch", "2")
		if id := g.lastID(t); id != 2 {
			t.Errorf("after a flush that died in its second batch the position is %d, want 2", id)
		}
		col.start(t)
		if out := g.flush(t, true, "--batch", "2"); !strings.Contains(out, "sent 3 records") {
			t.Errorf("flush after the restart said %q, want sent 3 records", out)
		}
		col.stop()
		audit := g.audit(t)
		if len(audit) != 5 {
			t.Fatalf("%d audit records, want 5", len(audit))
		}
		checkOnce(t, audit, col.read(t))
	})

	t.Run("http-hash", func(t *testing.T) {
		g := newGuard(t, bin, fmt.Sprintf("[telemetry]\notlp_endpoint = \"http://127.0.0.1:%s\"\nprotocol = \"http/protobuf\"\ninclude_command = \"hash\"\n", httpPort))
		g.holdFlusher(t)
		col.forget()
		col.start(t)
		g.run(t, "echo TOKEN="+fakeToken)
		g.run(t, "rm -rf /")
		if out := g.flush(t, true); !strings.Contains(out, "sent 2 records") {
			t.Errorf("flush said %q, want sent 2 records", out)
		}
		col.stop()
		audit := g.audit(t)
		got := col.read(t)
		checkOnce(t, audit, got)
		checkFields(t, audit, got, false, false)
		checkSecret(t, col)
		for _, r := range got.logs {
			if _, ok := r.attrs["process.command_line"]; ok {
				t.Errorf("include_command = hash sent the command: %v", r.attrs)
			}
			if _, ok := r.attrs["guard.cwd"]; ok {
				t.Errorf("project = hashed sent the working directory: %v", r.attrs)
			}
			if p, _ := r.attrs["guard.project"].(string); len(p) != 16 || strings.Contains(p, "/") {
				t.Errorf("project = hashed sent guard.project %q", p)
			}
		}
	})
}

// build runs go build in dir, the binaries going to out.
func build(t *testing.T, dir, out string, pkgs ...string) {
	t.Helper()
	start := time.Now()
	cmd := exec.Command("go", append([]string{"build", "-o", out + string(filepath.Separator)}, pkgs...)...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %v in %s: %v\n%s", pkgs, dir, err, b)
	}
	t.Logf("go build %v in %s: %s", pkgs, dir, time.Since(start).Round(time.Second))
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// A collector is the test collector, started and stopped at will; each
// start writes a file of its own (out-N.jsonl), and restart writes on in the
// file of the last start, as a collector restarted by hand with the
// example's config does.
type collector struct {
	bin, config, dir string
	grpc, http       string
	cmd              *exec.Cmd
	files            []string // the files of the starts since the last forget
	starts           int
}

// forget drops the files written so far: read sees only later ones.
func (c *collector) forget() { c.files = nil }

func (c *collector) start(t *testing.T) {
	t.Helper()
	c.starts++
	out := filepath.Join(c.dir, fmt.Sprintf("out-%d.jsonl", c.starts))
	c.files = append(c.files, out)
	c.run(t, out)
}

// restart starts the collector again on the last start's file: what the
// example's file exporter wrote before must survive (append: true).
func (c *collector) restart(t *testing.T) {
	t.Helper()
	c.run(t, c.files[len(c.files)-1])
}

func (c *collector) run(t *testing.T, out string) {
	t.Helper()
	c.cmd = exec.Command(c.bin, "--config", c.config)
	c.cmd.Env = append(os.Environ(), "GUARD_OTLP_GRPC="+c.grpc, "GUARD_OTLP_HTTP="+c.http, "GUARD_OTEL_FILE="+out)
	logf, err := os.OpenFile(out+".log", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	c.cmd.Stdout, c.cmd.Stderr = logf, logf
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{c.grpc, c.http} {
		if !waitFor(func() bool {
			conn, err := net.Dial("tcp", addr)
			if err == nil {
				conn.Close()
			}
			return err == nil
		}) {
			log, _ := os.ReadFile(out + ".log")
			t.Fatalf("the collector does not listen on %s:\n%s", addr, log)
		}
	}
}

// stop ends the collector (SIGTERM: it writes what it holds) and waits.
func (c *collector) stop() {
	if c.cmd == nil {
		return
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
	c.cmd = nil
}

// waitFor polls cond for up to a minute (a wait, not a timing assertion).
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// waitLogs waits until the running collector wrote n log records.
func (c *collector) waitLogs(t *testing.T, n int) {
	t.Helper()
	if !waitFor(func() bool { return len(c.read(t).logs) >= n }) {
		t.Fatalf("the collector got %d log records, want %d", len(c.read(t).logs), n)
	}
}

// received is what the collector wrote.
type received struct {
	logs    []logRecord
	metrics map[string][]dataPoint // by metric name
}

type logRecord struct {
	time     int64
	event    string
	attrs    map[string]any
	resource map[string]any
}

type dataPoint struct {
	attrs map[string]any
	value int64 // sum: the value; histogram: the count
}

// OTLP/JSON, as the file exporter writes it (only what the test reads).
type (
	otlpKV struct {
		Key   string `json:"key"`
		Value struct {
			S *string `json:"stringValue"`
			I *string `json:"intValue"`
			B *bool   `json:"boolValue"`
		} `json:"value"`
	}
	otlpResource struct {
		Attributes []otlpKV `json:"attributes"`
	}
	otlpPoint struct {
		Attributes []otlpKV `json:"attributes"`
		AsInt      *string  `json:"asInt"`
		Count      *string  `json:"count"`
	}
	otlpLine struct {
		ResourceLogs []struct {
			Resource  otlpResource `json:"resource"`
			ScopeLogs []struct {
				LogRecords []struct {
					Time       string   `json:"timeUnixNano"`
					EventName  string   `json:"eventName"`
					Attributes []otlpKV `json:"attributes"`
				} `json:"logRecords"`
			} `json:"scopeLogs"`
		} `json:"resourceLogs"`
		ResourceMetrics []struct {
			ScopeMetrics []struct {
				Metrics []struct {
					Name      string                            `json:"name"`
					Sum       *struct{ DataPoints []otlpPoint } `json:"sum"`
					Histogram *struct{ DataPoints []otlpPoint } `json:"histogram"`
				} `json:"metrics"`
			} `json:"scopeMetrics"`
		} `json:"resourceMetrics"`
	}
)

func kvMap(kvs []otlpKV) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		switch {
		case kv.Value.S != nil:
			m[kv.Key] = *kv.Value.S
		case kv.Value.I != nil:
			n, _ := strconv.ParseInt(*kv.Value.I, 10, 64)
			m[kv.Key] = n
		case kv.Value.B != nil:
			m[kv.Key] = *kv.Value.B
		}
	}
	return m
}

func (c *collector) read(t *testing.T) received {
	t.Helper()
	got := received{metrics: map[string][]dataPoint{}}
	for _, f := range c.files {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var line otlpLine
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				continue // a line the exporter is still writing
			}
			for _, rl := range line.ResourceLogs {
				res := kvMap(rl.Resource.Attributes)
				for _, sl := range rl.ScopeLogs {
					for _, lr := range sl.LogRecords {
						ts, _ := strconv.ParseInt(lr.Time, 10, 64)
						got.logs = append(got.logs, logRecord{time: ts, event: lr.EventName, attrs: kvMap(lr.Attributes), resource: res})
					}
				}
			}
			for _, rm := range line.ResourceMetrics {
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						var pts []otlpPoint
						if m.Sum != nil {
							pts = m.Sum.DataPoints
						} else if m.Histogram != nil {
							pts = m.Histogram.DataPoints
						}
						for _, p := range pts {
							v := p.AsInt
							if v == nil {
								v = p.Count
							}
							var n int64
							if v != nil {
								n, _ = strconv.ParseInt(*v, 10, 64)
							}
							got.metrics[m.Name] = append(got.metrics[m.Name], dataPoint{attrs: kvMap(p.Attributes), value: n})
						}
					}
				}
			}
		}
	}
	return got
}

// guardEnv is one user's guard: a temp HOME with config.toml, and the
// binaries.
type guardEnv struct {
	bin, home, proj, state string
	env                    []string
}

func newGuard(t *testing.T, bin, telemetryConf string) *guardEnv {
	t.Helper()
	dir := t.TempDir()
	g := &guardEnv{bin: bin, home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj")}
	g.state = filepath.Join(g.home, ".local", "state", "guard")
	conf := filepath.Join(g.home, ".config", "guard")
	for _, d := range []string{conf, filepath.Join(g.proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := "[permissions.bash]\nallow = [\"echo *\", \"true\"]\n\n" + telemetryConf
	if err := os.WriteFile(filepath.Join(conf, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GUARD_") || strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "OTEL_") || k == "HOME" {
			continue
		}
		g.env = append(g.env, kv)
	}
	g.env = append(g.env, "HOME="+g.home,
		"XDG_CONFIG_HOME="+filepath.Join(g.home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(g.home, ".local", "state"),
		"XDG_CACHE_HOME="+filepath.Join(g.home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(g.home, ".local", "share"),
		"GUARD_MANAGED_POLICY="+filepath.Join(dir, "policy.toml"),
		"GUARD_AGENT=test-agent")
	return g
}

// run runs guard -c text in the project (a refusal is a decision too).
func (g *guardEnv) run(t *testing.T, text string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(g.bin, "guard"), "-c", text)
	cmd.Dir, cmd.Env = g.proj, g.env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("guard -c %q: %v", text, err)
	}
	if bytes.Contains(out, []byte("warning")) {
		t.Errorf("guard -c %q: %s", text, out)
	}
}

// flush runs guard telemetry flush, which must succeed or fail as ok says.
func (g *guardEnv) flush(t *testing.T, ok bool, flags ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(g.bin, "guard-cli"), append([]string{"telemetry", "flush"}, flags...)...)
	cmd.Dir, cmd.Env = g.proj, g.env
	out, err := cmd.CombinedOutput()
	if (err == nil) != ok {
		t.Fatalf("guard telemetry flush: %v, want success %v:\n%s", err, ok, out)
	}
	if !ok && !strings.HasPrefix(string(out), "guard: error: ") {
		t.Errorf("a failed flush said %q", out)
	}
	g.holdFlusher(t)
	return string(out)
}

// holdFlusher moves the next due flush an hour on: guard starts none by
// itself while the test flushes by hand.
func (g *guardEnv) holdFlusher(t *testing.T) {
	t.Helper()
	if err := os.MkdirAll(g.state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := ccs.SetFlushDue(g.state, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}

// waitFlusher waits until no flusher holds the telemetry lock (the one
// guard started has ended).
func (g *guardEnv) waitFlusher(t *testing.T) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(g.state, "telemetry.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !waitFor(func() bool { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil }) {
		t.Fatal("the flusher guard started did not end")
	}
}

func (g *guardEnv) lastID(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(g.state, "telemetry.state"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		LastID int64 `json:"last_id"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st.LastID
}

// audit returns guard audit --json's lines, each as its keys and values.
func (g *guardEnv) audit(t *testing.T) []map[string]any {
	t.Helper()
	cmd := exec.Command(filepath.Join(g.bin, "guard-cli"), "audit", "--json", "-n", "0")
	cmd.Dir, cmd.Env = g.proj, g.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("guard audit --json: %v", err)
	}
	var recs []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("audit line %s: %v", line, err)
		}
		recs = append(recs, m)
	}
	return recs
}

// checkOnce: every audit record reached the collector exactly once.
func checkOnce(t *testing.T, audit []map[string]any, got received) {
	t.Helper()
	seen := map[int64]int{}
	for _, r := range got.logs {
		id, _ := r.attrs["guard.record.id"].(int64)
		seen[id]++
	}
	for _, a := range audit {
		id, _ := a["id"].(json.Number).Int64()
		if seen[id] != 1 {
			t.Errorf("record %d (%v) reached the collector %d times, want once", id, a["command"], seen[id])
		}
		delete(seen, id)
	}
	for id, n := range seen {
		t.Errorf("the collector got record %d (%d times), which guard audit does not list", id, n)
	}
}

// checkFields: each OTLP log record carries the fields of its audit line
// (telemetry.Fields renames them), at the decision's time. all says every
// field is expected (include_command = "redacted", project = "named").
func checkFields(t *testing.T, audit []map[string]any, got received, all, named bool) {
	t.Helper()
	byID := map[int64]logRecord{}
	for _, r := range got.logs {
		id, _ := r.attrs["guard.record.id"].(int64)
		byID[id] = r
	}
	attrOf := map[string]string{}
	for _, f := range telemetry.Fields {
		attrOf[f.JSON] = f.Attr
	}
	for _, a := range audit {
		id, _ := a["id"].(json.Number).Int64()
		r, ok := byID[id]
		if !ok {
			continue // checkOnce says so
		}
		var want []string
		for k, v := range a {
			attr, ok := attrOf[k]
			if !ok {
				t.Errorf("audit field %q has no OTLP attribute", k)
				continue
			}
			if k == "time" {
				at, err := time.Parse(time.RFC3339Nano, v.(string))
				if err != nil || at.UnixNano() != r.time {
					t.Errorf("record %d: timestamp %d, want the decision's time %v", id, r.time, v)
				}
				continue
			}
			if !all && (k == "command" || k == "cwd") {
				continue
			}
			want = append(want, attr)
			if k == "project" && named {
				v = filepath.Base(v.(string))
			}
			if k == "project" && !named {
				continue
			}
			if n, ok := v.(json.Number); ok {
				v, _ = n.Int64()
			}
			if r.attrs[attr] != v {
				t.Errorf("record %d: %s = %v (%T), want %v (%T), as audit's %s", id, attr, r.attrs[attr], r.attrs[attr], v, v, k)
			}
		}
		var have []string
		for k := range r.attrs {
			if k != telemetry.CacheHitAttr {
				have = append(have, k)
			}
		}
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(want, have) {
			t.Errorf("record %d: OTLP attributes %v, want the audit's fields as %v", id, have, want)
		}
		if r.event != telemetry.EventName {
			t.Errorf("record %d: event name %q", id, r.event)
		}
		if a["agent"] != "test-agent" || a["project"] == nil || a["overhead_us"] == nil {
			t.Errorf("audit record %d lacks agent, project or overhead: %v", id, a)
		}
	}
}

// checkSecret: the fake token never reached the collector.
func checkSecret(t *testing.T, c *collector) {
	t.Helper()
	for _, f := range c.files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte(fakeToken)) || bytes.Contains(b, []byte(fakeToken[4:20])) {
			t.Errorf("%s holds the secret", f)
		}
	}
}

// checkMetrics: the decisions counter adds up to the records, once each,
// and the histograms arrived.
func checkMetrics(t *testing.T, got received, records int) {
	t.Helper()
	var sum int64
	for _, p := range got.metrics["guard.decisions"] {
		sum += p.value
		if p.attrs["guard.decision"] == nil || p.attrs["gen_ai.agent.name"] != "test-agent" {
			t.Errorf("guard.decisions point attributes %v", p.attrs)
		}
	}
	if sum != int64(records) {
		t.Errorf("guard.decisions adds up to %d, want %d", sum, records)
	}
	for _, name := range []string{"guard.overhead", "guard.command.duration"} {
		if len(got.metrics[name]) == 0 {
			t.Errorf("no %s histogram", name)
		}
	}
}
