package classify

// Rules on what nothing undoes: destroying volumes, pools and subvolumes,
// writing or erasing firmware, writing a block or memory device, deleting
// the home directory or everything at its top level, and the deletes other
// tools make (cargo clean --target-dir, cmake -E rm, tar --remove-files),
// judged by what they delete.

import (
	"path"
	"slices"
	"strings"
)

// onlyHelp reports a command whose only words ask for its help or version:
// it prints and changes nothing.
func onlyHelp(fs []field) bool {
	if len(fs) < 2 {
		return false
	}
	for _, f := range fs[1:] {
		switch f.val {
		case "--help", "-h", "--version", "-V", "help":
		default:
			return false
		}
	}
	return true
}

// prefixOf reports v as an abbreviation of word at least min bytes long
// (btrfs takes unique prefixes of its command words: btrfs sub del).
func prefixOf(v, word string, min int) bool {
	return len(v) >= min && strings.HasPrefix(word, v)
}

// volumeVerbs are the volume managers' commands that destroy a volume, a
// pool or what is on them, by command name; "" is the verb of a command
// that destroys by itself (lvremove).
var volumeVerbs = map[string][]string{
	"lvremove": {""}, "vgremove": {""}, "pvremove": {""}, "lvreduce": {""},
	"zpool":   {"destroy", "labelclear", "create", "split"},
	"stratis": {"destroy"}, // stratis pool|filesystem destroy
	"vdo":     {"remove"},
}

// volumeDestroy: LVM, ZFS, btrfs and stratis destroys, whatever they are
// given, granted or not.
func (w *walker) volumeDestroy(c int) bool {
	fs := w.info[c].fields
	name := w.a.Commands[c].Name
	if onlyHelp(fs) {
		return false
	}
	if name == "lvm" {
		// lvm lvremove …: the lvm shell takes the tool as its first word
		i, v := verb(fs)
		if i < 0 {
			return false
		}
		name, fs = v, fs[i:]
	}
	ops := operands(fs)
	switch name {
	case "zfs":
		if len(ops) == 0 {
			return false
		}
		switch ops[0].val {
		case "destroy":
			return true
		case "rollback":
			// -r and -R destroy every later snapshot (and their clones)
			return hasShort(fs, 'r') || hasShort(fs, 'R')
		case "receive", "recv":
			return hasShort(fs, 'F') // rolls back and destroys what the stream lacks
		}
		return false
	case "btrfs":
		// btrfs subvolume delete, btrfs sub del, btrfs su d; btrfs check --repair
		if len(ops) >= 2 && prefixOf(ops[0].val, "subvolume", 2) && prefixOf(ops[1].val, "delete", 1) {
			return true
		}
		return len(ops) >= 1 && prefixOf(ops[0].val, "check", 2) &&
			hasWord(fs, "--repair", "--init-csum-tree", "--init-extent-tree")
	}
	verbs, ok := volumeVerbs[name]
	if !ok {
		return false
	}
	if slices.Contains(verbs, "") {
		return true
	}
	for _, f := range ops {
		if slices.Contains(verbs, f.val) {
			return true
		}
	}
	return false
}

// flashromWrites reports flashrom's options that write or erase the chip:
// -w, -E, a bundle of flags ending in one, --write, --erase. (A function,
// not a package-level regexp: that would be compiled at every guard start.)
func flashromWrites(v string) bool {
	if v == "--write" || v == "--erase" || strings.HasPrefix(v, "--write=") || strings.HasPrefix(v, "--erase=") {
		return true
	}
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	last := v[len(v)-1]
	if last != 'w' && last != 'E' {
		return false
	}
	for _, c := range v[1 : len(v)-1] {
		if !strings.ContainsRune("VfnNLz", c) {
			return false
		}
	}
	return true
}

// fwupdVerbs are fwupdmgr's and fwupdtool's verbs that write firmware.
var fwupdVerbs = []string{"install", "local-install", "update", "upgrade", "downgrade", "reinstall", "switch-branch",
	"install-blob", "firmware-flash", "activate", "sync", "sync-bkc"}

// firmwareWrite: writes and erases of firmware, and of a flash chip's
// contents; a bricked board is not undone by anything guard could say.
func (w *walker) firmwareWrite(c int) bool {
	fs := w.info[c].fields
	name := w.a.Commands[c].Name
	if onlyHelp(fs) {
		return false
	}
	switch name {
	case "flashrom":
		for _, f := range fs[1:] {
			if f.dyn || flashromWrites(f.val) {
				return true
			}
		}
	case "fwupdmgr", "fwupdtool":
		for _, f := range operands(fs) {
			if slices.Contains(fwupdVerbs, f.val) {
				return true
			}
		}
	case "efibootmgr":
		// -B deletes a boot entry (-b N picks it): the machine may not boot
		return hasShort(fs, 'B') || hasPrefixWord(fs, "--delete-bootnum")
	case "efivar":
		return hasShort(fs, 'w') || hasPrefixWord(fs, "--write")
	case "flash_erase", "flash_eraseall", "flashcp", "nandwrite", "ubiformat", "ubidetach", "ubirmvol":
		return true
	case "mtd_debug":
		ops := operands(fs)
		return len(ops) > 0 && (ops[0].val == "write" || ops[0].val == "erase")
	}
	return false
}

// harmlessDevices are the files under /dev a command may write: the
// terminal, the standard streams, the bit buckets, bash's network names,
// and the memory-backed file systems.
var harmlessDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/stdin",
	"/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/ptmx", "/dev/console", "/dev/kmsg", "/dev/log"}

// harmlessDevicePrefixes are prefixes of such files: terminals and serial
// lines, descriptors, shared memory, printers and sound.
var harmlessDevicePrefixes = []string{"/dev/tty", "/dev/pts/", "/dev/fd/", "/dev/shm/", "/dev/mqueue/", "/dev/hugepages/",
	"/dev/tcp/", "/dev/udp/", "/dev/cu.", "/dev/lp", "/dev/usb/lp", "/dev/snd/", "/dev/dsp", "/dev/audio"}

// isBlockDevice reports a path under /dev that is a disk, a partition, a
// volume (/dev/VG/LV, /dev/zvol/…, /dev/mapper/…), a memory device
// (/dev/mem, /dev/kmem, /dev/port), a flash chip (/dev/mtd…), a SCSI or
// NVMe device, or anything else there but the harmless few: every device
// is a write target nothing undoes, unless it is a known harmless one.
func isBlockDevice(p string) bool {
	p = path.Clean(p)
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	if slices.Contains(harmlessDevices, p) {
		return false
	}
	for _, pre := range harmlessDevicePrefixes {
		if strings.HasPrefix(p, pre) && !strings.ContainsAny(p[len(pre):], "*?[") {
			return false
		}
	}
	return true
}

// globOnly reports a path component that matches (nearly) every name:
// *, .*, ?*, .??*.
func globOnly(comp string) bool {
	return comp != "" && strings.ContainsAny(comp, "*?") && strings.Trim(comp, "*?.") == ""
}

// homeTop reports the home directory itself, a directory above it (~/..),
// or every entry at its top level (~, ~/, ~/*, ~/.*).
func (w *walker) homeTop(p string) bool {
	h := strings.TrimSuffix(w.opt.Home, "/")
	if h == "" {
		return false
	}
	if p == h || p != "/" && strings.HasPrefix(p, "/") && within(h, p) {
		return true // the home directory, or a directory that holds it
	}
	rest, ok := strings.CutPrefix(p, h+"/")
	if !ok {
		return false
	}
	rest = strings.TrimSuffix(rest, "/")
	return rest == "" || !strings.Contains(rest, "/") && globOnly(rest)
}

// userHome reports ~NAME, ~NAME/ or ~NAME/* as written: another user's
// home, or every entry at its top level.
func userHome(f field) bool {
	v, ok := strings.CutPrefix(f.pat, "~")
	if !ok || v == "" || v[0] == '/' || v[0] == '+' || v[0] == '-' {
		return false
	}
	_, rest, _ := strings.Cut(v, "/")
	rest = strings.TrimSuffix(rest, "/")
	return rest == "" || !strings.Contains(rest, "/") && globOnly(rest)
}

// rmHomeAll: a delete of the home directory or of all its top level,
// by rm or by any command whose deletes deleted() names.
func (w *walker) rmHomeAll(c int) bool {
	for _, f := range w.deleted(c, true) {
		if userHome(f) {
			return true
		}
		ps, _ := w.paths(c, f)
		for _, p := range ps {
			if w.homeTop(p) {
				return true
			}
		}
	}
	return false
}

// deleted returns the words naming what command c deletes, whole trees
// included: rm's operands, find -delete's roots (without a filter), cargo
// clean --target-dir, cmake -E rm|remove|remove_directory, tar
// --remove-files' inputs, and with moves what mv and rsync
// --remove-source-files take away and rsync --delete empties.
func (w *walker) deleted(c int, moves bool) []field {
	fs := w.info[c].fields
	cm := &w.a.Commands[c]
	var out []field
	switch cm.Name {
	case "rm", "rmdir", "unlink":
		return operands(fs)
	case "find":
		fi := parseFind(fs)
		if !fi.delete || fi.filtered {
			return nil
		}
		if len(fi.roots) == 0 {
			return []field{{val: ".", pat: "."}}
		}
		return fi.roots
	case "cargo":
		if _, v := verb(fs, "--manifest-path", "--config", "-Z", "--color", "-C", "--target-dir"); v != "clean" {
			return nil
		}
		for _, as := range cm.Assigns {
			if v, ok := strings.CutPrefix(as, "CARGO_TARGET_DIR="); ok {
				out = append(out, field{val: v, pat: v})
			}
		}
		return append(out, optionValues(fs, "--target-dir")...)
	case "cmake":
		for i := 1; i+1 < len(fs); i++ {
			if fs[i].val != "-E" {
				continue
			}
			switch fs[i+1].val {
			case "rm", "remove", "remove_directory":
				for _, f := range fs[i+2:] {
					if !f.dyn && strings.HasPrefix(f.val, "-") {
						continue // -r -R -f --
					}
					out = append(out, f)
				}
			}
			return out
		}
	case "tar", "gtar", "bsdtar":
		p := w.words(c)
		if !p.Has("remove-files") {
			return nil
		}
		for _, wd := range p.Words {
			if wd.Name == "" && wd.Role != RoleWrite {
				out = append(out, w.valueField(c, wd))
			}
		}
		return out
	case "mv", "rsync":
		if !moves {
			return nil
		}
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
			case cm.Name == "mv" && wd.Role == RoleWrite && !last,
				moved && wd.Role == RoleRead,
				del && last:
				out = append(out, w.valueField(c, wd))
			}
		}
	}
	return out
}

// optionValues returns the values of a long option, --opt VALUE or
// --opt=VALUE.
func optionValues(fs []field, opt string) []field {
	var out []field
	for i := 1; i < len(fs); i++ {
		switch {
		case fs[i].val == opt && i+1 < len(fs):
			out = append(out, fs[i+1])
		case strings.HasPrefix(fs[i].val, opt+"="):
			g := fs[i]
			g.val = strings.TrimPrefix(g.val, opt+"=")
			g.pat = strings.TrimPrefix(g.pat, opt+"=")
			out = append(out, g)
		}
	}
	return out
}
