package ccs

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// gitEnvFor is the environment the tests run git in: no global or system
// config, HOME a temp dir, nothing pointing at another repository.
func gitEnvFor(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e",
		"LC_ALL=C",
	}
}

// gitRun runs git in dir and returns its stdout; a failure fails the test.
func gitRun(t testing.TB, home, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnvFor(home)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func needGit(t testing.TB) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// ourPaths is the path set the fingerprint of the work tree at top covers:
// the index's paths and the walk's.
func ourPaths(t *testing.T, top string) (map[string]bool, error) {
	t.Helper()
	g, err := readGitTree(top, nil)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, e := range g.index {
		set[e.path] = true
	}
	err = g.walk(func(kind byte, rel string) error {
		if kind == gitUntracked || kind == gitNested {
			if set[rel] {
				t.Errorf("walk reported %q twice or as tracked", rel)
			}
			set[rel] = true
		}
		return nil
	})
	return set, err
}

// gitPaths is what git ls-files --cached --others --exclude-standard lists
// (a nested repository's trailing "/" dropped).
func gitPaths(t *testing.T, home, top string) map[string]bool {
	out := gitRun(t, home, top, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	set := map[string]bool{}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			set[strings.TrimSuffix(p, "/")] = true
		}
	}
	return set
}

// Names of the random trees' files and directories, chosen so that the
// patterns below hit them.
var treeNames = []string{"a", "b", "ab", "ba", "x.o", "y.log", "keep.me", "#h", "!n", "sp ", "q[1]",
	"node_modules", "build", "dist", "A", "a.b", `b\k`, "c", "-", "]"}

// Pattern segments: every syntax git has, and a POSIX class (unknown).
var patSegments = []string{"a", "b", "ab", "x.o", "y.log", "keep.me", "node_modules", "build", "dist", "A",
	"*", "?", "**", "*.o", "*.log", "a*", "*b", "[ab]", "[a-c]*", "[!a]*", "[^ab]*", "?*", "*.*", "a?",
	`\#h`, `\!n`, `sp\ `, `q\[1]`, "q[[]1]", "[]a]", "[a-]", `b\\k`, `b\k`, "[x-z]", "**a", "a**", "*a*",
	"[]-]", "[!]]", `[\]]`, "[a-c-]", "x.[ob]", "a[", `a\`,
}

// randPattern draws one .gitignore line.
func randPattern(r *rand.Rand) string {
	switch r.IntN(14) {
	case 0:
		return []string{"", "#h", "# comment", "   ", "!", "/", "\\", "*/", "!*/", "/*", "**/", "/**", "dist/**",
			"**/y.log", "a/**/b", "!keep.me", "a/b**", "a/b**/c", "*/a", "!*.o", "[[:alpha:]]*", "!*[[:digit:]]",
			"a\r", "#h\r", "a/*", "!a/**"}[r.IntN(26)]
	}
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteString("!")
	}
	if r.IntN(4) == 0 {
		b.WriteString("/")
	}
	for i, n := 0, 1+r.IntN(3)*r.IntN(2); i < n; i++ {
		if i > 0 {
			b.WriteString("/")
		}
		b.WriteString(patSegments[r.IntN(len(patSegments))])
	}
	if r.IntN(4) == 0 {
		b.WriteString("/")
	}
	if r.IntN(8) == 0 {
		b.WriteString("  ")
	}
	return b.String()
}

// randTree makes a random tree under dir and returns its files
// (relative), its directories, and its pattern lines.
func randTree(r *rand.Rand, top, rel string, depth int, files, dirs, pats *[]string, nested bool) {
	dir := filepath.Join(top, rel)
	os.MkdirAll(dir, 0o755)
	join := func(n string) string { return path.Join(rel, n) }
	if r.IntN(3) == 0 {
		var lines []string
		for i := r.IntN(6); i >= 0; i-- {
			lines = append(lines, randPattern(r))
		}
		*pats = append(*pats, lines...)
		os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		*files = append(*files, join(".gitignore"))
	}
	for i := r.IntN(5); i > 0; i-- {
		n := treeNames[r.IntN(len(treeNames))]
		p := filepath.Join(dir, n)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if r.IntN(12) == 0 {
			os.Symlink("a", p)
		} else {
			os.WriteFile(p, []byte(n), 0o644)
		}
		*files = append(*files, join(n))
	}
	if depth == 0 {
		return
	}
	for i := r.IntN(4); i > 0; i-- {
		n := treeNames[r.IntN(len(treeNames))]
		p := filepath.Join(dir, n)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		*dirs = append(*dirs, join(n))
		switch {
		case nested && r.IntN(15) == 0:
			// a nested repository, as is_git_directory checks one
			os.MkdirAll(filepath.Join(p, ".git", "objects"), 0o755)
			os.MkdirAll(filepath.Join(p, ".git", "refs"), 0o755)
			os.WriteFile(filepath.Join(p, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
			os.WriteFile(filepath.Join(p, "inner"), nil, 0o644)
		case r.IntN(10) == 0:
			os.Mkdir(p, 0o755) // empty
		default:
			randTree(r, top, join(n), depth-1, files, dirs, pats, nested)
		}
	}
}

// TestGitListingMatchesGit compares, over a few hundred random trees with
// random .gitignore files and info/exclude, the paths the fingerprint
// covers with what git ls-files --cached --others --exclude-standard
// lists: always a superset; equal when no pattern holds what gitignore.go
// treats as unknown.
func TestGitListingMatchesGit(t *testing.T) {
	needGit(t)
	home := t.TempDir()
	top := t.TempDir()
	gitRun(t, home, top, "init", "-q", "-b", "main")
	trees := 300
	if testing.Short() {
		trees = 60
	}
	r := rand.New(rand.NewPCG(7, 11))
	exact, unknown, listed, hidden := 0, 0, 0, 0
	for i := range trees {
		ents, _ := os.ReadDir(top)
		for _, e := range ents {
			if e.Name() != ".git" {
				os.RemoveAll(filepath.Join(top, e.Name()))
			}
		}
		os.Remove(filepath.Join(top, ".git", "index"))
		var files, dirs, pats []string
		excl := ""
		if r.IntN(2) == 0 {
			for j := r.IntN(4); j >= 0; j-- {
				p := randPattern(r)
				pats = append(pats, p)
				excl += p + "\n"
			}
		}
		os.WriteFile(filepath.Join(top, ".git", "info", "exclude"), []byte(excl), 0o644)
		randTree(r, top, "", 3, &files, &dirs, &pats, i%2 == 0)
		// track some files, also inside ignored directories (update-index
		// does not look at ignore rules: it is git add -f)
		var add []string
		for _, f := range files {
			if r.IntN(3) == 0 {
				add = append(add, f)
			}
		}
		if len(add) > 0 {
			args := append([]string{"update-index", "--add", "--index-version", fmt.Sprint(2 + r.IntN(3)), "--"}, add...)
			gitRun(t, home, top, args...)
		}
		want := gitPaths(t, home, top)
		got, err := ourPaths(t, top)
		if err != nil {
			t.Fatalf("tree %d: %v", i, err)
		}
		isExact := !slices.ContainsFunc(pats, func(p string) bool { return parseIgnorePattern(trimTrailingSpaces(p)).unknown })
		var missing, extra []string
		for p := range want {
			if !got[p] {
				missing = append(missing, p)
			}
		}
		for p := range got {
			if !want[p] {
				extra = append(extra, p)
			}
		}
		sort.Strings(missing)
		sort.Strings(extra)
		if len(missing) > 0 || isExact && len(extra) > 0 {
			t.Errorf("tree %d (exact %v): git lists %q that we miss; we add %q\npatterns: %q\nexclude: %q",
				i, isExact, missing, extra, pats, excl)
			if t.Failed() && testing.Verbose() {
				t.FailNow()
			}
		}
		listed += len(want)
		hidden += len(files) + len(dirs) - len(want)
		if isExact {
			exact++
		} else {
			unknown++
		}
	}
	t.Logf("%d trees compared exactly, %d as a superset; %d paths listed, about %d ignored", exact, unknown, listed, hidden)
}

// TestGitIgnoreCases: hand-picked corners of git's rules, each compared
// with git ls-files exactly.
func TestGitIgnoreCases(t *testing.T) {
	needGit(t)
	for _, tc := range []struct {
		name  string
		files map[string]string // ending in "/": a directory; "->x": a symlink to x
	}{
		{"prefix then ** crosses /", map[string]string{".gitignore": "a/b**\n!a/ba/\n", "a/ba/x": "", "a/ba/y/z": "", "a/bc/y": "", "a/b/c": ""}},
		{"**/ forms", map[string]string{".gitignore": "**/y.log\na/**/b\n/**/q\n", "y.log": "", "d/e/y.log": "", "a/b": "", "a/x/y/b": "", "x/q": "", "q": "", "a/bb": ""}},
		{"dist/** re-include", map[string]string{".gitignore": "dist/**\n!dist/keep.me\n!dist/sub/\n", "dist/keep.me": "", "dist/x": "", "dist/sub/y": "", "dist/sub/keep.me": ""}},
		{"excluded directory cannot re-include", map[string]string{".gitignore": "node_modules/\n!node_modules/keep\n", "node_modules/keep": "", "node_modules/a/b": ""}},
		{"escapes", map[string]string{".gitignore": "\\#h\n\\!n\nsp\\ \na\\\n#c\n", "#h": "", "!n": "", "sp ": "", "sp": "", "a": "", "#c": ""}},
		{"trailing spaces and CRLF", map[string]string{".gitignore": "\xef\xbb\xbfa  \r\nb \\ \r\n", "a": "", "b  ": "", "b \\": "", "c": ""}},
		{"deeper file wins", map[string]string{".gitignore": "*.o\n!keep.log\n", "sub/.gitignore": "!x.o\n*.log\n", "x.o": "", "sub/x.o": "", "sub/y.o": "", "sub/keep.log": "", "keep.log": ""}},
		{"anchored", map[string]string{".gitignore": "/top\nmid/x\n", "top": "", "d/top": "", "mid/x": "", "d/mid/x": ""}},
		{"dir-only and symlinks", map[string]string{".gitignore": "dir/\nlink/\n*/\n!d2/\n", "dir/x": "", "link": "->dir", "d2/y": "", "f": ""}},
		{"classes", map[string]string{".gitignore": "[a-c]x\n[!a]y\n[]]z\n[a-]w\na[\n", "ax": "", "dx": "", "ay": "", "by": "", "]z": "", "-w": "", "bw": "", "a[": ""}},
		{"nested repositories", map[string]string{".gitignore": "ign/\n", "nest/f": "", "ign/f": "", "plain/.git": "not a repository"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, top := t.TempDir(), t.TempDir()
			gitRun(t, home, top, "init", "-q", "-b", "main")
			for name, content := range tc.files {
				p := filepath.Join(top, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if target, ok := strings.CutPrefix(content, "->"); ok {
					os.Symlink(target, p)
				} else {
					os.WriteFile(p, []byte(content), 0o644)
				}
			}
			if tc.name == "nested repositories" {
				gitRun(t, home, filepath.Join(top, "nest"), "init", "-q")
				gitRun(t, home, filepath.Join(top, "ign"), "init", "-q")
			}
			want := gitPaths(t, home, top)
			got, err := ourPaths(t, top)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "nested repositories" {
				delete(got, "plain") // not a repository: git lists its files, we also the directory
			}
			if !maps.Equal(got, want) {
				t.Errorf("ours %v\ngit's %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
			}
		})
	}
}

// simpleGlob reports whether s uses only what path.Match and wildmatch
// (WM_PATHNAME) read alike: letters, digits, '.', '_', '-', '/', '*'
// and '?', without "**".
func simpleGlob(s string, wild bool) bool {
	for _, c := range []byte(s) {
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '.', c == '_', c == '-', c == '/':
		case wild && (c == '*' || c == '?'):
		default:
			return false
		}
	}
	return !strings.Contains(s, "**")
}

// FuzzGitignorePattern: parsing and matching any pattern against any path
// never panics, and a simple pattern matches as path.Match does.
//
//	go test ./ccs -run '^$' -fuzz FuzzGitignorePattern -fuzztime 20s
func FuzzGitignorePattern(f *testing.F) {
	for _, s := range patSegments {
		f.Add(s, "a/b/c")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		f.Add(randPattern(r), path.Join(treeNames[r.IntN(len(treeNames))], treeNames[r.IntN(len(treeNames))]))
	}
	f.Add("a/b**", "a/bc/d")
	f.Add("[[:alpha:]]", "a")
	f.Add("*.go", "x.go")
	f.Add("a/*/c", "a/b/c")
	f.Fuzz(func(t *testing.T, pat, name string) {
		l := parseIgnoreFile([]byte(pat), "")
		sub := parseIgnoreFile([]byte(pat), "a")
		for _, isDir := range []bool{false, true} {
			ignored([]*ignoreList{l, sub}, l, name, isDir)
		}
		wildmatch(pat, name, true)
		wildmatch(pat, name, false)
		if !simpleGlob(pat, true) || !simpleGlob(name, false) || name == "" {
			return
		}
		want, err := path.Match(pat, name)
		if err != nil {
			return
		}
		if got := wildmatch(pat, name, true); got != want {
			t.Errorf("wildmatch(%q, %q) = %v, path.Match %v", pat, name, got, want)
		}
		p := parseIgnorePattern(pat)
		if !p.unknown && !p.noDir && !p.mustDir && !strings.HasPrefix(pat, "/") {
			if got := p.matchPathname(name, ""); got != want {
				t.Errorf("pattern %q on %q: %v, path.Match %v", pat, name, got, want)
			}
		}
	})
}
