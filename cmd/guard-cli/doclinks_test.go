package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// The documentation links test lives here, in cmd/guard-cli, because this
// is the package that owns the help text (it builds the command tree), and
// its tests already treat the repository root (../..) as their fixture
// (testscripts/, install.sh). The repository root has no Go package to
// hold it.

var (
	// mdLink is a Markdown link or image target: [text](target).
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// fileRef is a file named in plain text (help text, install.sh): a
	// relative path ending in .md.
	fileRef = regexp.MustCompile(`(?:^|[\s("'\x60])((?:[\w.-]+/)*[\w.-]+\.md)\b`)
	// heading is a Markdown ATX heading.
	heading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
)

// TestDocLinks fails on a relative link from README.md, docs/*.md, the help
// text of every command, or install.sh to a file that does not exist, or
// to a #heading that file does not have.
func TestDocLinks(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 4 {
		t.Errorf("docs/ holds %d Markdown files, want architecture, decisions, formats and threat-model", len(docs))
	}
	checked := 0
	for _, file := range append([]string{filepath.Join(repo, "README.md")}, docs...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			checked++
			checkLink(t, rel(repo, file), filepath.Dir(file), m[1])
		}
		for _, m := range fileRef.FindAllStringSubmatch(stripLinks(string(data)), -1) {
			checkLink(t, rel(repo, file), repo, m[1])
		}
	}
	a := newApp(nil, nil, nil)
	for name, text := range helpTexts(a.cli()) {
		for _, m := range fileRef.FindAllStringSubmatch(text, -1) {
			checked++
			checkLink(t, "help of "+name, repo, m[1])
		}
	}
	sh, err := os.ReadFile(filepath.Join(repo, "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range fileRef.FindAllStringSubmatch(string(sh), -1) {
		checked++
		checkLink(t, "install.sh", repo, m[1])
	}
	if checked < 10 {
		t.Errorf("only %d links checked: is the test reading the files?", checked)
	}
}

// checkLink reports target, linked from what, when it is relative and does
// not resolve against dir.
func checkLink(t *testing.T, from, dir, target string) {
	t.Helper()
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return
	}
	file, anchor, _ := strings.Cut(target, "#")
	path := filepath.Join(dir, file)
	if file == "" {
		return // a link within the same page; headings are checked below for files
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("%s links to %s, which does not exist", from, target)
		return
	}
	if anchor != "" && strings.HasSuffix(file, ".md") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range heading.FindAllStringSubmatch(string(data), -1) {
			if slug(h[1]) == anchor {
				found = true
			}
		}
		if !found {
			t.Errorf("%s links to %s, but %s has no heading #%s", from, target, file, anchor)
		}
	}
}

// slug is GitHub's anchor for a heading: lower case, spaces to dashes,
// punctuation other than - and _ dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// stripLinks removes Markdown link targets and code spans, so that the
// plain-text scan sees only prose (a link was already checked, and code
// such as `cat notes.md` names no file of the repository).
func stripLinks(s string) string {
	s = mdLink.ReplaceAllString(s, "]")
	s = regexp.MustCompile("(?s)```.*?```").ReplaceAllString(s, "")
	return regexp.MustCompile("`[^`\n]*`").ReplaceAllString(s, "")
}

func rel(repo, file string) string {
	if r, err := filepath.Rel(repo, file); err == nil {
		return r
	}
	return file
}

// helpTexts collects every piece of help text of app: each command's usage,
// usage text and description, and each flag's usage, by command name.
func helpTexts(app *cli.App) map[string]string {
	out := map[string]string{"guard": app.Usage + "\n" + app.UsageText + "\n" + flagUsages(app.Flags)}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := prefix + " " + c.Name
			out[name] = c.Usage + "\n" + c.UsageText + "\n" + c.Description + "\n" + flagUsages(c.Flags)
			walk(name, c.Subcommands)
		}
	}
	walk("guard", app.Commands)
	return out
}

func flagUsages(flags []cli.Flag) string {
	var b strings.Builder
	for _, f := range flags {
		if d, ok := f.(cli.DocGenerationFlag); ok {
			b.WriteString(d.GetUsage())
			b.WriteString(" ")
			b.WriteString(d.GetDefaultText())
			b.WriteString("\n")
		}
	}
	return b.String()
}
