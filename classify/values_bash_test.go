package classify

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// valueRows are texts whose last command prints the words bash computed
// (printf '[%s]' …, or echo), for values guard claims to know: case attributes,
// arithmetic subscripts, mapfile, ${x-w} and ${x+w} of set, empty and
// unset names. They only assign and print.
var valueRows = []string{
	`declare -l x=/ETC; printf '[%s]' $x`,
	`declare -l x; x=/USR; printf '[%s]' $x`,
	`f() { local -l x=/Etc; printf '[%s]' $x; }; f`,
	`declare -u x=/etc; printf '[%s]' $x`,
	`a=(/ x); printf '[%s]' ${a[1-1]}`,
	`declare -i n=2-2; a=(/ x); printf '[%s]' ${a[n]}`,
	`n=1; a=(x /etc); printf '[%s]' "${a[$n]}"`,
	`a=(x /); printf '[%s]' ${a[-1]}`,
	`a=(x /); printf '[%s]' "${a[5]}"`,
	`a=([0]=/ [1]=x); printf '[%s]' "${a[@]}"`,
	`mapfile -t a <<< /; printf '[%s]' ${a[0]}`,
	`readarray -t <<< /etc; printf '[%s]' "${MAPFILE[0]}"`,
	"mapfile -t a <<EOF\nx\n/\nEOF\nprintf '[%s]' ${a[1]}",
	"read d <<EOF\n/\nEOF\nprintf '[%s]' $d",
	`x=; printf '[%s]' /etc${x-/usr}`,
	`x=/; printf '[%s]' ${x+/}`,
	`x=/etc; printf '[%s]' ${x:+/}`,
	`x=; printf '[%s]' /etc${x:+/x}`,
	`unset x; printf '[%s]' ${x-/}`,
	`unset x; printf '[%s]' /etc${x+/x}`,
	`echo [${UNSET-/}] "[${UNSET:+/x}/]"`, // (printf with unknown words may set any name: echo)
	`x=/; printf '[%s]' "${x@P}"`,
	`x=/etc; printf '[%s]' ${x@E}`,
	`printf -v x %c /tmp; printf '[%s]' "$x"`,
	`printf -v x '%.1s' /etc; printf '[%s]' "$x"`,
	`printf -v x '%5s|%-3s|%d|%i' / a 7 -2; printf '[%s]' "$x"`,
	`printf -v x '%s-' a b; printf '[%s]' "$x"`,
	`printf -v x '%s%s' / etc; printf '[%s]' "$x"`,
	`x=$(printf %c /tmp); echo "[$x]"`,
	`printf '[%s]' "$(cd / && pwd)"`,
	`printf '[%s]' "$(cd /usr/.. && pwd -P)"`,
	`printf '[%s]' "$(cd /; pwd)"`,
	`printf '[%s]' "$(cd /etc/.. && pwd -L)"`,
	`declare -A a=([k]=/ [j]=x); printf '[%s]' "${a[k]}" "${a[j]}" "${a[z]}"`,
	`declare -A a; a[k]=/e; a[k]+=tc; printf '[%s]' "${a[k]}"`,
	`declare -A a=(['k']=/); printf '[%s]' ${a['k']} "${a[@]}"`,
}

// TestValuesAgainstBash: what guard computes for valueRows is what bash
// prints (skipped under -short and without bash).
func TestValuesAgainstBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	opt := tcOpt()
	opt.EnvNames = map[string]bool{"HOME": true, "PATH": true}
	for _, in := range valueRows {
		a := Analyze(in, opt)
		var last *Command
		for i := range a.Commands {
			if n := a.Commands[i].Name; n == "printf" || n == "echo" {
				last = &a.Commands[i]
			}
		}
		if last == nil {
			t.Errorf("%q: no printf found", in)
			continue
		}
		var want strings.Builder
		first := 2 // printf '[%s]' WORD…
		if last.Name == "echo" {
			first = 1
			want.WriteString(strings.Join(last.Args[1:], " ") + "\n")
		}
		for i, w := range last.Args[first:] {
			if last.Dynamic[i+first] {
				t.Errorf("%q: word %d is unknown to guard", in, i+first)
			}
			if last.Name == "printf" {
				want.WriteString("[" + w + "]")
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", in)
		cmd.Env = []string{"HOME=/home/u", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Errorf("%q: bash: %v", in, err)
			continue
		}
		if string(out) != want.String() {
			t.Errorf("%q: bash prints %q, guard computed %q", in, out, want.String())
		}
	}
}
