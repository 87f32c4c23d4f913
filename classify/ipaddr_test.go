package classify

import (
	"net/netip"
	"testing"
)

var addrSeeds = []string{
	"169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518", "169.16689662",
	"0xa9.0xfe.0xa9.0xfe", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "fd00:ec2::254", "127.1", "0", "::1", "::",
	"1.2.3.4.5", "256.1.1.1", "0x", "08.1.1.1", "1..2", "", "1:2:3:4:5:6:7:8", "1::2::3", "::1.2.3", "64:ff9b::a9fe:a9fe",
}

// parseAddr reads every address netip reads, to the same bytes, besides
// the loose IPv4 forms netip refuses.
func checkAddr(t *testing.T, s string) {
	got, ok := parseAddr(s)
	want, err := netip.ParseAddr(s)
	if err != nil || want.Zone() != "" {
		return
	}
	if !ok {
		t.Fatalf("parseAddr(%q) failed; netip reads %v", s, want)
	}
	if got != addr16(want.As16()) && got != addr16(netip.AddrFrom16(want.As16()).As16()) {
		t.Errorf("parseAddr(%q) = %x, want %x", s, got, want.As16())
	}
	if LoopbackHost(s) != (want.Unmap().IsLoopback() || want.Unmap().IsUnspecified()) {
		t.Errorf("LoopbackHost(%q) = %v, netip says loopback %v", s, LoopbackHost(s), want.Unmap().IsLoopback())
	}
}

func TestParseAddr(t *testing.T) {
	for _, s := range addrSeeds {
		checkAddr(t, s)
	}
	for _, s := range []string{"169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518",
		"169.16689662", "0xa9.0xfe.0xa9.0xfe", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "fd00:ec2::254", "[fd00:ec2::254]",
		"64:ff9b::a9fe:a9fe", "metadata.google.internal", "metadata.google.internal.", "METADATA", "100.100.100.200",
		"169.254.169.254.nip.io", "app-169.254.169.254.sslip.io", "a9fea9fe.nip.io", "0xa9fea9fe.nip.io"} {
		if !MetadataHost(s) {
			t.Errorf("MetadataHost(%q) = false", s)
		}
	}
	for _, s := range []string{"169.254.1.1", "10.0.0.1", "metadata.example.com", "example.com", "::1", "localhost", "2852039167", "1.2.3.4.nip.io"} {
		if MetadataHost(s) {
			t.Errorf("MetadataHost(%q) = true", s)
		}
	}
	for _, s := range []string{"localhost", "LOCALHOST.", "x.localhost", "127.1", "2130706433", "0x7f000001", "0", "0.0.0.0", "::1", "::ffff:127.0.0.1", "::"} {
		if !LoopbackHost(s) {
			t.Errorf("LoopbackHost(%q) = false", s)
		}
	}
	for _, s := range []string{"localhost.example.com", "10.0.0.1", "128.0.0.1", "::2"} {
		if LoopbackHost(s) {
			t.Errorf("LoopbackHost(%q) = true", s)
		}
	}
}

func FuzzParseAddr(f *testing.F) {
	for _, s := range addrSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		checkAddr(t, s)
		MetadataHost(s)
		HostKey(s)
	})
}
