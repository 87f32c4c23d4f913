package classify

import (
	"path"
	"strings"
)

// A link the text makes: ln -s ~ h, then cp x h/.config/guard/config.toml
// writes guard's config through it. Paths are absolute and clean.
type madeLink struct{ name, target string }

// noteLink records the links an ln command makes, the way cd is tracked:
// ln [-s] TARGET [NAME], ln TARGET… DIR and ln -t DIR TARGET…. A symbolic
// link's relative target is relative to the link's directory (to the
// working directory with -r). NAME may be a directory that exists, in
// which the link is NAME/basename(TARGET): both are recorded. Dynamic
// words record nothing: the words through them are dynamic too.
func (w *walker) noteLink(fs []field) {
	var ops []string
	sym, rel, dir := false, false, ""
	for i := 1; i < len(fs); i++ {
		f := fs[i]
		if f.dyn {
			return
		}
		v := f.val
		switch {
		case v == "--":
			for _, g := range fs[i+1:] {
				if g.dyn {
					return
				}
				ops = append(ops, g.val)
			}
			i = len(fs)
		case v == "--symbolic":
			sym = true
		case v == "--relative":
			rel = true
		case v == "-t" || v == "--target-directory" || v == "-S" || v == "--suffix":
			if i+1 >= len(fs) || fs[i+1].dyn {
				return
			}
			if v == "-t" || v == "--target-directory" {
				dir = fs[i+1].val
			}
			i++
		case strings.HasPrefix(v, "--target-directory="):
			dir = strings.TrimPrefix(v, "--target-directory=")
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if k := strings.IndexAny(v, "tS"); k >= 0 {
				if k+1 < len(v) {
					if v[k] == 't' {
						dir = v[k+1:]
					}
				} else if i+1 < len(fs) && !fs[i+1].dyn {
					if v[k] == 't' {
						dir = fs[i+1].val
					}
					i++
				} else {
					return
				}
				v = v[:k]
			}
			sym = sym || strings.Contains(v, "s")
			rel = rel || strings.Contains(v, "r")
		default:
			ops = append(ops, v)
		}
	}
	var pairs [][2]string // target, name as written
	switch {
	case dir != "":
		for _, t := range ops {
			pairs = append(pairs, [2]string{t, path.Join(dir, path.Base(t))})
		}
	case len(ops) == 1:
		pairs = append(pairs, [2]string{ops[0], path.Base(ops[0])})
	case len(ops) == 2:
		pairs = append(pairs, [2]string{ops[0], ops[1]})
		if b := path.Base(ops[0]); b != "." && b != ".." && b != "/" {
			pairs = append(pairs, [2]string{ops[0], path.Join(ops[1], b)})
		}
	case len(ops) > 2:
		for _, t := range ops[:len(ops)-1] {
			pairs = append(pairs, [2]string{t, path.Join(ops[len(ops)-1], path.Base(t))})
		}
	}
	// the name's last component is made in its directory, which may be
	// reached through an earlier link; the target is read through them
	made := w.links
	for _, pr := range pairs {
		w.links = nil
		names, _ := w.resolve(field{val: pr[1], pat: pr[1]}, w.dirs)
		w.links = made
		for _, n := range names {
			if !path.IsAbs(n) || n == "/" {
				continue
			}
			for _, d := range w.throughLinks([]string{path.Dir(n)}) {
				n := path.Join(d, path.Base(n))
				t := pr[0]
				if sym && !rel && !path.IsAbs(t) && !strings.HasPrefix(t, "~") {
					t = path.Join(d, t)
				}
				ts, _ := w.resolve(field{val: t, pat: t}, w.dirs)
				for _, t := range ts {
					if path.IsAbs(t) && t != n && len(made) < 64 {
						made = append(made, madeLink{name: n, target: t})
					}
				}
			}
		}
	}
	w.links = made
}

// throughLinks adds to ps the paths they reach through the links the text
// made (h/.config/guard/x through ln -s ~ h is ~/.config/guard/x),
// following a link to a link a few times.
func (w *walker) throughLinks(ps []string) []string {
	if len(w.links) == 0 {
		return ps
	}
	for k := 0; k < len(ps) && len(ps) < 32; k++ {
		for _, l := range w.links {
			if p := ps[k]; within(p, l.name) {
				q := l.target + p[len(l.name):]
				if !containsStr(ps, q) {
					ps = append(ps, q)
				}
			}
		}
	}
	return ps
}

func containsStr(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
