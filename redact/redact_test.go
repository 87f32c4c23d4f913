package redact

import (
	"bytes"
	"strings"
	"testing"
)

// Fake secrets with real shapes. They are assembled so that no complete key
// sits in the source for a scanner to complain about.
var (
	awsID      = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSTS     = "ASIA" + "Y34FZKBOKMUTVV7A"
	awsSecret  = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	ghp        = "ghp_" + "1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz"
	gho        = "gho_" + "16C7e42F292c6912E7710c838347Ae178B4a"
	ghPAT      = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH"
	glpat      = "glpat-" + "xYz12_3-AbCdEfGhIjKl"
	slack      = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	stripe     = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
	stripeRK   = "rk_live_" + "51H8hG2eZvKYlo2C0aBcDeFg"
	openai     = "sk-" + "Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901Vwx2"
	openaiProj = "sk-proj-" + "Ab3_dE6-gH9iJ2kL5mN8oP1qR4sT7uV0wX3yZ6"
	anthropic  = "sk-ant-" + "api03-AbCdEf123456_GhIjKl789012-MnOpQr"
	google     = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
	npm        = "npm_" + "AbCdEf0123456789GhIjKl0123456789MnOp"
	jwt        = "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	pemBody    = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Y6ZJ0PL2nYzqD5n7ia6v0LBQdjE"
	pem        = "-----BEGIN RSA " + "PRIVATE KEY-----\n" + pemBody + "\nq1w2e3r4t5y6u7i8o9p0==\n-----END RSA PRIVATE KEY-----"
	pemOpenSSH = "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" + pemBody + "\n-----END OPENSSH PRIVATE KEY-----"
)

var redactTests = []struct {
	name string
	in   string
	want string
}{
	// AWS
	{"aws-id", "export AWS_ACCESS_KEY_ID=" + awsID, "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id]"},
	{"aws-id-sts", "id " + awsSTS + " ok", "id [REDACTED:aws-access-key-id] ok"},
	{"aws-id-too-short", "AKIAFOO is not a key", "AKIAFOO is not a key"},
	{"aws-id-in-word", "XAKIA" + "IOSFODNN7EXAMPLEX", "XAKIA" + "IOSFODNN7EXAMPLEX"},
	{"aws-secret-env", "AWS_SECRET_ACCESS_KEY=" + awsSecret + " aws s3 ls", "AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key] aws s3 ls"},
	{"aws-secret-ini", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = [REDACTED:aws-secret-access-key]"},
	{"aws-secret-flag", "--aws-secret-access-key " + awsSecret, "--aws-secret-access-key [REDACTED:aws-secret-access-key]"},
	{"aws-secret-json", `"SecretAccessKey": "` + awsSecret + `"`, `"SecretAccessKey": "[REDACTED:aws-secret-access-key]"`},
	// GitHub
	{"github-ghp", "git clone https://" + ghp + "@github.com/o/r", "git clone https://[REDACTED:github]@github.com/o/r"},
	{"github-gho", "GH=" + gho, "GH=[REDACTED:github]"},
	{"github-pat", "gh auth login --with-token <<< " + ghPAT, "gh auth login --with-token <<< [REDACTED:github]"},
	{"github-short", "ghp_short is fine", "ghp_short is fine"},
	// GitLab, Slack, Stripe
	{"gitlab", "PRIVATE-TOKEN: " + glpat, "PRIVATE-TOKEN: [REDACTED:gitlab]"},
	{"slack", "curl -d token=" + slack, "curl -d token=[REDACTED:slack]"},
	{"slack-not", "xoxo is love", "xoxo is love"},
	{"stripe-sk", "stripe " + stripe, "stripe [REDACTED:stripe]"},
	{"stripe-rk", stripeRK, "[REDACTED:stripe]"},
	{"stripe-test-key-not-live", "sk_test_abc", "sk_test_abc"},
	// OpenAI, Anthropic
	{"openai", "OPENAI_KEY=" + openai + " python x.py", "OPENAI_KEY=[REDACTED:openai] python x.py"},
	{"openai-proj", "key " + openaiProj, "key [REDACTED:openai]"},
	{"openai-kebab-name", "cd sk-learn-examples-for-beginners-v2", "cd sk-learn-examples-for-beginners-v2"},
	{"openai-in-word", "ls disk-Usage-Report-2024-Final-Version1", "ls disk-Usage-Report-2024-Final-Version1"},
	{"anthropic", "ANTHROPIC_API_KEY=" + anthropic + " claude", "ANTHROPIC_API_KEY=[REDACTED:anthropic] claude"},
	// Google, npm
	{"google", "https://maps.googleapis.com/x?key=" + google, "https://maps.googleapis.com/x?key=[REDACTED:google-api-key]"},
	{"npm", "//registry.npmjs.org/:_authToken=" + npm, "//registry.npmjs.org/:_authToken=[REDACTED:npm]"},
	{"npm-config-var", "npm_config_cache=/tmp/npm", "npm_config_cache=/tmp/npm"},
	// JWT
	{"jwt", "curl -b session=" + jwt + " x", "curl -b session=[REDACTED:jwt] x"},
	{"jwt-not", "eyJhbGc alone", "eyJhbGc alone"},
	// PEM
	{"pem", "echo '" + pem + "' > k", "echo '[REDACTED:private-key]' > k"},
	{"pem-openssh", pemOpenSSH + "\nnext line", "[REDACTED:private-key]\nnext line"},
	{"pem-cut-short", "-----BEGIN " + "PRIVATE KEY-----\n" + pemBody + "\n" + pemBody[:20], "[REDACTED:private-key]"},
	{"pem-public-key", "-----BEGIN PUBLIC KEY-----\n" + pemBody + "\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\n" + pemBody + "\n-----END PUBLIC KEY-----"},
	// URLs
	{"url-password", "git clone https://bob:hunter2hunter2@git.example.com/x.git", "git clone https://bob:[REDACTED:url-password]@git.example.com/x.git"},
	{"url-postgres", "psql postgres://app:s3cr%21t@db:5432/app", "psql postgres://app:[REDACTED:url-password]@db:5432/app"},
	{"url-port-no-user", "curl http://localhost:8080/path@v1", "curl http://localhost:8080/path@v1"},
	{"url-no-password", "git clone ssh://git@github.com/o/r", "git clone ssh://git@github.com/o/r"},
	// Authorization
	{"bearer", `curl -H "Authorization: Bearer abc.def-ghi_jkl" u`, `curl -H "Authorization: Bearer [REDACTED:authorization]" u`},
	{"basic", "authorization: basic Ym9iOmh1bnRlcjI=", "authorization: basic [REDACTED:authorization]"},
	{"bearer-var", `curl -H "Authorization: Bearer $TOKEN" u`, `curl -H "Authorization: Bearer $TOKEN" u`},
	// labels
	{"password-eq", "mysql --password=hunter2 db", "mysql --password=[REDACTED:credential] db"},
	{"password-space", "tool --password hunter2 run", "tool --password [REDACTED:credential] run"},
	{"db-password", "DB_PASSWORD=correct-horse ./run", "DB_PASSWORD=[REDACTED:credential] ./run"},
	{"passwd-quoted", `passwd="two words"`, `passwd="[REDACTED:credential]"`},
	{"secret-single", "secret='abc def' x", "secret='[REDACTED:credential]' x"},
	{"token-query", "curl 'https://x.io/a?token=abc123&b=2'", "curl 'https://x.io/a?token=[REDACTED:credential]&b=2'"},
	{"api-key-yaml", "api_key: 0123abcd", "api_key: [REDACTED:credential]"},
	{"api-key-json", `{"apiKey": "0123abcd"}`, `{"apiKey": "[REDACTED:credential]"}`},
	{"token-flag", "vault login --token=s.abcdef", "vault login --token=[REDACTED:credential]"},
	{"password-var", "mysql --password=$DB_PASS db", "mysql --password=$DB_PASS db"},
	{"password-subst", "PASSWORD=$(cat f) run", "PASSWORD=$(cat f) run"},
	{"tokenizer-not", "python train.py --tokenizer=bert", "python train.py --tokenizer=bert"},
	{"password-file-not", "--password-file /etc/pw", "--password-file /etc/pw"},
	{"curl-user", "curl -u alice:hunter2secret https://x", "curl -u alice:[REDACTED:credential] https://x"},
	{"curl-user-long", "curl --user=alice:hunter2secret https://x", "curl --user=alice:[REDACTED:credential] https://x"},
	{"curl-user-quoted", `curl -u 'alice:hunter2secret' https://x`, `curl -u 'alice:[REDACTED:credential]' https://x`},
	{"git-push-u-not", "git push -u origin main", "git push -u origin main"},
	{"curl-user-ref-not", "curl -u $USER:$PASS https://x", "curl -u $USER:$PASS https://x"},
	{"token-labelled-github", "GITHUB_TOKEN=" + ghp, "GITHUB_TOKEN=[REDACTED:github]"},
	// things that must stay
	{"git-sha", "git show 3f786850e387550fdab836ed7e6dc881de23001b", "git show 3f786850e387550fdab836ed7e6dc881de23001b"},
	{"uuid", "docker rm 123e4567-e89b-12d3-a456-426614174000", "docker rm 123e4567-e89b-12d3-a456-426614174000"},
	{"paths", "cat /home/bob/.config/app/settings.json ./src/token_test.go", "cat /home/bob/.config/app/settings.json ./src/token_test.go"},
	{"words", "the secret of a good password policy is tokens", "the secret of a good password policy is tokens"},
	{"base64ish", "echo SGVsbG8gV29ybGQhIFRoaXMgaXMgbm90IGEga2V5Cg== | base64 -d", "echo SGVsbG8gV29ybGQhIFRoaXMgaXMgbm90IGEga2V5Cg== | base64 -d"},
	{"empty", "", ""},
	{"fake-marker", "[REDACTED:x " + ghp, "[REDACTED:x [REDACTED:github]"},
	{"fake-marker-url", "[REDACTED:https://u:pw12345@h", "[REDACTED:https://u:[REDACTED:url-password]@h"},
	{"two", "a " + ghp + " b " + awsID, "a [REDACTED:github] b [REDACTED:aws-access-key-id]"},
}

func TestRedact(t *testing.T) {
	r := New(nil)
	for _, tt := range redactTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := r.String(tt.want); again != tt.want {
				t.Errorf("not idempotent: String(%q) = %q", tt.want, again)
			}
			if got := string(r.Bytes([]byte(tt.in))); got != tt.want {
				t.Errorf("Bytes(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			var buf bytes.Buffer
			w := r.Writer(&buf)
			w.Write([]byte(tt.in))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("Writer(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactEnv(t *testing.T) {
	env := []string{
		"GITHUB_TOKEN=plainvalue-1234",
		"MY_API_KEY=zq9zq9zq9zq9",
		"DB_PASSWD=short",                    // under 8 chars: ignored
		"HOME=/home/someone-long",            // not a secret name
		"GIT_AUTHOR_NAME=Roberta Example",    // AUTHOR is not AUTH
		"npm_config__authToken=npmtok-12345", // lower-case names count
		"SSH_AUTH_SOCK=/tmp/ssh-x/agent.1",
		"NOEQUALS",
	}
	r := New(env)
	tests := []struct{ in, want string }{
		{"echo plainvalue-1234", "echo [REDACTED:env:GITHUB_TOKEN]"},
		{"x=zq9zq9zq9zq9zq9", "x=[REDACTED:env:MY_API_KEY]"}, // overlapping occurrences merge
		{"echo short", "echo short"},
		{"cd /home/someone-long", "cd /home/someone-long"},
		{"git log --author='Roberta Example'", "git log --author='Roberta Example'"},
		{"npmtok-12345", "[REDACTED:env:npm_config__authToken]"},
		{"ls /tmp/ssh-x/agent.1", "ls /tmp/ssh-x/agent.1"}, // a path is not a secret
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzSecretName holds secretName to its plain definition.
func FuzzSecretName(f *testing.F) {
	for _, s := range []string{"GITHUB_TOKEN", "HOME", "ſECRET", "keyboard", "GIT_AUTHOR_TOKEN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n := strings.ToUpper(name)
		for _, w := range envNotWords {
			n = strings.ReplaceAll(n, w, "_")
		}
		want := false
		for _, w := range envWords {
			want = want || strings.Contains(n, w)
		}
		if got := secretName(name); got != want {
			t.Errorf("secretName(%q) = %v, want %v", name, got, want)
		}
	})
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true, "PGPASSWORD": true,
		"X_PASSWD": true, "GOOGLE_APPLICATION_CREDENTIALS": true, "NPM_AUTH": true,
		"apikey": true, "HOME": false, "PATH": false, "GIT_AUTHOR_EMAIL": false,
		"KEYBOARD_LAYOUT": false, "XKB_KEYMAP": false, "ſECRET": true, "my_Token": true,
		"GIT_AUTHOR_TOKEN": true, "LANG": false,
	} {
		if got := secretName(name); got != want {
			t.Errorf("secretName(%q) = %v, want %v", name, got, want)
		}
	}
}

// streamCases are texts whose secret (the second field) must never pass
// through a Writer, however the text is cut into writes.
var streamCases = []struct{ text, secret string }{
	{"id " + awsID + " end", awsID},
	{"AWS_SECRET_ACCESS_KEY=" + awsSecret, awsSecret},
	{"t " + ghp, ghp},
	{ghPAT, ghPAT},
	{glpat, glpat},
	{slack, slack},
	{stripe, stripe},
	{openai, openai},
	{openaiProj, openaiProj},
	{anthropic, anthropic},
	{google, google},
	{npm, npm},
	{jwt, jwt},
	{pem, pemBody},
	{"https://bob:hunter2hunter2@example.com", "hunter2hunter2"},
	{"Authorization: Bearer abcdefghijklmnop", "abcdefghijklmnop"},
	{"password=correcthorsebattery", "correcthorsebattery"},
	{"--token abcdefghijkl", "abcdefghijkl"},
	{"env secret envsecretvalue99 here", "envsecretvalue99"},
}

// TestWriterSplit cuts every secret at every byte position across two
// writes, through the real Writer.
func TestWriterSplit(t *testing.T) {
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	for _, c := range streamCases {
		for i := 0; i <= len(c.text); i++ {
			var buf bytes.Buffer
			w := r.Writer(&buf)
			w.Write([]byte(c.text[:i]))
			w.Write([]byte(c.text[i:]))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), c.secret) {
				t.Errorf("split %q at %d: secret leaked: %q", c.text, i, buf.String())
			}
		}
	}
}

// TestWriterByteAtATime writes one byte at a time, with filler lines on
// both sides of the secret: no secret may pass, and the result must equal
// the whole-buffer one.
func TestWriterByteAtATime(t *testing.T) {
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	filler := strings.Repeat("lorem ipsum dolor ", 30)
	for _, c := range streamCases {
		text := filler + "\n" + c.text + "\n" + filler
		var buf bytes.Buffer
		w := r.Writer(&buf)
		for i := range len(text) {
			if _, err := w.Write([]byte{text[i]}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got := buf.String()
		if strings.Contains(got, c.secret) {
			t.Errorf("byte at a time %q: secret leaked", c.text)
		}
		if want := r.String(text); got != want {
			t.Errorf("byte at a time %q: stream differs from String:\n got %q\nwant %q", c.text, got, want)
		}
	}
}

func TestWriterAfterClose(t *testing.T) {
	w := New(nil).Writer(&bytes.Buffer{})
	w.Close()
	if _, err := w.Write([]byte("x")); err == nil {
		t.Fatal("write after close succeeded")
	}
}

func FuzzRedact(f *testing.F) {
	for i, c := range streamCases {
		f.Add(uint8(i), "prefix ", " suffix", uint16(3))
		f.Add(uint8(i), c.text, c.text, uint16(len(c.text)))
	}
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	f.Fuzz(func(t *testing.T, pick uint8, prefix, suffix string, split uint16) {
		c := streamCases[int(pick)%len(streamCases)]
		text := prefix + "\n" + c.text + "\n" + suffix
		allowed := strings.Count(prefix, c.secret) + strings.Count(suffix, c.secret)
		got := r.String(text)
		if n := strings.Count(got, c.secret); n > allowed {
			t.Fatalf("secret %q survived in %q", c.secret, got)
		}
		if again := r.String(got); again != got {
			t.Fatalf("not idempotent:\n once %q\ntwice %q", got, again)
		}
		var buf bytes.Buffer
		w := r.Writer(&buf)
		at := int(split) % (len(text) + 1)
		w.Write([]byte(text[:at]))
		w.Write([]byte(text[at:]))
		w.Close()
		if n := strings.Count(buf.String(), c.secret); n > allowed {
			t.Fatalf("secret %q survived streaming in %q", c.secret, buf.String())
		}
	})
}

// TestPatternsCompile compiles every pattern: they are compiled lazily at
// run time, where a bad expression would panic.
func TestPatternsCompile(t *testing.T) {
	r := New(nil)
	r.ready()
	for i, p := range r.pats {
		if p.scan != nil {
			continue
		}
		if re := r.regexp(i); re == nil {
			t.Fatalf("pattern %s did not compile", p.kind)
		}
	}
	for i := range keyExprSrc {
		r.keyExpr(i)
	}
}
