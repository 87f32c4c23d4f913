package classify

// The built-in git asks, read from git's typed options.

import (
	"strings"
)

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

// gitDropsRecovery: what deletes the copy git keeps of dropped work, the
// one a mistaken reset --hard, rebase or branch -D is undone from: gc
// --prune=DATE and prune (unreachable objects), reflog expire|delete (the
// record of where branches were), update-ref -d (a ref and its reflog).
//
// Policy (issue 8): under a git * grant, rebase -i, commit --amend and
// commit --no-verify stay allowed. They rewrite or add local history that
// the reflog keeps, write nothing outside the project, and run no program
// a git * grant does not already run (the editor, the hooks). This rule
// asks for what removes the reflog's safety net.
func (w *walker) gitDropsRecovery(c int) bool {
	p, sub := w.gitWords(c, "gc", "prune", "reflog", "update-ref")
	if p == nil {
		return false
	}
	switch sub {
	case "gc":
		for _, wd := range p.Values("prune") {
			if wd.Val != "never" {
				return true
			}
		}
		return false
	case "prune":
		return !p.Has("n", "dry-run")
	case "reflog":
		ops := p.Operands()
		return len(ops) > 0 && (ops[0].Val == "expire" || ops[0].Val == "delete") && !p.Has("n", "dry-run")
	case "update-ref":
		return p.Has("delete")
	}
	return false
}
