package grants

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/BurntSushi/toml"
)

// maxConfigBytes bounds every settings file guard reads.
const maxConfigBytes = 1 << 20

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
	}
}

// fileConfig is one parsed settings file.
type fileConfig struct {
	unknown, composite           string // "" when unset
	timeout, askTimeout          time.Duration
	timeoutText, askTimeoutText  string
	builtinReadonly, noTTYPrompt *bool
	allow, ask, deny             []string
	allowLine, askLine, denyLine []int
	set                          map[string]bool // scalar keys the file sets
	// lenient: refused allow patterns are dropped into ignored instead of
	// failing the file (the committed project config, see Load).
	lenient bool
	ignored []string
}

var scalarKeys = []string{"unknown", "composite", "timeout", "ask_timeout", "builtin_readonly", "no_tty_prompt"}

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
			for n, e := range list {
				p, ok := e.(string)
				if !ok {
					return nil, errAt(last, "%s entry %d is not a string", name, n+1)
				}
				line, col := locatePattern(text, p, keyLine)
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
		case len(k) == 1 && isScalarKey(last):
			if err := fc.setScalar(last, raw[last]); err != nil {
				return nil, errAt(last, "%v", err)
			}
		default:
			return nil, errAt(last, "unknown key %q", name)
		}
	}
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
	case "builtin_readonly", "no_tty_prompt":
		if !isBool {
			return fmt.Errorf("%s must be true or false", key)
		}
		if key == "builtin_readonly" {
			fc.builtinReadonly = &b
		} else {
			fc.noTTYPrompt = &b
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
func locatePattern(text, p string, from int) (int, int) {
	lines := strings.Split(text, "\n")
	for n := max(from-1, 0); n < len(lines); n++ {
		for _, q := range []string{`"` + p + `"`, `'` + p + `'`} {
			if i := strings.Index(lines[n], q); i >= 0 {
				return n + 1, i + 1
			}
		}
	}
	return max(from, 1), 1
}

// readConfig reads a settings file; a missing file is (nil, nil).
//
// It reads through bare descriptors: guard loads up to five of these files
// before every command, and os.Open would set up the runtime's poller and
// flip each descriptor's flags for files that are never polled.
func readConfig(file string) ([]byte, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = syscall.Open(file, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err == syscall.ENOENT {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s:1:1: cannot read: %w", file, err)
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
		return nil, fmt.Errorf("%s:1:1: is a directory, not a file", file)
	}
	data := make([]byte, 0, min(max(st.Size, 0), maxConfigBytes)+1)
	for len(data) <= maxConfigBytes {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		var n int
		err := retryEINTR(func() (err error) {
			n, err = syscall.Read(fd, data[len(data):cap(data)])
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

// pinned returns the hash guard trust pinned for root, or "".
func pinned(p Paths, root string) string {
	b, err := os.ReadFile(p.TrustFile(root))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// trusted reports whether the project config's current hash is the pinned one.
func trusted(p Paths, root string) bool {
	data, err := readConfig(ProjectConfig(root))
	if err != nil || data == nil {
		return false
	}
	pin := pinned(p, root)
	return pin != "" && pin == hashBytes(data)
}

// Load reads every layer for cwd and merges them. It never returns nil: a
// file that fails to load sets Err (the first such error, "file:line:col:
// problem"), and then every Decide denies with rule "config-error".
func Load(p Paths, cwd string) *Settings {
	s := Defaults()
	root := ProjectRoot(cwd)
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
			pin := pinned(p, root)
			trust = pin != "" && pin == hashBytes(data)
		}
		s.Warnings = append(s.Warnings, fc.ignored...)
		s.merge(fc, l.name, bound, trust)
		add := func(kind Decision, pats []string, lines []int) {
			for i, pat := range pats {
				s.Rules = append(s.Rules, Rule{Kind: kind, Pattern: pat, Layer: l.name, File: l.file, Line: lines[i],
					Trusted: l.name != LayerProject || trust})
			}
		}
		add(Deny, fc.deny, fc.denyLine)
		add(Ask, fc.ask, fc.askLine)
		add(Allow, fc.allow, fc.allowLine)
	}
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
		case "builtin_readonly":
			if loosen || !*fc.builtinReadonly {
				s.BuiltinReadonly = *fc.builtinReadonly
			}
		case "no_tty_prompt":
			if loosen || *fc.noTTYPrompt {
				s.NoTTYPrompt = *fc.noTTYPrompt
			}
		}
		if layer == LayerManaged {
			bound[key] = true
		}
	}
}
