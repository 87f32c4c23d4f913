package grants

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// DefaultManaged is where the admin's policy lives unless GUARD_MANAGED_POLICY moves it.
const DefaultManaged = "/etc/guard/policy.toml"

// NoHome stands in for $HOME when it is unset or relative, so that settings
// never resolve against the working directory (XDG variables must be
// absolute too). Nothing exists there: only the built-in defaults apply.
const NoHome = "/nonexistent/guard-no-home"

// Paths are the places guard keeps settings and state.
type Paths struct {
	Home      string // $HOME when absolute, else NoHome: what ~ means in [[rule]] tables
	Managed   string // the admin's policy file
	ConfigDir string // $XDG_CONFIG_HOME/guard
	StateDir  string // $XDG_STATE_HOME/guard
	CacheDir  string // $XDG_CACHE_HOME/guard
	DataDir   string // $XDG_DATA_HOME/guard: the shim directory (bash, sh links) lives here
}

// PathsFromEnv resolves Paths: Managed from GUARD_MANAGED_POLICY else
// /etc/guard/policy.toml; the others from the XDG variables, else under $HOME.
func PathsFromEnv(getenv func(string) string) Paths {
	home := getenv("HOME")
	if !filepath.IsAbs(home) {
		// never resolve settings against the working directory: a
		// repository could hold a .config/guard granting itself anything
		home = NoHome
	}
	xdg := func(v, fallback string) string {
		if d := getenv(v); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "guard")
		}
		return filepath.Join(home, fallback, "guard")
	}
	p := Paths{
		Home:      home,
		Managed:   DefaultManaged,
		ConfigDir: xdg("XDG_CONFIG_HOME", ".config"),
		StateDir:  xdg("XDG_STATE_HOME", filepath.Join(".local", "state")),
		CacheDir:  xdg("XDG_CACHE_HOME", ".cache"),
		DataDir:   xdg("XDG_DATA_HOME", filepath.Join(".local", "share")),
	}
	if m := getenv("GUARD_MANAGED_POLICY"); m != "" {
		p.Managed = m
	}
	return p
}

// GlobalConfig is the user's hand-written config.
func (p Paths) GlobalConfig() string { return filepath.Join(p.ConfigDir, "config.toml") }

// GlobalGrants holds the answers "allow everywhere".
func (p Paths) GlobalGrants() string { return filepath.Join(p.ConfigDir, "grants.toml") }

// projectDir is the user's per-project directory, outside the repository.
func (p Paths) projectDir(root string) string {
	return filepath.Join(p.ProjectsDir(), RootHash(root))
}

// ProjectGrants holds the answers "allow for this project".
func (p Paths) ProjectGrants(root string) string {
	return filepath.Join(p.projectDir(root), "grants.toml")
}

// TrustFile holds the pinned sha256 of the project's committed config.
func (p Paths) TrustFile(root string) string {
	return filepath.Join(p.projectDir(root), "trust")
}

// Protected lists guard's own config, state and shim links, which a guarded
// command may not write: replacing the shims' bash link would unguard every
// later command. The agents' own settings files that guard install wires
// guard into are protected too: a command that rewrote them could take
// guard's hook or shell out of the agent (and Claude's shell snapshots are
// sourced before every command). Callers add the guard binary itself.
func (p Paths) Protected() []string {
	prot := []string{p.Managed, p.ConfigDir, p.StateDir, p.CacheDir, p.DataDir}
	if p.Home == "" || p.Home == NoHome {
		return prot
	}
	xdg := filepath.Dir(p.ConfigDir) // $XDG_CONFIG_HOME
	return append(prot,
		filepath.Join(p.Home, ".claude", "settings.json"),
		filepath.Join(p.Home, ".claude", "settings.local.json"),
		filepath.Join(p.Home, ".claude", "shell-snapshots"),
		filepath.Join(p.Home, ".codex", "hooks.json"),
		filepath.Join(p.Home, ".codex", "config.toml"),
		filepath.Join(p.Home, ".gemini", "settings.json"),
		filepath.Join(xdg, "opencode", "plugins"),
		filepath.Join(xdg, "opencode", "opencode.json"),
		filepath.Join(xdg, "opencode", "opencode.jsonc"),
		filepath.Join(p.Home, ".pi", "agent", "settings.json"),
		filepath.Join(p.Home, ".pi", "agent", "extensions"),
	)
}

// RootHash names a project root: the first 16 hex digits of sha256(root).
func RootHash(root string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(root)))
	return hex.EncodeToString(sum[:])[:16]
}

// ProjectRoot is the nearest ancestor of cwd holding .guard/, else the
// nearest holding .git, else cwd itself.
func ProjectRoot(cwd string) string {
	root, _ := FindProjectRoot(cwd)
	return root
}

// How a project root was found, as [FindProjectRoot] reports it.
const (
	RootByGuardDir = ".guard/"       // the nearest ancestor with a .guard directory
	RootByGit      = ".git"          // the nearest ancestor with .git (a directory, or a worktree's file)
	RootByCwd      = "the directory" // neither: the working directory itself
)

// FindProjectRoot returns the project root of cwd and how it was found:
// the nearest ancestor (cwd included) holding a .guard directory, else the
// nearest holding .git, else cwd itself. A .guard/ above a repository's
// root wins over the repository, so a team can make a monorepo one project.
func FindProjectRoot(cwd string) (root, how string) {
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	for _, m := range [...]struct{ name, how string }{{".guard", RootByGuardDir}, {".git", RootByGit}} {
		for dir := cwd; ; {
			if fi, err := os.Stat(filepath.Join(dir, m.name)); err == nil && (fi.IsDir() || m.name == ".git") {
				return dir, m.how
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return cwd, RootByCwd
}

// RootFile records, beside a project's grants, the root path they belong
// to: the folder is named by a hash, which cannot be read back.
func (p Paths) RootFile(root string) string {
	return filepath.Join(p.projectDir(root), "root")
}

// ProjectsDir holds one folder of grants (and trust pins) per project.
func (p Paths) ProjectsDir() string { return filepath.Join(p.ConfigDir, "projects") }

// ProjectConfig is the team's committed config.
func ProjectConfig(root string) string { return filepath.Join(root, ".guard", "config.toml") }

// RulesFiles lists the file-backed layers for cwd, in merge order, whether
// or not each file exists. The built-in layer has no file and is not listed.
func RulesFiles(p Paths, cwd string) []Layer {
	root := ProjectRoot(cwd)
	layers := []Layer{
		{Name: LayerManaged, File: p.Managed},
		{Name: LayerGlobal, File: p.GlobalConfig()},
		{Name: LayerGlobalGrants, File: p.GlobalGrants()},
		{Name: LayerProjectGrants, File: p.ProjectGrants(root)},
		{Name: LayerProject, File: ProjectConfig(root)},
	}
	for i := range layers {
		if _, err := os.Stat(layers[i].File); err == nil {
			layers[i].Exists = true
		}
	}
	if layers[4].Exists {
		layers[4].Trusted = trusted(p, root)
	}
	return layers
}
