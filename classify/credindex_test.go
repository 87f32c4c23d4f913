package classify

import (
	"strings"
	"testing"
)

// TestCredentialKeys: every entry of the credential table is filed in
// credentialsByKey under a literal component of its own. An entry filed
// under "" would never be tried for a path without glob characters.
func TestCredentialKeys(t *testing.T) {
	idx := credentialsByKey()
	if len(idx[""]) > 0 {
		for _, i := range idx[""] {
			t.Errorf("credential %q has no literal component to be found by", credentials[i].comps)
		}
	}
	n := 0
	for _, is := range idx {
		n += len(is)
	}
	if n != len(credentials) {
		t.Errorf("credentialsByKey files %d entries, the table has %d", n, len(credentials))
	}
}

// TestCredentialIndexSameAnswers: the indexed lookup answers as trying
// every entry does, over paths made from every entry of the table (in the
// home, under a project, relative, with excepted names) and near misses.
func TestCredentialIndexSameAnswers(t *testing.T) {
	const home = "/home/u"
	w := &walker{opt: Options{Home: home, Cwd: "/home/u/proj"}}
	full := func(p string) bool {
		abs := strings.HasPrefix(p, "/")
		comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
		for _, cr := range credentials {
			if w.matchCredential(cr, comps, abs) {
				return true
			}
		}
		return false
	}
	var paths []string
	for _, cr := range credentials {
		for _, fill := range []string{"x", "id_rsa", "a/b"} {
			var parts []string
			for _, c := range cr.comps {
				switch {
				case c == "~":
					parts = append(parts, strings.TrimPrefix(home, "/"))
				case c == "**":
					parts = append(parts, fill)
				default:
					c = strings.TrimPrefix(c, "/")
					c = strings.NewReplacer("*", fill, "?", "q", "[", "").Replace(c)
					parts = append(parts, c)
				}
			}
			rel := strings.Join(parts, "/")
			paths = append(paths, "/"+rel, home+"/"+rel, "/srv/app/"+rel, rel, "src/"+rel, rel+"/more", "/tmp/"+rel)
			for _, ex := range cr.except {
				paths = append(paths, home+"/"+strings.Join(parts[:len(parts)-1], "/")+"/"+strings.ReplaceAll(ex, "*", "z"))
			}
		}
	}
	paths = append(paths, "/", "/etc", "/etc/passwd", "/tmp/x/y", "README.md", "/home/u/proj/main.go", "etc/etc/shadow")
	hits := 0
	for _, p := range paths {
		if full(p) {
			hits++
		}
		if got, want := w.isCredentialLiteral(p, strings.HasPrefix(p, "/")), full(p); got != want {
			t.Errorf("isCredentialLiteral(%q) = %v, trying every entry gives %v", p, got, want)
		}
	}
	if hits < len(credentials) || hits == len(paths) {
		t.Errorf("%d of %d paths are credentials: the test paths do not exercise both answers", hits, len(paths))
	}
	t.Logf("%d of %d paths are credentials", hits, len(paths))
}
