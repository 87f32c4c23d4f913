package shim

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A session's shell keeps state that changes what a later line's command
// word runs: PATH, and the hash table that remembers where each name was
// found (hash -p and BASH_CMDS[NAME]=PATH write it directly). Each report
// carries both; a name whose program is no longer the one PATH found when
// the session started is "shadowed", and classify judges it as the program
// it now runs, and asks (classify.Options.Shadow).

// shellBuiltins are bash's builtins that also exist as programs: bash runs
// the builtin whatever PATH or the hash table say.
var shellBuiltins = map[string]bool{
	"echo": true, "printf": true, "test": true, "[": true, "pwd": true, "kill": true, "true": true,
	"false": true, "type": true, "command": true, "cd": true, "read": true, "umask": true, "ulimit": true,
	"hash": true, "alias": true, "wait": true, "getopts": true, "jobs": true, "fg": true, "bg": true,
}

// hashEntries takes `hash -l` output apart (builtin hash -p PATH NAME
// lines, PATH quoted when it needs to be).
func hashEntries(dump string) (map[string]string, error) {
	if strings.TrimSpace(dump) == "" || strings.HasPrefix(strings.TrimSpace(dump), "hash: ") {
		return nil, nil
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(dump), "")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, st := range f.Stmts {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) != 5 || call.Args[0].Lit() != "builtin" || call.Args[1].Lit() != "hash" || call.Args[2].Lit() != "-p" {
			return nil, errors.New("unexpected text in the hash table")
		}
		p, ok1 := plainWord(call.Args[3])
		name, ok2 := plainWord(call.Args[4])
		if !ok1 || !ok2 {
			return nil, errors.New("unexpected quoting in the hash table")
		}
		out[name] = p
	}
	return out, nil
}

// plainWord is a word made of literal and single-quoted parts, as bash
// prints them.
func plainWord(w *syntax.Word) (string, bool) {
	var sb strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			v := x.Value
			for i := 0; i < len(v); i++ {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				sb.WriteByte(v[i])
			}
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			sb.WriteString(x.Value)
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// pathDirs reads a PATH: each directory once, absolute (a relative entry,
// or an empty one, is the shell's directory), with the names in it.
type pathDirs struct {
	dirs  []string
	names []map[string]bool
}

func readPath(list, cwd string) pathDirs {
	var pd pathDirs
	if list == "" {
		// PATH unset or empty: bash looks a name up in the shell's
		// directory (unset PATH; ls runs ./ls)
		list = "."
	}
	for _, d := range filepath.SplitList(list) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(cwd, d)
		}
		names := map[string]bool{}
		if ents, err := os.ReadDir(d); err == nil {
			for _, e := range ents {
				if !e.IsDir() {
					names[e.Name()] = true
				}
			}
		}
		pd.dirs = append(pd.dirs, d)
		pd.names = append(pd.names, names)
	}
	return pd
}

// find returns the program PATH runs for name: the first executable
// regular file of that name, "" when there is none.
func (pd pathDirs) find(name string) string {
	for i, d := range pd.dirs {
		if !pd.names[i][name] {
			continue
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// shadowed returns the names that now run another program than base (the
// PATH the session started with) found for them: the hash table's entries
// that differ, and when PATH changed, every name in its directories whose
// first match moved. A name base did not find is new, not shadowed: it is
// judged by its name like any program guard does not know.
func shadowed(base, cur, cwd string, hashed map[string]string) map[string]string {
	out := map[string]string{}
	var bp pathDirs
	bpRead := false
	baseFind := func(name string) string {
		if !bpRead {
			bp, bpRead = readPath(base, cwd), true
		}
		return bp.find(name)
	}
	if cur != base {
		cp := readPath(cur, cwd)
		seen := map[string]bool{}
		for _, names := range cp.names {
			for name := range names {
				if seen[name] || shellBuiltins[name] {
					continue
				}
				seen[name] = true
				if now, was := cp.find(name), baseFind(name); now != "" && was != "" && now != was {
					out[name] = now
				}
			}
		}
	}
	for name, p := range hashed {
		if shellBuiltins[name] || strings.Contains(name, "/") {
			continue
		}
		if was := baseFind(name); p != was && (was != "" || filepath.Base(p) != name) {
			out[name] = p
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
