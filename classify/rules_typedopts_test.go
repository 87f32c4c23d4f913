package classify

import "testing"

// TestTypedOptionRules: the deny rules that used to look for a letter
// anywhere in a bundle (badblocks -w/-n, pfctl -d/-F, apparmor_parser -R,
// killall -r), and the kill-all selectors and iptables' accept-all rule,
// read the argument model's parse: bundles and abbreviations
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
		{"pkill -9 -u $USER", "kill-all"},
		{"pkill -KILL -u me", "kill-all"},
		{"pkill --eu me", "kill-all"},
		{"pkill -fu me", "kill-all"},
		{"pkill -q 1 -u me", "kill-all"},
		{"pkill --signal 9 -u me", "kill-all"},
		{"pkill -x .", "kill-all"},
		{"pkill -9 -u me node", ""},
		{"pkill -o -u me", ""},
		{"pkill -f node", ""},
		{"pkill -- -u", ""},
		{"iptables -I INPUT 1 -j ACCEPT", "security-off"},
		{"iptables -A INPUT -jACCEPT", "security-off"},
		{"iptables --ins INPUT -j ACCEPT", "security-off"},
		{"iptables -t filter -I INPUT -j ACCEPT", "security-off"},
		{"iptables -I INPUT -p tcp --dport 22 -j ACCEPT", ""},
		{"iptables -A INPUT -s 10.0.0.1 -j ACCEPT", ""},
		{"iptables -I INPUT -j DROP", ""},
	}
	for _, c := range cases {
		a := Analyze(c.in, opt)
		got := tcIDs(a.Deny)
		if c.deny == "" && len(a.Deny) > 0 || c.deny != "" && !tcHasHit(a.Deny, c.deny) {
			t.Errorf("%q: want deny %q, got %v", c.in, c.deny, got)
		}
	}
}
