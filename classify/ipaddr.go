package classify

// Host addresses as the programs that connect read them: a URL parser
// and inet_aton take 169.254.169.254 also as 2852039166, 0xa9fea9fe,
// 0251.0376.0251.0376, 0xa9.0xfe.43518 and 169.254.43518, and an IPv6
// literal may carry the IPv4 address mapped (::ffff:169.254.169.254,
// ::ffff:a9fe:a9fe). guard judges every spelling as the address it
// reaches. (No net/netip: guard starts lean, and netip refuses the loose
// IPv4 forms that connect all the same.)

import "strings"

// addr16 is an IPv6 address; an IPv4 address is held IPv4-mapped.
type addr16 [16]byte

var v4Prefix = [12]byte{10: 0xff, 11: 0xff}

func v4(a, b, c, d byte) addr16 {
	var x addr16
	copy(x[:], v4Prefix[:])
	x[12], x[13], x[14], x[15] = a, b, c, d
	return x
}

// parseAddr reads a host (brackets and a %zone already allowed) as an
// address in any spelling a client connects to.
func parseAddr(h string) (addr16, bool) {
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	if i := strings.IndexByte(h, '%'); i >= 0 && strings.Contains(h, ":") {
		h = h[:i] // fe80::1%eth0, %25eth0 in a URL
	}
	if h == "" {
		return addr16{}, false
	}
	if strings.Contains(h, ":") {
		return parseIPv6(h)
	}
	n, ok := looseIPv4(h)
	if !ok {
		return addr16{}, false
	}
	return v4(byte(n>>24), byte(n>>16), byte(n>>8), byte(n)), true
}

// looseIPv4 reads inet_aton's forms: one to four parts, each decimal,
// octal (leading 0) or hex (0x); the last part fills the bytes left.
func looseIPv4(s string) (uint32, bool) {
	n := strings.Count(s, ".") + 1
	if n > 4 {
		return 0, false
	}
	var out uint64
	for i := 0; i < n; i++ {
		p, rest, _ := strings.Cut(s, ".")
		s = rest
		v, ok := ipv4Part(p)
		if !ok {
			return 0, false
		}
		if i < n-1 {
			if v > 255 {
				return 0, false
			}
			out = out<<8 | v
			continue
		}
		left := uint(4 - i) // bytes the last part fills
		if v >= 1<<(8*left) {
			return 0, false
		}
		out = out<<(8*left) | v
	}
	return uint32(out), true
}

func ipv4Part(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(p) > 1 && (p[1] == 'x' || p[1] == 'X') && p[0] == '0':
		base, p = 16, p[2:]
		if p == "" {
			return 0, true // "0x" is 0 to a URL parser
		}
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	var v uint64
	for i := 0; i < len(p); i++ {
		d := hexDigit(p[i])
		if d < 0 || uint64(d) >= base {
			return 0, false
		}
		v = v*base + uint64(d)
		if v > 1<<32 {
			return 0, false
		}
	}
	return v, true
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// parseIPv6 reads an IPv6 address with ::, and an IPv4 tail in any of
// the loose forms (a resolver is stricter; guard fails toward naming the
// address).
func parseIPv6(s string) (addr16, bool) {
	var groups []uint16
	gap := -1
	var tail uint32
	hasTail := false
	rest := s
	if strings.HasPrefix(rest, "::") {
		gap, rest = 0, rest[2:]
	}
	for rest != "" {
		part, after, more := strings.Cut(rest, ":")
		if strings.Contains(part, ".") && !more {
			n, ok := looseIPv4(part)
			if !ok {
				return addr16{}, false
			}
			tail, hasTail = n, true
			break
		}
		if part == "" || len(part) > 4 {
			return addr16{}, false
		}
		var g uint16
		for i := 0; i < len(part); i++ {
			d := hexDigit(part[i])
			if d < 0 {
				return addr16{}, false
			}
			g = g<<4 | uint16(d)
		}
		groups = append(groups, g)
		rest = after
		if more && strings.HasPrefix(rest, ":") {
			if gap >= 0 {
				return addr16{}, false
			}
			gap, rest = len(groups), rest[1:]
		} else if more && rest == "" {
			return addr16{}, false
		}
	}
	want := 8
	if hasTail {
		want = 6
	}
	if len(groups) > want || gap < 0 && len(groups) != want || gap >= 0 && len(groups) == want {
		return addr16{}, false
	}
	full := make([]uint16, 0, want)
	full = append(full, groups[:max(gap, 0)]...)
	if gap >= 0 {
		full = append(full, make([]uint16, want-len(groups))...)
		full = append(full, groups[gap:]...)
	} else {
		full = groups
	}
	var a addr16
	for i, g := range full {
		a[2*i], a[2*i+1] = byte(g>>8), byte(g)
	}
	if hasTail {
		a[12], a[13], a[14], a[15] = byte(tail>>24), byte(tail>>16), byte(tail>>8), byte(tail)
	}
	return a, true
}

// embedded returns the IPv4 address an IPv6 one carries where it reaches
// that IPv4 host: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) or
// through NAT64 (64:ff9b::a.b.c.d).
func (a addr16) embedded() (addr16, bool) {
	var zero [12]byte
	nat64 := [12]byte{0: 0x00, 1: 0x64, 2: 0xff, 3: 0x9b}
	switch [12]byte(a[:12]) {
	case v4Prefix:
		return a, true
	case zero, nat64:
		if a[12] == 0 && a[13] == 0 && a[14] == 0 {
			return a, false // ::1 and :: are IPv6's own
		}
		return v4(a[12], a[13], a[14], a[15]), true
	}
	return a, false
}

// metadataAddrs are the cloud metadata services' addresses: AWS, GCP,
// Azure, Oracle, DigitalOcean, OpenStack (169.254.169.254), ECS and EKS
// credential endpoints (169.254.170.2, .23), Alibaba (100.100.100.200),
// Tencent (169.254.0.23), and AWS's IPv6 ones (fd00:ec2::254, ::23).
var metadataAddrs = [...]addr16{
	v4(169, 254, 169, 254), v4(169, 254, 170, 2), v4(169, 254, 170, 23), v4(100, 100, 100, 200), v4(169, 254, 0, 23),
	{0xfd, 0, 0x0e, 0xc2, 15: 0x54, 14: 0x02},
	{0xfd, 0, 0x0e, 0xc2, 15: 0x23},
}

// metadataNames are the names that resolve to a metadata service.
var metadataNames = []string{"metadata.google.internal", "metadata", "metadata.goog", "instance-data", "instance-data.ec2.internal",
	"metadata.tencentyun.com", "metadata.platformequinix.com", "metadata.packet.net"}

// MetadataHost reports a host (as [HostOf] gives it, or any part of a
// word that names one) that reaches a cloud metadata service, in any
// spelling: the names, the addresses in decimal, hex, octal, short and
// IPv4-mapped forms, and names that embed the address for a wildcard DNS
// service (169.254.169.254.nip.io, 169-254-169-254.sslip.io).
func MetadataHost(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(foldHost(h))), ".")
	if h == "" {
		return false
	}
	if contains(metadataNames, h) {
		return true
	}
	if a, ok := parseAddr(h); ok {
		if e, ok := a.embedded(); ok {
			a = e
		}
		for _, m := range metadataAddrs {
			if a == m {
				return true
			}
		}
		return false
	}
	for _, s := range []string{"169.254.169.254", "169-254-169-254", "a9fea9fe", "169.254.170.2", "169-254-170-2", "100.100.100.200", "100-100-100-200", "fd00-ec2--254"} {
		if strings.Contains(h, s) {
			return true
		}
	}
	// a name whose labels spell the address (1.2.3.4.nip.io,
	// 0xa9fea9fe.nip.io, app-169.254.169.254.sslip.io)
	if strings.Count(h, ".") < 4 && !strings.Contains(h, "0x") {
		return false
	}
	labels := strings.Split(h, ".")
	for i := range labels {
		for j := i + 1; j <= len(labels) && j <= i+4; j++ {
			cand := strings.Join(labels[i:j], ".")
			if k := strings.LastIndexByte(cand, '-'); k >= 0 && j-i > 1 {
				cand = cand[k+1:]
			}
			if a, ok := parseAddr(cand); ok && cand != h {
				for _, m := range metadataAddrs {
					if a == m && (j-i == 4 || strings.HasPrefix(labels[i], "0x")) {
						return true
					}
				}
			}
		}
	}
	return false
}

// LoopbackHost reports a host that is this machine: localhost and its
// subdomains (curl resolves *.localhost itself), 127.0.0.0/8 and ::1 in
// any spelling, and the unspecified address a client reaches this
// machine through (0.0.0.0, ::).
func LoopbackHost(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	switch h {
	case "localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback":
		return true
	}
	if strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, ok := parseAddr(h)
	if !ok {
		return false
	}
	if e, ok := a.embedded(); ok {
		a = e
	}
	if [12]byte(a[:12]) == v4Prefix {
		return a[12] == 127 || a == v4(0, 0, 0, 0)
	}
	return a == addr16{15: 1} || a == addr16{}
}

// metadataInHost checks a host as Hosts gives it, and each alternative of
// a curl glob in it ({169.254.169.254,x}, [1-2]).
func metadataInHost(h string) bool {
	if MetadataHost(h) {
		return true
	}
	if strings.ContainsAny(h, "{}[],") {
		for _, part := range strings.FieldsFunc(h, func(r rune) bool { return strings.ContainsRune("{}[],", r) }) {
			if MetadataHost(part) {
				return true
			}
		}
	}
	return false
}

// metadataInText reports a script or value that names a metadata service:
// a URL whose host is one, or one of the literal spellings anywhere in it
// (python -c 'urlopen("http://169.254.169.254/…")').
func metadataInText(s string) bool {
	l := strings.ToLower(s)
	if metadataInURLs(l) {
		return true
	}
	for _, m := range []string{"169.254.169.254", "metadata.google.internal", "fd00:ec2::254", "100.100.100.200", "169.254.170.2", "a9fea9fe", "2852039166", "0251.0376.0251.0376"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// metadataInURLs reports a URL in s (lowercase) whose host is a metadata
// service; the rest of the URL (a path that mentions one) does not count.
func metadataInURLs(l string) bool {
	for rest := l; ; {
		k := strings.Index(rest, "://")
		if k < 0 {
			break
		}
		rest = rest[k+3:]
		end := strings.IndexAny(rest, " \t\n'\"`)(<>\\;|&")
		word := rest
		if end >= 0 {
			word = rest[:end]
		}
		if metadataInHost(HostOf("//" + word)) {
			return true
		}
	}
	return false
}

// cloudMetadata: a command that reaches a cloud metadata service: a host
// it connects to (URL, proxy, --resolve, --connect-to, ssh, nc, socat), a
// URL in a word no spec types, an interpreter's script that names one, or
// a proxy variable set for it.
func (w *walker) cloudMetadata(c int) bool {
	cmd := &w.a.Commands[c]
	p := w.words(c)
	hosts, unknown := Hosts(cmd)
	if unknown && metadataInText(w.a.Text) {
		// a host named at run time, or URLs read from stdin or a file, in
		// a text that spells a metadata address (curl -K- <<< 'url=…',
		// curl "http://$(printf %s 169.254.169.254)/")
		return true
	}
	if !cmd.Opaque && len(cmd.Assigns) == 0 && !wordsMayNameHost(cmd.Args) {
		return false // most commands: no word with a digit, a colon or a metadata name
	}
	for _, h := range hosts {
		if metadataInHost(h) {
			return true
		}
	}
	for _, a := range cmd.Assigns {
		name, v, _ := strings.Cut(a, "=")
		if strings.HasSuffix(strings.ToLower(name), "_proxy") && metadataInHost(HostOf(v)) || metadataInURLs(strings.ToLower(v)) {
			return true
		}
	}
	if cmd.Opaque {
		for _, a := range cmd.Args[1:] {
			if metadataInText(a) {
				return true
			}
		}
		return false
	}
	for _, wd := range p.Words {
		v := strings.ToLower(wd.Val)
		bare := !strings.ContainsAny(v, " \t\n")
		switch {
		case wd.Role == RoleURL:
			if metadataInURLs(v) || metadataInHost(HostOf(v)) {
				return true
			}
		case wd.Role == RoleUnknown || wd.Role == RoleProgram:
			if metadataInURLs(v) {
				return true
			}
		case wd.Role == RoleText || wd.Role == RoleScript:
			// a container's command (docker run IMAGE curl URL); a
			// message or an echo that names one reaches nothing
			if wd.Name == "" && runsContainers(cmd.Name) && metadataInURLs(v) {
				return true
			}
		default:
			continue
		}
		// an option's value that is a bare URL or host[:port] (openssl
		// s_client -connect, --endpoint-url): where it connects
		if h := HostOf(v); wd.Name != "" && bare && (metadataInURLs(v) || strings.ContainsAny(h, ".:") && MetadataHost(h)) {
			return true
		}
	}
	return false
}

// runsContainers names the programs whose text operands are a command a
// container runs on this host's network (docker run IMAGE curl URL).
func runsContainers(name string) bool {
	switch name {
	case "docker", "podman", "nerdctl", "kubectl", "oc", "lxc", "incus", "systemd-nspawn":
		return true
	}
	return false
}

// foldHost undoes what a client's URL parser undoes before it connects:
// percent-escapes, and the dots and digits IDNA maps to ASCII (169。254.…,
// fullwidth ０-９).
func foldHost(h string) string {
	h = percentDecode(h)
	if isASCII(h) {
		return h
	}
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == '\u3002' || r == '\uff0e' || r == '\uff61':
			r = '.'
		case r >= '\uff10' && r <= '\uff19':
			r = '0' + (r - '\uff10')
		case r >= '\uff21' && r <= '\uff3a':
			r = 'a' + (r - '\uff21')
		case r >= '\uff41' && r <= '\uff5a':
			r = 'a' + (r - '\uff41')
		case r == '\uff1a':
			r = ':'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// wordsMayNameHost is cloudMetadata's prefilter: an argument that could
// spell a metadata service holds a digit, a colon or a percent-escape
// (every address and URL), or one of the names' letters "metadata" /
// "instance-data", or a non-ASCII byte (IDNA's dots and digits).
func wordsMayNameHost(args []string) bool {
	for _, a := range args[1:] {
		for i := 0; i < len(a); i++ {
			if c := a[i]; c >= '0' && c <= '9' || c == ':' || c == '%' || c >= 0x80 {
				return true
			}
		}
		if containsFold(a, "metadata") || containsFold(a, "instance-data") {
			return true
		}
	}
	return false
}

// containsFold reports sub (lowercase ASCII) in s, ignoring ASCII case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
