package main

// useColour says whether guard colours what it prints: only on a terminal,
// and never when NO_COLOR is set (https://no-color.org) or TERM is dumb.
func useColour(terminal bool, getenv func(string) string) bool {
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// colourDecision colours a decision word: allow green, ask yellow, deny
// red (and their would- forms); anything else as it is.
func colourDecision(d string) string {
	code := ""
	switch d {
	case "allow", "would-allow":
		code = "32"
	case "ask", "would-ask":
		code = "33"
	case "deny", "would-deny":
		code = "31"
	default:
		return d
	}
	return "\x1b[" + code + "m" + d + "\x1b[0m"
}
