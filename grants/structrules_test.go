package grants

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// structConfig is a global config.toml with one rule of each kind.
const structConfig = `
[[rule]]
id = "no-data-wipe"
command = "rm"
args_contain = ["-r", "-f", "/data"]
effect = "deny"
reason = "never wipe /data"
examples = ["rm -fr /data", "env rm -rf /data/", "bash -c 'rm --recursive --force //data'"]
not_examples = ["rm -r /data/build", "rm -rf build", "rm -rf /database"]

[[rule]]
id = "terraform-destroy"
command = ["terraform", "tofu"]
args_any = ["destroy", "-destroy"]
effect = "deny"
reason = "terraform destroy never"
examples = ["terraform destroy", "terraform apply -destroy", "tofu -chdir=infra destroy -auto-approve"]
not_examples = ["terraform plan", "terraform apply"]

[[rule]]
id = "kubectl-delete"
command = "kubectl"
args_contain = ["delete"]
effect = "ask"
reason = "kubectl delete needs a human"

[[rule]]
id = "make-check"
command = "make"
args_any = ["test", "lint"]
effect = "allow"

[[rule]]
id = "prod-publish"
command = "npm"
args_contain = ["publish"]
cwd = "/srv/prod/**"
effect = "deny"

[[rule]]
id = "codex-no-commit"
command = "git"
args_contain = ["commit"]
agent = "codex"
effect = "deny"

[[rule]]
id = "drop-table"
command = ["psql", "mysql"]
args_regex = "(?i)drop\\s+table"
effect = "deny"
`

func structSettings(t *testing.T, text string) (*testEnv, *Settings) {
	t.Helper()
	e := newEnv(t)
	write(t, e.p.GlobalConfig(), text)
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	return e, s
}

func TestStructRules(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify is a stub")
	}
	e, s := structSettings(t, structConfig)
	home := e.p.Home
	tests := []struct {
		cmd, cwd, agent string
		want            Decision
		rule            string // "" when the rule must not be one of ours
	}{
		// every spelling of rm -r -f /data
		{cmd: "rm -rf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -fr /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -r -f /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -f -r /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -R -f /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm --recursive --force /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm --recursive -f /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm --rec --forc /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -vrf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -Irf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -rf -- /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -rf //data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -rf /data/", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -rf /srv/../data", want: Deny, rule: "no-data-wipe"},
		{cmd: "rm -rf /scratch /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "/bin/rm -rf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: `\rm -rf /data`, want: Deny, rule: "no-data-wipe"},
		{cmd: `r''m -rf "/data"`, want: Deny, rule: "no-data-wipe"},
		{cmd: "cd / && rm -rf data", want: Deny, rule: "no-data-wipe"},
		{cmd: "cd /data && rm -rf .", want: Deny, rule: "no-data-wipe"},
		// wrapped
		{cmd: "env rm -fr /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "timeout -s KILL 5 rm -rf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "nice -n 5 nohup rm -rf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: "bash -c 'rm -r -f /data'", want: Deny, rule: "no-data-wipe"},
		{cmd: "sh -c 'rm --force --recursive /data'", want: Deny, rule: "no-data-wipe"},
		{cmd: "eval 'rm -rf /data'", want: Deny, rule: "no-data-wipe"},
		{cmd: "echo /data | xargs rm -rf", want: Deny, rule: "no-data-wipe"}, // classify sees the literal words piped into xargs
		{cmd: "xargs rm -rf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: `find /srv -name x -exec rm -rf /data \;`, want: Deny, rule: "no-data-wipe"},
		{cmd: "echo $(rm -rf /data)", want: Deny, rule: "no-data-wipe"},
		{cmd: "ls && rm -rf /data", want: Deny, rule: "no-data-wipe"},
		{cmd: `bash -c "env sh -c 'timeout 5 rm -r -f //data'"`, want: Deny, rule: "no-data-wipe"}, // three deep
		{cmd: `bash -c "eval 'xargs rm -fr /data/'"`, want: Deny, rule: "no-data-wipe"},
		{cmd: `sh -c "bash -c \"env nice rm -rf /data\""`, want: Deny, rule: "no-data-wipe"},
		// harmless look-alikes
		{cmd: "rm -rf /database", want: Ask},
		{cmd: "rm -r /data", want: Ask},
		{cmd: "rm -f /data/x", want: Ask},
		{cmd: "rm -rf data", want: Ask},
		{cmd: "echo rm -rf /data", want: Allow},
		{cmd: "grep -r -f /data x", want: Ask, rule: RulePathRead}, // no structured rule: the read tier asks for /data, outside the project
		{cmd: "git rm -rf /data", want: Ask},
		{cmd: "rmdir /data", want: Ask},
		// words not known until they run: a deny rule that may match asks
		{cmd: "rm -rf /data/sh*", want: Ask}, // names what is inside /data, not /data
		{cmd: "rm -rf /dat*", want: Ask, rule: "no-data-wipe"},
		{cmd: "rm -rf /d?ta", want: Ask, rule: "no-data-wipe"},
		{cmd: "rm -rf /[d]ata", want: Ask, rule: "no-data-wipe"},
		{cmd: `rm -rf "$D"`, want: Ask, rule: "no-data-wipe"},
		{cmd: "rm -rf $(cat dirs)", want: Ask, rule: "no-data-wipe"},
		{cmd: "rm -rf build/$X", want: Ask},
		{cmd: "rm -rf /data/shared/*", want: Ask},
		{cmd: "terraform $ACTION", want: Ask, rule: "terraform-destroy"},
		{cmd: "cat list | xargs rm -rf", want: Ask, rule: "no-data-wipe"},
		{cmd: "xargs -a list terraform", want: Ask, rule: "terraform-destroy"},
		{cmd: `find . -name '*.o' -exec rm -rf {} \;`, want: Ask, rule: "no-data-wipe"},
		{cmd: "xargs -a list rm -rf build", want: Ask, rule: "no-data-wipe"},
		{cmd: `psql -c "$Q"`, want: Ask, rule: "drop-table"},
		{cmd: "make test $X", want: Ask},
		// terraform destroy never
		{cmd: "terraform destroy", want: Deny, rule: "terraform-destroy"},
		{cmd: "terraform destroy -auto-approve", want: Deny, rule: "terraform-destroy"},
		{cmd: "terraform -chdir=infra destroy", want: Deny, rule: "terraform-destroy"},
		{cmd: "terraform apply -destroy", want: Deny, rule: "terraform-destroy"},
		{cmd: "terraform apply --destroy", want: Deny, rule: "terraform-destroy"},
		{cmd: "tofu destroy", want: Deny, rule: "terraform-destroy"},
		{cmd: "/usr/local/bin/terraform destroy", want: Deny, rule: "terraform-destroy"},
		{cmd: "bash -c 'cd infra && terraform destroy'", want: Deny, rule: "terraform-destroy"},
		{cmd: "terraform plan", want: Ask},
		{cmd: "terraform apply", want: Ask},
		{cmd: "terraform-docs destroy", want: Ask},
		// ask
		{cmd: "kubectl delete pod x", want: Ask, rule: "kubectl-delete"},
		{cmd: "kubectl get pods", want: Ask, rule: ""},
		// allow
		{cmd: "make test", want: Allow, rule: "make-check"},
		{cmd: "make -j4 lint", want: Allow, rule: "make-check"},
		{cmd: "make deploy", want: Ask},
		{cmd: "timeout 60 make test", want: Allow, rule: "make-check"},
		{cmd: "make test && make deploy", want: Ask},
		// cwd
		{cmd: "npm publish", cwd: "/srv/prod/app", want: Deny, rule: "prod-publish"},
		{cmd: "npm publish", cwd: "/srv/prod", want: Deny, rule: "prod-publish"},
		{cmd: "cd /srv/prod/app && npm publish", want: Deny, rule: "prod-publish"},
		{cmd: "npm publish", want: Ask},
		{cmd: "npm publish", cwd: "/srv/production", want: Ask},
		// agent
		{cmd: "git commit -m x", agent: "codex", want: Deny, rule: "codex-no-commit"},
		{cmd: "git commit -m x", agent: "Codex", want: Deny, rule: "codex-no-commit"},
		{cmd: "git commit -m x", agent: "claude", want: Ask},
		{cmd: "git commit -m x", want: Ask},
		// regex
		{cmd: `psql -c "DROP  TABLE users"`, want: Deny, rule: "drop-table"},
		{cmd: `mysql -e "drop table users"`, want: Deny, rule: "drop-table"},
		{cmd: `psql -c "select 1"`, want: Ask},
	}
	for _, tt := range tests {
		cwd := tt.cwd
		if cwd == "" {
			cwd = e.proj
		}
		a := classify.Analyze(tt.cmd, classify.Options{Cwd: cwd, Home: home})
		ss := *s
		ss.Agent = tt.agent
		v := Decide(a, &ss)
		ok := v.Decision == tt.want
		if tt.rule != "" {
			ok = ok && v.Rule == tt.rule
		} else {
			for i := range s.Structured {
				if v.Rule == s.Structured[i].ID {
					ok = false
				}
			}
		}
		if !ok {
			t.Errorf("%q (cwd %s, agent %q) = %s %s (%s), want %s %s", tt.cmd, cwd, tt.agent, v.Decision, v.Rule, v.Reason, tt.want, tt.rule)
		}
	}
	// the verdict names the rule's file and line, and says the reason
	a := classify.Analyze("terraform destroy", classify.Options{Cwd: e.proj, Home: home})
	v := Decide(a, s)
	if v.File != e.p.GlobalConfig() || v.Line != 11 || v.Reason != "terraform destroy never" || v.Layer != LayerGlobal {
		t.Errorf("verdict %+v", v)
	}
	_, trace := Explain(a, s)
	if !strings.Contains(strings.Join(trace, "\n"), "step 3 deny rule terraform-destroy [global "+e.p.GlobalConfig()+":11]: matches command 1") {
		t.Errorf("trace:\n%s", strings.Join(trace, "\n"))
	}
}

func TestStructRulesHome(t *testing.T) {
	e, s := structSettings(t, `
[[rule]]
command = "rm"
args_contain = ["-r", "~/keep"]
effect = "deny"
examples = ["rm -r ~/keep", "rm -r $HOME/keep/", "cd ~ && rm -r keep"]
not_examples = ["rm -r '~/keep'", "rm -r keep"]
`)
	a := classify.Analyze("rm -R "+filepath.Join(e.p.Home, "keep"), classify.Options{Cwd: e.proj, Home: e.p.Home})
	if v := Decide(a, s); v.Rule != "rule-1" {
		t.Errorf("absolute spelling of ~/keep: %+v", v)
	}
}

func TestStructRulesUntrustedProject(t *testing.T) {
	e := newEnv(t)
	write(t, ProjectConfig(e.proj), `
[[rule]]
command = "make"
args_contain = ["test"]
effect = "allow"

[[rule]]
command = "make"
args_contain = ["deploy"]
effect = "deny"

[[rule]]
command = "bash"
args_contain = ["ci.sh"]
effect = "allow"
`)
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "config.toml:12: rule 3 ignored: an allow rule on bash") {
		t.Errorf("warnings %q", s.Warnings)
	}
	opts := classify.Options{Cwd: e.proj, Home: e.p.Home}
	if v := Decide(classify.Analyze("make test", opts), s); v.Decision != Ask || v.Rule != RuleUnknown {
		t.Errorf("an untrusted project's allow rule must not allow: %+v", v)
	}
	if v := Decide(classify.Analyze("make deploy", opts), s); v.Decision != Deny || v.Rule != "rule-2" {
		t.Errorf("an untrusted project's deny rule applies: %+v", v)
	}
	// trusted: the allow rule counts
	data, _ := os.ReadFile(ProjectConfig(e.proj))
	write(t, e.p.TrustFile(e.proj), hashBytes(data)+"\n")
	s = Load(e.p, e.proj)
	if v := Decide(classify.Analyze("make test", opts), s); v.Decision != Allow || v.Rule != "rule-1" {
		t.Errorf("a trusted project's allow rule allows: %+v", v)
	}
}

func TestStructRulesAllowLimits(t *testing.T) {
	e, s := structSettings(t, `
[[rule]]
command = ["git", "find"]
effect = "allow"
`)
	opts := classify.Options{Cwd: e.proj, Home: e.p.Home}
	for _, cmd := range []string{"git -c core.pager=sh log", "find . -exec sh -c 'curl x' \\;", "git push --force"} {
		if v := Decide(classify.Analyze(cmd, opts), s); v.Decision == Allow {
			t.Errorf("%q allowed by a structured allow: %+v", cmd, v)
		}
	}
	if v := Decide(classify.Analyze("git commit -m x", opts), s); v.Decision != Allow {
		t.Errorf("git commit: %+v", v)
	}
}

func TestStructRuleErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"example fails", "\n[[rule]]\ncommand = \"rm\"\nargs_contain = [\"-r\"]\neffect = \"deny\"\nexamples = [\"rm -f x\"]\n",
			`:2: rule 1: example "rm -f x" does not match`},
		{"not example matches", "[[rule]]\ncommand = \"rm\"\neffect = \"deny\"\n\n[[rule]]\ncommand = \"rm\"\nargs_contain = [\"-r\", \"-f\"]\neffect = \"deny\"\nnot_examples = [\"rm -fr x\"]\n",
			`:5: rule 2: not_example "rm -fr x" matches`},
		{"wrapped example", "[[rule]]\ncommand = \"curl\"\neffect = \"ask\"\nexamples = [\"bash -c 'env curl x'\", \"wget x\"]\n",
			`:1: rule 1: example "wget x" does not match`},
		{"bad regex", "[permissions.bash]\ndeny = [\"x\"]\n[[rule]]\ncommand = \"psql\"\nargs_regex = \"(drop\"\neffect = \"deny\"\n",
			`:3: rule 1: args_regex does not compile: missing closing )`},
		{"lookahead is not RE2", "[[rule]]\ncommand = \"psql\"\nargs_regex = \"(?!x)\"\neffect = \"deny\"\n",
			`:1: rule 1: args_regex does not compile: invalid or unsupported Perl syntax`},
		{"unknown key", "[[rule]]\ncommand = \"rm\"\neffects = \"deny\"\n", `:1: rule 1: unknown key "effects"`},
		{"no effect", "[[rule]]\ncommand = \"rm\"\n", `:1: rule 1: effect is missing`},
		{"bad effect", "[[rule]]\ncommand = \"rm\"\neffect = \"block\"\n", `:1: rule 1: effect must be "allow", "ask" or "deny"`},
		{"command path", "[[rule]]\ncommand = \"/bin/rm\"\neffect = \"deny\"\n", `:1: rule 1: command "/bin/rm" must be a command's name`},
		{"args without command", "[[rule]]\nargs_contain = [\"-rf\"]\neffect = \"deny\"\n", `:1: rule 1: args_contain and args_any need a command`},
		{"matches everything", "[[rule]]\neffect = \"deny\"\n", `:1: rule 1: a rule needs a command`},
		{"args not list", "[[rule]]\ncommand = \"rm\"\nargs_contain = \"-rf\"\neffect = \"deny\"\n", `:1: rule 1: args_contain must be an array of strings`},
		{"allow interpreter", "[[rule]]\ncommand = [\"make\", \"python3\"]\nargs_contain = [\"x.py\"]\neffect = \"allow\"\n", `:1: rule 1: an allow rule on python3 covers every program`},
		{"allow without command", "[[rule]]\nargs_regex = \"x\"\neffect = \"allow\"\n", `:1: rule 1: an allow rule must name its command`},
		{"relative cwd", "[[rule]]\ncommand = \"rm\"\ncwd = \"prod\"\neffect = \"deny\"\n", `:1: rule 1: cwd must be an absolute glob`},
		{"rule not table", "rule = 3\n", `:1: rule must be an array of tables`},
		{"rule one table", "[rule]\ncommand = \"rm\"\neffect = \"deny\"\n", `:1: rule must be an array of tables`},
		{"rule sub-table", "[[rule]]\ncommand = \"rm\"\neffect = \"deny\"\n[rule.x]\na = 1\n", `:1: rule 1: unknown key "x"`},
		{"command number", "[[rule]]\ncommand = 3\neffect = \"deny\"\n", `:1: rule 1: command must be a string or an array of strings`},
		{"example number", "[[rule]]\ncommand = \"rm\"\neffect = \"deny\"\nexamples = [1]\n", `:1: rule 1: examples entry 1 is not a string`},
		{"id with space", "[[rule]]\nid = \"a b\"\ncommand = \"rm\"\neffect = \"deny\"\n", `:1: rule 1: id must be one word`},
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
			if !strings.Contains(msg, e.p.GlobalConfig()+tc.want) {
				t.Errorf("error %q, want %q", msg, e.p.GlobalConfig()+tc.want)
			}
			if v := Decide(classify.Analyze("ls", classify.Options{Cwd: e.proj}), s); v.Decision != Deny || v.Rule != RuleConfigError {
				t.Errorf("a bad rule must deny everything: %+v", v)
			}
		})
	}
}

// BenchmarkDecideStructRules is BenchmarkDecide's kind of work with seven
// [[rule]] tables loaded (compare BenchmarkDecide, with none).
func BenchmarkDecideStructRules(b *testing.B) {
	dir := b.TempDir()
	env := map[string]string{"HOME": filepath.Join(dir, "home"), "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "GUARD_MANAGED_POLICY": filepath.Join(dir, "policy.toml")}
	p := PathsFromEnv(func(k string) string { return env[k] })
	if err := os.MkdirAll(filepath.Dir(p.GlobalConfig()), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p.GlobalConfig(), []byte(structConfig), 0o644); err != nil {
		b.Fatal(err)
	}
	s := Load(p, dir)
	if s.Err != nil {
		b.Fatal(s.Err)
	}
	as := []*classify.Analysis{
		classify.Analyze("git status", classify.Options{Cwd: dir}),
		classify.Analyze("go test ./... | tail -5", classify.Options{Cwd: dir}),
		classify.Analyze("bash -c 'env rm -rf build'", classify.Options{Cwd: dir}),
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Decide(as[i%len(as)], s)
	}
}

func TestWildMatch(t *testing.T) {
	tests := []struct {
		w, s string
		want bool
	}{
		{"/dat*", "/data", true},
		{"/d?ta", "/data", true},
		{"/[d]ata", "/data", true},
		{`"$D"`, "/data", true},
		{"/$X", "/data", true},
		{"/${X}a", "/data", true},
		{"/${X}b", "/data", false},
		{"$(cat x)/data", "/srv/data", true},
		{"`pwd`/x", "/data", false},
		{"/data/*", "/data", false},
		{"/srv/$X", "/data", false},
		{"--output=$F", "--output=/etc/passwd", true},
		{"--out=$F", "--output=/etc/passwd", false},
	}
	for _, tt := range tests {
		if got := wildMatch(tt.w, tt.s); got != tt.want {
			t.Errorf("wildMatch(%q, %q) = %v, want %v (pattern %q)", tt.w, tt.s, got, tt.want, wildPattern(tt.w))
		}
	}
}

// FuzzWildMatch checks that reading any word as a pattern never panics,
// and that a word without glob or expansion characters matches only itself.
func FuzzWildMatch(f *testing.F) {
	for _, s := range []string{"/dat*", `"$D"`, "/${X}a", "$(a (b) c)/x", "`x", "[ab", "$", "${", "$(("} {
		f.Add(s, "/data")
	}
	f.Fuzz(func(t *testing.T, w, s string) {
		got := wildMatch(w, s)
		if !wild(w) && !strings.ContainsAny(w, `"'`) && got != (w == s) {
			t.Fatalf("wildMatch(%q, %q) = %v for a literal word", w, s, got)
		}
		if wild(w) && !wildMatch(w, w) && !strings.ContainsAny(w, "$`[\"'") {
			t.Fatalf("a glob %q does not match itself", w)
		}
	})
}

// BenchmarkLoadStructRules is Load with the seven [[rule]] tables of
// structConfig (their examples parsed on every load), against the same
// file without them: what the rules cost each command at start-up.
func BenchmarkLoadStructRules(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"none", "unknown = \"ask\"\n"},
		{"seven", structConfig},
		{"seven-no-examples", noExamples(structConfig)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			env := map[string]string{"HOME": filepath.Join(dir, "home"), "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "GUARD_MANAGED_POLICY": filepath.Join(dir, "policy.toml")}
			p := PathsFromEnv(func(k string) string { return env[k] })
			if err := os.MkdirAll(filepath.Dir(p.GlobalConfig()), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p.GlobalConfig(), []byte(bc.text), 0o644); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if s := Load(p, dir); s.Err != nil {
					b.Fatal(s.Err)
				}
			}
		})
	}
}

// TestStructRuleIssueExample loads the rule exactly as the issue writes it,
// empty keys included, and checks that the hard denylist still decides
// rm -rf / first.
func TestStructRuleIssueExample(t *testing.T) {
	e, s := structSettings(t, `[[rule]]
command = "rm"                    # or a list; matched on the basename, after unwrapping wrappers
args_contain = ["-r", "-f", "/"]  # all of these, after flag normalisation
args_any = []                     # at least one of these
args_regex = ""                   # against the words joined by spaces
cwd = ""                          # glob on the working directory
agent = ""                        # only for this agent
effect = "deny"                   # allow | ask | deny
reason = "…"                      # shown in the refusal
examples = ["rm -fr /"]           # must match, checked at load
not_examples = ["rm -r build"]    # must not match, checked at load
`)
	if len(s.Structured) != 1 {
		t.Fatalf("rules: %+v", s.Structured)
	}
	v := Decide(classify.Analyze("bash -c 'rm --force -r //'", classify.Options{Cwd: e.proj, Home: e.p.Home}), s)
	if v.Decision != Deny || v.Layer != LayerBuiltin {
		t.Errorf("the hard denylist decides first: %+v", v)
	}
}

// noExamples drops the examples and not_examples lines of a config.
func noExamples(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "examples") && !strings.HasPrefix(l, "not_examples") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestStructRuleRootSpellings runs the issue's rule (rm -r -f /) on its own,
// without the hard denylist in front of it: every spelling and wrapping of
// rm -rf / matches, and look-alikes do not.
func TestStructRuleRootSpellings(t *testing.T) {
	_, s := structSettings(t, "[[rule]]\ncommand = \"rm\"\nargs_contain = [\"-r\", \"-f\", \"/\"]\neffect = \"deny\"\n")
	r := &s.Structured[0]
	tests := []struct {
		cmd  string
		want bool
	}{
		{"rm -rf /", true},
		{"rm -fr /", true},
		{"rm -r -f /", true},
		{"rm -f -r //", true},
		{"rm -Rf /.", true},
		{"rm --recursive --force /", true},
		{"rm --no-preserve-root -rf /", true},
		{"rm -rf /tmp/..", true},
		{"/bin/rm -rf /", true},
		{"env rm -fr /", true},
		{"env -i rm -fr /", true},
		{"bash -c 'rm -r -f /'", true},
		{"xargs rm -rf /", true},
		{"echo / | xargs rm -rf", true},
		{"eval 'rm -rf /'", true},
		{"timeout 5 nice -n 1 nohup rm -rf /", true},
		{`bash -c "env sh -c 'xargs rm -r -f //'"`, true},
		{`sh -c "eval 'timeout 9 rm -fr /'"`, true},
		{"cd /tmp && cd .. && rm -rf .", true},
		{"echo $(rm -rf /)", true},
		// look-alikes
		{"rm -r -f /tmp", false},
		{"rm -rf ./", false},
		{"rm -r /", false},
		{"rm -f /", false},
		{"echo rm -rf /", false},
		{"grep -rf / x", false},
		{"rmdir /", false},
		{"git rm -rf /", false},
		{"bash -c 'echo rm -rf /'", false},
	}
	for _, tt := range tests {
		a := classify.Analyze(tt.cmd, classify.Options{Cwd: "/home/u/proj", Home: "/home/u"})
		if got := r.matchesText(a); got != tt.want {
			t.Errorf("%q matches = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}
