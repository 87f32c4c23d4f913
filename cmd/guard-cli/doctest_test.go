package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// docSkip, on the line before a ```console block, leaves the block out of
// TestDocConsoleBlocks: for output that needs a real agent, a terminal or
// a machine's own state. Say why after it.
const docSkip = "<!-- doctest: skip"

// TestDocConsoleBlocks runs every ```console block of README.md and
// docs/*.md: each "$ " line with the built guard in a temp HOME, its output
// (stdout and stderr, in order) compared with the lines under it. What the
// docs show a new user is what guard prints today.
func TestDocConsoleBlocks(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	docs = append([]string{filepath.Join(repo, "README.md")}, docs...)
	dir := t.TempDir()
	var scripts []string
	for _, doc := range docs {
		blocks, err := consoleBlocks(doc)
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) == 0 {
			continue
		}
		name := filepath.Join(dir, strings.TrimSuffix(filepath.Base(doc), ".md")+".txtar")
		if err := os.WriteFile(name, []byte(docScript(filepath.Base(doc), blocks)), 0o644); err != nil {
			t.Fatal(err)
		}
		scripts = append(scripts, name)
	}
	if len(scripts) == 0 {
		t.Fatal("no console blocks found")
	}
	testscript.Run(t, testscript.Params{
		Files:               scripts,
		Setup:               setupEnv,
		RequireExplicitExec: true,
	})
}

// consoleStep is one "$ " line of a console block and the output shown
// under it.
type consoleStep struct {
	line int // in the doc
	cmd  string
	want string
}

// consoleBlocks reads the ```console blocks of a Markdown file that are not
// marked to be skipped.
func consoleBlocks(file string) ([][]consoleStep, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var blocks [][]consoleStep
	var cur []consoleStep
	in, skip, prev := false, false, ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !in && strings.TrimSpace(line) == "```console":
			in, skip, cur = true, strings.HasPrefix(strings.TrimSpace(prev), docSkip), nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			if !skip && len(cur) > 0 {
				blocks = append(blocks, cur)
			}
		case in && strings.HasPrefix(line, "$ "):
			cur = append(cur, consoleStep{line: n, cmd: line[2:]})
		case in && len(cur) > 0:
			cur[len(cur)-1].want += line + "\n"
		}
		prev = line
	}
	return blocks, sc.Err()
}

// docScript writes the blocks of one doc as a txtar script: each command
// in a file of its own, run by sh with stderr joined to stdout.
func docScript(doc string, blocks [][]consoleStep) string {
	var s, files strings.Builder
	for _, b := range blocks {
		for _, st := range b {
			id := fmt.Sprintf("%s-%d", strings.TrimSuffix(doc, ".md"), st.line)
			fmt.Fprintf(&s, "# %s:%d: %s\nexec sh %s.sh\ncmp stdout %s.want\n\n", doc, st.line, st.cmd, id, id)
			fmt.Fprintf(&files, "-- %s.sh --\nexec 2>&1\n%s\nexit 0\n-- %s.want --\n%s", id, st.cmd, id, st.want)
		}
	}
	return s.String() + files.String()
}
