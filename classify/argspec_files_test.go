package classify

import "testing"

func TestSedScriptSafe(t *testing.T) {
	printOnly := map[string]bool{"5p": true, "1,10p": true, "$p": true, "/^x/p": true, "1~2p": true, "5p;10p": true, "/a/,/b/p": true, "p": true, "5q": true, "=": true,
		"": false, "5d": false, "w x": false, "s/a/b/": false, "5p x": false, "/unterminated": false, "5!p": true, "1,+3p": true}
	for s, want := range printOnly {
		if got := sedScriptSafe(s, true); got != want {
			t.Errorf("print-only %q = %v, want %v", s, got, want)
		}
	}
	safe := map[string]bool{"s/a/b/g": true, "s|a|b|2": true, "/x/d": true, "$!N;P;D": true, "y/ab/cd/": true, "1i\\hello": true, "{p;d}": true,
		"s/a/b/e": false, "s/a/b/w f": false, "1e id": false, "r f": false, "R f": false, "W f": false, "w f": false, "s/a/b": false, "k": false}
	for s, want := range safe {
		if got := sedScriptSafe(s, false); got != want {
			t.Errorf("safe %q = %v, want %v", s, got, want)
		}
	}
}
