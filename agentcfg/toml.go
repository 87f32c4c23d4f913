package agentcfg

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// TOMLChange is one key set in a TOML file, with what undoing it needs.
type TOMLChange struct {
	Table string `json:"table,omitempty"` // "" for a top-level key
	Key   string `json:"key"`
	Line  string `json:"line"`           // the line written
	Prev  string `json:"prev,omitempty"` // the line it replaced; "" if none
	// NewTable says the edit added the [Table] header itself, and Sep
	// the blank line before it.
	NewTable bool `json:"new_table,omitempty"`
	Sep      bool `json:"sep,omitempty"`
}

var (
	tomlHeader = regexp.MustCompile(`^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$`)
	bareKey    = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// CheckTOML reports whether text is valid TOML, with the line of the
// first error and never its text.
func CheckTOML(text string) error {
	var v map[string]any
	if _, err := toml.Decode(text, &v); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%d:%d: not valid TOML", pe.Position.Line, pe.Position.Col)
		}
		return errors.New("not valid TOML")
	}
	return nil
}

// tomlLines splits text into lines without their newlines.
func tomlLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// section returns the line range [start, end) of table's keys: the lines
// after its header up to the next header. For the top level, start is 0.
// found is false when the table has no header.
func section(lines []string, table string) (start, end int, found bool) {
	start = -1
	if table == "" {
		start, found = 0, true
	}
	for i, l := range lines {
		m := tomlHeader.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if start >= 0 {
			return start, i, true
		}
		if m[1] == table && !strings.HasPrefix(strings.TrimSpace(l), "[[") {
			start, found = i+1, true
		}
	}
	if start < 0 {
		return 0, 0, false
	}
	return start, len(lines), found
}

// keyLine reports whether line assigns key.
func keyLine(line, key string) bool {
	k, _, ok := strings.Cut(line, "=")
	return ok && strings.TrimSpace(k) == key
}

// TOMLSet sets key = value (value is TOML text, such as `"read-only"` or
// `true`) in table, editing only that line. It refuses a file that does
// not load, a key set some other way (a dotted key, an inline table), and
// a result that would not load.
func TOMLSet(text, table, key, value string) (string, TOMLChange, bool, error) {
	if err := CheckTOML(text); err != nil {
		return "", TOMLChange{}, false, err
	}
	if !bareKey.MatchString(key) || (table != "" && !bareKey.MatchString(table)) {
		return "", TOMLChange{}, false, fmt.Errorf("cannot edit key %q", key)
	}
	lines := tomlLines(text)
	want := key + " = " + value
	c := TOMLChange{Table: table, Key: key, Line: want}
	if table != "" {
		// a table spelled as a dotted key or an inline table at the top
		// level cannot take a [table] header as well
		_, end, _ := section(lines, "")
		for _, l := range lines[:end] {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, table+".") || keyLine(t, table) {
				return "", TOMLChange{}, false, fmt.Errorf("%s is set as a dotted key or inline table; set %s.%s = %s by hand", table, table, key, value)
			}
		}
	}
	start, end, found := section(lines, table)
	if found {
		for i := start; i < end; i++ {
			if !keyLine(lines[i], key) {
				continue
			}
			if strings.TrimSpace(lines[i]) == want {
				return text, TOMLChange{}, false, nil
			}
			c.Prev = lines[i]
			lines[i] = want
			return checked(lines, c)
		}
		// insert after the section's last non-blank line
		at := end
		for at > start && strings.TrimSpace(lines[at-1]) == "" {
			at--
		}
		lines = append(lines[:at], append([]string{want}, lines[at:]...)...)
		return checked(lines, c)
	}
	c.NewTable = true
	if len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) != "" {
		lines = append(lines, "")
		c.Sep = true
	}
	lines = append(lines, "["+table+"]", want)
	return checked(lines, c)
}

func checked(lines []string, c TOMLChange) (string, TOMLChange, bool, error) {
	out := joinLines(lines)
	if err := CheckTOML(out); err != nil {
		return "", TOMLChange{}, false, fmt.Errorf("setting %s would not load: %w", c.Key, err)
	}
	return out, c, true, nil
}

// TOMLUndo reverts c where the file still holds the line c wrote.
func TOMLUndo(text string, c TOMLChange) (string, bool) {
	lines := tomlLines(text)
	start, end, found := section(lines, c.Table)
	if !found {
		return text, false
	}
	for i := start; i < end; i++ {
		if strings.TrimSpace(lines[i]) != c.Line {
			continue
		}
		if c.Prev != "" {
			lines[i] = c.Prev
			return joinLines(lines), true
		}
		lines = append(lines[:i], lines[i+1:]...)
		end--
		if c.NewTable && sectionEmpty(lines[start:end]) {
			// drop the header guard added, and the blank line before it
			h := start - 1
			lines = append(lines[:h], lines[end:]...)
			if c.Sep && h > 0 && strings.TrimSpace(lines[h-1]) == "" {
				lines = append(lines[:h-1], lines[h:]...)
			}
		}
		return joinLines(lines), true
	}
	return text, false
}

func sectionEmpty(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// TOMLGet returns the raw value text of key in table, if a line sets it.
func TOMLGet(text, table, key string) (string, bool) {
	lines := tomlLines(text)
	start, end, found := section(lines, table)
	if !found {
		return "", false
	}
	for _, l := range lines[start:end] {
		if keyLine(l, key) {
			_, v, _ := strings.Cut(l, "=")
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}
