package classify

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// rule is one entry of the hard denylist or of the built-in ask rules: an
// id, the one line an agent reads, and the check on one command.
type rule struct {
	id     string
	reason string
	check  func(w *walker, c int) bool
}

// denyRules is the hard denylist. Nothing overrides it. Its tests are the
// cases in table_test.go grouped under each id.
var denyRules = []rule{
	{"rm-root", "deletes / or a system directory; guard never runs this", (*walker).rmRoot},
	{"disk-format", "formats or repartitions a disk; guard never runs this", (*walker).diskFormat},
	{"disk-write", "writes raw data to a block device; guard never runs this", (*walker).diskWrite},
	{"shred", "shred destroys file contents beyond recovery; guard never runs it (use rm)", (*walker).shred},
	{"chmod-system", "changes ownership or permissions of / or a system directory recursively; guard never runs this", (*walker).chmodSystem},
	{"chattr-system", "changes immutable/append-only attributes on system paths; guard never runs this", (*walker).chattrSystem},
	{"privilege", "runs a command as another user (sudo, su, doas, pkexec, run0); guard never runs this: ask the human to run it", (*walker).privilege},
	{"download-exec", "runs code downloaded from the network; download it, read it, then run the file", (*walker).downloadExec},
	{"credential-read", "reads a credential file (private keys, cloud or registry credentials, shadow passwords); guard never runs this", (*walker).credentialRead},
	{"security-off", "turns off a security mechanism (firewall, SELinux, AppArmor, audit, SIP); guard never runs this", (*walker).securityOff},
	{"kill-all", "signals every process the user can reach (kill -1); guard never runs this", (*walker).killAll},
	{"guard-self", "changes guard's own grants, config, state or installation from inside a guarded command; only the human may do that, at their terminal", (*walker).guardSelf},
	{"fork-bomb", "defines a function that forks itself without end (fork bomb); guard never runs this", nil},
	{"hidden-exec", "hides code in text bash evaluates at run time (a quoted string in arithmetic or an array subscript, ${x@P}, a computed variable name); write the command out plainly", (*walker).hiddenExec},
}

// askRules are the built-in destructive patterns that are not on the
// denylist: guard asks about them whatever the grants say.
var askRules = []rule{
	{"git-force-push", "git push that rewrites or deletes remote history (--force, +refspec, --delete)", (*walker).gitForcePush},
	{"git-reset-hard", "git reset --hard discards uncommitted work", (*walker).gitResetHard},
	{"git-clean", "git clean -f deletes untracked files", (*walker).gitClean},
	{"git-checkout-discard", "discards uncommitted changes in the working tree", (*walker).gitCheckoutDiscard},
	{"git-branch-delete", "force-deletes a git branch (-D), unmerged work included", (*walker).gitBranchDelete},
	{"rm-recursive", "rm -r deletes a whole directory tree", (*walker).rmRecursive},
	{"rm-home", "deletes files in the home directory, outside the project", (*walker).rmHome},
	{"find-delete", "find -delete deletes every file it matches", (*walker).findDelete},
	{"truncate", "truncate cuts files to a size, destroying their contents", (*walker).truncate},
	{"sql-drop", "drops or truncates database tables", (*walker).sqlDrop},
	{"kubectl-delete", "kubectl delete removes cluster resources", (*walker).kubectlDelete},
	{"terraform-destroy", "destroys infrastructure managed by terraform", (*walker).terraformDestroy},
	{"docker-prune", "docker prune deletes containers, images, volumes or networks", (*walker).dockerPrune},
	{"dotenv-read", "reads a .env file, where projects keep their secrets (.env.example, .env.sample and .env.template are fine)", (*walker).dotenvRead},
}

// severity ranks the built-in rules, most severe first: when several hit,
// the verdict names the worst (rm -rf ~ must not read like rm -rf build)
// and lists the rest.
var severity = []string{
	"rm-root", "disk-format", "disk-write", "fork-bomb", "kill-all", "credential-read", "privilege",
	"guard-self", "download-exec", "security-off", "chmod-system", "chattr-system", "shred", "hidden-exec",
	"rm-home", "terraform-destroy", "kubectl-delete", "sql-drop", "git-force-push", "find-delete",
	"git-clean", "git-reset-hard", "rm-recursive", "git-checkout-discard", "git-branch-delete",
	"truncate", "docker-prune", "dotenv-read",
}

// MostSevere returns the most severe of hits (the first of equals) and
// the ids of the others, each once, most severe first.
func MostSevere(hits []Hit) (Hit, []string) {
	if len(hits) == 0 {
		return Hit{}, nil
	}
	rank := func(id string) int {
		if i := slices.Index(severity, id); i >= 0 {
			return i
		}
		return len(severity)
	}
	best := 0
	for i := range hits {
		if rank(hits[i].ID) < rank(hits[best].ID) {
			best = i
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	var rest []string
	for _, id := range severity {
		for _, h := range hits {
			if h.ID == id && id != hits[best].ID && !slices.Contains(rest, id) {
				rest = append(rest, id)
			}
		}
	}
	for _, h := range hits {
		if rank(h.ID) == len(severity) && h.ID != hits[best].ID && !slices.Contains(rest, h.ID) {
			rest = append(rest, h.ID)
		}
	}
	return hits[best], rest
}

func ruleReason(rules []rule, id string) string {
	for _, r := range rules {
		if r.id == id {
			return r.reason
		}
	}
	return id
}

// DenyRules lists the hard denylist as (id, reason) pairs, for explain and docs.
func DenyRules() [][2]string { return ruleList(denyRules) }

// AskRules lists the built-in ask rules as (id, reason) pairs.
func AskRules() [][2]string { return ruleList(askRules) }

func ruleList(rules []rule) [][2]string {
	out := make([][2]string, len(rules))
	for i, r := range rules {
		out[i] = [2]string{r.id, r.reason}
	}
	return out
}

func (w *walker) hitDeny(id string, cmd int) {
	for _, h := range w.a.Deny {
		if h.ID == id && h.Cmd == cmd {
			return
		}
	}
	w.a.Deny = append(w.a.Deny, Hit{ID: id, Reason: ruleReason(denyRules, id), Cmd: cmd})
}

func (w *walker) hitAsk(id string, cmd int) {
	for _, h := range w.a.Ask {
		if h.ID == id && h.Cmd == cmd {
			return
		}
	}
	w.a.Ask = append(w.a.Ask, Hit{ID: id, Reason: ruleReason(askRules, id), Cmd: cmd})
}

// judge runs every rule on every command and redirect target.
func (w *walker) judge() {
	var fetched []string // files a downloader wrote earlier in the text
	for c := range w.a.Commands {
		if w.runsFetched(c, fetched) {
			w.hitDeny("download-exec", c)
		}
		fetched = w.fetchedFiles(c, fetched)
		if w.a.Commands[c].Name == "" {
			// a command word not known until run time: only $(curl …)
			// itself can be judged
			if len(w.a.Commands[c].Dynamic) > 0 && w.a.Commands[c].Dynamic[0] && w.downloadExec(c) {
				w.hitDeny("download-exec", c)
			}
			continue
		}
		for _, r := range denyRules {
			if r.check != nil && r.check(w, c) {
				w.hitDeny(r.id, c)
			}
		}
		for _, r := range askRules {
			if r.check(w, c) {
				w.hitAsk(r.id, c)
			}
		}
	}
	for _, rt := range w.redirs {
		write := rt.op != syntax.RdrIn
		read := rt.op == syntax.RdrIn || rt.op == syntax.RdrInOut
		for _, p := range rt.paths {
			if write && isBlockDevice(p) {
				w.hitDeny("disk-write", rt.cmd)
			}
			if write && w.isProtected(p) {
				w.hitDeny("guard-self", rt.cmd)
			}
			if read && w.isCredential(p) {
				w.hitDeny("credential-read", rt.cmd)
			}
			if read && dotenv(p) {
				w.hitAsk("dotenv-read", rt.cmd)
			}
		}
	}
}

// operands returns the fields of c after its name that are not options
// (GNU style: options may follow operands, and -- ends them).
func operands(fs []field) []field {
	var out []field
	dashdash := false
	for _, f := range fs[1:] {
		if !dashdash && !f.dyn {
			if f.val == "--" {
				dashdash = true
				continue
			}
			if len(f.val) > 1 && f.val[0] == '-' {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// hasShort reports an option word -xyz (not --long) holding the letter.
func hasShort(fs []field, letter byte) bool {
	for _, f := range fs[1:] {
		if f.val == "--" {
			return false
		}
		if len(f.val) > 1 && f.val[0] == '-' && f.val[1] != '-' && strings.IndexByte(f.val[1:], letter) >= 0 {
			return true
		}
	}
	return false
}

func hasWord(fs []field, words ...string) bool {
	for _, f := range fs[1:] {
		for _, x := range words {
			if f.val == x {
				return true
			}
		}
	}
	return false
}

func (w *walker) paths(c int, f field) ([]string, bool) {
	return w.resolve(f, w.info[c].dirs)
}

// systemDirs are the directories whose deletion breaks the machine; they
// and their direct children are protected from rm and friends.
var systemDirs = []string{"bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "opt", "proc", "root", "sbin", "srv", "sys", "usr", "var",
	"home", "Users", "System", "Library", "Applications", "Volumes", "private", "mnt", "media", "run", "nix", "snap"}

// isSystem reports whether an absolute path (possibly a glob pattern) may
// name /, a system directory or a direct child of one.
func (w *walker) isSystem(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	if h := w.opt.Home; h != "" && h != "/" && (strings.HasPrefix(p, h+"/") || p == h) {
		return false // home paths have their own rule (rm-home)
	}
	comps := strings.Split(strings.Trim(p, "/"), "/")
	if len(comps) == 1 && comps[0] == "" {
		return true // "/"
	}
	if len(comps) > 2 {
		return false
	}
	for _, d := range systemDirs {
		if ok := matchGlob(comps[0], d); ok || comps[0] == d {
			return true
		}
	}
	return false
}

// underSystem reports a path anywhere below a system directory.
func underSystem(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	if first == "" {
		return true
	}
	switch first {
	case "home", "Users", "mnt", "media", "Volumes":
		return false // people's files and mounted disks, not the system's
	}
	for _, d := range systemDirs {
		if ok := matchGlob(first, d); ok {
			return true
		}
	}
	return false
}

var blockDevicePrefixes = []string{"/dev/block/", "/dev/sd", "/dev/hd", "/dev/nvme", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/mapper/", "/dev/md", "/dev/dm-", "/dev/loop", "/dev/sr", "/dev/nbd", "/dev/rdisk"}

func isBlockDevice(p string) bool {
	p = path.Clean(p)
	for _, pre := range blockDevicePrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

func (w *walker) anySystem(c int, fs []field) bool {
	for _, f := range fs {
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if w.isSystem(p) {
				return true
			}
		}
	}
	return false
}

// pytestOption returns the values of a pytest option (--basetemp=X or
// --basetemp X), for pytest and python -m pytest.
func (w *walker) pytestOption(c int, opt string) []field {
	fs := w.info[c].fields
	name := w.a.Commands[c].Name
	from := 1
	if name != "pytest" && name != "py.test" {
		if _, ok := interpreterName(name); !ok {
			return nil
		}
		from = -1
		for i := 1; i+1 < len(fs); i++ {
			if fs[i].val == "-m" && fs[i+1].val == "pytest" {
				from = i + 2
				break
			}
		}
		if from < 0 {
			return nil
		}
	}
	var out []field
	for i := from; i < len(fs); i++ {
		switch {
		case fs[i].val == opt && i+1 < len(fs):
			out = append(out, fs[i+1])
		case strings.HasPrefix(fs[i].val, opt+"="):
			g := fs[i]
			g.pat = strings.TrimPrefix(g.pat, opt+"=")
			out = append(out, g)
		}
	}
	return out
}

func (w *walker) rmRoot(c int) bool {
	fs := w.info[c].fields
	// pytest deletes its --basetemp directory before the run
	if bt := w.pytestOption(c, "--basetemp"); len(bt) > 0 && w.anySystem(c, bt) {
		return true
	}
	switch w.a.Commands[c].Name {
	case "rm", "rmdir", "unlink":
		return w.anySystem(c, operands(fs))
	case "find":
		fi := parseFind(fs)
		if !fi.delete {
			return false
		}
		roots := fi.roots
		if len(roots) == 0 {
			roots = []field{{val: ".", pat: "."}}
		}
		if !fi.filtered {
			return w.anySystem(c, roots)
		}
		// find /opt/app -name '*.log' -delete deletes matches only: that
		// is rm-root only from / or a system directory itself
		for _, f := range roots {
			ps, _ := w.paths(c, f)
			for _, p := range ps {
				if p == "/" || w.isSystem(p) && strings.Count(strings.Trim(p, "/"), "/") == 0 {
					return true
				}
			}
		}
	}
	return false
}

func (w *walker) diskFormat(c int) bool {
	name := w.a.Commands[c].Name
	switch {
	case name == "mkfs" || strings.HasPrefix(name, "mkfs.") || name == "mke2fs" || name == "mkswap" ||
		name == "wipefs" || name == "mkntfs" || name == "mkdosfs" || name == "mkexfatfs" || name == "mklabel":
		return !w.formatsImage(c)
	}
	fs := w.info[c].fields
	onDevice := false
	for _, f := range fs[1:] {
		if strings.HasPrefix(f.pat, "/dev/") {
			onDevice = true
		}
	}
	if !onDevice {
		return false
	}
	switch name {
	case "fdisk", "gdisk", "cfdisk":
		return !hasWord(fs, "-l", "--list")
	case "sfdisk":
		return !hasWord(fs, "-l", "--list", "-d", "--dump", "-s", "--show-size", "-V", "--verify", "-J", "--json")
	case "sgdisk":
		return !hasWord(fs, "-p", "--print", "-i", "--info", "-v", "--verify")
	case "parted":
		return !hasWord(fs, "-l", "--list", "print")
	case "blkdiscard", "sg_format", "pvcreate", "vgcreate":
		return true
	case "cryptsetup":
		_, v := verb(fs)
		return v == "luksFormat" || v == "format" || v == "erase" || v == "luksErase" || v == "reencrypt"
	case "nvme":
		_, v := verb(fs)
		return v == "format" || v == "sanitize"
	case "hdparm":
		return hasPrefixWord(fs, "--security-erase", "--trim-sector-ranges", "--write-sector", "--dco-restore")
	case "badblocks":
		return hasShort(fs, 'w') || hasShort(fs, 'n')
	case "mdadm":
		return hasWord(fs, "--zero-superblock", "--create", "-C")
	case "zpool":
		_, v := verb(fs)
		return v == "create" || v == "destroy" || v == "labelclear"
	}
	return false
}

// formatsImage reports mkfs and friends given a file, not a disk
// (mkfs.ext4 -F disk.img): some operand names a file by its path or
// extension, and no word could name a device (/dev/…, unknown, or a name
// resolved inside /dev).
func (w *walker) formatsImage(c int) bool {
	image := false
	for _, f := range w.info[c].fields[1:] {
		if strings.HasPrefix(f.val, "-") && !f.dyn {
			continue
		}
		if f.dyn || strings.Contains(f.pat, "*") {
			return false
		}
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if strings.HasPrefix(p, "/dev/") || p == "/dev" {
				return false
			}
		}
		if strings.Contains(f.val, "/") || strings.Contains(path.Base(f.val), ".") {
			image = true
		}
	}
	return image
}

func (w *walker) diskWrite(c int) bool {
	fs := w.info[c].fields
	var targets []field
	for _, o := range []string{"--junitxml", "--junit-xml", "--debug", "--report-log", "--log-file"} {
		targets = append(targets, w.pytestOption(c, o)...)
	}
	switch w.a.Commands[c].Name {
	case "dd", "dcfldd", "dc3dd":
		for _, f := range fs[1:] {
			if strings.HasPrefix(f.pat, "of=") {
				g := f
				g.pat = f.pat[3:]
				targets = append(targets, g)
			}
		}
	case "tee", "sponge":
		targets = operands(fs)
	case "cp", "mv", "install", "rsync", "ddrescue", "pv":
		ops := operands(fs)
		for i, f := range fs {
			if (f.val == "-t" || f.val == "--target-directory") && i+1 < len(fs) {
				targets = append(targets, fs[i+1])
			}
			if strings.HasPrefix(f.val, "--target-directory=") {
				g := f
				g.pat = strings.TrimPrefix(f.pat, "--target-directory=")
				targets = append(targets, g)
			}
		}
		if len(ops) > 1 || (w.a.Commands[c].Name == "pv" && len(ops) > 0) {
			targets = append(targets, ops[len(ops)-1])
		}
	default:
		if len(targets) == 0 {
			return false
		}
	}
	for _, f := range targets {
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			// cp sda /dev/ writes /dev/sda: /dev as the target directory
			if isBlockDevice(p) || p == "/dev" || p == "/dev/mapper" || p == "/dev/disk" || p == "/dev/block" {
				return true
			}
		}
	}
	return false
}

func (w *walker) shred(c int) bool { return w.a.Commands[c].Name == "shred" }

func (w *walker) chmodSystem(c int) bool {
	switch w.a.Commands[c].Name {
	case "chmod", "chown", "chgrp":
	default:
		return false
	}
	fs := w.info[c].fields
	recursive := hasShort(fs, 'R') || hasWord(fs, "--recursive") || w.info[c].fromFind
	for _, f := range operands(fs) {
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if p == "/" || (recursive && w.isSystem(p) && !appDir(p)) {
				return true
			}
		}
	}
	return false
}

func (w *walker) chattrSystem(c int) bool {
	if w.a.Commands[c].Name != "chattr" {
		return false
	}
	fs := w.info[c].fields
	attr := false
	for _, f := range fs[1:] {
		if len(f.val) > 1 && (f.val[0] == '-' || f.val[0] == '+') && strings.ContainsAny(f.val[1:], "ia") || len(f.val) > 0 && f.val[0] == '=' {
			attr = true // = sets the whole list, clearing i and a
		}
	}
	if !attr {
		return false
	}
	for _, f := range fs[1:] {
		if len(f.val) > 0 && (f.val[0] == '-' || f.val[0] == '+' || f.val[0] == '=') {
			continue
		}
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if underSystem(p) {
				return true
			}
		}
	}
	return false
}

// privileged are commands that run another as a different user. Like
// every set here it is a switch rather than a map: a map literal is built
// by init code in every guard process, a switch costs nothing until used.
func privileged(name string) bool {
	switch name {
	case "sudo", "sudoedit", "su", "doas", "pkexec", "run0", "runuser",
		"calife", "super", "sudo-rs", "su-exec", "gosu", "ksu", "dzdo",
		"pfexec", "capsh":
		return true
	}
	return false
}

func (w *walker) privilege(c int) bool {
	name := w.a.Commands[c].Name
	if privileged(name) {
		return true
	}
	fs := w.info[c].fields
	switch name {
	case "setpriv":
		return hasPrefixWord(fs, "--reuid", "--regid", "--init-groups", "--inh-caps", "--ambient-caps")
	case "chpst":
		return hasPrefixWord(fs, "-u", "-U")
	case "machinectl":
		_, v := verb(fs)
		return v == "shell" || v == "login"
	case "systemd-run":
		return hasPrefixWord(fs, "--uid", "--gid", "-pUser=", "--property=User=", "--system")
	}
	return false
}

// hasPrefixWord reports an argument starting with one of the prefixes
// (--reuid=0, -uroot).
func hasPrefixWord(fs []field, prefixes ...string) bool {
	for _, f := range fs[1:] {
		for _, p := range prefixes {
			if strings.HasPrefix(f.val, p) {
				return true
			}
		}
	}
	return false
}

// downloaders are commands that can fetch data from the network.
func downloaders(name string) bool {
	switch name {
	case "curl", "wget", "wget2", "fetch", "http", "https", "xh",
		"xhs", "lwp-request", "GET", "POST", "aria2c", "nc", "ncat", "netcat", "socat",
		"lynx", "links", "w3m", "elinks", "openssl", "ssh", "telnet", "httpie":
		return true
	}
	return false
}

// runsCode are commands that run text they are given as code.
func runsCode(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "rbash", "eval", "source", ".":
		return true
	}
	_, ok := interpreterName(name)
	return ok
}

// fetchedFiles adds the files c downloads to (curl -o F, curl -O URL,
// wget URL, wget -O F) to fetched.
func (w *walker) fetchedFiles(c int, fetched []string) []string {
	name := w.a.Commands[c].Name
	if name != "curl" && name != "wget" && name != "wget2" {
		return fetched
	}
	p := w.words(c)
	add := func(f field) {
		ps, _ := w.paths(c, f)
		fetched = append(fetched, ps...)
	}
	named := false
	for _, wd := range p.Words {
		if wd.Role == RoleWrite && (wd.Name == "output" || wd.Name == "output-document") {
			add(w.valueField(c, wd))
			named = true
		}
	}
	remote := name == "wget" || name == "wget2" || p.Has("O", "remote-name", "remote-name-all")
	if remote && !named {
		for _, wd := range p.ByRole(RoleURL) {
			u := strings.TrimSuffix(wd.Val, "/")
			if k := strings.LastIndexByte(u, '/'); k >= 0 && k+1 < len(u) {
				base, _, _ := strings.Cut(u[k+1:], "?")
				add(field{val: base, pat: base})
			}
		}
	}
	return fetched
}

// runsFetched reports a command that runs a file downloaded earlier in
// the same text: sh x, bash ./x, python3 x, source x, ./x.
func (w *walker) runsFetched(c int, fetched []string) bool {
	cm := &w.a.Commands[c]
	if len(fetched) == 0 || cm.Name == "" {
		return false
	}
	fs := w.info[c].fields
	var cands []field
	if runsCode(cm.Name) {
		for _, f := range fs[1:] {
			if !strings.HasPrefix(f.val, "-") {
				cands = append(cands, f)
				break
			}
		}
	}
	if strings.Contains(fs[0].val, "/") {
		cands = append(cands, fs[0])
	}
	for _, f := range cands {
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if slices.Contains(fetched, p) {
				return true
			}
		}
	}
	return false
}

func (w *walker) downloadExec(c int) bool {
	if w.a.Commands[c].Dynamic[0] {
		// $(curl …) as the command word: the download is the command
		for _, s := range w.info[c].substCmds {
			if downloaders(w.a.Commands[w.effective(s)].Name) {
				return true
			}
		}
		return false
	}
	if !runsCode(w.a.Commands[c].Name) {
		return false
	}
	for _, s := range w.info[c].substCmds {
		if downloaders(w.a.Commands[w.effective(s)].Name) {
			return true
		}
	}
	return false
}

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
	h := strings.Split(strings.Trim(w.opt.Home, "/"), "/")
	if w.opt.Home == "" || len(comps) != len(h) {
		return false
	}
	for i := range h {
		if comps[i] != h[i] {
			return false
		}
	}
	return true
}

// credentialWords reports a literal component of the credential table
// (without its leading /): a path naming none of them is no credential.
// It is written out rather than built from the table at init, which every
// guard process would pay for; TestCredentialWords keeps the two in step.
func credentialWords(c string) bool {
	switch c {
	case ".aws", ".azure", ".bash_history", ".cargo", ".config", ".docker", ".git-credentials", ".gnupg",
		".kube", ".local", ".mysql_history", ".netrc", ".npmrc", ".pgpass", ".psql_history", ".pypirc",
		".ssh", ".terraform.d", ".vault-token", ".yarnrc.yml", ".zsh_history", "_netrc",
		"accessTokens.json", "auth.json", "cache", "cli", "config", "config.json", "containers",
		"credentials", "credentials.tfrc.json", "credentials.toml", "environ", "etc", "fish", "fish_history",
		"gcloud", "gh", "git", "gshadow", "gshadow-", "hosts.yml", "krb5.keytab", "kubernetes", "letsencrypt",
		"opasswd", "private", "proc", "rclone", "rclone.conf", "run", "secrets", "security", "shadow",
		"shadow-", "share", "ssh", "ssl", "sso", "task", "var", "wireguard",
		"sops", "age", ".age", ".minikube", "profiles", "certs", ".claude", ".credentials.json", ".codex",
		".gemini", "oauth_creds.json", "github-copilot", ".my.cnf", ".gem":
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
	"gcloud", ".docker", "config.json", ".kube", "config*", "gh", "hosts.yml", ".pgpass", ".vault-token", ".pypirc",
	".terraform.d", "credentials.tfrc.json", ".azure", "accessTokens.json", "msal_token_cache.*", "etc", "shadow",
	"shadow-", "gshadow", "gshadow-", "ssh", "ssh_host_*_key", "git", ".cargo", "credentials.toml", "containers",
	"auth.json", "rclone", "rclone.conf", "cli", ".npmrc", ".yarnrc.yml", "var", "run", "secrets", "kubernetes",
	"*.conf", ".bash_history", ".zsh_history", ".psql_history", ".mysql_history", ".local", "share", "fish",
	"fish_history", "ssl", "private", "letsencrypt", "wireguard", "krb5.keytab", "security", "opasswd", "proc",
	"environ", "task", "sops", "age", ".age", ".minikube", "*.key", "profiles", "certs", "*key.pem", ".claude",
	".credentials.json", ".codex", ".gemini", "oauth_creds.json", "github-copilot", "*.json", ".my.cnf", ".gem",
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

func (w *walker) matchCredential(cr credential, comps []string, abs bool) bool {
	pat := cr.comps
	anchored := strings.HasPrefix(pat[0], "/")
	if anchored {
		pat = append([]string{strings.TrimPrefix(pat[0], "/")}, pat[1:]...)
	}
	if pat[0] == "~" {
		// only in the home directory itself (a project's .npmrc is fine)
		h := strings.Split(strings.Trim(w.opt.Home, "/"), "/")
		if w.opt.Home == "" || !abs || len(comps) != len(h)+len(pat)-1 {
			return false
		}
		for i := range h {
			if comps[i] != h[i] {
				return false
			}
		}
		pat, comps = pat[1:], comps[len(h):]
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
func (w *walker) candidates(f field) []field {
	out := []field{f}
	s := f.pat
	for _, sep := range []string{"=", "@"} {
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
	case "tar", "zip", "7z", "cp", "scp", "rsync", "rclone", "gsutil", "aws", "grep", "rg", "cpio", "base64", "xxd", "od", "git", "diff":
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
		// after an option the spec does not know, a text operand may be
		// that option's file
		// mv's sources leave their place: moving a key out reads it
		moved := name == "mv" && wd.Role == RoleWrite && wd.Name == "" && !w.lastOperand(p, wd)
		if !readRole(wd) && !(p.Unknown && wd.Role == RoleText) && !moved {
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
	return base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") && len(base) > 4 && !strings.ContainsAny(base, "*?[")
}

// dotenvRead: a command that reads a .env file out.
func (w *walker) dotenvRead(c int) bool {
	if nonReaders(w.a.Commands[c].Name) {
		return false
	}
	for _, wd := range w.words(c).Words {
		if !readRole(wd) || !strings.Contains(wd.Val, ".env") && !strings.Contains(wd.Val, "*") {
			continue
		}
		f := w.valueField(c, wd)
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if dotenv(p) || strings.HasSuffix(p, "/.env*") || strings.HasSuffix(p, "/.e*") {
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
	for _, g := range w.candidates(f) {
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
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	return s, true
}

// words returns the command's arguments typed by its spec, parsed once.
func (w *walker) words(c int) *Parsed {
	in := &w.info[c]
	if in.parsed == nil {
		args := w.a.Commands[c].Args // fill made it from the fields' values
		name := w.a.Commands[c].Name
		p := ParseCommand(name, args)
		in.parsed = &p
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
	if cut := len(f.val) - len(wd.Val); cut > 0 && strings.HasPrefix(f.pat, f.val[:cut]) {
		f.pat = w.homePat(f.pat[cut:])
		f.val = wd.Val
	}
	return f
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

// securityUnits are the services that enforce security policy. A slice,
// not a map: it is also tried in turn against unit globs (systemctl stop 'fire*').
var securityUnits = []string{"apparmor", "auditd", "firewalld", "ufw", "iptables", "ip6tables", "nftables", "selinux", "fail2ban"}

func securityUnit(name string) bool { return slices.Contains(securityUnits, name) }

func (w *walker) securityOff(c int) bool {
	fs := w.info[c].fields
	ops := operands(fs)
	first := ""
	if len(ops) > 0 {
		first = strings.ToLower(ops[0].val)
	}
	switch w.a.Commands[c].Name {
	case "setenforce":
		return first == "0" || first == "permissive"
	case "ufw":
		return first == "disable" || first == "reset" || first == "default" && len(ops) > 1 && ops[1].val == "allow"
	case "iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft":
		if hasWord(fs, "-F", "--flush", "-X", "--delete-chain") || hasShort(fs, 'F') {
			return true
		}
		if acceptAll(fs) {
			return true
		}
		for i, f := range fs {
			if (f.val == "-P" || f.val == "--policy") && i+2 < len(fs) && strings.EqualFold(fs[i+2].val, "ACCEPT") {
				return true
			}
			// -PINPUT ACCEPT, --policy=INPUT ACCEPT
			if (strings.HasPrefix(f.val, "-P") && len(f.val) > 2 || strings.HasPrefix(f.val, "--policy=")) && i+1 < len(fs) && strings.EqualFold(fs[i+1].val, "ACCEPT") {
				return true
			}
		}
	case "nft":
		all := ""
		for _, f := range fs[1:] {
			all += " " + f.val
		}
		return strings.Contains(all, "flush") || strings.Contains(all, "delete table")
	case "systemctl":
		verb := ""
		for _, f := range ops {
			v := f.val
			if verb == "" {
				verb = v
				if verb != "stop" && verb != "disable" && verb != "mask" && verb != "kill" {
					return false
				}
				continue
			}
			unit := strings.TrimSuffix(v, ".service")
			if securityUnit(unit) {
				return true
			}
			for _, u := range securityUnits {
				if strings.ContainsAny(unit, "*?[") && matchGlob(unit, u) {
					return true // systemctl takes unit globs: 'fire*'
				}
			}
		}
	case "service":
		return len(ops) >= 2 && securityUnit(ops[0].val) && ops[1].val == "stop"
	case "csrutil":
		return first == "disable"
	case "pfctl":
		return hasShort(fs, 'd') || hasWord(fs, "-F", "all")
	case "sysctl":
		// kernel.randomize_va_space=0 turns ASLR off
		for _, f := range fs[1:] {
			k, v, ok := strings.Cut(strings.ReplaceAll(f.val, "/", "."), "=")
			if ok && strings.TrimSpace(k) == "kernel.randomize_va_space" && strings.TrimSpace(v) == "0" {
				return true
			}
		}
	case "spctl":
		return hasWord(fs, "--master-disable", "--global-disable")
	case "auditctl":
		for i, f := range fs {
			if f.val == "-e" && i+1 < len(fs) && fs[i+1].val == "0" || f.val == "-e0" {
				return true
			}
			if f.val == "-D" {
				return true
			}
		}
	case "aa-teardown", "aa-disable", "aa-complain":
		return true
	case "apparmor_parser":
		return hasShort(fs, 'R') || hasWord(fs, "--remove")
	case "apparmor", "auditd", "firewalld", "netfilter-persistent":
		// /etc/init.d/apparmor stop
		return first == "stop" || first == "teardown" || first == "flush"
	case "invoke-rc.d", "rc-service":
		return len(ops) >= 2 && securityUnit(ops[0].val) && (ops[1].val == "stop" || ops[1].val == "teardown")
	case "update-rc.d":
		return len(ops) >= 2 && securityUnit(ops[0].val) && (ops[1].val == "disable" || ops[1].val == "remove")
	case "chkconfig":
		return len(ops) >= 2 && securityUnit(ops[0].val) && ops[1].val == "off"
	case "pkill", "killall":
		for _, f := range ops {
			if securityUnit(f.val) {
				return true
			}
		}
	case "firewall-cmd":
		return hasPrefixWord(fs, "--set-default-zone=trusted", "--panic-off") || hasWord(fs, "--set-default-zone") && hasWord(fs, "trusted")
	}
	return false
}

// acceptAll reports an iptables rule that accepts everything: -I/-A CHAIN
// -j ACCEPT with no match of its own.
func acceptAll(fs []field) bool {
	add, accept := false, false
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		switch {
		case a == "-I" || a == "-A" || a == "--insert" || a == "--append":
			add = true
			i++
			if i+1 < len(fs) && isDigits(fs[i+1].val) {
				i++ // -I INPUT 1
			}
		case a == "-j" || a == "--jump":
			accept = i+1 < len(fs) && strings.EqualFold(fs[i+1].val, "ACCEPT")
			i++
		case a == "-t" || a == "--table" || a == "-w" || a == "--wait":
			i++
		case strings.HasPrefix(a, "-"):
			return false // a match (-p, -s, -i, -m …) narrows the rule
		}
	}
	return add && accept
}

func (w *walker) killAll(c int) bool {
	fs := w.info[c].fields
	switch w.a.Commands[c].Name {
	case "killall5":
		return true
	case "pkill", "killall":
		return w.killsEveryMatch(c)
	case "kill":
	default:
		return false
	}
	i := 1
	if i < len(fs) {
		switch a := fs[i].val; {
		case a == "-s" || a == "-n" || a == "--signal":
			i += 2
		case a == "-l" || a == "-L" || a == "--list" || a == "--table":
			return false
		case strings.HasPrefix(a, "-") && a != "--" && !isMinusOne(a):
			i++
		case isMinusOne(a) && i+1 < len(fs) && fs[i+1].val != "--":
			// kill -1 PID… sends SIGHUP; -1 is the signal here.
			i++
		}
	}
	for ; i < len(fs); i++ {
		if fs[i].val == "--" {
			continue
		}
		if isMinusOne(fs[i].val) {
			return true
		}
	}
	return false
}

// killsEveryMatch: pkill/killall with only user, group or session
// selectors (pkill -9 -u $USER) or a pattern every name matches (killall
// -r ., pkill ”) signals every process it can reach.
func (w *walker) killsEveryMatch(c int) bool {
	fs := w.info[c].fields
	name := w.a.Commands[c].Name
	var pats []field
	selectors := false
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		if fs[i].dyn || !strings.HasPrefix(a, "-") || a == "-" {
			pats = append(pats, fs[i])
			continue
		}
		if a == "--" {
			pats = append(pats, fs[i+1:]...)
			break
		}
		opt := strings.TrimLeft(a, "-")
		letter := opt
		if !strings.HasPrefix(a, "--") && len(opt) > 0 {
			letter = opt[len(opt)-1:] // the last letter of a bundle takes the value
		}
		switch letter {
		case "u", "U", "G", "g", "s", "t", "P", "user", "euid", "uid", "group", "pgroup", "session", "terminal", "parent":
			selectors = true
			if !strings.Contains(opt, "=") && len(opt) == len(letter) {
				i++
			}
		case "n", "signal", "o", "y", "older-than", "younger-than", "c", "context", "F", "pidfile", "ns", "nslist":
			if !strings.Contains(opt, "=") && len(opt) == len(letter) {
				i++
			}
		}
	}
	if len(pats) == 0 {
		return selectors // no name at all: every process of those users
	}
	regex := name == "pkill" || hasShort(fs, 'r') || hasWord(fs, "--regexp")
	for _, p := range pats {
		if p.dyn {
			continue
		}
		if p.val == "" {
			return true
		}
		if regex {
			if re, err := regexp.Compile(p.val); err == nil && matchesAnyName(re) {
				return true // ., .*, ^, $: every name matches
			}
		}
	}
	return false
}

// matchesAnyName reports a regexp that matches names of every shape.
func matchesAnyName(re *regexp.Regexp) bool {
	for _, n := range []string{"a", "Z", "7", "_", "-", "."} {
		if !re.MatchString(n) {
			return false
		}
	}
	return true
}

// guardPrograms are guard's own programs: guard hands its management
// commands to guard-cli, which an agent could also run directly.
func guardPrograms(name string) bool { return name == "guard" || name == "guard-cli" }

// guardVerbs are the management verbs only a human may run.
func guardVerbs(v string) bool {
	switch v {
	case "trust", "approve", "reject", "policy", "untrust":
		return true
	}
	return false
}

// readers may name guard's files without changing them.
func readers(name string) bool {
	switch name {
	case "cat", "less", "more", "head", "tail", "grep", "rg", "ls",
		"stat", "wc", "diff", "cmp", "file", "du", "echo", "printf",
		"test", "[", "realpath", "readlink", "dirname", "basename",
		"md5sum", "sha1sum", "sha256sum", "jq", "bat", "cd", "pushd",
		"guard", "guard-cli", "tree", "which", "type":
		return true
	}
	return false
}

func (w *walker) guardSelf(c int) bool {
	cm := &w.a.Commands[c]
	fs := w.info[c].fields
	if cm.Name == "make" || cm.Name == "gmake" {
		// make exports command-line variables to its recipes
		for _, f := range fs[1:] {
			if strings.HasPrefix(f.val, "GUARD_") && strings.Contains(f.val, "=") {
				return true
			}
		}
	}
	if guardPrograms(cm.Name) {
		ops := operands(fs)
		if len(ops) > 0 {
			v := ops[0].val
			if guardVerbs(v) {
				return true
			}
			if v == "grants" && len(ops) > 1 && ops[1].val != "list" && ops[1].val != "ls" {
				return true
			}
		}
	}
	p := w.words(c)
	if readers(cm.Name) && !p.Has("in-place", "i", "w") {
		return false
	}
	// A relative word can only reach guard's paths from a directory in or
	// above them, or by climbing with ..; rule the rest out cheaply.
	dirNear := w.info[c].dirs == nil
	for _, d := range w.info[c].dirs {
		for _, prot := range w.opt.Protected {
			dirNear = dirNear || strings.HasPrefix(prot, d) || strings.HasPrefix(d, prot)
		}
	}
	moves := fileMovers(cm.Name)
	deletes := cm.Name == "rm" || cm.Name == "rmdir" || cm.Name == "unlink"
	findDel := cm.Name == "find" && parseFind(fs).delete
	// an interpreter (perl -i, python3 x.py FILE) or a parse the spec
	// could not follow may write any file it is given
	_, interp := interpreterName(cm.Name)
	awk := cm.Name == "awk" || cm.Name == "gawk" || cm.Name == "mawk" || cm.Name == "nawk" // writes only through its script
	strict := !p.Spec || p.Unknown || (interp || runsCode(cm.Name)) && !awk
	// sed -i, gofmt -w, perl -i: the files read are written back
	inPlace := p.Has("in-place", "i") && (cm.Name == "sed" || cm.Name == "gsed") || cm.Name == "gofmt" && p.Has("w")
	for _, wd := range p.Words {
		f := w.valueField(c, wd)
		var texts []string
		switch {
		case wd.Role == RoleScript:
			// awk's print > "FILE", sed's w FILE: a script writes files too
			texts = scriptPaths(f.val)
		case !guardSelfRole(wd.Role, strict) && !(inPlace && wd.Role == RoleRead) && !(findDel && wd.Name == ""):
			continue
		}
		cands := []field{f}
		if texts != nil {
			cands = cands[:0]
			for _, t := range texts {
				cands = append(cands, field{val: t, pat: w.homePat(t)})
			}
		}
		for _, f := range cands {
			if !dirNear && !strings.ContainsAny(f.pat, "/~*?[") {
				continue
			}
			for _, g := range w.candidates(f) {
				ps, _ := w.paths(c, g)
				for _, p := range ps {
					if deletes && w.onlyCache(p) {
						continue // clearing caches, guard's among them, is fine
					}
					if w.isProtected(p) || moves && w.aboveProtected(p) {
						return true
					}
				}
			}
		}
	}
	return false
}

// guardSelfRole reports a role whose path guard-self checks: what is
// written, and when strict (no spec, an interpreter, an option the spec
// does not know) what is read or run too.
func guardSelfRole(r Role, strict bool) bool {
	switch r {
	case RoleWrite, RoleUnknown, RoleDir:
		return true
	case RoleRead, RoleURL, RoleProgram, RoleUse:
		return strict
	}
	return false
}

// scriptPaths returns the words of a script (awk, sed, a jq filter) that
// look like paths: print > "/x/y", w /x/y.
func scriptPaths(script string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(script, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' || r == ';' || r == '{' || r == '}' || r == '>' || r == '|' || r == '(' || r == ')' || r == ','
	}) {
		if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~/") {
			out = append(out, t)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// fileMovers copy, move, link or delete whole trees: pointed at a directory
// holding guard's files (mv ~/.config x, ln -sfn /tmp/x ~/.config), they
// replace guard's config along with it.
func fileMovers(name string) bool {
	switch name {
	case "cp", "mv", "ln", "rm", "rmdir", "rsync",
		"install", "tar", "unzip", "rename":
		return true
	}
	return false
}

// within reports p naming dir itself or something inside it.
func within(p, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// isCacheDir reports guard's cache among its protected paths: a cache may
// be cleared along with the directory that holds it.
func isCacheDir(prot string) bool { return strings.Contains(prot, "/.cache/") }

// aboveProtected reports a directory that holds one of guard's paths
// (its cache aside), other than the home directory and / themselves.
func (w *walker) aboveProtected(p string) bool {
	for _, prot := range w.opt.Protected {
		if prot != "" && !isCacheDir(prot) && w.holds(p, prot) {
			return true
		}
	}
	return false
}

// holds reports p as a directory above prot (not the home directory or /).
func (w *walker) holds(p, prot string) bool {
	return p != "/" && p != w.opt.Home && strings.HasPrefix(p, "/") && p != prot && within(prot, p)
}

// isProtected reports a path inside guard's own config or state. A
// pattern with unknown parts counts when it names a guard directory.
func (w *walker) isProtected(p string) bool {
	if guardPattern(p) {
		return true
	}
	for _, prot := range w.opt.Protected {
		if prot != "" && namesPath(p, prot) {
			return true
		}
	}
	return false
}

// guardPattern reports a pattern with unknown parts that names a guard
// directory ($XDG_CONFIG_HOME/guard/…).
func guardPattern(p string) bool {
	return strings.Contains(p, "*") && (strings.Contains(p, "/guard/") || strings.HasSuffix(p, "/guard"))
}

// namesPath reports p, possibly a glob, naming prot or something in it.
func namesPath(p, prot string) bool {
	if within(p, prot) {
		return true
	}
	return strings.ContainsAny(p, "*?[") && (matchGlob(p, prot) || matchGlob(p, prot+"/x") || globPrefix(p, prot))
}

// globPrefix reports a glob whose leading components can match all of
// prot's (~/.config/g?ard/grants.toml against ~/.config/guard).
func globPrefix(p, prot string) bool {
	pc := strings.Split(p, "/")
	qc := strings.Split(prot, "/")
	if len(pc) <= len(qc) {
		return false
	}
	for i := range qc {
		if !matchGlob(pc[i], qc[i]) {
			return false
		}
	}
	return true
}

// Built-in ask rules.

// gitSub returns the index of git's subcommand in fs, skipping git's own
// options, or -1.
func gitSub(fs []field) int {
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--config-env" || a == "--super-prefix":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}

// gitWords returns a git command's typed words when its subcommand is
// one of subs, nil otherwise. Long options resolve as git resolves them:
// any unique prefix (reset --har is --hard).
func (w *walker) gitWords(c int, subs ...string) (*Parsed, string) {
	if w.a.Commands[c].Name != "git" {
		return nil, ""
	}
	p := w.words(c)
	sub := p.SubName(w.a.Commands[c].Args)
	if !contains(subs, sub) {
		return nil, ""
	}
	return p, sub
}

func (w *walker) gitForcePush(c int) bool {
	p, _ := w.gitWords(c, "push")
	if p == nil {
		return false
	}
	if p.Has("force", "delete", "mirror", "prune", "force-with-lease", "force-if-includes") {
		return true
	}
	for _, wd := range p.Operands() {
		a := wd.Val
		if strings.HasPrefix(a, "+") || (strings.HasPrefix(a, ":") && len(a) > 1) || strings.Contains(a, ":+") {
			return true
		}
	}
	return false
}

func (w *walker) gitResetHard(c int) bool {
	p, _ := w.gitWords(c, "reset")
	return p != nil && p.Has("hard")
}

func (w *walker) gitClean(c int) bool {
	p, _ := w.gitWords(c, "clean")
	return p != nil && p.Has("force")
}

func (w *walker) gitCheckoutDiscard(c int) bool {
	p, sub := w.gitWords(c, "checkout", "restore", "switch", "stash")
	if p == nil {
		return false
	}
	args := w.info[c].parsedArgs
	switch sub {
	case "checkout":
		if p.Has("force", "ours", "theirs") {
			return true
		}
		for _, wd := range p.Operands() {
			if wd.Val == "." || wd.Arg > 0 && args[wd.Arg-1] == "--" {
				return true // checkout -- FILE, checkout . : the files' changes go
			}
		}
		return len(args) > 0 && args[len(args)-1] == "--"
	case "restore":
		return !p.Has("staged") || p.Has("worktree")
	case "switch":
		return p.Has("discard-changes", "force")
	case "stash":
		for _, wd := range p.Operands() {
			if wd.Val == "drop" || wd.Val == "clear" {
				return true
			}
		}
	}
	return false
}

func (w *walker) gitBranchDelete(c int) bool {
	p, _ := w.gitWords(c, "branch")
	if p == nil {
		return false
	}
	return p.Has("D") || p.Has("delete") && p.Has("force")
}

func (w *walker) rmRecursive(c int) bool {
	if w.a.Commands[c].Name != "rm" {
		return false
	}
	return w.words(c).Has("recursive")
}

func (w *walker) rmHome(c int) bool {
	switch w.a.Commands[c].Name {
	case "rm", "rmdir", "unlink", "shred":
	default:
		return false
	}
	home := w.opt.Home
	for _, f := range operands(w.info[c].fields) {
		if f.home {
			return true
		}
		if home == "" {
			continue
		}
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if p == home || p == home+"/" {
				return true
			}
			cwd := w.opt.Cwd
			if strings.HasPrefix(p, home+"/") && (cwd == "" || !within(p, cwd)) {
				return true
			}
		}
	}
	return false
}

func (w *walker) findDelete(c int) bool {
	return w.a.Commands[c].Name == "find" && parseFind(w.info[c].fields).delete
}

func (w *walker) truncate(c int) bool { return w.a.Commands[c].Name == "truncate" }

func sqlDestroys(s string) bool {
	u := strings.ToUpper(s)
	for _, kw := range []string{"DROP ", "TRUNCATE ", "DROP\t", "TRUNCATE\t", "DROP\n", "TRUNCATE\n"} {
		if strings.Contains(u, kw) {
			return true
		}
	}
	return strings.HasSuffix(u, "TRUNCATE")
}

func (w *walker) sqlDrop(c int) bool {
	fs := w.info[c].fields
	var opts []string
	switch w.a.Commands[c].Name {
	case "psql":
		opts = []string{"-c", "--command"}
	case "mysql", "mariadb":
		opts = []string{"-e", "--execute"}
	case "sqlite3", "duckdb", "clickhouse-client", "cockroach":
		for _, f := range fs[1:] {
			if sqlDestroys(f.val) {
				return true
			}
		}
		return false
	default:
		return false
	}
	for i, f := range fs {
		for _, o := range opts {
			switch {
			case f.val == o && i+1 < len(fs) && sqlDestroys(fs[i+1].val):
				return true
			case strings.HasPrefix(f.val, o+"=") && sqlDestroys(f.val):
				return true
			case len(o) == 2 && strings.HasPrefix(f.val, o) && len(f.val) > 2 && f.val[1] != '-' && sqlDestroys(f.val[2:]):
				return true
			}
		}
	}
	return false
}

// verb returns the first operand of a CLI that takes global options with
// values (kubectl -n NS delete …).
func verb(fs []field, withValue ...string) (int, string) {
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && contains(withValue, a) {
				i++
			}
			continue
		}
		return i, a
	}
	return -1, ""
}

func (w *walker) kubectlDelete(c int) bool {
	switch w.a.Commands[c].Name {
	case "kubectl", "oc", "microk8s.kubectl", "k3s":
	default:
		return false
	}
	fs := w.info[c].fields
	_, v := verb(fs, "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--as", "--token")
	if v == "kubectl" && w.a.Commands[c].Name == "k3s" {
		i, _ := verb(fs)
		_, v = verb(fs[i:], "-n", "--namespace", "--context", "--kubeconfig")
	}
	return v == "delete"
}

func (w *walker) terraformDestroy(c int) bool {
	switch w.a.Commands[c].Name {
	case "terraform", "tofu", "terragrunt":
	default:
		return false
	}
	fs := w.info[c].fields
	_, v := verb(fs, "-chdir")
	return v == "destroy" || (v == "apply" && hasWord(fs, "-destroy", "--destroy"))
}

func (w *walker) dockerPrune(c int) bool {
	switch w.a.Commands[c].Name {
	case "docker", "podman", "nerdctl":
	default:
		return false
	}
	fs := w.info[c].fields
	i, v := verb(fs, "-H", "--host", "--context", "-c", "--config", "-l", "--log-level")
	if i < 0 {
		return false
	}
	switch v {
	case "system", "volume", "image", "container", "network", "builder", "buildx":
		_, v2 := verb(fs[i:])
		return v2 == "prune"
	}
	return false
}

// forkBombs finds functions that call themselves (through any cycle of
// functions) concurrently or more than once: they fork without end.
func (w *walker) forkBombs() {
	if len(w.funcs) == 0 {
		return
	}
	reach := func(from string) map[string]bool {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, call := range w.funcs[f] {
				if _, defined := w.funcs[call.name]; defined && call.name != "" && !seen[call.name] {
					seen[call.name] = true
					stack = append(stack, call.name)
				}
			}
		}
		return seen
	}
	reaches := map[string]map[string]bool{}
	for f := range w.funcs {
		if f != "" {
			reaches[f] = reach(f)
		}
	}
	for f, r := range reaches {
		if !r[f] {
			continue
		}
		// The cycle's members: g with f→g and g→f.
		edges, concurrent := 0, false
		for g := range r {
			if !reaches[g][f] {
				continue
			}
			for _, call := range w.funcs[g] {
				if call.name == f || (r[call.name] && reaches[call.name][f]) {
					edges++
					concurrent = concurrent || call.concurrent
				}
			}
		}
		if concurrent || edges >= 2 {
			cmd := -1
			for i := range w.a.Commands {
				if w.a.Commands[i].Name == f {
					cmd = i
					break
				}
			}
			w.hitDeny("fork-bomb", cmd)
			return
		}
	}
}

func isMinusOne(s string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(s)) // bash skips blanks around a number
	return err == nil && n == -1
}

// nameTakers are builtins whose arguments name variables; bash evaluates a
// subscript in such a name as arithmetic, running any $( ) in it, even from
// inside single quotes: test -v 'a[$(id)]'.
func nameTakers(name string) bool {
	switch name {
	case "test", "[", "printf", "read", "mapfile", "readarray",
		"unset", "declare", "typeset", "local", "export", "readonly",
		"getopts", "wait", "let":
		return true
	}
	return false
}

// hiddenExec: a name-taking builtin given, where it expects a variable
// name, a word with a subscript holding code.
func (w *walker) hiddenExec(c int) bool {
	name := w.a.Commands[c].Name
	if !nameTakers(name) {
		return false
	}
	for _, f := range nameWords(name, w.info[c].fields) {
		if codeInSubscript(f.val) {
			return true
		}
	}
	return false
}

// nameWords returns the words a builtin takes as variable names: test -v
// NAME, printf -v NAME, read NAME…, unset NAME…, getopts OPTS NAME, let EXPR….
func nameWords(name string, fs []field) []field {
	var out []field
	switch name {
	case "test", "[", "printf", "wait":
		flag := "-v"
		if name == "wait" {
			flag = "-p"
		}
		for i := 1; i < len(fs); i++ {
			switch {
			case (fs[i].val == flag || name != "printf" && fs[i].val == "-R") && i+1 < len(fs):
				out = append(out, fs[i+1])
			case name == "printf" && strings.HasPrefix(fs[i].val, "-v") && len(fs[i].val) > 2:
				g := fs[i]
				g.val = g.val[2:]
				out = append(out, g)
			}
		}
	case "read", "mapfile", "readarray":
		for i := 1; i < len(fs); i++ {
			a := fs[i].val
			switch {
			case a == "-a" && i+1 < len(fs):
				out = append(out, fs[i+1])
				i++
			case len(a) == 2 && a[0] == '-' && strings.ContainsRune("dnNptuiOscCd", rune(a[1])):
				i++ // an option with a value
			case strings.HasPrefix(a, "-"):
			default:
				out = append(out, fs[i])
			}
		}
	case "getopts":
		if len(fs) > 2 {
			out = append(out, fs[2:]...)
		}
	default: // unset, declare, typeset, local, export, readonly, let
		for _, f := range fs[1:] {
			if !strings.HasPrefix(f.val, "-") {
				out = append(out, f)
			}
		}
	}
	return out
}

// codeInSubscript reports text with a [ … ] that holds $, a backquote or
// a nested subscript: bash would evaluate it.
func codeInSubscript(s string) bool {
	k := strings.IndexByte(s, '[')
	return k >= 0 && strings.ContainsAny(s[k:], "$`") || k >= 0 && strings.Contains(s[k+1:], "[")
}

// matchGlob is path.Match with bash's [!…] negation as well as [^…].
func matchGlob(pattern, name string) bool {
	if strings.Contains(pattern, "[!") {
		pattern = strings.ReplaceAll(pattern, "[!", "[^")
	}
	ok, _ := path.Match(pattern, name)
	return ok
}

// appDir reports a directory under /opt, /srv or /root: where applications
// and their data live, so owning or chmod-ing one of them is ordinary
// administration (rm -rf of them still is rm-root).
func appDir(p string) bool {
	for _, d := range []string{"/opt/", "/srv/", "/root/", "/mnt/", "/media/", "/Volumes/", "/home/", "/Users/"} {
		if strings.HasPrefix(p, d) && len(p) > len(d) {
			return true
		}
	}
	return false
}

// onlyCache reports a path that can name no guard file but its cache, and
// that does not name the cache directory itself (rm -rf ~/.cache/* clears
// caches; rm -rf ~/.cache/guard targets guard).
func (w *walker) onlyCache(p string) bool {
	if guardPattern(p) {
		return false
	}
	for _, prot := range w.opt.Protected {
		switch {
		case prot == "":
		case isCacheDir(prot):
			if within(p, prot) {
				return false
			}
		case namesPath(p, prot) || w.holds(p, prot):
			return false
		}
	}
	return true
}
