package main

import "testing"

func TestUseColour(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tc := range []struct {
		tty  bool
		env  map[string]string
		want bool
	}{
		{true, nil, true},
		{false, nil, false},
		{true, map[string]string{"NO_COLOR": "1"}, false},
		{true, map[string]string{"TERM": "dumb"}, false},
		{true, map[string]string{"TERM": "xterm-256color"}, true},
	} {
		if got := useColour(tc.tty, env(tc.env)); got != tc.want {
			t.Errorf("tty %v env %v: got %v", tc.tty, tc.env, got)
		}
	}
	if got := colourDecision("deny"); got != "\x1b[31mdeny\x1b[0m" {
		t.Errorf("deny: %q", got)
	}
	if got := colourDecision("maybe"); got != "maybe" {
		t.Errorf("maybe: %q", got)
	}
}
