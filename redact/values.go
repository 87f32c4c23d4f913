package redact

import (
	"cmp"
	"slices"
	"strings"
)

// minValue is the shortest literal value Values replaces: a shorter one
// would blank out ordinary text around it.
const minValue = 4

// Values returns s with every occurrence of the literal values (a
// command's passwords, as classify's argument model types them) replaced
// by [REDACTED:arg], longest value first. It runs before the patterns:
// redact a command's text as r.String(redact.Values(text, secrets)).
func Values(s string, values []string) string {
	if len(values) == 0 {
		return s
	}
	vs := make([]string, 0, len(values))
	for _, v := range values {
		if len(v) >= minValue && strings.Contains(s, v) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return s
	}
	slices.SortStableFunc(vs, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, v := range vs {
		s = strings.ReplaceAll(s, v, marker+"arg]")
	}
	return s
}
