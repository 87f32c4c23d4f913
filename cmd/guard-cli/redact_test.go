package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestRedactStreams checks that guard redact is a filter for endless
// streams: each line comes out, redacted, while stdin stays open (tail -f
// build.log | guard redact), and a key block split over lines is redacted.
func TestRedactStreams(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	app := testApp(t, inR, outW)
	done := make(chan int, 1)
	go func() {
		done <- app.run([]string{"guard", "redact"})
		outW.Close()
	}()
	lines := make(chan string)
	go func() {
		br := bufio.NewReader(outR)
		for {
			s, err := br.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- s
		}
	}()
	steps := []struct{ in, want string }{
		{"plain line", "plain line\n"},
		{"password=s3cr3t-" + "Value", "password=[REDACTED:credential]\n"},
		{"-----BEGIN RSA " + "PRIVATE KEY-----", ""},
		{"MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Y6ZJ0PL2nYzqD5n7ia6v0LBQdjE", ""},
		{"-----END RSA PRIVATE KEY-----", "[REDACTED:private-key]\n"},
		{"after", "after\n"},
	}
	for _, st := range steps {
		if _, err := fmt.Fprintln(inW, st.in); err != nil {
			t.Fatal(err)
		}
		if st.want == "" {
			continue // inside a key block: held until the block ends
		}
		select {
		case got := <-lines:
			if got != st.want {
				t.Fatalf("after %q: got %q, want %q", st.in, got, st.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no output for %q while stdin stays open: guard redact does not stream", st.in)
		}
	}
	inW.Close()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit status %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("guard redact did not exit at EOF")
	}
	if rest, ok := <-lines; ok && strings.TrimSpace(rest) != "" {
		t.Errorf("unexpected output at EOF: %q", rest)
	}
}
