package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testApp builds an App on the given streams with HOME and XDG under a temp dir.
func testApp(t testing.TB, stdin, stdout *os.File) *App {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{
		"HOME":                 home,
		"XDG_CONFIG_HOME":      filepath.Join(home, ".config"),
		"XDG_STATE_HOME":       filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME":       filepath.Join(home, ".cache"),
		"XDG_DATA_HOME":        filepath.Join(home, ".local", "share"),
		"GUARD_MANAGED_POLICY": filepath.Join(home, "policy.toml"),
	}
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stderr.Close() })
	return &App{
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Getenv:  func(k string) string { return env[k] },
		Environ: environ,
		Cwd:     home,
		Now:     time.Now,
	}
}

// TestCheckStdinStreams checks that each answer arrives before the next
// command is written: an agent can hold the pipe open and ask one at a time.
func TestCheckStdinStreams(t *testing.T) {
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
		done <- app.run([]string{"guard", "check", "--stdin", "--json"})
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

	for _, cmd := range []string{"ls -la", "rm -rf /", "npm install left-pad", "echo 'a b' | wc -c", ""} {
		if _, err := fmt.Fprintln(inW, cmd); err != nil {
			t.Fatal(err)
		}
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("output closed before the answer to %q", cmd)
			}
			var got checkJSON
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatalf("answer to %q is not JSON: %v: %s", cmd, err, line)
			}
			if got.Command != cmd {
				t.Errorf("answer out of order: got command %q, want %q", got.Command, cmd)
			}
			switch got.Decision {
			case "allow", "ask", "deny":
			default:
				t.Errorf("answer to %q has decision %q", cmd, got.Decision)
			}
			if got.Commands == nil {
				t.Errorf("answer to %q has null commands, want a list", cmd)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %q while stdin stays open: output is not streamed", cmd)
		}
	}
	inW.Close()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit status %d, want %d", code, exitOK)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("check --stdin did not end at EOF")
	}
}

// TestCheckStdinLongLine checks that a line longer than the read buffer is
// still one command (and one answer), and that the next line is unaffected.
func TestCheckStdinLongLine(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	long := make([]byte, 200<<10)
	for i := range long {
		long[i] = 'a'
	}
	if err := os.WriteFile(in, append(append(long, '\n'), "ls\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	inF, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer inF.Close()
	outF, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer outF.Close()
	if code := testApp(t, inF, outF).run([]string{"guard", "check", "--stdin", "--json"}); code != exitOK {
		t.Fatalf("exit status %d", code)
	}
	out, err := os.ReadFile(outF.Name())
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	var answers []checkJSON
	for sc.Scan() {
		var a checkJSON
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		answers = append(answers, a)
	}
	if len(answers) != 2 {
		t.Fatalf("got %d answers, want 2", len(answers))
	}
	if answers[0].Decision != "deny" {
		t.Errorf("over-long line: decision %q, want deny", answers[0].Decision)
	}
	if answers[1].Command != "ls" {
		t.Errorf("second answer is for %q, want ls", answers[1].Command)
	}
}

// TestCheckStdinBatches checks that lines judged together, on every core,
// are answered exactly as one checker judging them one by one answers
// them, in input order, across several batches and with the strictest
// decision as the exit status.
func TestCheckStdinBatches(t *testing.T) {
	var text strings.Builder
	var texts []string
	for i := range 3*maxBatch + 7 {
		s := benchLines[i%len(benchLines)]
		if i%5 == 0 {
			s += fmt.Sprintf(" # %d", i) // no two batches alike
		}
		texts = append(texts, s)
		text.WriteString(s + "\n")
	}
	for _, asJSON := range []bool{true, false} {
		dir := t.TempDir()
		in := filepath.Join(dir, "in")
		if err := os.WriteFile(in, []byte(text.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		stdin, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		stdout, err := os.Create(filepath.Join(dir, "out"))
		if err != nil {
			t.Fatal(err)
		}
		defer stdout.Close()
		app := testApp(t, stdin, stdout)
		args := []string{"guard", "check", "--stdin", "--exit-code"}
		if asJSON {
			args = append(args, "--json")
		}
		code := app.run(args)
		got, err := os.ReadFile(stdout.Name())
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		ck := app.newChecker(app.Cwd, "", asJSON, &want)
		for _, s := range texts {
			if err := ck.decide(s); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("json=%v: check --stdin answered differently from one checker line by line:\n got %d bytes\nwant %d bytes", asJSON, len(got), len(want.Bytes()))
		}
		if code != ck.worst {
			t.Errorf("json=%v: exit status %d, want %d (worst %d)", asJSON, code, ck.worst, ck.worst)
		}
	}
}
