package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/grants"
)

func agentFlags(withMode bool) []cli.Flag {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "agent", Usage: "`AGENT`: claude, codex, gemini, opencode or pi"},
		&cli.BoolFlag{Name: "project", Usage: "the agent's settings for this project (its root: .guard/, else .git, else here)"},
		&cli.BoolFlag{Name: "global", Usage: "the agent's settings for every project (default)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print the changes as a unified diff and write nothing"},
	}
	if withMode {
		flags = append(flags,
			&cli.StringFlag{Name: "mode", Value: modePower, Usage: "`MODE`: power (the shell goes through guard) or safe (the agent's shell off or read-only)"},
			&cli.BoolFlag{Name: "instructions", Usage: "also add a short section on guard to the agent's instruction file (docs/agents-install.md#instructions)"},
		)
	}
	return flags
}

func (a *App) installCommand() *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "wire guard into an agent's own settings",
		UsageText: `guard install --agent AGENT [--mode power|safe] [--project|--global] [--dry-run] [--instructions]

Merges guard into the agent's own settings files and leaves everything else
in them as it was. Each changed file is backed up first (under
$XDG_STATE_HOME/guard/backups/). Running it again changes nothing; running
it with another mode switches. What each mode does for each agent:
docs/agents-install.md. Refused when run from inside a guarded command.

example:
   guard install --agent claude
   guard install --agent codex --mode safe --project --dry-run
   guard install --agent gemini --instructions`,
		Flags:  agentFlags(true),
		Action: a.install,
	}
}

func (a *App) uninstallCommand() *cli.Command {
	return &cli.Command{
		Name:  "uninstall",
		Usage: "remove what guard install wrote into an agent's settings",
		UsageText: `guard uninstall --agent AGENT [--project|--global] [--dry-run]

Removes exactly what guard install added, where the files still hold it;
what you changed since stays. Files are backed up first.

example:
   guard uninstall --agent claude
   guard uninstall --agent opencode --project`,
		Flags:  agentFlags(false),
		Action: a.uninstall,
	}
}

// agentRun is one install or uninstall, worked out.
type agentRun struct {
	plan    *plan
	recPath string
	old     *installRecord
}

// newAgentRun resolves the agent, the scope and guard's own paths, and
// undoes the recorded edits in memory.
func (a *App) newAgentRun(c *cli.Context, mode string) (*agentRun, error) {
	if !c.IsSet("agent") {
		// the help says what --agent takes; then the one-line error
		if err := cli.ShowSubcommandHelp(c); err != nil {
			return nil, err
		}
		return nil, usageError("%s needs --agent: one of claude, codex, gemini, opencode, pi", c.Command.Name)
	}
	spec, err := findAgent(c.String("agent"))
	if err != nil {
		return nil, err
	}
	if c.Args().Present() {
		return nil, usageError("unexpected argument %q", c.Args().First())
	}
	if c.Bool("project") && c.Bool("global") {
		return nil, usageError("--project and --global exclude each other")
	}
	home := a.Getenv("HOME")
	if !filepath.IsAbs(home) {
		return nil, failure(errors.New("HOME is not set to an absolute path"), "")
	}
	guard, err := a.guardBinary()
	if err != nil {
		return nil, failure(err, "install guard with ./install.sh")
	}
	paths := a.paths()
	p := &plan{
		agent:     spec,
		mode:      mode,
		global:    !c.Bool("project"),
		dir:       spec.configDir(&agentEnv{getenv: a.Getenv, home: home}),
		guard:     guard,
		shim:      filepath.Join(paths.DataDir, "shims", "bash"),
		files:     map[string]*fileState{},
		backupDir: filepath.Join(paths.StateDir, "backups", a.Now().UTC().Format("20060102T150405.000Z")),
	}
	if !p.global {
		cwd, err := a.cwdOr("")
		if err != nil {
			return nil, err
		}
		p.root = grants.ProjectRoot(cwd)
	}
	r := &agentRun{plan: p, recPath: recordPath(paths, spec.name, p.global, p.root)}
	if r.old, err = loadRecord(r.recPath); err != nil {
		return nil, failure(err, "move the file away to start afresh")
	}
	// an instruction file two agents share (a project's AGENTS.md) keeps
	// guard's section while the other install still holds it
	for _, other := range r.others() {
		for _, f := range other.Files {
			if f.Block {
				p.sharedBlocks = append(p.sharedBlocks, f.Path)
			}
		}
	}
	if r.old != nil {
		if err := p.undo(r.old); err != nil {
			return nil, failure(err, "")
		}
	}
	return r, nil
}

func (a *App) install(c *cli.Context) error {
	if err := a.refuseInsideGuard("install"); err != nil {
		return err
	}
	mode := c.String("mode")
	if mode != modePower && mode != modeSafe {
		return usageError("unknown mode %q: power or safe", mode)
	}
	r, err := a.newAgentRun(c, mode)
	if err != nil {
		return err
	}
	p := r.plan
	if mode == modeSafe && p.agent.noSafe != "" {
		return &cliError{code: exitUsage, kind: "error", msg: p.agent.noSafe,
			hint: "guard install --agent " + p.agent.name + " --mode power"}
	}
	if mode == modePower && (p.agent.name == "claude" || p.agent.name == "pi") {
		// the agent's shell is guard's bash link (install.sh makes it)
		if err := a.checkShim(p); err != nil {
			return err
		}
	}
	if err := p.agent.plan(p); err != nil {
		return failure(err, "")
	}
	// --instructions is remembered: a later install keeps the section
	// (updated for its mode) until uninstall
	instructions := c.Bool("instructions") || r.old != nil && r.old.Instructions
	if instructions {
		if err := p.block(p.agent.instructions(p), instructionsText(mode)); err != nil {
			return failure(err, "")
		}
	}
	a.keepSharedShim(r)
	rec := p.recordFor(instructions)
	changes := p.changes()
	where := p.agent.name + " (" + mode + " mode, " + scopeText(p) + ")"
	if len(changes) == 0 && sameRecord(r.old, rec) {
		fmt.Fprintf(a.Stdout, "guard is already installed for %s: nothing to change\n", where)
		return nil
	}
	if c.Bool("dry-run") {
		fmt.Fprint(a.Stdout, p.diff(changes))
		fmt.Fprintf(a.Stdout, "dry run: would install guard for %s; nothing written\n", where)
		return nil
	}
	if err := a.applyRun(r, changes, rec); err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "guard is installed for %s\n", where)
	for _, n := range installNotes(p) {
		fmt.Fprintf(a.Stdout, "note: %s\n", n)
	}
	return nil
}

func (a *App) uninstall(c *cli.Context) error {
	if err := a.refuseInsideGuard("uninstall"); err != nil {
		return err
	}
	r, err := a.newAgentRun(c, "")
	if err != nil {
		return err
	}
	p := r.plan
	if r.old == nil {
		// no record (install.sh --purge removes it): take out what is
		// recognisably guard's
		found := scanRecord(p)
		if found == nil {
			fmt.Fprintf(a.Stdout, "guard is not installed for %s (%s): nothing to remove\n", p.agent.name, scopeText(p))
			return nil
		}
		if err := p.undo(found); err != nil {
			return failure(err, "")
		}
		fmt.Fprintf(a.Stdout, "no install record for %s (%s): removing what is recognisably guard's\n", p.agent.name, scopeText(p))
	}
	a.keepSharedShim(r)
	changes := p.changes()
	if c.Bool("dry-run") {
		fmt.Fprint(a.Stdout, p.diff(changes))
		fmt.Fprintf(a.Stdout, "dry run: would remove guard from %s (%s); nothing written\n", p.agent.name, scopeText(p))
		return nil
	}
	if err := a.applyRun(r, changes, nil); err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "guard is removed from %s (%s)\n", p.agent.name, scopeText(p))
	return nil
}

// applyRun writes the changes and then the record (nil: remove it).
func (a *App) applyRun(r *agentRun, changes []fileChange, rec *installRecord) error {
	lines, err := r.plan.apply(changes)
	for _, l := range lines {
		fmt.Fprintln(a.Stdout, l)
	}
	if err != nil {
		// what was written stays recorded, so uninstall can undo it
		if rec != nil {
			_ = saveRecord(r.recPath, rec)
		}
		return failure(err, "")
	}
	if rec == nil {
		if err := os.Remove(r.recPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return failure(err, "")
		}
		// the user chose this: guard doctor notes it instead of failing
		_ = grants.WriteAtomic(unwiredPath(r.recPath), nil, 0o600)
		return nil
	}
	if err := saveRecord(r.recPath, rec); err != nil {
		return failure(err, "")
	}
	_ = os.Remove(unwiredPath(r.recPath))
	return nil
}

// unwiredPath marks an agent (in one scope) that guard uninstall unwired,
// beside its install record.
func unwiredPath(recPath string) string {
	return strings.TrimSuffix(recPath, ".json") + ".unwired"
}

// keepSharedShim keeps guard's bash link that an earlier install created
// while another install still runs through it.
func (a *App) keepSharedShim(r *agentRun) {
	p := r.plan
	fs, ok := p.files[p.shim]
	if !ok || fs.kind != "link" || !fs.onDisk || fs.exists || !a.shimShared(r) {
		return
	}
	t, _ := os.Readlink(p.shim)
	fs.exists, fs.target = true, t
	if len(fs.rec.Target) == 0 {
		// still guard's to remove later: keep it in this record
		fs.rec.Target, fs.rec.Created = t, true
	}
}

// others returns the install records of the other agents and scopes.
func (r *agentRun) others() []*installRecord {
	dir := filepath.Dir(r.recPath)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []*installRecord
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if path == r.recPath || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if rec, err := loadRecord(path); err == nil && rec != nil {
			out = append(out, rec)
		}
	}
	return out
}

// shimShared reports whether another install record (another agent, or
// another scope) also wired in guard's bash link.
func (a *App) shimShared(r *agentRun) bool {
	for _, rec := range r.others() {
		if rec.Mode == modePower && (rec.Agent == "claude" || rec.Agent == "pi") {
			return true
		}
	}
	return false
}

// checkShim makes sure guard's bash link exists and leads to guard,
// planning to create it when it is missing.
func (a *App) checkShim(p *plan) error {
	t, err := os.Readlink(p.shim)
	if err != nil {
		if _, serr := os.Lstat(p.shim); serr == nil {
			return failure(fmt.Errorf("%s exists and is not a link to guard", p.shim), "move it away and run again, or reinstall guard with ./install.sh")
		}
		return p.link(p.shim, p.guard)
	}
	if !filepath.IsAbs(t) {
		t = filepath.Join(filepath.Dir(p.shim), t)
	}
	if !sameFile(t, p.guard) {
		return failure(fmt.Errorf("%s leads to %s, not to guard (%s)", p.shim, t, p.guard), "reinstall guard with ./install.sh")
	}
	// a link an earlier install made (and undid in memory) is made again;
	// one that install.sh made is left as it is
	raw, _ := os.Readlink(p.shim)
	return p.link(p.shim, raw)
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func scopeText(p *plan) string {
	if p.global {
		return "global"
	}
	return "project " + p.root
}

// installNotes are what the user must know after an install.
func installNotes(p *plan) []string {
	var notes []string
	switch {
	case p.agent.name == "codex" && !p.global:
		notes = append(notes, "codex reads a project's .codex/ only when you trust the project in codex")
	case p.agent.name == "codex" && p.mode == modePower:
		notes = append(notes, "codex may ask you to review the new hook once (/hooks)")
	case p.agent.name == "gemini" && !p.global && p.mode == modePower:
		notes = append(notes, "gemini asks you to trust a new project hook once")
	}
	if !p.global && p.mode == modePower {
		// the project files name this machine's guard
		for _, path := range p.order {
			fs := p.files[path]
			data, _ := fs.content()
			if !fs.rec.empty() && fs.kind != "link" && strings.HasPrefix(path, p.root+string(filepath.Separator)) &&
				(bytes.Contains(data, []byte(p.guard)) || bytes.Contains(data, []byte(p.shim))) {
				notes = append(notes, "keep "+path+" out of version control: it names this machine's guard")
			}
		}
	}
	if p.mode == modePower {
		notes = append(notes, "restart "+p.agent.name+" to load the change; check the wiring with: guard doctor")
	} else {
		notes = append(notes, "restart "+p.agent.name+" to load the change")
	}
	return notes
}

// guardBinary is the absolute path of the guard program (not guard-cli):
// next to this program, as install.sh lays them out, else on PATH.
func (a *App) guardBinary() (string, error) {
	if a.Self != "" {
		if p := filepath.Join(filepath.Dir(a.Self), "guard"); isExecutable(p) {
			return p, nil
		}
	}
	for _, dir := range filepath.SplitList(a.Getenv("PATH")) {
		if filepath.IsAbs(dir) {
			if p := filepath.Join(dir, "guard"); isExecutable(p) {
				return p, nil
			}
		}
	}
	return "", errors.New("cannot find the guard program next to guard-cli or on PATH")
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
