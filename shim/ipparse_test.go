package shim

import (
	"net/netip"
	"testing"
)

var ipSeeds = []string{
	"10.0.0.1", "127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3",
	"fe80::1%eth0", "2001:db8::8a2e:370:7334", "2001:0db8:0000:0000:0000:0000:0000:0001",
	"::", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "::1.2.3.4", "1::2::3",
	"1:2:3:4:5:6:7:8:9", "256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", ":1", "1:", "",
	"::ffff:1.2.3", "12345::", "g::1", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "0:0:0:0:0:0:0:1",
}

// parseIP replaced net/netip in the ssh-origin check; it must agree with it
// on what is an address, which addresses are equal and which are loopback.
func checkIP(t *testing.T, s string) {
	got, ok := parseIP(s)
	want, err := netip.ParseAddr(s)
	if ok != (err == nil) {
		t.Fatalf("parseIP(%q) ok=%v, netip says %v", s, ok, err)
	}
	if !ok {
		return
	}
	want = want.WithZone("")
	if got != ip(want.Unmap().As16()) && got != ip(netip.AddrFrom16(want.As16()).As16()) {
		t.Errorf("parseIP(%q) = %x, want %x", s, got, want.As16())
	}
	if got.loopback() != want.Unmap().IsLoopback() {
		t.Errorf("parseIP(%q).loopback() = %v, netip says %v", s, got.loopback(), want.Unmap().IsLoopback())
	}
}

func TestParseIPMatchesNetip(t *testing.T) {
	for _, s := range ipSeeds {
		checkIP(t, s)
	}
	a, _ := parseIP("::ffff:10.1.2.3")
	b, _ := parseIP("10.1.2.3")
	if a != b {
		t.Errorf("an IPv4-mapped address and its IPv4 form differ")
	}
}

func FuzzParseIP(f *testing.F) {
	for _, s := range ipSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		checkIP(t, s)
	})
}
