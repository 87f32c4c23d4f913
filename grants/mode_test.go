package grants

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/classify"
)

// policyFiles are the layer files of one mode case; "" leaves a file out.
type policyFiles struct {
	managed, global, grants, project string
	trust                            bool // pin the project config
}

func (e *testEnv) lay(t *testing.T, f policyFiles) {
	t.Helper()
	for file, text := range map[string]string{
		e.p.Managed:               f.managed,
		e.p.GlobalConfig():        f.global,
		e.p.ProjectGrants(e.proj): f.grants,
		ProjectConfig(e.proj):     f.project,
	} {
		if text != "" {
			write(t, file, text)
		}
	}
	if f.trust {
		if _, err := Trust(e.p, e.proj); err != nil {
			t.Fatal(err)
		}
	}
}

func TestModeLayers(t *testing.T) {
	cases := []struct {
		name  string
		files policyFiles
		want  Mode
		why   string // a part of ModeWhy
		err   string // a part of Err
		note  string // a part of one of Policy.Notes
	}{
		{name: "default", want: ModeEnforce, why: "default"},
		{name: "global dry_run", files: policyFiles{global: `mode = "dry_run"`}, want: ModeDryRun, why: "global"},
		{name: "most specific wins, even looser", files: policyFiles{global: `mode = "enforce"`, grants: `mode = "off"`}, want: ModeOff, why: "project-grants"},
		{name: "trusted project wins", files: policyFiles{global: `mode = "dry_run"`, project: `mode = "enforce"`, trust: true}, want: ModeEnforce, why: "project"},
		{name: "untrusted project only tightens", files: policyFiles{global: `mode = "dry_run"`, project: `mode = "enforce"`}, want: ModeEnforce},
		{name: "untrusted project cannot loosen", files: policyFiles{project: `mode = "off"`}, want: ModeEnforce, note: "mode = \"off\" ignored"},
		{name: "min_mode is a floor", files: policyFiles{managed: `min_mode = "dry_run"`, global: `mode = "off"`}, want: ModeDryRun, why: "min_mode"},
		{name: "min_mode enforce beats everything", files: policyFiles{managed: `min_mode = "enforce"`, grants: `mode = "dry_run"`}, want: ModeEnforce, why: "floor"},
		{name: "min_mode above the mode changes nothing", files: policyFiles{managed: `min_mode = "off"`, global: `mode = "dry_run"`}, want: ModeDryRun},
		{name: "managed mode is a default, not a floor", files: policyFiles{managed: `mode = "enforce"`, global: `mode = "dry_run"`}, want: ModeDryRun},
		{name: "min_mode outside managed is an error", files: policyFiles{global: `min_mode = "off"`}, want: ModeEnforce, err: "min_mode is read only from the managed policy"},
		{name: "allow_user_grants outside managed", files: policyFiles{grants: `allow_user_grants = true`}, want: ModeEnforce, err: "allow_user_grants is read only"},
		{name: "bad mode", files: policyFiles{global: `mode = "dry-run"`}, want: ModeEnforce, err: `config.toml:1:1: mode must be "enforce", "dry_run" or "off"`},
		{name: "bad escalate", files: policyFiles{global: "mode = \"dry_run\"\nescalate = { after = 0, within = \"1h\" }"}, want: ModeDryRun, err: "config.toml:2:14: escalate.after must be"},
		{name: "escalate needs both", files: policyFiles{global: "escalate = { after = 2 }"}, want: ModeEnforce, err: "needs both"},
		{name: "managed escalate binds", files: policyFiles{managed: "escalate = { after = 3, within = \"1h\" }", global: "escalate = { after = 100, within = \"1s\" }"}, want: ModeEnforce, note: "escalate ignored: it is looser"},
		{name: "untrusted project escalate only tightens", files: policyFiles{global: "escalate = { after = 3, within = \"1h\" }", project: "escalate = { after = 100, within = \"1h\" }"}, want: ModeEnforce, note: "escalate ignored"},
		{name: "unknown escalate key", files: policyFiles{global: "escalate = { after = 2, within = \"1h\", x = 1 }"}, want: ModeEnforce, err: `unknown key "escalate.x"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.lay(t, tc.files)
			s := Load(e.p, e.proj)
			if tc.err != "" {
				if s.Err == nil || !strings.Contains(s.Err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", s.Err, tc.err)
				}
				return
			}
			if s.Err != nil {
				t.Fatalf("err: %v", s.Err)
			}
			if s.Policy.Effective() != tc.want || !strings.Contains(s.Policy.ModeWhy, tc.why) {
				t.Errorf("mode %s (%s), want %s (%s)", s.Policy.Effective(), s.Policy.ModeWhy, tc.want, tc.why)
			}
			if tc.note != "" && !strings.Contains(strings.Join(s.Policy.Notes, "\n"), tc.note) {
				t.Errorf("notes %q, want %q", s.Policy.Notes, tc.note)
			}
		})
	}
}

// modeCases decide under one mode: what enforce gives, what the mode
// gives, and Would.
func TestModeDecide(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify.Analyze is still a stub")
	}
	opts := testOptions()
	opts.Protected = append(opts.Protected, "/home/u/.local/state/guard")
	cases := []struct {
		cmd       string
		mode      Mode
		unknown   Decision
		want      Decision
		would     Decision
		rule      string // "" don't check
		configErr bool
	}{
		{cmd: "ls", mode: ModeDryRun, want: Allow},
		{cmd: "touch x", mode: ModeDryRun, want: Allow, would: Ask, rule: RuleUnknown},
		{cmd: "touch x", mode: ModeEnforce, want: Ask},
		{cmd: "touch x", mode: ModeOff, want: Allow, would: Ask},
		{cmd: "touch x", mode: ModeDryRun, unknown: Deny, want: Allow, would: Deny},
		{cmd: "git push --force", mode: ModeDryRun, want: Allow, would: Ask},
		{cmd: "ls | head", mode: ModeDryRun, want: Allow, would: Ask, rule: RuleComposite},
		{cmd: "curl x", mode: ModeDryRun, want: Allow, would: Deny, rule: "curl *"},
		// these block in every mode
		{cmd: "rm -rf /", mode: ModeDryRun, want: Deny},
		{cmd: "rm -rf /", mode: ModeOff, want: Deny},
		{cmd: "mkfs.ext4 -F /dev/sda1", mode: ModeDryRun, want: Deny},
		{cmd: "sudo -n true", mode: ModeOff, want: Deny},
		{cmd: "ls (", mode: ModeOff, want: Deny, rule: classify.FailParse},
		{cmd: "guard approve 1", mode: ModeDryRun, want: Deny},
		{cmd: "guard policy reset", mode: ModeOff, want: Deny},
		{cmd: "touch /home/u/.config/guard/grants.toml", mode: ModeOff, want: Deny},
		{cmd: "ls", mode: ModeOff, want: Deny, rule: RuleConfigError, configErr: true},
	}
	for _, tc := range cases {
		s := settings("global deny curl *")
		s.Root = "/home/u/proj"
		s.Policy.layerMode = tc.mode
		if tc.unknown != "" {
			s.Unknown = tc.unknown
		}
		if tc.configErr {
			s.Err = errTest
		}
		s.settle()
		v := Decide(classify.Analyze(tc.cmd, opts), s)
		if v.Decision != tc.want || v.Would != tc.would || (tc.rule != "" && v.Rule != tc.rule) || v.Mode != tc.mode {
			t.Errorf("%q in %s: %s would=%q rule=%s mode=%s; want %s would=%q rule=%s", tc.cmd, tc.mode, v.Decision, v.Would, v.Rule, v.Mode, tc.want, tc.would, tc.rule)
		}
		if v2, _ := Explain(classify.Analyze(tc.cmd, opts), s); v2 != v {
			t.Errorf("%q: Explain %+v differs from Decide %+v", tc.cmd, v2, v)
		}
	}
}

type testError string

func (e testError) Error() string { return string(e) }

const errTest = testError("broken.toml:1:1: broken")

func TestEscalation(t *testing.T) {
	e := newEnv(t)
	e.lay(t, policyFiles{global: "mode = \"dry_run\"\nescalate = { after = 3, within = \"1h\" }\n"})
	s := Load(e.p, e.proj)
	if s.Err != nil || s.Policy.Effective() != ModeDryRun || s.Policy.Escalate != (Escalation{3, time.Hour}) {
		t.Fatalf("loaded %v %s %+v", s.Err, s.Policy.Effective(), s.Policy.Escalate)
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	steps := []struct {
		at   time.Duration
		want bool // this event switches
	}{
		{0, false},
		{30 * time.Minute, false},
		{2 * time.Hour, false}, // the first two are out of the window now
		{2*time.Hour + time.Minute, false},
		{2*time.Hour + 2*time.Minute, true},
		{2*time.Hour + 3*time.Minute, false}, // switched already
	}
	for n, st := range steps {
		got, err := NoteWouldDeny(e.p, e.proj, t0.Add(st.at), s.Policy.Escalate)
		if err != nil {
			t.Fatal(err)
		}
		if (got != nil) != st.want {
			t.Fatalf("event %d: switched %v, want %v", n+1, got != nil, st.want)
		}
		if got != nil && (got.Events != 3 || got.Root != e.proj) {
			t.Errorf("state %+v", got)
		}
	}
	s = Load(e.p, e.proj)
	if s.Policy.Effective() != ModeEnforce || s.Policy.Escalated == nil || !strings.Contains(s.Policy.ModeWhy, "escalated") {
		t.Fatalf("after escalation: %s (%s)", s.Policy.Effective(), s.Policy.ModeWhy)
	}
	// another project is not escalated
	other := filepath.Join(filepath.Dir(e.proj), "other")
	write(t, filepath.Join(other, ".git", "HEAD"), "x")
	if s := Load(e.p, other); s.Policy.Effective() != ModeDryRun {
		t.Errorf("other project: %s", s.Policy.Effective())
	}
	had, err := ResetEscalation(e.p, e.proj)
	if err != nil || !had {
		t.Fatalf("reset: %v %v", had, err)
	}
	if s := Load(e.p, e.proj); s.Policy.Effective() != ModeDryRun || s.Policy.Escalated != nil {
		t.Errorf("after reset: %s", s.Policy.Effective())
	}
	// the reset forgot the counted events: one more does not switch
	if got, _ := NoteWouldDeny(e.p, e.proj, t0.Add(2*time.Hour+4*time.Minute), s.Policy.Escalate); got != nil {
		t.Errorf("switched right after a reset")
	}
	if had, _ := ResetEscalation(e.p, e.proj); had {
		t.Errorf("second reset found a switch")
	}
	// escalation applies only to dry_run: min_mode off configs stay off
	e2 := newEnv(t)
	e2.lay(t, policyFiles{global: "mode = \"off\"\nescalate = { after = 1, within = \"1h\" }\n"})
	if _, err := NoteWouldDeny(e2.p, e2.proj, t0, Escalation{1, time.Hour}); err != nil {
		t.Fatal(err)
	}
	if s := Load(e2.p, e2.proj); s.Policy.Effective() != ModeOff {
		t.Errorf("off escalated: %s", s.Policy.Effective())
	}
}
