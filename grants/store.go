package grants

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// lockWait bounds every wait for a grants file lock: a process that holds
// one (a stuck guard, or anything that flocks the file) must not stall guard.
const lockWait = 2 * time.Second

// withLock runs fn holding an exclusive flock on file+".lock", creating the
// directory (0700) first. The lock file stays: removing it would race. The
// wait is bounded (lockWait); past it the change fails with a message that
// names the lock.
func withLock(file string, fn func() error) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("create settings directory: %w", err)
	}
	lf, err := openRegular(file+".lock", syscall.O_CREAT|syscall.O_RDWR)
	if err != nil {
		return fmt.Errorf("open lock: %w", err)
	}
	defer syscall.Close(lf.fd)
	if err := flockWait(lf.fd, syscall.LOCK_EX, lockWait); err != nil {
		return fmt.Errorf("lock %s: %w", file+".lock", err)
	}
	defer syscall.Flock(lf.fd, syscall.LOCK_UN)
	return fn()
}

// errLockHeld is what a lock wait that ran out of time fails with.
var errLockHeld = errors.New("held by another process")

// flockWait takes flock(2) how on fd, polling with LOCK_NB and a short
// backoff for at most wait: a blocking flock cannot be bounded, and a
// process that holds the lock forever must not stall guard.
func flockWait(fd, how int, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	pause := time.Millisecond
	for {
		err := retryEINTR(func() error { return syscall.Flock(fd, how|syscall.LOCK_NB) })
		if err != syscall.EWOULDBLOCK {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w for %s", errLockHeld, wait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// WriteAtomic replaces file with data: temp file in the same directory,
// fsync, rename, fsync of the directory. A reader sees the old file or the
// new one, never a part.
func WriteAtomic(file string, data []byte, perm os.FileMode) error {
	return writeAtomic(file, data, perm)
}

func writeAtomic(file string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(file)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("write %s: %w", file, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := os.Rename(name, file); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", file, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// loadForEdit reads and validates file for a change; a missing file is empty.
func loadForEdit(file string) (*fileConfig, error) {
	data, err := readConfig(file)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return &fileConfig{set: map[string]bool{}}, nil
	}
	return parseConfig(file, data)
}

// AddRule adds pattern to the kind list of file (creating directories and
// the file), atomically and under a file lock. A pattern already in that
// list is not added twice. Other settings in the file are kept; comments
// are not (guard owns grants files).
//
// A tier grant ([TierGrant]: "[write] /srv/data", "[http] api.github.com",
// "[packages] npm:left-pad@1.3.0 npm:x@1.0.0") goes to its own table.
func AddRule(file string, kind Decision, pattern string) error {
	return AddRuleUntil(file, kind, pattern, time.Time{})
}

// AddRuleUntil is AddRule for an allow that stops counting at expires
// (zero: never). Adding a pattern again sets its expiry anew: the latest
// answer wins, and one without a time makes it permanent.
func AddRuleUntil(file string, kind Decision, pattern string, expires time.Time) error {
	if !expires.IsZero() && kind != Allow {
		return fmt.Errorf("add %s rule: only an allow may expire", kind)
	}
	if tier, values, ok := ParseTierGrant(pattern); ok {
		if !expires.IsZero() {
			return fmt.Errorf("add %s rule: a [%s] grant cannot expire", kind, tier)
		}
		return withLock(file, func() error {
			fc, err := loadForEdit(file)
			if err != nil {
				return fmt.Errorf("add %s rule: %w", kind, err)
			}
			if err := fc.addTierEntry(tier, kind, values); err != nil {
				return fmt.Errorf("add %s rule: %w", kind, err)
			}
			return writeAtomic(file, fc.render(), 0o600)
		})
	}
	if err := ValidatePattern(kind, pattern); err != nil {
		return fmt.Errorf("add %s rule: %w", kind, err)
	}
	return withLock(file, func() error {
		fc, err := loadForEdit(file)
		if err != nil {
			return fmt.Errorf("add %s rule: %w", kind, err)
		}
		list := fc.list(kind)
		_, had := fc.expires[pattern]
		if slices.Contains(*list, pattern) && !had && expires.IsZero() {
			return nil
		}
		if !slices.Contains(*list, pattern) {
			*list = append(*list, pattern)
		}
		if kind == Allow {
			delete(fc.expires, pattern)
			if !expires.IsZero() {
				if fc.expires == nil {
					fc.expires = map[string]time.Time{}
				}
				fc.expires[pattern] = expires.UTC().Truncate(time.Second)
			}
		}
		return writeAtomic(file, fc.render(), 0o600)
	})
}

// RemoveRule removes pattern from the allow, ask and deny lists of file,
// with the same atomicity as AddRule. removed is false when it was in none.
func RemoveRule(file, pattern string) (removed bool, err error) {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	err = withLock(file, func() error {
		fc, err := loadForEdit(file)
		if err != nil {
			return fmt.Errorf("remove rule: %w", err)
		}
		if tier, values, ok := ParseTierGrant(pattern); ok {
			removed = fc.removeTierEntry(tier, values)
		}
		for _, k := range []Decision{Allow, Ask, Deny} {
			list := fc.list(k)
			if n := len(*list); n > 0 {
				*list = slices.DeleteFunc(*list, func(p string) bool { return p == pattern })
				removed = removed || len(*list) != n
			}
		}
		delete(fc.expires, pattern)
		if !removed {
			return nil
		}
		return writeAtomic(file, fc.render(), 0o600)
	})
	return removed, err
}

// Trust pins the sha256 of root's committed config (.guard/config.toml) in
// the user's config directory. Its allow rules count only while the file's
// hash equals the pinned one. A config that does not load is not trusted.
func Trust(p Paths, root string) (string, error) {
	file := ProjectConfig(root)
	data, err := readConfig(file)
	if err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	if data == nil {
		return "", fmt.Errorf("trust: %s does not exist", file)
	}
	if _, err := parseConfig(file, data); err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	hash := hashBytes(data)
	if err := RecordRoot(p, root); err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	tf := p.TrustFile(root)
	err = withLock(tf, func() error { return writeAtomic(tf, []byte(hash+"\n"), 0o600) })
	if err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	return hash, nil
}

// RecordRoot writes root into the project's folder (see [Paths.RootFile]),
// unless it is there already, so that `guard grants list` can say which
// project a folder of grants belongs to, and whether it still exists.
func RecordRoot(p Paths, root string) error {
	root = filepath.Clean(root)
	file := p.RootFile(root)
	if data, err := os.ReadFile(file); err == nil && strings.TrimSuffix(string(data), "\n") == root {
		return nil
	}
	// No lock: every writer writes the same bytes, and the rename is atomic.
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("record project root: %w", err)
	}
	if err := writeAtomic(file, []byte(root+"\n"), 0o600); err != nil {
		return fmt.Errorf("record project root: %w", err)
	}
	return nil
}

// A Project is one folder of per-project settings under [Paths.ProjectsDir].
type Project struct {
	Dir    string // the folder
	Root   string // the project root it belongs to; "" when not recorded
	Exists bool   // Root is a directory that exists
	Grants []Rule // the rules of its grants.toml (none when it has none)
	Err    error  // grants.toml does not load
}

// Projects lists every project folder, with its recorded root and its
// grants, sorted by root. It reads nothing on any decision's path.
func Projects(p Paths) ([]Project, error) {
	entries, err := os.ReadDir(p.ProjectsDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list project folders: %w", err)
	}
	var out []Project
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		pr := Project{Dir: filepath.Join(p.ProjectsDir(), e.Name())}
		if data, err := os.ReadFile(filepath.Join(pr.Dir, "root")); err == nil {
			pr.Root = strings.TrimSuffix(string(data), "\n")
			if fi, err := os.Stat(pr.Root); err == nil && fi.IsDir() {
				pr.Exists = true
			}
		}
		file := filepath.Join(pr.Dir, "grants.toml")
		if fc, err := loadForEdit(file); err != nil {
			pr.Err = err
		} else {
			for _, k := range []Decision{Allow, Ask, Deny} {
				for _, pat := range *fc.list(k) {
					pr.Grants = append(pr.Grants, Rule{Kind: k, Pattern: pat, Layer: LayerProjectGrants, File: file})
				}
			}
		}
		out = append(out, pr)
	}
	slices.SortFunc(out, func(a, b Project) int { return strings.Compare(a.Root+"\x00"+a.Dir, b.Root+"\x00"+b.Dir) })
	return out, nil
}

func (fc *fileConfig) list(kind Decision) *[]string {
	switch kind {
	case Allow:
		return &fc.allow
	case Ask:
		return &fc.ask
	}
	return &fc.deny
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// render writes fc back as TOML.
func (fc *fileConfig) render() []byte {
	var b strings.Builder
	b.WriteString("# guard settings: written by `guard grants add|rm`.\n")
	for _, k := range scalarKeys {
		if !fc.set[k] {
			continue
		}
		switch k {
		case "unknown":
			fmt.Fprintf(&b, "unknown = %s\n", tomlString(fc.unknown))
		case "composite":
			fmt.Fprintf(&b, "composite = %s\n", tomlString(fc.composite))
		case "timeout":
			fmt.Fprintf(&b, "timeout = %s\n", tomlString(fc.timeoutText))
		case "ask_timeout":
			fmt.Fprintf(&b, "ask_timeout = %s\n", tomlString(fc.askTimeoutText))
		case "reject_memory":
			fmt.Fprintf(&b, "reject_memory = %s\n", tomlString(fc.rejectMemoryText))
		case "pending_ttl":
			fmt.Fprintf(&b, "pending_ttl = %s\n", tomlString(fc.pendingTTLText))
		case "builtin_readonly":
			fmt.Fprintf(&b, "builtin_readonly = %s\n", strconv.FormatBool(*fc.builtinReadonly))
		case "no_tty_prompt":
			fmt.Fprintf(&b, "no_tty_prompt = %s\n", strconv.FormatBool(*fc.noTTYPrompt))
		case "audit_required":
			fmt.Fprintf(&b, "audit_required = %s\n", strconv.FormatBool(*fc.auditRequired))
		}
	}
	if len(fc.redactPatterns) > 0 { // kept: a rewrite must never drop redaction
		b.WriteString("redact_patterns = [\n")
		for _, p := range fc.redactPatterns {
			fmt.Fprintf(&b, "  %s,\n", tomlString(p))
		}
		b.WriteString("]\n")
	}
	fc.policy.renderTop(&b) // mode.go: mode, escalate, … (before any table)
	b.WriteString("\n[permissions.bash]\n")
	for _, k := range []Decision{Allow, Ask, Deny} {
		list := *fc.list(k)
		if len(list) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s = [\n", k)
		for _, p := range list {
			fmt.Fprintf(&b, "  %s,\n", tomlString(p))
		}
		b.WriteString("]\n")
	}
	var exp []string
	for _, p := range fc.allow {
		if _, ok := fc.expires[p]; ok {
			exp = append(exp, p)
		}
	}
	if len(exp) > 0 {
		b.WriteString("\n[permissions.bash.expires] # when each allow above stops counting\n")
		for _, p := range exp {
			fmt.Fprintf(&b, "%s = %s\n", tomlString(p), fc.expires[p].UTC().Format(time.RFC3339))
		}
	}
	fc.renderTiers(&b)
	fc.policy.renderTables(&b) // mode.go: [agents.NAME]
	return []byte(b.String())
}
