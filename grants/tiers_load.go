package grants

// Loading and storing the tier tables: [permissions.read], [permissions.write],
// [permissions.http] and [permissions.packages], each with allow, ask and
// deny lists. See docs/tiers.md.

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// tierItem is one entry of a tier table in one file.
type tierItem struct {
	tier  string
	kind  Decision
	value string
	line  int
}

// tierNames are the tables, in the order a file is rendered.
var tierNames = [...]string{TierRead, TierWrite, TierHTTP, TierPackages}

func isTier(name string) bool {
	return slices.Contains(tierNames[:], name)
}

// parseTierKey reads one key under permissions.TIER: the table itself, or
// its allow, ask or deny list. errAt makes a "file:line:col: problem" error.
func (fc *fileConfig) parseTierKey(k []string, raw map[string]any, text, file string, errAt func(key, format string, args ...any) error) error {
	perm, _ := raw["permissions"].(map[string]any)
	table, ok := perm[k[1]].(map[string]any)
	last := k[len(k)-1]
	if !ok {
		return errAt(last, "permissions.%s must be a table", k[1])
	}
	if len(k) == 2 {
		return nil
	}
	if len(k) != 3 || (last != "allow" && last != "ask" && last != "deny") {
		return errAt(last, "unknown key %q", strings.Join(k, "."))
	}
	list, ok := table[last].([]any)
	if !ok {
		return errAt(last, "%s must be an array of strings", strings.Join(k, "."))
	}
	kind := Decision(last)
	keyLine, _ := locateKey(text, last)
	var at lineCursor // the entries come in the text's order
	for n, e := range list {
		v, ok := e.(string)
		if !ok {
			return errAt(last, "%s entry %d is not a string", strings.Join(k, "."), n+1)
		}
		line, col := locatePatternAt(text, v, keyLine, &at)
		keyLine = line // the list is in the text's order: the next entry is at or after this one
		norm, err := ValidateTierEntry(k[1], kind, v)
		if err != nil {
			if fc.lenient && kind == Allow {
				fc.ignored = append(fc.ignored, fmt.Sprintf("%s:%d:%d: %s allow entry %q ignored: %v", file, line, col, k[1], v, err))
				continue
			}
			return fmt.Errorf("%s:%d:%d: %s %s entry %q: %v", file, line, col, k[1], kind, v, err)
		}
		fc.tiers = append(fc.tiers, tierItem{tier: k[1], kind: kind, value: norm, line: line})
	}
	return nil
}

// ValidateTierEntry checks one entry of a tier table and returns it
// normalised: a path is cleaned (absolute, ~ or ~/…, or relative to the
// project root); a host is lowercased with any scheme, userinfo and port
// cut off (except a control API's port on this machine: localhost:6379,
// see classify.HostKey); a package is ecosystem:name@version (ecosystem:name only for
// deny and ask entries, and for brew, which has no versions).
func ValidateTierEntry(tier string, kind Decision, v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", errors.New("empty entry")
	}
	if strings.ContainsAny(v, "\t\n\r\x00") {
		return "", errors.New("entry holds a tab, newline or NUL")
	}
	if len(v) > 4096 {
		return "", errors.New("entry longer than 4096 bytes")
	}
	switch tier {
	case TierRead, TierWrite:
		if v == "~" || strings.HasPrefix(v, "~/") {
			return "~" + strings.TrimSuffix(filepath.Clean("/"+v[1:]), "/"), nil
		}
		if strings.HasPrefix(v, "~") {
			return "", errors.New("~user paths are not supported: write the absolute path")
		}
		if kind == Allow && filepath.Clean(v) == "/" {
			return "", errors.New("a grant of / covers every file")
		}
		return filepath.Clean(v), nil
	case TierHTTP:
		h := classify.HostKey(v)
		if h == "" || strings.ContainsAny(h, " */\\") {
			return "", errors.New("not a host name")
		}
		return h, nil
	case TierPackages:
		eco, rest, ok := strings.Cut(v, ":")
		if !ok || rest == "" {
			return "", errors.New("a package is ecosystem:name@version")
		}
		if !slices.Contains(classify.Ecosystems(), eco) {
			return "", fmt.Errorf("unknown ecosystem %q (%s)", eco, strings.Join(classify.Ecosystems(), ", "))
		}
		if strings.ContainsAny(rest, " *") {
			return "", errors.New("a package names one package at one version")
		}
		k := strings.LastIndexByte(rest, '@')
		if (k <= 0 || k == len(rest)-1) && kind == Allow && eco != "brew" {
			return "", errors.New("an approval names a version: ecosystem:name@version")
		}
		if eco == "pypi" {
			return strings.ToLower(v), nil
		}
		return v, nil
	}
	return "", fmt.Errorf("unknown tier %q", tier)
}

// addTiers adds one layer's tier entries to s. A relative path entry is
// relative to the project root.
func (s *Settings) addTiers(fc *fileConfig, layer, file string, trust bool) {
	for _, it := range fc.tiers {
		v := it.value
		if (it.tier == TierRead || it.tier == TierWrite) && !strings.HasPrefix(v, "~") && !filepath.IsAbs(v) && s.Root != "" {
			v = filepath.Join(s.Root, v)
		}
		s.Tiers = append(s.Tiers, Rule{Kind: it.kind, Pattern: v, Tier: it.tier, Layer: layer, File: file, Line: it.line,
			Trusted: layer != LayerProject || trust})
	}
}

// addTierEntry adds entries to fc (each once); removeTierEntry removes an
// entry from every list of its tier and reports whether it was there.
func (fc *fileConfig) addTierEntry(tier string, kind Decision, values []string) error {
	for _, v := range values {
		norm, err := ValidateTierEntry(tier, kind, v)
		if err != nil {
			return fmt.Errorf("%s %s entry %q: %w", tier, kind, v, err)
		}
		if !slices.ContainsFunc(fc.tiers, func(it tierItem) bool { return it.tier == tier && it.kind == kind && it.value == norm }) {
			fc.tiers = append(fc.tiers, tierItem{tier: tier, kind: kind, value: norm})
		}
	}
	return nil
}

func (fc *fileConfig) removeTierEntry(tier string, values []string) bool {
	n := len(fc.tiers)
	fc.tiers = slices.DeleteFunc(fc.tiers, func(it tierItem) bool {
		if it.tier != tier {
			return false
		}
		for _, v := range values {
			if norm, err := ValidateTierEntry(tier, Deny, v); err == nil && norm == it.value || it.value == v {
				return true
			}
		}
		return false
	})
	return len(fc.tiers) != n
}

// renderTiers writes fc's tier tables as TOML.
func (fc *fileConfig) renderTiers(b *strings.Builder) {
	for _, tier := range tierNames {
		wrote := false
		for _, k := range []Decision{Allow, Ask, Deny} {
			var list []string
			for _, it := range fc.tiers {
				if it.tier == tier && it.kind == k {
					list = append(list, it.value)
				}
			}
			if len(list) == 0 {
				continue
			}
			if !wrote {
				fmt.Fprintf(b, "\n[permissions.%s]\n", tier)
				wrote = true
			}
			fmt.Fprintf(b, "%s = [\n", k)
			for _, v := range list {
				fmt.Fprintf(b, "  %s,\n", tomlString(v))
			}
			b.WriteString("]\n")
		}
	}
}
