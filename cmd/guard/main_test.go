package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLean keeps guard lean: it starts on every command an agent runs, so it
// must link neither urfave/cli nor cgo (runtime/cgo comes with SQLite, and
// with os/user when cgo is on). The management commands live in guard-cli.
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
		for _, banned := range []string{"github.com/urfave/cli", "runtime/cgo", "text/template", "net/netip", "mvdan.cc/sh/v3/expand", "crypto/hmac", "net/url"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("guard links %s", dep)
			}
		}
	}
}
