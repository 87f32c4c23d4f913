package ccs

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// settled is a fingerprint's time past every racy window: a test that
// asserts "no change" uses it, so that a file written a moment ago is not
// hashed by content once and by metadata the next time.
func settled() time.Time { return time.Now().Add(24 * time.Hour) }

// testFP is a fingerprinter at settled() with the git bound.
func testFP(skip []string) *fingerprinter {
	return newFingerprinter(settled(), racyWindow, skip, MaxGitEntries)
}

// testWindow is the racy window the tests that exercise metadata use,
// with settle: more than a kernel clock tick (at most 10 ms), so the
// fingerprint's rule holds, and short enough to wait out.
const testWindow = 40 * time.Millisecond

func settle() { time.Sleep(testWindow + 10*time.Millisecond) }

// rewrite writes content into the file at path in place (same inode) and
// puts its mtime and atime back, as a program that hides an edit would.
func rewrite(t testing.TB, path, content string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestNeverStaleShapes: the four ways a tester served stale output, each
// with the edit inside the racy window (content hashed) and after it
// (metadata only, ctime decides).
func TestNeverStaleShapes(t *testing.T) {
	shapes := []struct {
		name  string
		git   bool
		setup func(t *testing.T, proj, out string)
		edit  func(t *testing.T, proj, out string)
	}{
		{"in-place rewrite, mtime restored", false,
			func(t *testing.T, proj, out string) {
				os.WriteFile(filepath.Join(proj, "a.txt"), []byte("hello"), 0o644)
			},
			func(t *testing.T, proj, out string) { rewrite(t, filepath.Join(proj, "a.txt"), "HELLO") }},
		{"symlink to a changed file outside", false,
			func(t *testing.T, proj, out string) {
				os.WriteFile(filepath.Join(out, "f"), []byte("v1"), 0o644)
				os.Symlink(filepath.Join(out, "f"), filepath.Join(proj, "link"))
			},
			func(t *testing.T, proj, out string) { rewrite(t, filepath.Join(out, "f"), "v2") }},
		{"symlinked directory gains a file", false,
			func(t *testing.T, proj, out string) {
				os.Mkdir(filepath.Join(out, "d"), 0o755)
				os.Symlink(filepath.Join(out, "d"), filepath.Join(proj, "dlink"))
			},
			func(t *testing.T, proj, out string) { os.WriteFile(filepath.Join(out, "d", "new"), nil, 0o644) }},
		{"git: tracked file rewritten, mtime restored", true,
			func(t *testing.T, proj, out string) {
				os.WriteFile(filepath.Join(proj, "a.txt"), []byte("hello"), 0o644)
			},
			func(t *testing.T, proj, out string) { rewrite(t, filepath.Join(proj, "a.txt"), "HELLO") }},
		{"git: tracked symlink to a changed file outside", true,
			func(t *testing.T, proj, out string) {
				os.WriteFile(filepath.Join(out, "f"), []byte("v1"), 0o644)
				os.Symlink(filepath.Join(out, "f"), filepath.Join(proj, "link"))
			},
			func(t *testing.T, proj, out string) { rewrite(t, filepath.Join(out, "f"), "v2") }},
		{"git: symlinked directory gains a file", true,
			func(t *testing.T, proj, out string) {
				os.Mkdir(filepath.Join(out, "d"), 0o755)
				os.Symlink(filepath.Join(out, "d"), filepath.Join(proj, "dlink"))
			},
			func(t *testing.T, proj, out string) { os.WriteFile(filepath.Join(out, "d", "new"), nil, 0o644) }},
	}
	for _, s := range shapes {
		for _, racy := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/racy=%v", s.name, racy), func(t *testing.T) {
				var proj, home string
				if s.git {
					proj, home = newRepo(t, nil)
				} else {
					proj = t.TempDir()
				}
				out := t.TempDir()
				s.setup(t, proj, out)
				if s.git {
					gitRun(t, home, proj, "add", "-A")
					gitRun(t, home, proj, "commit", "-qm", "one")
				}
				window := racyWindow
				if !racy {
					window = testWindow
					settle()
				}
				in := FingerprintInput{Cwd: proj, Environ: gitEnvFor(home)}
				before, held, err := fingerprint(in, window)
				if err != nil {
					t.Fatal(err)
				}
				if racy && len(held.Paths) == 0 && !strings.Contains(s.name, "directory") {
					t.Error("nothing was hashed by content inside the window")
				}
				s.edit(t, proj, out)
				if !racy {
					settle() // the edit is past the window too: metadata alone must show it
				}
				after, _, err := fingerprint(in, window)
				if err != nil {
					t.Fatal(err)
				}
				if before == after && held.Holds() {
					t.Error("the entry made before the edit would still answer: a stale hit")
				}
			})
		}
	}
}

// TestFingerprintReadsOutside: a path the command reads outside the tree
// is in the fingerprint; a glob stands for its directory.
func TestFingerprintReadsOutside(t *testing.T) {
	proj, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(out, "f"), []byte("v1"), 0o644)
	os.Mkdir(filepath.Join(out, "d"), 0o755)
	os.Mkdir(filepath.Join(out, "deep"), 0o755)
	os.Mkdir(filepath.Join(out, "deep", "sub"), 0o755)
	reads := []Read{{Path: filepath.Join(out, "f")}, {Path: filepath.Join(out, "d") + "/*.txt"}, {Path: filepath.Join(out, "deep"), Deep: true}}
	fp := func() string {
		t.Helper()
		s, racy, err := fingerprint(FingerprintInput{Cwd: proj, Reads: reads}, testWindow)
		if err != nil {
			t.Fatal(err)
		}
		if !racy.Holds() {
			t.Fatal("the racy files changed at once")
		}
		return s
	}
	settle()
	steps := []struct {
		name string
		do   func()
	}{
		{"rewrite, mtime restored", func() { settle(); rewrite(t, filepath.Join(out, "f"), "v2"); settle() }},
		{"a file the glob matches", func() { os.WriteFile(filepath.Join(out, "d", "x.txt"), nil, 0o644) }},
		{"its edit", func() { rewrite(t, filepath.Join(out, "d", "x.txt"), "x") }},
		{"a file deep under a directory read whole", func() { os.WriteFile(filepath.Join(out, "deep", "sub", "y"), nil, 0o644) }},
	}
	prev := fp()
	for _, s := range steps {
		s.do()
		if got := fp(); got == prev {
			t.Errorf("%s: the fingerprint did not change", s.name)
		} else {
			prev = got
		}
	}
	for _, p := range []string{"/proc/uptime", "/proc/self/status"} {
		_, _, err := Fingerprint(FingerprintInput{Cwd: proj, Reads: []Read{{Path: p}}})
		if !errors.Is(err, ErrNotServable) || !strings.Contains(Reason(err), "/proc") {
			t.Errorf("read of %s: %v, want not servable because of /proc", p, err)
		}
	}
	if _, _, err := Fingerprint(FingerprintInput{Cwd: proj, Reads: []Read{{Path: "/dev/null"}}}); err != nil {
		t.Errorf("read of /dev/null: %v", err)
	}
}

// TestFingerprintUnservableLinks: a link whose target changes without its
// metadata is not served, and the error says why.
func TestFingerprintUnservableLinks(t *testing.T) {
	for _, c := range []struct{ name, target, why string }{
		{"fifo", "", "links to a fifo"},
		{"proc", "/proc/uptime", "/proc"},
		{"device", "/dev/zero", "links to a character device"},
	} {
		t.Run(c.name, func(t *testing.T) {
			proj := t.TempDir()
			target := c.target
			if target == "" {
				target = filepath.Join(t.TempDir(), "fifo")
				if err := syscall.Mkfifo(target, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			os.Symlink(target, filepath.Join(proj, "link"))
			_, _, err := Fingerprint(FingerprintInput{Cwd: proj})
			if !errors.Is(err, ErrNotServable) || !strings.Contains(Reason(err), c.why) {
				t.Errorf("got %v, want not servable: %s", err, c.why)
			}
		})
	}
	proj := t.TempDir()
	os.Symlink("/dev/null", filepath.Join(proj, "null"))
	os.Symlink(proj, filepath.Join(proj, "self")) // a cycle
	if _, _, err := Fingerprint(FingerprintInput{Cwd: proj}); err != nil {
		t.Errorf("a link to /dev/null and a cycle: %v", err)
	}
}

// TestFingerprintFifoNeverStalls (issue 22): a fifo planted at .gitignore,
// .git/index or .git/info/exclude makes the run not served, at once: guard
// neither opens it blocking nor asks git, which would.
func TestFingerprintFifoNeverStalls(t *testing.T) {
	for _, name := range []string{".gitignore", "sub/.gitignore", ".git/index", ".git/info/exclude", ".git/config"} {
		t.Run(name, func(t *testing.T) {
			top, home := newRepo(t, map[string]string{"a": "a", "sub/b": "b"})
			p := filepath.Join(top, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, _, err := Fingerprint(FingerprintInput{Cwd: top, Environ: gitEnvFor(home)})
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotServable) || !strings.Contains(err.Error(), "not a regular file") {
					t.Errorf("got %v, want not servable: not a regular file", err)
				}
			case <-time.After(gitTimeout + 5*time.Second):
				// unblock the reader, if any, before failing
				if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatal("the fingerprint waited on the fifo")
			}
		})
	}
}

// TestGitFallbackTimeout: a git that does not answer within gitTimeout is
// killed and the run is not served.
func TestGitFallbackTimeout(t *testing.T) {
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\nexec sleep 30\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	top := t.TempDir()
	err := gitLsFilesFingerprint(testFP(nil), sha256.New(), top, nil)
	if !errors.Is(err, ErrNotServable) || !strings.Contains(err.Error(), "took more than") {
		t.Errorf("got %v, want not servable: took more than %s", err, gitTimeout)
	}
}

// A propWorld is a project and a directory outside it, edited at random.
type propWorld struct {
	t        testing.TB
	proj     string
	out      string
	r        *rand.Rand
	log      []string
	gitMode  bool
	readPath string // outside, read by the command as an operand
	noPause  bool   // a pause edit does nothing (the fuzz target: fast)
}

// names of the entries a world may have, under proj or out (a fixed set
// keeps the edits meeting each other).
var propNames = []string{"a", "b", "d/c", "d/e", "l1", "l2", "d/l3"}

func (w *propWorld) pick() string {
	base := w.proj
	if w.r.Intn(3) == 0 {
		base = w.out
	}
	return filepath.Join(base, propNames[w.r.Intn(len(propNames))])
}

func (w *propWorld) content() string {
	n := 1 + w.r.Intn(3)
	b := make([]byte, n)
	for i := range b {
		b[i] = "xyXY"[w.r.Intn(4)]
	}
	return string(b)
}

// edit makes one random edit, from the ones a command's output may depend
// on, and the ones that hide themselves from metadata.
func (w *propWorld) edit() {
	p := w.pick()
	var what string
	switch op := w.r.Intn(10); op {
	case 0, 1: // write, maybe the same size, maybe with the times put back
		st, err := os.Lstat(p)
		c := w.content()
		if err == nil && st.Mode().IsRegular() && w.r.Intn(2) == 0 {
			b := make([]byte, st.Size()) // the same size, other bytes
			for i := range b {
				b[i] = "xyXYz"[w.r.Intn(5)]
			}
			c = string(b)
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC|os.O_CREATE, 0o644); err == nil {
			f.WriteString(c)
			f.Close()
		}
		if err == nil && w.r.Intn(2) == 0 {
			os.Chtimes(p, st.ModTime(), st.ModTime())
		}
		what = fmt.Sprintf("write %q to", c)
	case 2: // mode
		os.Chmod(p, []os.FileMode{0o644, 0o600, 0o755}[w.r.Intn(3)])
		what = "chmod"
	case 3, 4: // link retarget (or create)
		target := w.pick()
		if w.r.Intn(2) == 0 {
			rel, err := filepath.Rel(filepath.Dir(p), target)
			if err == nil {
				target = rel
			}
		}
		if w.r.Intn(5) == 0 {
			target = filepath.Dir(w.pick()) // a directory
		}
		os.RemoveAll(p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.Symlink(target, p)
		what = "link to " + target + ":"
	case 5: // rename
		q := w.pick()
		os.MkdirAll(filepath.Dir(q), 0o755)
		os.Rename(p, q)
		what = "rename to " + q + ":"
	case 6: // timestamps to a fixed time, not following links
		ts := []unix.Timespec{{Sec: 1e9}, {Sec: 1e9}}
		unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
		what = "utimes"
	case 7:
		os.RemoveAll(p)
		what = "remove"
	case 8, 9: // nothing, after a pause past the window: a hit must stay a hit
		if !w.noPause {
			settle()
		}
		what = "pause;"
	}
	w.log = append(w.log, what+" "+p)
}

// run is what a command that reads the whole project (following links,
// as cat -R and ls -lLR would) and the outside operand prints: names,
// kinds, modes, sizes, mtimes, link texts and contents.
func (w *propWorld) run() string {
	var b strings.Builder
	var walk func(p string, depth int)
	walk = func(p string, depth int) {
		if depth > 4 {
			b.WriteString("deep\n")
			return
		}
		lst, err := os.Lstat(p)
		if err != nil {
			fmt.Fprintf(&b, "%s missing\n", p)
			return
		}
		if lst.Mode()&os.ModeSymlink != 0 {
			t, _ := os.Readlink(p)
			fmt.Fprintf(&b, "%s -> %s %v\n", p, t, lst.ModTime().UnixNano())
		}
		st, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(&b, "%s dangling\n", p)
			return
		}
		fmt.Fprintf(&b, "%s %v %d %d\n", p, st.Mode(), st.Size(), st.ModTime().UnixNano())
		if st.Mode().IsRegular() {
			c, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%q\n", c)
			return
		}
		if st.IsDir() {
			ents, _ := os.ReadDir(p)
			names := []string{}
			for _, e := range ents {
				if e.Name() != ".git" {
					names = append(names, e.Name())
				}
			}
			sort.Strings(names)
			for _, n := range names {
				walk(filepath.Join(p, n), depth+1)
			}
		}
	}
	walk(w.proj, 0)
	walk(w.readPath, 0)
	return b.String()
}

// checkNeverStale runs edits on a world and fails when the fingerprint
// would serve an answer that a real run would not print.
func checkNeverStale(t testing.TB, w *propWorld, steps int, window time.Duration, home string) {
	type entry struct {
		out  string
		racy Racy
	}
	cache := map[string]entry{}
	served, stored := 0, 0
	in := FingerprintInput{Cwd: w.proj, Reads: []Read{{Path: w.readPath, Deep: true}}, Environ: gitEnvFor(home)}
	for i := 0; i < steps; i++ {
		w.edit()
		if window < racyWindow && w.r.Intn(2) == 0 {
			settle() // the edit is past the window: metadata alone must show it
		}
		key, racy, err := fingerprint(in, window)
		if err != nil {
			if !errors.Is(err, ErrNotServable) {
				t.Fatalf("step %d: %v", i, err)
			}
			continue
		}
		out := w.run()
		if prev, ok := cache[key]; ok && prev.racy.Holds() {
			served++
			if prev.out != out {
				t.Fatalf("step %d: served a stale answer after:\n%s\n--- cached:\n%s--- real:\n%s", i, strings.Join(w.log, "\n"), prev.out, out)
			}
		}
		cache[key] = entry{out, racy}
		stored++
	}
	t.Logf("%d steps, %d fingerprinted, %d served", steps, stored, served)
}

func newPropWorld(t testing.TB, seed int64, gitMode bool) (*propWorld, string) {
	w := &propWorld{t: t, r: rand.New(rand.NewSource(seed)), out: t.TempDir(), gitMode: gitMode}
	home := ""
	if gitMode {
		w.proj, home = newRepo(t, map[string]string{"a": "a", "d/c": "cc"})
	} else {
		w.proj = t.TempDir()
	}
	w.readPath = filepath.Join(w.out, "d")
	return w, home
}

// TestFingerprintNeverStale is the property: random trees, random edits
// (content, mode, link retarget, rename, timestamps put back), and after
// each edit the fingerprint serves an answer only when a real run would
// print the same bytes. The seed is fixed; GUARD_PROP_SEED picks another.
func TestFingerprintNeverStale(t *testing.T) {
	seed := int64(20)
	if s := os.Getenv("GUARD_PROP_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	for _, gitMode := range []bool{false, true} {
		for _, window := range []time.Duration{racyWindow, testWindow} {
			t.Run(fmt.Sprintf("git=%v/window=%s", gitMode, window), func(t *testing.T) {
				w, home := newPropWorld(t, seed, gitMode)
				for range 8 {
					w.edit()
				}
				steps := 100
				if testing.Short() {
					steps = 40
				}
				checkNeverStale(t, w, steps, window, home)
			})
		}
	}
}

// FuzzFingerprintNeverStale drives the same property with edits chosen
// by the input; the racy window is the real one, so each input runs the
// same way.
func FuzzFingerprintNeverStale(f *testing.F) {
	f.Add(int64(1), uint8(10))
	f.Add(int64(20), uint8(30))
	f.Fuzz(func(t *testing.T, seed int64, steps uint8) {
		w, _ := newPropWorld(t, seed, false)
		w.noPause = true
		checkNeverStale(t, w, int(steps%40), racyWindow, "")
	})
}

// TestFingerprintSameTick: a rewrite in the same clock tick as the write
// before it leaves ctime where it was; the racy rule (the content of a
// file changed within the window is hashed) is what tells them apart.
// The tick is the kernel's: the test tries until it sees one shared.
func TestFingerprintSameTick(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	seen := 0
	for i := 0; i < 200 && seen < 3; i++ {
		os.WriteFile(p, []byte("aaaa"), 0o644)
		var st1, st2 syscall.Stat_t
		syscall.Stat(p, &st1)
		before, held, err := Fingerprint(FingerprintInput{Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		rewrite(t, p, fmt.Sprintf("%04d", i))
		syscall.Stat(p, &st2)
		after, _, err := Fingerprint(FingerprintInput{Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		if st1.Ctim != st2.Ctim {
			continue // another tick: ctime alone shows the rewrite
		}
		seen++
		if before == after && held.Holds() {
			t.Fatal("a rewrite in the same tick left the fingerprint as it was")
		}
	}
	t.Logf("%d rewrites in the same tick seen", seen)
}

// TestRacyHolds: an entry made while a file was within the window answers
// only while the file holds the same bytes, through a link too.
func TestRacyHolds(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("aaaa"), 0o644)
	os.WriteFile(filepath.Join(out, "g"), []byte("gggg"), 0o644)
	os.Symlink(filepath.Join(out, "g"), filepath.Join(dir, "link"))
	_, racy, err := Fingerprint(FingerprintInput{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(racy.Paths) != 2 || !racy.Holds() {
		t.Fatalf("racy %v, holds %v; want f and the link's target, holding", racy.Paths, racy.Holds())
	}
	for _, c := range []struct {
		path, content string
		holds         bool
	}{
		{p, "bbbb", false},
		{p, "aaaa", true},
		{filepath.Join(out, "g"), "GGGG", false},
		{filepath.Join(out, "g"), "gggg", true},
	} {
		rewrite(t, c.path, c.content)
		if racy.Holds() != c.holds {
			t.Errorf("%s holding %q: Holds() = %v", c.path, c.content, !c.holds)
		}
	}
	os.Remove(p)
	syscall.Mkfifo(p, 0o600)
	if racy.Holds() {
		t.Error("a fifo in place of the file holds")
	}
	if (Racy{Paths: []string{"x"}}).Holds() || (Racy{Sum: "ab"}).Holds() {
		t.Error("a damaged racy list holds")
	}
}

// BenchmarkFingerprintPlain: the fingerprint of a plain directory of 100
// files, settled (no file within the racy window): what a cache hit pays.
func BenchmarkFingerprintPlain(b *testing.B) {
	dir := b.TempDir()
	for i := range 100 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), []byte(fmt.Sprint(i)), 0o644)
	}
	b.ResetTimer()
	for range b.N {
		if _, _, err := Fingerprint(FingerprintInput{Cwd: dir, Now: settled()}); err != nil {
			b.Fatal(err)
		}
	}
}
