package classify

// Asks on losing work that a '*' grant (git *, gh *, aws *) must not
// cover: git commands that discard uncommitted or unreferenced work, and
// deletes of cloud and hosting resources. They are read from the raw
// words, with short options in bundles (-fa is -f -a), so that an option
// a spec does not type is not missed.

import "strings"

// rawFlag reports an option among words: a long one by name (--force,
// --force=…), or a short letter alone or in a bundle (-f, -fa).
func rawFlag(words []field, long string, short byte) bool {
	for _, f := range words {
		v := f.val
		if v == "--" {
			return false
		}
		if long != "" && (v == "--"+long || strings.HasPrefix(v, "--"+long+"=")) {
			return true
		}
		if short != 0 && len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v[1:], short) >= 0 {
			return true
		}
	}
	return false
}

// rawOperands returns the words that are not options.
func rawOperands(words []field) []string {
	var out []string
	for _, f := range words {
		if !strings.HasPrefix(f.val, "-") || f.dyn {
			out = append(out, f.val)
		}
	}
	return out
}

// gitLosesWork: git reset --merge|--keep, read-tree -u --reset,
// checkout-index -f -a, rm -r of the whole tree (or -r -f), branch -M, -C
// or -f, tag -d, worktree remove --force, submodule deinit -f, repack -a
// -d, and clean (even without -f) once the text set clean.requireForce off.
func (w *walker) gitLosesWork(c int) bool {
	if w.a.Commands[c].Name != "git" {
		return false
	}
	fs := w.info[c].fields
	i := gitSub(fs)
	if i < 0 {
		return false
	}
	sub, rest := fs[i].val, fs[i+1:]
	switch sub {
	case "reset":
		return rawFlag(rest, "merge", 0) || rawFlag(rest, "keep", 0)
	case "read-tree":
		return rawFlag(rest, "", 'u') && rawFlag(rest, "reset", 0)
	case "checkout-index":
		// --prefix=DIR/ exports elsewhere; without it the tree is overwritten
		return rawFlag(rest, "force", 'f') && (rawFlag(rest, "all", 'a') || len(rawOperands(rest)) > 0) && !rawFlag(rest, "prefix", 0)
	case "rm":
		if !rawFlag(rest, "", 'r') || rawFlag(rest, "cached", 0) {
			return false // rm -r --cached .: the index only
		}
		if rawFlag(rest, "force", 'f') {
			return true
		}
		for _, o := range rawOperands(rest) {
			switch o {
			case ".", "./", "*", ":/", ":/*", ":(top)", "/":
				return true
			}
		}
	case "branch":
		return rawFlag(rest, "", 'M') || rawFlag(rest, "", 'C') || rawFlag(rest, "force", 'f')
	case "tag":
		return rawFlag(rest, "delete", 'd')
	case "worktree":
		ops := rawOperands(rest)
		return len(ops) > 0 && ops[0] == "remove" && rawFlag(rest, "force", 'f')
	case "submodule":
		ops := rawOperands(rest)
		return len(ops) > 0 && ops[0] == "deinit" && rawFlag(rest, "force", 'f')
	case "repack":
		return rawFlag(rest, "", 'a') && rawFlag(rest, "", 'd')
	case "clean":
		return !rawFlag(rest, "dry-run", 'n') && (w.cleanUnforced() || gitConfigOff(fs[:i]))
	}
	return false
}

// cleanUnforced reports a git config, anywhere in the text, that turns
// clean.requireForce off: git clean then deletes without -f.
func (w *walker) cleanUnforced() bool {
	for c := range w.a.Commands {
		cm := &w.a.Commands[c]
		if cm.Name != "git" {
			continue
		}
		fs := w.info[c].fields
		if gitConfigOff(fs) {
			return true
		}
		i := gitSub(fs)
		if i < 0 || fs[i].val != "config" {
			continue
		}
		for k, f := range fs[i+1:] {
			if strings.EqualFold(f.val, "clean.requireForce") && i+2+k < len(fs) && falsy(fs[i+2+k].val) {
				return true
			}
		}
	}
	return false
}

// gitConfigOff reports git -c clean.requireForce=false among the words.
func gitConfigOff(fs []field) bool {
	for _, f := range fs {
		k, v, ok := strings.Cut(f.val, "=")
		if ok && strings.EqualFold(strings.TrimPrefix(k, "-c"), "clean.requireForce") && falsy(v) {
			return true
		}
	}
	return false
}

func falsy(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0", "":
		return true
	}
	return false
}

// cloudDeletes are the hosting and cloud CLIs' verbs that delete a
// resource, by program: a verb path (words that must all be operands, in
// order) or a verb prefix ending in '-' (aws delete-…).
var cloudDeletes = map[string][][]string{
	"gh": {{"repo", "delete"}, {"repo", "archive"}, {"release", "delete"}, {"release", "delete-asset"}, {"gist", "delete"},
		{"secret", "delete"}, {"variable", "delete"}, {"run", "delete"}, {"cache", "delete"}, {"label", "delete"}, {"issue", "delete"},
		{"project", "delete"}, {"codespace", "delete"}, {"ssh-key", "delete"}, {"gpg-key", "delete"}, {"ruleset", "delete"}},
	"gcloud":  {{"delete"}},
	"az":      {{"delete"}, {"delete-batch"}, {"purge"}},
	"pulumi":  {{"destroy"}, {"stack", "rm"}},
	"heroku":  {{"apps:destroy"}, {"destroy"}, {"pg:reset"}},
	"fly":     {{"destroy"}},
	"flyctl":  {{"destroy"}},
	"doctl":   {{"delete"}},
	"vercel":  {{"remove"}, {"rm"}},
	"netlify": {{"sites:delete"}},
}

// cloudDelete: gh repo|release delete (and the other gh deletes), gh api
// -X DELETE, gh repo edit --visibility, aws s3 rm --recursive, aws s3 rb
// --force, any aws delete-* or terminate-* verb, gcloud and az delete
// verbs, and the like of other hosting CLIs.
func (w *walker) cloudDelete(c int) bool {
	name := w.a.Commands[c].Name
	fs := w.info[c].fields
	if len(fs) < 2 {
		return false
	}
	rest := fs[1:]
	ops := rawOperands(rest)
	switch name {
	case "gh":
		if len(ops) > 0 && ops[0] == "api" {
			for i, f := range rest {
				v := strings.ToUpper(f.val)
				if (f.val == "-X" || f.val == "--method") && i+1 < len(rest) && strings.EqualFold(rest[i+1].val, "DELETE") ||
					v == "-XDELETE" || v == "--METHOD=DELETE" {
					return true
				}
			}
			return false
		}
		if len(ops) > 1 && ops[0] == "repo" && ops[1] == "edit" && rawFlag(rest, "visibility", 0) {
			return true
		}
	case "aws":
		for k, o := range ops {
			if strings.HasPrefix(o, "delete-") || strings.HasPrefix(o, "terminate-") {
				return true
			}
			if o == "s3" && k+1 < len(ops) {
				switch ops[k+1] {
				case "rm":
					return rawFlag(rest, "recursive", 0)
				case "rb":
					return rawFlag(rest, "force", 0)
				}
			}
		}
		return false
	}
	for _, path := range cloudDeletes[name] {
		if hasPath(ops, path) {
			return true
		}
	}
	return false
}

// hasPath reports the words of path among ops, in order.
func hasPath(ops, path []string) bool {
	k := 0
	for _, o := range ops {
		if k < len(path) && o == path[k] {
			k++
		}
	}
	return k == len(path)
}
