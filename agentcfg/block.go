package agentcfg

import (
	"errors"
	"strings"
)

// The markers around guard's section of an instruction file. Markdown
// renders neither.
const (
	BlockBegin = "<!-- guard:begin (written by guard install --instructions; edits inside are replaced) -->"
	BlockEnd   = "<!-- guard:end -->"
)

const beginPrefix = "<!-- guard:begin"

// findBlock returns the byte range of the marked block, end marker and its
// newline included.
func findBlock(text string) (start, end int, found bool, err error) {
	start = strings.Index(text, beginPrefix)
	if start < 0 {
		if strings.Contains(text, BlockEnd) {
			return 0, 0, false, errors.New("has a guard:end marker without guard:begin; remove it by hand")
		}
		return 0, 0, false, nil
	}
	if start > 0 && text[start-1] != '\n' {
		return 0, 0, false, errors.New("the guard:begin marker is not at the start of a line; fix it by hand")
	}
	rel := strings.Index(text[start:], BlockEnd)
	if rel < 0 {
		return 0, 0, false, errors.New("has guard:begin without guard:end; fix it by hand")
	}
	end = start + rel + len(BlockEnd)
	if end < len(text) && text[end] == '\n' {
		end++
	}
	if strings.Contains(text[end:], beginPrefix) {
		return 0, 0, false, errors.New("has more than one guard block; keep one by hand")
	}
	return start, end, true, nil
}

// SetBlock puts body between the markers: in place of the block if the
// text has one, else at the end, after a blank line.
func SetBlock(text, body string) (string, error) {
	block := BlockBegin + "\n" + strings.TrimRight(body, "\n") + "\n" + BlockEnd + "\n"
	start, end, found, err := findBlock(text)
	if err != nil {
		return "", err
	}
	if found {
		return text[:start] + block + text[end:], nil
	}
	switch {
	case text == "":
	case strings.HasSuffix(text, "\n\n"):
	case strings.HasSuffix(text, "\n"):
		text += "\n"
	default:
		text += "\n\n"
	}
	return text + block, nil
}

// RemoveBlock takes the block out, with the blank line SetBlock put before
// it. It reports whether there was one.
func RemoveBlock(text string) (string, bool, error) {
	start, end, found, err := findBlock(text)
	if err != nil || !found {
		return text, false, err
	}
	before := text[:start]
	if end == len(text) && strings.HasSuffix(before, "\n\n") {
		before = before[:len(before)-1]
	}
	return before + text[end:], true, nil
}

// HasBlock reports whether text holds a guard block.
func HasBlock(text string) bool {
	_, _, found, err := findBlock(text)
	return found && err == nil
}
