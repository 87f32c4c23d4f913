package redact

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchInputs are 1 MiB of text: build-log-like lines without any trigger,
// the same with a secret every 4 KiB, and short commands as guard records
// them; and the ordinaryInputs.
func benchInputs() map[string][]byte {
	line := "ok  \tgithub.com/example/project/internal/pkg\t0.123s\tcoverage: 81.2% of statements\n"
	plain := strings.Repeat(line, (1<<20)/len(line))
	var mixed strings.Builder
	for mixed.Len() < 1<<20 {
		mixed.WriteString(strings.Repeat(line, 50))
		mixed.WriteString("export GITHUB_TOKEN=" + ghp + " url=https://u:p4ssw0rd@h/x\n")
	}
	in := map[string][]byte{
		"plain-1MiB":   []byte(plain),
		"secrets-1MiB": []byte(mixed.String()),
		"labels-1MiB":  []byte(strings.Repeat("password=hunter2 [REDACTED:credential] ", (1<<20)/39)),
		"command":      []byte("git log --oneline -n 20 -- ./cmd/guard/main.go | head -5"),
		"command-url":  []byte("git clone https://github.com/guard-dev/guard.git /tmp/x && cd /tmp/x"),
	}
	for name, b := range ordinaryInputs() {
		in["ordinary-"+name] = b
	}
	return in
}

// ordinaryInputs are about 1 MiB each of what agents' commands print every
// day, built from the formats' public shape and holding no secret (though
// plenty of words such as token, key, secret, password, path and patch):
// what redaction costs on almost every captured run.
func ordinaryInputs() map[string][]byte {
	const size = 1 << 20
	fill := func(line func(i int) string) []byte {
		var sb strings.Builder
		for i := 0; sb.Len() < size; i++ {
			sb.WriteString(line(i))
		}
		return []byte(sb.String())
	}
	paths := []string{"/api/v1/items", "/api/v1/items/{id}/patch", "/healthz", "/api/v2/users/me", "/static/js/app.3f2a1c.js", "/api/v1/path-templates", "/login", "/api/v1/tokens/refresh"}
	levels := []string{"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"}
	words := []string{"token", "key", "secret", "password", "path", "patch", "pattern", "dispatch", "compatible", "keyboard", "tokenizer", "secretName", "passwordHash", "apiKeyID"}
	out := map[string][]byte{}

	out["applog"] = fill(func(i int) string {
		return fmt.Sprintf("2026-12-01T10:%02d:%02dZ %s request id=%d path=%s status=%d took=%dms user_agent=\"Mozilla/5.0 (X11; Linux x86_64)\"\n",
			i/60%60, i%60, levels[i%len(levels)], i, paths[i%len(paths)], []int{200, 200, 201, 304, 404, 500}[i%6], i%97)
	})

	out["gotest"] = fill(func(i int) string {
		name := fmt.Sprintf("Test%sParse%d", strings.ToUpper(words[i%len(words)][:1])+words[i%len(words)][1:], i%50)
		s := fmt.Sprintf("=== RUN   %s\n=== PAUSE %s\n=== CONT  %s\n", name, name, name)
		s += fmt.Sprintf("    %s_test.go:%d: parsed %d %s entries from testdata/%s.golden in 0.%03ds\n", words[i%len(words)], 20+i%400, i%17, words[(i+3)%len(words)], words[(i+5)%len(words)], i%1000)
		s += fmt.Sprintf("--- PASS: %s (0.%02ds)\n", name, i%100)
		if i%40 == 39 {
			s += fmt.Sprintf("PASS\nok  \tgithub.com/example/project/internal/%s\t0.%03ds\tcoverage: %d.%d%% of statements\n", words[i%len(words)], i%1000, 50+i%50, i%10)
		}
		return s
	})

	out["json"] = fill(func(i int) string {
		return fmt.Sprintf(`    {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": "web-%[1]d-7d9f8c6b5-x%[1]dq",
            "namespace": "default",
            "labels": {"app": "web", "pod-template-hash": "7d9f8c6b5"},
            "annotations": {"kubectl.kubernetes.io/restartedAt": "2026-12-01T10:00:00Z"}
        },
        "spec": {
            "containers": [{
                "name": "web",
                "image": "ghcr.io/example/web:1.%[2]d.0",
                "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": "kube-api-access-%[2]d", "readOnly": true}],
                "env": [{"name": "TOKEN_TYPE", "value": "Bearer"}, {"name": "KEY_PATH", "value": "/etc/web/tls.key"}]
            }],
            "serviceAccountName": "default"
        },
        "status": {"phase": "Running", "podIP": "10.0.%[3]d.%[4]d", "token_type": "bearer", "key": "web-%[1]d", "path": "/api/v1/namespaces/default/pods/web-%[1]d"}
    },
`, i, i%30, i%256, (i*7)%256)
	})

	out["compiler"] = fill(func(i int) string {
		w := words[i%len(words)]
		switch i % 4 {
		case 0:
			return fmt.Sprintf("internal/%s/%s.go:%d:%d: undefined: %sSource\n", w, words[(i+1)%len(words)], i%900+1, i%80+1, w)
		case 1:
			return fmt.Sprintf("cmd/server/handlers/%s_handler.go:%d:%d: SA4006: this value of %s is never used (staticcheck)\n", w, i%700+1, i%60+1, w)
		case 2:
			return fmt.Sprintf("src/components/%sForm.tsx(%d,%d): error TS2339: Property '%s' does not exist on type 'Props'.\n", strings.ToUpper(w[:1])+w[1:], i%300+1, i%40+1, w)
		}
		return fmt.Sprintf("pkg/%s/%s_test.go:%d:%d: ineffectual assignment to err (ineffassign)\n", w, words[(i+2)%len(words)], i%500+1, i%30+1)
	})

	pkgs := []string{"inflight", "glob", "rimraf", "lodash", "react-dom", "typescript", "eslint-plugin-import", "jsonwebtoken", "path-to-regexp", "keytar", "requests", "urllib3", "cryptography", "pyyaml", "keyring", "patch-package"}
	out["install"] = fill(func(i int) string {
		p := pkgs[i%len(pkgs)]
		switch i % 5 {
		case 0:
			return fmt.Sprintf("npm warn deprecated %s@%d.%d.%d: This module is not supported, and leaks memory. Do not use it.\n", p, i%9, i%20, i%7)
		case 1:
			return fmt.Sprintf("Collecting %s==%d.%d.%d\n  Downloading %s-%d.%d.%d-py3-none-any.whl (%d kB)\n     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ %d.%d/%d.%d kB 12.3 MB/s eta 0:00:00\n", p, i%9, i%30, i%5, p, i%9, i%30, i%5, i%900, i%900, i%10, i%900, i%10)
		case 2:
			return fmt.Sprintf("Requirement already satisfied: %s>=1.21 in ./venv/lib/python3.12/site-packages (from %s==%d.0) (2.%d.1)\n", p, pkgs[(i+1)%len(pkgs)], i%9, i%40)
		case 3:
			return fmt.Sprintf("npm http fetch GET 200 https://registry.npmjs.org/%s/-/%s-%d.%d.%d.tgz %dms (cache miss)\n", p, p, i%9, i%20, i%7, i%300)
		}
		return fmt.Sprintf("added %d packages, and audited %d packages in %ds\n\n%d packages are looking for funding\n  run `npm fund` for details\n", i%1500, i%1500+1, i%60, i%200)
	})

	out["source"] = fill(func(i int) string {
		w := words[i%len(words)]
		switch i % 3 {
		case 0:
			return fmt.Sprintf(`// %[1]sFor returns the %[2]s for a path: the token is read from the key
// file, never from the command line, and the secret stays in memory.
func (c *Client) %[1]sFor%[3]d(ctx context.Context, path string) (*oauth2.Token, error) {
	key, err := c.keys.Lookup(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("lookup key for %%s: %%w", path, err)
	}
	password := os.Getenv("DB_PASSWORD")
	tokenSource := c.config.TokenSource(ctx, key.Token)
	return tokenSource.Token() // patch %[3]d: retry on a stale token
}

`, w, words[(i+1)%len(words)], i)
		case 1:
			return fmt.Sprintf(`def load_%[1]s_%[2]d(path, secret_name=None):
    """Load the %[1]s from path; the password and api key come from the keyring."""
    password = keyring.get_password("service", secret_name)
    api_key = settings.API_KEY
    with open(path) as f:
        token = json.load(f)["token"]
    return Credentials(token=token, password=password, api_key=api_key)

`, w, i)
		}
		return fmt.Sprintf(`export async function refresh%[1]d(req, res) {
  const token = req.headers['x-%[2]s-token'];
  const { secret, path } = await loadConfig(process.env.CONFIG_PATH);
  const key = crypto.createHash('sha256').update(secret + path).digest('hex');
  if (!token) return res.status(401).json({ error: 'missing token', path });
  return res.json({ key, patched: patch(req.body, %[1]d) });
}

`, i, w)
	})

	out["gitlog"] = fill(func(i int) string {
		w := words[i%len(words)]
		return fmt.Sprintf(`commit %040x
Author: Jane Developer <jane@example.com>
Date:   Tue Dec 1 10:%02d:00 2026 +0000

    %s: handle an empty %s in the config loader (#%d)

diff --git a/internal/config/%s.go b/internal/config/%s.go
index %07x..%07x 100644
--- a/internal/config/%s.go
+++ b/internal/config/%s.go
@@ -%d,7 +%d,8 @@ func load%d(path string) (*Config, error) {
 	data, err := os.ReadFile(path)
 	if err != nil {
-		return nil, err
+		return nil, fmt.Errorf("read %%s: %%w", path, err)
 	}
+	// a missing %s is not an error: the key file may come later
 	var c Config
 	if err := yaml.Unmarshal(data, &c); err != nil {
 		return nil, fmt.Errorf("parse %%s: %%w", path, err)

`, uint64(i)*0x9E3779B97F4A7C15, i%60, w, words[(i+1)%len(words)], i, w, w, i*2654435761%0xfffffff, i*40503%0xfffffff, w, w, i%300+1, i%300+1, i, words[(i+2)%len(words)])
	})
	return out
}

func BenchmarkRedact(b *testing.B) {
	r := New([]string{"GITHUB_TOKEN=" + ghp, "AWS_SECRET_ACCESS_KEY=" + awsSecret})
	for name, in := range benchInputs() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				r.Bytes(in)
			}
		})
	}
}

func BenchmarkWriter(b *testing.B) {
	r := New(nil)
	in := benchInputs()["plain-1MiB"]
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		w := r.Writer(io.Discard)
		for off := 0; off < len(in); off += 4096 {
			w.Write(in[off:min(off+4096, len(in))])
		}
		w.Close()
	}
}

// BenchmarkBaseline is bytes.IndexByte-free work of the same size (a sum
// of bytes), to tell a slow machine from slow code: compare MB/s.
func BenchmarkBaseline(b *testing.B) {
	in := benchInputs()["plain-1MiB"]
	b.SetBytes(int64(len(in)))
	var sink byte
	for b.Loop() {
		var s byte
		for _, c := range in {
			s += c
		}
		sink += s
	}
	_ = sink
}

// BenchmarkNew is what the shim pays once per recorded command: building
// the tables (nothing is compiled until a trigger is seen).
func BenchmarkNew(b *testing.B) {
	env := []string{"HOME=/home/u", "PATH=/usr/bin:/bin", "GITHUB_TOKEN=" + ghp, "AWS_SECRET_ACCESS_KEY=" + awsSecret}
	for b.Loop() {
		New(env).ready() // the tables are built on first use: count them here
	}
}

// BenchmarkNewUnused is what a run that redacts nothing pays for its
// Redactor.
func BenchmarkNewUnused(b *testing.B) {
	env := []string{"HOME=/home/u", "PATH=/usr/bin:/bin", "GITHUB_TOKEN=" + ghp, "AWS_SECRET_ACCESS_KEY=" + awsSecret}
	for b.Loop() {
		New(env)
	}
}

// BenchmarkCorpus redacts the benign corpus (ordinary output of go, npm,
// docker, kubectl, grep), all of it, as one buffer.
func BenchmarkCorpus(b *testing.B) {
	in := benignCorpus(b)
	r := New(nil)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r.Bytes(in)
	}
}

// TestOrdinaryUntouched checks that the ordinary benchmark inputs hold
// nothing the redactor takes for a secret: they measure the cost of text
// that comes out as it went in.
func TestOrdinaryUntouched(t *testing.T) {
	r := New(nil)
	for name, in := range ordinaryInputs() {
		if out, changed := r.Redact(in); changed {
			t.Errorf("%s: redacted:\n%s", name, lineDiff(in, out))
		}
	}
}
