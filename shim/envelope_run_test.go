package shim

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWriteCwdFile: what pwd -P wrote is passed on only as one absolute
// path and a newline, and only into the user's own regular file with one
// name, never through a link (issue 22).
func TestWriteCwdFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "snapshot.sh")
	for _, tc := range []struct {
		name, out string
		plant     func(path string)
		want      string // the cwd file afterwards ("" : absent)
		err       string
	}{
		{name: "written", out: "/home/u/proj\n", want: "/home/u/proj\n"},
		{name: "nothing written (the command failed)", out: "", want: ""},
		{name: "newline in the name", out: "/tmp/x\necho pwned\n", err: "holds a newline"},
		{name: "no newline at the end", out: "/tmp/x", err: "holds a newline"},
		{name: "relative", out: "proj\n", err: "not an absolute path"},
		{name: "NUL", out: "/tmp/a\x00b\n", err: "not an absolute path"},
		{name: "too long", out: "/" + strings.Repeat("a", unix.PathMax+1) + "\n", err: "longer than PATH_MAX"},
		{name: "replaces what was there", out: "/b\n", plant: func(p string) { os.WriteFile(p, []byte("/a/much/longer/path\n"), 0o600) }, want: "/b\n"},
		{name: "link", out: "/b\n", plant: func(p string) { os.Symlink(target, p) }, err: "is a symbolic link"},
		{name: "hard link", out: "/b\n", plant: func(p string) { os.Link(target, p) }, err: "has other names"},
		{name: "fifo", out: "/b\n", plant: func(p string) { syscall.Mkfifo(p, 0o600) }, err: "cwd file"},
		{name: "directory", out: "/b\n", plant: func(p string) { os.Mkdir(p, 0o700) }, err: "cwd file"},
	} {
		if err := os.WriteFile(target, []byte("FROM_SNAPSHOT=1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "claude-f8eb-cwd")
		os.RemoveAll(path)
		if tc.plant != nil {
			tc.plant(path)
		}
		fd, err := unix.MemfdCreate("t", unix.MFD_CLOEXEC)
		if err != nil {
			t.Skipf("memfd: %v", err)
		}
		out := os.NewFile(uintptr(fd), "t")
		out.WriteString(tc.out)
		err = writeCwdFile(path, out)
		out.Close()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		} else if b, _ := os.ReadFile(path); string(b) != tc.want {
			t.Errorf("%s: cwd file %q, want %q", tc.name, b, tc.want)
		}
		if b, _ := os.ReadFile(target); string(b) != "FROM_SNAPSHOT=1\n" {
			t.Fatalf("%s: the snapshot was written through the cwd file: %q", tc.name, b)
		}
	}
}
