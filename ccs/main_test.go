package ccs

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/internal/testproc"
	"github.com/guard-dev/guard/redact"
)

// Child-process roles, chosen by environment variable when the test binary
// re-executes itself (see TestMain).
const (
	envChildDir    = "GUARD_CCS_TEST_DIR"
	envChildAppend = "GUARD_CCS_TEST_APPEND" // append one record with this number
	envChildAudit  = "GUARD_CCS_TEST_AUDIT"  // run Audit this many times
	envChildMany   = "GUARD_CCS_TEST_MANY"   // append this many records, rotating at 4 KiB
	// add a request of its own and a shared one, then take an approval
	// for "once" in /p; prints "took" if it got one
	envChildPending = "GUARD_CCS_TEST_PENDING"
	// with envChildMany: the importer to set, a binary run with
	// envChildImport (TestImporterProcesses)
	envChildImporter = "GUARD_CCS_TEST_IMPORTER"
	envChildImport   = "GUARD_CCS_TEST_IMPORT" // run Import
)

// importerTestLimit is the journal limit in TestImporterProcesses: small
// enough to be passed twice, large enough that the appenders cannot reach
// maxBacklog times it while an importer runs, which would lose records by
// design.
const importerTestLimit = 16 << 10

func TestMain(m *testing.M) {
	if dir := os.Getenv(envChildDir); dir != "" {
		os.Exit(child(dir))
	}
	// every t.TempDir under one directory: a child still running there
	// after the tests outlived its test
	tmp, err := testproc.Setup("gx")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if testproc.Check(os.Stderr, tmp) && code == 0 {
		code = 1
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

func child(dir string) int {
	s := Open(dir, redact.New(nil))
	defer s.Close()
	if n := os.Getenv(envChildAppend); n != "" {
		if err := s.Append(Record{Command: "echo " + n, Decision: "allow", Mode: "shell", Agent: "proc"}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if n := os.Getenv(envChildPending); n != "" {
		for _, sha := range []string{"own-" + n, "shared"} {
			if _, err := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: sha}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		took, err := s.TakeOnce("once", "/p", time.Now())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if took {
			fmt.Println("took")
		}
	}
	if os.Getenv(envChildImport) != "" {
		s.maxJournal = importerTestLimit
		if err := s.Import(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if bin := os.Getenv(envChildImporter); bin != "" {
		s.importEvery = 0
		s.SetImporter(func() error {
			c := exec.Command(bin)
			c.Env = append(os.Environ(), envChildDir+"="+dir, envChildImport+"=1", envChildImporter+"=", envChildMany+"=")
			c.Stderr = os.Stderr
			return c.Run()
		})
	}
	if n, _ := strconv.Atoi(os.Getenv(envChildMany)); n > 0 {
		s.maxJournal = 4096
		if s.getImporter() != nil {
			s.maxJournal = importerTestLimit
		}
		for i := range n {
			if err := s.Append(Record{Command: fmt.Sprintf("p%d-%d", os.Getpid(), i), Decision: "allow"}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
	if n, _ := strconv.Atoi(os.Getenv(envChildAudit)); n > 0 {
		for range n {
			if _, err := s.Audit(Query{Limit: 1}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
	return 0
}

const ghToken = "ghp_" + "1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz"

func rec(cmd, decision string, t time.Time) Record {
	return Record{Time: t, Agent: "test", Cwd: "/work", Command: cmd, HMAC: "abc", Decision: decision,
		Rule: "r", Answer: "rule", Mode: "shell", Exit: 3, DurationMS: 7}
}

func commands(recs []Record) string {
	var c []string
	for _, r := range recs {
		c = append(c, r.Command)
	}
	return strings.Join(c, " ")
}

// checkAll asserts that recs are n distinct records.
func checkAll(t *testing.T, recs []Record, n int) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.Command] {
			t.Errorf("record %q imported twice", r.Command)
		}
		seen[r.Command] = true
	}
	if len(seen) != n {
		t.Errorf("got %d distinct records, want %d", len(seen), n)
	}
}
