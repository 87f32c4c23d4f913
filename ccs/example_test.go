//go:build cgo

package ccs_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/redact"
)

func Example() {
	dir, err := os.MkdirTemp("", "guard-state")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s := ccs.Open(dir, redact.New(nil))
	defer s.Close()
	when := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i, cmd := range []string{"git status", "mysql --password=hunter2 app", "sudo -n true"} {
		decision := []string{"allow", "ask", "deny"}[i]
		err := s.Append(ccs.Record{Time: when.Add(time.Duration(i) * time.Second), Command: cmd, Decision: decision, Mode: "shell"})
		if err != nil {
			fmt.Println("guard: warning:", err) // the command still runs
		}
	}
	recs, err := s.Audit(ccs.Query{Limit: 2})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range recs {
		fmt.Println(r.Decision, r.Command)
	}
	// Output:
	// deny sudo -n true
	// ask mysql --password=[REDACTED:credential] app
}
