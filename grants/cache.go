package grants

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/guard-dev/guard/classify"
)

// Context is what the command context store (package ccs) takes from the
// settings: which runs are kept, which are served from the cache, and
// the store's size limits. Defaults are in DefaultContext.
type Context struct {
	Cache      []CacheRule // [[cache]] tables, in layer order
	Sensitive  []string    // patterns whose runs are never stored (built-ins in SensitiveBuiltin)
	CaptureTTY bool        // capture_tty: capture runs whose stdout or stderr is a terminal too
	CacheNote  bool        // cache_note: say "guard: cached …" on stderr when serving a hit
	RedactLive bool        // redact_live: redact what the agent sees as well as what is stored

	StoreMaxInline int64 // store_max_inline: output bytes kept in the database per run
	StoreMaxLogs   int64 // store_max_logs: total bytes of the full-output log files
	StoreMaxDB     int64 // store_max_db: the database's size cap
}

// A CacheRule is one [[cache]] table: runs of simple commands matching
// Match are served from the store for TTL.
type CacheRule struct {
	Match         string
	TTL           time.Duration
	Stale         time.Duration // 0: never serve past it; else serve until TTL and refresh in the background after Stale
	KeyEnv        []string      // variables whose (hashed) values are part of the key
	Watch         []string      // extra paths whose mtime and size are part of the key
	CacheFailures time.Duration // 0: only exit 0 is served; else failures are served this long
	File          string
	Line          int
}

// DefaultContext returns the store's built-in settings.
func DefaultContext() Context {
	return Context{
		CacheNote:      true,
		StoreMaxInline: 256 << 10,
		StoreMaxLogs:   256 << 20,
		StoreMaxDB:     256 << 20,
	}
}

// SensitiveBuiltin are the commands whose output is never stored: their
// job is to print secrets. Reads of .env files are recognised apart
// (IsSensitive).
var SensitiveBuiltin = []string{
	"env", "printenv *", "set", "export -p",
	"gh auth token *", "aws sts get-session-token *", "aws configure get *",
	"gcloud auth print-access-token *", "gcloud auth application-default print-access-token *",
	"kubectl get secret *", "kubectl get secrets *", "op read *", "vault read *", "vault kv get *",
}

// unstoredBuiltin are commands whose output is not stored though it holds
// no secret: guard context prints what is stored already, and keeping it
// again would only double it.
var unstoredBuiltin = []string{"guard context *", "guard-cli context *"}

// contextKeys are the top-level keys cache.go parses.
var contextKeys = map[string]bool{
	"cache": true, "sensitive": true, "capture_tty": true, "cache_note": true, "redact_live": true,
	"store_max_inline": true, "store_max_logs": true, "store_max_db": true,
}

// contextConfig is one file's share of the Context keys.
type contextConfig struct {
	cacheRead bool // toml lists the key "cache" once per [[cache]] table
	cache     []CacheRule
	sensitive []string
	bools     map[string]bool
	sizes     map[string]int64
}

// isContextKey reports whether k (a key path from toml.MetaData.Keys) is
// one of the store's keys; every key under [[cache]] is.
func isContextKey(k []string) bool { return contextKeys[k[0]] }

// parse reads the store's keys of one file. Keys below "cache" were read
// with their table.
func (cc *contextConfig) parse(k []string, raw map[string]any, text, file string) error {
	key := k[0]
	errAt := func(name string, format string, args ...any) error {
		line, col := locateKey(text, name)
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	if len(k) > 1 {
		if key == "cache" {
			return nil // read with the table
		}
		return errAt(k[len(k)-1], "unknown key %q", strings.Join(k, "."))
	}
	switch key {
	case "cache":
		if cc.cacheRead {
			return nil
		}
		cc.cacheRead = true
		tables, ok := raw["cache"].([]map[string]any)
		if !ok {
			return errAt("cache", "cache must be an array of tables: [[cache]]")
		}
		lines := tableLines(text, "cache")
		for n, t := range tables {
			line := 1
			if n < len(lines) {
				line = lines[n]
			}
			r, err := parseCacheRule(t)
			if err != nil {
				return fmt.Errorf("%s:%d:1: [[cache]] %d: %v", file, line, n+1, err)
			}
			r.File, r.Line = file, line
			cc.cache = append(cc.cache, r)
		}
	case "sensitive":
		list, ok := raw[key].([]any)
		if !ok {
			return errAt(key, "sensitive must be an array of patterns")
		}
		for n, e := range list {
			p, ok := e.(string)
			if !ok {
				return errAt(key, "sensitive entry %d is not a string", n+1)
			}
			if err := ValidatePattern(Deny, p); err != nil {
				return errAt(key, "sensitive pattern %d: %v", n+1, err)
			}
			cc.sensitive = append(cc.sensitive, p)
		}
	case "capture_tty", "cache_note", "redact_live":
		b, ok := raw[key].(bool)
		if !ok {
			return errAt(key, "%s must be true or false", key)
		}
		if cc.bools == nil {
			cc.bools = map[string]bool{}
		}
		cc.bools[key] = b
	default: // the sizes
		n, err := parseSize(raw[key])
		if err != nil {
			return errAt(key, "%s: %v", key, err)
		}
		if cc.sizes == nil {
			cc.sizes = map[string]int64{}
		}
		cc.sizes[key] = n
	}
	return nil
}

// parseCacheRule reads one [[cache]] table.
func parseCacheRule(t map[string]any) (CacheRule, error) {
	var r CacheRule
	dur := func(key string, need bool) (time.Duration, error) {
		v, ok := t[key]
		if !ok {
			if need {
				return 0, fmt.Errorf("%s is required", key)
			}
			return 0, nil
		}
		s, ok := v.(string)
		d, err := time.ParseDuration(s)
		if !ok || err != nil || d < 0 {
			return 0, fmt.Errorf("%s must be a duration like \"1h\"", key)
		}
		return d, nil
	}
	list := func(key string) ([]string, error) {
		v, ok := t[key]
		if !ok {
			return nil, nil
		}
		l, ok := v.([]any)
		var out []string
		for _, e := range l {
			s, isStr := e.(string)
			if !isStr || s == "" {
				ok = false
			}
			out = append(out, s)
		}
		if !ok {
			return nil, fmt.Errorf("%s must be an array of non-empty strings", key)
		}
		return out, nil
	}
	for k := range t {
		switch k {
		case "match", "ttl", "stale", "key_env", "watch", "cache_failures":
		default:
			return r, fmt.Errorf("unknown key %q", k)
		}
	}
	m, ok := t["match"].(string)
	if !ok {
		return r, errors.New("match must be a pattern, as in permissions.bash")
	}
	if err := ValidatePattern(Deny, m); err != nil { // syntax only: a cache rule allows nothing
		return r, fmt.Errorf("match %q: %v", m, err)
	}
	r.Match = m
	var err error
	if r.TTL, err = dur("ttl", true); err != nil {
		return r, err
	}
	if r.TTL == 0 {
		return r, errors.New("ttl must be positive")
	}
	if r.Stale, err = dur("stale", false); err != nil {
		return r, err
	}
	if r.CacheFailures, err = dur("cache_failures", false); err != nil {
		return r, err
	}
	if r.KeyEnv, err = list("key_env"); err != nil {
		return r, err
	}
	if r.Watch, err = list("watch"); err != nil {
		return r, err
	}
	return r, nil
}

// tableLines returns the lines of every [[name]] header, in order.
func tableLines(text, name string) []int {
	var out []int
	for n, line := range strings.Split(text, "\n") {
		l := strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if strings.HasPrefix(l, "[["+name+"]]") {
			out = append(out, n+1)
		}
	}
	return out
}

// sizeUnits are the suffixes a size may carry.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}}

// parseSize reads a byte count: an integer, or a string like "256KiB".
func parseSize(v any) (int64, error) {
	const want = `must be a size like "256KiB" or a number of bytes`
	switch v := v.(type) {
	case int64:
		if v < 0 {
			return 0, errors.New(want)
		}
		return v, nil
	case string:
		s := strings.TrimSpace(v)
		mult := int64(1)
		for _, u := range sizeUnits {
			if strings.HasSuffix(s, u.suffix) {
				s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
				break
			}
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > (1<<50)/mult {
			return 0, errors.New(want)
		}
		return n * mult, nil
	}
	return 0, errors.New(want)
}

// mergeContext applies one layer's store keys. A project config that is
// not trusted may only make the store keep less and show less: its
// sensitive patterns and redact_live = true apply, its cache rules and
// everything else do not.
func (s *Settings) mergeContext(cc *contextConfig, trusted bool) {
	c := &s.Context
	c.Sensitive = append(c.Sensitive, cc.sensitive...)
	if v, ok := cc.bools["redact_live"]; ok && (trusted || v) {
		c.RedactLive = v
	}
	if !trusted {
		return
	}
	c.Cache = append(c.Cache, cc.cache...)
	for k, v := range cc.bools {
		switch k {
		case "capture_tty":
			c.CaptureTTY = v
		case "cache_note":
			c.CacheNote = v
		}
	}
	for k, v := range cc.sizes {
		switch k {
		case "store_max_inline":
			c.StoreMaxInline = v
		case "store_max_logs":
			c.StoreMaxLogs = v
		case "store_max_db":
			c.StoreMaxDB = v
		}
	}
}

// CacheRuleFor returns the [[cache]] rule that covers the analysed text,
// and the argv it runs, when the text is one simple command with nothing
// dynamic in it (no pipe, redirect, substitution or assignment). The last
// matching rule wins, so a project's rule refines a global one.
func CacheRuleFor(a *classify.Analysis, c *Context) (*CacheRule, []string) {
	if a == nil || len(c.Cache) == 0 || a.Fail != "" || len(a.Composite) > 0 || len(a.Deny) > 0 {
		return nil, nil
	}
	top := a.Top()
	if len(top) != 1 {
		return nil, nil
	}
	cmd := &a.Commands[top[0]]
	if len(cmd.Args) == 0 || len(cmd.Assigns) > 0 || cmd.Tainted || cmd.DirUnknown {
		return nil, nil
	}
	for _, d := range cmd.Dynamic {
		if d {
			return nil, nil
		}
	}
	text := strings.Join(cmd.Args, " ")
	for i := len(c.Cache) - 1; i >= 0; i-- {
		if matchPattern(c.Cache[i].Match, text, nil) {
			return &c.Cache[i], cmd.Args
		}
	}
	return nil, nil
}

// IsSensitive reports whether any command in the text prints secrets by
// its nature: a built-in or user sensitive pattern matches it (by the
// command word as written or its basename), or it names a .env file. Such
// runs are never stored. An analysis that failed counts as sensitive.
func IsSensitive(a *classify.Analysis, c *Context) bool {
	if a == nil || a.Fail != "" || len(a.Commands) == 0 {
		// (export -p, declare -x and plain assignments are declarations,
		// not simple commands: with nothing to judge, nothing is kept)
		return true
	}
	for i := range a.Commands {
		cmd := &a.Commands[i]
		if len(cmd.Args) == 0 {
			continue
		}
		text := strings.Join(cmd.Args, " ")
		base := strings.Join(append([]string{cmd.Name}, cmd.Args[1:]...), " ")
		for _, list := range [][]string{SensitiveBuiltin, unstoredBuiltin, c.Sensitive} {
			for _, p := range list {
				if matchPattern(p, text, nil) || matchPattern(p, base, nil) {
					return true
				}
			}
		}
		for _, arg := range cmd.Args[1:] {
			if envFile(arg) {
				return true
			}
		}
	}
	return false
}

// envFile reports whether an argument names a dotenv file (.env,
// .env.local, config/.env.production, --env-file=.env).
func envFile(arg string) bool {
	if _, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(arg, "-") {
		arg = v
	}
	return strings.HasPrefix(path.Base(arg), ".env")
}
