package redact

import (
	"os"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	r := New(nil)
	data, _ := os.ReadFile("/tmp/h20/probe.txt")
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" {
			continue
		}
		l = strings.ReplaceAll(l, `\e`, "\x1b")
		l = strings.ReplaceAll(l, `\0`, "\x00")
		got := r.String(l)
		mark := "  "
		if got != l {
			mark = "R "
		}
		t.Logf("%s%q\n     -> %q", mark, l, got)
	}
}
