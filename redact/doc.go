// Package redact takes secrets out of text before guard stores or shows it.
//
// # Use
//
//	r := redact.New(os.Environ())
//	safe := r.String(command)          // for an audit record
//	w := r.Writer(os.Stdout)           // for a stream; Close flushes
//
// Each secret is replaced by [REDACTED:kind], so a reader still sees that
// something was there and what it was:
//
//	curl -H 'Authorization: Bearer [REDACTED:authorization]' https://api.example.com
//	git clone https://bob:[REDACTED:url-password]@git.example.com/x.git
//
// # What counts as a secret
//
// One table of named patterns (patterns.go), applied in order:
//
//	private-key             PEM blocks, BEGIN … PRIVATE KEY … END (or cut short)
//	aws-access-key-id       AKIA…, ASIA… and the other AWS id prefixes
//	aws-secret-access-key   the value after aws_secret_access_key= or a like label
//	github                  ghp_, gho_, ghu_, ghs_, ghr_, github_pat_
//	gitlab                  glpat-
//	slack                   xoxa-, xoxb-, xoxp-, xoxo-, xoxs-, xoxr-
//	stripe                  sk_live_, rk_live_
//	anthropic               sk-ant-
//	openai                  sk-…, sk-proj-… (mixed case and digits: not kebab-case names)
//	google-api-key          AIza…
//	npm                     npm_…
//	jwt                     eyJ….eyJ….signature
//	url-password            the password in scheme://user:password@host
//	authorization           Authorization: Bearer|Basic|Token …
//	credential              password=, passwd=, secret=, token=, api_key= (also ":",
//	                        quoted values, --password x and --token=x)
//
// and env:NAME for the value (8 characters or more) of every environment
// variable whose name contains KEY, TOKEN, SECRET, PASSWORD, PASSWD,
// CREDENTIAL or AUTH (AUTHOR, KEYBOARD and KEYMAP do not count). Those values
// are replaced wherever they appear, before any pattern runs.
//
// A value that is a shell reference (password=$DB_PASS) is left alone: it is
// not the secret, and the record is more useful with it.
//
// # Cost
//
// Every pattern has trigger substrings (ghp_, ://, password, …). A pattern's
// regular expression runs only when one of its triggers occurs in the input,
// so ordinary text costs one table-driven scan and no regular expression at
// all. `go test -bench . ./redact/` on the 2-core build machine (busy, so
// rough):
//
//	1 MiB of build log, no trigger            ~760 MB/s
//	1 MiB with a secret every 4 KiB           ~210-280 MB/s
//	1 MiB of nothing but password=x labels    ~5.5 MB/s (worst case)
//	a typical command, no trigger             ~0.2-0.6 µs
//	a command holding a URL                   ~4-12 µs
//
// # Streaming
//
// Writer holds back the last 16 KiB it was given (or the longest secret
// environment value, if longer) and passes text on in chunks, never cutting
// through a match: a secret written one byte at a time is caught exactly as if
// it came in one write. Output lags input by up to the hold-back until Close.
//
// # Limits
//
// Redaction is pattern matching. It cannot recognise a secret with no label
// and no known shape (a bare random password), and it may redact a harmless
// value that follows a label such as token=. It errs on the side of
// redacting.
package redact
