package grants

import "strings"

// span is a byte range [lo, hi) of a command's joined text that belongs to a
// sensitive (exec-capable) word: a '*' in an allow pattern may not consume it.
type span struct{ lo, hi int }

// free reports whether t[lo:hi] holds no sensitive byte.
func free(sp []span, lo, hi int) bool {
	if lo >= hi {
		return true
	}
	for _, s := range sp {
		if s.lo < hi && lo < s.hi {
			return false
		}
	}
	return true
}

// nextSensitive returns the first sensitive byte index at or after pos, or n.
func nextSensitive(sp []span, pos, n int) int {
	best := n
	for _, s := range sp {
		if s.hi > pos {
			lo := max(s.lo, pos)
			if lo < best {
				best = lo
			}
		}
	}
	return best
}

// matchPattern reports whether pattern p covers the command text t (words
// joined by single spaces). '*' matches any run of bytes, spaces included,
// but never a byte inside sp; a trailing " *" also matches nothing, so
// "git *" covers "git" and "git log" but not "gitk". Literal pattern text may
// match sensitive bytes. With sp nil this is the plain matcher deny and ask
// rules use.
func matchPattern(p, t string, sp []span) bool {
	if globMatch(p, t, sp) {
		return true
	}
	if strings.HasSuffix(p, " *") {
		return globMatch(p[:len(p)-2], t, sp)
	}
	return false
}

func globMatch(p, t string, sp []span) bool {
	i := strings.IndexByte(p, '*')
	if i < 0 {
		return p == t
	}
	j := strings.LastIndexByte(p, '*')
	pre, suf := p[:i], p[j+1:]
	if len(t) < len(pre)+len(suf) || !strings.HasPrefix(t, pre) || !strings.HasSuffix(t, suf) {
		return false
	}
	lo, hi := len(pre), len(t)-len(suf)
	if i == j {
		return free(sp, lo, hi)
	}
	return starMatch(p[i:j+1], t, lo, hi, sp)
}

// starMatch matches p, which begins and ends with '*', against t[lo:hi]. It
// tracks the set of positions reachable after each literal segment, so it
// runs in O(segments × len(t) × len(segment)) and never backtracks
// exponentially.
func starMatch(p, t string, lo, hi int, sp []span) bool {
	pos := []int{lo}
	rest := p[1:]
	for {
		k := strings.IndexByte(rest, '*')
		if k < 0 {
			break
		}
		seg := rest[:k]
		rest = rest[k+1:]
		if seg == "" {
			continue
		}
		var next []int
		scan := lo
		for _, r := range pos {
			end := min(nextSensitive(sp, r, hi), hi) // the star from r may end anywhere in [r, end]
			from := max(r, scan)
			for q := from; q <= end && q+len(seg) <= hi; {
				idx := strings.Index(t[q:hi], seg)
				if idx < 0 || q+idx > end {
					break
				}
				q += idx
				next = append(next, q+len(seg))
				q++
			}
			scan = max(scan, end+1)
		}
		if len(next) == 0 {
			return false
		}
		pos = next
	}
	for _, r := range pos {
		if free(sp, r, hi) {
			return true
		}
	}
	return false
}

// Covers reports whether an allow pattern matches a simple command's
// words (after quote removal) as the pattern syntax says, the command word
// as written. The grant preview uses it to find the past commands a new
// pattern would have allowed.
func Covers(pattern string, args []string) bool {
	return len(args) > 0 && matchPattern(pattern, strings.Join(args, " "), nil)
}
