package redact

import "testing"

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
	{"short", "PASSWORD=12", "PASSWORD=[REDACTED:credential]"},
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
