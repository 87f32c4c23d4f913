// Package redact takes secrets out of text before guard stores or shows it.
//
// # Use
//
//	r := redact.New(os.Environ(), redact.WithPatterns(settings.RedactPatterns...))
//	safe := r.String(command)          // for an audit record
//	out, changed := r.Redact(output)   // and whether anything went
//	w := r.Writer(os.Stdout)           // for a stream; Close flushes
//	s := r.Stream(f)                   // the same, with s.Redacted()
//
// Each secret is replaced by [REDACTED:kind], so a reader still sees that
// something was there and what it was:
//
//	curl -H 'Authorization: Bearer [REDACTED:authorization]' https://api.example.com
//	git clone https://bob:[REDACTED:url-password]@git.example.com/x.git
//
// # What counts as a secret
//
// One table (patterns.go) of 114 entries in 90 kinds, in four groups:
//
//   - Tokens with a shape of their own, found anywhere: cloud keys (AWS
//     AKIA/ASIA ids and the secret beside one, GCP AIza, GOCSPX-, ya29.,
//     1//0, GOOG1 HMAC ids, Azure Entra secrets and DevOps PATs,
//     Alibaba LTAI, DigitalOcean, Databricks, Vault hvs., Terraform Cloud,
//     Doppler, Pulumi, Heroku, Fly.io, Supabase, PlanetScale, Netlify,
//     Dynatrace), VCS (GitHub ghp_/gho_/ghu_/ghs_/ghr_/github_pat_, every
//     GitLab gl…- prefix, Bitbucket ATBB, Atlassian), chat (Slack xox?- and
//     xapp-, Discord bot tokens, Telegram bot tokens), payments (Stripe
//     sk_/rk_ live and test, whsec_, Square, Braintree, Shopify, Meta), AI
//     providers (OpenAI sk-/sk-proj-/sk-svcacct-, Anthropic sk-ant-,
//     OpenRouter, DeepSeek, Hugging Face hf_, Groq gsk_, Replicate r8_, xAI,
//     Perplexity, Fireworks, Tavily, LangSmith, Pinecone, ElevenLabs,
//     NVIDIA), registries (npm_, pypi-, rubygems_, dckr_pat_, NuGet,
//     crates.io, Clojars, JFrog, Packagist), SaaS (SendGrid, Mailgun,
//     Twilio, Linear, Notion, Postman, New Relic, Grafana, Sentry, Figma,
//     1Password, Mapbox, Contentful, Airtable, Cloudflare, CircleCI,
//     Buildkite, Sourcegraph, SonarQube, Twitter, Mailchimp), AWS ECR login
//     tokens, age secret keys and JWTs.
//   - Private keys: PEM blocks of every kind (RSA, EC, DSA, OpenSSH, PKCS#8
//     plain and ENCRYPTED, PGP, SSH2), PuTTY private lines, JSON-escaped
//     keys (a service-account file's "private_key"), and PEM keys encoded in
//     base64 again (kubeconfig client-key-data, a Secret's tls.key). Every
//     line of a block goes, also when its lines carry a CI log's timestamps
//     or a diff's '+'.
//   - Secrets known by their context: the password of
//     scheme://user:password@host, Authorization headers (also as curl -v
//     prints them), Cookie and Set-Cookie values and cookie-jar lines, .netrc
//     passwords, the values of labels that end in password, secret, token,
//     api_key, access_key, private_key and the like, in JSON, YAML, TOML,
//     INI, .env, shell, Go and HTTP-header notation, credential flags
//     (--password x, --registry-token=x, curl -u user:x), signed-URL
//     signatures (Azure SAS sig=, X-Amz-Signature=), Azure connection
//     strings, ~/.docker/config.json "auth", XML elements (<password>) and
//     attributes (password="…"), key/value pairs whose key names a secret
//     (NuGet's <add key="ClearTextPassword" value="…"/>, JSON's {"name":
//     "DB_PASSWORD", "value": …}), PHP define('DB_PASSWORD', …),
//     vault-style table rows, .pgpass lines, GitHub Actions ::add-mask::,
//     setenv and Dockerfile ENV NAME value. An environment line
//     (NAME=value, the name upper-case and a secret's, starting the line
//     or a word) takes its value up to a blank whatever its alphabet
//     (django-insecure-7x$%^&*(…); a password label takes a value of one
//     character or a PIN of digits where the form assigns it (quoted, an
//     environment line, a YAML key).
//   - Other spellings of those: a line holding a terminal escape (CSI,
//     OSC), NULs between ASCII letters (UTF-16, found by a vector search
//     for NUL rather than by triggers) or a run of 32 hex digits or more
//     that spells printable text (its trigger: the hex of a common
//     token's start) is matched again in its plain form, and what is
//     found there is replaced in the bytes that spell it (escapes between
//     a secret's bytes stay: encoded.go); and access key ids in lower
//     case (akia…).
//
// Then env:NAME for the value (8 characters or more, each line of it) of
// every environment variable whose name contains KEY, TOKEN, SECRET,
// PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL, AUTH or PRIVATE (AUTHOR,
// KEYBOARD and KEYMAP do not count; a value that is a path does not
// count). And the user's own expressions, [WithPatterns], from
// redact_patterns in the settings and a project's .guard/redact file
// ([ReadPatternFile]); they can only add redaction.
//
// What is never touched: git SHAs, UUIDs, sha512- integrity strings, go.sum
// h1: hashes, docker digests, hex checksums, base64 of ordinary text,
// public keys and certificates (certificate-authority-data decodes to a
// CERTIFICATE), ARNs, account ids and the unique ids of IAM users and roles
// (AIDA…, AROA…), and placeholders: ${{ secrets.X }}, $GITHUB_TOKEN,
// <redacted>, (protected), ****, xxx, changeme, your-api-key-here, code
// that names a secret (os.getenv("X"), self.password, process.env.KEY) and
// values already redacted. The tables in formats_test.go and the corpus in
// testdata/corpus hold an example of each.
//
// # One line at a time
//
// Text is redacted one line at a time: no match spans a newline, and a line
// longer than 64 KiB is cut in pieces (just after a blank or a quote near
// the 64 KiB mark where there is one). Each cut has a seam: the 4 KiB
// (carry, longer than any token with a shape) on either side of it are
// matched again as one line, and a secret found across the cut is
// replaced in both pieces, its marker in the first (TestAcrossCut). The
// one thing that spans lines is a private-key block, and it is followed
// line by line: its first line becomes [REDACTED:private-key], and each
// next line that is base64, a header or blank joins it, up to its END
// line. That is why the streaming [Redactor.Writer] gives exactly what
// [Redactor.Bytes] gives for the whole input, however the input is cut
// into writes (FuzzRedactStream checks it), and why it needs to hold back
// at most one line, or 64 KiB and the 4 KiB of the seam after it: it
// passes each line on in the Write that completes it, which makes it fit
// to redact what an agent sees live. A text cut short rather than ended
// (a record's size limit) ends with [Stream.CloseCut], or is first cut at
// [CutTail]: the word the cut fell in goes, as the start of a token
// matches no pattern.
//
// # Cost
//
// Every pattern has trigger substrings (ghp_, ://, password, …). A scan
// of the input looks each byte up in three tables of 64 classes of
// triggers (the classes whose first, second or third byte it can be);
// only where three bytes in a row share a class are the triggers in the
// bucket of those bytes compared, eight bytes at once, and the checks that
// need no line (a letter before a trigger that must start a word, the
// "pat" of "path" not followed by an Airtable token) come before the line
// is found. A pattern's matcher then runs only on the lines holding one of
// its triggers, and its regular expression is compiled the first time that
// happens. New only keeps its arguments: the trigger tables (20-110 µs
// and 34 KB in 19 allocations) are built the first time a text is not
// clean, that is when a text of up to 4 KiB holds no NUL, no environment
// secret, and no place whose first four, three or two bytes hash like
// those of a trigger of that length (a table written out as data,
// quicksets.go); a command's text or a decision's reason mostly is, and a
// run of guard that redacts nothing else builds no tables. The matchers
// of the most common triggers (labels, URLs, cookies, private keys) are
// written by hand: a regexp engine costs a hundred times more on text dense
// with password= labels. Text with nothing to redact is never copied.
// `go test -bench . ./redact/` on the shared 2-core build machine (loaded,
// so absolute figures swing twofold; compare with Baseline, a loop that
// only sums the bytes; instructions a byte, counted by callgrind inside
// process with GOGC=off, do not swing; the MB/s of the lines marked ~ are
// scaled from the figures before the seams and the encoded spellings by
// their instructions, the machine being too loaded to time them):
//
//	Baseline (sum of bytes)                   750-1500 MB/s
//	1 MiB of build log, no trigger            490-870 MB/s, 18 instructions a byte, 0 allocations
//	the same through Writer in 4 KiB writes   460-770 MB/s
//	1 MiB of an application log               ~275-530 MB/s, 28 instructions a byte
//	npm/pip logs, pod JSON, git log -p        ~300-400 MB/s, 24-44 instructions a byte
//	go test -v, compiler output               ~130-230 MB/s, 47-61 instructions a byte
//	source code (token, secret in each line)  ~108 MB/s, 85 instructions a byte
//	1 MiB of build log, a secret every 4 KiB  240-350 MB/s, 28 instructions a byte
//	the benign corpus (a grep for passwords)  65-130 MB/s, 77-82 instructions a byte (label-dense: a worst ordinary case)
//	1 MiB of nothing but password=hunter2     ~18-28 MB/s, 330 instructions a byte (the worst case)
//	a typical command                         0.4-1 µs
//
// A line holding a terminal escape or a NUL, or a hex run that starts
// like a token, is matched twice (as it is and in its plain form); long
// lines cost a seam of 8 KiB at each 64 KiB cut.
//
// Ordinary text costs what its triggers cost: a line holding token,
// secret or password runs the label matcher, which is most of the cost
// of source code and test logs.
//
// Run through guard redact, 40 MB of real text (Go module sources, the
// Python standard library, JavaScript, /etc, documentation, git log -p)
// came out untouched but for a real private key, two hard-coded example
// secrets and one commit message that spelled -u uid:gid.
//
// # Limits
//
// Redaction is pattern matching. It cannot recognise a secret with no
// label and no known shape (a bare random password, an Azure DevOps PAT, a
// Heroku UUID key), and it may redact a harmless value that follows a
// label such as token=. It errs on the side of redacting. A value spread
// over several lines (a YAML block scalar after password: |, a Kubernetes
// env entry's name: and value: lines, xxd -p's wrapped hex) is not
// followed, nor are encodings other than escapes, UTF-16 and hex (base64
// of a token, URL-encoding). An unterminated line is held by the Writer until it ends (a
// prompt with no newline shows when the program ends its line).
//
// # Showing text
//
// Redacted text is still the agent's text, and a terminal obeys what is in
// it: ESC sequences move the cursor and clear lines, bidi overrides
// reorder letters, zero-width characters hide them. [Visible] shows each
// of those as an escape (\x1b, \u202e), and every view that puts agent or
// command text before a human (the prompt, guard watch, approve, pending,
// audit, context list, explain, check) passes it through Visible after
// redaction. [HasControl] tells a view when to add the line "note: the
// command holds control characters, shown escaped".
package redact
