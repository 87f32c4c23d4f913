package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLean keeps guard lean: it starts on every command an agent runs, so it
// must link neither urfave/cli nor cgo (runtime/cgo comes with SQLite, and
// with os/user when cgo is on). The management commands live in guard-cli,
// and so does the OpenTelemetry SDK (the telemetry flusher).
func TestLean(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		// net/netip, mvdan's expand and crypto/hmac each cost every run a
		// package init for one small function (see classify/braces.go,
		// shim's parseIP, ccs's hmacSHA256).
		// The web console (webui, WebAuthn, chromedp in its tests) is
		// guard-cli's alone, and so is the OpenTelemetry SDK (the flusher).
		for _, banned := range []string{"github.com/urfave/cli", "runtime/cgo", "text/template", "net/netip", "mvdan.cc/sh/v3/expand", "crypto/hmac", "net/url",
			"github.com/guard-dev/guard/webui", "github.com/go-webauthn", "github.com/chromedp", "go.opentelemetry.io"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("guard links %s", dep)
			}
		}
	}
}

// TestNoInitRegexps: a regular expression at package level is compiled
// when guard starts, for every command an agent runs (tens of
// microseconds each). The packages guard links compile theirs on first use.
func TestNoInitRegexps(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range []string{"../../classify", "../../grants", "../../shim", "../../ccs", "../../redact"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				ast.Inspect(g, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == "regexp" && strings.Contains(sel.Sel.Name, "Compile") {
							t.Errorf("%s: package-level regexp.%s runs at every guard start", fset.Position(sel.Pos()), sel.Sel.Name)
						}
					}
					return true
				})
			}
		}
	}
}
