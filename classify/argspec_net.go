package classify

import (
	"slices"
	"strings"
)

// Specs of the network tools: what they fetch, write, run, and which
// values are passwords (RoleSecret, redacted in every record).

func netSpec(name string) *Spec {
	switch name {
	case "curl":
		return &curlSpec
	case "wget", "wget2":
		return &wgetSpec
	case "ssh":
		return &sshSpec
	case "scp":
		return &scpSpec
	case "sftp":
		return &sftpSpec
	case "rsync":
		return &rsyncSpec
	case "nc", "ncat", "netcat":
		return &ncSpec
	case "socat":
		return &socatSpec
	case "sshpass":
		return &sshpassSpec
	case "mysql", "mariadb":
		return &mysqlSpec
	case "mysqldump", "mariadb-dump":
		return &mysqldumpSpec
	case "mysqladmin", "mariadb-admin":
		return &mysqladminSpec
	case "psql", "pg_dump":
		return &psqlSpec
	case "redis-cli":
		return &redisSpec
	case "openssl":
		return &opensslSpec
	case "ssh-keygen", "ssh-add", "ssh-copy-id":
		return &sshKeySpec
	case "kubectl", "oc", "helm", "k3s", "microk8s.kubectl", "microk8s", "k0s":
		return &kubeSpec
	case "heroku":
		return &herokuSpec
	case "doctl":
		return &doctlSpec
	case "terraform", "tofu":
		return &terraformSpec
	case "ansible", "ansible-playbook", "ansible-vault", "gcloud", "az", "aws", "flux", "argocd", "k9s", "kubectx":
		return &opsSpec
	}
	return nil
}

// curlSpec: curl --help all (testdata/options/curl.txt); curl takes a
// unique prefix of a long option (--outp is --output). Left untyped:
// --unix-socket and --abstract-unix-socket reach a local socket (the
// Docker API is one), --engine loads an OpenSSL engine, and the proxies
// and DNS-over-HTTPS servers not typed as hosts yet.
var curlSpec = Spec{WritesHere: curlWritesHere, Uploads: true, Network: true, Grant: GrantPlain, Exec: curlExec, Abbrev: true, Operands: RoleURL, Untyped: []string{"unix-socket", "abstract-unix-socket", "engine", "socks4", "socks4a", "proxy1.0", "doh-url"}, Opts: []Opt{
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Short: "D", Long: []string{"dump-header", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc"}, Val: RoleWrite},
	{Short: "c", Long: []string{"cookie-jar"}, Val: RoleWrite},
	{Long: []string{"output-dir"}, Val: RoleDir},
	{Short: "K", Long: []string{"config"}, Val: RoleRead},
	{Long: []string{"netrc-file", "etag-compare"}, Val: RoleRead},
	{Short: "T", Long: []string{"upload-file"}, Val: RoleRead},
	{Short: "dF", Long: []string{"data", "data-binary", "data-ascii", "data-urlencode", "form", "json", "form-string", "data-raw", "url-query"}, Val: RoleRead},
	// -H @FILE sends FILE's lines as headers; -w @FILE prints FILE's text
	{Short: "Hw", Long: []string{"header", "proxy-header", "write-out"}, Val: RoleRead},
	{Short: "uU", Long: []string{"user", "proxy-user", "oauth2-bearer", "pass", "proxy-pass", "key-pass"}, Val: RoleSecret},
	{Short: "Eb", Long: []string{"cert", "key", "cacert", "capath", "proxy-cert", "proxy-key", "cookie", "pinnedpubkey"}, Val: RoleUse},
	// every option that names where the request goes is a URL or a host
	// the network tier judges (hosts.go): the URL, proxies, DNS over HTTPS;
	// --resolve and --connect-to name the address it really connects to
	{Long: []string{"url"}, Val: RoleURL},
	{Short: "x", Long: []string{"proxy"}, Val: RoleURL},
	{Long: []string{"preproxy", "proxy1.0", "socks4", "socks4a", "socks5", "socks5-hostname", "doh-url"}, Val: RoleURL},
	{Long: []string{"dns-servers"}, Val: RoleText},
	{Long: []string{"resolve", "connect-to"}, Val: RoleText},
	{Long: []string{"unix-socket", "abstract-unix-socket"}, Val: RoleUse},
	{Short: "AeXYyzCmrt", Long: []string{"user-agent", "referer", "request", "connect-timeout", "max-time", "retry", "range", "limit-rate", "interface", "proto", "proto-redir", "proto-default", "time-cond", "continue-at", "telnet-option", "max-filesize", "expect100-timeout", "retry-delay", "retry-max-time", "noproxy"}, Val: RoleText},
	{Long: []string{"proxy-cacert", "proxy-capath", "crlfile", "proxy-crlfile", "egd-file", "random-file", "pubkey", "proxy-pinnedpubkey"}, Val: RoleUse},
	{Long: []string{"tlspassword", "proxy-tlspassword"}, Val: RoleSecret},
	{Short: "PQ", Long: []string{"delegation", "tls-max", "ftp-ssl-ccc-mode", "dns-ipv4-addr", "dns-ipv6-addr", "mail-from", "mail-rcpt", "mail-auth", "ftp-port",
		"curves", "tls13-ciphers", "proxy-tls13-ciphers", "quote", "ftp-alternative-to-user", "ftp-account", "sasl-authzid", "dns-interface", "krb", "ciphers", "proxy-ciphers",
		"rate", "hostpubmd5", "hostpubsha256", "ftp-method", "happy-eyeballs-timeout-ms", "create-file-mode", "tlsuser", "proxy-tlsuser", "socks5-gssapi-service",
		"proxy-service-name", "service-name", "local-port", "max-redirs", "parallel-max", "login-options", "request-target", "aws-sigv4",
		"keepalive-time", "speed-time", "speed-limit", "cert-type", "key-type", "proxy-cert-type", "proxy-key-type", "tlsauthtype", "proxy-tlsauthtype", "tftp-blksize"}, Val: RoleText},
	{Short: "h", Long: []string{"help"}, Val: RoleText, Optional: true},
	{Short: "alM:NpBVj", Long: []string{"append", "cert-status", "compressed-ssh", "crlf", "disable-eprt", "disable-epsv", "doh-cert-status", "doh-insecure", "fail-early",
		"false-start", "form-escape", "ftp-create-dirs", "ftp-pasv", "ftp-pret", "ftp-skip-pasv-ip", "ftp-ssl-ccc", "ftp-ssl-control", "haproxy-protocol", "http0.9",
		"http1.0", "http3", "http3-only", "list-only", "location-trusted", "manual", "metalink", "next", "no-alpn", "no-buffer", "no-clobber", "no-keepalive", "no-npn",
		"no-sessionid", "ntlm-wb", "path-as-is", "post301", "post302", "post303", "proxy-anyauth", "proxy-basic", "proxy-digest", "proxy-insecure", "proxy-negotiate",
		"proxy-ntlm", "proxy-tlsv1", "proxytunnel", "raw", "remove-on-error", "retry-all-errors", "retry-connrefused", "sasl-ir", "socks5-basic", "socks5-gssapi",
		"socks5-gssapi-nec", "ssl", "ssl-allow-beast", "ssl-no-revoke", "ssl-reqd", "sslv2", "sslv3", "styled-output", "tcp-fastopen", "tcp-nodelay", "tftp-no-options",
		"tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3", "tr-encoding", "trace-time", "use-ascii", "version", "xattr", "mail-rcpt-allowfails", "proxy-ssl-allow-beast",
		"disallow-username-in-url", "parallel-immediate", "ssl-revoke-best-effort", "junk-session-cookies", "ignore-content-length", "suppress-connect-headers",
		"http2-prior-knowledge", "ssl-auto-client-cert", "proxy-ssl-auto-client-cert"}},
	{Short: "OLJfsSkvIiGgnqRZ#0123456", Long: []string{"remote-name", "create-dirs", "location", "remote-header-name", "fail", "silent", "show-error", "insecure", "verbose", "head", "include", "get", "globoff", "netrc", "netrc-optional", "compressed", "remote-name-all", "fail-with-body", "http1.1", "http2", "ipv4", "ipv6", "no-progress-meter", "progress-bar", "remote-time", "parallel", "disable", "anyauth", "basic", "digest", "ntlm", "negotiate"}},
}}

var wgetSpec = Spec{Grant: GrantPlain, GrantFor: []string{"wget"}, WritesHere: wgetWritesHere, Uploads: true, Network: true, Abbrev: true, Operands: RoleURL, Opts: []Opt{
	{Short: "O", Long: []string{"output-document"}, Val: RoleWrite},
	{Short: "oa", Long: []string{"output-file", "append-output", "save-cookies", "save-headers-to", "warc-file"}, Val: RoleWrite},
	{Short: "P", Long: []string{"directory-prefix"}, Val: RoleDir},
	{Short: "i", Long: []string{"input-file"}, Val: RoleRead},
	{Long: []string{"post-file", "body-file", "load-cookies", "config", "ca-certificate", "certificate", "private-key"}, Val: RoleRead},
	{Long: []string{"password", "http-password", "ftp-password", "proxy-password"}, Val: RoleSecret},
	{Short: "e", Long: []string{"execute"}, Val: RoleText},
	{Long: []string{"post-data", "body-data", "header", "user-agent", "user", "http-user", "ftp-user", "method", "referer", "quota", "wait", "level", "accept", "reject", "tries", "timeout"}, Val: RoleText},
	{Short: "UTtQlADRwBIX", Val: RoleText},
	{Long: []string{"use-askpass"}, Val: RoleProgram},
	{Long: []string{"ca-directory", "crl-file", "pinnedpubkey"}, Val: RoleUse},
	{Long: []string{"warc-tempdir"}, Val: RoleDir},
	{Long: []string{"rejected-log", "hsts-file"}, Val: RoleWrite},
	{Long: []string{"warc-dedup"}, Val: RoleRead},
	{Long: []string{"bind-address", "local-encoding", "remote-encoding", "retry-on-http-error", "prefer-family", "exclude-domains", "follow-tags", "ignore-tags",
		"backups", "default-page", "cut-dirs", "warc-max-size", "start-pos", "restrict-file-names", "secure-protocol", "limit-rate", "accept-regex",
		"reject-regex", "waitretry", "dns-timeout", "connect-timeout", "read-timeout", "ciphers", "warc-header", "report-speed", "progress", "compression",
		"certificate-type", "private-key-type", "regex-type", "proxy-user", "max-redirect", "domains", "base", "include-directories", "exclude-directories"}, Val: RoleText},
	{Short: "VdL", Long: []string{"no-config", "retry-connrefused", "no-clobber", "no-netrc", "show-progress", "no-if-modified-since", "no-use-server-timestamps",
		"random-wait", "no-proxy", "no-dns-cache", "ignore-case", "ask-password", "no-iri", "unlink", "xattr", "no-directories", "protocol-directories",
		"no-cache", "ignore-length", "no-http-keep-alive", "no-cookies", "keep-session-cookies", "content-on-error", "auth-no-challenge", "https-only",
		"no-hsts", "no-remove-listing", "no-glob", "no-passive-ftp", "preserve-permissions", "retr-symlinks", "ftps-implicit", "ftps-resume-ssl",
		"ftps-clear-data-connection", "ftps-fallback-to-ftp", "warc-cdx", "no-warc-compression", "no-warc-digests", "no-warc-keep-log", "delete-after",
		"convert-file-only", "strict-comments", "follow-ftp", "trust-server-names", "no-host-directories", "version", "debug", "relative", "help",
		"force-directories", "force-html", "adjust-extension", "backup-converted", "inet4-only", "inet6-only"}},
	{Short: "qvcNrkKpmbnxSEhHF46", Long: []string{"quiet", "verbose", "continue", "timestamping", "recursive", "mirror", "no-check-certificate", "no-verbose", "spider", "page-requisites", "convert-links", "background", "no-parent", "server-response", "content-disposition"}},
}}

// sshSpec: ssh HOST [COMMAND…]: options end at the host; the rest is a
// command line the remote (or local, for localhost) shell runs.
var sshSpec = Spec{Network: true, Exec: sshExec, InOrder: true, First: RoleText, Operands: RoleProgram, Opts: []Opt{
	{Short: "iF", Val: RoleUse},
	{Short: "E", Val: RoleWrite},
	{Short: "S", Val: RoleUse},
	{Short: "I", Val: RoleProgram}, // a PKCS#11 library ssh loads
	{Short: "o", Val: RoleText},
	{Short: "BbcDeJLlmOPpQRWw", Val: RoleText},
	{Short: "46AaCfGgKkMNnqsTtVvXxYy"},
}}

var scpSpec = Spec{Uploads: true, Network: true, Grant: GrantExact, Exec: scpExec, Operands: RoleRead, Last: RoleWrite, Opts: []Opt{
	{Short: "iF", Val: RoleUse},
	{Short: "SD", Val: RoleProgram},
	{Short: "olcJPX", Val: RoleText},
	{Short: "346ABCOpqRrTvs"}, // -s: use the SFTP protocol
}}

// rsyncSpec: rsync's options (rsync --help, 3.5.0; testdata/options/
// rsync.txt). --no-OPTION turns any option off. --early-input sends a
// file to the daemon, so it is read like the sources.
var rsyncSpec = Spec{Uploads: true, Network: true, Grant: GrantExact, Exec: rsyncExec, Abbrev: true, Negate: true, Operands: RoleRead, Last: RoleWrite, Opts: []Opt{
	{Short: "e", Long: []string{"rsh", "rsync-path"}, Val: RoleProgram},
	{Long: []string{"exclude-from", "include-from", "files-from", "password-file", "early-input"}, Val: RoleRead},
	{Long: []string{"log-file", "write-batch", "only-write-batch", "backup-dir", "partial-dir"}, Val: RoleWrite},
	{Short: "T", Long: []string{"temp-dir", "link-dest", "copy-dest", "compare-dest"}, Val: RoleDir},
	{Long: []string{"read-batch"}, Val: RoleRead},
	{Short: "f", Long: []string{"filter", "exclude", "include"}, Val: RolePattern},
	{Short: "B", Long: []string{"chmod", "chown", "usermap", "groupmap", "suffix", "bwlimit", "timeout", "max-size", "min-size", "block-size", "port", "out-format", "log-file-format", "info", "debug", "iconv", "sockopts", "remote-option", "checksum-choice", "compress-choice", "compress-level", "max-delete", "modify-window",
		"stderr", "max-alloc", "contimeout", "compress-threads", "skip-compress", "copy-as", "address", "outbuf", "stop-after", "stop-at", "protocol", "checksum-seed"}, Val: RoleText},
	{Short: "M", Val: RoleText},
	{Short: "avrRlLkKpEgoDtOJNUHAXSWxuinzcbdPhq0468", Long: []string{"archive", "verbose", "recursive", "relative", "links", "copy-links", "perms", "times", "group", "owner", "devices", "specials", "hard-links", "acls", "xattrs", "sparse", "whole-file", "one-file-system", "update", "dry-run", "compress", "checksum", "backup", "delete", "del", "delete-before", "delete-after", "delete-during", "delete-delay", "delete-excluded", "remove-source-files", "partial", "progress", "human-readable", "quiet", "stats", "itemize-changes", "list-only", "existing", "ignore-existing", "inplace", "append", "safe-links", "numeric-ids", "mkpath", "protect-args", "secluded-args",
		"no-motd", "inc-recursive", "no-inc-recursive", "no-i-r", "no-implied-dirs", "append-verify", "dirs", "old-dirs", "old-d", "copy-unsafe-links",
		"insecure-links", "confine-root", "munge-links", "copy-dirlinks", "keep-dirlinks", "executability", "copy-devices", "write-devices", "drop-D",
		"atimes", "open-noatime", "crtimes", "omit-dir-times", "omit-link-times", "super", "fake-super", "preallocate", "no-whole-file", "no-W", "no-D",
		"ignore-non-existing", "ignore-missing-args", "delete-missing-args", "ignore-errors", "force", "delay-updates", "prune-empty-dirs",
		"ignore-times", "size-only", "fuzzy", "cvs-exclude", "from0", "old-args", "trust-sender", "blocking-io", "8-bit-output", "fsync",
		"ipv4", "ipv6", "version", "help"}},
	{Short: "ymIC8sV"},
}}

// ncSpec: netcat's -e PROG and -c CMD (ncat --exec, --sh-exec) run a
// program with the connection as its stdin and stdout. The operands are a
// host and port, or with -U a socket's path: unknown.
var ncSpec = Spec{Uploads: true, Network: true, Operands: RoleUnknown, Opts: []Opt{
	{Short: "e", Long: []string{"exec"}, Val: RoleProgram},
	{Short: "c", Long: []string{"sh-exec", "lua-exec"}, Val: RoleProgram},
	{Short: "o", Long: []string{"output", "hex-dump", "append-output"}, Val: RoleWrite},
	{Short: "pswqiIOTVxX", Long: []string{"source-port", "source", "wait", "idle-timeout", "proxy", "proxy-type", "proxy-auth", "allow", "deny", "max-conns", "send-only", "recv-only"}, Val: RoleText},
	{Short: "lkuvnzdDhN46CrbtU", Long: []string{"listen", "keep-open", "udp", "verbose", "nodns", "zero", "help", "version", "ssl", "crlf", "broker", "chat", "telnet", "no-shutdown"}},
}}

// socatSpec: socat's two operands are addresses, TYPE:PARAMS[,OPTS]; the
// rules read their types (EXEC: and SYSTEM: run a command, OPEN:, FILE:,
// CREATE:, UNIX-*: name a path), so they are unknown here.
var socatSpec = Spec{Network: true, OneDash: true, Operands: RoleUnknown, Opts: []Opt{
	{Long: []string{"lf", "L", "W"}, Val: RoleWrite},
	{Long: []string{"b", "t", "T", "lp"}, Val: RoleText},
	{Long: []string{"d", "dd", "ddd", "D", "ly", "lm", "lu", "lh", "u", "U", "v", "x", "r", "R", "s", "g", "h", "hh", "hhh", "V", "4", "6"}},
}}

// socatAddrs are socat's address types by what their parameter is: a
// path it opens, reads, connects to or creates; anything else (TCP:,
// STDIO, -) names no file here. EXEC: and SYSTEM: (a command line) stay
// unknown: the wrappers judge them as the commands they are.
var socatAddrs = []struct {
	types []string
	role  Role
}{
	{[]string{"open", "file", "gopen", "pipe", "unix-connect", "unix-client", "unix-sendto", "unix", "local", "pty", "link"}, RoleUnknown},
	{[]string{"create", "creat", "unix-listen", "unix-recv", "unix-recvfrom", "unix-l"}, RoleWrite},
}

// socatRoles types each address operand: the path of a file or socket
// address becomes the word's value (socat - UNIX-CONNECT:PATH,OPTS names
// PATH), with the role of what socat does to it; other addresses are
// text.
func socatRoles(p *Parsed) {
	for i := range p.Words {
		wd := &p.Words[i]
		if wd.Name != "" {
			continue
		}
		typ, rest, ok := strings.Cut(wd.Val, ":")
		if !ok {
			if wd.Val == "-" || strings.EqualFold(wd.Val, "stdio") || strings.EqualFold(wd.Val, "stdin") || strings.EqualFold(wd.Val, "stdout") {
				wd.Role = RoleText
			}
			continue // a bare path is a file address: unknown
		}
		typ = strings.ToLower(typ)
		if typ == "exec" || typ == "system" {
			continue
		}
		wd.Role = RoleText
		for _, a := range socatAddrs {
			if contains(a.types, typ) {
				path, _, _ := strings.Cut(rest, ",")
				wd.Role, wd.Val = a.role, path
			}
		}
	}
}

var sshpassSpec = Spec{Network: true, InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "p", Val: RoleSecret},
	{Short: "f", Val: RoleUse},
	{Short: "dPO", Val: RoleText},
	{Short: "evh"},
}}

// mysqlSpec: the mysql client's options (mariadb --help, MariaDB 10.11;
// testdata/options/mysql.txt). -pSECRET only attached (-p alone
// prompts); my_getopt takes unique prefixes of long options. --pager runs
// a program, --tee and --debug's trace write a file, --plugin-dir loads
// plugins (mysql-plugins); -e and --init-command are mysql-runs'.
var mysqlSpec = Spec{Network: true, Abbrev: true, Operands: RoleText, Exec: mysqlExec, Opts: append([]Opt{
	{Short: "e", Long: []string{"execute"}, Val: RoleScript},
	{Long: []string{"init-command"}, Val: RoleScript},
	{Long: []string{"pager"}, Val: RoleProgram, Optional: true},
	{Long: []string{"tee"}, Val: RoleWrite},
	{Short: "D", Long: []string{"database"}, Val: RoleText},
	{Long: []string{"delimiter", "prompt", "max-allowed-packet", "max-join-size", "net-buffer-length", "quick-max-column-width", "select-limit", "server-arg"}, Val: RoleText},
	{Short: "?IABNcCTfHiLGboqrUstnvVEwX", Long: []string{"help", "abort-source-on-error", "auto-rehash", "no-auto-rehash", "auto-vertical-output", "batch", "binary-as-hex",
		"binary-mode", "column-names", "skip-column-names", "column-type-info", "comments", "compress", "connect-expired-password", "debug-check",
		"debug-info", "enable-cleartext-plugin", "force", "html", "ignore-spaces", "line-numbers", "skip-line-numbers", "local-infile", "named-commands",
		"no-beep", "one-database", "print-query-on-error", "progress-reports", "quick", "raw", "reconnect", "safe-updates", "i-am-a-dummy", "sandbox",
		"secure-auth", "show-warnings", "sigint-ignore", "silent", "table", "unbuffered", "verbose", "version", "vertical", "wait", "xml"}},
}, mysqlConnOpts...)}

// mysqlConnOpts are the options the mysql programs share: the
// connection, the option files (mysql-options-file), the plugins and the
// debug trace.
var mysqlConnOpts = []Opt{
	{Short: "p", Long: []string{"password"}, Val: RoleSecret, Optional: true},
	{Short: "uhPS", Long: []string{"user", "host", "port", "socket", "protocol", "connect-timeout", "default-character-set", "character-sets-dir", "tls-version",
		"ssl-cipher", "login-path", "defaults-group-suffix", "default-auth"}, Val: RoleText},
	{Long: []string{"ssl-ca", "ssl-capath", "ssl-cert", "ssl-key", "ssl-crl", "ssl-crlpath"}, Val: RoleUse},
	{Long: []string{"defaults-file", "defaults-extra-file", "plugin-dir"}, Val: RoleProgram},
	{Short: "#", Long: []string{"debug"}, Val: RoleText, Optional: true},
	{Long: []string{"ssl", "ssl-verify-server-cert", "no-defaults", "print-defaults"}},
}

// mysqldumpSpec: mysqldump's options (mariadb-dump --help, MariaDB
// 10.11): -r and --log-error write a file, -T/--tab writes one per table
// into a directory; --delete-master-logs deletes the server's binary logs
// (mysql-destroys).
var mysqldumpSpec = Spec{Network: true, Abbrev: true, Operands: RoleText, Exec: mysqlExec, Opts: append([]Opt{
	{Short: "r", Long: []string{"result-file", "log-error"}, Val: RoleWrite},
	{Short: "T", Long: []string{"tab"}, Val: RoleWrite},
	{Short: "w", Long: []string{"where"}, Val: RoleText},
	{Long: []string{"master-data", "dump-slave"}, Val: RoleText, Optional: true},
	{Long: []string{"as-of", "compatible", "fields-terminated-by", "fields-enclosed-by", "fields-optionally-enclosed-by", "fields-escaped-by", "ignore-database",
		"ignore-table-data", "ignore-table", "lines-terminated-by", "max-allowed-packet", "max-statement-time", "net-buffer-length", "system"}, Val: RoleText},
	{Short: "?AYyicCaBKHEeFfxlntdNqQRVvX", Long: []string{"all-databases", "all-tablespaces", "no-tablespaces", "add-drop-database", "add-drop-table", "add-drop-trigger",
		"add-locks", "allow-keywords", "apply-slave-statements", "comments", "compact", "complete-insert", "compress", "copy-s3-tables", "create-options",
		"databases", "debug-check", "debug-info", "delayed-insert", "delete-master-logs", "disable-keys", "dump-date", "dump-history", "events",
		"extended-insert", "flush-logs", "flush-privileges", "force", "gtid", "header", "help", "hex-blob", "include-master-host-port", "insert-ignore",
		"lock-all-tables", "lock-tables", "log-queries", "no-autocommit", "no-create-db", "no-create-info", "no-data", "no-data-med", "no-set-names", "opt",
		"order-by-primary", "order-by-size", "quick", "quote-names", "replace", "routines", "set-charset", "single-transaction", "skip-opt", "tables",
		"triggers", "tz-utc", "verbose", "version", "xml", "galera-info"}},
}, mysqlConnOpts...)}

// mysqladminSpec: mysqladmin's options (mariadb-admin --help, MariaDB
// 10.11); its operands are commands, of which drop, shutdown, kill and
// password destroy or change the server (mysql-destroys).
var mysqladminSpec = Spec{Network: true, Abbrev: true, Operands: RoleText, Exec: mysqlExec, Opts: append([]Opt{
	{Short: "ciw", Long: []string{"count", "sleep", "wait", "shutdown-timeout"}, Val: RoleText},
	{Short: "?fClbrsvVE", Long: []string{"debug-check", "debug-info", "force", "compress", "help", "local", "no-beep", "relative", "silent", "verbose", "version",
		"vertical", "wait-for-all-slaves"}},
}, mysqlConnOpts...)}

var psqlSpec = Spec{Network: true, Abbrev: true, Operands: RoleText, Exec: psqlExec, Opts: []Opt{
	{Short: "c", Long: []string{"command"}, Val: RoleScript},
	{Short: "f", Long: []string{"file"}, Val: RoleRead},
	{Short: "o", Long: []string{"output", "log-file"}, Val: RoleWrite},
	{Short: "L", Val: RoleWrite},
	{Short: "hpUdvPTFR", Long: []string{"host", "port", "username", "dbname", "set", "variable", "pset", "table-attr", "field-separator", "record-separator"}, Val: RoleText},
	{Short: "AabeEHlnqsStWwXxz01V", Long: []string{"no-align", "echo-all", "echo-errors", "echo-queries", "echo-hidden", "html", "list", "no-readline", "quiet", "single-step", "single-line", "tuples-only", "password", "no-password", "no-psqlrc", "expanded", "single-transaction", "csv",
		"field-separator-zero", "record-separator-zero", "help", "version"}},
}}

var redisSpec = Spec{Network: true, Operands: RoleText, Opts: []Opt{
	{Short: "a", Long: []string{"pass", "askpass-value"}, Val: RoleSecret},
	{Short: "u", Val: RoleSecret}, // a URI with its password
	{Short: "hpsnrid", Long: []string{"user", "sni", "cacert", "cert", "key", "tls-ciphers", "eval"}, Val: RoleText},
	{Short: "xceV", Long: []string{"tls", "insecure", "raw", "no-raw", "no-auth-warning", "askpass", "pipe", "scan", "stat", "latency", "bigkeys", "help", "version"}},
}}

// opensslSpec: openssl SUBCOMMAND with one-dash options; -k, -pass,
// -passin, -passout and -K carry keys and passwords.
var opensslSpec = Spec{Sub: opensslSub, Exec: opensslExec}

// opensslExec: -engine and -provider-path load a shared library (code),
// and so does a -provider other than OpenSSL's own.
var opensslExec = []ExecRule{
	{ID: "openssl-module", Check: checkOpensslModule, Reason: "openssl -engine/-provider/-provider-path loads a shared library"},
}

func checkOpensslModule(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		switch {
		case wd.Name == "engine", wd.Name == "provider-path",
			wd.Name == "provider" && wd.Val != "default" && wd.Val != "legacy" && wd.Val != "base" && wd.Val != "fips" && wd.Val != "null":
			m.MarkWord(c, wd, "openssl -"+wd.Name+" "+wd.Val+" loads a shared library")
		}
	}
}

func opensslSub(string) *Spec { return &opensslSubSpec }

var opensslSubSpec = Spec{OneDash: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"k", "pass", "passin", "passout", "K", "kfile_pass", "password"}, Val: RoleSecret},
	{Long: []string{"in", "kfile", "key", "inkey", "CAfile", "CAkey", "cert", "config", "signkey", "infiles"}, Val: RoleRead},
	{Long: []string{"out", "keyout"}, Val: RoleWrite},
	{Long: []string{"iv", "S", "md", "subj", "days", "inform", "outform", "connect", "servername", "name", "newkey", "iter", "rand", "writerand", "engine", "provider", "provider-path", "propquery", "nameopt", "certopt", "set_serial", "extensions", "reqexts", "addext", "cipher", "digest", "curve", "pkeyopt", "keyform", "CAform", "trusted"}, Val: RoleText},
}}

var sshKeySpec = Spec{Operands: RoleUse, Opts: []Opt{
	{Short: "fi", Val: RoleUse},
	{Short: "NP", Val: RoleSecret},
	{Short: "tbCIVnmZaOSsEYzhwJjKkQqulLycvDeFGgHMRrTWxXp", Val: RoleNone},
}}

// opsSpec: cluster and deployment CLIs. Their key and config options
// name files they use to authenticate, never print.
var opsSpec = Spec{Operands: RoleUnknown, EffectIf: opsEffect, Exec: cloudExec, Opts: []Opt{
	{Long: []string{"kubeconfig", "private-key", "key-file", "vault-password-file", "client-key", "client-certificate", "certificate-authority", "identity", "ssh-key", "keyfile", "credentials-file", "service-account-key-file", "cert-file", "ca-file"}, Val: RoleUse},
	{Short: "i", Long: []string{"inventory"}, Val: RoleText},
	{Short: "f", Long: []string{"filename", "values", "var-file"}, Val: RoleRead},
	{Short: "nsel", Long: []string{"namespace", "server", "context", "cluster", "user", "token", "as", "as-group", "as-uid", "extra-vars", "limit", "tags", "output", "selector"}, Val: RoleText},
	// aws, gcloud and az: their global options and the everyday ones
	// (testdata/options/cloud.txt). --endpoint-url sends the request
	// elsewhere; --cli-input-json and --flags-file read a file.
	{Long: []string{"endpoint-url"}, Val: RoleURL},
	{Long: []string{"cli-input-json", "cli-input-yaml", "flags-file", "ca-bundle"}, Val: RoleRead},
	{Short: "goc", Long: []string{"profile", "region", "query", "page-size", "max-items", "starting-token", "exclude", "include", "acl", "sse", "content-type",
		"cache-control", "metadata", "storage-class", "color", "cli-binary-format", "cli-read-timeout", "cli-connect-timeout", "project", "zone", "format",
		"filter", "sort-by", "verbosity", "account", "configuration", "impersonate-service-account", "billing-project", "trace-token", "subscription",
		"resource-group", "name", "location", "ids", "instance-ids", "bucket", "key", "function-name", "log-group-name", "cluster-name", "stack-name",
		"template-file", "parameters", "page", "become-user", "connection", "forks", "module-path", "check-mode-diff", "skip-tags", "start-at-task"}, Val: RoleText},
	{Short: "qyvCDKb", Long: []string{"no-cli-pager", "no-paginate", "debug", "no-verify-ssl", "recursive", "dryrun", "dry-run", "follow-symlinks", "no-follow-symlinks",
		"size-only", "exact-timestamps", "quiet", "only-show-errors", "human-readable", "summarize", "no-sign-request", "log-http", "user-output-enabled",
		"no-user-output-enabled", "verbose", "yes", "no-wait", "help", "version", "check", "diff", "become", "ask-become-pass", "list-hosts", "list-tasks",
		"list-tags", "syntax-check", "step", "flush-cache", "force-handlers"}},
}}

// terraformSpec: terraform [-chdir=DIR] SUB [-flag=value…] (Go flags, one
// dash; testdata/options/terraform.txt). -plugin-dir loads provider
// binaries from a directory, -from-module fetches a module (untyped);
// -out, -state-out, -backup and -generate-config-out write.
var terraformSpec = Spec{ReadOnly: VersionSubUse, ReadOnlyFor: []string{"terraform"}, Network: true, Grant: GrantSub, OneDash: true, Sub: terraformSub, EffectIf: opsEffect, Exec: terraformExec, Opts: []Opt{
	{Long: []string{"chdir"}, Val: RoleDir},
	{Long: []string{"help", "version", "h", "v"}},
}}

func terraformSub(string) *Spec { return &terraformSubSpec }

// terraformExec: what a '*' grant of terraform does not cover. An apply
// that skips its own confirmation (-auto-approve) or destroys (-destroy)
// changes real infrastructure with no one looking at the plan; console
// evaluates expressions that read any file (file("~/.ssh/id_rsa")) and
// print it; the state subcommands that drop or overwrite state, a
// workspace delete and force-unlock lose track of what exists.
var terraformExec = []ExecRule{
	{ID: "terraform-unattended", Sub: []string{"apply"}, Opts: []string{"auto-approve", "destroy"},
		Reason: "terraform apply -auto-approve/-destroy changes infrastructure without showing the plan"},
	{ID: "terraform-console", Sub: []string{"console"}, Rest: true,
		Reason: "terraform console evaluates expressions that read any file"},
	{ID: "terraform-state-loss", Sub: []string{"state", "workspace", "force-unlock"}, Check: checkTerraformState,
		Reason: "terraform state rm/push/mv, workspace delete or force-unlock loses track of real infrastructure"},
	{ID: "terraform-saved-plan", Sub: []string{"apply"}, Check: checkTerraformPlanFile,
		Reason: "terraform apply PLANFILE applies the saved plan without asking"},
	{ID: "terraform-unattended-change", Sub: []string{"taint", "refresh", "test"}, Check: checkTerraformSub,
		Reason: "terraform taint/refresh/test changes real infrastructure or its state with no plan shown"},
}

// checkTerraformSub marks the subcommand word of the rule's subcommands:
// taint schedules a destroy and re-create for the next apply, refresh
// rewrites state from what exists with no plan shown (it is apply
// -refresh-only -auto-approve), test creates and destroys real resources.
func checkTerraformSub(c *Command, p Parsed, m Marker) {
	if p.Sub > 0 && p.Sub < len(c.Args) {
		m.Mark(p.Sub, "terraform "+c.Args[p.Sub]+" changes real infrastructure or its state with no plan shown")
	}
}

// checkTerraformPlanFile marks the operand of terraform apply: a saved
// plan (or, before 0.15, a directory) that apply carries out without
// showing it or asking, whatever it holds, destroys included.
func checkTerraformPlanFile(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if wd.Name == "" && wd.Arg > p.Sub && !wd.Rest {
			m.MarkWord(c, wd, "terraform apply "+wd.Val+" applies a saved plan without showing it or asking; it may destroy")
		}
	}
}

// checkTerraformState marks the actions of terraform state and workspace
// that drop or overwrite state, and force-unlock.
func checkTerraformState(c *Command, p Parsed, m Marker) {
	const why = "terraform state rm/push/mv, workspace delete or force-unlock loses track of real infrastructure"
	sub := p.SubName(c.Args)
	for _, wd := range p.Words {
		if wd.Name != "" || wd.Arg <= p.Sub {
			continue
		}
		if sub == "force-unlock" || sub == "state" && slices.Contains([]string{"rm", "push", "mv", "replace-provider"}, wd.Val) ||
			sub == "workspace" && wd.Val == "delete" {
			m.MarkWord(c, wd, why)
		}
		return
	}
}

var terraformSubSpec = Spec{OneDash: true, Operands: RoleText, Untyped: []string{"plugin-dir", "from-module"}, Opts: []Opt{
	{Long: []string{"var-file", "plan", "backend-config"}, Val: RoleRead},
	{Long: []string{"out", "state-out", "backup", "generate-config-out"}, Val: RoleWrite},
	{Long: []string{"state", "config"}, Val: RoleUse},
	{Long: []string{"refresh", "replace", "target", "var", "lock", "lock-timeout", "input", "parallelism", "backend", "get", "lockfile", "type",
		"module-depth", "filter", "cloud-run", "test-directory", "list", "write", "check"}, Val: RoleText},
	{Long: []string{"destroy", "refresh-only", "compact-warnings", "detailed-exitcode", "no-color", "json", "force-copy", "reconfigure", "migrate-state",
		"upgrade", "ignore-remote-version", "auto-approve", "diff", "recursive", "raw", "draw-cycles", "verbose", "update", "no-tests", "help", "h"}},
}}

// sftpSpec (sftp's usage, testdata/options/scp.txt): like scp's, but -b
// reads a batch of commands (!cmd runs a local shell) and -s names the
// server subsystem or program to run.
var sftpSpec = Spec{Uploads: true, Network: true, Exec: scpExec, Operands: RoleText, Opts: []Opt{
	{Short: "iF", Val: RoleUse},
	{Short: "SDs", Val: RoleProgram},
	{Short: "b", Val: RoleRead},
	{Short: "olcJPXBR", Val: RoleText},
	{Short: "46AaCfNpqrv"},
}}

// kubeSpec: kubectl (and oc, k3s kubectl) and helm, whose -i is a flag
// (kubectl exec -i, helm upgrade -i), not ansible's inventory: the global options
// (kubectl options), those of the everyday subcommands (kubectl SUB
// --help, helm SUB --help; testdata/options/kubectl.txt). Credentials and
// kubeconfigs are used files, -f/--values/--set-file read, helm
// --post-renderer runs a program. (-f is --filename, not logs' --follow;
// -p takes patch's value, not logs' --previous.)
var kubeSpec = Spec{ReadOnly: VersionSubUse, ReadOnlyFor: []string{"kubectl"}, Network: true, NetworkFor: []string{"kubectl", "oc", "helm"}, Grant: GrantSub, GrantFor: []string{"kubectl", "helm"}, Exec: kubeExec, Operands: RoleUnknown, EffectIf: kubeEffect, Opts: []Opt{
	{Long: []string{"kubeconfig", "client-key", "client-certificate", "certificate-authority", "key-file", "cert-file", "ca-file", "registry-config", "repository-config", "kube-ca-file"}, Val: RoleUse},
	{Short: "fk", Long: []string{"filename", "values", "kustomize", "patch-file", "set-file"}, Val: RoleRead},
	{Long: []string{"token", "password"}, Val: RoleSecret},
	{Long: []string{"profile-output", "output-dir"}, Val: RoleWrite},
	{Long: []string{"cache-dir"}, Val: RoleDir},
	{Long: []string{"post-renderer"}, Val: RoleProgram},
	{Short: "nslocLpv", Long: []string{
		"as", "as-group", "as-uid", "cluster", "context", "log-flush-frequency", "namespace", "profile", "request-timeout", "server", "tls-server-name",
		"user", "username", "v", "vmodule", "chunk-size", "field-selector", "label-columns", "output", "raw", "selector", "sort-by", "subresource",
		"template", "container", "limit-bytes", "max-log-requests", "pod-running-timeout", "since", "since-time", "tail", "cascade", "dry-run",
		"field-manager", "grace-period", "prune-allowlist", "timeout", "validate", "address", "current-replicas", "replicas", "resource-version",
		"api-version", "concurrency", "retries", "annotations", "env", "image", "image-pull-policy", "labels", "override-type", "overrides", "port",
		"restart", "api-group", "categories", "verbs", "for", "patch", "type", "cluster-ip", "external-ip", "load-balancer-ip", "name", "protocol",
		"session-affinity", "target-port", "cpu-percent", "max", "min", "set", "set-string", "set-json", "set-literal", "version", "repo", "description",
		"history-max", "revision", "api-versions", "kube-version", "release-name", "kube-context", "post-renderer-args", "keyring", "show-only",
		"name-template", "repository-cache", "kube-apiserver", "kube-token", "kube-as-user", "kube-as-group", "kube-tls-server-name", "burst-limit", "qps"}, Val: RoleText},
	{Short: "itwARqh", Long: []string{
		"disable-compression", "insecure-skip-tls-verify", "match-server-version", "warnings-as-errors", "all-namespaces", "allow-missing-template-keys",
		"ignore-not-found", "no-headers", "output-watch-events", "recursive", "server-print", "show-kind", "show-labels", "show-managed-fields", "watch",
		"watch-only", "show-events", "all-containers", "all-pods", "follow", "ignore-errors", "insecure-skip-tls-verify-backend", "prefix", "previous",
		"timestamps", "all", "force", "force-conflicts", "openapi-patch", "overwrite", "prune", "server-side", "wait", "interactive", "now", "quiet",
		"stdin", "tty", "edit", "save-config", "windows-line-endings", "output-patch", "list", "local", "no-preserve", "attach", "command", "expose",
		"leave-stdin-open", "privileged", "rm", "client", "cached", "namespaced", "create-namespace", "wait-for-jobs", "atomic", "debug", "generate-name",
		"devel", "dependency-update", "skip-crds", "reuse-values", "reset-values", "reset-then-reuse-values", "install", "cleanup-on-fail", "plain-http",
		"render-subchart-notes", "verify", "no-hooks", "disable-openapi-validation", "take-ownership", "include-crds", "is-upgrade", "date", "deployed",
		"failed", "pending", "superseded", "uninstalled", "uninstalling", "short", "keep-history", "enable-dns", "pass-credentials",
		"skip-schema-validation", "hide-notes", "rollback-on-failure", "skip-refresh", "update", "help", "stdin", "tty"}},
}}

// herokuSpec, doctlSpec: hosting CLIs, known here for the subcommands
// that print their tokens (secrets.go; gh's spec, in argspec_build.go,
// carries its own); their other words keep the conservative reading.
var herokuSpec = Spec{Operands: RoleUnknown, EffectIf: herokuEffect}

var doctlSpec = Spec{Operands: RoleUnknown, EffectIf: doctlEffect}

// rsyncExec is the exec-capable argument table of rsyncSpec's programs (see [ExecRule]).
var rsyncExec = []ExecRule{
	{ID: "rsync-rsh", Opts: []string{"rsh", "rsync-path", "e"},
		Reason: "rsync -e/--rsh/--rsync-path runs another program"},
}

// curlExec is the exec-capable argument table of curlSpec's programs (see [ExecRule]).
var curlExec = []ExecRule{
	{ID: "curl-output", Opts: []string{"config", "K"},
		Reason: "curl -K reads its options from a file"},
}

// scpExec is the exec-capable argument table of scpSpec and sftpSpec's programs (see [ExecRule]).
var scpExec = []ExecRule{
	{ID: "scp-program", Opts: []string{"S", "o", "F", "D"},
		Reason: "scp -S/-o/-F runs another program"},
	{ID: "sftp-batch", Only: []string{"sftp"}, Opts: []string{"b", "s"},
		Reason: "sftp -b runs a batch file, whose !command lines run in the local shell; -s names the server program"},
}

// sshExec is the exec-capable argument table of sshSpec's programs (see [ExecRule]).
var sshExec = []ExecRule{
	{ID: "ssh-command", Check: checkSSH,
		Reason: "ssh -o ProxyCommand/LocalCommand, -F or a remote command runs a program"},
}

var sshExecKeys = []string{"proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "remotecommand", "match", "include", "proxyusefdpass"}

// checkSSH marks -o with a key that runs a program, -F (a config file,
// which can hold such keys) and the remote command after the host.
func checkSSH(c *Command, p Parsed, m Marker) {
	const why = "ssh -o ProxyCommand/LocalCommand, -F or a remote command runs a program"
	for _, wd := range p.Words {
		switch {
		case wd.Name == "o":
			key := strings.ToLower(strings.TrimLeft(wd.Val, " "))
			key, _, _ = strings.Cut(key, "=")
			key, _, _ = strings.Cut(key, " ")
			if slices.Contains(sshExecKeys, key) {
				m.MarkWord(c, wd, why)
			}
		case wd.Name == "F", wd.Role == RoleProgram, wd.Role == RoleUnknown:
			m.MarkWord(c, wd, why)
		}
	}
}

// kubeExec is kubectl's, oc's and helm's exec-capable argument table
// (see [ExecRule]); k3s, k0s and microk8s share their spec, not it.
var kubeExec = []ExecRule{
	{ID: "kubectl-elsewhere", Only: []string{"kubectl", "oc", "helm", "k3s", "k0s", "microk8s", "microk8s.kubectl"}, Opts: []string{"s", "server", "kubeconfig", "token", "as", "as-group", "as-uid", "certificate-authority", "client-key", "client-certificate"},
		Reason: "kubectl --server/--kubeconfig/--token/--as sends credentials elsewhere or runs an exec auth plugin"},
	{ID: "kubectl-runs", Check: checkKube,
		Reason: "kubectl exec/run/debug/attach/cp/port-forward/proxy, a plugin, helm plugin/repo add/uninstall: runs a program, opens a way in or destroys"},
}

// kubeSubs are the kubectl (and oc) subcommands a '*' grant covers: they
// read, or change the cluster's objects through the API as the grant
// means. Everything else asks, by the closed-world rule: exec, run,
// debug, attach, cp, port-forward, proxy and rsh run a program in the
// cluster or open a way into it; edit runs an editor; any other word is
// a plugin (kubectl-NAME on PATH), which is a program guard cannot read.
var kubeSubs = []string{"get", "describe", "logs", "explain", "api-resources", "api-versions", "version", "cluster-info", "top", "diff",
	"apply", "create", "delete", "patch", "label", "annotate", "scale", "rollout", "expose", "set", "autoscale", "wait", "events", "auth",
	"config", "kustomize", "completion", "certificate", "cordon", "uncordon", "drain", "taint", "replace", "options", "help",
	"status", "project", "projects", "new-app", "new-project", "start-build", "whoami"}

// kubeRuns are the subcommands kubeSubs leaves out because they run a
// program or open a way in (named in the reason; any other word is a
// plugin).
var kubeRuns = []string{"exec", "run", "debug", "attach", "cp", "port-forward", "proxy", "edit", "rsh", "rsync", "plugin"}

// kubeConfigSubs are the kubectl config actions that only read or switch
// among the contexts the kubeconfig holds; set-credentials (an exec auth
// plugin runs on every later call), set, unset and the deletes change it.
var kubeConfigSubs = []string{"view", "get-contexts", "get-clusters", "get-users", "current-context", "use-context", "use"}

// helmSubs: helm's subcommands a '*' grant covers; get prints a
// release's values (its passwords among them), plugin installs and runs
// code, repo add and registry login store a source or a credential, and
// uninstall destroys a release: those, and any other word (a helm
// plugin), ask.
var helmSubs = []string{"list", "ls", "status", "history", "hist", "search", "show", "inspect", "template", "lint", "version", "env", "install",
	"upgrade", "rollback", "dependency", "dep", "dependencies", "pull", "fetch", "package", "verify", "create", "test", "completion", "help"}

// helmActions: the actions of helm's grouping subcommands that only read
// or refresh (helm repo list/update, helm get notes, helm plugin list).
var helmActions = map[string][]string{
	"repo":   {"list", "ls", "update", "up", "index", "remove", "rm"},
	"get":    {"notes", "metadata", "hooks"},
	"plugin": {"list", "ls"},
}

// helmWhy says why a grouping subcommand's other actions ask.
var helmWhy = map[string]string{
	"repo":   "helm repo add stores a chart source a later install trusts",
	"get":    "helm get values|all|manifest prints a release's values and secrets",
	"plugin": "helm plugin install|update runs a plugin's code",
}

// k8sDistros are the distributions that carry kubectl as a subcommand
// (k3s kubectl …), with their own subcommands that only report.
var k8sDistros = map[string][]string{
	"k3s":      {"check-config", "--version", "-v"},
	"k0s":      {"status", "version"},
	"microk8s": {"status", "version", "inspect"},
}

// checkKube marks a kubectl, oc, helm or distribution subcommand that the
// tables above do not cover, so that a '*' grant asks for it by name.
func checkKube(c *Command, p Parsed, m Marker) {
	var ops []Word
	for _, wd := range p.Words {
		if wd.Name == "" && !wd.Rest {
			ops = append(ops, wd)
		}
	}
	if len(ops) == 0 {
		return
	}
	prog := c.Name
	if own, ok := k8sDistros[prog]; ok {
		if ops[0].Val != "kubectl" {
			if !slices.Contains(own, ops[0].Val) {
				m.MarkWord(c, ops[0], prog+" "+ops[0].Val+" is not a subcommand guard knows to only report")
			}
			return
		}
		ops, prog = ops[1:], "kubectl"
		if len(ops) == 0 {
			return
		}
	}
	sub := ops[0].Val
	if prog == "helm" {
		acts, grouped := helmActions[sub]
		switch {
		case grouped && (len(ops) < 2 || !slices.Contains(acts, ops[1].Val)):
			why := helmWhy[sub]
			m.MarkWord(c, ops[0], why)
			if len(ops) > 1 {
				m.MarkWord(c, ops[1], why)
			}
		case !grouped && !slices.Contains(helmSubs, sub):
			why := "helm " + sub + " is not a subcommand guard knows (a plugin is a program)"
			if slices.Contains([]string{"uninstall", "delete", "del", "un"}, sub) {
				why = "helm " + sub + " destroys a release"
			}
			m.MarkWord(c, ops[0], why)
		}
		return
	}
	switch {
	case !slices.Contains(kubeSubs, sub):
		why := "kubectl " + sub + " is not a subcommand guard knows (a plugin is a program)"
		if slices.Contains(kubeRuns, sub) {
			why = "kubectl " + sub + " runs a program in the cluster or opens a way into it"
		}
		m.MarkWord(c, ops[0], why)
	case sub == "config" && len(ops) > 1 && !slices.Contains(kubeConfigSubs, ops[1].Val):
		m.MarkWord(c, ops[1], "kubectl config "+ops[1].Val+" changes the kubeconfig, which can hold an exec auth plugin")
	}
	// get --raw reaches any API path (a secret's too); -o
	// go-template-file=F and --template F print the file F (a template's
	// text outside its actions is output as it is); whoami -t prints the
	// session token
	for _, wd := range p.Words {
		if wd.Name == "raw" && sub == "get" || (wd.Name == "output" || wd.Name == "o") && strings.Contains(wd.Val, "-file") ||
			wd.Name == "template" || sub == "whoami" && (wd.Name == "t" || wd.Name == "show-token") {
			m.MarkWord(c, wd, "kubectl get --raw reads any API path, -o go-template-file prints a file, oc whoami -t prints the token")
		}
	}
}

// psqlExec: what a psql command line runs besides SQL. -f reads a script
// guard cannot see (its \! runs a shell); -o/-L '|CMD' pipe into a
// command; a -c script or a -v value is checked for the meta-commands
// and the SQL that run a program or touch files (see psqlRuns).
var psqlExec = []ExecRule{
	{ID: "psql-script-file", Opts: []string{"file", "f"},
		Reason: "psql -f runs a script guard cannot read (\\! in it runs a shell command)"},
	{ID: "psql-runs", Check: checkPsql,
		Reason: "psql \\!, \\o |CMD, COPY … PROGRAM or a backquoted value runs a command; \\copy, \\i, COPY … FROM 'FILE' or pg_read_file reach files"},
}

// psqlMeta are the psql meta-commands (after the backslash) a '*' grant
// covers: they describe, format or echo. Any other (\! runs a shell, \o,
// \g and \w write or pipe, \i and \ir run a file, \e edits, \copy
// reaches files and programs, \setenv, \lo_export) asks.
var psqlMeta = strings.Fields(`d l list x a t timing conninfo echo qecho q quit pset dt dn df di dv ds du
	dg dp dx dT dD dE dm db dc dC dd des det deu dew dF dFd dFp dFt dl dL dO dRp dRs dy drds dconfig sf sv encoding
	errverbose p print r reset H C f z set unset if elif else endif prompt gdesc crosstabview gset bind parse bind_named close warn watch`)

// sqlRuns are the SQL words that reach past the database: COPY … TO/FROM
// PROGRAM runs a command as the server, the server's file functions read
// and write its files, and a client LOCAL INFILE sends a file of this
// machine.
var sqlRuns = []string{"program", "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "lo_import", "lo_export", "pg_execute_server_program",
	"pg_stat_file", "pg_file_write", "pg_file_rename", "pg_file_unlink", "pg_logdir_ls", "local infile", "load_file", "into outfile",
	"into dumpfile", "load data"}

// sqlCopyFile reports a server-side COPY that names a file: COPY t FROM
// '/etc/passwd' reads it, COPY t TO '/x' writes it, as the server's user
// on the server's machine (this one, for a local database). COPY …
// FROM STDIN and TO STDOUT stay within the connection.
func sqlCopyFile(s string) bool {
	l := strings.ToLower(s)
	for i := 0; ; {
		k := strings.Index(l[i:], "copy")
		if k < 0 {
			return false
		}
		k += i
		i = k + 4
		if k > 0 && (isIdentByte(l[k-1]) || l[k-1] == '\\') {
			continue // \copy is the client's (a meta-command, asked apart); a name ending in copy
		}
		if i < len(l) && isIdentByte(l[i]) {
			continue
		}
		end := strings.IndexByte(l[i:], ';')
		if end < 0 {
			end = len(l) - i
		}
		f := strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(l[i : i+end]))
		for j := 0; j+1 < len(f); j++ {
			if (f[j] == "from" || f[j] == "to") && (strings.HasPrefix(f[j+1], "'") || strings.HasPrefix(f[j+1], "e'") || strings.HasPrefix(f[j+1], "$")) {
				return true
			}
		}
	}
}

// checkPsql marks a -c script or -v/--set value that runs a command
// (a meta-command outside psqlMeta, a backquote, COPY … PROGRAM) and an
// output that pipes into one.
func checkPsql(c *Command, p Parsed, m Marker) {
	const why = "psql \\!, \\o |CMD, COPY … PROGRAM or a backquoted value runs a command; \\copy, \\i, COPY … FROM 'FILE' or pg_read_file reach files"
	for _, wd := range p.Words {
		switch wd.Name {
		case "command", "v", "set", "variable", "pset":
			if psqlRunsText(wd.Val) {
				m.MarkWord(c, wd, why)
			}
		case "output", "log-file", "L":
			if strings.HasPrefix(strings.TrimSpace(wd.Val), "|") {
				m.MarkWord(c, wd, why)
			}
		}
	}
}

func psqlRunsText(s string) bool {
	if strings.Contains(s, "`") || sqlReaches(s) || sqlCopyFile(s) {
		return true
	}
	for rest := s; ; {
		i := strings.IndexByte(rest, '\\')
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
		n := 0
		for n < len(rest) && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] == '_' || rest[n] == '+') {
			n++
		}
		cmd := strings.TrimRight(rest[:n], "+")
		if cmd == "" && strings.HasPrefix(rest, "\\") {
			rest = rest[1:] // \\ separates a meta-command from SQL
			continue
		}
		if !slices.Contains(psqlMeta, cmd) {
			return true
		}
	}
}

// sqlReaches reports SQL text with one of sqlRuns's words.
func sqlReaches(s string) bool {
	l := strings.Join(strings.Fields(strings.ToLower(s)), " ")
	for _, w := range sqlRuns {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// mysqlExec: what a mysql command line runs besides SQL: --defaults-file
// and --defaults-extra-file read options guard cannot see (pager=,
// init-command=), and an -e or --init-command text with a client command
// that runs or pipes (system, \!, pager, \P, tee, source, edit) or SQL
// that reaches files (LOCAL INFILE, LOAD_FILE, INTO OUTFILE).
var mysqlExec = []ExecRule{
	{ID: "mysql-options-file", Opts: []string{"defaults-file", "defaults-extra-file"},
		Reason: "mysql --defaults-file reads options guard cannot see (a pager, an init command)"},
	{ID: "mysql-runs", Check: checkMysql,
		Reason: "mysql system/\\!/pager/tee/source or LOCAL INFILE runs a command or reaches a file"},
	{ID: "mysql-pager", Only: []string{"mysql", "mariadb"}, Opts: []string{"pager"},
		Reason: "mysql --pager runs a program"},
	{ID: "mysql-plugins", Opts: []string{"plugin-dir", "debug", "#"},
		Reason: "mysql --plugin-dir loads plugins, --debug writes a trace file"},
	{ID: "mysqldump-destroys", Only: []string{"mysqldump", "mariadb-dump"}, Opts: []string{"delete-master-logs"},
		Reason: "mysqldump --delete-master-logs deletes the server's binary logs"},
	{ID: "mysqladmin-destroys", Only: []string{"mysqladmin", "mariadb-admin"}, Words: []string{"drop", "shutdown", "kill", "password", "old-password", "stop-slave", "stop-replica"},
		Reason: "mysqladmin drop/shutdown/kill/password destroys or changes the server"},
}

// mysqlClientCmds are the mysql client's commands that run a program,
// pipe, write or read a file, by name and by their backslash letter.
var mysqlClientCmds = []string{"system", "pager", "tee", "source", "edit", "connect"}

// mysqlBackslash are the same commands by their backslash spelling, which
// is case-sensitive (\P is pager, \p prints the statement).
var mysqlBackslash = []string{`\!`, `\P`, `\T`, `\.`, `\e`, `\r`}

func checkMysql(c *Command, p Parsed, m Marker) {
	const why = "mysql system/\\!/pager/tee/source or LOCAL INFILE runs a command or reaches a file"
	for _, wd := range p.Words {
		if wd.Name != "execute" && wd.Name != "init-command" {
			continue
		}
		l := strings.ToLower(wd.Val)
		hit := sqlReaches(l)
		for _, cmd := range mysqlBackslash {
			hit = hit || strings.Contains(wd.Val, cmd)
		}
		// a named client command counts at the start of a statement (after
		// ;, a newline, or \g and \G, which end one too)
		ends := strings.NewReplacer(`\g`, ";", `\G`, ";", "\n", ";")
		for _, st := range strings.Split(ends.Replace(wd.Val), ";") {
			f := strings.Fields(strings.ToLower(st))
			hit = hit || len(f) > 0 && slices.Contains(mysqlClientCmds, f[0])
		}
		if hit {
			m.MarkWord(c, wd, why)
		}
	}
}

// sshConfigCommands returns the command lines ssh -o KEY=VALUE options
// run (ProxyCommand, LocalCommand, KnownHostsCommand, RemoteCommand).
func sshConfigCommands(p *Parsed) []string {
	var out []string
	for _, wd := range p.Words {
		if wd.Name != "o" {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(wd.Val), "=")
		if !ok {
			k, v, ok = strings.Cut(strings.TrimSpace(wd.Val), " ")
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
			if ok {
				out = append(out, strings.TrimSpace(v))
			}
		}
	}
	return out
}

// curlWritesHere: curl -O names no file; it writes the URL's into the
// working directory.
func curlWritesHere(p Parsed) bool {
	return p.Has("O") || p.Has("remote-name") || p.Has("remote-name-all")
}

// wgetWritesHere: wget without -O (or --spider) writes into the working
// directory.
func wgetWritesHere(p Parsed) bool {
	return !p.Has("output-document") && !p.Has("spider")
}

// socatCommand returns the command line of a socat address that runs one
// (EXEC:CMD, SYSTEM:CMD, without its ,options).
func socatCommand(addr string) (string, bool) {
	typ, rest, ok := strings.Cut(addr, ":")
	if !ok || !strings.EqualFold(typ, "exec") && !strings.EqualFold(typ, "system") {
		return "", false
	}
	cmd, _, _ := strings.Cut(rest, ",")
	return cmd, true
}

// cloudExec: what a '*' grant of aws, gcloud or az covers is an
// allowlist. Their operations run into the thousands and grow every
// month, so guard types them by their verb: an operation that only reads
// (describe-, list-, get-, show) is covered unless it prints a secret;
// any other asks, named by its effect where guard knows it (a program run
// on another machine, a secret printed, a delete) and otherwise as an
// operation guard does not know to only read.
var cloudExec = []ExecRule{
	{ID: "cloud-operation", Only: []string{"aws", "gcloud", "az"}, Check: checkCloud,
		Reason: "an aws/gcloud/az operation that does not only read"},
}

// awsReadVerbs are the prefixes of the aws operations that only read;
// awsSecretOps the ones among them that print a credential or data that
// holds one (a Lambda function's environment, a Glue connection's
// password), and awsExecOps those that run a program elsewhere.
var (
	awsReadVerbs = []string{"describe-", "list-", "get-", "head-", "search-", "lookup-", "batch-get-", "batch-describe-", "filter-", "query", "scan", "wait", "tail"}
	awsSecretOps = []string{"get-secret-value", "batch-get-secret-value", "get-session-token", "get-federation-token", "get-login-password",
		"get-authorization-token", "get-role-credentials", "get-password-data", "get-instance-access-details", "get-credentials-for-identity",
		"get-open-id-token", "get-open-id-token-for-developer-identity", "get-function", "get-function-configuration", "get-connection",
		"get-connections", "get-cluster-credentials", "get-cluster-credentials-with-iam", "get-temporary-glue-table-credentials",
		"get-temporary-glue-partition-credentials", "get-credentials", "get-token", "get-data-key", "get-access-token", "get-device-secret", "create-access-key", "create-service-specific-credential", "generate-db-auth-token"}
	awsExecOps = []string{"send-command", "start-session", "start-automation-execution", "execute-command", "invoke", "invoke-async",
		"invoke-with-response-stream", "send-ssh-public-key", "send-serial-console-ssh-public-key", "run-instances", "run-task", "start-task",
		"deploy", "create-stack", "update-stack", "create-change-set", "execute-change-set", "create-stack-set", "start-build", "add-steps",
		"submit-job", "start-job-run", "start-execution", "create-function", "update-function-code", "modify-instance-attribute",
		"create-launch-template", "create-launch-template-version"}
	// gcloud and az: the verbs that only read, and the words of their
	// command paths that run a program, print a secret or open a way in
	cloudReadVerbs = []string{"list", "describe", "show", "get-iam-policy", "get-value", "info", "version", "help", "read", "find",
		"list-*", "describe-*", "show-*", "get-instance-view", "get-serial-port-output"}
	cloudExecWords = []string{"ssh", "scp", "call", "invoke", "run-command", "command", "execute", "connect", "connect-to-serial-port",
		"start-iap-tunnel", "tunnel", "cloud-shell", "deploy", "exec", "submit", "browse", "login", "console"}
	cloudSecretWords = []string{"access", "print-access-token", "print-identity-token", "print-refresh-token", "config-helper", "get-access-token",
		"get-credentials", "keys", "secret", "secrets", "credential", "credentials", "appsettings", "show-connection-string", "connection-string",
		"list-publishing-credentials", "list-publishing-profiles", "list-keys", "list-connection-strings", "get-publishing-profile", "sas", "token"}
)

// checkCloud marks the operation word of an aws, gcloud or az command
// that is not on the read-only allowlist (see [cloudExec]).
func checkCloud(c *Command, p Parsed, m Marker) {
	var ops []Word
	for _, wd := range p.Words {
		if wd.Name == "" && !wd.Rest && wd.Arg != 0 {
			ops = append(ops, wd)
		}
	}
	if len(ops) == 0 {
		return
	}
	prog := c.Name
	if prog == "aws" {
		checkAws(c, p, ops, m)
		return
	}
	if prog == "gcloud" && alt("alpha|beta|preview", ops[0].Val) {
		ops = ops[1:]
	}
	// the command path is the words before the first read verb; what
	// follows are its operands (gcloud compute instances describe vm)
	var path []string
	for k, wd := range ops {
		if k > 4 {
			break
		}
		v := wd.Val
		path = append(path, v)
		switch {
		case slices.Contains(cloudSecretWords, v) || strings.HasPrefix(v, "print-"):
			m.MarkWord(c, wd, prog+" "+strings.Join(path, " ")+" prints a secret or a credential")
			return
		case slices.Contains(cloudExecWords, v):
			m.MarkWord(c, wd, prog+" "+strings.Join(path, " ")+" runs a program elsewhere or opens a way in")
			return
		case cloudActionVerb(v):
			// a read verb after it is its operand (instances create list)
			m.MarkWord(c, wd, prog+" "+strings.Join(path, " ")+" changes cloud resources; it is not an operation guard knows to only read")
			return
		case cloudReadVerb(v):
			if k > 0 || v == "help" || v == "version" || v == "info" || v == "find" {
				return
			}
		}
		if !cloudGroupWord(v) {
			break
		}
	}
	m.MarkWord(c, ops[len(path)-1], prog+" "+strings.Join(path, " ")+" is not an operation guard knows to only read")
}

// cloudActionVerb: the verbs of gcloud and az that change something
// (the words before a read verb are groups: nouns).
func cloudActionVerb(v string) bool {
	for _, a := range []string{"create", "delete", "update", "set", "add", "remove", "patch", "import", "export", "start", "stop", "reset",
		"restart", "resume", "suspend", "move", "attach", "detach", "enable", "disable", "apply", "upgrade", "rollback", "resize", "generate",
		"regenerate", "rotate", "renew", "revoke", "grant", "assign", "purge", "restore", "recover", "swap", "sync", "copy", "upload", "download",
		"rename", "clear", "unset", "approve", "cancel", "abandon", "promote", "failover", "wait", "open", "mount", "invoke", "trigger", "publish"} {
		if v == a || strings.HasPrefix(v, a+"-") {
			return true
		}
	}
	return false
}

func cloudReadVerb(v string) bool {
	for _, r := range cloudReadVerbs {
		if r == v || strings.HasSuffix(r, "*") && strings.HasPrefix(v, r[:len(r)-1]) {
			return true
		}
	}
	return false
}

// cloudGroupWord: a word that can be a group or command of a cloud CLI
// (lowercase letters, digits and dashes); anything else is an operand.
func cloudGroupWord(v string) bool {
	if v == "" {
		return false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// checkAws: aws SERVICE OPERATION. s3's own commands are judged by what
// they do: ls reads, cp and sync into this machine read the bucket, the
// rest write or delete in it.
func checkAws(c *Command, p Parsed, ops []Word, m Marker) {
	svc := ops[0]
	if svc.Val == "help" {
		return
	}
	if len(ops) < 2 {
		m.MarkWord(c, svc, "aws "+svc.Val+" is not an operation guard knows to only read")
		return
	}
	op := ops[1]
	v := op.Val
	switch {
	case v == "help":
		return
	case svc.Val == "configure":
		if v == "list" || v == "list-profiles" || v == "get" {
			return // configure get of a secret key: opsEffect
		}
	case svc.Val == "s3":
		last := ops[len(ops)-1].Val
		switch {
		case v == "ls":
			return
		case (v == "cp" || v == "sync") && len(ops) == 4 && strings.HasPrefix(ops[2].Val, "s3://") && !strings.HasPrefix(last, "s3://") && !hasWordName(p, "delete"):
			return // into this machine (- is standard output); the path is judged as a write
		case v == "presign":
			m.MarkWord(c, op, "aws s3 presign prints a URL that grants access to the object, a credential")
			return
		}
		m.MarkWord(c, op, "aws s3 "+v+" writes or deletes in a bucket")
		return
	case slices.Contains(awsSecretOps, v) || strings.HasPrefix(v, "get-parameter") && hasWordName(p, "with-decryption"):
		m.MarkWord(c, op, "aws "+svc.Val+" "+v+" prints a secret or a credential")
		return
	case slices.Contains(awsExecOps, v) || svc.Val == "ec2-instance-connect" || svc.Val == "ssm" && strings.HasPrefix(v, "start-"):
		m.MarkWord(c, op, "aws "+svc.Val+" "+v+" runs a program on another machine or opens a way in")
		return
	case strings.HasPrefix(v, "delete-") || strings.HasPrefix(v, "terminate-") || strings.HasPrefix(v, "remove-") ||
		strings.HasPrefix(v, "deregister-") || strings.HasPrefix(v, "purge-"):
		m.MarkWord(c, op, "aws "+svc.Val+" "+v+" deletes a cloud resource")
		return
	}
	for _, r := range awsReadVerbs {
		if strings.HasPrefix(v, r) {
			return
		}
	}
	m.MarkWord(c, op, "aws "+svc.Val+" "+v+" is not an operation guard knows to only read")
}

// hasWordName reports an option word named name (--delete, an unknown
// --with-decryption included).
func hasWordName(p Parsed, name string) bool {
	for _, wd := range p.Words {
		if wd.Name == name {
			return true
		}
	}
	return false
}
