package classify

import "testing"

// Functions and aliases the running shell already has (Options.Funcs,
// Options.Aliases) are judged where they are called, with their bodies, as
// if they had been defined earlier in the text.
func TestOptionsKnownFunctionsAndAliases(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		opt        Options
		deny       bool
	}{
		{"function body with the call's arguments", "runit sudo -n true", Options{Funcs: map[string]string{"runit": `"$@"`}}, true},
		{"function body", "wipe", Options{Funcs: map[string]string{"wipe": "mkfs.ext4 /dev/sda"}}, true},
		{"harmless body", "hi", Options{Funcs: map[string]string{"hi": "echo hi"}}, false},
		{"unknown function", "runit sudo -n true", Options{}, false},
		{"alias", "ll", Options{Aliases: map[string]string{"ll": "sudo -n true"}}, true},
		{"alias with arguments", "as true", Options{Aliases: map[string]string{"as": "sudo -n"}}, true},
		{"harmless alias", "ll", Options{Aliases: map[string]string{"ll": "ls -l"}}, false},
	} {
		a := Analyze(tc.text, tc.opt)
		if got := len(a.Deny) > 0; got != tc.deny {
			t.Errorf("%s: Analyze(%q) deny=%v (%+v), want %v", tc.name, tc.text, got, a.Deny, tc.deny)
		}
	}
	// the caller's maps are not changed by a text that redefines them
	funcs := map[string]string{"f": "echo a"}
	Analyze("f() { sudo -n true; }; alias x=y", Options{Funcs: funcs})
	if len(funcs) != 1 || funcs["f"] != "echo a" {
		t.Errorf("Analyze changed Options.Funcs: %q", funcs)
	}
}
