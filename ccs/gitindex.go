package ccs

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// errGitFallback says the repository's files hold something this package
// does not read exactly (an index format, a split or sparse index, an
// unknown mandatory extension, an odd .gitignore): the fingerprint then
// asks git itself (git ls-files), as before.
var errGitFallback = errors.New("read by git instead")

// fallback wraps errGitFallback with the reason, for tests and debugging.
func fallback(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), errGitFallback)
}

// maxIndexSize bounds the index file read into memory; MaxGitEntries
// entries take about 20 MiB.
const maxIndexSize = 64 << 20

// The index entry flags this package reads (Documentation/gitformat-index).
const (
	ceExtended     = 0x4000 // flags: two more bytes of extended flags follow (v3+)
	ceStageShift   = 12
	ceNameMask     = 0x0fff
	ceSkipWorktree = 0x4000 // extended flags
	ceIntentToAdd  = 0x2000 // extended flags
	ceKnownExt     = ceSkipWorktree | ceIntentToAdd
)

// The modes an index entry may have; a sparse index's directory entries
// (040000) come only with its sdir extension, which falls back.
var indexModes = map[uint32]bool{0o100644: true, 0o100755: true, 0o120000: true, 0o160000: true}

// gitlinkMode is a submodule's mode in the index.
const gitlinkMode = 0o160000

// indexEntry is what the fingerprint takes from one index entry: not the
// stat cache fields, which a git status that only refreshes them rewrites.
type indexEntry struct {
	path  string
	mode  uint32
	oid   []byte // into the index file's bytes
	stage uint8
	ext   uint16 // extended flags: skip-worktree, intent-to-add
}

// gitDirs returns the repository directory of the work tree at top and its
// common directory (they differ for a linked worktree): a .git directory,
// or the directory a .git file ("gitdir: …") names, and its commondir.
func gitDirs(top string) (gitdir, common string) {
	gitdir = filepath.Join(top, ".git")
	if b, err := readSmallFile(gitdir); err == nil {
		if d, ok := bytes.CutPrefix(bytes.TrimSpace(b), []byte("gitdir: ")); ok {
			gitdir = string(d)
			if !filepath.IsAbs(gitdir) {
				gitdir = filepath.Join(top, gitdir)
			}
		}
	}
	common = gitdir
	if b, err := readSmallFile(filepath.Join(gitdir, "commondir")); err == nil {
		common = string(bytes.TrimSpace(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitdir, common)
		}
	}
	return gitdir, common
}

// gitHashSize returns the object id size of the repository whose common
// directory is common: 20 (sha1) unless its config sets
// extensions.objectFormat, 32 for sha256; anything else falls back. The
// config is read minimally: section headers and that one key (git reads
// repository extensions from this file alone, without includes).
func gitHashSize(common string) (int, error) {
	b, err := readSmallFile(filepath.Join(common, "config"))
	if errors.Is(err, fs.ErrNotExist) {
		return sha1.Size, nil
	}
	var nr *notRegularError
	if errors.As(err, &nr) {
		return 0, notServable("%v", err) // git would block on a fifo
	}
	if err != nil {
		return 0, fallback("read git config: %v", err)
	}
	size, section := sha1.Size, ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name, _, _ := strings.Cut(line[1:], "]")
			name, _, _ = strings.Cut(name, " ")
			section = strings.ToLower(strings.TrimSpace(name))
			if i := strings.Index(line, "]"); i >= 0 {
				line = strings.TrimSpace(line[i+1:]) // "[extensions] objectformat = …"
			} else {
				continue
			}
		}
		if section != "extensions" {
			continue
		}
		key, val, _ := strings.Cut(line, "=")
		if !strings.EqualFold(strings.TrimSpace(key), "objectformat") {
			continue
		}
		val, _, _ = strings.Cut(val, "#")
		val, _, _ = strings.Cut(val, ";")
		switch strings.ToLower(strings.Trim(strings.TrimSpace(val), `"`)) {
		case "sha1":
			size = sha1.Size
		case "sha256":
			size = sha256.Size
		default:
			return 0, fallback("object format %q", strings.TrimSpace(val))
		}
	}
	return size, nil
}

// readGitIndex reads the index of the repository at gitdir: its entries,
// sorted by path and stage as git keeps them. No index file (a fresh git
// init) is no entries. What it cannot read exactly falls back
// (errGitFallback): a version other than 2, 3 or 4, a split index (link)
// or sparse index (sdir) extension, an unknown extension that is
// mandatory (git's rule: its signature does not start with 'A'..'Z'),
// unknown flags or modes, entries out of order, a wrong checksum, or
// anything that does not parse.
func readGitIndex(gitdir string, hashSize int) ([]indexEntry, error) {
	path := filepath.Join(gitdir, "index")
	f, err := openRegular(path, syscall.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var nr *notRegularError
	if errors.As(err, &nr) {
		return nil, notServable("%v", err) // git would block on a fifo
	}
	if err != nil {
		return nil, fallback("open index: %v", err)
	}
	defer f.Close()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil || st.Size > maxIndexSize {
		return nil, fallback("index too large or unreadable")
	}
	data := make([]byte, st.Size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fallback("read index: %v", err)
	}
	return parseGitIndex(data, hashSize)
}

// parseGitIndex parses an index file's bytes (see readGitIndex).
func parseGitIndex(data []byte, hashSize int) ([]indexEntry, error) {
	if len(data) < 12+hashSize || string(data[:4]) != "DIRC" {
		return nil, fallback("index: no DIRC header")
	}
	body := data[:len(data)-hashSize]
	if err := checkIndexSum(body, data[len(body):]); err != nil {
		return nil, err
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, fallback("index version %d", version)
	}
	count := binary.BigEndian.Uint32(data[8:])
	if uint64(count) > uint64(len(body))/(40+uint64(hashSize)+2) {
		return nil, fallback("index: %d entries do not fit", count)
	}
	entries := make([]indexEntry, 0, count)
	off := 12
	prev := ""
	for i := uint32(0); i < count; i++ {
		e, next, err := parseIndexEntry(body, off, version, hashSize, prev)
		if err != nil {
			return nil, err
		}
		if n := len(entries); n > 0 {
			last := entries[n-1]
			if last.path > e.path || last.path == e.path && last.stage >= e.stage {
				return nil, fallback("index entries out of order at %q", e.path)
			}
		}
		entries = append(entries, e)
		prev, off = e.path, next
	}
	for off < len(body) {
		if len(body)-off < 8 {
			return nil, fallback("index: torn extension header")
		}
		sig := string(body[off : off+4])
		size := binary.BigEndian.Uint32(body[off+4:])
		if uint64(size) > uint64(len(body)-off-8) {
			return nil, fallback("index: extension %q overruns the file", sig)
		}
		switch {
		case sig == "link", sig == "sdir":
			return nil, fallback("index extension %q (split or sparse index)", sig)
		case sig[0] < 'A' || sig[0] > 'Z':
			return nil, fallback("mandatory index extension %q", sig)
		}
		off += 8 + int(size)
	}
	return entries, nil
}

// parseIndexEntry parses the entry at off, returning it and the offset of
// what follows. prev is the previous entry's path (v4 compresses a path
// against it).
func parseIndexEntry(body []byte, off int, version uint32, hashSize int, prev string) (indexEntry, int, error) {
	var e indexEntry
	fixed := 40 + hashSize + 2 // stat fields, object id, flags
	if len(body)-off < fixed {
		return e, 0, fallback("index: torn entry")
	}
	start := off
	e.mode = binary.BigEndian.Uint32(body[off+24:])
	if !indexModes[e.mode] {
		return e, 0, fallback("index: mode %o", e.mode)
	}
	e.oid = body[off+40 : off+40+hashSize]
	flags := binary.BigEndian.Uint16(body[off+40+hashSize:])
	e.stage = uint8(flags >> ceStageShift & 3)
	off += fixed
	if flags&ceExtended != 0 {
		if version < 3 || len(body)-off < 2 {
			return e, 0, fallback("index: extended flags in version %d", version)
		}
		e.ext = binary.BigEndian.Uint16(body[off:])
		if e.ext&^ceKnownExt != 0 {
			return e, 0, fallback("index: unknown extended flags %#x", e.ext)
		}
		off += 2
	}
	if version == 4 {
		strip, n := indexVarint(body[off:])
		if n == 0 || strip > uint64(len(prev)) {
			return e, 0, fallback("index: bad path prefix")
		}
		off += n
		end := bytes.IndexByte(body[off:], 0)
		if end < 0 {
			return e, 0, fallback("index: unterminated path")
		}
		e.path = prev[:len(prev)-int(strip)] + string(body[off:off+end])
		off += end + 1
	} else {
		end := bytes.IndexByte(body[off:], 0)
		if end < 0 {
			return e, 0, fallback("index: unterminated path")
		}
		e.path = string(body[off : off+end])
		// each entry is padded with 1-8 NULs to a multiple of 8 bytes
		off = start + (off-start+end+8)&^7
		if off > len(body) {
			return e, 0, fallback("index: torn entry padding")
		}
	}
	if n := int(flags & ceNameMask); n < ceNameMask && n != len(e.path) || e.path == "" {
		return e, 0, fallback("index: path length %d != %d", n, len(e.path))
	}
	return e, off, nil
}

// indexVarint decodes git's offset varint (varint.c: each continuation
// adds one before shifting), returning the value and the bytes read (0
// when malformed).
func indexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		val++
		if val == 0 || val>>57 != 0 || i >= len(b) {
			return 0, 0
		}
		c = b[i]
		i++
		val = val<<7 + uint64(c&127)
	}
	return val, i
}

// checkIndexSum checks the index's trailing checksum (sha1 or sha256 of
// everything before it, by its size). All zeros is what git writes with
// index.skipHash; that is accepted. Git itself checks it only in fsck; here
// it costs about 7 µs for 100 entries against 11 µs for parsing them
// (BenchmarkGitIndex), and makes a torn or damaged index fall back to git
// instead of being half read.
func checkIndexSum(body, sum []byte) error {
	if bytes.Count(sum, []byte{0}) == len(sum) {
		return nil
	}
	var got []byte
	switch len(sum) {
	case sha1.Size:
		s := sha1.Sum(body)
		got = s[:]
	case sha256.Size:
		s := sha256.Sum256(body)
		got = s[:]
	}
	if !bytes.Equal(got, sum) {
		return fallback("index checksum mismatch")
	}
	return nil
}

// indexFind returns the position of the first entry whose path is >= p.
func indexFind(entries []indexEntry, p string) int {
	return sort.Search(len(entries), func(i int) bool { return entries[i].path >= p })
}

// indexHas reports whether p is a path in the index (any stage).
func indexHas(entries []indexEntry, p string) (indexEntry, bool) {
	if i := indexFind(entries, p); i < len(entries) && entries[i].path == p {
		return entries[i], true
	}
	return indexEntry{}, false
}

// indexHasUnder reports whether the index holds a path inside directory dir.
func indexHasUnder(entries []indexEntry, dir string) bool {
	i := indexFind(entries, dir+"/")
	return i < len(entries) && strings.HasPrefix(entries[i].path, dir+"/")
}
