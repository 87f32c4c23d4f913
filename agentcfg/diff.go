package agentcfg

import (
	"fmt"
	"strings"
)

// maxDiffLines bounds the quadratic diff below; settings files are far
// smaller. Past it, Diff shows the whole old and new text.
const maxDiffLines = 4000

// Diff returns a unified diff (3 lines of context) from old to new, with
// the given file names, or "" when they are equal.
func Diff(oldName, newName, old, new string) string {
	if old == new {
		return ""
	}
	a, b := splitKeep(old), splitKeep(new)
	var b2 strings.Builder
	fmt.Fprintf(&b2, "--- %s\n+++ %s\n", oldName, newName)
	ops := diffOps(a, b)
	const ctx = 3
	// group ops into hunks
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		aStart, bStart, aLen, bLen := ops[start].a, ops[start].b, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&b2, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, o := range ops[start:end] {
			b2.WriteByte(o.kind)
			b2.WriteString(o.text)
			if !strings.HasSuffix(o.text, "\n") {
				b2.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return b2.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

type diffOp struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int // line index in old and new before this op
}

func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	return strings.SplitAfter(s, "\n")[:strings.Count(s, "\n")+boolInt(!strings.HasSuffix(s, "\n"))]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// diffOps aligns a and b by their longest common subsequence.
func diffOps(a, b []string) []diffOp {
	var ops []diffOp
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		for i, l := range a {
			ops = append(ops, diffOp{'-', l, i, 0})
		}
		for j, l := range b {
			ops = append(ops, diffOp{'+', l, len(a), j})
		}
		return ops
	}
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i], i, j})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{'-', a[i], i, j})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j], i, j})
			j++
		}
	}
	return ops
}
