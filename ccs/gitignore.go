package ccs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// This file decides which paths `git ls-files --others --exclude-standard`
// leaves out as ignored, without running git. It follows git's dir.c and
// wildmatch.c (as of git 2.39) so that, for every pattern it understands,
// its verdict is git's; for anything else it errs only toward "not
// ignored", which costs a cache miss at worst and never serves a stale
// entry (the fingerprint then covers a file git would not list).
//
// Sources, in git's order of precedence: the .gitignore of each directory
// from the path's own directory up to the top of the work tree (the
// deepest file that has a matching pattern decides), then
// $GIT_DIR/info/exclude (of the common directory). core.excludesFile
// (default $XDG_CONFIG_HOME/git/ignore) is not read: git consults it last,
// so leaving it out can only turn an "ignored" verdict into "not ignored",
// the safe direction. Likewise core.ignoreCase: with it git ignores more
// than these case-sensitive matches do, never less.

// ignorePattern is one line of a .gitignore, as git's parse_path_pattern
// leaves it.
type ignorePattern struct {
	pat      string // without the leading '!' and the trailing '/'
	prefix   int    // bytes before the first wildcard (git's nowildcardlen)
	negative bool   // '!': a match means "not ignored"
	mustDir  bool   // trailing '/': matches directories only
	noDir    bool   // no '/' in pat: matches the basename at any depth
	endsWith bool   // "*literal": a suffix compare
	unknown  bool   // holds what this package does not evaluate ([[:alpha:]])
}

// ignoreList is the patterns of one file and the directory they are
// relative to ("" for the top of the work tree and info/exclude, else
// "a/b", no trailing slash).
type ignoreList struct {
	base string
	pats []ignorePattern
}

// parseIgnoreFile parses a .gitignore or info/exclude file as git's
// add_patterns_from_buffer does: a UTF-8 BOM is skipped; a line is cut at
// "\n" (and a "\r" before it), at a NUL (git reads it as a C string);
// blank lines and lines starting with '#' are skipped; trailing spaces are
// trimmed unless escaped with '\'.
func parseIgnoreFile(data []byte, base string) *ignoreList {
	l := &ignoreList{base: base}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		l.pats = append(l.pats, parseIgnorePattern(trimTrailingSpaces(string(line))))
	}
	return l
}

// trimTrailingSpaces removes unescaped trailing spaces (not tabs), as
// git's trim_trailing_spaces.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// parseIgnorePattern parses one trimmed line as git's parse_path_pattern.
func parseIgnorePattern(s string) ignorePattern {
	var p ignorePattern
	if strings.HasPrefix(s, "!") {
		p.negative = true
		s = s[1:]
	}
	if strings.HasSuffix(s, "/") {
		p.mustDir = true
		s = s[:len(s)-1]
	}
	p.pat = s
	p.noDir = !strings.Contains(s, "/")
	p.prefix = simpleLength(s)
	p.endsWith = strings.HasPrefix(s, "*") && simpleLength(s[1:]) == len(s)-1
	p.unknown = !wildUnderstood(s)
	return p
}

// simpleLength is the length of s before its first glob special character.
func simpleLength(s string) int {
	if i := strings.IndexAny(s, `*?[\`); i >= 0 {
		return i
	}
	return len(s)
}

// wildUnderstood reports whether this package evaluates pat exactly as
// git does: everything but POSIX character classes ("[[:alpha:]]") inside
// a bracket expression, which wildmatch would read differently.
func wildUnderstood(pat string) bool {
	return !strings.Contains(pat, "[:")
}

// ignored reports whether path (relative to the top of the work tree, no
// trailing slash; isDir for a directory) is ignored by lists, which are
// the .gitignore files from the top down to the path's own directory,
// then info/exclude last (exclude may be nil). The path's parent
// directories must not be ignored (the walk never enters one that is).
//
// Unknown patterns: a positive one is taken to never match, a negative one
// ('!') to always match. Both are safe, that is, this function says
// "ignored" only when git does too. Proof: suppose it says ignored. Then
// the first pattern it takes to match, in git's order (deepest file first,
// last line first), is a positive understood pattern P that truly matches.
// Every pattern before P in that order is either understood and truly not
// matching, or positive and unknown (a negative unknown would have been
// taken to match, before P). So git's first truly matching pattern is
// either a positive unknown one or P: positive either way, and git says
// ignored. The walk enters no directory git would not enter for the same
// reason, so no file below an ignored directory is ever hashed as
// untracked while git lists it.
func ignored(lists []*ignoreList, exclude *ignoreList, path string, isDir bool) bool {
	base := path[strings.LastIndexByte(path, '/')+1:]
	for i := len(lists) - 1; i >= -1; i-- {
		l := exclude
		if i >= 0 {
			l = lists[i]
		}
		if l == nil {
			continue
		}
		if p := l.lastMatch(path, base, isDir); p != nil {
			return !p.negative
		}
	}
	return false
}

// lastMatch returns the last pattern of l that matches (git's
// last_matching_pattern_from_list), or nil.
func (l *ignoreList) lastMatch(path, base string, isDir bool) *ignorePattern {
	for i := len(l.pats) - 1; i >= 0; i-- {
		p := &l.pats[i]
		if p.mustDir && !isDir {
			continue
		}
		if p.unknown {
			if p.negative {
				return p
			}
			continue
		}
		if p.noDir {
			if p.matchBasename(base) {
				return p
			}
		} else if p.matchPathname(path, l.base) {
			return p
		}
	}
	return nil
}

// matchBasename is git's match_basename.
func (p *ignorePattern) matchBasename(base string) bool {
	switch {
	case p.prefix == len(p.pat):
		return base == p.pat
	case p.endsWith:
		return strings.HasSuffix(base, p.pat[1:])
	}
	return wildmatch(p.pat, base, false)
}

// matchPathname is git's match_pathname: the pattern is relative to the
// directory of its file (dir), a leading '/' only anchors it, and the
// literal prefix is compared before the rest is matched. That last step
// is not only an optimisation: wildmatch then sees the rest as a pattern
// of its own, so "a/b**" matches "a/b/c/d" ("**" at the start of a
// pattern crosses '/'); this reproduces it.
func (p *ignorePattern) matchPathname(path, dir string) bool {
	pat, prefix := p.pat, p.prefix
	if strings.HasPrefix(pat, "/") {
		pat, prefix = pat[1:], prefix-1
	}
	name := path
	if dir != "" {
		if len(path) < len(dir)+1 || path[len(dir)] != '/' || path[:len(dir)] != dir {
			return false
		}
		name = path[len(dir)+1:]
	}
	if prefix > 0 {
		if prefix > len(name) || pat[:prefix] != name[:prefix] {
			return false
		}
		pat, name = pat[prefix:], name[prefix:]
		if pat == "" && name == "" {
			return true
		}
	}
	return wildmatch(pat, name, true)
}

// wildmatch results, as git's wildmatch.c.
const (
	wmMatch         = 0
	wmNoMatch       = 1
	wmAbortAll      = -1
	wmAbortToStarOK = -2
)

// wildmatch reports whether text matches pattern, as git's wildmatch with
// WM_PATHNAME when pathname is set (no case folding: see above).
func wildmatch(pattern, text string, pathname bool) bool {
	return dowild(pattern, text, pathname) == wmMatch
}

// at returns s[i], or 0 past its end (the C string's terminator).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// dowild is git's dowild, line for line, on Go strings: pat[0] is the
// start of the pattern ("**" is special only at its start or after '/').
// A pattern holding a POSIX class never gets here (wildUnderstood); a
// '[' followed by ':' without a closing ":]" is still a literal '['.
func dowild(pat, text string, pathname bool) int {
	p, t := 0, 0
	for ; at(pat, p) != 0; t, p = t+1, p+1 {
		pch := pat[p]
		tch := at(text, t)
		if tch == 0 && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			// literal match with the next character; a trailing '\'
			// compares with 0, which no text character is
			p++
			if tch != at(pat, p) {
				return wmNoMatch
			}
			continue
		default:
			if tch != pch {
				return wmNoMatch
			}
			continue
		case '?':
			if pathname && tch == '/' {
				return wmNoMatch
			}
			continue
		case '*':
			var matchSlash bool
			p++
			if at(pat, p) == '*' {
				prev := p - 2
				for p++; at(pat, p) == '*'; p++ {
				}
				switch {
				case !pathname:
					matchSlash = true
				case (prev < 0 || pat[prev] == '/') &&
					(at(pat, p) == 0 || at(pat, p) == '/' || at(pat, p) == '\\' && at(pat, p+1) == '/'):
					if at(pat, p) == '/' && dowild(pat[p+1:], text[t:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				default:
					matchSlash = false
				}
			} else {
				matchSlash = !pathname
			}
			if at(pat, p) == 0 {
				// trailing "**" matches everything, trailing "*" only
				// what holds no more '/'
				if !matchSlash && strings.IndexByte(text[t:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			} else if !matchSlash && pat[p] == '/' {
				// one '*' and a '/' match up to the next directory
				i := strings.IndexByte(text[t:], '/')
				if i < 0 {
					return wmNoMatch
				}
				t += i
				// the loop consumes the '/' of both
				continue
			}
			for {
				if tch == 0 {
					break
				}
				// a literal after the star: skip to where it occurs
				if c := pat[p]; !isGlobSpecial(c) {
					for tch = at(text, t); tch != 0 && (matchSlash || tch != '/'); tch = at(text, t) {
						if tch == c {
							break
						}
						t++
					}
					if tch != c {
						return wmNoMatch
					}
				}
				if m := dowild(pat[p:], text[t:], pathname); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarOK {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarOK
				}
				t++
				tch = at(text, t)
			}
			return wmAbortAll
		case '[':
			p++
			pch = at(pat, p)
			if pch == '^' {
				pch = '!'
			}
			negated := pch == '!'
			if negated {
				p++
				pch = at(pat, p)
			}
			var prevCh byte
			matched := false
			for {
				if pch == 0 {
					return wmAbortAll
				}
				switch {
				case pch == '\\':
					p++
					pch = at(pat, p)
					if pch == 0 {
						return wmAbortAll
					}
					if tch == pch {
						matched = true
					}
				case pch == '-' && prevCh != 0 && at(pat, p+1) != 0 && at(pat, p+1) != ']':
					p++
					pch = pat[p]
					if pch == '\\' {
						p++
						pch = at(pat, p)
						if pch == 0 {
							return wmAbortAll
						}
					}
					if tch <= pch && tch >= prevCh {
						matched = true
					}
					pch = 0 // so that prevCh becomes 0
				case pch == '[' && at(pat, p+1) == ':':
					// never here: wildUnderstood refuses "[:"
					return wmAbortAll
				default:
					if tch == pch {
						matched = true
					}
				}
				prevCh = pch
				p++
				pch = at(pat, p)
				if pch == ']' {
					break
				}
			}
			if matched == negated || pathname && tch == '/' {
				return wmNoMatch
			}
			continue
		}
	}
	if t < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// isGlobSpecial is git's is_glob_special.
func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// The kinds of path gitTree.walk reports.
const (
	gitUntracked  = 'u' // a file or symlink not in the index and not ignored
	gitNested     = 'n' // a directory holding a .git of its own (not entered if a repository)
	gitUnreadable = 'x' // a directory that could not be listed
	gitIgnoreFile = 'g' // a .gitignore read (hashed even when it ignores itself)
	gitSpecial    = 's' // a fifo or a device, not ignored: git lists none, but a command may read it
)

// maxIgnoreFile bounds a .gitignore or info/exclude read; a larger one
// falls back to git.
const maxIgnoreFile = 4 << 20

// gitTree is what a work tree's fingerprint reads from its repository.
type gitTree struct {
	top      string // with no trailing '/' (the root is "")
	gitdir   string
	common   string
	skip     []string
	hashSize int
	index    []indexEntry // sorted by path, then stage
	exclude  []byte       // $GIT_DIR/info/exclude of the common directory
	excl     *ignoreList  // parsed
}

// readGitTree reads the repository of the work tree at top: its index and
// info/exclude. It falls back (errGitFallback) where it cannot read them
// exactly, or when the repository does not look like one (no HEAD).
func readGitTree(top string, skip []string) (*gitTree, error) {
	gitdir, common := gitDirs(top)
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(gitdir, "HEAD"), &st); err != nil {
		return nil, fallback("no HEAD in %s", gitdir)
	}
	g := &gitTree{top: strings.TrimSuffix(top, "/"), gitdir: gitdir, common: common, skip: skip}
	var err error
	if g.hashSize, err = gitHashSize(common); err != nil {
		return nil, err
	}
	if g.index, err = readGitIndex(gitdir, g.hashSize); err != nil {
		return nil, err
	}
	for _, e := range g.index {
		// git reads a .gitignore that sparse checkout left out of the
		// work tree from the index; this package cannot read blobs
		if e.ext&ceSkipWorktree != 0 && (e.path == ".gitignore" || strings.HasSuffix(e.path, "/.gitignore")) {
			return nil, fallback("%s is not checked out", e.path)
		}
	}
	// git follows a symlink here (it is not in the work tree)
	b, err := readIgnoreFile(filepath.Join(common, "info", "exclude"), false)
	if err != nil {
		return nil, err
	}
	g.exclude = b
	if b != nil {
		g.excl = parseIgnoreFile(b, "")
	}
	return g, nil
}

// readIgnoreFile reads a pattern file; a missing one is nil. One that is
// not a regular file (with nofollow: a symlink too, which git 2.32 and
// later skip and earlier git followed), too large or unreadable falls
// back.
func readIgnoreFile(path string, nofollow bool) ([]byte, error) {
	flags := syscall.O_RDONLY
	if nofollow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := openRegular(path, flags)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	var nr *notRegularError
	if errors.As(err, &nr) {
		// git would block on a fifo (or read a device): nobody asks it
		return nil, notServable("%v", err)
	}
	if err != nil {
		return nil, fallback("read %s: %v", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxIgnoreFile+1))
	if err != nil || len(b) > maxIgnoreFile {
		return nil, fallback("read %s: too large or unreadable", path)
	}
	return b, nil
}

// walk reports, in a deterministic order, every path of the work tree that
// `git ls-files --others --exclude-standard` lists (gitUntracked,
// gitNested), and perhaps a few more (see ignored), and every .gitignore
// it reads (gitIgnoreFile, even one that ignores itself): it enters every
// directory that is not ignored, not a submodule (a gitlink in the index),
// not a nested repository and not under skip, and never .git. Symlinks are
// not followed.
func (g *gitTree) walk(visit func(kind byte, rel string) error) error {
	return g.walkDir("", nil, visit)
}

// join returns the absolute path of rel, a path relative to the top.
func (g *gitTree) join(rel string) string {
	return g.top + "/" + rel
}

func (g *gitTree) walkDir(rel string, lists []*ignoreList, visit func(kind byte, rel string) error) error {
	full := g.join(rel)
	ents, err := readDirNoFollow(full, rel != "")
	if err != nil {
		if rel == "" {
			return fallback("list %s: %v", full, err)
		}
		return visit(gitUnreadable, rel)
	}
	prefix := ""
	if rel != "" {
		prefix = rel + "/"
	}
	for _, d := range ents {
		if d.Name() != ".gitignore" {
			continue
		}
		switch d.Type() {
		case 0:
		case fs.ModeSymlink:
			return fallback("%s.gitignore is a symlink", prefix)
		default:
			// git would block on a fifo, and read a device
			var st syscall.Stat_t
			syscall.Lstat(g.join(prefix+".gitignore"), &st)
			return notServable("%v", notRegular(g.join(prefix+".gitignore"), st.Mode))
		}
		b, err := readIgnoreFile(g.join(prefix+".gitignore"), true)
		if err != nil {
			return err
		}
		if err := visit(gitIgnoreFile, prefix+".gitignore"); err != nil {
			return err
		}
		lists = append(lists[:len(lists):len(lists)], parseIgnoreFile(b, rel))
	}
	for _, d := range ents {
		name := d.Name()
		if name == ".git" {
			continue
		}
		child := prefix + name
		if len(g.skip) > 0 && under(g.join(child), g.skip) {
			continue
		}
		switch typ := d.Type(); {
		case typ == fs.ModeDir:
			if e, ok := indexHas(g.index, child); ok && e.mode == gitlinkMode {
				continue // a submodule: its gitlink entry is hashed
			}
			if ignored(lists, g.excl, child, true) {
				continue
			}
			if !indexHasUnder(g.index, child) {
				if _, err := os.Lstat(g.join(child) + "/.git"); err == nil {
					if err := visit(gitNested, child); err != nil {
						return err
					}
					if nestedRepo(g.join(child), g.hashSize) {
						continue
					}
				}
			}
			if err := g.walkDir(child, lists, visit); err != nil {
				return err
			}
		case typ == 0 || typ == fs.ModeSymlink:
			if _, ok := indexHas(g.index, child); ok {
				continue // tracked: hashed with the index
			}
			if ignored(lists, g.excl, child, false) {
				continue
			}
			if err := visit(gitUntracked, child); err != nil {
				return err
			}
		case typ&(fs.ModeNamedPipe|fs.ModeDevice|fs.ModeCharDevice) != 0:
			// git lists no other file types, but cat * reads a fifo
			if ignored(lists, g.excl, child, false) {
				continue
			}
			if err := visit(gitSpecial, child); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDirNoFollow is os.ReadDir, but opened O_DIRECTORY (a fifo swapped in
// fails at once instead of blocking) and, with nofollow, O_NOFOLLOW (a
// symlink swapped in is not followed).
func readDirNoFollow(path string, nofollow bool) ([]fs.DirEntry, error) {
	flags := syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC
	if nofollow {
		flags |= syscall.O_NOFOLLOW
	}
	fd, err := syscall.Open(path, flags, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	d := os.NewFile(uintptr(fd), path)
	defer d.Close()
	ents, err := d.ReadDir(-1)
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, err
}

// nestedRepo reports whether dir holds a repository git treats as nested
// (is_nonbare_repository_dir), and so lists as one path and does not
// enter. It answers true only when git surely does (a .git directory, or
// a regular .git file naming one, that passes is_git_directory's checks);
// when git would say yes and this says no, the walk enters the directory
// and hashes more than git lists, which is safe.
func nestedRepo(dir string, hashSize int) bool {
	dotgit := dir + "/.git"
	var st syscall.Stat_t
	if syscall.Lstat(dotgit, &st) != nil {
		return false
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return isGitDir(dotgit, hashSize)
	case syscall.S_IFREG:
		b, err := readSmallFile(dotgit)
		if err != nil {
			return false
		}
		d, ok := bytes.CutPrefix(b, []byte("gitdir: "))
		d = bytes.TrimRight(d, "\r\n")
		if !ok || len(d) == 0 || bytes.IndexByte(d, 0) >= 0 {
			return false
		}
		p := string(d)
		if !filepath.IsAbs(p) {
			p = dir + "/" + p
		}
		return isGitDir(p, hashSize)
	}
	return false
}

// isGitDir is git's is_git_directory, or stricter: HEAD is a symlink to
// refs/…, or a file "ref: refs/…" or a full object id; objects and refs
// (in the common directory) can be searched.
func isGitDir(d string, hashSize int) bool {
	head := d + "/HEAD"
	var st syscall.Stat_t
	if syscall.Lstat(head, &st) != nil {
		return false
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFLNK:
		t, err := os.Readlink(head)
		if err != nil || !strings.HasPrefix(t, "refs/") {
			return false
		}
	case syscall.S_IFREG:
		b, err := readSmallFile(head)
		if err != nil {
			return false
		}
		if ref, ok := bytes.CutPrefix(b, []byte("ref:")); ok {
			if !bytes.HasPrefix(bytes.TrimLeft(ref, " \t\n\r"), []byte("refs/")) {
				return false
			}
		} else if len(b) < 2*hashSize || !isHex(b[:2*hashSize]) {
			return false
		}
	default:
		return false
	}
	common := d
	if b, err := readSmallFile(d + "/commondir"); err == nil {
		common = string(bytes.TrimRight(b, "\n"))
		if !filepath.IsAbs(common) {
			common = d + "/" + common
		}
	}
	return unix.Access(common+"/objects", unix.X_OK) == nil && unix.Access(common+"/refs", unix.X_OK) == nil
}

// isHex reports whether b is all lowercase or uppercase hex digits.
func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
