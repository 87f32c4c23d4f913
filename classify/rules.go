package classify

import (
	"path"
	"slices"
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
	{"disk-write", "writes raw data to a disk, a volume or a memory device; guard never runs this", (*walker).diskWrite},
	{"volume-destroy", "destroys a volume, pool or subvolume (lvremove, zfs destroy, btrfs subvolume delete); guard never runs this", (*walker).volumeDestroy},
	{"firmware-write", "writes or erases firmware or a flash chip (flashrom, fwupdmgr install, efibootmgr -B); guard never runs this", (*walker).firmwareWrite},
	{"rm-home-all", "deletes the home directory or everything at its top level; guard never runs this", (*walker).rmHomeAll},
	{"shred", "shred destroys file contents beyond recovery; guard never runs it (use rm)", (*walker).shred},
	{"chmod-system", "changes ownership or permissions of / or a system directory recursively; guard never runs this", (*walker).chmodSystem},
	{"chattr-system", "changes immutable/append-only attributes on system paths; guard never runs this", (*walker).chattrSystem},
	{"privilege", "runs a command as another user (sudo, su, doas, pkexec, run0); guard never runs this: ask the human to run it", (*walker).privilege},
	{"download-exec", "runs code downloaded from the network; download it, read it, then run the file", (*walker).downloadExec},
	{"credential-read", "reads a credential file (private keys, cloud or registry credentials, shadow passwords); guard never runs this", (*walker).credentialRead},
	{"secret-print", "prints a token, password or private key (gh auth token, gcloud auth print-access-token, kubectl config view --raw, printenv of a secret); guard never runs this: the tools that need a credential read it themselves", (*walker).secretPrint},
	{"cloud-metadata", "reaches a cloud metadata endpoint (169.254.169.254, metadata.google.internal, fd00:ec2::254 in any spelling), which hands out the machine's credentials; guard never runs this", (*walker).cloudMetadata},
	{"security-off", "turns off a security mechanism (firewall, SELinux, AppArmor, audit, SIP); guard never runs this", (*walker).securityOff},
	{"kill-all", "signals every process the user can reach (kill -1); guard never runs this", (*walker).killAll},
	{"guard-self", "changes guard's own grants, config, state or installation, or an agent's wiring of guard, from inside a guarded command; only the human may do that, at their terminal", (*walker).guardSelf},
	{"fork-bomb", "forks without end (a function that calls itself in the background, a loop or one-liner that forks forever); guard never runs this", (*walker).forkBomb},
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
	{"git-drop-recovery", "deletes the copy git keeps of dropped work (gc --prune, prune, reflog expire/delete, update-ref -d)", (*walker).gitDropsRecovery},
	{"git-lose-work", "discards work git cannot give back (reset --merge|--keep, read-tree --reset, checkout-index -f, rm -r of the tree, branch -M|-f, tag -d, worktree remove --force, submodule deinit -f, repack -a -d, clean after clean.requireForce off)", (*walker).gitLosesWork},
	{"cloud-delete", "deletes a cloud or hosting resource (a repository, release, bucket, instance, project) or changes its visibility", (*walker).cloudDelete},
	{"rm-recursive", "rm -r deletes a whole directory tree", (*walker).rmRecursive},
	{"rm-home", "deletes files in the home directory, outside the project", (*walker).rmHome},
	{"find-delete", "find -delete deletes every file it matches", (*walker).findDelete},
	{"truncate", "truncate cuts files to a size, destroying their contents", (*walker).truncate},
	{"sql-drop", "drops or truncates database tables", (*walker).sqlDrop},
	{"kubectl-delete", "kubectl delete removes cluster resources", (*walker).kubectlDelete},
	{"terraform-destroy", "destroys infrastructure managed by terraform", (*walker).terraformDestroy},
	{"docker-prune", "docker prune deletes containers, images, volumes or networks", (*walker).dockerPrune},
	{"url-scheme", "fetches a URL whose scheme is not the web's (gopher://, dict://, file://, ldap://, telnet://…): it can send raw bytes to any port or read local files", (*walker).urlScheme},
	{"agent-config", "writes an agent's project configuration (.claude/, .mcp.json, .gemini/, .codex/, .cursor/, .vscode/tasks.json, .opencode): its hooks and MCP servers run outside guard; no grant covers this", (*walker).agentConfigWrite},
	{"shell-state", "changes which program a later command runs (PATH, the command hash, BASH_ENV, IFS, LD_*, an option that changes expansion); guard cannot see what a later name will run", (*walker).shellState},
	{"dotenv-read", "reads a .env file, where projects keep their secrets (.env.example, .env.sample and .env.template are fine)", (*walker).dotenvRead},
}

// severity ranks the built-in rules, most severe first: when several hit,
// the verdict names the worst (rm -rf ~ must not read like rm -rf build)
// and lists the rest.
var severity = []string{
	"rm-root", "rm-home-all", "disk-format", "disk-write", "volume-destroy", "firmware-write", "fork-bomb", "kill-all", "credential-read", "secret-print", "cloud-metadata", "privilege",
	"guard-self", "download-exec", "security-off", "chmod-system", "chattr-system", "shred", "hidden-exec",
	"rm-home", "terraform-destroy", "kubectl-delete", "sql-drop", "git-force-push", "find-delete",
	"cloud-delete", "git-clean", "git-reset-hard", "git-lose-work", "git-drop-recovery", "rm-recursive", "git-checkout-discard", "git-branch-delete",
	"agent-config", "truncate", "shell-state", "docker-prune", "url-scheme", "dotenv-read",
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

// securityFile reports a kernel switch whose write turns a protection
// off (echo 0 > /proc/sys/kernel/randomize_va_space).
func securityFile(p string) bool {
	switch path.Clean(p) {
	case "/proc/sys/kernel/randomize_va_space", "/sys/fs/selinux/enforce", "/proc/sys/kernel/yama/ptrace_scope",
		"/proc/sys/kernel/kptr_restrict", "/proc/sys/kernel/dmesg_restrict":
		return true
	}
	return kernelSwitchFile(p)
}

// HelpQuery reports a command that only asks a program for its help or
// version: its one argument is --help or --version, literal, and its
// command word a name looked up in PATH (not a path, not computed). Every
// program guard knows prints and exits on it, so no rule applies: shred
// --help, mkfs --help and sudo --version only print.
func HelpQuery(c *Command) bool {
	if len(c.Args) != 2 || c.Name == "" || strings.Contains(c.Args[0], "/") {
		return false
	}
	for _, d := range c.Dynamic {
		if d {
			return false
		}
	}
	return c.Args[1] == "--help" || c.Args[1] == "--version"
}

func (w *walker) helpQuery(c int) bool { return HelpQuery(&w.a.Commands[c]) }

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
		if w.helpQuery(c) {
			continue // shred --help, sudo --version: the program prints and exits
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
			if write && agentConfig(p) {
				w.hitAsk("agent-config", rt.cmd)
			}
			if write && securityFile(p) {
				w.hitDeny("security-off", rt.cmd)
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
