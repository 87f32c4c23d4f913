package grants

import (
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// TestConfineLayers: any layer may tighten [confine]; only the user's own
// config and the managed policy may loosen it, and the managed policy's
// keys bind.
func TestConfineLayers(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    policyFiles
		want string // Confine.String()
		req  bool
	}{
		{name: "default", want: "fs=project net=open"},
		{name: "global hosts", f: policyFiles{global: "[confine]\nnetwork = \"hosts\"\n"}, want: "fs=project net=hosts"},
		{name: "global off", f: policyFiles{global: "[confine]\nmode = \"off\"\n"}, want: "off"},
		{name: "trusted project tightens", f: policyFiles{project: "[confine]\nnetwork = \"none\"\n", trust: true}, want: "fs=project net=none"},
		{name: "untrusted project tightens too", f: policyFiles{project: "[confine]\nnetwork = \"none\"\nrequired = true\n"}, want: "fs=project net=none", req: true},
		{name: "project cannot loosen", f: policyFiles{global: "[confine]\nnetwork = \"hosts\"\n", project: "[confine]\nnetwork = \"open\"\nmode = \"off\"\n", trust: true}, want: "fs=project net=hosts"},
		{name: "project grants file cannot turn it off", f: policyFiles{grants: "[confine]\nmode = \"off\"\n"}, want: "fs=project net=open"},
		{name: "managed binds the user", f: policyFiles{managed: "[confine]\nnetwork = \"hosts\"\nmode = \"auto\"\n", global: "[confine]\nnetwork = \"open\"\nmode = \"off\"\n"}, want: "fs=project net=hosts"},
		{name: "managed required", f: policyFiles{managed: "[confine]\nrequired = true\n", global: "[confine]\nrequired = false\n"}, want: "fs=project net=open", req: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.lay(t, tc.f)
			s := Load(e.p, e.proj)
			if s.Err != nil {
				t.Fatal(s.Err)
			}
			if got := s.Confine.String(); got != tc.want || s.Confine.Required != tc.req {
				t.Errorf("confine = %s required=%v, want %s required=%v", got, s.Confine.Required, tc.want, tc.req)
			}
		})
	}
}

func TestConfineErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[confine]\nmode = \"strict\"\n", `confine.mode must be "auto" or "off"`},
		{"[confine]\nnetwork = \"some\"\n", `network must be "open", "hosts" or "none"`},
		{"[confine]\nrequired = \"yes\"\n", "confine.required must be true or false"},
		{"[confine]\nwrite = [\"relative\"]\n", "must be an absolute path"},
		{"[confine]\nwrite = [\"/\"]\n", "every file writable"},
		{"[confine]\nsandbox = true\n", `unknown key "confine.sandbox"`},
		{"confine = 1\n", "confine must be a table"},
		{"[[rule]]\ncommand = \"npm\"\neffect = \"allow\"\nnetwork = \"closed\"\n", `network must be`},
	} {
		_, err := parseConfig("c.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "c.toml:") {
			t.Errorf("%q: error %v, want one naming c.toml and %q", tc.text, err, tc.want)
		}
	}
}

// TestConfineRuleNetwork: an allow [[rule]] carries its network into the
// verdict, and ConfineFor applies it (a looser one only where the managed
// policy did not bind the network).
func TestConfineRuleNetwork(t *testing.T) {
	e := newEnv(t)
	e.lay(t, policyFiles{global: "[[rule]]\nid = \"offline-tests\"\ncommand = \"npm\"\nargs_contain = [\"test\"]\neffect = \"allow\"\nnetwork = \"none\"\n"})
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	v := Decide(classify.Analyze("npm test", classify.Options{Cwd: e.proj}), s)
	if v.Decision != Allow || v.Network != NetNone {
		t.Fatalf("verdict %s network %q, want allow with network none", v.Decision, v.Network)
	}
	if got := s.ConfineFor(v).String(); got != "fs=project net=none" {
		t.Errorf("ConfineFor = %s", got)
	}
	if got := s.ConfineFor(Verdict{Decision: Allow}).String(); got != "fs=project net=open" {
		t.Errorf("ConfineFor without a rule = %s", got)
	}
}

func TestHostAllowed(t *testing.T) {
	e := newEnv(t)
	e.lay(t, policyFiles{grants: "[permissions.http]\nallow = [\"api.example.com\"]\n", global: "[permissions.http]\ndeny = [\"proxy.golang.org\"]\nallow = [\"global.example.com\"]\n"})
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	for host, want := range map[string]bool{
		"api.example.com": true, "registry.npmjs.org": true, "example.com": false,
		"proxy.golang.org": false, "global.example.com": false, "evil.api.example.com": false,
	} {
		ok, grant := s.HostAllowed(host)
		if ok != want {
			t.Errorf("HostAllowed(%s) = %v, want %v", host, ok, want)
		}
		if !ok && host != "proxy.golang.org" && !strings.Contains(grant, "[http] "+host) {
			t.Errorf("HostAllowed(%s): grant %q does not name the host", host, grant)
		}
	}
}
