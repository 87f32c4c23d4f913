package grants

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// testEnv lays out a home, XDG dirs, a managed policy path and a project
// under a temp dir.
type testEnv struct {
	p    Paths
	proj string
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{
		"HOME":                 filepath.Join(dir, "home"),
		"XDG_CONFIG_HOME":      filepath.Join(dir, "config"),
		"XDG_STATE_HOME":       filepath.Join(dir, "state"),
		"XDG_CACHE_HOME":       filepath.Join(dir, "cache"),
		"GUARD_MANAGED_POLICY": filepath.Join(dir, "etc", "policy.toml"),
	}
	e := &testEnv{p: PathsFromEnv(func(k string) string { return env[k] }), proj: filepath.Join(dir, "proj")}
	if err := os.MkdirAll(filepath.Join(e.proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return e
}

func write(t *testing.T, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPathsFromEnv(t *testing.T) {
	p := PathsFromEnv(func(k string) string { return map[string]string{"HOME": "/h"}[k] })
	want := Paths{Home: "/h", Managed: "/etc/guard/policy.toml", ConfigDir: "/h/.config/guard", StateDir: "/h/.local/state/guard", CacheDir: "/h/.cache/guard", DataDir: "/h/.local/share/guard"}
	if p != want {
		t.Errorf("got %+v, want %+v", p, want)
	}
	if p.GlobalConfig() != "/h/.config/guard/config.toml" || p.GlobalGrants() != "/h/.config/guard/grants.toml" {
		t.Errorf("global files: %s %s", p.GlobalConfig(), p.GlobalGrants())
	}
	pg := p.ProjectGrants("/src/app")
	if !strings.HasPrefix(pg, "/h/.config/guard/projects/") || len(filepath.Base(filepath.Dir(pg))) != 16 || filepath.Base(pg) != "grants.toml" {
		t.Errorf("project grants: %s", pg)
	}
	if prot := p.Protected(); len(prot) < 6 || prot[4] != "/h/.local/share/guard" || !slices.Contains(prot, "/h/.claude/settings.json") || !slices.Contains(prot, "/h/.config/opencode/plugins") {
		t.Errorf("protected: %v", prot)
	}
	p = PathsFromEnv(func(k string) string { return map[string]string{"HOME": "rel", "XDG_CONFIG_HOME": "also/rel"}[k] })
	if !strings.HasPrefix(p.ConfigDir, NoHome) || !strings.HasPrefix(p.StateDir, NoHome) {
		t.Errorf("relative HOME/XDG must not resolve against the working directory: %+v", p)
	}
	env := map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x/c", "XDG_STATE_HOME": "/x/s", "XDG_CACHE_HOME": "/x/k", "XDG_DATA_HOME": "/x/d", "GUARD_MANAGED_POLICY": "/m.toml"}
	p = PathsFromEnv(func(k string) string { return env[k] })
	if p != (Paths{Home: "/h", Managed: "/m.toml", ConfigDir: "/x/c/guard", StateDir: "/x/s/guard", CacheDir: "/x/k/guard", DataDir: "/x/d/guard"}) {
		t.Errorf("xdg: %+v", p)
	}
}

func TestProjectRoot(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "a", "b", "c")
	os.MkdirAll(deep, 0o755)
	if got := ProjectRoot(deep); got != deep {
		t.Errorf("no marker: %s", got)
	}
	os.MkdirAll(filepath.Join(dir, "a", ".git"), 0o755)
	if got := ProjectRoot(deep); got != filepath.Join(dir, "a") {
		t.Errorf(".git: %s", got)
	}
	os.MkdirAll(filepath.Join(dir, ".guard"), 0o755)
	if got := ProjectRoot(deep); got != dir {
		t.Errorf(".guard wins over a nearer .git: %s", got)
	}
	if ProjectConfig(dir) != filepath.Join(dir, ".guard", "config.toml") {
		t.Errorf("project config path")
	}
}

func TestLoadDefaults(t *testing.T) {
	e := newEnv(t)
	s := Load(e.p, e.proj)
	if s.Err != nil || s.Unknown != Ask || s.Composite != "ask" || !s.BuiltinReadonly || s.Timeout != 10*time.Minute || s.AskTimeout != 2*time.Minute || len(s.Rules) != 0 {
		t.Errorf("defaults: %+v", s)
	}
}

func TestLoadLayers(t *testing.T) {
	e := newEnv(t)
	write(t, e.p.Managed, "unknown = \"deny\"\n[permissions.bash]\ndeny = [\"curl *\"]\n")
	write(t, e.p.GlobalConfig(), "unknown = \"ask\"\ncomposite = \"each\"\ntimeout = \"30s\"\nno_tty_prompt = true\nreject_memory = \"10m\"\n\n[permissions.bash]\nallow = [\n  \"curl *\",\n  \"make *\",\n]\n")
	write(t, e.p.GlobalGrants(), "[permissions.bash]\nallow = [\"go test *\"]\n")
	write(t, e.p.ProjectGrants(e.proj), "[permissions.bash]\nallow = ['npm test *']\nask = [\"npm publish*\"]\n")
	s := Load(e.p, filepath.Join(e.proj))
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if s.Unknown != Deny {
		t.Errorf("managed unknown=deny must bind, got %s", s.Unknown)
	}
	if s.Composite != "each" || s.Timeout != 30*time.Second || !s.NoTTYPrompt || s.RejectMemory != 10*time.Minute {
		t.Errorf("global scalars: %+v", s)
	}
	var got []string
	for _, r := range s.Rules {
		got = append(got, fmt.Sprintf("%s %s %s %s:%d", r.Layer, r.Kind, r.Pattern, filepath.Base(r.File), r.Line))
	}
	want := []string{
		"managed deny curl * policy.toml:3",
		"global allow curl * config.toml:9",
		"global allow make * config.toml:10",
		"global-grants allow go test * grants.toml:2",
		"project-grants ask npm publish* grants.toml:3",
		"project-grants allow npm test * grants.toml:2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v := Decide(an("curl https://x"), s); v.Decision != Deny || v.Layer != LayerManaged {
		t.Errorf("managed deny binds: %+v", v)
	}
	if v := Decide(an("npm test"), s); v.Decision != Allow || v.Layer != LayerProjectGrants {
		t.Errorf("project grant: %+v", v)
	}
	if v := Decide(an("cargo build"), s); v.Decision != Deny || v.Rule != RuleUnknown {
		t.Errorf("unknown deny: %+v", v)
	}
}

func TestManagedBinds(t *testing.T) {
	e := newEnv(t)
	write(t, e.p.Managed, "composite = \"ask\"\nbuiltin_readonly = false\ntimeout = \"1m\"\n")
	write(t, e.p.GlobalConfig(), "composite = \"each\"\nbuiltin_readonly = true\ntimeout = \"1h\"\nunknown = \"deny\"\n")
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if s.Composite != "ask" || s.BuiltinReadonly || s.Timeout != time.Minute || s.Unknown != Deny {
		t.Errorf("managed must bind, user may tighten: %+v", s)
	}
	write(t, e.p.GlobalConfig(), "timeout = \"10s\"\n")
	if s := Load(e.p, e.proj); s.Timeout != 10*time.Second {
		t.Errorf("a shorter timeout than managed applies: %v", s.Timeout)
	}
}

func TestTrust(t *testing.T) {
	e := newEnv(t)
	cfg := ProjectConfig(e.proj)
	write(t, cfg, "composite = \"each\"\nunknown = \"deny\"\n[permissions.bash]\nallow = [\"make *\"]\ndeny = [\"make deploy*\"]\n")
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if s.Composite != "ask" || s.Unknown != Deny {
		t.Errorf("untrusted project config may only tighten: %+v", s)
	}
	if v := Decide(an("make build"), s); v.Decision == Allow {
		t.Errorf("untrusted allow counted: %+v", v)
	}
	if v := Decide(an("make deploy"), s); v.Decision != Deny {
		t.Errorf("untrusted deny must apply: %+v", v)
	}
	if l := RulesFiles(e.p, e.proj); l[4].Name != LayerProject || !l[4].Exists || l[4].Trusted {
		t.Errorf("rules files before trust: %+v", l)
	}

	hash, err := Trust(e.p, e.proj)
	if err != nil || len(hash) != 64 {
		t.Fatalf("trust: %q %v", hash, err)
	}
	s = Load(e.p, filepath.Join(e.proj))
	if v := Decide(an("make build"), s); v.Decision != Allow || v.Layer != LayerProject {
		t.Errorf("trusted allow: %+v", v)
	}
	if s.Composite != "each" {
		t.Errorf("trusted project config may loosen: %+v", s)
	}
	if l := RulesFiles(e.p, e.proj); !l[4].Trusted {
		t.Errorf("rules files after trust: %+v", l)
	}

	write(t, cfg, "[permissions.bash]\nallow = [\"make *\", \"curl *\"]\n")
	s = Load(e.p, e.proj)
	if v := Decide(an("curl x"), s); v.Decision == Allow {
		t.Errorf("changed file must be untrusted again: %+v", v)
	}
	if v := Decide(an("make build"), s); v.Decision == Allow {
		t.Errorf("changed file must be untrusted again: %+v", v)
	}

	if _, err := Trust(e.p, filepath.Join(e.proj, "nope")); err == nil {
		t.Errorf("trust of a missing config must fail")
	}
	write(t, cfg, "[permissions.bash]\nallow = [\"bash *\"]\n")
	if _, err := Trust(e.p, e.proj); err == nil || !strings.Contains(err.Error(), "config.toml:2:") {
		t.Errorf("trust of a bad config: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"syntax", "unknown = \"ask\"\nallow = [\n", ":2:10: unexpected EOF"},
		{"syntax bad value", "unknown = ask\n", ":1:11: "},
		{"unknown key", "unknown = \"ask\"\n  colour = \"blue\"\n", `:2:3: unknown key "colour"`},
		{"unknown table", "[permissions.python]\nallow = [\"x\"]\n", `:1:14: unknown key "permissions.python"`},
		{"unknown key in bash", "[permissions.bash]\nallw = [\"x\"]\n", `:2:1: unknown key "permissions.bash.allw"`},
		{"wrong type unknown", "unknown = 3\n", `:1:1: unknown must be "ask" or "deny"`},
		{"wrong value composite", "composite = \"sometimes\"\n", `:1:1: composite must be "ask" or "each"`},
		{"wrong type bool", "\nbuiltin_readonly = \"yes\"\n", `:2:1: builtin_readonly must be true or false`},
		{"bad duration", "timeout = \"soon\"\n", `:1:1: timeout must be a positive duration`},
		{"negative duration", "ask_timeout = \"-1s\"\n", `:1:1: ask_timeout must be a positive duration`},
		{"bad reject_memory", "reject_memory = \"-1h\"\n", `:1:1: reject_memory must be a duration like "1h"`},
		{"allow not array", "[permissions.bash]\nallow = \"git *\"\n", `:2:1: permissions.bash.allow must be an array of strings`},
		{"allow entry not string", "[permissions.bash]\nallow = [\"git *\", 3]\n", `:2:1: permissions.bash.allow entry 2 is not a string`},
		{"empty pattern", "[permissions.bash]\nallow = [\n  \"git *\",\n  \"\",\n]\n", `:4:3: allow pattern "": empty pattern`},
		{"bare star", "[permissions.bash]\ndeny = [\"*\"]\n", `:2:9: deny pattern "*": a bare * pattern`},
		{"interpreter-wide", "[permissions.bash]\nask = [\"x\"]\nallow = [\"git *\", \"python3 *\"]\n", `:3:19: allow pattern "python3 *": allow pattern covers every use of python3`},
		{"interpreter-wide bash", "[permissions.bash]\nallow = ['bash *']\n", `:2:10: allow pattern "bash *"`},
		{"env wide", "[permissions.bash]\nallow = [\"env *\"]\n", `:2:10: allow pattern "env *": allow pattern covers every use of env`},
		{"double space", "[permissions.bash]\nallow = [\"git  log\"]\n", `:2:10: allow pattern "git  log": pattern has leading, trailing or double spaces`},
		{"permissions scalar", "permissions = 1\n", `:1:1: permissions must be a table`},
		{"dotted keys", "permissions.bash.allow = [\"sh *\"]\n", `:1:27: allow pattern "sh *"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			write(t, e.p.GlobalConfig(), tc.text)
			s := Load(e.p, e.proj)
			if s.Err == nil {
				t.Fatalf("no error for %q", tc.text)
			}
			msg := s.Err.Error()
			if !strings.HasPrefix(msg, e.p.GlobalConfig()+":") || !strings.Contains(msg, e.p.GlobalConfig()+tc.want) {
				t.Errorf("error %q, want %q", msg, e.p.GlobalConfig()+tc.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("multi-line error: %q", msg)
			}
			v := Decide(an("ls"), s)
			if v.Decision != Deny || v.Rule != RuleConfigError || !strings.Contains(v.Reason, e.p.GlobalConfig()) {
				t.Errorf("a config error must deny: %+v", v)
			}
		})
	}
	t.Run("no echo of secrets", func(t *testing.T) {
		e := newEnv(t)
		write(t, e.p.GlobalConfig(), "token = \"sk-live-0123456789abcdef0123456789\" junk\n")
		s := Load(e.p, e.proj)
		if s.Err == nil || strings.Contains(s.Err.Error(), "sk-live") {
			t.Errorf("error echoes the file: %v", s.Err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		e := newEnv(t)
		os.MkdirAll(e.p.GlobalGrants(), 0o755)
		if s := Load(e.p, e.proj); s.Err == nil || !strings.Contains(s.Err.Error(), "grants.toml: not a regular file (a directory)") {
			t.Errorf("directory: %v", s.Err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		e := newEnv(t)
		write(t, e.p.Managed, "# "+strings.Repeat("x", maxConfigBytes)+"\n")
		if s := Load(e.p, e.proj); s.Err == nil || !strings.Contains(s.Err.Error(), "larger than") {
			t.Errorf("too large: %v", s.Err)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads everything")
		}
		e := newEnv(t)
		write(t, e.p.GlobalConfig(), "unknown = \"ask\"\n")
		os.Chmod(e.p.GlobalConfig(), 0)
		if s := Load(e.p, e.proj); s.Err == nil || !strings.Contains(s.Err.Error(), "cannot read") {
			t.Errorf("unreadable: %v", s.Err)
		}
	})
}

func TestAddRemoveRule(t *testing.T) {
	e := newEnv(t)
	file := e.p.ProjectGrants(e.proj)
	if err := AddRule(file, Allow, "npm test *"); err != nil {
		t.Fatal(err)
	}
	if err := AddRule(file, Allow, "npm test *"); err != nil {
		t.Fatal(err)
	}
	if err := AddRule(file, Deny, "npm publish*"); err != nil {
		t.Fatal(err)
	}
	if err := AddRule(file, Ask, `weird "quoted" \ pattern`); err != nil {
		t.Fatal(err)
	}
	if err := AddRule(file, Allow, "bash *"); err == nil {
		t.Errorf("interpreter-wide allow stored")
	}
	if err := AddRule(file, Allow, ""); err == nil {
		t.Errorf("empty pattern stored")
	}
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	count := map[string]int{}
	for _, r := range s.Rules {
		count[string(r.Kind)+" "+r.Pattern]++
		if r.Layer != LayerProjectGrants || r.Line == 0 {
			t.Errorf("rule origin: %+v", r)
		}
	}
	if count["allow npm test *"] != 1 || count["deny npm publish*"] != 1 || count[`ask weird "quoted" \ pattern`] != 1 || len(s.Rules) != 3 {
		t.Errorf("rules after add: %v", count)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("grants file mode: %v %v", fi.Mode(), err)
	}
	removed, err := RemoveRule(file, "npm test *")
	if err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	removed, err = RemoveRule(file, "npm test *")
	if err != nil || removed {
		t.Errorf("second remove: %v %v", removed, err)
	}
	if removed, err := RemoveRule(filepath.Join(e.proj, "none.toml"), "x"); err != nil || removed {
		t.Errorf("remove from missing file: %v %v", removed, err)
	}
	if s := Load(e.p, e.proj); len(s.Rules) != 2 || s.Err != nil {
		t.Errorf("rules after remove: %+v %v", s.Rules, s.Err)
	}
	// a hand-edited file keeps its settings; a broken one is never clobbered
	write(t, e.p.GlobalConfig(), "unknown = \"deny\"\ntimeout = \"90s\"\n")
	if err := AddRule(e.p.GlobalConfig(), Allow, "make *"); err != nil {
		t.Fatal(err)
	}
	s = Load(e.p, e.proj)
	if s.Unknown != Deny || s.Timeout != 90*time.Second || s.Err != nil {
		t.Errorf("settings lost on add: %+v", s)
	}
	write(t, e.p.GlobalGrants(), "allow = oops\n")
	if err := AddRule(e.p.GlobalGrants(), Allow, "make *"); err == nil || !strings.Contains(err.Error(), "grants.toml:1:") {
		t.Errorf("add to a broken file: %v", err)
	}
	if b, _ := os.ReadFile(e.p.GlobalGrants()); string(b) != "allow = oops\n" {
		t.Errorf("broken file clobbered: %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(file))
	for _, en := range entries {
		if strings.HasSuffix(en.Name(), ".tmp") {
			t.Errorf("temp file left: %s", en.Name())
		}
	}
}

func TestAddRuleConcurrent(t *testing.T) {
	e := newEnv(t)
	file := e.p.GlobalGrants()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- AddRule(file, Allow, fmt.Sprintf("tool%d *", i))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s := Load(e.p, e.proj)
	if s.Err != nil || len(s.Rules) != 20 {
		t.Fatalf("want 20 rules, got %d (%v)", len(s.Rules), s.Err)
	}
	seen := map[string]bool{}
	for _, r := range s.Rules {
		seen[r.Pattern] = true
	}
	for i := range 20 {
		if !seen[fmt.Sprintf("tool%d *", i)] {
			t.Errorf("tool%d * lost", i)
		}
	}
}

// TestReadConfigSizes: an empty file is a file (not a missing one), a file
// of exactly the limit loads, one byte more does not.
func TestReadConfigSizes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		size    int
		wantErr bool
	}{{0, false}, {1, false}, {4095, false}, {maxConfigBytes, false}, {maxConfigBytes + 1, true}, {3 * maxConfigBytes, true}} {
		file := filepath.Join(dir, fmt.Sprintf("c%d.toml", tc.size))
		if err := os.WriteFile(file, bytes.Repeat([]byte{'#'}, tc.size), 0o600); err != nil {
			t.Fatal(err)
		}
		data, err := readConfig(file)
		if (err != nil) != tc.wantErr {
			t.Errorf("size %d: err %v", tc.size, err)
			continue
		}
		if !tc.wantErr && (data == nil || len(data) != tc.size) {
			t.Errorf("size %d: got %d bytes (nil %v)", tc.size, len(data), data == nil)
		}
	}
	if data, err := readConfig(filepath.Join(dir, "missing.toml")); data != nil || err != nil {
		t.Errorf("missing: %v, %v", data, err)
	}
}

// TestProjectConfigRefusedAllow: a committed .guard/config.toml whose
// allow rules guard refuses (python3 *, a bare *) no longer makes every
// command deny: those rules are ignored with a warning. Its syntax errors
// and bad deny or ask rules still fail closed, and the user's own files
// stay strict.
func TestProjectConfigRefusedAllow(t *testing.T) {
	e := newEnv(t)
	cfg := ProjectConfig(e.proj)
	write(t, cfg, "[permissions.bash]\nallow = [\"make *\", \"python3 *\", \"*\"]\ndeny = [\"make deploy*\"]\n")
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatalf("a refused allow rule in the project config failed the load: %v", s.Err)
	}
	if len(s.Warnings) != 2 || !strings.Contains(s.Warnings[0], `allow pattern "python3 *" ignored`) || !strings.HasPrefix(s.Warnings[0], cfg+":2:") {
		t.Errorf("warnings = %q", s.Warnings)
	}
	for _, r := range s.Rules {
		if r.Pattern == "python3 *" || r.Pattern == "*" {
			t.Errorf("refused rule kept: %+v", r)
		}
	}
	if v := Decide(an("make deploy"), s); v.Decision != Deny {
		t.Errorf("the project's deny rule must still apply: %+v", v)
	}
	if v := Decide(an("ls"), s); v.Decision == Deny {
		t.Errorf("every command denied: %+v", v)
	}
	for _, bad := range []string{
		"[permissions.bash]\ndeny = [\"*\"]\n",
		"[permissions.bash]\nask = [\"\"]\n",
		"[permissions.bash]\nallow = [\n",
	} {
		write(t, cfg, bad)
		if s := Load(e.p, e.proj); s.Err == nil {
			t.Errorf("%q: want a config error", bad)
		}
	}
	write(t, cfg, "")
	write(t, e.p.GlobalConfig(), "[permissions.bash]\nallow = [\"python3 *\"]\n")
	if s := Load(e.p, e.proj); s.Err == nil {
		t.Errorf("the user's own config must stay strict")
	}
}
