package grants

import (
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/classify"
)

func TestCacheConfig(t *testing.T) {
	e := newEnv(t)
	write(t, e.p.GlobalConfig(), `cache_note = false
sensitive = ["my-secrets *"]
store_max_inline = "64KiB"
store_max_logs = 1048576

[[cache]]
match = "go test *"
ttl = "1h"
stale = "10m"
key_env = ["GOFLAGS"]
watch = ["go.mod"]

[[cache]]
match = "make lint"
ttl = "30s"
cache_failures = "10s"
`)
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	c := s.Context
	if c.CacheNote || c.StoreMaxInline != 64<<10 || c.StoreMaxLogs != 1<<20 || c.StoreMaxDB != DefaultContext().StoreMaxDB {
		t.Errorf("settings: %+v", c)
	}
	if len(c.Cache) != 2 || c.Cache[0].Match != "go test *" || c.Cache[0].TTL != time.Hour || c.Cache[0].Stale != 10*time.Minute ||
		c.Cache[0].KeyEnv[0] != "GOFLAGS" || c.Cache[0].Watch[0] != "go.mod" || c.Cache[1].CacheFailures != 10*time.Second {
		t.Errorf("rules: %+v", c.Cache)
	}
	if c.Cache[1].Line != 13 {
		t.Errorf("second rule at line %d, want 13", c.Cache[1].Line)
	}
}

func TestCacheConfigErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[[cache]]\nmatch = \"go test *\"\n", ":1:1: [[cache]] 1: ttl is required"},
		{"[[cache]]\nmatch = \"x\"\nttl = \"1h\"\n\n[[cache]]\nmatch = \"y\"\nttl = \"soon\"\n", ":5:1: [[cache]] 2: ttl must be a duration"},
		{"[[cache]]\nmatch = \"x\"\nttl = \"1h\"\nwatchh = [\"a\"]\n", `unknown key "watchh"`},
		{"[[cache]]\nttl = \"1h\"\n", "match must be a pattern"},
		{"[[cache]]\nmatch = \"x\"\nttl = \"1h\"\nkey_env = \"GOFLAGS\"\n", "key_env must be an array"},
		{"cache = 3\n", ":1:1: cache must be an array of tables"},
		{"sensitive = \"env\"\n", ":1:1: sensitive must be an array"},
		{"capture_tty = 1\n", ":1:1: capture_tty must be true or false"},
		{"store_max_db = \"lots\"\n", ":1:1: store_max_db: must be a size"},
	} {
		e := newEnv(t)
		write(t, e.p.GlobalConfig(), tc.text)
		s := Load(e.p, e.proj)
		if s.Err == nil || !strings.Contains(s.Err.Error(), tc.want) || !strings.Contains(s.Err.Error(), "config.toml:") {
			t.Errorf("%q: err %v, want %q", tc.text, s.Err, tc.want)
		}
	}
}

// TestCacheUntrustedProject: a cloned repository's config may make guard
// keep less and show less, never serve from the cache.
func TestCacheUntrustedProject(t *testing.T) {
	e := newEnv(t)
	write(t, ProjectConfig(e.proj), "redact_live = true\ncache_note = false\ncapture_tty = true\nsensitive = [\"x *\"]\n[[cache]]\nmatch = \"go test *\"\nttl = \"1h\"\n")
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	c := s.Context
	if len(c.Cache) != 0 || !c.CacheNote || c.CaptureTTY || !c.RedactLive || len(c.Sensitive) != 1 {
		t.Errorf("untrusted project applied: %+v", c)
	}
}

func TestCacheRuleFor(t *testing.T) {
	ctx := &Context{Cache: []CacheRule{{Match: "go test *", TTL: time.Hour}, {Match: "go test ./x", TTL: time.Minute}}}
	for _, tc := range []struct {
		text string
		want string // the rule's ttl, "" for none
	}{
		{"go test ./...", "1h0m0s"},
		{"go test ./x", "1m0s"},
		{"go build ./...", ""},
		{"go test ./... | tee log", ""},
		{"GOFLAGS=-v go test ./...", ""},
		{"go test $(ls)", ""},
		{"go test > out", ""},
		{"cd x && go test ./...", ""},
	} {
		r, argv := CacheRuleFor(classify.Analyze(tc.text, classify.Options{Cwd: "/p"}), ctx)
		got := ""
		if r != nil {
			got = r.TTL.String()
			if strings.Join(argv, " ") != tc.text {
				t.Errorf("%q: argv %q", tc.text, argv)
			}
		}
		if got != tc.want {
			t.Errorf("%q: rule ttl %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestIsSensitive(t *testing.T) {
	ctx := &Context{Sensitive: []string{"my-vault *"}}
	for text, want := range map[string]bool{
		"env":                          true,
		"printenv":                     true,
		"printenv HOME":                true,
		"/usr/bin/printenv":            true,
		"set":                          true,
		"export -p":                    true,
		"cat .env":                     true,
		"cat config/.env.production":   true,
		"docker run --env-file=.env x": true,
		"gh auth token":                true,
		"aws configure get aws_secret_access_key": true,
		"gcloud auth print-access-token":          true,
		"kubectl get secret db -o yaml":           true,
		"op read op://vault/item/password":        true,
		"vault kv get secret/x":                   true,
		"vault read secret/x":                     true,
		"my-vault dump":                           true,
		"git status | env":                        true,
		"guard context show last":                 true,
		"git status":                              false,
		"go test ./...":                           false,
		"cat README.md":                           false,
		"echo environment":                        false,
		"kubectl get pods":                        false,
	} {
		if got := IsSensitive(classify.Analyze(text, classify.Options{Cwd: "/p"}), ctx); got != want {
			t.Errorf("IsSensitive(%q) = %v, want %v", text, got, want)
		}
	}
}
