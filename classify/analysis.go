package classify

// Fail reasons: text that cannot be judged is denied with one of these ids.
const (
	FailParse    = "parse-error"
	FailTooLong  = "too-long"
	FailTooDeep  = "too-deep"
	MaxTextBytes = 128 << 10
	MaxDepth     = 16
)

// Wrap says how a command runs the commands listed in its Inner field.
type Wrap uint8

const (
	// WrapNone: the command runs nothing else that guard can see.
	WrapNone Wrap = iota
	// WrapTransparent: env, timeout, nice, nohup, time, command, builtin, exec,
	// stdbuf, ionice, setsid, flock, taskset, watch, busybox APPLET. Args[InnerStart:]
	// is the wrapped command, run with the same meaning as if typed alone.
	WrapTransparent
	// WrapShell: sh/bash/zsh/dash/ksh -c STR, eval STR, env -S STR, literal text piped
	// into a shell. Inner holds the top-level commands of the nested script;
	// InnerComposite its composite reasons.
	WrapShell
	// WrapGenerated: xargs, parallel, find -exec/-ok: the wrapped command gets
	// arguments guard cannot see. Args[InnerStart:] is its literal part.
	WrapGenerated
)

// Command is one simple command found anywhere in the text.
type Command struct {
	Args    []string // words after quote removal, ANSI-C decoding, literal expansion
	Dynamic []bool   // Dynamic[i]: Args[i] is not provably literal (holds the source text)
	Name    string   // basename of Args[0] ("" when Args is empty)
	Assigns []string // leading NAME=value words, as written after quote removal
	Pos     string   // "line:col" in the text it was parsed from
	Where   string   // where it sits, for explain: "top level", "pipeline part 2", "$(…)", "bash -c", …
	Depth   int      // nesting depth: 0 for the text's own commands
	Parent  int      // index in Analysis.Commands of the command that runs this one; -1 if none
	Subst   bool     // inside a command or process substitution (anywhere up the chain)
	Dir     string   // directory relative paths resolve against; "" when unknown
	// DirUnknown: an earlier cd went somewhere guard cannot know (cd "$X"),
	// so what a relative name here refers to is unknown.
	DirUnknown bool
	// Tainted: an argument holds a value this text computed at run time
	// (read, printf -v, a loop variable, ${x:=…}): the agent's text, not
	// the user's environment, decides what it names.
	Tainted bool

	Wrap           Wrap
	InnerStart     int      // for WrapTransparent/WrapGenerated: index in Args where the wrapped command starts
	Inner          []int    // indexes in Analysis.Commands of the commands this one runs directly
	InnerComposite []string // WrapShell: composite reasons of the nested script
	Opaque         bool     // interpreter one-liner (python -c, node -e, perl -e, ruby -e): text guard cannot judge
	// Func: a call of a shell function defined earlier (in the text, or in
	// Options.Funcs); Inner holds its body's commands, judged with the
	// call's arguments. When the text makes the body uncertain (defines
	// the name twice, after the call, in a branch, or runs a script guard
	// cannot read first), the call is Opaque.
	Func bool
	// Typed is Args typed by the command's spec (see ParseCommand), when
	// classify parsed them; nil otherwise. Use Command.Words.
	Typed *Parsed
}

// Words returns the command's arguments typed by its spec: the parse
// classify made, or a new one.
func (c *Command) Words() Parsed {
	if c.Typed != nil {
		return *c.Typed
	}
	return ParseCommand(c.Name, c.Args)
}

// Hit is one match of a built-in rule (hard denylist or built-in ask).
type Hit struct {
	ID     string // stable rule id, e.g. "rm-root"
	Reason string // one line an agent can act on
	Cmd    int    // index in Analysis.Commands, or -1 for a redirect target
}

// Analysis is everything guard knows about a command text before deciding.
type Analysis struct {
	Text       string
	Fail       string // "" or one of FailParse, FailTooLong, FailTooDeep
	FailReason string // the parser's message, with position

	Commands  []Command // every simple command, in source order, outer before inner
	Composite []string  // composite reasons of the text's own syntax, each named once, in order found
	Deny      []Hit     // hard-denylist hits; non-empty means deny, whatever the settings
	Ask       []Hit     // built-in destructive patterns that ask
	// Secrets are the literal values the argument model types as
	// passwords (mysql -pSECRET, sshpass -p SECRET) or that password
	// variables are set to (PGPASSWORD=…): every record redacts them.
	Secrets []string
	// Redirects are the text's redirects and heredocs that name a file or
	// feed a command (not 2>&1, >/dev/null and the like), in source order:
	// the path tiers judge their targets.
	Redirects []Redirect
	// Assigned names the variables the text sets with a bare assignment
	// (x=5, with no command) or as a for loop's variable, once each.
	Assigned []string
	// Declared: declare, local, export, readonly or typeset set something.
	Declared bool
}

// Redirect is one redirect or heredoc found anywhere in the text.
type Redirect struct {
	Cmd     int      // index in Commands of the command it applies to; -1 when none
	Op      string   // ">", ">>", ">|", "&>", "&>>", "<", "<>", ">&", "<<" (a heredoc), "<<<" (a here-string)
	Paths   []string // absolute paths the target may name (one per directory the shell may be in); nil for heredocs
	Dynamic bool     // the target is not literal
	Rel     bool     // a relative target whose directory is unknown: Paths holds it as written
	Top     bool     // it belongs to the text's own syntax (its reason is in Composite), not a nested script's
}

// Writes reports a redirect that creates, truncates or appends to its target.
func (r *Redirect) Writes() bool {
	switch r.Op {
	case "<", "<<", "<<<":
		return false
	}
	return true
}

// Top returns the indexes of the commands that the text itself runs (Parent == -1
// and not inside a substitution), in order.
func (a *Analysis) Top() []int {
	var top []int
	for i := range a.Commands {
		if a.Commands[i].Parent == -1 && !a.Commands[i].Subst {
			top = append(top, i)
		}
	}
	return top
}

// Options carry the facts about the caller that judging paths needs. classify
// never reads the disk, the environment or the clock itself.
type Options struct {
	Cwd       string   // absolute working directory
	Home      string   // the user's home directory ($HOME, ~)
	Protected []string // absolute paths of guard's own config and state, which a command may not write
	// Positional are $0 $1 … when the text runs as bash -c TEXT ARG0 ARG…:
	// the words after the text are the script's parameters, and a command
	// like cat "$1" reads what they name. nil when they are unknown.
	Positional []string
	// Funcs and Aliases are the shell functions (name → body) and aliases
	// (name → value) defined before the text, in the shell that runs it (an
	// interactive session's earlier lines): a call is judged with its body,
	// as for a function defined earlier in the text. nil when none.
	Funcs, Aliases map[string]string
	// Shadow names the commands whose name an earlier line of the session
	// made run another program than the one PATH found when the session
	// started (a PATH change, hash -p, BASH_CMDS): name → that program's
	// path. Such a command is judged as that program, and asked about.
	Shadow map[string]string
	// EnvNames are the names of the variables in the environment the text
	// runs with, when the caller knows it exactly (bash -c without a login
	// shell, BASH_ENV or exported functions): a variable outside it that
	// nothing in the text writes and bash does not set is certainly
	// empty. nil when unknown.
	EnvNames map[string]bool
	// SessionVars names the variables earlier lines of an interactive
	// session set: their values are the session's, not the user's
	// environment, so a word that expands one is tainted.
	SessionVars map[string]bool
}

// Composite reasons, named from the syntax tree.
const (
	CompPipe       = "pipe"          // a | b, a |& b
	CompAnd        = "and"           // a && b
	CompOr         = "or"            // a || b
	CompSeq        = "seq"           // a ; b, or a newline
	CompBackground = "background"    // a &
	CompCmdSubst   = "cmd-subst"     // $(…) or `…`
	CompProcSubst  = "proc-subst"    // <(…) or >(…)
	CompRedirect   = "redirect"      // any redirect other than the benign ones below
	CompNullRedir  = "null-redirect" // only >/dev/null, 2>/dev/null, </dev/null, 2>&1, >&2 style fd duplication
	CompHeredoc    = "heredoc"       // <<EOF, <<<word
	CompSubshell   = "subshell"      // ( … )
	CompGroup      = "group"         // { …; }
	CompAssign     = "assign"        // leading VAR=x, or a bare assignment
	CompFunction   = "function"      // f() { … }
	CompLoop       = "loop"          // for, while, until, select
	CompIf         = "if"            // if … fi
	CompCase       = "case"          // case … esac
	CompNegate     = "negate"        // ! cmd
	CompOther      = "other"         // [[ ]], (( )), let, declare/export/local, coproc, time
	CompTest       = "test"          // [[ … ]]: a test that runs nothing (substitutions in it are reasons of their own)
)
