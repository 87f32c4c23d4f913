package ccs

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newRepo makes a repository in a temp dir with files (name → content)
// committed, and returns its top and git's HOME.
func newRepo(t testing.TB, files map[string]string, initArgs ...string) (top, home string) {
	t.Helper()
	needGit(t)
	home, top = t.TempDir(), t.TempDir()
	gitRun(t, home, top, append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	for name, content := range files {
		p := filepath.Join(top, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(files) > 0 {
		gitRun(t, home, top, "add", "-A")
		gitRun(t, home, top, "commit", "-qm", "one")
	}
	return top, home
}

// lsStage is git ls-files --stage, one "MODE OID STAGE\tPATH" a line.
func lsStage(t *testing.T, home, top string) string {
	return gitRun(t, home, top, "ls-files", "--stage")
}

// ourStage is the same lines from readGitIndex.
func ourStage(t *testing.T, top string) (string, []indexEntry, error) {
	t.Helper()
	gitdir, common := gitDirs(top)
	size, err := gitHashSize(common)
	if err != nil {
		return "", nil, err
	}
	entries, err := readGitIndex(gitdir, size)
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%06o %x %d\t%s\n", e.mode, e.oid, e.stage, e.path)
	}
	return b.String(), entries, err
}

var indexFiles = map[string]string{
	"a.txt": "a", "dir/b.txt": "b", "dir/sub/c.txt": "c", "dir/sub/d.txt": "d", "dir2/e": "e",
	"long/" + strings.Repeat("n", 250) + "/" + strings.Repeat("m", 250) + "/f": "f", ".gitignore": "*.o\n",
}

// TestGitIndexVersions reads indexes of version 2, 3 (with an
// intent-to-add entry: extended flags) and 4 (prefix-compressed paths),
// and a sha256 repository's, and compares them with git ls-files --stage.
func TestGitIndexVersions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		init    []string
		prep    [][]string
		version byte
	}{
		{"v2", nil, [][]string{{"update-index", "--index-version", "2"}}, 2},
		{"v3 intent-to-add", nil, [][]string{{"update-index", "--index-version", "2"}, {"add", "-N", "new.txt"}}, 3},
		{"v4", nil, [][]string{{"update-index", "--index-version", "4"}}, 4},
		{"v4 intent-to-add", nil, [][]string{{"update-index", "--index-version", "4"}, {"add", "-N", "new.txt"}}, 4},
		{"sha256", []string{"--object-format=sha256"}, nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top, home := newRepo(t, indexFiles, tc.init...)
			os.WriteFile(filepath.Join(top, "new.txt"), []byte("new"), 0o644)
			for _, args := range tc.prep {
				gitRun(t, home, top, args...)
			}
			got, entries, err := ourStage(t, top)
			if err != nil {
				t.Fatal(err)
			}
			if want := lsStage(t, home, top); got != want {
				t.Errorf("index read as\n%s\ngit ls-files --stage:\n%s", got, want)
			}
			if data, _ := os.ReadFile(filepath.Join(top, ".git", "index")); len(data) < 8 || data[7] != tc.version {
				t.Errorf("index version %d, want %d", data[7], tc.version)
			}
			if strings.Contains(tc.name, "intent") {
				e, ok := indexHas(entries, "new.txt")
				if !ok || e.ext&ceIntentToAdd == 0 {
					t.Errorf("new.txt: %+v, intent-to-add flag not read", e)
				}
			}
			if err := gitFilesFingerprint(testFP(nil), sha1.New(), top); err != nil {
				t.Errorf("fingerprint fell back: %v", err)
			}
		})
	}
}

// TestGitIndexFallback: a split index, a sparse index and an unknown
// mandatory extension are left to git; a sparse checkout without a sparse
// index is read.
func TestGitIndexFallback(t *testing.T) {
	t.Run("split index", func(t *testing.T) {
		top, home := newRepo(t, indexFiles)
		gitRun(t, home, top, "update-index", "--split-index")
		if _, _, err := ourStage(t, top); !errors.Is(err, errGitFallback) {
			t.Fatalf("split index read: %v", err)
		}
		// the fallback still sees an edit
		fp := func() string {
			s, _, err := Fingerprint(FingerprintInput{Cwd: top, Environ: gitEnvFor(home), Now: settled()})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		before := fp()
		if fp() != before {
			t.Fatal("fingerprint not stable")
		}
		os.WriteFile(filepath.Join(top, "dir", "b.txt"), []byte("B"), 0o644)
		if fp() == before {
			t.Error("an edit under a split index did not change the fingerprint")
		}
	})
	t.Run("sparse checkout", func(t *testing.T) {
		top, home := newRepo(t, indexFiles)
		gitRun(t, home, top, "sparse-checkout", "set", "dir")
		got, entries, err := ourStage(t, top)
		if err != nil {
			t.Fatal(err)
		}
		if want := lsStage(t, home, top); got != want {
			t.Errorf("index read as\n%s\ngit ls-files --stage:\n%s", got, want)
		}
		if e, _ := indexHas(entries, "dir2/e"); e.ext&ceSkipWorktree == 0 {
			t.Errorf("dir2/e: skip-worktree not read: %+v", e)
		}
		// .gitignore stays checked out in cone mode: the walk is ours
		if err := gitFilesFingerprint(testFP(nil), sha1.New(), top); err != nil {
			t.Errorf("sparse checkout fell back: %v", err)
		}
		gitRun(t, home, top, "sparse-checkout", "set", "--no-cone", "dir/")
		if err := gitFilesFingerprint(testFP(nil), sha1.New(), top); !errors.Is(err, errGitFallback) {
			t.Errorf("a .gitignore left out by sparse checkout was not left to git: %v", err)
		}
	})
	t.Run("sparse index", func(t *testing.T) {
		top, home := newRepo(t, indexFiles)
		gitRun(t, home, top, "sparse-checkout", "set", "--sparse-index", "dir")
		if _, _, err := ourStage(t, top); !errors.Is(err, errGitFallback) {
			t.Fatalf("sparse index read: %v", err)
		}
	})
	t.Run("extensions", func(t *testing.T) {
		top, _ := newRepo(t, indexFiles)
		data, err := os.ReadFile(filepath.Join(top, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		with := func(sig string) []byte {
			b := append([]byte{}, data[:len(data)-sha1.Size]...)
			b = append(b, sig...)
			b = binary.BigEndian.AppendUint32(b, 3)
			b = append(b, "xyz"...)
			s := sha1.Sum(b)
			return append(b, s[:]...)
		}
		if _, err := parseGitIndex(with("ZOPT"), sha1.Size); err != nil {
			t.Errorf("optional extension: %v", err)
		}
		for _, sig := range []string{"zman", "link", "sdir", "1abc"} {
			if _, err := parseGitIndex(with(sig), sha1.Size); !errors.Is(err, errGitFallback) {
				t.Errorf("extension %q read: %v", sig, err)
			}
		}
		bad := append([]byte{}, data...)
		bad[len(bad)-1] ^= 1
		if _, err := parseGitIndex(bad, sha1.Size); !errors.Is(err, errGitFallback) {
			t.Errorf("a wrong checksum was accepted: %v", err)
		}
		zero := append([]byte{}, data[:len(data)-sha1.Size]...)
		zero = append(zero, make([]byte, sha1.Size)...)
		if _, err := parseGitIndex(zero, sha1.Size); err != nil {
			t.Errorf("index.skipHash (zero checksum): %v", err)
		}
		v5 := append([]byte{}, zero...)
		v5[7] = 5
		if _, err := parseGitIndex(v5, sha1.Size); !errors.Is(err, errGitFallback) {
			t.Errorf("version 5 read: %v", err)
		}
		// every byte flipped: no panic (the checksum would catch it)
		for i := 12; i < len(zero)-sha1.Size; i++ {
			b := append([]byte{}, zero...)
			b[i] ^= 0xa5
			parseGitIndex(b, sha1.Size)
		}
		// every truncation (checksum zeroed, so the parser itself is
		// tested) falls back without a panic, unless it cuts between
		// extensions
		full, _ := parseGitIndex(data, sha1.Size)
		for n := range len(data) {
			b := append(append([]byte{}, data[:n]...), make([]byte, sha1.Size)...)
			if e, err := parseGitIndex(b, sha1.Size); err == nil && len(e) != len(full) {
				t.Errorf("index cut at %d parsed as %d entries", n, len(e))
			}
		}
	})
	t.Run("linked worktree", func(t *testing.T) {
		main, home := newRepo(t, indexFiles)
		os.WriteFile(filepath.Join(main, ".git", "info", "exclude"), []byte("*.tmp\n"), 0o644)
		top := filepath.Join(t.TempDir(), "wt")
		gitRun(t, home, main, "worktree", "add", "-q", "-b", "wt", top)
		for _, name := range []string{"x.tmp", "x.o", "y"} {
			os.WriteFile(filepath.Join(top, name), nil, 0o644)
		}
		got, _, err := ourStage(t, top)
		if err != nil {
			t.Fatal(err)
		}
		if want := lsStage(t, home, top); got != want {
			t.Errorf("index read as\n%s\ngit ls-files --stage:\n%s", got, want)
		}
		paths, err := ourPaths(t, top)
		if want := gitPaths(t, home, top); err != nil || !maps.Equal(paths, want) {
			t.Errorf("ours %v (%v), git's %v", paths, err, want)
		}
	})
	t.Run("merge conflict", func(t *testing.T) {
		top, home := newRepo(t, indexFiles)
		gitRun(t, home, top, "checkout", "-q", "-b", "side")
		os.WriteFile(filepath.Join(top, "a.txt"), []byte("side"), 0o644)
		gitRun(t, home, top, "commit", "-qam", "side")
		gitRun(t, home, top, "checkout", "-q", "main")
		os.WriteFile(filepath.Join(top, "a.txt"), []byte("main"), 0o644)
		gitRun(t, home, top, "commit", "-qam", "main")
		cmd := exec.Command("git", "merge", "-q", "side")
		cmd.Dir, cmd.Env = top, gitEnvFor(home)
		cmd.Run() // fails: the conflict is what is wanted
		got, _, err := ourStage(t, top)
		if err != nil {
			t.Fatal(err)
		}
		if want := lsStage(t, home, top); got != want || !strings.Contains(want, " 3\ta.txt") {
			t.Errorf("index read as\n%s\ngit ls-files --stage:\n%s", got, want)
		}
	})
	t.Run("no index", func(t *testing.T) {
		top, _ := newRepo(t, nil)
		if _, entries, err := ourStage(t, top); err != nil || len(entries) != 0 {
			t.Errorf("fresh repository: %v %v", entries, err)
		}
	})
}

func TestIndexVarint(t *testing.T) {
	// git's varint.c encodings
	for _, tc := range []struct {
		in   string
		want uint64
	}{{"00", 0}, {"7f", 127}, {"8000", 128}, {"8100", 256}, {"ff7f", 16511}, {"808000", 16512}} {
		b, _ := hex.DecodeString(tc.in)
		if got, n := indexVarint(b); got != tc.want || n != len(b) {
			t.Errorf("%s: %d (%d bytes), want %d", tc.in, got, n, tc.want)
		}
	}
	if _, n := indexVarint([]byte{0x80}); n != 0 {
		t.Error("a torn varint was read")
	}
}

// TestGitFingerprint: what must change a git work tree's fingerprint, and
// what must not.
func TestGitFingerprint(t *testing.T) {
	top, home := newRepo(t, map[string]string{
		"a.txt": "aaaa", "dir/b.txt": "b", ".gitignore": "*.log\nignored/\n/build\n", "keep.log": "kept",
	})
	gitRun(t, home, top, "add", "-f", "keep.log")
	gitRun(t, home, top, "commit", "-qm", "two")
	gitRun(t, home, top, "branch", "other")
	os.Mkdir(filepath.Join(top, "ignored"), 0o755)
	os.Mkdir(filepath.Join(top, "empty"), 0o755)
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(top, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) { t.Helper(); gitRun(t, home, top, args...) }
	fp := func() string {
		t.Helper()
		h := sha1.New()
		if err := gitFilesFingerprint(testFP(nil), h, top); err != nil {
			t.Fatalf("not read from the files: %v", err)
		}
		s, _, err := Fingerprint(FingerprintInput{Cwd: top, Environ: gitEnvFor(home), Now: settled()})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	steps := []struct {
		name   string
		do     func()
		change bool
	}{
		{"nothing", func() {}, false},
		{"edit, same size", func() {
			write("a.txt", "AAAA")
			later := time.Now().Add(time.Hour)
			os.Chtimes(filepath.Join(top, "a.txt"), later, later)
		}, true},
		{"new untracked file", func() { write("new.txt", "n") }, true},
		{"new file in a new directory", func() { write("newdir/x", "x") }, true},
		{"new file in an empty untracked directory", func() { write("empty/x", "x") }, true},
		{"new file in an ignored directory", func() { write("ignored/x", "x") }, false},
		{"new ignored file", func() { write("other.log", "x") }, false},
		{"new file in an anchored ignored directory", func() { write("build/out", "x") }, false},
		{"edit of a tracked file under an ignore pattern", func() { write("keep.log", "KEPT!") }, true},
		{"delete", func() { os.Remove(filepath.Join(top, "dir", "b.txt")) }, true},
		{"git add", func() { git("add", "new.txt") }, true},
		{"commit", func() { git("commit", "-qam", "three") }, true},
		{"checkout of another branch", func() { git("checkout", "-q", "other") }, true},
		{"stash", func() { write("a.txt", "stashed"); fp(); git("stash", "-q") }, true},
		{"stash pop", func() { git("stash", "pop", "-q") }, true},
		{".gitignore edit that un-ignores a file", func() { write(".gitignore", "*.log\n!other.log\nignored/\n/build\n") }, true},
		{"info/exclude edit", func() { write(".git/info/exclude", "new*\n") }, true},
		{"a .gitignore that ignores itself", func() { write("self/.gitignore", ".gitignore\n") }, true},
		{"and its edit", func() { write("self/.gitignore", ".gitignore\n#\n") }, true},
	}
	prev := fp()
	for _, s := range steps {
		s.do()
		got := fp()
		if (got != prev) != s.change {
			t.Errorf("%s: changed %v, want %v", s.name, got != prev, s.change)
		}
		prev = got
	}

	// git status rewrites the index with fresh stat data only: same key
	git("add", "-A")
	git("commit", "-qm", "clean")
	a := filepath.Join(top, "a.txt")
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(a, past, past) // the index's stat data is now stale
	before := fp()
	st1, _ := os.Stat(filepath.Join(top, ".git", "index"))
	time.Sleep(10 * time.Millisecond)
	git("status", "--porcelain")
	st2, _ := os.Stat(filepath.Join(top, ".git", "index"))
	if st1.ModTime().Equal(st2.ModTime()) {
		t.Error("git status did not rewrite the index: the test tests nothing")
	}
	if fp() != before {
		t.Error("git status (a stat refresh) changed the fingerprint")
	}
}

// TestGitFingerprintBound: the entry bound and skip apply to the index
// and the walk.
func TestGitFingerprintSkip(t *testing.T) {
	top, home := newRepo(t, map[string]string{"a": "a", "state/s": "s"})
	skip := []string{filepath.Join(top, "state")}
	fp := func() string {
		s, _, err := Fingerprint(FingerprintInput{Cwd: top, Environ: gitEnvFor(home), Skip: skip, Now: settled()})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := fp()
	os.WriteFile(filepath.Join(top, "state", "s"), []byte("changed"), 0o644)
	os.WriteFile(filepath.Join(top, "state", "new"), nil, 0o644)
	if fp() != before {
		t.Error("a skipped directory changed the fingerprint")
	}
	f := testFP(nil)
	f.n = MaxGitEntries - 1
	if err := gitFilesFingerprint(f, sha1.New(), top); !errors.Is(err, ErrNotServable) {
		t.Errorf("past MaxGitEntries: %v", err)
	}
}

// benchRepo makes a repository of files tracked files (50 a directory)
// and an ignored node_modules of ignoredFiles files.
func benchRepo(b *testing.B, files, ignoredFiles int) (top, home string) {
	b.Helper()
	needGit(b)
	home, top = b.TempDir(), b.TempDir()
	gitRun(b, home, top, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(top, ".gitignore"), []byte("node_modules/\n*.o\n/build\n"), 0o644)
	for i := range files {
		dir := top
		if files > 100 {
			dir = filepath.Join(top, fmt.Sprintf("d%d", i/50))
			os.MkdirAll(dir, 0o755)
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), []byte(fmt.Sprint(i)), 0o644)
	}
	gitRun(b, home, top, "add", "-A")
	gitRun(b, home, top, "commit", "-qm", "bench")
	for i := range ignoredFiles {
		dir := filepath.Join(top, "node_modules", fmt.Sprintf("m%d", i/100))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("i%d.js", i)), nil, 0o644)
	}
	return top, home
}

// BenchmarkGitFingerprint: a work tree's fingerprint through git ls-files
// (before) and from the repository's files (now).
//
//	go test ./ccs -run '^$' -bench GitFingerprint -benchtime 20x
func BenchmarkGitFingerprint(b *testing.B) {
	for _, size := range []struct {
		name           string
		files, ignored int
	}{{"100files", 100, 0}, {"5000files+20000ignored", 5000, 20000}} {
		b.Run(size.name, func(b *testing.B) {
			top, home := benchRepo(b, size.files, size.ignored)
			env := gitEnvFor(home)
			b.Run("git-ls-files", func(b *testing.B) {
				for b.Loop() {
					if err := gitLsFilesFingerprint(testFP(nil), sha1.New(), top, env); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("files", func(b *testing.B) {
				for b.Loop() {
					if err := gitFilesFingerprint(testFP(nil), sha1.New(), top); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkGitIndex: parsing an index of 100 entries, and the part of it
// that checks the trailing checksum.
func BenchmarkGitIndex(b *testing.B) {
	top, _ := benchRepo(b, 100, 0)
	data, err := os.ReadFile(filepath.Join(top, ".git", "index"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := parseGitIndex(data, sha1.Size); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("checksum", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			checkIndexSum(data[:len(data)-sha1.Size], data[len(data)-sha1.Size:])
		}
	})
}
