package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guard-dev/guard/agentcfg"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// How install and uninstall work: guard keeps a record of every edit it
// made to an agent's files (the value it replaced, the containers and
// files it created), one record per agent and scope, under
// $XDG_DATA_HOME/guard/agents/. Install first undoes its recorded edits in
// memory, then makes the edits of the mode asked for, and writes only the
// files whose bytes differ: a second run changes nothing and says so, and a
// switch of mode is one step. Uninstall undoes the recorded edits. An edit
// is undone only where the file still holds what guard wrote, so anything
// the user changed since is theirs. Every file is backed up before it is
// changed, under $XDG_STATE_HOME/guard/backups/TIME/.

// installRecord is what guard wrote into one agent's files, for one scope.
type installRecord struct {
	Agent        string       `json:"agent"`
	Scope        string       `json:"scope"` // "global", or the project root
	Mode         string       `json:"mode"`
	Instructions bool         `json:"instructions,omitempty"`
	Guard        string       `json:"guard"`
	Files        []fileRecord `json:"files"`
}

// fileRecord is guard's edits of one file.
type fileRecord struct {
	Path    string                `json:"path"`
	Kind    string                `json:"kind"` // json, toml, text (a marked block), whole (guard's own file), link
	Created bool                  `json:"created,omitempty"`
	Dirs    []string              `json:"dirs,omitempty"` // directories created for it, outermost first
	JSON    []agentcfg.Change     `json:"json,omitempty"`
	TOML    []agentcfg.TOMLChange `json:"toml,omitempty"`
	Block   bool                  `json:"block,omitempty"`
	Sum     string                `json:"sha256,omitempty"` // whole: the content written
	Target  string                `json:"target,omitempty"` // link: what it points at
	// Orig is the JSON file as it was before guard's first edit: when
	// undoing leaves the same values, the file gets its own bytes back
	// (an edit writes the objects it touches in guard's layout).
	Orig *origFile `json:"orig,omitempty"`
}

// origFile names a backup of a file and what it held.
type origFile struct {
	Backup string `json:"backup"`
	Sum    string `json:"sha256"`        // of the backup's bytes
	Values string `json:"values_sha256"` // of its values, in canonical JSON
}

func (r *fileRecord) empty() bool {
	return len(r.JSON) == 0 && len(r.TOML) == 0 && !r.Block && r.Sum == "" && r.Target == ""
}

// fileState is one file as the plan sees it: on disk, and as it will be.
type fileState struct {
	path   string
	kind   string
	onDisk bool
	disk   []byte
	mode   os.FileMode
	doc    *agentcfg.Doc // json
	text   string        // toml, text, whole
	target string        // link
	// exists says whether the file exists once guard's old edits are
	// undone; a file guard created and emptied again does not.
	exists bool
	rec    fileRecord
}

// plan is one install or uninstall being worked out in memory.
type plan struct {
	agent  agentSpec
	mode   string
	global bool
	dir    string // the agent's global config directory
	root   string // the project root (project scope)
	guard  string // absolute path of the guard binary
	shim   string // guard's bash link
	files  map[string]*fileState
	order  []string
	// backupDir is where this run backs files up
	backupDir string
	// sharedBlocks are instruction files whose guard section another
	// install also holds: undoing leaves the section there
	sharedBlocks []string
}

func backupPath(dir, file string) string {
	return filepath.Join(dir, strings.ReplaceAll(strings.TrimPrefix(file, "/"), "/", "%"))
}

func (p *plan) pick(global, project string) string {
	if p.global {
		return global
	}
	return project
}

func (p *plan) scope() string {
	if p.global {
		return "global"
	}
	return p.root
}

// hookCommand is the command line an agent runs for its hook.
func (p *plan) hookCommand(agent string) string {
	return classify.QuoteWord(p.guard) + " hook " + agent
}

// readRegular reads a regular file of at most agentcfg.MaxFileBytes; a
// missing file is (nil, false, nil). A FIFO or device at a config path
// must not hang guard.
func readRegular(path string) ([]byte, os.FileMode, bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if fi, err = os.Stat(path); err != nil {
			return nil, 0, false, err
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, false, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, agentcfg.MaxFileBytes+1))
	if err != nil {
		return nil, 0, false, err
	}
	if len(data) > agentcfg.MaxFileBytes {
		return nil, 0, false, fmt.Errorf("%s is over %d bytes; not a settings file", path, agentcfg.MaxFileBytes)
	}
	return data, fi.Mode().Perm(), true, nil
}

// load reads path once, as kind.
func (p *plan) load(path, kind string) (*fileState, error) {
	if fs, ok := p.files[path]; ok {
		if fs.kind != kind {
			return nil, fmt.Errorf("%s: edited as %s and as %s", path, fs.kind, kind)
		}
		return fs, nil
	}
	fs := &fileState{path: path, kind: kind, rec: fileRecord{Path: path, Kind: kind}}
	if kind == "link" {
		if t, err := os.Readlink(path); err == nil {
			fs.onDisk, fs.exists, fs.target = true, true, t
		} else if _, err := os.Lstat(path); err == nil {
			return nil, fmt.Errorf("%s exists and is not a link", path)
		}
	} else {
		data, mode, ok, err := readRegular(path)
		if err != nil {
			return nil, err
		}
		fs.onDisk, fs.exists, fs.disk, fs.mode = ok, ok, data, mode
		switch kind {
		case "json":
			if fs.doc, err = agentcfg.ParseJSON(data); err != nil {
				return nil, fmt.Errorf("%s:%w", path, err)
			}
		case "toml":
			if err := agentcfg.CheckTOML(string(data)); err != nil {
				return nil, fmt.Errorf("%s:%w", path, err)
			}
			fs.text = string(data)
		default:
			fs.text = string(data)
		}
	}
	p.files[path] = fs
	p.order = append(p.order, path)
	return fs, nil
}

// content is the file as the plan leaves it, and whether it exists.
func (fs *fileState) content() ([]byte, bool) {
	if !fs.exists {
		return nil, false
	}
	switch fs.kind {
	case "json":
		return fs.doc.Bytes(), true
	case "link":
		return []byte(fs.target), true
	}
	return []byte(fs.text), true
}

// emptied reports whether the file holds nothing but what guard put there.
func (fs *fileState) emptied() bool {
	switch fs.kind {
	case "json":
		return len(fs.doc.Root.Keys) == 0
	case "link":
		return fs.target == ""
	}
	return strings.TrimSpace(fs.text) == ""
}

func (p *plan) jsonSet(path string, keys []string, v any) error {
	return p.jsonEdit(path, func(d *agentcfg.Doc) (agentcfg.Change, bool, error) { return d.Set(keys, v) })
}

func (p *plan) jsonAppend(path string, keys []string, v any) error {
	return p.jsonEdit(path, func(d *agentcfg.Doc) (agentcfg.Change, bool, error) { return d.Append(keys, v) })
}

// jsonEdit applies one edit to the JSON file at path and records it, so
// that uninstall can undo it.
func (p *plan) jsonEdit(path string, edit func(*agentcfg.Doc) (agentcfg.Change, bool, error)) error {
	fs, err := p.load(path, "json")
	if err != nil {
		return err
	}
	c, changed, err := edit(fs.doc)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if changed {
		fs.rec.JSON = append(fs.rec.JSON, c)
		fs.exists = true
	}
	return nil
}

func (p *plan) tomlSet(path, table, key, value string) error {
	fs, err := p.load(path, "toml")
	if err != nil {
		return err
	}
	out, c, changed, err := agentcfg.TOMLSet(fs.text, table, key, value)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if changed {
		fs.text = out
		fs.rec.TOML = append(fs.rec.TOML, c)
		fs.exists = true
	}
	return nil
}

// whole writes a file that is guard's own (a plugin). A different file
// already there is the user's: guard does not overwrite it.
func (p *plan) whole(path, content string) error {
	fs, err := p.load(path, "whole")
	if err != nil {
		return err
	}
	if fs.exists && fs.text != content {
		return fmt.Errorf("%s exists and is not guard's; move it away and run again", path)
	}
	fs.text = content
	fs.rec.Sum = sum(content)
	fs.exists = true
	return nil
}

func (p *plan) block(path, body string) error {
	fs, err := p.load(path, "text")
	if err != nil {
		return err
	}
	out, err := agentcfg.SetBlock(fs.text, body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fs.text = out
	fs.rec.Block = true
	fs.exists = true
	return nil
}

// link makes path a symbolic link to target, unless it is one already.
func (p *plan) link(path, target string) error {
	fs, err := p.load(path, "link")
	if err != nil {
		return err
	}
	if fs.exists {
		return nil // there already: install.sh's, or the user's
	}
	fs.target, fs.exists = target, true
	fs.rec.Target = target
	return nil
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// undo reverts rec's edits in memory.
func (p *plan) undo(rec *installRecord) error {
	for i := range rec.Files {
		r := &rec.Files[i]
		fs, err := p.load(r.Path, r.Kind)
		if err != nil {
			return err
		}
		switch r.Kind {
		case "json":
			for j := len(r.JSON) - 1; j >= 0; j-- {
				if _, err := fs.doc.Undo(r.JSON[j]); err != nil {
					return fmt.Errorf("%s: %w", r.Path, err)
				}
			}
			fs.restoreOrig(r.Orig)
		case "toml":
			for j := len(r.TOML) - 1; j >= 0; j-- {
				fs.text, _ = agentcfg.TOMLUndo(fs.text, r.TOML[j])
			}
		case "text":
			if r.Block && !slices.Contains(p.sharedBlocks, r.Path) {
				out, _, err := agentcfg.RemoveBlock(fs.text)
				if err != nil {
					return fmt.Errorf("%s: %w", r.Path, err)
				}
				fs.text = out
			}
		case "whole":
			// guard's own file goes whole, whoever created it
			if fs.exists && sum(fs.text) == r.Sum {
				fs.text, fs.exists = "", false
			}
		case "link":
			if fs.exists && fs.target == r.Target {
				fs.target = ""
			}
		}
		if r.Created && fs.emptied() {
			fs.exists = false
			fs.rec.Created = true // if the new plan writes it, guard creates it again
			fs.rec.Dirs = r.Dirs
		}
	}
	return nil
}

// restoreOrig puts back the file's own bytes when the values are the same
// as before guard's first edit, and keeps the reference for the next run.
func (fs *fileState) restoreOrig(o *origFile) {
	if o == nil {
		return
	}
	fs.rec.Orig = o
	if sum(agentcfg.Canonical(fs.doc.Root)) != o.Values {
		return
	}
	data, _, ok, err := readRegular(o.Backup)
	if err != nil || !ok || sum(string(data)) != o.Sum {
		return
	}
	if doc, err := agentcfg.ParseJSON(data); err == nil {
		fs.doc = doc
	}
}

// recordFor collects the new record from the files' edits.
func (p *plan) recordFor(instructions bool) *installRecord {
	rec := &installRecord{Agent: p.agent.name, Scope: p.scope(), Mode: p.mode, Instructions: instructions, Guard: p.guard}
	for _, path := range p.order {
		fs := p.files[path]
		if fs.rec.empty() {
			continue
		}
		r := fs.rec
		r.Created = r.Created || !fs.onDisk
		if !r.Created {
			r.Dirs = nil
		} else if r.Dirs == nil {
			r.Dirs = missingDirs(path)
		}
		if r.Kind == "json" && r.Orig == nil && !r.Created && fs.onDisk && p.backupDir != "" {
			if orig, err := agentcfg.ParseJSON(fs.disk); err == nil {
				r.Orig = &origFile{Backup: backupPath(p.backupDir, path), Sum: sum(string(fs.disk)), Values: sum(agentcfg.Canonical(orig.Root))}
			}
		}
		fs.rec = r
		rec.Files = append(rec.Files, r)
	}
	return rec
}

// fileChange is one file write (or removal) the plan needs.
type fileChange struct {
	fs        *fileState
	old, new  []byte
	had, will bool
}

// changes lists the files whose bytes would change.
func (p *plan) changes() []fileChange {
	var out []fileChange
	for _, path := range p.order {
		fs := p.files[path]
		c := fileChange{fs: fs, old: fs.disk, had: fs.onDisk}
		if fs.kind == "link" && fs.onDisk {
			t, _ := os.Readlink(path)
			c.old = []byte(t)
		}
		c.new, c.will = fs.content()
		if c.had == c.will && bytes.Equal(c.old, c.new) || !c.had && !c.will {
			continue
		}
		out = append(out, c)
	}
	return out
}

// diff renders the plan's changes as a unified diff.
func (p *plan) diff(changes []fileChange) string {
	var b strings.Builder
	for _, c := range changes {
		oldName, newName := c.fs.path, c.fs.path
		if !c.had {
			oldName = "/dev/null"
		}
		if !c.will {
			newName = "/dev/null"
		}
		if c.fs.kind == "link" {
			fmt.Fprintf(&b, "link %s -> %s\n", c.fs.path, c.new)
			continue
		}
		var oldText, newText string
		if c.had {
			oldText = string(c.old)
		}
		if c.will {
			newText = string(c.new)
		}
		b.WriteString(agentcfg.Diff(oldName, newName, oldText, newText))
	}
	return b.String()
}

// recordPath is where the record of agent's install in scope lives.
func recordPath(paths grants.Paths, agent string, global bool, root string) string {
	name := agent + "-global.json"
	if !global {
		name = agent + "-project-" + grants.RootHash(root) + ".json"
	}
	return filepath.Join(paths.DataDir, "agents", name)
}

func loadRecord(path string) (*installRecord, error) {
	data, _, ok, err := readRegular(path)
	if err != nil || !ok {
		return nil, err
	}
	var rec installRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &rec, nil
}

// missingDirs lists the directories above path that do not exist,
// outermost first.
func missingDirs(path string) []string {
	var out []string
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// apply writes the changes: a backup of each file first, then the file,
// atomically. It returns one line per file for the user.
func (p *plan) apply(changes []fileChange) ([]string, error) {
	backupDir := p.backupDir
	var lines []string
	for _, c := range changes {
		fs := c.fs
		line := ""
		if c.had && fs.kind != "link" {
			bak := backupPath(backupDir, fs.path)
			if err := os.MkdirAll(backupDir, 0o700); err != nil {
				return lines, fmt.Errorf("back up %s: %w", fs.path, err)
			}
			if err := writeFileAtomic(bak, c.old, 0o600); err != nil {
				return lines, fmt.Errorf("back up %s: %w", fs.path, err)
			}
			line = " (backup: " + bak + ")"
		}
		if !c.will {
			if err := os.Remove(fs.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return lines, err
			}
			for i := len(fs.rec.Dirs) - 1; i >= 0; i-- {
				os.Remove(fs.rec.Dirs[i]) // only if empty
			}
			lines = append(lines, "removed "+fs.path+line)
			continue
		}
		if !c.had {
			perm := os.FileMode(0o755)
			if fs.kind == "link" {
				perm = 0o700 // guard's shim directory, private like the rest of guard's
			}
			if err := os.MkdirAll(filepath.Dir(fs.path), perm); err != nil {
				return lines, err
			}
		}
		if fs.kind == "link" {
			if err := os.Symlink(string(c.new), fs.path); err != nil {
				return lines, err
			}
			lines = append(lines, "linked "+fs.path+" -> "+string(c.new))
			continue
		}
		perm := fs.mode
		if !c.had {
			perm = 0o644
			if fs.kind == "json" || fs.kind == "toml" {
				perm = 0o600 // settings files come to hold API keys
			}
		}
		if err := writeFileAtomic(fs.path, c.new, perm); err != nil {
			return lines, err
		}
		verb := "changed "
		if !c.had {
			verb = "created "
		}
		lines = append(lines, verb+fs.path+line)
	}
	return lines, nil
}

// writeFileAtomic replaces file with data: temp file, fsync, rename. A
// symbolic link at file is followed, so a dotfiles manager's link stays.
func writeFileAtomic(file string, data []byte, perm os.FileMode) error {
	if t, err := filepath.EvalSymlinks(file); err == nil {
		file = t // write where a linked settings file points, keeping the link
	}
	return grants.WriteAtomic(file, data, perm)
}

func saveRecord(path string, rec *installRecord) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save install record: %w", err)
	}
	return writeFileAtomic(path, append(data, '\n'), 0o600)
}

// sameRecord compares two records by their JSON.
func sameRecord(a, b *installRecord) bool {
	if a == nil || b == nil {
		return a == b
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}
