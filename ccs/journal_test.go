package ccs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAppendErrors(t *testing.T) {
	t.Run("state dir under a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		os.WriteFile(file, nil, 0o600)
		err := Open(filepath.Join(file, "state"), nil).Append(rec("x", "allow", time.Time{}))
		if err == nil || !strings.HasPrefix(err.Error(), "write audit record: create state directory") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("device", func(t *testing.T) {
		// (this was the disk-full case: /dev/full is no journal either)
		dir := t.TempDir()
		if err := os.Symlink("/dev/full", filepath.Join(dir, journalName)); err != nil {
			t.Skip(err)
		}
		err := Open(dir, nil).Append(rec("x", "allow", time.Time{}))
		if err == nil || !strings.Contains(err.Error(), "audit.jsonl: not a regular file (a character device)") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("read-only dir", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root ignores permissions")
		}
		dir := filepath.Join(t.TempDir(), "ro")
		os.Mkdir(dir, 0o500)
		err := Open(dir, nil).Append(rec("x", "allow", time.Time{}))
		if err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Fatalf("err = %v", err)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 0 {
			t.Errorf("left %v behind", entries)
		}
	})
}
