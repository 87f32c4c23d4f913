package classify

import "testing"

// TestTypedOptionRules: the deny rules that used to look for a letter
// anywhere in a bundle (badblocks -w/-n, pfctl -d/-F, apparmor_parser -R,
// killall -r) read the argument model's parse: bundles and abbreviations
// resolve from the spec, a letter that is another option's value does
// not count, and what the spec cannot type (killall -9) fails closed.
func TestTypedOptionRules(t *testing.T) {
	opt := tcOpt()
	cases := []struct{ in, deny string }{
		{"badblocks -w /dev/sda", "disk-format"},
		{"badblocks -svw /dev/sda", "disk-format"},
		{"badblocks -n /dev/sda", "disk-format"},
		{"badblocks -x -w /dev/sda", "disk-format"},
		{"badblocks -sv /dev/sda", ""},
		{"badblocks -o bad.txt -sv /dev/sda", ""},
		{"pfctl -d", "security-off"},
		{"pfctl -vd", "security-off"},
		{"pfctl -Fall", "security-off"},
		{"pfctl -F rules", "security-off"},
		{"pfctl -sr", ""},
		{"pfctl -a d -s rules", ""},
		{"apparmor_parser -qR /etc/apparmor.d/x", "security-off"},
		{"apparmor_parser --rem x", "security-off"},
		{"apparmor_parser -r /etc/apparmor.d/x", ""},
		{"apparmor_parser -I R x", ""},
		{"killall -vr '.*'", "kill-all"},
		{"killall --reg .", "kill-all"},
		{"killall -9 -r .", "kill-all"},
		{"killall -s 9 -r .", "kill-all"},
		{"killall -sr node", ""},
		{"killall -r node", ""},
	}
	for _, c := range cases {
		a := Analyze(c.in, opt)
		got := tcIDs(a.Deny)
		if c.deny == "" && len(a.Deny) > 0 || c.deny != "" && !tcHasHit(a.Deny, c.deny) {
			t.Errorf("%q: want deny %q, got %v", c.in, c.deny, got)
		}
	}
}
