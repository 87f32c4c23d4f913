package grants

import (
	"path"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// This file builds Analysis values by hand, so the grants tests do not
// depend on classify. an() reads a tiny shell subset: words split on
// spaces, '…' groups words into one, separators | && || ; as their own
// words, $words are dynamic, and a few wrappers are recognised the way
// classify reports them (timeout, nice, env, xargs, find -exec, bash -c, eval).

func tokens(s string) []string {
	var out []string
	var cur strings.Builder
	in, have := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			in = !in
			have = true
		case c == ' ' && !in:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

var seps = map[string]string{"|": classify.CompPipe, "&&": classify.CompAnd, "||": classify.CompOr, ";": classify.CompSeq}

// an builds the Analysis of text.
func an(text string) *classify.Analysis {
	a := &classify.Analysis{Text: text}
	comp := addScript(a, text, -1, 0)
	a.Composite = comp
	return a
}

// addScript appends the commands of text (parent p) and returns the indexes
// of its own commands' composite reasons.
func addScript(a *classify.Analysis, text string, parent, depth int) []string {
	var comp []string
	var words []string
	flush := func() {
		if len(words) > 0 {
			addCommand(a, words, parent, depth)
			words = nil
		}
	}
	for _, t := range tokens(text) {
		if r, ok := seps[t]; ok {
			flush()
			if !contains(comp, r) {
				comp = append(comp, r)
			}
			continue
		}
		if t == "2>/dev/null" || t == "2>&1" {
			if !contains(comp, classify.CompNullRedir) {
				comp = append(comp, classify.CompNullRedir)
			}
			continue
		}
		if strings.HasPrefix(t, ">") {
			if !contains(comp, classify.CompRedirect) {
				comp = append(comp, classify.CompRedirect)
			}
			continue
		}
		words = append(words, t)
	}
	flush()
	return comp
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func mkCommand(words []string, parent, depth int) classify.Command {
	c := classify.Command{Args: words, Dynamic: make([]bool, len(words)), Name: path.Base(words[0]), Parent: parent,
		Depth: depth, Pos: "1:1", Where: "top level"}
	for i, w := range words {
		c.Dynamic[i] = strings.HasPrefix(w, "$")
	}
	return c
}

// addCommand appends one simple command and, for wrappers, what it runs.
func addCommand(a *classify.Analysis, words []string, parent, depth int) int {
	i := len(a.Commands)
	a.Commands = append(a.Commands, mkCommand(words, parent, depth))
	c := &a.Commands[i]
	start := -1
	wrap := classify.WrapNone
	switch c.Name {
	case "timeout":
		start, wrap = 2, classify.WrapTransparent
	case "nice", "nohup", "time", "command", "exec", "setsid":
		start, wrap = 1, classify.WrapTransparent
		if c.Name == "nice" && len(words) > 2 && words[1] == "-n" {
			start = 3
		}
	case "env":
		k := 1
		for k < len(words) && (strings.HasPrefix(words[k], "-") || strings.Contains(words[k], "=")) {
			k++
		}
		start, wrap = k, classify.WrapTransparent
	case "xargs":
		k := 1
		for k < len(words) && strings.HasPrefix(words[k], "-") {
			k++
		}
		start, wrap = k, classify.WrapGenerated
	case "find":
		for k, w := range words {
			if w == "-exec" || w == "-execdir" || w == "-ok" {
				start, wrap = k+1, classify.WrapGenerated
				break
			}
		}
	case "bash", "sh", "zsh":
		if len(words) > 2 && words[1] == "-c" {
			c.Wrap = classify.WrapShell
			sub := len(a.Commands)
			comp := addScript(a, words[2], i, depth+1)
			c = &a.Commands[i]
			c.InnerComposite = comp
			for k := sub; k < len(a.Commands); k++ {
				if a.Commands[k].Parent == i {
					c.Inner = append(c.Inner, k)
				}
			}
		}
		return i
	case "eval":
		c.Wrap = classify.WrapShell
		sub := len(a.Commands)
		comp := addScript(a, strings.Join(words[1:], " "), i, depth+1)
		c = &a.Commands[i]
		c.InnerComposite = comp
		for k := sub; k < len(a.Commands); k++ {
			if a.Commands[k].Parent == i {
				c.Inner = append(c.Inner, k)
			}
		}
		return i
	case "python", "python3", "node", "perl", "ruby":
		if len(words) > 2 && (words[1] == "-c" || words[1] == "-e") {
			c.Opaque = true
		}
	}
	if wrap != classify.WrapNone && start > 0 && start < len(words) {
		c.Wrap, c.InnerStart = wrap, start
		end := len(words)
		if c.Name == "find" {
			for k := start; k < len(words); k++ {
				if words[k] == ";" || words[k] == "+" {
					end = k
					break
				}
			}
		}
		if end > start {
			k := addCommand(a, words[start:end], i, depth+1)
			a.Commands[i].Inner = []int{k}
		}
	}
	return i
}

// settings builds Settings from compact rules "LAYER KIND PATTERN"; layer
// "project+" is a trusted project config.
func settings(rules ...string) *Settings {
	s := Defaults()
	for n, r := range rules {
		layer, rest, _ := strings.Cut(r, " ")
		kind, pat, _ := strings.Cut(rest, " ")
		trusted := true
		if layer == "project" {
			trusted = false
		}
		layer = strings.TrimSuffix(layer, "+")
		if tier, values, ok := ParseTierGrant(pat); ok {
			for _, v := range values {
				s.Tiers = append(s.Tiers, Rule{Kind: Decision(kind), Pattern: v, Tier: tier, Layer: layer, File: "/cfg/" + layer + ".toml", Line: n + 1, Trusted: trusted})
			}
			continue
		}
		s.Rules = append(s.Rules, Rule{Kind: Decision(kind), Pattern: pat, Layer: layer, File: "/cfg/" + layer + ".toml", Line: n + 1, Trusted: trusted})
	}
	return s
}
