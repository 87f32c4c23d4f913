package classify

// The credential-read rule: which files hold secrets, and which words of a
// command read them out (by their role in the argument model).

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// nonReaders take paths without reading the file's contents out.
func nonReaders(name string) bool {
	switch name {
	case "ls", "stat", "test", "[", "du", "echo", "printf",
		"chmod", "chown", "realpath", "readlink", "dirname", "basename",
		"touch", "mkdir", "ssh", "ssh-add", "ssh-keygen", "ssh-copy-id",
		"which", "type", "command", "man", "rm", "shred", "cd", "pushd":
		return true
	}
	return false
}

// credential describes a credential file by its last path components;
// "*" matches one component, a trailing "**" any number.
type credential struct {
	comps  []string
	except []string // basenames (globs) that are not secret
}

var credentials = []credential{
	{comps: []string{".ssh", "*"}, except: []string{"*.pub", "known_hosts*", "config", "authorized_keys*", "environment", "rc"}},
	{comps: []string{".ssh", "*", "**"}},
	{comps: []string{".aws", "credentials"}},
	{comps: []string{".aws", "sso", "cache", "*"}},
	{comps: []string{".netrc"}},
	{comps: []string{"_netrc"}},
	{comps: []string{".git-credentials"}},
	{comps: []string{".gnupg", "**"}, except: []string{"*.conf", "pubring.*"}},
	{comps: []string{".config", "gcloud", "**"}, except: []string{"configurations", "config_default", "active_config", "*.log", "logs"}},
	{comps: []string{".docker", "config.json"}},
	{comps: []string{".kube", "config*"}}, // config.bak, config-old: backups hold the same keys
	{comps: []string{".config", "gh", "hosts.yml"}},
	{comps: []string{"~", ".pgpass"}},
	{comps: []string{"~", ".vault-token"}},
	{comps: []string{"~", ".pypirc"}},
	{comps: []string{".terraform.d", "credentials.tfrc.json"}},
	{comps: []string{".azure", "accessTokens.json"}},
	{comps: []string{".azure", "msal_token_cache.*"}},
	{comps: []string{"/etc", "shadow"}},
	{comps: []string{"/etc", "shadow-"}},
	{comps: []string{"/etc", "gshadow"}},
	{comps: []string{"/etc", "gshadow-"}},
	{comps: []string{"/etc", "ssh", "ssh_host_*_key"}},
	{comps: []string{".config", "git", "credentials"}},
	{comps: []string{".cargo", "credentials"}},
	{comps: []string{".cargo", "credentials.toml"}},
	{comps: []string{".config", "containers", "auth.json"}},
	{comps: []string{"containers", "auth.json"}},
	{comps: []string{".config", "rclone", "rclone.conf"}},
	{comps: []string{".aws", "cli", "cache", "*"}},
	{comps: []string{"~", ".npmrc"}},
	{comps: []string{"~", ".yarnrc.yml"}},
	{comps: []string{"/var", "run", "secrets", "**"}},
	{comps: []string{"/run", "secrets", "**"}},
	{comps: []string{"/etc", "kubernetes", "*.conf"}},
	{comps: []string{"~", ".bash_history"}},
	{comps: []string{"~", ".zsh_history"}},
	{comps: []string{"~", ".psql_history"}},
	{comps: []string{"~", ".mysql_history"}},
	{comps: []string{".local", "share", "fish", "fish_history"}},
	{comps: []string{"/etc", "ssl", "private", "*"}},
	{comps: []string{"/etc", "letsencrypt", "**"}, except: []string{"*.conf", "cert*.pem", "chain*.pem", "fullchain*.pem", "README"}},
	{comps: []string{"/etc", "wireguard", "*"}},
	{comps: []string{"/etc", "krb5.keytab"}},
	{comps: []string{"/etc", "security", "opasswd"}},
	{comps: []string{"/proc", "*", "environ"}},
	{comps: []string{"/proc", "*", "task", "*", "environ"}},
	{comps: []string{".config", "sops", "age", "*"}},
	{comps: []string{".age", "*"}},
	{comps: []string{".minikube", "*.key"}},
	{comps: []string{".minikube", "profiles", "*", "*.key"}},
	{comps: []string{".minikube", "certs", "*key.pem"}},
	{comps: []string{".claude", ".credentials.json"}},
	{comps: []string{".codex", "auth.json"}},
	{comps: []string{".gemini", "oauth_creds.json"}},
	{comps: []string{".config", "github-copilot", "*.json"}},
	{comps: []string{"~", ".my.cnf"}},
	{comps: []string{".gem", "credentials"}},
	// more tools' tokens (the red-team pass found them read silently)
	{comps: []string{".config", "hub"}},
	{comps: []string{".config", "glab-cli", "config.yml"}},
	{comps: []string{".config", "doctl", "config.yaml"}},
	{comps: []string{".config", "stripe", "config.toml"}},
	{comps: []string{".config", "netlify", "config.json"}},
	{comps: []string{"configstore", "firebase-tools.json"}},
	{comps: []string{"com.vercel.cli", "auth.json"}},
	{comps: []string{".fly", "config.yml"}},
	{comps: []string{".wrangler", "config", "default.toml"}},
	{comps: []string{"huggingface", "token"}},
	{comps: []string{".huggingface", "token"}},
	{comps: []string{".subversion", "auth", "**"}},
	{comps: []string{".android", "adbkey"}},
	{comps: []string{"~", ".s3cfg"}},
	{comps: []string{"~", ".boto"}},
	{comps: []string{"~", ".databrickscfg"}},
	{comps: []string{"~", ".terraformrc"}},
	// what servers keep under /etc and /var/lib (issue 18): TLS and VPN
	// private keys, cluster admin configs and join tokens, CI runner and
	// package repository credentials, mail relay, PPP, IPsec, directory
	// and database service passwords, Wi-Fi keys
	{comps: []string{"/etc", "pki", "*", "private", "*"}},
	{comps: []string{"/etc", "rancher", "k3s", "k3s.yaml"}},
	{comps: []string{"/etc", "rancher", "k3s", "registries.yaml"}},
	{comps: []string{"/etc", "rancher", "rke2", "rke2.yaml"}},
	{comps: []string{"/var", "lib", "rancher", "*", "server", "token"}},
	{comps: []string{"/var", "lib", "rancher", "*", "server", "node-token"}},
	{comps: []string{"/var", "lib", "rancher", "*", "server", "tls", "*.key"}},
	{comps: []string{"/var", "lib", "rancher", "*", "server", "cred", "**"}},
	{comps: []string{"/etc", "kubernetes", "pki", "*.key"}},
	{comps: []string{"/etc", "kubernetes", "pki", "etcd", "*.key"}},
	{comps: []string{"/var", "lib", "kubelet", "pki", "*"}, except: []string{"*.crt"}},
	{comps: []string{"/etc", "gitlab-runner", "config.toml"}},
	{comps: []string{"/etc", "gitlab", "gitlab-secrets.json"}},
	{comps: []string{"/etc", "gitlab", "initial_root_password"}},
	{comps: []string{"/etc", "apt", "auth.conf"}},
	{comps: []string{"/etc", "apt", "auth.conf.d", "*"}},
	{comps: []string{"/etc", "postfix", "sasl_passwd*"}},
	{comps: []string{"/etc", "ppp", "*-secrets"}},
	{comps: []string{"/etc", "ipsec.secrets"}},
	{comps: []string{"/etc", "ipsec.d", "private", "*"}},
	{comps: []string{"/etc", "strongswan", "ipsec.secrets"}},
	{comps: []string{"/etc", "strongswan", "swanctl", "private", "*"}},
	{comps: []string{"/etc", "swanctl", "private", "*"}},
	{comps: []string{"/etc", "sssd", "sssd.conf"}},
	{comps: []string{"/etc", "ldap.secret"}},
	{comps: []string{"/etc", "libnss-ldap.secret"}},
	{comps: []string{"/etc", "pam_ldap.secret"}},
	{comps: []string{"/etc", "nslcd.conf"}},
	{comps: []string{"/etc", "mysql", "debian.cnf"}},
	{comps: []string{"/etc", "NetworkManager", "system-connections", "*"}},
	{comps: []string{"/etc", "wpa_supplicant", "*.conf"}},
	{comps: []string{"/etc", "wpa_supplicant.conf"}},
	{comps: []string{"/etc", "docker", "key.json"}},
	{comps: []string{"/etc", "master.passwd"}},
	{comps: []string{"/etc", "spwd.db"}},
	{comps: []string{"/etc", "ceph", "*.keyring"}},
	{comps: []string{"/etc", "exim4", "passwd.client"}},
	{comps: []string{"/etc", "msmtprc"}},
	{comps: []string{"/etc", "openvpn", "**"}, except: []string{"*.crt", "update-resolv-conf", "*.sh", "README*"}},
	{comps: []string{"/var", "lib", "samba", "private", "*"}},
	{comps: []string{"/etc", "samba", "smbpasswd"}},
	{comps: []string{"/etc", "davfs2", "secrets"}},
	{comps: []string{"/etc", "fetchmailrc"}},
	{comps: []string{"/etc", "ddclient.conf"}},
	{comps: []string{"/etc", "ddclient", "ddclient.conf"}},
	{comps: []string{"/etc", "rsyncd.secrets"}},
	{comps: []string{"/etc", "ldap", "ldap.secret"}},
	{comps: []string{"/etc", "dovecot", "private", "*"}},
	{comps: []string{"/etc", "nginx", "ssl", "*.key"}},
	{comps: []string{"/etc", "nginx", "certs", "*.key"}},
	{comps: []string{"/etc", "apache2", "ssl", "*.key"}},
	{comps: []string{"/etc", "httpd", "ssl", "*.key"}},
	{comps: []string{"/etc", "httpd", "conf", "ssl.key", "*"}},
	{comps: []string{"/etc", "containerd", "certs.d", "**"}, except: []string{"*.crt", "hosts.toml", "*.cert"}},
	{comps: []string{"/etc", "docker", "certs.d", "*", "*.key"}},
	// credential caches in the scratch trees: Kerberos tickets, the ssh
	// agent's socket (which signs with the user's keys)
	{comps: []string{"/tmp", "krb5cc_*"}},
	{comps: []string{"/tmp", "krb5cc_*", "**"}},
	{comps: []string{"/var", "tmp", "krb5cc_*"}},
	{comps: []string{"/tmp", "ssh-*", "agent.*"}},
	{comps: []string{"/run", "user", "*", "krb5cc*"}},
	{comps: []string{"/run", "user", "*", "keyring", "**"}},
	// guard's own HMAC key: with it, a short redacted secret in the audit
	// can be recovered from its keyed hash by guessing
	{comps: []string{"guard", "hmac.key"}},
}

// homeDir reports path components naming a home directory: the user's,
// /root, or /home/NAME (NAME may be a glob).
func (w *walker) homeDir(comps []string) bool {
	if len(comps) == 1 && comps[0] == "root" {
		return true
	}
	if len(comps) == 2 && comps[0] == "home" {
		return true
	}
	n, ok := w.homeComps(comps)
	return w.opt.Home != "" && ok && len(comps) == n
}

// homeComps returns how many components $HOME has (as strings.Split of it
// trimmed of slashes counts them) and whether comps begins with them,
// without building the split (the credential rules ask for every path).
func (w *walker) homeComps(comps []string) (int, bool) {
	h := strings.Trim(w.opt.Home, "/")
	n := strings.Count(h, "/") + 1
	if len(comps) < n {
		return n, false
	}
	i := 0
	for c := range strings.SplitSeq(h, "/") {
		if comps[i] != c {
			return n, false
		}
		i++
	}
	return n, true
}

// credentialWords reports a literal component of the credential table
// (without its leading /): a path naming none of them is no credential.
// It is written out rather than built from the table at init, which every
// guard process would pay for; TestCredentialWords keeps the two in step.
func credentialWords(c string) bool {
	switch c {
	case ".aws", ".azure", ".bash_history", ".cargo", ".config", ".docker", ".git-credentials", ".gnupg", ".kube",
		".local", ".mysql_history", ".netrc", ".npmrc", ".pgpass", ".psql_history", ".pypirc", ".ssh",
		".terraform.d", ".vault-token", ".yarnrc.yml", ".zsh_history", "_netrc", "accessTokens.json", "auth.json",
		"cache", "cli", "config", "config.json", "containers", "credentials", "credentials.tfrc.json",
		"credentials.toml", "environ", "etc", "fish", "fish_history", "gcloud", "gh", "git", "gshadow", "gshadow-",
		"hosts.yml", "krb5.keytab", "kubernetes", "letsencrypt", "opasswd", "private", "proc", "rclone",
		"rclone.conf", "run", "secrets", "security", "shadow", "shadow-", "share", "ssh", "ssl", "sso", "task",
		"var", "wireguard", "sops", "age", ".age", ".minikube", "profiles", "certs", ".claude",
		".credentials.json", ".codex", ".gemini", "oauth_creds.json", "github-copilot", ".my.cnf", ".gem", "hub",
		"glab-cli", "config.yml", "doctl", "config.yaml", "stripe", "config.toml", "netlify", "configstore",
		"firebase-tools.json", "com.vercel.cli", ".fly", ".wrangler", "default.toml", "huggingface", "token",
		".huggingface", ".subversion", "auth", ".android", "adbkey", ".s3cfg", ".boto", ".databrickscfg",
		".terraformrc", "guard", "hmac.key", "pki", "rancher", "k3s", "k3s.yaml", "registries.yaml", "rke2",
		"rke2.yaml", "lib", "server", "node-token", "tls", "cred", "etcd", "kubelet", "gitlab-runner", "gitlab",
		"gitlab-secrets.json", "initial_root_password", "apt", "auth.conf", "auth.conf.d", "postfix", "ppp",
		"ipsec.secrets", "ipsec.d", "strongswan", "swanctl", "sssd", "sssd.conf", "ldap.secret",
		"libnss-ldap.secret", "pam_ldap.secret", "nslcd.conf", "mysql", "debian.cnf", "NetworkManager",
		"system-connections", "wpa_supplicant", "wpa_supplicant.conf", "docker", "key.json", "master.passwd",
		"spwd.db", "ceph", "exim4", "passwd.client", "msmtprc", "openvpn", "samba", "tmp", "user", "keyring",
		"smbpasswd", "davfs2", "fetchmailrc", "ddclient.conf", "ddclient", "rsyncd.secrets", "ldap", "dovecot",
		"nginx", "apache2", "httpd", "conf", "ssl.key", "containerd", "certs.d":
		return true
	}
	return false
}

// globNamesCredential reports a glob component (.ss*, id_*) that may match
// a component of the credential table.
func globNamesCredential(c string) bool {
	k := strings.IndexAny(c, "*?[")
	if k < 0 {
		return false
	}
	prefix := c[:k] // the glob's literal start narrows the candidates
	for _, w := range credentialGlobTargets {
		if !strings.HasPrefix(w, prefix) && !strings.HasSuffix(w, "*") {
			continue
		}
		if ok := matchGlob(c, w); ok {
			return true
		}
		// a glob in the table (id_*) against a glob in the path (id_*)
		if strings.HasSuffix(w, "*") && strings.HasPrefix(c, strings.TrimRight(w, "*")) {
			return true
		}
	}
	return false
}

// credentialGlobTargets are the table's components, literal or glob, that a
// glob in a path is tried against: each once, in the table's order, without
// a leading /. Written out rather than built at init (TestCredentialWords
// keeps it in step with the table).
var credentialGlobTargets = []string{
	".ssh", ".aws", "credentials", "sso", "cache", ".netrc", "_netrc", ".git-credentials", ".gnupg", ".config",
	"gcloud", ".docker", "config.json", ".kube", "config*", "gh", "hosts.yml", ".pgpass", ".vault-token",
	".pypirc", ".terraform.d", "credentials.tfrc.json", ".azure", "accessTokens.json", "msal_token_cache.*",
	"etc", "shadow", "shadow-", "gshadow", "gshadow-", "ssh", "ssh_host_*_key", "git", ".cargo",
	"credentials.toml", "containers", "auth.json", "rclone", "rclone.conf", "cli", ".npmrc", ".yarnrc.yml",
	"var", "run", "secrets", "kubernetes", "*.conf", ".bash_history", ".zsh_history", ".psql_history",
	".mysql_history", ".local", "share", "fish", "fish_history", "ssl", "private", "letsencrypt", "wireguard",
	"krb5.keytab", "security", "opasswd", "proc", "environ", "task", "sops", "age", ".age", ".minikube",
	"*.key", "profiles", "certs", "*key.pem", ".claude", ".credentials.json", ".codex", ".gemini",
	"oauth_creds.json", "github-copilot", "*.json", ".my.cnf", ".gem", "hub", "glab-cli", "config.yml", "doctl",
	"config.yaml", "stripe", "config.toml", "netlify", "configstore", "firebase-tools.json", "com.vercel.cli",
	".fly", ".wrangler", "config", "default.toml", "huggingface", "token", ".huggingface", ".subversion",
	"auth", ".android", "adbkey", ".s3cfg", ".boto", ".databrickscfg", ".terraformrc", "pki", "rancher", "k3s",
	"k3s.yaml", "registries.yaml", "rke2", "rke2.yaml", "lib", "server", "node-token", "tls", "cred", "etcd",
	"kubelet", "gitlab-runner", "gitlab", "gitlab-secrets.json", "initial_root_password", "apt", "auth.conf",
	"auth.conf.d", "postfix", "sasl_passwd*", "ppp", "*-secrets", "ipsec.secrets", "ipsec.d", "strongswan",
	"swanctl", "sssd", "sssd.conf", "ldap.secret", "libnss-ldap.secret", "pam_ldap.secret", "nslcd.conf",
	"mysql", "debian.cnf", "NetworkManager", "system-connections", "wpa_supplicant", "wpa_supplicant.conf",
	"docker", "key.json", "master.passwd", "spwd.db", "ceph", "*.keyring", "exim4", "passwd.client", "msmtprc",
	"openvpn", "samba", "smbpasswd", "davfs2", "fetchmailrc", "ddclient.conf", "ddclient", "rsyncd.secrets",
	"ldap", "dovecot", "nginx", "apache2", "httpd", "conf", "ssl.key", "containerd", "certs.d", "tmp",
	"krb5cc_*", "ssh-*", "agent.*", "user", "krb5cc*", "keyring", "guard", "hmac.key",
}

// hasCredentialWord reports a path component that some credential entry
// names literally (or a glob that could be one), without allocating.
func hasCredentialWord(p string) bool {
	for len(p) > 0 {
		k := strings.IndexAny(p, "/=@")
		comp := p
		if k >= 0 {
			comp, p = p[:k], p[k+1:]
		} else {
			p = ""
		}
		if credentialWords(comp) || globNamesCredential(comp) {
			return true
		}
	}
	return false
}

// credentialDirs hold credentials; archiving or copying them whole reads them.
var credentialDirs = [][]string{{".ssh"}, {".gnupg"}, {".aws"}, {".config"}, {".kube"}, {".docker"}, {".cargo"}}

// isCredential matches a path against the credential table. A relative
// path (its directory unknown) matches only on what it names itself:
// readers given one after a cd to a computed path ask instead (DirUnknown).
func (w *walker) isCredential(p string) bool {
	p = path.Clean(p)
	abs := strings.HasPrefix(p, "/")
	if !strings.ContainsAny(p, "*?[") {
		return w.isCredentialLiteral(p, abs)
	}
	comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	// Every entry needs one of its literal components present: most paths
	// are ruled out by a map lookup per component.
	found := false
	for _, c := range comps {
		if credentialWords(c) || globNamesCredential(c) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	for _, cr := range credentials {
		if w.matchCredential(cr, comps, abs) {
			return true
		}
	}
	return false
}

// credentialsByKey indexes the credential table by one literal component
// of each entry (its last, the most telling: "credentials" rather than
// ".aws"), built on first use. A path without glob characters can match an
// entry only if it holds every literal component of the entry, that one
// included, so only the entries filed under its own components are tried.
var credentialsByKey = sync.OnceValue(func() map[string][]int {
	m := make(map[string][]int, len(credentials))
	for i, cr := range credentials {
		key := ""
		for _, c := range cr.comps {
			c = strings.TrimPrefix(c, "/")
			if c != "~" && c != "**" && !strings.ContainsAny(c, "*?[\\") {
				key = c
			}
		}
		// every entry has one (TestCredentialKeys); an entry without one
		// would be filed under "" and never tried on this path, so the
		// test is what keeps the table honest
		m[key] = append(m[key], i)
	}
	return m
})

// isCredentialLiteral is isCredential for a path with no glob characters:
// one map lookup per component, then only the entries filed under the
// components the path has.
func (w *walker) isCredentialLiteral(p string, abs bool) bool {
	idx := credentialsByKey()
	found := false
	for rest := strings.TrimPrefix(p, "/"); ; {
		c, after, more := strings.Cut(rest, "/")
		if len(idx[c]) > 0 {
			found = true
			break
		}
		if !more {
			break
		}
		rest = after
	}
	if !found {
		return false
	}
	comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for j, c := range comps {
		if slices.Contains(comps[:j], c) {
			continue // its entries were tried
		}
		for _, i := range idx[c] {
			if w.matchCredential(credentials[i], comps, abs) {
				return true
			}
		}
	}
	return false
}

func (w *walker) matchCredential(cr credential, comps []string, abs bool) bool {
	pat := cr.comps
	anchored := strings.HasPrefix(pat[0], "/")
	if anchored {
		var buf [8]string // the table's patterns are short: no copy on the heap
		pat = append(append(buf[:0], strings.TrimPrefix(pat[0], "/")), pat[1:]...)
	}
	if pat[0] == "~" {
		// only in the home directory itself (a project's .npmrc is fine)
		n, ok := w.homeComps(comps)
		if w.opt.Home == "" || !abs || len(comps) != n+len(pat)-1 || !ok {
			return false
		}
		pat, comps = pat[1:], comps[n:]
		anchored, abs = true, true
	}
	tailAny := pat[len(pat)-1] == "**"
	if tailAny {
		pat = pat[:len(pat)-1]
	}
	base := comps[len(comps)-1]
	for _, ex := range cr.except {
		if ok := matchGlob(ex, base); ok {
			return false
		}
	}
	try := func(start int) bool {
		// pat aligned so that pat[k] matches comps[start+k], with one
		// literal component really there
		n := len(pat)
		literal := false
		for k := 0; k < n; k++ {
			i := start + k
			if i >= len(comps) {
				return false
			}
			if pat[k] == comps[i] {
				literal = literal || !strings.ContainsAny(pat[k], "*?[")
				continue
			}
			if ok := matchGlob(pat[k], comps[i]); ok {
				continue
			}
			// a glob in the path that can name the table's file (cred*)
			if ok := matchGlob(comps[i], pat[k]); ok && strings.ContainsAny(comps[i], "*?[") {
				// it counts as naming the file only with some text of its
				// own: a bare * (a loop variable, $f) names anything.
				if len(strings.Trim(comps[i], "*?[]")) >= 3 {
					literal = literal || !strings.ContainsAny(pat[k], "*?[")
				}
				continue
			}
			return false
		}
		if !literal && !(start > 0 && w.homeDir(comps[:start])) {
			// a glob naming dotfiles in a home directory (cat ~/.*, ~/.n*)
			// needs no literal text of its own
			return false
		}
		end := start + n
		if tailAny {
			return end < len(comps)
		}
		return end == len(comps)
	}
	if anchored {
		if abs {
			return try(0)
		}
		return false
	}
	for start := 0; start < len(comps); start++ {
		if try(start) {
			return true
		}
	}
	return false
}

// candidates returns the paths a word may name: the word, and what follows
// = or @ in it (--data=@file, file=@path, of=path).
//
// They are appended to buf[:0] (an array of the caller's: these run for
// every path word of every command, and a slice each time added up).
func (w *walker) candidates(f field, buf []field) []field {
	out := append(buf[:0], f)
	s := f.pat
	for _, sep := range [...]string{"=", "@"} {
		if k := strings.Index(s, sep); k >= 0 && k+1 < len(s) {
			g := f
			g.pat = w.homePat(strings.TrimPrefix(s[k+1:], "@"))
			out = append(out, g)
		}
	}
	return out
}

// homePat expands a leading ~/ the word expansion left alone: bash expands
// it after = too (dd of=~/x, --data=@~/x reads as written, and is judged so).
func (w *walker) homePat(pat string) string {
	if strings.HasPrefix(pat, "~/") && w.opt.Home != "" {
		return w.opt.Home + pat[1:]
	}
	return pat
}

func (w *walker) credentialRead(c int) bool {
	name := w.a.Commands[c].Name
	fs := w.info[c].fields
	p := w.words(c)
	// du/wc/sort --files0-from=FILE read FILE and echo its text in errors
	for _, wd := range p.Words {
		if wd.Name == "files0-from" && wd.Role == RoleRead && w.anyCredential(c, w.valueField(c, wd), false) {
			return true
		}
	}
	if nonReaders(name) {
		return false
	}
	if name == "git" {
		// git credential fill, git credential-store get …: the helpers
		// print stored passwords and tokens
		if strings.HasPrefix(p.SubName(w.a.Commands[c].Args), "credential") {
			return true
		}
	}
	if name == "gpg" || name == "gpg2" {
		if hasWord(fs, "--export-secret-keys", "--export-secret-subkeys", "--export-ssh-key") {
			return true
		}
	}
	bulk := false
	switch name {
	case "tar", "zip", "7z", "cp", "scp", "rsync", "rclone", "gsutil", "aws", "grep", "rg", "cpio", "base64", "xxd", "od", "git", "diff",
		"ln", "mv": // a link or a move exposes the whole directory elsewhere
		bulk = true
	}
	// Most commands name no credential at all: rule them out without
	// resolving paths (the directory counts: cd ~/.ssh && cat id_rsa).
	dirWords := false
	for _, d := range w.info[c].dirs {
		dirWords = dirWords || hasCredentialWord(d)
	}
	if w.info[c].dirs == nil {
		dirWords = true // unknown directory: any relative name may be one
	}
	tree := readsTree(name, p)
	var tarDirs []Word // tar -C DIR: later operands name files in DIR
	if SpecFor(name) == &tarSpec {
		tarDirs = p.ByRole(RoleDir)
	}
	for _, wd := range p.Words {
		// mv's sources leave their place: moving a key out reads it
		moved := name == "mv" && wd.Role == RoleWrite && wd.Name == "" && !w.lastOperand(p, wd)
		// after an option the spec does not know, any operand may be that
		// option's file (xargs -a FILE, grep --unknown=x FILE)
		unsure := p.Unknown && wd.Name == "" && wd.Role != RoleSecret
		if !readRole(wd) && !unsure && !moved {
			continue // a pattern, a message, a file only counted or used: not read out
		}
		f := w.valueField(c, wd)
		for _, d := range tarDirs {
			if d.Arg < wd.Arg && wd.Name == "" && !strings.HasPrefix(f.pat, "/") {
				g := w.valueField(c, d)
				g.pat = strings.TrimSuffix(g.pat, "/") + "/" + f.pat
				if w.anyCredential(c, g, bulk) {
					return true
				}
				if tree {
					ps, _ := w.paths(c, g)
					for _, p := range ps {
						if w.aboveCredentials(p) {
							return true
						}
					}
				}
			}
		}
		if u, ok := fileURL(f.pat); ok {
			f.pat = u // curl file://…: a read of the path, percent-decoded
		}
		if tree && (wd.Name == "" || wd.Role == RoleDir) {
			ps, _ := w.paths(c, f)
			for _, p := range ps {
				if w.aboveCredentials(p) {
					return true
				}
			}
		}
		if !dirWords && !hasCredentialWord(f.pat) {
			continue
		}
		if w.anyCredential(c, f, bulk) {
			return true
		}
	}
	return false
}

// dotenv reports a .env file: .env, .env.local, prod.env, but not the
// templates committed beside them.
func dotenv(p string) bool {
	base := path.Base(p)
	switch base {
	case ".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema":
		return false
	}
	if strings.ContainsAny(base, "*?[") {
		if !strings.HasPrefix(base, ".") {
			return false // bash's globs match dotfiles only from a leading dot
		}
		// a glob that can match a .env file (.[e]nv, .en?, .e*): only
		// patterns that match dotfiles, so cat * is not one
		for _, n := range []string{".env", ".env.local", ".env.production"} {
			if matchGlob(base, n) {
				return true
			}
		}
		return false
	}
	return base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") && len(base) > 4
}

// dotenvRead: a command that reads a .env file out.
func (w *walker) dotenvRead(c int) bool {
	if nonReaders(w.a.Commands[c].Name) {
		return false
	}
	for _, wd := range w.words(c).Words {
		if !readRole(wd) || !strings.Contains(wd.Val, "env") && !strings.ContainsAny(wd.Val, "*?[") {
			continue
		}
		f := w.valueField(c, wd)
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if dotenv(p) {
				return true
			}
		}
	}
	return false
}

// lastOperand reports the last operand of a parse.
func (w *walker) lastOperand(p *Parsed, wd Word) bool {
	ops := p.Operands()
	return len(ops) > 0 && ops[len(ops)-1].Arg == wd.Arg
}

// readRole reports a word whose file the command may read out: a read
// path, a word no spec knows, or a URL (file:// reads a local file).
func readRole(wd Word) bool {
	switch wd.Role {
	case RoleRead, RoleUnknown, RoleURL:
		return true
	}
	return false
}

// anyCredential reports a word (or what follows = or @ in it) naming a
// credential file, or with bulk a credential directory.
func (w *walker) anyCredential(c int, f field, bulk bool) bool {
	var cb [3]field
	for _, g := range w.candidates(f, cb[:0]) {
		ps, _ := w.paths(c, g)
		for _, p := range ps {
			if w.projectFixture(p) {
				continue
			}
			if w.isCredential(p) || bulk && w.isCredentialDir(p) {
				return true
			}
		}
	}
	return false
}

// projectFixture reports a path inside the project (the working
// directory, when that is not the home directory or a credential
// directory itself): test/.ssh/id_rsa there is a fixture, not the user's key.
func (w *walker) projectFixture(p string) bool {
	cwd := w.opt.Cwd
	if cwd == "" || !within(p, cwd) || w.aboveCredentials(cwd) || w.isCredential(cwd) || w.isCredentialDir(cwd) || strings.Contains(cwd, "/.") {
		return false
	}
	return !strings.ContainsAny(p, "*?[")
}

// fileURL returns the path of a file: URL, percent-decoded.
func fileURL(s string) (string, bool) {
	if len(s) < 5 || !strings.EqualFold(s[:5], "file:") {
		return "", false
	}
	s = s[5:]
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		if k := strings.IndexByte(s, '/'); k > 0 {
			s = s[k:] // file://host/path
		}
	}
	return percentDecode(s), true
}

// percentDecode decodes every valid %XX in s and leaves anything else as it
// stands, as curl does: one malformed escape must not leave the rest of a
// path encoded (.ss%68 is .ssh even beside a stray %zz). (Not net/url: its
// all-or-nothing PathUnescape had that gap, and linking it cost every
// guard process the init of net/netip.)
func percentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if h, ok := unhex(s[i+1]); ok {
				if l, ok := unhex(s[i+2]); ok {
					b = append(b, h<<4|l)
					i += 2
					continue
				}
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// words returns the command's arguments typed by its spec, parsed once.
func (w *walker) words(c int) *Parsed {
	in := &w.info[c]
	if in.parsed == nil {
		args := w.a.Commands[c].Args // fill made it from the fields' values
		name := w.a.Commands[c].Name
		p := new(Parsed)
		parseCommandInto(p, name, args)
		in.parsed = p
		in.parsedArgs = args
		if SpecFor(name) == &tarSpec {
			in.parsedArgs = tarArgs(args)
		}
		w.a.Commands[c].Typed = in.parsed
	}
	return in.parsed
}

// valueField returns the field of a typed word with an attached option
// prefix (-fFILE, --file=FILE) cut off, so path rules see only the value.
func (w *walker) valueField(c int, wd Word) field {
	in := &w.info[c]
	if wd.Arg >= len(in.fields) || len(in.parsedArgs) != len(in.fields) {
		// tar's old form: the words moved; find the value itself
		for _, f := range in.fields {
			if f.val == wd.Val {
				return f
			}
		}
		return field{val: wd.Val, pat: w.homePat(wd.Val)}
	}
	f := in.fields[wd.Arg]
	if cut := len(f.val) - len(wd.Val); cut > 0 && strings.HasSuffix(f.val, wd.Val) && strings.HasPrefix(f.pat, f.val[:cut]) {
		f.pat = w.homePat(f.pat[cut:])
		f.val = wd.Val
	} else if k := strings.Index(f.val, wd.Val); k > 0 && wd.Val != "" && strings.HasPrefix(f.pat, f.val[:k]) {
		// a value inside its word (socat's UNIX-CONNECT:PATH,OPTS)
		tail := f.val[k+len(wd.Val):]
		if pat := f.pat[k:]; strings.HasSuffix(pat, tail) {
			f.pat = w.homePat(pat[:len(pat)-len(tail)])
			f.val = wd.Val
		}
	}
	return f
}

// ReadsTree reports a command that reads the whole tree of a directory
// it names (grep -r, rg, cp -r, tar -c, zip -r, rsync -a): the path tier
// asks when such a tree holds a place it would ask about on its own
// (grep -r x /etc reads /etc/shadow).
func ReadsTree(c *Command) bool {
	switch c.Name {
	case "rg", "ag", "ack":
		return true
	}
	p := c.Words()
	return readsTree(c.Name, &p)
}

// readsTree reports a command that reads whole directory trees, hidden
// files included: pointed at the home directory (or above), it reads the
// credentials inside.
func readsTree(name string, p *Parsed) bool {
	switch name {
	case "tar", "bsdtar", "gtar":
		// creating an archive reads the tree; extracting writes
		return tarMode(p) == "create"
	case "7z", "cpio", "rclone", "gsutil", "zip", "restic", "borg":
		return true
	case "grep", "egrep", "fgrep":
		if p.Has("recursive", "dereference-recursive") {
			return true
		}
		for _, wd := range p.Words {
			if (wd.Name == "directories" || wd.Name == "d") && wd.Val == "recurse" {
				return true
			}
		}
		return false
	case "rg":
		return p.Has("u", ".", "hidden", "no-ignore", "unrestricted")
	case "diff", "colordiff":
		return p.Has("r", "N", "recursive", "new-file", "unidirectional-new-file")
	case "git":
		return p.Has("no-index")
	case "cp", "scp", "rsync":
		return p.Has("r", "R", "a", "recursive", "archive")
	}
	return false
}

// aboveCredentials reports a directory that holds the user's home (the home
// itself, /home, /): reading its whole tree reads ~/.ssh and the rest.
func (w *walker) aboveCredentials(p string) bool {
	h := w.opt.Home
	if h == "" || !strings.HasPrefix(p, "/") {
		return false
	}
	p = path.Clean(p)
	if p == "/home" || p == "/root" || p == "/Users" {
		return true // every user's home, or root's
	}
	if ok := matchGlob(p, h); ok {
		return true // a glob naming the home directory
	}
	return p == h || p == "/" || strings.HasPrefix(h, strings.TrimSuffix(p, "/")+"/")
}

func (w *walker) isCredentialDir(p string) bool {
	p = path.Clean(p)
	comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for _, d := range credentialDirs {
		// only the user's own (~/.config), not a project's .config/
		if len(comps) >= len(d) && w.homeDir(comps[:len(comps)-len(d)]) {
			tail := comps[len(comps)-len(d):]
			match := true
			for k := range d {
				if tail[k] == d[k] {
					continue
				}
				// a glob names the directory only with text of its own
				// (~/.ss*), or among a home directory's dotfiles (~/.*)
				own := len(strings.Trim(tail[k], "*?[]!^")) >= 2 || w.homeDir(comps[:len(comps)-len(d)])
				if !own || !matchGlob(tail[k], d[k]) {
					match = false
				}
			}
			if match {
				return true
			}
		}
	}
	return false
}
