package main

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/guard-dev/guard/agentcfg"
)

// When guard's install record is gone (install.sh --uninstall --purge
// removes guard's data directory, or the file was deleted), uninstall
// still removes what is recognisably guard's: a hook group whose every
// hook runs `… guard hook AGENT`, a shell setting that names guard's bash
// link, guard's plugin file, and guard's instruction section. scanRecord
// builds the record of those, for undo to remove them as usual.

// hookSpot is where an agent keeps its hook groups.
type hookSpot struct {
	file string
	path []string
}

// scanRecord finds guard's traces in the agent's files for p's scope.
func scanRecord(p *plan) *installRecord {
	rec := &installRecord{Agent: p.agent.name, Scope: p.scope()}
	files := doctorFiles(p)
	var hooks []hookSpot
	var shells []hookSpot
	var plugins []string
	switch p.agent.name {
	case "claude":
		for _, f := range files {
			hooks = append(hooks, hookSpot{f, []string{"hooks", "PreToolUse"}})
			shells = append(shells, hookSpot{f, []string{"env", "CLAUDE_CODE_SHELL"}})
		}
	case "codex":
		hooks = append(hooks, hookSpot{files[0], []string{"hooks", "PreToolUse"}})
	case "gemini":
		hooks = append(hooks, hookSpot{files[0], []string{"hooks", "BeforeTool"}})
	case "opencode":
		plugins = append(plugins, files[1])
	case "pi":
		shells = append(shells, hookSpot{files[0], []string{"shellPath"}})
		plugins = append(plugins, files[1])
	}
	byFile := map[string]*fileRecord{}
	get := func(path, kind string) *fileRecord {
		if r, ok := byFile[path]; ok {
			return r
		}
		r := &fileRecord{Path: path, Kind: kind}
		byFile[path] = r
		return r
	}
	var order []string
	note := func(path string) {
		for _, o := range order {
			if o == path {
				return
			}
		}
		order = append(order, path)
	}
	for _, h := range hooks {
		doc := scanDoc(h.file)
		if doc == nil {
			continue
		}
		groups, _ := doc.Get(h.path...)
		for _, g := range elems(groups) {
			if guardGroup(g, p.agent.name) {
				r := get(h.file, "json")
				r.JSON = append(r.JSON, agentcfg.Change{Op: "append", Path: h.path, Value: json.RawMessage(agentcfg.Canonical(g))})
				note(h.file)
			}
		}
	}
	for _, s := range shells {
		doc := scanDoc(s.file)
		if doc == nil {
			continue
		}
		if v, ok := doc.Get(s.path...); ok {
			if str, _ := v.(string); strings.HasSuffix(str, filepath.Join("guard", "shims", "bash")) {
				r := get(s.file, "json")
				r.JSON = append(r.JSON, agentcfg.Change{Op: "set", Path: s.path, Value: json.RawMessage(agentcfg.Canonical(str))})
				note(s.file)
			}
		}
	}
	for _, f := range plugins {
		data, _, ok, err := readRegular(f)
		if err == nil && ok && strings.HasPrefix(string(data), "// guard for ") {
			r := get(f, "whole")
			r.Sum = sum(string(data))
			note(f)
		}
	}
	if f := p.agent.instructions(p); f != "" {
		if data, _, ok, err := readRegular(f); err == nil && ok && agentcfg.HasBlock(string(data)) {
			r := get(f, "text")
			r.Block = true
			note(f)
		}
	}
	for _, path := range order {
		rec.Files = append(rec.Files, *byFile[path])
	}
	if len(rec.Files) == 0 {
		return nil
	}
	return rec
}

func scanDoc(path string) *agentcfg.Doc {
	data, _, ok, err := readRegular(path)
	if err != nil || !ok {
		return nil
	}
	doc, err := agentcfg.ParseJSON(data)
	if err != nil {
		return nil
	}
	return doc
}

// guardGroup reports whether every hook of a matcher group runs guard's
// hook for agent.
func guardGroup(g any, agent string) bool {
	o, ok := g.(*agentcfg.Object)
	if !ok {
		return false
	}
	hooks, _ := o.Get("hooks")
	list := elems(hooks)
	if len(list) == 0 {
		return false
	}
	for _, h := range list {
		ho, ok := h.(*agentcfg.Object)
		if !ok {
			return false
		}
		c, _ := ho.Get("command")
		s, _ := c.(string)
		words := strings.Fields(s)
		if len(words) < 3 || words[len(words)-2] != "hook" || words[len(words)-1] != agent ||
			filepath.Base(strings.Trim(strings.Join(words[:len(words)-2], " "), "'\"")) != "guard" {
			return false
		}
	}
	return true
}
