package redact

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strings"
	"syscall"
	"unicode/utf8"
)

// maxPatternFile bounds a .guard/redact file.
const maxPatternFile = 64 << 10

// A userPattern is one expression from redact_patterns or .guard/redact.
type userPattern string

// pattern turns u into a table entry. Its literal prefix, when it has one
// of two bytes or more, is its trigger; without one it runs on every line.
func (u userPattern) pattern() *pattern {
	p := &pattern{kind: "custom", expr: string(u), valid: func([]byte) bool { return true }}
	re, err := syntax.Parse(string(u), syntax.Perl)
	if err != nil {
		p.literal = true
		if len(u) >= 2 {
			p.triggers = []string{string(u)}
		}
		return p
	}
	prefix, fold := literalPrefix(re.Simplify())
	if len(prefix) >= 2 {
		if fold {
			prefix = strings.ToLower(prefix)
		}
		p.triggers, p.fold = []string{prefix}, fold
	}
	return p
}

// literalPrefix returns the ASCII text every match of re starts with, and
// whether it is matched without regard to case.
func literalPrefix(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return literalPrefix(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) > 0 {
			return literalPrefix(re.Sub[0])
		}
	case syntax.OpLiteral:
		var b strings.Builder
		for _, c := range re.Rune {
			if c >= utf8.RuneSelf {
				break
			}
			b.WriteRune(c)
		}
		return b.String(), re.Flags&syntax.FoldCase != 0
	}
	return "", false
}

// CheckPattern reports whether expr is a valid pattern for WithPatterns.
func CheckPattern(expr string) error {
	if expr == "" {
		return fmt.Errorf("empty pattern")
	}
	if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
		// the message names the problem, never the text: a pattern
		// may be a secret written as a literal
		var se *syntax.Error
		if errors.As(err, &se) {
			return fmt.Errorf("not a valid regular expression: %s", se.Code)
		}
		return errors.New("not a valid regular expression")
	}
	return nil
}

// ProjectFile is where a project lists its own patterns: one expression a
// line, blank lines and lines starting with # ignored. The file can only
// add redaction, so a cloned repository may use it without being trusted.
func ProjectFile(root string) string {
	return filepath.Join(root, ".guard", "redact")
}

// ReadPatternFile reads the patterns of a file in ProjectFile's format. A
// missing file is no patterns and no error. It reads at most 64 KiB and
// only a regular file, so a FIFO in its place cannot hang guard. An
// invalid expression is kept (WithPatterns matches it literally) and named
// in the error, with its line.
func ReadPatternFile(file string) ([]string, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read redact patterns: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read redact patterns: %s: not a regular file", file)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPatternFile+1))
	if err != nil {
		return nil, fmt.Errorf("read redact patterns: %w", err)
	}
	if len(data) > maxPatternFile {
		return nil, fmt.Errorf("read redact patterns: %s: larger than %d bytes", file, maxPatternFile)
	}
	return parsePatternFile(file, data)
}

func parsePatternFile(file string, data []byte) ([]string, error) {
	var pats []string
	var firstErr error
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxPatternFile+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if _, err := syntax.Parse(line, syntax.Perl); err != nil && firstErr == nil {
			// the message names the line, never its text: it may be a
			// secret written as a literal
			firstErr = fmt.Errorf("%s:%d: not a valid regular expression (matched as literal text)", file, n)
		}
		pats = append(pats, line)
	}
	return pats, firstErr
}
