package shim

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConsoleURL: the web console's address is read only from a regular
// file of this user's that no one else can read, and only when it names
// this machine's loopback.
func TestConsoleURL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, UIURLName)
	if got := ConsoleURL(dir); got != "" {
		t.Errorf("no file: %q", got)
	}
	write := func(s string, mode os.FileMode) {
		t.Helper()
		os.Remove(path)
		if err := os.WriteFile(path, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		text string
		mode os.FileMode
		want string
	}{
		{"http://127.0.0.1:43211/\n", 0o600, "http://127.0.0.1:43211/"},
		{"http://[::1]:8080", 0o600, "http://[::1]:8080"},
		{"https://localhost:9/approve", 0o600, "https://localhost:9/approve"},
		{"http://127.0.0.1:43211/\n", 0o644, ""}, // others may read it: not believed
		{"http://127.0.0.1:43211/\n", 0o400, ""},
		{"http://evil.example:80/", 0o600, ""},
		{"http://127.0.0.1.evil.example:80/", 0o600, ""},
		{"http://127.0.0.1/", 0o600, ""},
		{"http://127.0.0.1:80x/", 0o600, ""},
		{"file:///etc/passwd", 0o600, ""},
		{"http://127.0.0.1:80/\x1b[2J", 0o600, ""},
		{"http://127.0.0.1:80/ a", 0o600, ""},
		{"", 0o600, ""},
	} {
		write(tc.text, tc.mode)
		if got := ConsoleURL(dir); got != tc.want {
			t.Errorf("%q %o: got %q, want %q", tc.text, tc.mode, got, tc.want)
		}
	}
	// a file of another user's is not believed
	if os.Getuid() == 0 {
		write("http://127.0.0.1:1/", 0o600)
		if err := os.Chown(path, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if got := ConsoleURL(dir); got != "" {
			t.Errorf("another user's file: %q", got)
		}
	}
	// a link to a good file is not followed
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("http://127.0.0.1:1/"), 0o600)
	os.Remove(path)
	if err := os.Symlink(good, path); err != nil {
		t.Fatal(err)
	}
	if got := ConsoleURL(dir); got != "" {
		t.Errorf("symlink: %q", got)
	}
	// nor is a directory or a file too long to be an address
	os.Remove(path)
	os.Mkdir(path, 0o700)
	if got := ConsoleURL(dir); got != "" {
		t.Errorf("directory: %q", got)
	}
	os.Remove(path)
	long := make([]byte, 2000)
	for i := range long {
		long[i] = 'a'
	}
	write("http://127.0.0.1:1/"+string(long), 0o600)
	if got := ConsoleURL(dir); got != "" {
		t.Errorf("long: %q", got)
	}
}
