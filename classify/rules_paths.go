package classify

// Rules on paths: deleting, formatting, writing or re-permissioning / and
// the system directories, and the built-in asks on deleting files.

import (
	"path"
	"slices"
	"strings"
)

// operands returns the fields of c after its name that are not options
// (GNU style: options may follow operands, and -- ends them).
//
// When no word is an option the result is fs[1:] itself, its capacity cut
// so that an append copies: the rules only read it, and most commands
// (cat FILE, ls DIR) then cost no allocation.
func operands(fs []field) []field {
	plain := true
	for _, f := range fs[1:] {
		if !f.dyn && len(f.val) > 1 && f.val[0] == '-' { // an option, or --
			plain = false
			break
		}
	}
	if plain {
		return fs[1:len(fs):len(fs)]
	}
	out := make([]field, 0, len(fs)-1) // one allocation, none for a bare name
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

// paths resolves a word of command c against the directories it runs in.
// The rules ask again and again for the same words: each answer is kept
// with the command, for its pattern and its directories (the very slice:
// they are set once, when the command is met). Callers only read it.
func (w *walker) paths(c int, f field) ([]string, bool) {
	in := &w.info[c]
	for _, r := range in.resolved {
		if r.pat == f.pat && sameSlice(r.dirs, in.dirs) {
			return r.paths, r.rel
		}
	}
	ps, rel := w.resolve(f, in.dirs)
	in.resolved = append(in.resolved, resolved{pat: f.pat, dirs: in.dirs, paths: ps, rel: rel})
	return ps, rel
}

// resolved is one answer of resolve for a command (walker.paths).
type resolved struct {
	pat         string
	dirs, paths []string
	rel         bool
}

// sameSlice reports a and b to be the same slice: the same array, length
// and nil-ness.
func sameSlice(a, b []string) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
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
	// the components counted and the first and last taken without a split:
	// every path of every command comes here
	t := strings.Trim(p, "/")
	if t == "" {
		return true // "/"
	}
	n := strings.Count(t, "/") + 1
	first, _, _ := strings.Cut(t, "/")
	if last := t[strings.LastIndexByte(t, '/')+1:]; n > 1 && strings.ContainsAny(last, "*?") && strings.Trim(last, "*?.") == "" {
		// /mnt/c/*, /usr/local/.*: every entry of a directory is the directory
		n--
	}
	if n > 2 {
		return false
	}
	for _, d := range systemDirs {
		if ok := matchGlob(first, d); ok || first == d {
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
	case "mv", "rsync":
		// what leaves its place: mv's sources, rsync --remove-source-files'
		// sources, and what rsync --delete removes from its destination
		p := w.words(c)
		del := p.Has("delete", "del", "delete-before", "delete-during", "delete-after", "delete-delay", "delete-excluded")
		moved := p.Has("remove-source-files")
		for _, wd := range p.Words {
			if wd.Name != "" {
				continue
			}
			last := w.lastOperand(p, wd) && !p.Has("target-directory")
			switch {
			case w.a.Commands[c].Name == "mv" && wd.Role == RoleWrite && !last,
				moved && wd.Role == RoleRead,
				del && last:
				if w.anySystem(c, []field{w.valueField(c, wd)}) {
					return true
				}
			}
		}
	case "cargo", "cmake", "tar", "gtar", "bsdtar":
		return w.anySystem(c, w.deleted(c, false))
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
		name == "wipefs" || name == "mkntfs" || name == "mkdosfs" || name == "mkexfatfs" || name == "mklabel" ||
		name == "newfs" || strings.HasPrefix(name, "newfs_"): // macOS and the BSDs: newfs, newfs_apfs, newfs_msdos
		return !w.formatsImage(c)
	}
	fs := w.info[c].fields
	switch name {
	case "diskutil":
		// macOS names disks without /dev (disk0) and takes its verbs in any case
		i, v := verb(fs)
		return slices.Contains(diskutilErasers, strings.ToLower(v)) ||
			strings.EqualFold(v, "apfs") && i+1 < len(fs) && slices.Contains(apfsErasers, strings.ToLower(fs[i+1].val))
	case "format", "format.com":
		// Windows' format X: (Git Bash, WSL's cmd.exe interop)
		for _, f := range fs[1:] {
			if driveLetter(f.val) {
				return true
			}
		}
		return false
	}
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
		p := w.words(c)
		return p.Has("w", "n") || p.Unknown && (hasShort(fs, 'w') || hasShort(fs, 'n')) // what the spec cannot type fails closed
	case "mdadm":
		return hasWord(fs, "--zero-superblock", "--create", "-C")
	case "zpool":
		_, v := verb(fs)
		return v == "create" || v == "destroy" || v == "labelclear"
	}
	return false
}

// diskutilErasers are diskutil's verbs that erase, repartition or
// overwrite a disk or volume (lowercase: diskutil takes any case), and
// apfsErasers those of diskutil apfs.
var (
	diskutilErasers = []string{"erasedisk", "erasevolume", "reformat", "partitiondisk", "zerodisk", "randomdisk", "secureerase",
		"splitpartition", "mergepartitions", "resizevolume", "erasecd", "createraid", "deleteraid"}
	apfsErasers = []string{"deletecontainer", "erasevolume", "deletevolume", "createcontainer", "resizecontainer", "deletesnapshot", "decryptvolume"}
)

// driveLetter reports a Windows drive (C:, c:\, D:/).
func driveLetter(v string) bool {
	v = strings.TrimRight(v, "\\/")
	return len(v) == 2 && v[1] == ':' && (v[0]|0x20 >= 'a' && v[0]|0x20 <= 'z')
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
		// a file by its path or extension, or a plain name in a known
		// directory that is not /dev (mkswap swapfile in the project)
		if strings.Contains(f.val, "/") || strings.Contains(path.Base(f.val), ".") || len(w.info[c].dirs) > 0 {
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
	recursive := w.words(c).Has("R", "recursive") || w.info[c].fromFind
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

func (w *walker) rmRecursive(c int) bool {
	if w.a.Commands[c].Name != "rm" {
		return false
	}
	return w.words(c).Has("recursive")
}

func (w *walker) rmHome(c int) bool {
	targets := w.deleted(c, false)
	switch w.a.Commands[c].Name {
	case "rm", "rmdir", "unlink", "shred":
		targets = operands(w.info[c].fields)
	case "cargo", "cmake", "tar", "gtar", "bsdtar":
	default:
		return false
	}
	home := w.opt.Home
	for _, f := range targets {
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
