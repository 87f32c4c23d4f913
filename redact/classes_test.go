package redact

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// classTests grow by class: each class of secret that once slipped
// through (issue 20's corpus misses, issue 22's secrets on disk) with its
// forms, beside the look-alikes that must come out as they went in (want
// "" means unchanged).
var classTests = []struct{ class, in, want string }{
	// credentials in XML and INI attribute forms
	{"xml-attr", `<add key="ClearTextPassword" value="hunter2x" />`, `<add key="ClearTextPassword" value="[REDACTED:credential]" />`},
	{"xml-attr", `<add key="ClearTextPassword" value="oy2` + "abcdefghijklmnopqrstuvwxyz0123456789abcdefg" + `"/>`, `<add key="ClearTextPassword" value="[REDACTED:nuget]"/>`},
	{"xml-attr", `<add key="Password" value="Zx9Qw8Er7Ty6" />`, `<add key="Password" value="[REDACTED:credential]" />`},
	{"xml-attr", `<add key="ApiKey" value="Zx9Qw8Er7Ty6" />`, `<add key="ApiKey" value="[REDACTED:credential]" />`},
	{"xml-attr", `<add key='apikey' value='Zx9Qw8Er7Ty6'/>`, `<add key='apikey' value='[REDACTED:credential]'/>`},
	{"xml-attr", `<add key="Api Key" value="Zx9Qw8Er7Ty6"/>`, `<add key="Api Key" value="[REDACTED:credential]"/>`},
	{"xml-attr", `<property name="db.password" value="hunter2"/>`, `<property name="db.password" value="[REDACTED:credential]"/>`},
	{"xml-attr", `<user name="bob" password="hunter2"/>`, `<user name="bob" password="[REDACTED:credential]"/>`},
	{"xml-attr", `<connection apikey="Zx9Qw8Er7Ty6Ui5" />`, `<connection apikey="[REDACTED:credential]" />`},
	{"xml-attr", `{"name": "DB_PASSWORD", "value": "hunter2"}`, `{"name": "DB_PASSWORD", "value": "[REDACTED:credential]"}`},
	{"ini-attr", "ApiKey=Zx9Qw8Er7Ty6", "ApiKey=[REDACTED:credential]"},
	{"ini-attr", `apikey="abcd1234"`, `apikey="[REDACTED:credential]"`},
	{"ini-attr", "Server=db;Database=app;User Id=sa;Password=hunter2;", "Server=db;Database=app;User Id=sa;Password=[REDACTED:credential];"},
	{"xml-attr-keep", `<add key="Username" value="bob" />`, ""},
	{"xml-attr-keep", `<add key="TokenLifetime" value="3600"/>`, ""},
	{"xml-attr-keep", `<add key="PasswordPolicy" value="strict"/>`, ""},
	{"xml-attr-keep", `{"name": "DB_HOST", "value": "db"}`, ""},
	{"xml-attr-keep", `<add key="ClearTextPassword" value="%NUGET_PASSWORD%" />`, ""},
	{"xml-attr-keep", `<add key="ClearTextPassword" value="$(NugetPassword)" />`, ""},
	{"xml-attr-keep", `<input type="password" name="password" value="" />`, ""},
	{"xml-attr-keep", `<setting name="ApiKey" serializeAs="String">`, ""},

	// a password label with a short value, where the form assigns it
	{"short", `password = "hunter2"`, `password = "[REDACTED:credential]"`},
	{"short", `password = "x"`, `password = "[REDACTED:credential]"`},
	{"short", "DB_PASSWORD=abc", "DB_PASSWORD=[REDACTED:credential]"},
	{"short", "passwd: x1", "passwd: [REDACTED:credential]"},
	{"short", "PASSWORD=123", "PASSWORD=[REDACTED:credential]"},
	{"short", `PASSWORD="1"`, `PASSWORD="[REDACTED:credential]"`},
	{"short", "Password: 1234", "Password: [REDACTED:credential]"},
	{"short", "DB_PASS=hunter2", "DB_PASS=[REDACTED:credential]"},
	{"short", "export SMTP_PASS=ab", "export SMTP_PASS=[REDACTED:credential]"},
	{"short", "setenv DB_PASSWORD abc", "setenv DB_PASSWORD [REDACTED:credential]"},
	{"short", "ENV DB_PASSWORD abc", "ENV DB_PASSWORD [REDACTED:credential]"},
	{"short", "  - POSTGRES_PASSWORD=s3", "  - POSTGRES_PASSWORD=[REDACTED:credential]"},
	{"short-keep", "password: ********", ""},
	{"short-keep", "password_file = /x", ""},
	{"short-keep", "password=$PASSWORD", ""},
	{"short-keep", "password=${PASSWORD}", ""},
	{"short-keep", "password: <redacted>", ""},
	{"short-keep", `password = os.Getenv("DB_PASSWORD")`, ""},
	{"short-keep", "password=None", ""},
	{"short-keep", "password=x", ""},
	{"short-keep", "pass: 12", ""},
	{"short-keep", "1 passed, 0 failed; pass: 12", ""},
	{"short-keep", "db_pass = 3", ""},
	{"short-keep", "	PasswordMinLength = 8", ""},
	{"short-keep", "	AuthPassword AuthMethod = 2", ""},
	{"short-keep", "MAX_TOKEN=1000", ""},
	{"short-keep", "bypass=1", ""},
	{"short-keep", "MYSQL_ALLOW_EMPTY_PASSWORD=1", ""},
	{"short-keep", "MYSQL_ALLOW_EMPTY_PASSWORD=yes", ""},
	{"short-keep", "FIRST_PASS=1", ""},
	{"short-keep", "passwd: x", ""},
	{"short-keep", `password = ""`, ""},
	{"short-keep", `password: "*"`, ""},
	{"short-keep", "<input type=\"password\" name=\"password\" value=\"\" />", ""},
	{"short-keep", `{"name": "GITHUB_TOKEN", "valueFrom": {"secretKeyRef": {"name": "gh", "key": "token"}}}`, ""},

	// *_SECRET_KEY, *_TOKEN, *_PASSWORD lines whatever the value's alphabet
	{"env-symbols", "DJANGO_SECRET_KEY=django-insecure-7x$%^&*(ab)d!@#ef", "DJANGO_SECRET_KEY=[REDACTED:credential]"},
	{"env-symbols", "SECRET_KEY=django-insecure-7x$%^&*(ab)d!@#ef", "SECRET_KEY=[REDACTED:credential]"},
	{"env-symbols", "SECRET_KEY='django-insecure-7x$%^&*(ab)d!@#ef'", "SECRET_KEY='[REDACTED:credential]'"},
	{"env-symbols", "SECRET_KEY = \"django-insecure-7x$%^&*(ab)d!@#ef\"", "SECRET_KEY = \"[REDACTED:credential]\""},
	{"env-symbols", "secret_key: django-insecure-7x$%^&*(ab)d!@#ef", "secret_key: [REDACTED:credential]"},
	{"env-symbols", "export MY_TOKEN=a&b;c)d", "export MY_TOKEN=[REDACTED:credential]"},
	{"env-symbols", "STRIPE_API_KEY=x(y)z", "STRIPE_API_KEY=[REDACTED:credential]"},
	{"env-symbols", "APP_SECRET=}{x]<>", "APP_SECRET=[REDACTED:credential]"},
	{"env-symbols", "docker run -e DB_PASSWORD=p&ss)w img", "docker run -e DB_PASSWORD=[REDACTED:credential] img"},
	{"env-symbols", `"DB_PASSWORD=a,b;c",`, `"DB_PASSWORD=[REDACTED:credential]",`},
	{"env-symbols-keep", `cmd.Env = append(os.Environ(), "API_TOKEN="+tok)`, ""},
	{"env-symbols-keep", "PASSWORD=$(cat /run/secrets/x)", ""},
	{"env-symbols-keep", "DB_PASSWORD=${DB_PASSWORD}", ""},
	{"env-symbols-keep", `API_TOKEN=os.environ["X"]`, ""},
	{"env-symbols-keep", "https://x.io/a?token=abc123&b=2", "https://x.io/a?token=[REDACTED:credential]&b=2"},
	{"env-symbols-keep", "    token: handle an empty key in the config loader (#1344)", ""},
	{"env-symbols-keep", "the token in prose: see RFC 6750 (bearer tokens)", ""},

	// a token split by terminal escapes: the escapes stay, the secret goes
	{"ansi", "ghp_1A2b3C4d5E6f7G8h9I0j\x1b[0mKlMnOpQrStUvWxYz", "[REDACTED:github]\x1b[0m"},
	{"ansi", "\x1b[31m" + ghp + "\x1b[0m done", "\x1b[31m[REDACTED:github]\x1b[0m done"},
	{"ansi", "AKIA\x1b[1mIOSFODNN7\x1b[22mEXAMPLE ok", "[REDACTED:aws-access-key-id]\x1b[1m\x1b[22m ok"},
	{"ansi", "token=\x1b[1mabc\x1b[0mdef123", "token=\x1b[1m[REDACTED:credential]\x1b[0m"},
	{"ansi", "\x1b]8;;https://u:hunter2pw@h/x\x1b\\link\x1b]8;;\x1b\\", "\x1b]8;;https://u:[REDACTED:url-password]@h/x\x1b\\link\x1b]8;;\x1b\\"},
	{"ansi-keep", "\x1b[32mok\x1b[0m  \tgithub.com/example/token\t0.12s", ""},
	{"ansi-keep", "\x1b[1mcommit 3f786850e387550fdab836ed7e6dc881de23001b\x1b[m", ""},
	{"ansi-keep", "\x1b[2K\x1b[1Gpassword: \x1b[8m", ""},

	// UTF-16 text: a NUL after (or before) each ASCII letter
	{"utf16", utf16(ghp), "[REDACTED:github]\x00"},
	{"utf16", "\x00" + utf16(ghp)[:len(utf16(ghp))-1], "\x00[REDACTED:github]"},
	{"utf16", utf16("password=hunter2"), utf16("password=") + "[REDACTED:credential]\x00"},
	{"utf16-keep", utf16("commit 3f786850e387550fdab836ed7e6dc881de23001b"), ""},
	{"utf16-keep", "ab\x00cd\x00\x00\x01\x02ghp_", ""},

	// hex-encoded tokens: a run of hex digits that spells one
	{"hex", hex.EncodeToString([]byte(ghp)), "[REDACTED:github]"},
	{"hex", "echo " + strings.ToUpper(hex.EncodeToString([]byte(awsID))) + " | xxd -r -p", "echo [REDACTED:aws-access-key-id] | xxd -r -p"},
	{"hex", "0x" + hex.EncodeToString([]byte(awsID)), "0x[REDACTED:aws-access-key-id]"},
	{"hex", hex.EncodeToString([]byte(anthropic)), "[REDACTED:anthropic]"},
	{"hex", hex.EncodeToString([]byte("token: " + ghp)), hex.EncodeToString([]byte("token: ")) + "[REDACTED:github]"},
	{"hex-keep", hex.EncodeToString([]byte("password=hunter2hunter2")), ""}, // (labels are looked for in UTF-16, not in hex)
	{"hex-keep", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt", ""},
	{"hex-keep", "commit 3f786850e387550fdab836ed7e6dc881de23001b", ""},
	{"hex-keep", "sha1 6768705f3141326233433464354536663747 (not printable past its start: 6768705fff)", ""},
	{"hex-keep", hex.EncodeToString([]byte("ghp_short and plain text")), ""},
	{"hex-keep", "d41d8cd98f00b204e9800998ecf8427e  -", ""},
	{"hex-keep", "123e4567-e89b-12d3-a456-426614174000", ""},
	{"hex-keep", "#12 DONE 0.3s sha256:" + hex64 + " 2.1MB / 2.1MB", ""},
	{"hex-keep", "Downloaded golang.org/x/sys v0.20.0 (sha256=" + hex64 + ")", ""},
	{"hex-keep", "2026-12-01T10:00:00Z INFO upload data=SGVsbG8sIHRoaXMgaXMganVzdCBvcmRpbmFyeSB0ZXh0IGVuY29kZWQgaW4gYmFzZTY0Lg==", ""},
	{"hex-keep", "Checksum: " + strings.ToUpper(hex64[:40]) + " (SHA1)", ""},
	{"hex-keep", "tx 0x" + hex64 + " mined", ""},

	// lower-cased access key ids
	{"akia", "key akiaiosfodnn7example", "key [REDACTED:aws-access-key-id]"},
	{"akia", "asiay34fzkbokmutvv7a,", "[REDACTED:aws-access-key-id],"},
	{"akia-keep", "the akiaiosfodnnxexample is all letters", ""},
	{"akia-keep", "region asia-east1 and asia-northeast1", ""},
	{"akia-keep", "xakiaiosfodnn7example", ""},
}

// utf16 spells s in UTF-16LE: a NUL after each byte.
func utf16(s string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteByte(s[i])
		b.WriteByte(0)
	}
	return b.String()
}

func TestClasses(t *testing.T) {
	r := New(nil)
	for _, tt := range classTests {
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if got := r.String(tt.in); got != want {
			t.Errorf("%s: String(%q)\n got %q\nwant %q", tt.class, tt.in, got, want)
		}
		if again := r.String(want); again != want {
			t.Errorf("%s: not idempotent: %q", tt.class, again)
		}
	}
}

// TestAcrossCut puts a secret across the cut of a long line, at every
// offset around it, with and without separators before it: it must go
// whole, from Bytes and from a Writer in writes of any size, and the text
// around it must stay.
func TestAcrossCut(t *testing.T) {
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	secrets := []struct{ in, kind string }{
		{ghp, "github"},
		{awsID, "aws-access-key-id"},
		{"envsecretvalue99", "env:X_TOKEN"},
		{`password="hunter2hunter2"`, "credential"},
		{"password: hunter2hunter2 ", "credential"},
		{"sk-or-v1-" + hex64, "openrouter"},
	}
	for _, fill := range []string{"x", "ab "} {
		for _, sec := range secrets {
			for _, d := range []int{-len(sec.in) - 1, -len(sec.in) / 2, -9, -3, -1, 0, 1, 5} {
				pre := strings.Repeat(fill, (maxLine+d)/len(fill)+1)[:maxLine+d]
				pre = pre[:len(pre)-1] + "|" // a word boundary, not a separator
				if fill != "x" {
					pre = pre[:len(pre)-1] + " "
				}
				text := []byte(pre + sec.in + " tail " + strings.Repeat(fill, maxLine/len(fill)) + "\nnext\n")
				want := r.Bytes(text)
				secret := sec.in
				if i := strings.IndexAny(secret, "=:"); i >= 0 {
					secret = strings.Trim(secret[i+1:], `" `)
				}
				if bytes.Contains(want, []byte(secret)) || !bytes.Contains(want, []byte("[REDACTED:"+sec.kind+"]")) {
					t.Errorf("%q at %d from the cut (fill %q): not redacted", sec.in, d, fill)
					continue
				}
				// (a unit that starts at a label reads as a YAML line: its
				// value runs to the unit's end)
				if !strings.Contains(sec.in, " ") && !bytes.HasSuffix(want, []byte(" tail "+strings.Repeat(fill, maxLine/len(fill))+"\nnext\n")) {
					t.Errorf("%q at %d from the cut (fill %q): the text after it changed", sec.in, d, fill)
				}
				for _, sizes := range [][]byte{{255}, {100, 3}} {
					if got := streamOf(t, r, text, sizes); !bytes.Equal(got, want) {
						t.Errorf("%q at %d from the cut (fill %q), writes of %v: stream differs:\n%s", sec.in, d, fill, sizes, lineDiff(want, got))
					}
				}
			}
		}
	}
}
