package redact

// maxMatch bounds the length of any match a pattern in the table can make.
// The streaming writer holds back at least this many bytes, so a secret that
// arrives split across writes is always seen whole.
const maxMatch = 16 << 10

// A pattern is one kind of secret. Its regexp runs only when one of its
// triggers occurs in the input (fold: compared case-insensitively), so text
// without any trigger costs a few substring searches and no regexp at all.
//
// When the regexp has groups named "s", only those are replaced (the label in
// password=hunter2 stays readable); otherwise the whole match is.
type pattern struct {
	kind     string
	triggers []string
	fold     bool // triggers are lowercase and match any ASCII case
	// multiline patterns may match across lines; the others are run only on
	// the lines where one of their triggers occurs.
	multiline bool
	expr      string // compiled on first use: most texts never need it
	// valid, when set, rejects a candidate secret (the replaced text).
	valid func(secret []byte) bool
}

// Values after a label: double-quoted, single-quoted or bare.
const labelValue = `(?:"(?P<s>[^"\n]+)"|'(?P<s>[^'\n]+)'|(?P<s>[^\s"'&;,)\]}>]+))`

// patterns are all matched against the original text; where matches
// overlap, their union is replaced and named after the earliest entry. So
// whole secrets with a recognisable shape come before the label-based
// entries: "token=ghp_…" is reported as github.
var patterns = [...]pattern{
	{
		kind:      "private-key",
		triggers:  []string{"PRIVATE KEY"},
		multiline: true,
		expr:      `-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----`,
	},
	{
		// A block whose END is missing (cut short): the header and the
		// base64 lines that follow it.
		kind:      "private-key",
		triggers:  []string{"PRIVATE KEY"},
		multiline: true,
		expr:      `-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----(?:\r?\n(?:[A-Za-z-]{1,32}: [^\n]{0,128}|[A-Za-z0-9+/=]{1,128}|))*`,
	},
	{
		kind:     "aws-access-key-id",
		triggers: []string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA"},
		expr:     `\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b`,
	},
	{
		kind:     "aws-secret-access-key",
		triggers: []string{"secret"},
		fold:     true,
		expr:     `(?i)aws[_-]?secret(?:[_-]?access)?[_-]?key["']?[ \t]*(?:[:=]|[ \t])[ \t]*["']?(?P<s>[A-Za-z0-9/+=]{16,128})`,
	},
	{
		kind:     "aws-secret-access-key",
		triggers: []string{"secret_access_key", "secretaccesskey", "secret-access-key"},
		fold:     true,
		expr:     `(?i)secret[_-]?access[_-]?key["']?[ \t]*(?:[:=]|[ \t])[ \t]*["']?(?P<s>[A-Za-z0-9/+]{40})\b`,
	},
	{
		kind:     "github",
		triggers: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		expr:     `\bgh[pousr]_[A-Za-z0-9]{36,}\b`,
	},
	{
		kind:     "github",
		triggers: []string{"github_pat_"},
		expr:     `\bgithub_pat_[A-Za-z0-9_]{22,}\b`,
	},
	{
		kind:     "gitlab",
		triggers: []string{"glpat-"},
		expr:     `\bglpat-[A-Za-z0-9_-]{20,}`,
	},
	{
		kind:     "slack",
		triggers: []string{"xox"},
		expr:     `\bxox[abposr]-[A-Za-z0-9-]{10,}`,
	},
	{
		kind:     "stripe",
		triggers: []string{"sk_live_", "rk_live_"},
		expr:     `\b[sr]k_live_[A-Za-z0-9]{16,}`,
	},
	{
		kind:     "anthropic",
		triggers: []string{"sk-ant-"},
		expr:     `\bsk-ant-[A-Za-z0-9_-]{20,}`,
	},
	{
		kind:     "openai",
		triggers: []string{"sk-"},
		expr:     `\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`,
		valid:    mixedCase,
	},
	{
		kind:     "google-api-key",
		triggers: []string{"AIza"},
		expr:     `\bAIza[0-9A-Za-z_-]{35}`,
	},
	{
		kind:     "npm",
		triggers: []string{"npm_"},
		expr:     `\bnpm_[A-Za-z0-9]{36}\b`,
	},
	{
		kind:     "jwt",
		triggers: []string{"eyJ"},
		expr:     `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
	},
	{
		// scheme://user:password@host: only the password goes.
		kind:     "url-password",
		triggers: []string{"://"},
		expr:     `\b[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s:/@'"\[\]]*:(?P<s>[^\s@/'"\[\]]+)@`,
	},
	{
		kind:     "authorization",
		triggers: []string{"authorization"},
		fold:     true,
		expr:     `(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token|bot)[ \t]+(?P<s>[A-Za-z0-9._~+/=-]{4,})`,
	},
	{
		// password=hunter2, DB_PASSWORD: hunter2, "api_key": "…", ?token=…
		kind:     "credential",
		triggers: []string{"pass", "secret", "token", "api_key", "api-key", "apikey"},
		fold:     true,
		expr:     `(?i)(?:password|passwd|secret|token|api[_-]?key)["']?[ \t]*[:=][ \t]*` + labelValue,
		valid:    notReference,
	},
	{
		// curl -u user:hunter2, --user=user:hunter2 (the password only)
		kind:     "credential",
		triggers: []string{"-u", "--user"},
		expr:     `(?:^|[\s'"])(?:-u|--user)(?:[ \t]+|=)?["']?[^\s:'"@/]+:(?P<s>[^\s'"]+)`,
		valid:    notReference,
	},
	{
		// --password hunter2, --token=…
		kind:     "credential",
		triggers: []string{"--pass", "--secret", "--token", "--api-key", "--apikey", "--api_key"},
		fold:     true,
		expr:     `(?i)--(?:password|passwd|pass|secret|token|api[_-]?key)(?:[ \t]+|=)` + labelValue,
		valid:    notReference,
	},
}

// mixedCase accepts only text with a digit, an upper- and a lower-case
// letter: generated keys have all three, kebab-case names do not.
func mixedCase(b []byte) bool {
	var d, u, l bool
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			d = true
		case 'A' <= c && c <= 'Z':
			u = true
		case 'a' <= c && c <= 'z':
			l = true
		}
	}
	return d && u && l
}

// notReference rejects values that are not secrets themselves: a shell
// variable ($TOKEN, ${TOKEN}), a command substitution, or text already
// redacted (guard may redact twice).
func notReference(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '$' || b[0] == '`' {
		return false
	}
	return !hasPrefix(b, marker)
}

func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}
