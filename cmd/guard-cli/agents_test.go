package main

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

var updateGoldens = flag.Bool("update", false, "rewrite the golden files of TestAgentGoldens")

// agentHome is a temp HOME with a guard binary, for install tests.
type agentHome struct {
	t    *testing.T
	root string // $T in goldens
	home string
	app  func() *App
}

func newAgentHome(t *testing.T) *agentHome {
	t.Helper()
	root := t.TempDir()
	h := &agentHome{t: t, root: root, home: filepath.Join(root, "home")}
	bin := filepath.Join(root, "bin")
	for _, dir := range []string{h.home, bin, filepath.Join(h.home, "proj", ".git")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// install writes guard's path into the agent's files; it never runs it
	if err := os.WriteFile(filepath.Join(bin, "guard"), []byte("#!/bin/sh\nexit 125\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"HOME":                 h.home,
		"PATH":                 "/usr/bin:/bin",
		"XDG_CONFIG_HOME":      filepath.Join(h.home, ".config"),
		"XDG_STATE_HOME":       filepath.Join(h.home, ".local", "state"),
		"XDG_CACHE_HOME":       filepath.Join(h.home, ".cache"),
		"XDG_DATA_HOME":        filepath.Join(h.home, ".local", "share"),
		"GUARD_MANAGED_POLICY": filepath.Join(root, "policy.toml"),
	}
	tick := time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC)
	h.app = func() *App {
		out, err := os.CreateTemp(root, "out")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { out.Close() })
		return &App{
			Stdin: nil, Stdout: out, Stderr: out,
			Getenv: func(k string) string { return env[k] },
			Cwd:    filepath.Join(h.home, "proj"),
			Now: func() time.Time {
				tick = tick.Add(time.Second)
				return tick
			},
			Self: filepath.Join(bin, "guard-cli"),
		}
	}
	return h
}

// run runs guard with args and returns its status and output.
func (h *agentHome) run(args ...string) (int, string) {
	app := h.app()
	code := app.run(append([]string{"guard"}, args...))
	out, err := os.ReadFile(app.Stdout.Name())
	if err != nil {
		h.t.Fatal(err)
	}
	return code, h.norm(string(out))
}

var stamp = regexp.MustCompile(`\d{8}T\d{6}\.\d{3}Z`)

// norm makes output and files independent of the temp dir and the time.
func (h *agentHome) norm(s string) string {
	s = strings.ReplaceAll(s, h.root, "$T")
	s = strings.ReplaceAll(s, strings.ReplaceAll(strings.TrimPrefix(h.root, "/"), "/", "%"), "$T")
	return stamp.ReplaceAllString(s, "TIME")
}

// snapshot is every file and link under HOME, except guard's own records
// and backups, as a txtar archive.
func (h *agentHome) snapshot() string {
	var files []txtar.File
	err := filepath.WalkDir(h.home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(h.home, path)
		if rel == ".local/state/guard" || rel == ".local/share/guard/agents" {
			return filepath.SkipDir
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(path)
			files = append(files, txtar.File{Name: "home/" + rel, Data: []byte("link -> " + h.norm(t) + "\n")})
		case d.IsDir():
			if rel != "." {
				if entries, _ := os.ReadDir(path); len(entries) == 0 {
					files = append(files, txtar.File{Name: "home/" + rel + "/", Data: nil})
				}
			}
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files = append(files, txtar.File{Name: "home/" + rel, Data: []byte(h.norm(string(data)))})
		}
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return string(txtar.Format(&txtar.Archive{Files: files}))
}

func (h *agentHome) seed(fixture string) {
	if fixture == "" {
		return
	}
	ar, err := txtar.ParseFile(fixture)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, f := range ar.Files {
		p := filepath.Join(h.root, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
}

// TestAgentGoldens installs guard into each agent, in each mode, into no
// settings and into settings that already hold the user's own, twice (the
// second run must change nothing), compares the files with the goldens in
// testdata/agents/golden, then uninstalls and expects every file back byte
// for byte. go test -run TestAgentGoldens -update rewrites the goldens.
func TestAgentGoldens(t *testing.T) {
	for _, spec := range agentSpecs() {
		for _, mode := range []string{modePower, modeSafe} {
			if mode == modeSafe && spec.noSafe != "" {
				continue
			}
			for _, existing := range []bool{false, true} {
				for _, scope := range []string{"global", "project"} {
					name := spec.name + "-" + mode + "-" + scope
					fixture := ""
					if existing {
						name += "-existing"
						fixture = filepath.Join("testdata", "agents", spec.name+".txtar")
					}
					if existing && scope == "project" {
						continue // the fixtures are global settings
					}
					t.Run(name, func(t *testing.T) {
						h := newAgentHome(t)
						h.seed(fixture)
						before := h.snapshot()
						args := []string{"install", "--agent", spec.name, "--mode", mode, "--instructions", "--" + scope}
						code, out1 := h.run(args...)
						if code != 0 {
							t.Fatalf("install: status %d: %s", code, out1)
						}
						after := h.snapshot()
						code, out2 := h.run(args...)
						if code != 0 || !strings.Contains(out2, "already installed") {
							t.Fatalf("second install: status %d: %s", code, out2)
						}
						if again := h.snapshot(); again != after {
							t.Fatalf("second install changed files:\n%s", again)
						}
						got := "guard " + strings.Join(args, " ") + "\n" + out1 + after
						golden := filepath.Join("testdata", "agents", "golden", name+".txtar")
						if *updateGoldens {
							if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
								t.Fatal(err)
							}
							if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
								t.Fatal(err)
							}
						} else if want, err := os.ReadFile(golden); err != nil {
							t.Fatalf("%v (run with -update to create it)", err)
						} else if got != string(want) {
							t.Errorf("install differs from %s:\n%s", golden, got)
						}
						code, out := h.run("uninstall", "--agent", spec.name, "--"+scope)
						if code != 0 {
							t.Fatalf("uninstall: status %d: %s", code, out)
						}
						if got := h.snapshot(); got != before {
							t.Errorf("uninstall did not restore the files:\n%s\nwant\n%s", got, before)
						}
					})
				}
			}
		}
	}
}

// TestAgentModeSwitch installs power, then safe, then uninstalls: the
// switch is one step and the end is where it started.
func TestAgentModeSwitch(t *testing.T) {
	for _, agent := range []string{"claude", "codex", "gemini", "opencode"} {
		t.Run(agent, func(t *testing.T) {
			h := newAgentHome(t)
			h.seed(filepath.Join("testdata", "agents", agent+".txtar"))
			before := h.snapshot()
			for _, mode := range []string{modePower, modeSafe, modePower} {
				if code, out := h.run("install", "--agent", agent, "--mode", mode); code != 0 {
					t.Fatalf("install %s: %d %s", mode, code, out)
				}
			}
			power := h.snapshot()
			h2 := newAgentHome(t)
			h2.seed(filepath.Join("testdata", "agents", agent+".txtar"))
			h2.run("install", "--agent", agent)
			if strings.ReplaceAll(h2.snapshot(), h2.root, "") != strings.ReplaceAll(power, h.root, "") {
				t.Errorf("power → safe → power differs from power")
			}
			h.run("uninstall", "--agent", agent)
			if got := h.snapshot(); got != before {
				t.Errorf("uninstall after switching did not restore:\n%s", got)
			}
		})
	}
}

// TestAgentDryRunWritesNothing checks --dry-run on every agent.
func TestAgentDryRunWritesNothing(t *testing.T) {
	for _, spec := range agentSpecs() {
		h := newAgentHome(t)
		h.seed(filepath.Join("testdata", "agents", spec.name+".txtar"))
		before := h.snapshot()
		code, out := h.run("install", "--agent", spec.name, "--dry-run", "--instructions")
		if code != 0 || !strings.Contains(out, "+++ ") || !strings.Contains(out, "nothing written") {
			t.Errorf("%s: dry run: %d %s", spec.name, code, out)
		}
		if h.snapshot() != before {
			t.Errorf("%s: dry run wrote files", spec.name)
		}
		if _, err := os.Stat(filepath.Join(h.home, ".local", "share", "guard", "agents")); err == nil {
			t.Errorf("%s: dry run wrote a record", spec.name)
		}
	}
}

// TestAgentKeepsUserChanges: what the user changed after install stays
// through uninstall.
func TestAgentKeepsUserChanges(t *testing.T) {
	h := newAgentHome(t)
	h.run("install", "--agent", "claude")
	file := filepath.Join(h.home, ".claude", "settings.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"env": {`), []byte(`"model": "sonnet",
  "env": {`), 1)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	h.run("uninstall", "--agent", "claude")
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"model\": \"sonnet\"\n}\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAgentSharedInstructions: codex and pi share a project's AGENTS.md;
// uninstalling one keeps guard's section for the other.
func TestAgentSharedInstructions(t *testing.T) {
	h := newAgentHome(t)
	file := filepath.Join(h.home, "proj", "AGENTS.md")
	for _, agent := range []string{"codex", "pi"} {
		if code, out := h.run("install", "--agent", agent, "--project", "--instructions"); code != 0 {
			t.Fatalf("%s: %d %s", agent, code, out)
		}
	}
	h.run("uninstall", "--agent", "codex", "--project")
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "guard:begin") {
		t.Fatalf("section gone after codex left: %q %v", data, err)
	}
	h.run("uninstall", "--agent", "pi", "--project")
	if data, err := os.ReadFile(file); err == nil && strings.Contains(string(data), "guard:begin") {
		t.Errorf("section left after both left: %q", data)
	}
}

// TestAgentUninstallWithoutRecord: with guard's record gone, uninstall
// still takes out guard's hook, shell, plugin and section, and nothing of
// the user's.
func TestAgentUninstallWithoutRecord(t *testing.T) {
	for _, agent := range []string{"claude", "codex", "gemini", "opencode", "pi"} {
		t.Run(agent, func(t *testing.T) {
			h := newAgentHome(t)
			h.seed(filepath.Join("testdata", "agents", agent+".txtar"))
			if code, out := h.run("install", "--agent", agent, "--instructions"); code != 0 {
				t.Fatalf("install: %d %s", code, out)
			}
			if err := os.RemoveAll(filepath.Join(h.home, ".local", "share", "guard", "agents")); err != nil {
				t.Fatal(err)
			}
			code, out := h.run("uninstall", "--agent", agent)
			if code != 0 || !strings.Contains(out, "recognisably guard's") {
				t.Fatalf("uninstall: %d %s", code, out)
			}
			snap := h.snapshot()
			for _, trace := range []string{"hook " + agent, "guard/shims/bash\"", "guard:begin", "guard for "} {
				if strings.Contains(snap, trace) {
					t.Errorf("left %q:\n%s", trace, snap)
				}
			}
			if code, out := h.run("uninstall", "--agent", agent); code != 0 || !strings.Contains(out, "nothing to remove") {
				t.Errorf("second uninstall: %d %s", code, out)
			}
		})
	}
}
