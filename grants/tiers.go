package grants

// The path tiers: what a command reads and writes, judged where it points.
// See docs/tiers.md for the model; this file holds the tables and the pure
// checks. Everything that needs the disk (symlinks, the real project root)
// comes in as [Facts].

import (
	"fmt"
	"path"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// Tier names: the [permissions.*] tables beside bash.
const (
	TierRead     = "read"
	TierWrite    = "write"
	TierHTTP     = "http"
	TierPackages = "packages"
)

// Rule ids of the tier verdicts.
const (
	RulePathRead      = "path-read"       // a read outside the project no read grant covers
	RulePathWrite     = "path-write"      // a write outside the project no write grant covers
	RulePathDeny      = "path-deny"       // a deny entry of the read or write tier
	RuleNetwork       = "network"         // a host this project has not granted
	RuleNetworkDeny   = "network-deny"    // a host a deny entry names
	RuleNetworkUnseen = "network-unknown" // a host guard cannot read (a URL made at run time)
	RulePackage       = "package"         // a package install: approved, or not yet
	RulePackageDeny   = "package-deny"    // a package a deny entry names
	RulePackagePin    = "package-unpinned"
)

// Facts are what the tiers need from the disk, gathered by the caller
// before a decision (the shim's gatherFacts: [TierPaths] lists the paths,
// the caller resolves each), so that [DecideWith] stays pure. The zero
// value (or nil) means: paths are taken as written, and no home is known
// (the built-in grants under ~ do not apply).
type Facts struct {
	// Home is the user's home directory, symlinks resolved: the built-in
	// grants under ~ (~/go/pkg/mod, ~/.cargo/registry, …) and entries
	// written with ~ are relative to it.
	Home string
	// Root is Settings.Root with symlinks resolved ("" : as written).
	Root string
	// Real maps a path [TierPaths] returned to where it points, symlinks
	// resolved through its longest existing prefix. A path missing from it
	// is taken as written.
	Real map[string]string
}

// access is one path a command reads or writes.
type access struct {
	tier string // TierRead or TierWrite
	path string // absolute and clean, links of this text followed (not yet resolved by Facts)
	cmd  int    // index in Analysis.Commands; -1 for a synthetic command
	name string // the command's name, for reasons and git's exception
	word string // the word as written, for reasons
	dir  bool   // the word names a directory the command works in (offer that tree itself)
	tree bool   // the command reads the whole tree below the path (grep -r, cp -r, tar -c)
}

// tierEntry is a built-in entry of a tier: a tree under base ("/" for
// absolute, "~" for home, "." for the project root).
type tierEntry struct {
	tier string
	kind Decision
	base string
	rel  string
}

// builtinTiers are the built-in read and write entries: the project is
// readable and writable, except git's internals and .guard/ (denied for
// writes); the system's public trees and the toolchains' caches are
// readable; scratch space is writable; the credential files under /etc
// are asked about. Longest prefix wins, so a user's entry below one of
// these decides for its own tree. Guard's own config and state are denied
// to every write by classify's hard denylist (guard-self), before any tier.
var builtinTiers = [...]tierEntry{
	{TierRead, Allow, ".", ""},
	{TierWrite, Allow, ".", ""},
	{TierWrite, Deny, ".", ".git"},
	{TierWrite, Deny, ".", ".guard"},
	{TierRead, Allow, "/", "usr"},
	{TierRead, Allow, "/", "etc"},
	{TierRead, Allow, "/", "opt"},
	{TierRead, Allow, "/", "bin"},
	{TierRead, Allow, "/", "sbin"},
	{TierRead, Allow, "/", "lib"},
	{TierRead, Allow, "/", "lib32"},
	{TierRead, Allow, "/", "lib64"},
	{TierRead, Allow, "/", "tmp"},
	{TierRead, Allow, "/", "var/tmp"},
	{TierRead, Allow, "/", "private/tmp"},
	{TierRead, Allow, "/", "private/etc"},
	{TierRead, Allow, "/", "dev/null"},
	{TierRead, Allow, "/", "dev/zero"},
	{TierRead, Allow, "/", "dev/urandom"},
	{TierRead, Allow, "/", "dev/random"},
	{TierRead, Allow, "/", "dev/stdin"},
	{TierRead, Allow, "/", "proc/cpuinfo"},
	{TierRead, Allow, "/", "proc/meminfo"},
	{TierRead, Ask, "/", "etc/shadow"},
	{TierRead, Ask, "/", "etc/shadow-"},
	{TierRead, Ask, "/", "etc/gshadow"},
	{TierRead, Ask, "/", "etc/gshadow-"},
	{TierRead, Ask, "/", "etc/sudoers"},
	{TierRead, Ask, "/", "etc/sudoers.d"},
	{TierRead, Ask, "/", "etc/ssl/private"},
	{TierRead, Ask, "/", "etc/ssh"},
	{TierRead, Ask, "/", "etc/security/opasswd"},
	{TierRead, Ask, "/", "etc/krb5.keytab"},
	{TierRead, Ask, "/", "etc/wireguard"},
	{TierRead, Ask, "/", "etc/NetworkManager/system-connections"},
	{TierRead, Ask, "/", "etc/openvpn"},
	{TierRead, Ask, "/", "etc/letsencrypt"},
	// what servers keep under /etc (issue 18): the files themselves are
	// on classify's credential table too (credential-read denies them to
	// every reader); these entries ask for what lists or names them
	{TierRead, Ask, "/", "etc/pki/tls/private"},
	{TierRead, Ask, "/", "etc/rancher"},
	{TierRead, Ask, "/", "etc/kubernetes"},
	{TierRead, Ask, "/", "etc/gitlab-runner"},
	{TierRead, Ask, "/", "etc/gitlab"},
	{TierRead, Ask, "/", "etc/apt/auth.conf"},
	{TierRead, Ask, "/", "etc/apt/auth.conf.d"},
	{TierRead, Ask, "/", "etc/postfix/sasl_passwd"},
	{TierRead, Ask, "/", "etc/postfix/sasl_passwd.db"},
	{TierRead, Ask, "/", "etc/ppp"},
	{TierRead, Ask, "/", "etc/ipsec.secrets"},
	{TierRead, Ask, "/", "etc/ipsec.d/private"},
	{TierRead, Ask, "/", "etc/strongswan"},
	{TierRead, Ask, "/", "etc/swanctl/private"},
	{TierRead, Ask, "/", "etc/sssd"},
	{TierRead, Ask, "/", "etc/ldap.secret"},
	{TierRead, Ask, "/", "etc/libnss-ldap.secret"},
	{TierRead, Ask, "/", "etc/pam_ldap.secret"},
	{TierRead, Ask, "/", "etc/nslcd.conf"},
	{TierRead, Ask, "/", "etc/mysql/debian.cnf"},
	{TierRead, Ask, "/", "etc/wpa_supplicant"},
	{TierRead, Ask, "/", "etc/wpa_supplicant.conf"},
	{TierRead, Ask, "/", "etc/netplan"},
	{TierRead, Ask, "/", "etc/docker/key.json"},
	{TierRead, Ask, "/", "etc/ceph"},
	{TierRead, Ask, "/", "etc/master.passwd"},
	{TierRead, Ask, "/", "etc/exim4/passwd.client"},
	{TierRead, Ask, "/", "etc/msmtprc"},
	{TierRead, Allow, "~", "go/pkg/mod"},
	{TierRead, Allow, "~", ".cache/go-build"},
	{TierRead, Allow, "~", ".cargo/registry"},
	{TierRead, Allow, "~", ".cargo/git"},
	{TierRead, Allow, "~", ".rustup/toolchains"},
	{TierRead, Allow, "~", ".npm/_cacache"},
	{TierRead, Allow, "~", ".cache/pip"},
	{TierRead, Allow, "~", ".m2/repository"},
	{TierRead, Allow, "~", ".gradle/caches"},
	{TierRead, Allow, "~", ".nvm/versions"},
	{TierRead, Allow, "~", ".pyenv/versions"},
	{TierRead, Allow, "~", ".rbenv/versions"},
	// The home directory is no built-in grant's, even where a wider entry
	// covers it: a HOME under /tmp (containers, CI, sandboxes) must not make
	// ~/.bashrc scratch space. The empty kind decides nothing (asked, with a
	// grant offered, as outside any entry); a project inside it, and the
	// toolchain caches above, are longer entries.
	{TierRead, "", "~", ""},
	{TierWrite, "", "~", ""},
	{TierWrite, Allow, "/", "tmp"},
	{TierWrite, Allow, "/", "var/tmp"},
	{TierWrite, Allow, "/", "private/tmp"},
	{TierWrite, Allow, "/", "dev/null"},
}

// tierScope ranks the layers whose allow entries count, per tier: the
// network tier counts only project-scoped grants (this project's answers,
// a trusted project config, the managed policy), so a host approved in one
// project is not approved in another.
func tierAllowLayer(tier, layer string) bool {
	switch layer {
	case LayerProjectGrants, LayerProject, LayerManaged:
		return true
	case LayerGlobal, LayerGlobalGrants:
		return tier != TierHTTP
	}
	return false
}

// within reports whether p is tree or below it.
func underTree(p, tree string) bool {
	if tree == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == tree || strings.HasPrefix(p, tree) && len(p) > len(tree) && p[len(tree)] == '/'
}

// pathVerdict is how the tier entries decide one path.
type pathVerdict struct {
	kind Decision // Allow, Ask, Deny; "" when no entry covers the path
	// the deciding entry's tree is base joined with rel (kept apart so
	// that a decision allocates nothing; see entry)
	base, rel string
	rule      *Rule // the deciding user entry; nil for a built-in one
}

// entry is the deciding entry's tree, for reasons.
func (v pathVerdict) entry() string {
	if v.rel == "" {
		return v.base
	}
	return path.Join(v.base, v.rel)
}

// underJoined reports whether p is base/rel or below it (rel "" : base),
// and the length of that tree, without building the string.
func underJoined(p, base, rel string) (int, bool) {
	if rel == "" {
		return len(base), base != "" && underTree(p, base)
	}
	n := len(base)
	if base != "/" {
		if !strings.HasPrefix(p, base) || len(p) <= n || p[n] != '/' {
			return 0, false
		}
		n++
	} else if !strings.HasPrefix(p, "/") {
		return 0, false
	}
	rest := p[n:]
	if !strings.HasPrefix(rest, rel) || len(rest) > len(rel) && rest[len(rel)] != '/' {
		return 0, false
	}
	return n + len(rel), true
}

// rank orders kinds at an equal prefix length: deny, then ask, then allow.
func rank(k Decision) int {
	switch k {
	case Deny:
		return 3
	case Ask:
		return 2
	case Allow:
		return 1
	}
	return 0
}

// tiers holds what one decision's tier checks need, computed once.
type tiers struct {
	s      *Settings
	f      *Facts
	root   string // the project root, resolved when Facts know it
	home   string
	links  [][2]string // this text's ln -s: link path → target
	acc    []access
	done   bool
	hostsK []hostAccess
}

type hostAccess struct {
	cmd     int
	name    string
	host    string
	unknown bool
}

func makeTiers(s *Settings, f *Facts) tiers {
	t := tiers{s: s, f: f, root: s.Root}
	if f != nil {
		if f.Root != "" {
			t.root = f.Root
		}
		t.home = f.Home
	}
	return t
}

// decidePath applies the entries of tier to p (already resolved): the
// longest entry that is p or a parent of p decides; at equal length deny
// beats ask beats allow. For reads, a write allow entry counts too: a tree
// one may write is one one may read.
func (t *tiers) decidePath(tier, p string) pathVerdict {
	var best pathVerdict
	bestLen := -1
	consider := func(kind Decision, base, rel string, r *Rule) {
		n, ok := underJoined(p, base, rel)
		if !ok {
			return
		}
		if n > bestLen || n == bestLen && rank(kind) > rank(best.kind) {
			best, bestLen = pathVerdict{kind: kind, base: base, rel: rel, rule: r}, n
		}
	}
	for i := range builtinTiers {
		e := &builtinTiers[i]
		if e.tier != tier && !(tier == TierRead && e.tier == TierWrite && e.kind == Allow) {
			continue
		}
		var base string
		switch e.base {
		case ".":
			base = t.root
		case "~":
			base = t.home
			if e.rel == "" && t.root != "" && base != "" {
				if _, inside := underJoined(base, t.root, ""); inside {
					continue // the home is the project (or inside it): the project's entry decides
				}
			}
		default:
			base = "/"
		}
		if base == "" {
			continue
		}
		consider(e.kind, base, e.rel, nil)
	}
	for i := range t.s.Tiers {
		r := &t.s.Tiers[i]
		if r.Tier != tier && !(tier == TierRead && r.Tier == TierWrite && r.Kind == Allow) {
			continue
		}
		if r.Kind == Allow && (!tierAllowLayer(r.Tier, r.Layer) || r.Layer == LayerProject && !r.Trusted) {
			continue
		}
		if r.Pattern == "~" || strings.HasPrefix(r.Pattern, "~/") {
			// ~ is the home directory ("" when unknown: no match)
			if t.home != "" {
				consider(r.Kind, t.home, strings.TrimPrefix(r.Pattern[1:], "/"), r)
			}
			continue
		}
		consider(r.Kind, r.Pattern, "", r)
	}
	return best
}

// real returns where p points, as the Facts resolved it.
func (t *tiers) real(p string) string {
	if t.f != nil {
		if r, ok := t.f.Real[p]; ok {
			return r
		}
	}
	return p
}

// accesses lists every path the text reads or writes (computed once).
func (t *tiers) accesses(a *classify.Analysis) []access {
	if t.done {
		return t.acc
	}
	t.done = true
	if t.root == "" {
		return nil // no project known (a Settings not made by Load): the path tiers are off
	}
	t.links = lnLinks(a)
	for i := range a.Commands {
		t.commandAccesses(i, &a.Commands[i])
	}
	for ri := range a.Redirects {
		r := &a.Redirects[ri]
		if r.Op == "<<" || r.Op == "<<<" || r.Dynamic || r.Rel {
			continue
		}
		name := ""
		if r.Cmd >= 0 && r.Cmd < len(a.Commands) {
			name = a.Commands[r.Cmd].Name
		}
		for _, p := range r.Paths {
			p = t.follow(p)
			if r.Op == "<" || r.Op == "<>" {
				t.acc = append(t.acc, access{tier: TierRead, path: p, cmd: r.Cmd, name: name, word: p})
			}
			if r.Writes() {
				t.acc = append(t.acc, access{tier: TierWrite, path: p, cmd: r.Cmd, name: name, word: p})
			}
		}
	}
	return t.acc
}

// follow rewrites p through a link this same text makes (ln -s /etc x;
// cat x/shadow reads /etc/shadow): the disk does not hold it yet.
func (t *tiers) follow(p string) string {
	for range 8 {
		moved := false
		for _, l := range t.links {
			if underTree(p, l[0]) {
				p = path.Join(l[1], strings.TrimPrefix(p, l[0]))
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	return p
}

// lnLinks returns the symbolic links ln -s makes in this text: the link's
// absolute path and the absolute target.
func lnLinks(a *classify.Analysis) [][2]string {
	var out [][2]string
	for i := range a.Commands {
		c := &a.Commands[i]
		if c.Dir == "" {
			continue
		}
		s := classify.SpecFor(c.Name)
		if s == nil || s.Symlinks == nil {
			continue
		}
		p := c.Words()
		if !p.Has(s.Symlinks...) {
			continue // the entry's options that make links (ln -s)
		}
		var reads, writes []classify.Word
		for _, wd := range p.Words {
			switch {
			case wd.Name != "":
			case wd.Role == classify.RoleRead:
				reads = append(reads, wd)
			case wd.Role == classify.RoleWrite:
				writes = append(writes, wd)
			}
		}
		if len(reads) != 1 || len(writes) != 1 || dyn(c, reads[0].Arg) || dyn(c, writes[0].Arg) {
			continue
		}
		link := absolute(writes[0].Val, c.Dir)
		target := reads[0].Val
		if !path.IsAbs(target) {
			target = path.Join(path.Dir(link), target) // a relative target is relative to the link
		}
		out = append(out, [2]string{link, path.Clean(target)})
	}
	return out
}

func absolute(p, dir string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// implicitHere are commands that, given no path, read their working
// directory (ls, du, fd; find, tree and rg say it in their entries,
// classify.Spec.ReadsHere): after cd /elsewhere, that is elsewhere.
func implicitHere(name string) bool {
	if s := classify.SpecFor(name); s != nil && s.ReadsHere {
		return true
	}
	switch name {
	case "ls", "du", "fd", "fdfind":
		return true
	}
	return false
}

// commandAccesses adds the paths command c reads and writes, read from the
// argument model's roles: read, meta and use words are reads; write words
// writes; a directory word (tar -C, make -C) a write unless the command is
// one of the built-in read-only set's (git -C DIR log); sed -i's files are
// writes; curl -O, wget and tar -x write into the working directory; dd's
// if= and of=; a command without a spec takes the argument model's
// conservative reading: each path-like word may be written.
//
// (rootListing words are left out: ls / only names the root's entries.)
func (t *tiers) commandAccesses(i int, c *classify.Command) {
	if len(c.Args) < 2 || c.Name == "" || dyn(c, 0) || c.Opaque {
		return
	}
	switch c.Wrap {
	case classify.WrapShell, classify.WrapGenerated:
		return // judged by what they run (their Inner commands are in the list)
	case classify.WrapTransparent:
		if len(c.Inner) > 0 || c.InnerStart <= 0 || c.InnerStart >= len(c.Args) {
			return
		}
		in := classify.Command{Args: c.Args[c.InnerStart:], Parent: -1, Dir: c.Dir, DirUnknown: c.DirUnknown, Name: path.Base(c.Args[c.InnerStart])}
		if c.Dynamic != nil {
			in.Dynamic = c.Dynamic[c.InnerStart:]
		}
		t.commandAccesses(i, &in)
		return
	}
	p := c.Words()
	name := c.Name
	spec := classify.SpecFor(name)
	symlink := spec != nil && spec.Symlinks != nil && p.Has(spec.Symlinks...) // ln -s, as its entry says
	add := func(tier, w string, dirWord bool) {
		ap, ok := t.wordPlace(c, w)
		if !ok {
			return
		}
		if !(symlink && tier == TierWrite) {
			ap = t.follow(ap) // (the link ln -s makes is where it is made)
		}
		glob := strings.ContainsAny(w, "*?[")
		t.acc = append(t.acc, access{tier: tier, path: ap, cmd: i, name: name, word: w, dir: dirWord || glob})
	}
	tree := classify.ReadsTree(c)
	addTree := func(w string) {
		add(TierRead, w, false)
		if tree && len(t.acc) > 0 && t.acc[len(t.acc)-1].word == w {
			t.acc[len(t.acc)-1].tree = true
		}
	}
	// sed -i: the files it reads it rewrites (the entry's InPlace options)
	inPlace := spec != nil && spec.InPlace != nil && p.Has(spec.InPlace...)
	readOnlyCmd := false
	if check, ok := readOnlySet(c.Args[0]); ok && (check == nil || check(c)) {
		readOnlyCmd = true
	}
	sawPath := false
	for _, wd := range p.Words {
		if dyn(c, wd.Arg) || wd.Rest || remote(wd.Val) && wd.Role != classify.RoleUnknown {
			continue
		}
		switch wd.Role {
		case classify.RoleRead:
			sawPath = true
			if inPlace && wd.Name == "" {
				add(TierWrite, wd.Val, false)
				continue
			}
			addTree(wd.Val)
		case classify.RoleMeta, classify.RoleUse:
			sawPath = true
			if wd.Role == classify.RoleMeta && rootListing(c, wd.Val) {
				continue // ls -la /: the root's names are no one's secret
			}
			add(TierRead, wd.Val, wd.Role == classify.RoleMeta)
		case classify.RoleWrite:
			sawPath = true
			add(TierWrite, wd.Val, false)
		case classify.RoleDir:
			if readOnlyCmd {
				add(TierRead, wd.Val, true)
			} else {
				add(TierWrite, wd.Val, true)
			}
		case classify.RoleUnknown:
			v := wd.Val
			if strings.HasPrefix(v, "-") {
				_, after, ok := strings.Cut(v, "=")
				if !ok {
					continue
				}
				v = after
			}
			switch {
			case name == "dd" && strings.HasPrefix(v, "of="):
				add(TierWrite, v[3:], false)
			case name == "dd" && strings.HasPrefix(v, "if="):
				add(TierRead, v[3:], false)
			case !tierPathLike(v) || remote(v):
			case name == "source" || name == "." || readOnlyCmd:
				add(TierRead, v, false)
			default:
				add(TierWrite, v, false)
			}
		}
	}
	if writesHere(name, p) {
		add(TierWrite, ".", true)
	}
	if !sawPath && implicitHere(name) {
		add(TierRead, ".", true)
	}
}

// tierPathLike reports a word a command without a spec may take as a path:
// absolute, under ~, or relative with a slash or a dot (not a URL).
func tierPathLike(v string) bool {
	if v == "" || strings.Contains(v, "://") {
		return false
	}
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || v == "." || v == ".." || strings.Contains(v, "/")
}

// remote reports an ssh-style host:path operand (scp, rsync): the other
// side, which the network tier judges.
func remote(v string) bool {
	k := strings.IndexByte(v, ':')
	return k > 0 && !strings.Contains(v[:k], "/")
}

// wordPath makes word w of c an absolute, clean path: relative to the
// command's directory, ~ at home, a glob cut back to its literal parent
// directory, links this text makes followed. ok is false when it names no
// place guard can know (a relative path after a cd to a computed place,
// ~user).
func (t *tiers) wordPath(c *classify.Command, w string) (string, bool) {
	p, ok := t.wordPlace(c, w)
	if !ok {
		return "", false
	}
	return t.follow(p), true
}

// wordPlace is wordPath without following this text's links.
func (t *tiers) wordPlace(c *classify.Command, w string) (string, bool) {
	w = strings.TrimPrefix(w, "file://")
	switch {
	case w == "" || w == "-":
		return "", false
	case w == "~" || strings.HasPrefix(w, "~/"):
		if t.home == "" {
			return "", false
		}
		w = t.home + w[1:]
	case strings.HasPrefix(w, "~"):
		return "", false
	case !path.IsAbs(w):
		if c.DirUnknown || c.Dir == "" {
			return "", false
		}
		w = path.Join(c.Dir, w)
	}
	w = path.Clean(w)
	if k := strings.IndexAny(w, "*?["); k >= 0 {
		// a glob: the directory before its first pattern component
		w = path.Dir(w[:k] + "x")
	}
	return w, true
}

// verdictFor judges one access with the entries: its resolved path and how
// the tier decides it.
func (t *tiers) verdictFor(ac *access) (string, pathVerdict) {
	p := t.real(ac.path)
	v := t.decidePath(ac.tier, p)
	if v.kind == Deny && v.rule == nil && ac.cmd >= 0 && keeps(ac.name, v.rel) {
		// git itself keeps its own directory (classify.Spec.Keeps)
		v = t.decidePath(ac.tier, t.root)
	}
	return p, v
}

// keeps reports rel as the directory the program name keeps for itself
// ([classify.Spec.Keeps]: git's .git).
func keeps(name, rel string) bool {
	s := classify.SpecFor(name)
	return s != nil && s.Keeps != "" && s.Keeps == rel
}

// denied returns the first access a deny entry covers.
func (t *tiers) denied(a *classify.Analysis) (Verdict, bool) {
	for k := range t.accesses(a) {
		ac := &t.acc[k]
		p, v := t.verdictFor(ac)
		if v.kind != Deny {
			continue
		}
		what := "reads"
		if ac.tier == TierWrite {
			what = "writes"
		}
		out := Verdict{Decision: Deny, Rule: RulePathDeny, Risk: RiskHigh, Layer: LayerBuiltin,
			Reason: fmt.Sprintf("%s %s %s, which a %s deny entry (%s) covers", cmdLabel(ac.name), what, p, ac.tier, v.entry())}
		if v.rule != nil {
			out.Layer, out.File, out.Line = v.rule.Layer, v.rule.File, v.rule.Line
		} else if v.rel == ".guard" {
			out.Reason = fmt.Sprintf("%s writes %s: .guard/ holds the project's guard config, which no guarded command may change", cmdLabel(ac.name), p)
		} else {
			out.Reason = fmt.Sprintf("%s writes %s: git's own directory is changed only through git", cmdLabel(ac.name), p)
		}
		return out, true
	}
	return Verdict{}, false
}

// asked returns the first access no entry allows: a read or write outside
// the project that no grant covers, or one an ask entry covers, or a whole
// tree read that holds one (grep -r x /etc holds /etc/shadow).
func (t *tiers) asked(a *classify.Analysis) (Verdict, bool) {
	for k := range t.accesses(a) {
		ac := &t.acc[k]
		p, v := t.verdictFor(ac)
		if v.kind == Allow {
			if inner := t.heldEntry(p, ac); inner != "" {
				return Verdict{Decision: Ask, Rule: RulePathRead, Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true,
					Reason: fmt.Sprintf("%s reads the whole tree %s, which holds %s, where a read ask or deny entry applies", cmdLabel(ac.name), p, inner)}, true
			}
			continue
		}
		rule, verb := RulePathRead, "reads"
		if ac.tier == TierWrite {
			rule, verb = RulePathWrite, "writes"
		}
		reason := fmt.Sprintf("%s %s %s, outside the project; no %s grant covers it", cmdLabel(ac.name), verb, p, ac.tier)
		if v.kind == Ask {
			reason = fmt.Sprintf("%s %s %s, which a %s ask entry (%s) covers", cmdLabel(ac.name), verb, p, ac.tier, v.entry())
		}
		out := Verdict{Decision: Ask, Rule: rule, Reason: reason, Risk: RiskHigh, Layer: LayerBuiltin}
		if v.rule != nil {
			out.Layer, out.File, out.Line = v.rule.Layer, v.rule.File, v.rule.Line
		}
		if v.kind == Ask {
			out.OnceOnly = true // a stored grant could not override the ask entry
		} else if tree := t.offerTree(p, ac); tree != "" {
			out.Suggest = TierGrant(ac.tier, tree)
		}
		return out, true
	}
	return Verdict{}, false
}

// heldEntry returns a read ask or deny entry strictly below p when ac
// reads p's whole tree, "" otherwise.
func (t *tiers) heldEntry(p string, ac *access) string {
	if !ac.tree || ac.tier != TierRead {
		return ""
	}
	for i := range builtinTiers {
		e := &builtinTiers[i]
		if e.tier != TierRead || e.kind != Ask && e.kind != Deny || e.base != "/" {
			continue
		}
		if q := "/" + e.rel; q != p && underTree(q, p) {
			return q
		}
	}
	for i := range t.s.Tiers {
		r := &t.s.Tiers[i]
		if r.Tier == TierRead && (r.Kind == Ask || r.Kind == Deny) && path.IsAbs(r.Pattern) && r.Pattern != p && underTree(r.Pattern, p) {
			return r.Pattern
		}
	}
	return ""
}

// offerTree is the tree an answer grants: the directory a file is in, or a
// directory word itself; never /, the home directory or a parent of the
// project (too wide: the human may edit it).
func (t *tiers) offerTree(p string, ac *access) string {
	tree := p
	if !ac.dir {
		tree = path.Dir(p)
	}
	for _, wide := range []string{"/", t.home, path.Dir(t.home)} {
		if tree == wide {
			tree = p
		}
	}
	if tree == "/" || tree == "" || underTree(t.root, tree) && tree != t.root {
		return p
	}
	return tree
}

// redirectsOK reports whether every redirect and heredoc of the text's own
// syntax is a project write (or read) the tiers allow, so that the redirect
// makes the command no more composite than it is without: a literal target
// the read or write tier allows (not .git internals, not .guard/, not a
// place outside the project no grant covers), and heredocs only into cat
// or tee, which copy them. It returns false when there is none.
//
// When the only thing that stops it is a literal target no entry covers
// (outside the project), missing is that target's access: a tree grant for
// it would make the redirect a project write.
func (t *tiers) redirectsOK(a *classify.Analysis) (ok bool, missing *access) {
	if t.root == "" {
		return false, nil
	}
	any := false
	var gap *access
	for ri := range a.Redirects {
		r := &a.Redirects[ri]
		if !r.Top {
			continue
		}
		any = true
		if r.Op == "<<" || r.Op == "<<<" {
			if r.Cmd < 0 || r.Cmd >= len(a.Commands) {
				return false, nil
			}
			if n := a.Commands[r.Cmd].Name; n != "cat" || len(a.Commands[r.Cmd].Args) == 0 {
				if n != "tee" {
					return false, nil
				}
			}
			continue
		}
		if r.Dynamic || r.Rel || len(r.Paths) == 0 || r.Op == ">&" {
			return false, nil
		}
		for _, p := range r.Paths {
			p = t.real(t.follow(p))
			for _, tier := range [...]string{TierRead, TierWrite} {
				if tier == TierRead && r.Op != "<" && r.Op != "<>" || tier == TierWrite && !r.Writes() {
					continue
				}
				switch t.decidePath(tier, p).kind {
				case Allow:
				case "":
					if gap == nil {
						gap = &access{tier: tier, path: p, cmd: r.Cmd, word: p}
					}
				default:
					return false, nil // an ask or deny entry: no grant helps
				}
			}
		}
	}
	if gap != nil {
		return false, gap
	}
	return any, nil
}

// TierPaths returns the absolute paths the tiers will judge for a under s,
// as written (a relative path joined to its command's directory, this
// text's own ln -s links followed), each once: the caller resolves them
// into Facts.Real. home is the home directory as the caller knows it.
func TierPaths(a *classify.Analysis, s *Settings, home string) []string {
	if a == nil || s == nil || a.Fail != "" {
		return nil
	}
	tv := makeTiers(s, &Facts{Home: home})
	t := &tv
	var out []string
	seen := map[string]bool{}
	for _, ac := range t.accesses(a) {
		if !seen[ac.path] {
			seen[ac.path] = true
			out = append(out, ac.path)
		}
	}
	return out
}

// TierGrant is the text an answer stores for a tier: "[read] /srv/data",
// "[http] api.github.com", "[packages] npm:left-pad@1.3.0". [AddRule]
// takes it, as does guard grants add.
func TierGrant(tier, value string) string {
	return "[" + tier + "] " + value
}

// ParseTierGrant splits a [TierGrant] text; ok is false for a bash pattern.
func ParseTierGrant(s string) (tier string, values []string, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return "", nil, false
	}
	end := strings.Index(s, "] ")
	if end < 0 {
		return "", nil, false
	}
	tier = s[1:end]
	switch tier {
	case TierRead, TierWrite, TierHTTP, TierPackages:
	default:
		return "", nil, false
	}
	values = strings.Fields(s[end+2:])
	if tier == TierRead || tier == TierWrite {
		values = []string{strings.TrimSpace(s[end+2:])} // a path may hold spaces
	}
	return tier, values, len(values) > 0 && values[0] != ""
}

// ProjectOnly reports a suggested grant that only counts for this project
// (a host): "allow everywhere" is not offered for it.
func ProjectOnly(suggest string) bool {
	return strings.HasPrefix(suggest, "["+TierHTTP+"] ")
}

func cmdLabel(name string) string {
	if name == "" {
		return "a redirect"
	}
	return name
}

// RuleProjectWrite allows tee writing only files the write tier allows
// (inside the project): the same as a redirect there.
const RuleProjectWrite = "project-write"

// teeOK reports tee whose every file is a write the tiers allow (the
// project, /tmp, a write grant) and whose options only append or ignore
// signals: cmd | tee log.txt is the redirect cmd > log.txt that also
// shows the output.
func (t *tiers) teeOK(c *classify.Command) bool {
	if c.Name != "tee" || t.root == "" || c.Args[0] != "tee" {
		return false
	}
	p := c.Words()
	if p.Unknown || !p.Spec {
		return false
	}
	for _, wd := range p.Words {
		if dyn(c, wd.Arg) {
			return false
		}
		if wd.Name != "" {
			switch wd.Name {
			case "append", "a", "ignore-interrupts", "i", "p", "output-error":
				continue
			}
			return false
		}
		if wd.Role != classify.RoleWrite {
			return false
		}
		ap, ok := t.wordPath(c, wd.Val)
		if !ok || t.decidePath(TierWrite, t.real(ap)).kind != Allow {
			return false
		}
	}
	return true
}

// writeGranted reports a write of word w by c that a user's write grant
// covers (a [permissions.write] allow entry decides it): a '*' grant may
// then cover it, as it covers writes inside the project.
func (t *tiers) writeGranted(c *classify.Command, w string) bool {
	if t == nil || t.root == "" {
		return false
	}
	p, ok := t.wordPath(c, w)
	if !ok {
		return false
	}
	v := t.decidePath(TierWrite, t.real(p))
	return v.kind == Allow && v.rule != nil
}

// TierEntryCounts says whether a tier entry takes part in decisions, and
// why not when it does not: a host allowed outside project scope, an
// untrusted project config's allow, or an allow the managed policy keeps
// from counting. For guard policy show.
func (s *Settings) TierEntryCounts(r *Rule) (bool, string) {
	if r.Kind != Allow {
		return true, ""
	}
	switch {
	case !tierAllowLayer(r.Tier, r.Layer):
		return false, "a host is granted per project: global grants do not count"
	case r.Layer == LayerProject && !r.Trusted:
		return false, "project config not trusted (run guard trust)"
	}
	if why := s.allowWhyNot(r); why != "" {
		return false, why
	}
	return true, ""
}

// rootListing reports a word that names the root directory itself, for a
// command that only lists it (ls -la /, stat /): bin, etc, home and usr
// are no one's secret.
func rootListing(c *classify.Command, w string) bool {
	if c.Name != "ls" && c.Name != "stat" {
		return false
	}
	return w != "" && strings.Trim(w, "/.") == "" && strings.HasPrefix(w, "/")
}
