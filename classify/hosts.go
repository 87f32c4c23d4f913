package classify

// The network tier's extraction: which hosts a command reaches. Pure: it
// reads the command's words (typed by its spec where there is one), never
// the network or the disk.

import "strings"

// Hosts returns the hosts command c reaches, normalised by [HostOf]
// (lowercase, no userinfo, no port), each once. unknown reports a reach
// guard cannot read: a URL or remote that is not literal, or a host that
// does not parse. Commands that reach no host (or that guard does not know
// as network clients) return nothing.
//
// Covered: curl, wget, httpie (http, https), xh; nc, ncat, netcat, socat,
// telnet; ssh, scp, sftp, rsync remotes ([user@]host:path, scheme URLs);
// git clone, fetch, pull, push, ls-remote, submodule add and remote add
// with a literal URL (https://…, ssh://…, git@github.com:org/repo); and
// any URL given to a package installer (pip install git+https://…, npm
// install https://…/x.tgz, cargo install --git URL, --index-url URL).
func Hosts(c *Command) (hosts []string, unknown bool) {
	if c == nil || len(c.Args) == 0 {
		return nil, false
	}
	h := hostList{c: c}
	switch name := c.Name; name {
	case "curl", "wget", "wget2":
		p := c.Words()
		for _, wd := range p.Words {
			switch {
			case wd.Role == RoleURL:
				h.url(wd.Arg, wd.Val)
			case wd.Name == "resolve" || wd.Name == "connect-to":
				h.redirect(wd.Arg, wd.Name, wd.Val)
			case wd.Name == "dns-servers":
				for _, d := range strings.Split(wd.Val, ",") {
					h.url(wd.Arg, d)
				}
			case wd.Role == RoleUnknown && len(wd.Name) > 1 && hostOptionPrefix(wd.Name):
				// an abbreviation older curls take (--reso, --prox): where
				// it sends the request is not known
				h.unknown = true
			case wd.Name == "unix-socket" || wd.Name == "abstract-unix-socket" || wd.Name == "config":
				h.unknown = true // a local service, or URLs and proxies in a file guard does not read
			case wd.Name == "input-file":
				if strings.Contains(wd.Val, "://") {
					h.url(wd.Arg, wd.Val)
				}
				h.unknown = true // the URLs are in the file
			case wd.Name == "execute":
				// wget -e http_proxy=HOST, -e input=FILE: wgetrc commands
				k, v, _ := strings.Cut(wd.Val, "=")
				k = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(k), "-", "_"))
				switch {
				case strings.HasSuffix(k, "proxy") && k != "use_proxy" && k != "no_proxy":
					h.url(wd.Arg, strings.TrimSpace(v))
				case k == "input" || k == "base":
					h.unknown = true
				}
			}
		}
	case "http", "https", "xh", "xhs", "httpie":
		// [METHOD] URL [ITEM…]: the first operand that is not a method
		for i := 1; i < len(c.Args); i++ {
			a := c.Args[i]
			if strings.HasPrefix(a, "-") && !h.dyn(i) {
				continue
			}
			if !h.dyn(i) && isMethod(a) {
				continue
			}
			if !h.dyn(i) && strings.HasPrefix(a, ":") {
				h.add("localhost") // httpie's :3000/path shorthand
				break
			}
			h.url(i, a)
			break
		}
	case "nc", "ncat", "netcat", "telnet":
		ops := plainOperands(c)
		if listening(c) {
			return nil, false
		}
		if len(ops) > 1 && !h.dyn(ops[0]) && !h.dyn(ops[1]) {
			h.add(hostPortKey(HostOf(c.Args[ops[0]]), c.Args[ops[1]]))
		} else if len(ops) > 0 {
			h.remote(ops[0], c.Args[ops[0]], false)
		}
	case "socat":
		for _, i := range plainOperands(c) {
			h.socat(i, c.Args[i])
		}
	case "ssh":
		p := c.Words()
		if ops := p.Operands(); len(ops) > 0 {
			h.remote(ops[0].Arg, ops[0].Val, false)
		}
		h.sshJumps(p)
	case "sftp":
		p := c.Words()
		if ops := p.Operands(); len(ops) > 0 {
			h.remote(ops[0].Arg, ops[0].Val, false)
		}
		h.sshJumps(p)
	case "scp", "rsync":
		p := c.Words()
		for _, wd := range p.Operands() {
			h.remote(wd.Arg, wd.Val, true)
		}
		if name == "scp" {
			h.sshJumps(p)
		}
	case "git":
		p := c.Words()
		switch sub := p.SubName(c.Args); sub {
		case "clone", "fetch", "pull", "push", "ls-remote", "submodule", "remote":
			for _, wd := range p.Operands() {
				if h.dyn(wd.Arg) {
					if sub == "clone" || sub == "ls-remote" {
						h.unknown = true
					}
					continue
				}
				if gitURL(wd.Val) {
					h.remote(wd.Arg, wd.Val, true)
				}
			}
		}
	default:
		if installer(name) {
			for i := 1; i < len(c.Args); i++ {
				a := c.Args[i]
				switch a {
				case "--proxy", "--https-proxy", "--http-proxy", "--registry", "--index-url", "--extra-index-url", "-i":
					// a proxy or an index, given as the next word
					if i+1 < len(c.Args) && (a != "-i" || name == "pip" || name == "pip3" || name == "uv") {
						h.url(i+1, c.Args[i+1])
						i++
					}
					continue
				}
				if k, v, ok := strings.Cut(a, "="); ok && (k == "--proxy" || k == "--https-proxy" || k == "--http-proxy") && !strings.Contains(v, "://") {
					h.url(i, v)
					continue
				}
				if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
					a = v
				}
				if strings.Contains(a, "://") {
					h.url(i, a)
				}
			}
		}
	}
	// a proxy set for the command is reached too (https_proxy=HOST curl …)
	for _, a := range c.Assigns {
		if k, v, ok := strings.Cut(a, "="); ok && v != "" && strings.HasSuffix(strings.ToLower(k), "_proxy") && !strings.EqualFold(k, "no_proxy") {
			if strings.ContainsAny(v, "$`") {
				h.unknown = true
				continue
			}
			h.add(HostKey(v))
		}
	}
	return h.hosts, h.unknown
}

// sshJumps adds the hosts ssh connects to besides its operand: jump
// hosts (-J a,b; -o ProxyJump=a) and a Hostname the option sets (ssh -o
// Hostname=evil granted-alias connects to evil).
func (h *hostList) sshJumps(p Parsed) {
	for _, wd := range p.Words {
		var hosts string
		switch wd.Name {
		case "J":
			hosts = wd.Val
		case "o":
			k, v, ok := strings.Cut(strings.TrimSpace(wd.Val), "=")
			if !ok {
				k, v, _ = strings.Cut(strings.TrimSpace(wd.Val), " ")
			}
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "proxyjump", "hostname":
				hosts = strings.TrimSpace(v)
			}
		}
		if hosts == "" || strings.EqualFold(hosts, "none") {
			continue
		}
		if h.dyn(wd.Arg) {
			h.unknown = true
			continue
		}
		for _, j := range strings.Split(hosts, ",") {
			h.add(HostOf(strings.TrimPrefix(j, "ssh://")))
		}
	}
}

// redirect adds the address curl --resolve HOST:PORT:ADDR[,ADDR…] and
// --connect-to HOST1:PORT1:HOST2:PORT2 really connect to (an empty HOST2
// keeps HOST1).
func (h *hostList) redirect(i int, opt, v string) {
	if h.dyn(i) {
		h.unknown = true
		return
	}
	v = strings.TrimPrefix(strings.TrimPrefix(v, "+"), "-")
	fields := splitHostFields(v)
	switch opt {
	case "resolve":
		if len(fields) < 3 {
			h.unknown = true
			return
		}
		for _, a := range strings.Split(strings.Join(fields[2:], ":"), ",") {
			h.add(hostPortKey(strings.Trim(strings.ToLower(a), "[]"), fields[1]))
		}
	case "connect-to":
		if len(fields) < 4 {
			h.unknown = true
			return
		}
		host, port := fields[2], fields[3]
		if host == "" {
			host = fields[0]
		}
		if host == "" {
			h.unknown = true
			return
		}
		h.add(hostPortKey(strings.Trim(strings.ToLower(host), "[]"), port))
	}
}

// splitHostFields splits HOST:PORT:… at colons outside [IPv6] brackets.
func splitHostFields(v string) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ':':
			if depth == 0 {
				out = append(out, v[last:i])
				last = i + 1
			}
		}
	}
	return append(out, v[last:])
}

type hostList struct {
	c       *Command
	hosts   []string
	unknown bool
}

func (h *hostList) dyn(i int) bool {
	return i < len(h.c.Dynamic) && h.c.Dynamic[i]
}

func (h *hostList) add(host string) {
	if host == "" {
		h.unknown = true
		return
	}
	for _, x := range h.hosts {
		if x == host {
			return
		}
	}
	h.hosts = append(h.hosts, host)
}

// url adds the host of a URL word (a scheme-less one too, as curl takes it).
func (h *hostList) url(i int, v string) {
	if h.dyn(i) && !literalHostPrefix(v) {
		h.unknown = true
		return
	}
	h.add(HostKey(v))
}

// remote adds the host of an ssh-style remote: [user@]host, host:path with
// needColon, or a scheme URL. A word that names a local path adds nothing.
func (h *hostList) remote(i int, v string, needColon bool) {
	if h.dyn(i) {
		h.unknown = true
		return
	}
	if strings.Contains(v, "://") {
		h.add(HostKey(v))
		return
	}
	if needColon {
		k := strings.IndexByte(v, ':')
		if k <= 0 || strings.Contains(v[:k], "/") {
			return // a local path
		}
	}
	h.add(HostOf(v))
}

// socat addresses that connect: TYPE:host:port (PROXY and SOCKS name the
// proxy first; it is contacted too).
func (h *hostList) socat(i int, v string) {
	if h.dyn(i) {
		if strings.Contains(v, ":") {
			h.unknown = true
		}
		return
	}
	typ, rest, ok := strings.Cut(v, ":")
	if !ok {
		return
	}
	switch strings.ToUpper(typ) {
	case "TCP", "TCP4", "TCP6", "TCP-CONNECT", "TCP4-CONNECT", "TCP6-CONNECT", "UDP", "UDP4", "UDP6", "UDP-CONNECT",
		"UDP4-CONNECT", "UDP6-CONNECT", "SSL", "OPENSSL", "OPENSSL-CONNECT", "SCTP", "SCTP-CONNECT", "DCCP", "DCCP-CONNECT",
		"PROXY", "PROXY-CONNECT", "SOCKS", "SOCKS4", "SOCKS4A", "SOCKS5", "SOCKS5-CONNECT":
		host, _, _ := strings.Cut(rest, ",") // options follow a comma
		if strings.HasPrefix(host, "[") {
			if k := strings.IndexByte(host, ']'); k > 0 {
				h.add(HostOf(host[:k+1]))
				return
			}
		}
		first, port, _ := strings.Cut(host, ":")
		port, _, _ = strings.Cut(port, ":")
		h.add(hostPortKey(HostOf(first), port))
	}
}

// HostOf returns the host a URL or remote names, normalised: the scheme,
// userinfo, port, path, query and brackets stripped, lowercase, without a
// trailing dot. "" when there is none. It takes https://u:p@API.x.com:443/y,
// git+ssh://git@h/x, git@github.com:org/repo, user@host, host:path,
// [::1]:8080 and scheme-less host/path (as curl reads it).
func HostOf(s string) string {
	h, _ := hostPort(s)
	return h
}

// HostKey is the host a grant names for a URL or remote: [HostOf], and
// for this machine (localhost, 127.0.0.1, ::1 in any spelling) reached on
// the port of a local control API or database (Docker's 2375, Postgres's
// 5432, Redis's 6379, …) the host with that port: a grant of localhost
// does not cover them ("localhost:6379" does).
func HostKey(s string) string {
	h, port := hostPort(s)
	return hostPortKey(h, port)
}

func hostPortKey(h, port string) string {
	if h != "" && port != "" && ControlPort(port) && LoopbackHost(h) {
		if strings.Contains(h, ":") {
			return "[" + h + "]:" + port
		}
		return h + ":" + port
	}
	return h
}

// ControlPort reports a port where a local service takes commands that
// reach past the project: container and cluster control APIs (Docker
// 2375/2376, the kubelet, etcd, kubectl proxy), debuggers (node
// --inspect, Chrome's DevTools, adb), databases and caches.
func ControlPort(port string) bool {
	switch strings.TrimLeft(port, "0") {
	case "2375", "2376", "2377", "4243", "6443", "8001", "10250", "10255", "2379", "2380", "8500", "8200",
		"5432", "3306", "33060", "1433", "1521", "6379", "6380", "26379", "27017", "27018", "27019", "9200", "9300",
		"11211", "5984", "7474", "7687", "9042", "8086", "5672", "15672", "9092", "2181", "4222", "8123", "28015",
		"9229", "9222", "5555", "6000":
		return true
	}
	return false
}

// hostPort is HostOf with the port as written ("" when none).
func hostPort(s string) (host, port string) {
	s = strings.TrimSpace(s)
	if k := strings.Index(s, "://"); k >= 0 {
		s = s[k+3:]
	} else if strings.HasPrefix(s, "//") {
		s = s[2:]
	}
	if k := strings.IndexAny(s, "/?#"); k >= 0 {
		s = s[:k]
	}
	if k := strings.LastIndexByte(s, '@'); k >= 0 {
		s = s[k+1:]
	}
	if strings.HasPrefix(s, "[") {
		if k := strings.IndexByte(s, ']'); k > 0 {
			if rest := s[k+1:]; strings.HasPrefix(rest, ":") {
				port = rest[1:]
			}
			return strings.ToLower(s[1:k]), port // an IPv6 literal
		}
		return "", ""
	}
	if strings.Count(s, ":") > 1 {
		return strings.ToLower(s), "" // a bare IPv6 literal has colons of its own (no net/netip: guard starts lean)
	}
	if k := strings.IndexByte(s, ':'); k >= 0 {
		s, port = s[:k], s[k+1:]
	}
	s = strings.TrimSuffix(strings.ToLower(s), ".")
	return s, port
}

// gitURL reports a git remote written as a URL or scp-like address rather
// than a remote's name or a local path: scheme://…, user@host:path, or
// host:path with no slash before the colon.
func gitURL(v string) bool {
	if strings.Contains(v, "://") {
		return !strings.HasPrefix(v, "file://")
	}
	k := strings.IndexByte(v, ':')
	return k > 0 && !strings.Contains(v[:k], "/")
}

// literalHostPrefix reports a partly dynamic URL whose host is literal
// (https://api.x.com/$PATH): the host is known even if the rest is not.
// The Args of a dynamic word hold its source text, so the host part must
// hold no $ or `.
func literalHostPrefix(v string) bool {
	k := strings.Index(v, "://")
	if k <= 0 || strings.ContainsAny(v[:k], "$`") {
		return false
	}
	rest := v[k+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		return false
	}
	return !strings.ContainsAny(rest[:end], "$`{}*?[")
}

func isMethod(a string) bool {
	switch a {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}

// listening reports nc -l (a bundle holding l) or ncat --listen: a server,
// which reaches no host.
func listening(c *Command) bool {
	for _, a := range c.Args[1:] {
		if a == "--listen" || a == "-U" || a == "--unixsock" {
			return true
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "lU") {
			return true
		}
	}
	return false
}

// plainOperands returns the indexes of c's arguments that are not options
// and not the value of an option that takes one (nc -p PORT, -w SECS, -s
// ADDR, -x PROXY).
func plainOperands(c *Command) []int {
	var out []int
	skip := false
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if skip {
			skip = false
			continue
		}
		if len(a) > 1 && a[0] == '-' && !(i < len(c.Dynamic) && c.Dynamic[i]) {
			// -p 80, -w 3: a lone option letter among those that take a value
			if len(a) == 2 && strings.IndexByte("pswxXqiIOGgTbemPc", a[1]) >= 0 {
				skip = true
			}
			continue
		}
		out = append(out, i)
	}
	return out
}

// installer names the package managers whose URL arguments reach a host.
func installer(name string) bool {
	switch name {
	case "npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "cargo", "gem", "go", "brew", "apt-get", "apt", "pipx", "poetry":
		return true
	}
	return false
}

// webSchemes are the URL schemes a fetch may use under a grant: the web
// and file transfer. Others (gopher://, dict://, file://, ldap://,
// telnet://, smb://, …) send raw bytes to any port or read local files.
func webScheme(s string) bool {
	switch strings.ToLower(s) {
	case "http", "https", "ftp", "ftps", "sftp", "scp", "ws", "wss":
		return true
	}
	return false
}

// urlScheme: curl or wget with a URL whose scheme is not one of the web's
// (a scheme-less URL is http, except where curl guesses another from the
// host: dict.x, ldap.x, imap.x; --proto-default names one).
func (w *walker) urlScheme(c int) bool {
	switch w.a.Commands[c].Name {
	case "curl", "wget", "wget2":
	default:
		return false
	}
	p := w.words(c)
	def := ""
	for _, wd := range p.Words {
		if wd.Name == "proto-default" {
			def = wd.Val
		}
	}
	for _, wd := range p.Words {
		if wd.Role != RoleURL || wd.Name != "" && wd.Name != "url" {
			continue
		}
		v := wd.Val
		if k := strings.Index(v, "://"); k >= 0 {
			if !webScheme(v[:k]) {
				return true
			}
			continue
		}
		if fileURLWord(v) {
			return true // file:/path
		}
		if def != "" && !webScheme(def) {
			return true
		}
		host := strings.ToLower(v)
		for _, g := range []string{"dict.", "ldap.", "imap.", "pop3.", "smtp.", "gopher."} {
			if strings.HasPrefix(host, g) {
				return true
			}
		}
	}
	return false
}

func fileURLWord(v string) bool {
	return len(v) >= 5 && strings.EqualFold(v[:5], "file:")
}

// hostOptionPrefix reports an option name that is a prefix of one of
// curl's and wget's options that name where a request goes.
func hostOptionPrefix(name string) bool {
	for _, o := range []string{"url", "proxy", "preproxy", "proxy1.0", "socks4", "socks4a", "socks5", "socks5-hostname", "doh-url",
		"resolve", "connect-to", "dns-servers", "unix-socket", "abstract-unix-socket", "config", "input-file", "execute", "proto-default"} {
		if strings.HasPrefix(o, name) {
			return true
		}
	}
	return false
}
