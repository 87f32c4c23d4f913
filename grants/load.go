package grants

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/guard-dev/guard/redact"
)

// maxConfigBytes bounds every settings file guard reads.
const maxConfigBytes = 1 << 20

// trustedTerminalsShape is the error for a trusted_terminals of the wrong shape.
const trustedTerminalsShape = "trusted_terminals must be an array of absolute paths: terminal programs, or consoles like /dev/tty2 or /dev/tty[0-9]*"

// Defaults returns the built-in settings, all in one place. Precedence, low
// to high: these, then managed, global, global grants, project grants and
// the project config; a value the managed layer sets binds (later layers may
// only make it stricter), and an untrusted project config may only make
// values stricter.
func Defaults() *Settings {
	return &Settings{
		Unknown:         Ask,
		Composite:       "ask",
		BuiltinReadonly: true,
		Timeout:         10 * time.Minute,
		AskTimeout:      2 * time.Minute,
		RejectMemory:    time.Hour,
		PendingTTL:      24 * time.Hour,
		Context:         DefaultContext(),
		Confine:         DefaultConfine(),
		Telemetry:       DefaultTelemetry(),
	}
}

// fileConfig is one parsed settings file.
type fileConfig struct {
	unknown, composite           string // "" when unset
	timeout, askTimeout          time.Duration
	timeoutText, askTimeoutText  string
	rejectMemory                 time.Duration
	rejectMemoryText             string
	pendingTTL                   time.Duration
	pendingTTLText               string
	builtinReadonly, noTTYPrompt *bool
	auditRequired                *bool
	allow, ask, deny             []string
	allowLine, askLine, denyLine []int
	set                          map[string]bool // scalar keys the file sets
	// lenient: refused allow patterns are dropped into ignored instead of
	// failing the file (the committed project config, see Load).
	lenient          bool
	ignored          []string
	trustedTerminals []string // nil when unset
	realShell        string   // real_shell; "" when unset
	// expires holds when allow patterns of this file stop counting
	// ([permissions.bash.expires]: pattern = RFC 3339 time).
	expires        map[string]time.Time
	redactPatterns []string     // redact_patterns: only ever add redaction
	policy         policyConfig // mode, managed switches, agent profiles (mode.go)

	rules []StructRule // [[rule]] tables (structrules.go)
	tiers []tierItem   // [permissions.read|write|http|packages] entries (tiers_load.go)

	ctx contextConfig // the command context store's keys (cache.go)

	confine confineConfig // [confine] (confine.go)

	telemetry telemetryConfig // [telemetry] (telemetry.go)
}

var scalarKeys = []string{"unknown", "composite", "timeout", "ask_timeout", "builtin_readonly", "no_tty_prompt", "reject_memory", "pending_ttl", "audit_required"}

// unquote replaces the long quoted fragments of a parser message with '…',
// to keep file content out of errors. The expression is compiled only on
// this error path, not at start-up: guard starts for every command.
func unquote(msg string) string {
	return regexp.MustCompile(`'[^']{16,}'|"[^"]{16,}"`).ReplaceAllString(msg, "'…'")
}

// parseConfig parses and validates one settings file. Errors read
// "file:line:col: problem" and never echo the file's text beyond a key or
// pattern.
func parseConfig(file string, data []byte) (*fileConfig, error) {
	return parseConfigMode(file, data, false)
}

// parseConfigMode is parseConfig; with lenient, an allow pattern guard
// refuses (bash *, a bare *) is left out with a warning instead of
// failing the whole file.
func parseConfigMode(file string, data []byte, lenient bool) (*fileConfig, error) {
	text := string(data)
	raw := map[string]any{}
	md, err := toml.Decode(text, &raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := unquote(pe.Message)
			return nil, fmt.Errorf("%s:%d:%d: %s", file, pe.Position.Line, max(pe.Position.Col, 1), msg)
		}
		return nil, fmt.Errorf("%s:1:1: %s", file, unquote(err.Error()))
	}
	fc := &fileConfig{set: map[string]bool{}, lenient: lenient}
	errAt := func(key string, format string, args ...any) error {
		line, col := locateKey(text, key)
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	for _, k := range md.Keys() {
		name := k.String()
		last := k[len(k)-1]
		switch {
		case len(k) == 1 && k[0] == "permissions":
			if _, ok := raw["permissions"].(map[string]any); !ok {
				return nil, errAt(last, "permissions must be a table")
			}
		case len(k) == 2 && k[0] == "permissions" && k[1] == "bash":
			perm, _ := raw["permissions"].(map[string]any)
			if _, ok := perm["bash"].(map[string]any); !ok {
				return nil, errAt(last, "permissions.bash must be a table")
			}
		case len(k) == 3 && k[0] == "permissions" && k[1] == "bash" && (last == "allow" || last == "ask" || last == "deny"):
			perm, _ := raw["permissions"].(map[string]any)
			bash, _ := perm["bash"].(map[string]any)
			list, ok := bash[last].([]any)
			if !ok {
				return nil, errAt(last, "%s must be an array of strings", name)
			}
			kind := Decision(last)
			keyLine, _ := locateKey(text, last)
			var at lineCursor // the entries come in the text's order
			for n, e := range list {
				p, ok := e.(string)
				if !ok {
					return nil, errAt(last, "%s entry %d is not a string", name, n+1)
				}
				line, col := locatePatternAt(text, p, keyLine, &at)
				keyLine = line // the list is in the text's order: the next entry is at or after this one
				if err := ValidatePattern(kind, p); err != nil {
					if fc.lenient && kind == Allow {
						fc.ignored = append(fc.ignored, fmt.Sprintf("%s:%d:%d: allow pattern %q ignored: %v", file, line, col, p, err))
						continue
					}
					return nil, fmt.Errorf("%s:%d:%d: %s pattern %q: %v", file, line, col, kind, p, err)
				}
				switch kind {
				case Allow:
					fc.allow, fc.allowLine = append(fc.allow, p), append(fc.allowLine, line)
				case Ask:
					fc.ask, fc.askLine = append(fc.ask, p), append(fc.askLine, line)
				case Deny:
					fc.deny, fc.denyLine = append(fc.deny, p), append(fc.denyLine, line)
				}
			}
		case len(k) == 3 && k[0] == "permissions" && k[1] == "bash" && last == "expires":
			perm, _ := raw["permissions"].(map[string]any)
			bash, _ := perm["bash"].(map[string]any)
			if _, ok := bash["expires"].(map[string]any); !ok {
				return nil, errAt(last, "permissions.bash.expires must be a table of pattern = time")
			}
		case len(k) == 4 && k[0] == "permissions" && k[1] == "bash" && k[2] == "expires":
			perm, _ := raw["permissions"].(map[string]any)
			bash, _ := perm["bash"].(map[string]any)
			exp, _ := bash["expires"].(map[string]any)
			at, err := parseExpires(exp[last])
			if err != nil {
				return nil, errAt(last, "permissions.bash.expires: %v", err)
			}
			if fc.expires == nil {
				fc.expires = map[string]time.Time{}
			}
			fc.expires[last] = at
		case len(k) >= 2 && k[0] == "permissions" && isTier(k[1]):
			if err := fc.parseTierKey(k, raw, text, file, errAt); err != nil {
				return nil, err
			}
		case len(k) == 1 && last == "trusted_terminals":
			list, _ := raw[last].([]any)
			fc.trustedTerminals = []string{}
			for _, e := range list {
				p, ok := e.(string)
				if !ok || !filepath.IsAbs(p) {
					return nil, errAt(last, trustedTerminalsShape)
				}
				if _, err := filepath.Match(p, ""); err != nil {
					return nil, errAt(last, "trusted_terminals: a device glob that does not parse")
				}
				fc.trustedTerminals = append(fc.trustedTerminals, filepath.Clean(p))
			}
			if list == nil {
				return nil, errAt(last, trustedTerminalsShape)
			}
		case len(k) == 1 && last == "real_shell":
			p, ok := raw[last].(string)
			if !ok || !filepath.IsAbs(p) {
				return nil, errAt(last, "real_shell must be an absolute path")
			}
			fc.realShell = filepath.Clean(p)
		case len(k) == 1 && last == "redact_patterns":
			list, ok := raw[last].([]any)
			if !ok {
				return nil, errAt(last, "redact_patterns must be an array of regular expressions")
			}
			for n, e := range list {
				p, ok := e.(string)
				if !ok {
					return nil, errAt(last, "redact_patterns entry %d is not a string", n+1)
				}
				if err := redact.CheckPattern(p); err != nil {
					return nil, errAt(last, "redact_patterns entry %d: %v", n+1, err)
				}
				fc.redactPatterns = append(fc.redactPatterns, p)
			}
		case k[0] == "rule": // [[rule]] tables: parseStructRules, below
		case isPolicyKey(k):
			if err := fc.policy.parse(k, raw, text, file, lenient); err != nil {
				return nil, err
			}
		case isConfineKey(k):
			if err := fc.confine.parse(k, raw, text, file); err != nil {
				return nil, err
			}
		case isTelemetryKey(k):
			if err := fc.telemetry.parse(k, raw, text, file); err != nil {
				return nil, err
			}
		case isContextKey(k):
			if err := fc.ctx.parse(k, raw, text, file); err != nil {
				return nil, err
			}
		case len(k) == 1 && isScalarKey(last):
			if err := fc.setScalar(last, raw[last]); err != nil {
				return nil, errAt(last, "%v", err)
			}
		default:
			return nil, errAt(last, "unknown key %q", name)
		}
	}
	rules, ignored, err := parseStructRules(file, text, raw["rule"], lenient)
	if err != nil {
		return nil, err
	}
	fc.rules, fc.ignored = rules, append(fc.ignored, ignored...)
	return fc, nil
}

func isScalarKey(k string) bool {
	for _, s := range scalarKeys {
		if s == k {
			return true
		}
	}
	return false
}

func (fc *fileConfig) setScalar(key string, v any) error {
	str, isStr := v.(string)
	b, isBool := v.(bool)
	switch key {
	case "unknown":
		if !isStr || (str != "ask" && str != "deny") {
			return errors.New(`unknown must be "ask" or "deny"`)
		}
		fc.unknown = str
	case "composite":
		if !isStr || (str != "ask" && str != "each") {
			return errors.New(`composite must be "ask" or "each"`)
		}
		fc.composite = str
	case "reject_memory":
		d, err := time.ParseDuration(str)
		if !isStr || err != nil || d < 0 {
			return errors.New(`reject_memory must be a duration like "1h" ("0s": forget at once)`)
		}
		fc.rejectMemory, fc.rejectMemoryText = d, str
	case "pending_ttl":
		d, err := time.ParseDuration(str)
		if !isStr || err != nil || d <= 0 {
			return errors.New(`pending_ttl must be a positive duration like "24h"`)
		}
		fc.pendingTTL, fc.pendingTTLText = d, str
	case "timeout", "ask_timeout":
		if !isStr {
			return fmt.Errorf("%s must be a duration string like \"10m\"", key)
		}
		d, err := time.ParseDuration(str)
		if err != nil || d <= 0 {
			return fmt.Errorf("%s must be a positive duration like \"10m\"", key)
		}
		if key == "timeout" {
			fc.timeout, fc.timeoutText = d, str
		} else {
			fc.askTimeout, fc.askTimeoutText = d, str
		}
	case "builtin_readonly", "no_tty_prompt", "audit_required":
		if !isBool {
			return fmt.Errorf("%s must be true or false", key)
		}
		switch key {
		case "builtin_readonly":
			fc.builtinReadonly = &b
		case "no_tty_prompt":
			fc.noTTYPrompt = &b
		default:
			fc.auditRequired = &b
		}
	}
	fc.set[key] = true
	return nil
}

// locateKey finds the line and column of key where it is defined (key = …,
// a dotted key, or a [table] header), or 1:1.
func locateKey(text, key string) (int, int) {
	for n, line := range strings.Split(text, "\n") {
		for from := 0; ; {
			i := strings.Index(line[from:], key)
			if i < 0 {
				break
			}
			i += from
			from = i + 1
			if c := strings.IndexByte(line, '#'); c >= 0 && c < i {
				break
			}
			before := byte(' ')
			if i > 0 {
				before = line[i-1]
			}
			if !strings.ContainsRune(" \t.\"'[{,", rune(before)) {
				continue
			}
			rest := strings.TrimLeft(strings.TrimLeft(line[i+len(key):], `"'`), " \t")
			if rest != "" && (rest[0] == '=' || rest[0] == ']' || rest[0] == '.') {
				return n + 1, i + 1
			}
		}
	}
	return 1, 1
}

// locatePattern finds a quoted pattern at or after line from, or returns from.
// It runs once for every rule of a file, so it reads the text in place:
// splitting it into lines for each rule made loading a grants file of a few
// hundred rules cost milliseconds on every command.
func locatePattern(text, p string, from int) (int, int) {
	return locatePatternAt(text, p, from, &lineCursor{})
}

// lineCursor remembers where a line of the text starts, so that the
// entries of one list, each at or after the one before, are found in one
// pass over the text.
type lineCursor struct{ line, off int } // line (from 0) starts at byte off

// locatePatternAt is locatePattern starting from the cursor when it is at
// or before line from; it leaves the cursor at the line it stopped on.
func locatePatternAt(text, p string, from int, c *lineCursor) (int, int) {
	if strings.Contains(p, "\n") {
		return max(from, 1), 1 // no single line holds it
	}
	line, off := 0, 0
	if c.line <= from-1 {
		line, off = c.line, c.off
	}
	defer func() { c.line, c.off = line, off }()
	for ; line < from-1; line++ {
		k := strings.IndexByte(text[off:], '\n')
		if k < 0 {
			return max(from, 1), 1
		}
		off += k + 1
	}
	for {
		l := text[off:]
		k := strings.IndexByte(l, '\n')
		if k >= 0 {
			l = l[:k]
		}
		for _, q := range []byte{'"', '\''} {
			if i := indexQuoted(l, p, q); i >= 0 {
				return line + 1, i + 1
			}
		}
		if k < 0 {
			return max(from, 1), 1
		}
		off += k + 1
		line++
	}
}

// indexQuoted is strings.Index(l, q+p+q), without building the needle.
func indexQuoted(l, p string, q byte) int {
	for start := 0; start <= len(l); {
		j := strings.Index(l[start:], p)
		if j < 0 {
			return -1
		}
		j += start
		if j > 0 && l[j-1] == q && j+len(p) < len(l) && l[j+len(p)] == q {
			return j - 1
		}
		start = j + 1
	}
	return -1
}

// readConfig reads a settings file; a missing file is (nil, nil).
//
// It reads through bare descriptors: guard loads up to five of these files
// before every command, and os.Open would set up the runtime's poller and
// flip each descriptor's flags for files that are never polled.
//
// Nothing here can block: the file is opened with O_NONBLOCK (a FIFO
// opens at once instead of waiting for a writer) and must be a regular
// file, checked on the open descriptor with one fstat. A name that is a
// dangling symlink is an error, not a missing file: the rules it held
// must not vanish silently.
//
// The first open does not follow a symlink, so that a missing file costs
// one system call, as before: ENOENT then means nothing is there at all.
// A symlink (ELOOP) is opened again, following it.
func readConfig(file string) ([]byte, error) {
	fd, err := openRegular(file, syscall.O_RDONLY|syscall.O_NOFOLLOW)
	if err == syscall.ELOOP {
		fd, err = openRegular(file, syscall.O_RDONLY)
		if err == syscall.ENOENT {
			target, rerr := os.Readlink(file)
			if rerr != nil {
				return nil, nil // gone in between: missing
			}
			return nil, fmt.Errorf("%s: dangling symlink to %s", file, target)
		}
		if err == syscall.ELOOP {
			return nil, fmt.Errorf("%s:1:1: cannot read: %w", file, err)
		}
	}
	if err == syscall.ENOENT {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd.fd)
	data := make([]byte, 0, min(max(fd.size, 0), maxConfigBytes)+1)
	for len(data) <= maxConfigBytes {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		var n int
		err := retryEINTR(func() (err error) {
			n, err = syscall.Read(fd.fd, data[len(data):cap(data)])
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("%s:1:1: cannot read: %w", file, err)
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
	}
	return nil, fmt.Errorf("%s:1:1: larger than %d bytes", file, maxConfigBytes)
}

// regularFD is an open regular file and its size.
type regularFD struct {
	fd   int
	size int64
}

// openRegular opens file (flags plus O_CLOEXEC|O_NONBLOCK) and checks with
// fstat that it is a regular file. A missing file is the bare
// syscall.ENOENT, and a symlink under O_NOFOLLOW the bare syscall.ELOOP;
// every other error names the file ("PATH: not a regular file (a fifo)").
// O_NONBLOCK changes nothing for a regular file.
func openRegular(file string, flags int) (regularFD, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = syscall.Open(file, flags|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0o600)
		return err
	})
	if err == syscall.ENOENT || err == syscall.ELOOP {
		return regularFD{}, err
	}
	if err != nil {
		if err == syscall.ENXIO { // O_WRONLY|O_NONBLOCK on a FIFO with no reader
			return regularFD{}, fmt.Errorf("%s: not a regular file (a fifo)", file)
		}
		if err == syscall.EISDIR {
			return regularFD{}, fmt.Errorf("%s: not a regular file (a directory)", file)
		}
		return regularFD{}, fmt.Errorf("%s:1:1: cannot read: %w", file, err)
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return regularFD{}, fmt.Errorf("%s:1:1: cannot read: %w", file, err)
	}
	if kind := fileKind(st.Mode); kind != "" {
		syscall.Close(fd)
		return regularFD{}, fmt.Errorf("%s: not a regular file (%s)", file, kind)
	}
	return regularFD{fd: fd, size: st.Size}, nil
}

// fileKinds name what a path holds when it is not a regular file.
var fileKinds = [...]struct {
	mode uint32
	name string
}{
	{syscall.S_IFIFO, "a fifo"},
	{syscall.S_IFDIR, "a directory"},
	{syscall.S_IFSOCK, "a socket"},
	{syscall.S_IFCHR, "a character device"},
	{syscall.S_IFBLK, "a block device"},
	{syscall.S_IFLNK, "a symlink"},
}

// fileKind is "" for a regular file, else what the file is.
func fileKind(mode uint32) string {
	t := mode & syscall.S_IFMT
	if t == syscall.S_IFREG {
		return ""
	}
	for _, k := range fileKinds {
		if k.mode == t {
			return k.name
		}
	}
	return "an unknown kind of file"
}

// retryEINTR calls fn until it fails with something other than EINTR.
func retryEINTR(fn func() error) error {
	for {
		if err := fn(); err != syscall.EINTR {
			return err
		}
	}
}

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// pinned returns the hash guard trust pinned for root, or "" when there is
// none. A pin that is not a regular file (or a dangling symlink) is an error:
// nothing may hang guard or quietly change what is trusted.
func pinned(p Paths, root string) (string, error) {
	b, err := readConfig(p.TrustFile(root))
	if err != nil || b == nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// parseExpires reads an expiry: a TOML date-time with its offset, or an
// RFC 3339 string.
func parseExpires(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t, nil
	case string:
		if at, err := time.Parse(time.RFC3339, t); err == nil {
			return at, nil
		}
	}
	return time.Time{}, errors.New("a time must be RFC 3339, like 2026-12-04T18:00:00Z")
}

// trusted reports whether the project config's current hash is the pinned one.
func trusted(p Paths, root string) bool {
	data, err := readConfig(ProjectConfig(root))
	if err != nil || data == nil {
		return false
	}
	pin, err := pinned(p, root)
	return err == nil && pin != "" && pin == hashBytes(data)
}

// Load reads every layer for cwd and merges them. It never returns nil: a
// file that fails to load sets Err (the first such error, "file:line:col:
// problem"), and then every Decide denies with rule "config-error". It
// reads the clock once, here, for grants that expire: an allow rule whose
// time ran out is marked Expired and never counts.
func Load(p Paths, cwd string) *Settings {
	return LoadAt(p, cwd, time.Now())
}

// LoadAt is Load with now as the time grants expire against.
func LoadAt(p Paths, cwd string, now time.Time) *Settings {
	s := Defaults()
	root := ProjectRoot(cwd)
	s.Root = root
	layers := []struct{ name, file string }{
		{LayerManaged, p.Managed},
		{LayerGlobal, p.GlobalConfig()},
		{LayerGlobalGrants, p.GlobalGrants()},
		{LayerProjectGrants, p.ProjectGrants(root)},
		{LayerProject, ProjectConfig(root)},
	}
	bound := map[string]bool{}
	for _, l := range layers {
		data, err := readConfig(l.file)
		if err == nil && data == nil {
			continue
		}
		var fc *fileConfig
		if err == nil {
			// A committed project config is not the user's: allow rules
			// guard refuses there are ignored with a warning, not a
			// reason to deny every command (its syntax errors and bad
			// deny or ask rules still fail closed).
			fc, err = parseConfigMode(l.file, data, l.name == LayerProject)
		}
		if err != nil {
			if s.Err == nil {
				s.Err = err
			}
			continue
		}
		trust := true
		if l.name == LayerProject {
			pin, err := pinned(p, root)
			if err != nil && s.Err == nil {
				s.Err = err
			}
			trust = err == nil && pin != "" && pin == hashBytes(data)
		}
		s.Warnings = append(s.Warnings, fc.ignored...)
		// every layer may add redaction, a project config trusted or not
		s.RedactPatterns = append(s.RedactPatterns, fc.redactPatterns...)
		if !trust {
			s.loosenNotes(fc, l.file)
		}
		s.merge(fc, l.name, bound, trust)
		if err := s.mergePolicy(&fc.policy, l.name, l.file, trust, bound); err != nil && s.Err == nil {
			s.Err = err
		}
		s.mergeContext(&fc.ctx, trust)
		s.mergeConfine(&fc.confine, l.name, trust, bound, p.Home)
		s.mergeTelemetry(&fc.telemetry, l.name, l.file, string(data))
		if fc.trustedTerminals != nil {
			if l.name != LayerManaged && l.name != LayerGlobal {
				line, col := locateKey(string(data), "trusted_terminals")
				if s.Err == nil {
					s.Err = fmt.Errorf("%s:%d:%d: trusted_terminals is read only from the global config.toml or the managed policy", l.file, line, col)
				}
				continue
			}
			s.TrustedTerminals = append(s.TrustedTerminals, fc.trustedTerminals...)
		}
		if fc.realShell != "" {
			// the shell every command runs with: never a project's (nor a
			// grants file's) to choose
			if l.name != LayerManaged && l.name != LayerGlobal {
				line, col := locateKey(string(data), "real_shell")
				if s.Err == nil {
					s.Err = fmt.Errorf("%s:%d:%d: real_shell is read only from the global config.toml or the managed policy", l.file, line, col)
				}
				continue
			}
			if s.RealShell == "" { // the managed policy's, read first, wins
				s.RealShell = fc.realShell
			}
		}
		add := func(kind Decision, pats []string, lines []int) {
			for i, pat := range pats {
				r := Rule{Kind: kind, Pattern: pat, Layer: l.name, File: l.file, Line: lines[i],
					Trusted: l.name != LayerProject || trust}
				if kind == Allow {
					// An allow that ran out is kept, to be listed as
					// expired, but never counts (decide skips it).
					r.Expires = fc.expires[pat]
					r.Expired = !r.Expires.IsZero() && !now.Before(r.Expires)
				}
				s.Rules = append(s.Rules, r)
			}
		}
		add(Deny, fc.deny, fc.denyLine)
		add(Ask, fc.ask, fc.askLine)
		add(Allow, fc.allow, fc.allowLine)
		if err := s.addStructRules(fc.rules, l.name, trust, p.Home, cwd); err != nil && s.Err == nil {
			s.Err = err
		}
		s.addTiers(fc, l.name, l.file, trust)
	}
	s.finishPolicy(p, root)
	return s
}

// merge applies one layer's scalar settings. A layer may loosen a value
// unless the managed layer set it or the layer is an untrusted project
// config; then only a stricter value applies.
func (s *Settings) merge(fc *fileConfig, layer string, bound map[string]bool, trusted bool) {
	for key := range fc.set {
		loosen := !bound[key] && trusted
		switch key {
		case "unknown":
			if v := Decision(fc.unknown); loosen || v == Deny {
				s.Unknown = v
			}
		case "composite":
			if loosen || fc.composite == "ask" {
				s.Composite = fc.composite
			}
		case "timeout":
			if loosen || fc.timeout < s.Timeout {
				s.Timeout = fc.timeout
			}
		case "ask_timeout":
			if loosen || fc.askTimeout < s.AskTimeout {
				s.AskTimeout = fc.askTimeout
			}
		case "reject_memory":
			if loosen || fc.rejectMemory > s.RejectMemory {
				s.RejectMemory = fc.rejectMemory
			}
		case "pending_ttl": // a shorter life is the stricter value
			if loosen || fc.pendingTTL < s.PendingTTL {
				s.PendingTTL = fc.pendingTTL
			}
		case "builtin_readonly":
			if loosen || !*fc.builtinReadonly {
				s.BuiltinReadonly = *fc.builtinReadonly
			}
		case "no_tty_prompt":
			if loosen || *fc.noTTYPrompt {
				s.NoTTYPrompt = *fc.noTTYPrompt
			}
		case "audit_required": // true is the stricter value
			if loosen || *fc.auditRequired {
				s.AuditRequired = *fc.auditRequired
			}
		}
		if layer == LayerManaged {
			bound[key] = true
		}
	}
}
