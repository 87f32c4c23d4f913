package grants

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Confinement modes and network settings ([confine] mode, network).
const (
	ConfineAuto = "auto" // confine what guard runs wherever the kernel can
	ConfineOff  = "off"  // never confine (the user confines some other way)

	NetOpen  = "open"  // the network as it is
	NetHosts = "hosts" // only through guard's proxy, to the hosts the network tier allows
	NetNone  = "none"  // no network at all
)

// Confine is the [confine] table after every layer had its say. The
// kernel-side work is shim's: this says only what is asked for.
type Confine struct {
	Mode     string // ConfineAuto or ConfineOff
	Required bool   // refuse to run when the kernel cannot confine
	Network  string // NetOpen, NetHosts or NetNone
	// Write are extra trees a confined command may write, from [confine]
	// write = [...] of the user's own layers (absolute, ~ expanded).
	Write []string
}

// DefaultConfine is the built-in [confine]: filesystem confinement where
// the kernel has it, the network as it is (see docs/confinement.md for why
// "open" is still the default).
func DefaultConfine() Confine {
	return Confine{Mode: ConfineAuto, Network: NetOpen}
}

// netRank orders network settings from the most open to the strictest.
func netRank(n string) int {
	switch n {
	case NetNone:
		return 2
	case NetHosts:
		return 1
	}
	return 0
}

// confineConfig is one file's [confine] table.
type confineConfig struct {
	set      map[string]bool
	mode     string
	required bool
	network  string
	write    []string
}

// isConfineKey reports whether k is the [confine] table or a key in it.
func isConfineKey(k []string) bool { return k[0] == "confine" }

var confineKeys = []string{"mode", "required", "network", "write"}

// parse reads one key of [confine].
func (cc *confineConfig) parse(k []string, raw map[string]any, text, file string) error {
	errAt := func(name string, format string, args ...any) error {
		line, col := locateKey(text, name)
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	t, ok := raw["confine"].(map[string]any)
	if !ok {
		return errAt("confine", "confine must be a table: [confine]")
	}
	if len(k) == 1 {
		return nil
	}
	key := k[1]
	if len(k) > 2 || !slices.Contains(confineKeys, key) {
		return errAt(k[len(k)-1], "unknown key %q in [confine] (mode, required, network, write)", strings.Join(k, "."))
	}
	if cc.set == nil {
		cc.set = map[string]bool{}
	}
	cc.set[key] = true
	switch key {
	case "mode":
		s, _ := t[key].(string)
		if s != ConfineAuto && s != ConfineOff {
			return errAt(key, `confine.mode must be "auto" or "off"`)
		}
		cc.mode = s
	case "required":
		b, ok := t[key].(bool)
		if !ok {
			return errAt(key, "confine.required must be true or false")
		}
		cc.required = b
	case "network":
		s, _ := t[key].(string)
		if err := checkNetwork(s); err != nil {
			return errAt(key, "confine.%v", err)
		}
		cc.network = s
	case "write":
		list, ok := t[key].([]any)
		if !ok {
			return errAt(key, "confine.write must be an array of absolute paths")
		}
		for n, e := range list {
			p, ok := e.(string)
			if !ok || !(filepath.IsAbs(p) || p == "~" || strings.HasPrefix(p, "~/")) {
				return errAt(key, "confine.write entry %d must be an absolute path (or ~/…)", n+1)
			}
			if filepath.Clean(p) == "/" || p == "~" || p == "~/" {
				return errAt(key, "confine.write entry %d would make every file writable: name a tree", n+1)
			}
			cc.write = append(cc.write, p)
		}
	}
	return nil
}

// checkNetwork checks a network setting's value.
func checkNetwork(s string) error {
	switch s {
	case NetOpen, NetHosts, NetNone:
		return nil
	}
	return fmt.Errorf(`network must be "open", "hosts" or "none"`)
}

// mergeConfine applies one layer's [confine]. Any layer may make it
// stricter (a tighter network, required = true); only the user's own
// config and the managed policy may loosen it (mode = "off", a more open
// network, required = false, extra writable trees), and what the managed
// policy sets binds them.
func (s *Settings) mergeConfine(cc *confineConfig, layer string, trusted bool, bound map[string]bool, home string) {
	own := trusted && (layer == LayerManaged || layer == LayerGlobal)
	c := &s.Confine
	for key := range cc.set {
		loosen := own && !bound["confine."+key]
		switch key {
		case "mode":
			if loosen || cc.mode == ConfineAuto {
				c.Mode = cc.mode
			}
		case "required":
			if loosen || cc.required {
				c.Required = cc.required
			}
		case "network":
			if loosen || netRank(cc.network) > netRank(c.Network) {
				c.Network = cc.network
			}
		case "write":
			if own {
				for _, p := range cc.write {
					c.Write = append(c.Write, expandHome(p, home))
				}
			}
		}
		if layer == LayerManaged {
			bound["confine."+key] = true
		}
	}
}

// expandHome turns ~ and ~/x into paths under home.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return filepath.Clean(p)
}

// ConfineFor is the confinement a verdict runs under: the settings', with
// the network of the [[rule]] that allowed it when that rule names one
// (never more open than the managed policy's).
func (s *Settings) ConfineFor(v Verdict) Confine {
	c := s.Confine
	if v.Network != "" && (netRank(v.Network) > netRank(c.Network) || !s.Policy.bound["confine.network"]) {
		c.Network = v.Network
	}
	return c
}

// String is the confinement as check, explain and the audit show it:
// "fs=project net=hosts", or "off".
func (c Confine) String() string {
	if c.Mode == ConfineOff {
		return "off"
	}
	n := c.Network
	if n == "" {
		n = NetOpen
	}
	return "fs=project net=" + n
}
