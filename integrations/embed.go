package integrations

import (
	_ "embed"
	"strings"
)

// GuardPlaceholder stands for guard's absolute path in the shipped files.
const GuardPlaceholder = "__GUARD_BIN__"

//go:embed opencode/guard.js
var openCode string

//go:embed pi/guard.ts
var pi string

// OpenCode returns the OpenCode plugin, calling the guard at guardPath.
func OpenCode(guardPath string) string { return fill(openCode, guardPath) }

// Pi returns the Pi extension, calling the guard at guardPath.
func Pi(guardPath string) string { return fill(pi, guardPath) }

// fill puts guardPath into the one string literal that holds the
// placeholder, escaped for a JavaScript double-quoted string.
func fill(src, guardPath string) string {
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\u2028", `\u2028`, "\u2029", `\u2029`).Replace(guardPath)
	return strings.Replace(src, GuardPlaceholder, esc, 1)
}
