package classify

import (
	"slices"
	"strings"
)

// Role is what one word of a command's arguments is to the program: the
// one question every rule asks of an argument ("does this read that
// file?", "is this a program it runs?"). The argument model answers it once
// per command, from a declarative spec, so no rule re-parses argv with
// guesses of its own.
type Role uint8

const (
	RoleNone    Role = iota // not set (a spec field left empty)
	RoleFlag                // an option that takes no value
	RoleText                // plain text: a message, a name, a number, a key the tool uses
	RoleRead                // a path whose contents the program reads and may print
	RoleWrite               // a path the program creates, writes, truncates or deletes
	RoleMeta                // a path the program names, counts, lists or compares without printing it
	RoleUse                 // a file the program uses without printing it (ssh -i KEY, --kubeconfig)
	RoleDir                 // a directory the program works in (make -C, git -C, tar -C)
	RoleProgram             // a program or command line the program runs
	RoleScript              // script text the program evaluates (awk PROGRAM, sed SCRIPT, psql -c)
	RoleURL                 // a URL it fetches or sends to
	RolePattern             // a pattern it searches for
	RoleSecret              // a password or token: redacted in every record
	RoleUnknown             // no spec knows it: any path-like word may be read or written
)

// Effect is what a command does beyond the roles of its words, as its
// spec declares it: reaching a subcommand (gh auth token), giving an option
// (kubectl config view --raw) or naming an operand (aws configure get
// aws_secret_access_key) that makes the program print a secret.
type Effect uint8

const (
	// EffectPrintsSecret: the output is a token, password or private key
	// and nothing else guard could mean a grant to cover: the hard
	// denylist's secret-print.
	EffectPrintsSecret Effect = 1 << iota
	// EffectMayPrintSecret: the output may hold secrets among other data
	// (kubectl get secret -o yaml, vault read, env): asked, and a '*' in
	// a grant never covers it, only the literal text does.
	EffectMayPrintSecret
)

var roleNames = [...]string{"", "flag", "text", "read", "write", "meta", "use", "dir", "program", "script", "url", "pattern", "secret", "unknown"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "role?"
}

// Opt is one option of a spec. The first of Long (or else the first
// letter of Short) is its canonical name, the one Word.Name carries.
type Opt struct {
	Short string   // the letters that mean this option ("v", "eE")
	Long  []string // long names without dashes ("verbose")
	Val   Role     // the role of its value; RoleFlag (or RoleNone) when it takes none
	// Optional: the value may only be attached (-O2, --color=auto); a
	// separate next word is an operand.
	Optional bool
	// Rest: the value is every following word up to ";" (fd -x CMD ARG…).
	Rest bool
	// Pair: the option takes two words, a name (text) and then the value
	// of role Val (jq --rawfile NAME FILE, --arg NAME VALUE).
	Pair bool
	// Fresh: the option asks the program for a fresh run, past its own
	// caches (go test -count=1, make -B, pytest --cache-clear, docker
	// build --no-cache): guard never answers it from its cache either.
	Fresh bool
	// Effect: what giving the option does (gh auth status --show-token
	// prints the token).
	Effect Effect
}

// name is the canonical name of an option given as the letter b or the
// long name l (one of them empty): an entry with one letter is one option,
// named by its first long name (-v and --invert-match are both
// "invert-match"), or by the letter when it has none; an entry with no
// letter or several is a list of options, each named by its own letter
// or long name.
func (o *Opt) name(b byte, l string) string {
	switch {
	case len(o.Short) == 1 && len(o.Long) > 0:
		return o.Long[0]
	case l != "":
		return l
	case b != 0:
		return string(b)
	}
	return o.Short[:1]
}

func (o *Opt) takes() bool { return o.Val != RoleNone && o.Val != RoleFlag }

// Spec is one command's argument grammar: getopt_long by default (bundled
// short options, attached values, --long=value or --long value, options
// anywhere before --).
type Spec struct {
	Opts []Opt
	// Abbrev: a unique prefix of a long option names it (getopt_long,
	// git's parse-options). An ambiguous prefix is an error the program
	// exits on; the parser marks it Unknown.
	Abbrev bool
	// OneDash: long options take one dash (find -name, go -exec, java
	// -jar); there are no bundles. Two dashes work too where the program
	// allows it (Go's flag package).
	OneDash bool
	// InOrder: options end at the first operand (ssh HOST CMD, env, git
	// before its subcommand).
	InOrder bool
	// NoDashDash: "--" is an operand, not the end of options.
	NoDashDash bool
	// Joined: with OneDash, option names that take their value joined to
	// them (gcc -O2, -Wall, -fPIC, -I/x, -DX=1): a word that is no
	// option's exact name but starts with one of these is that option,
	// the rest of the word its value (the longest prefix wins).
	Joined []string
	// Passthrough: an option the spec does not know belongs to the
	// program it runs (go test hands it to the test binary): text.
	Passthrough bool
	// Negate: --no-NAME turns a long option NAME off (git's
	// parse-options): a flag named no-NAME, whatever NAME takes.
	Negate bool
	// First is the role of the first operand (grep PATTERN, sed SCRIPT,
	// awk PROGRAM) unless an option in FirstBy gave it (grep -e, -f).
	First   Role
	FirstBy []string
	// ScriptIf names options that make the first operand script text
	// (bash -c SCRIPT).
	ScriptIf []string
	// Operands is the role of every other operand; Last that of the last
	// one when there are two or more (cp SRC… DST).
	Operands Role
	Last     Role
	// MetaIf names options that make Read operands Meta (grep -c, -l):
	// the program then prints counts or names, never the contents.
	MetaIf []string
	// ReadIf names options that make Meta operands Read (cmp -l prints
	// the differing bytes).
	ReadIf []string
	// LastBy: Last applies only when one of these options is present
	// (htpasswd -b FILE USER PASSWORD).
	LastBy []string
	// Sub returns the spec of a subcommand (git, go, docker); nil when
	// the command has none. The first operand is then the subcommand.
	Sub func(name string) *Spec
	// FreshOperands are operands that ask for a fresh run, as Opt.Fresh
	// does: the flags a script runner hands on to the script (npm test --
	// --no-cache, pnpm test --no-cache).
	FreshOperands []string
	// Action returns the spec of the words after an action operand (git
	// submodule add URL PATH, git remote add NAME URL, docker buildx
	// build): the first operand, when Action knows it, stays an operand
	// (RoleText) and the rest is read with the spec it returns. nil, or
	// an action it returns nil for: the operands keep this spec's roles.
	Action func(name string) *Spec
	// Effect is what reaching this spec does: a subcommand's or action's
	// spec that prints a secret (gh auth token, vault print token).
	Effect Effect
	// EffectIf returns the effect of the words this spec typed (p.Words
	// from index start on; args is the command's argv): one that depends
	// on an operand's value (aws configure get KEY, printenv NAME).
	EffectIf func(p *Parsed, start int, args []string) Effect
	// Untyped lists the program's real options this spec deliberately
	// leaves out of Opts (by their long name, or letter), each because
	// typing it would not make it safe: it runs an editor, loads code, or
	// is too rare to be worth a role. They parse as unknown, and under a
	// '*' grant an unknown option is asked (see [Parsed.UntypedOptions]).
	// The audit test (audit_test.go) checks every option of the
	// program's real option list is in Opts or here.
	Untyped []string

	// The fields below belong to a program's top-level spec: the rest of
	// what guard knows about the program, so that one entry answers
	// "what does guard do with it?" (see the package doc, "One tool, one
	// place").

	// Exec lists what, in the program's typed words, makes a '*' grant
	// unsafe: an option or operand that runs another program, writes
	// elsewhere, sets config that does, or prints stored secrets. grants
	// never lets a '*' cover a word one of them marks (its exec-capable
	// argument table).
	Exec []ExecRule
	// ReadOnly reports a use of the program that only reads and prints
	// (git status, git tag -l): the built-in read-only set allows it
	// without a grant. nil: no use of it is in the set. p is c's typed
	// words (c.Words()).
	ReadOnly func(c *Command, p Parsed) bool
	// ReadOnlyFor names the programs ReadOnly is for when programs that
	// differ share the spec (readerSpec is cat's and more's, and more
	// runs LESSOPEN's filter); nil: every program of the spec. The
	// others are not in the read-only set at all.
	ReadOnlyFor []string
	// PrintsFiles: the program prints what is in the files it is given
	// (cat, head, grep, wc): a name computed at run time, or a relative
	// one after cd to a computed path, may be any file, so such a use
	// leaves the read-only set.
	PrintsFiles bool
	// Runs names the programs of this spec that run whatever their
	// arguments say (sudo, env, xargs, nohup, python): an allow pattern
	// may never cover every use of one ("sudo *"). [Runners] lists them
	// all, for a pattern whose program word is a glob.
	Runs []string
	// RunsFile names the programs of this spec that, given a file, run
	// a program in it guard cannot see into (expect FILE, script, busybox
	// sh FILE): such a use is high risk.
	RunsFile []string
	// PassThrough reports whether a wrapper of this spec, named name,
	// runs its command unchanged and writes nothing of its own (timeout
	// 60 go test, nice; not time -o FILE), or, with script (WrapShell),
	// runs a script classify parsed in bash's syntax (env -S, watch,
	// flock -c): grants then judges what runs as if typed alone. own are
	// the wrapper's words before its command (not the Command itself, so
	// that a caller's Command stays on its stack).
	PassThrough func(name string, script bool, own []string) bool
	// DashlessFirst: the first word may be a bundle of options without a
	// dash (tar xzf F): the typed words' places are then not the words'
	// own, so a word grants keeps out of a '*' keeps every word out.
	DashlessFirst bool
	// ProgramsWalked: the programs its words name (find -exec CMD ;) run
	// as commands classify walks and judges on their own, not as a
	// program this one runs.
	ProgramsWalked bool
	// ReadsHere: given no path, the program reads its working directory
	// (find, tree, rg): after cd /elsewhere, that is elsewhere.
	ReadsHere bool
	// Symlinks names the options that make the program make symbolic
	// links (ln -s): its write word is the link, its read words the
	// targets, which the write tier does not follow.
	Symlinks []string
	// InPlace names the options that make the program rewrite the files
	// it reads (sed -i): the write tier judges those files as writes.
	InPlace []string
	// DumpsEnv reports a use that prints the whole environment, secrets
	// included (printenv alone, ps e): it is asked, and no '*' covers it.
	DumpsEnv func(c *Command) bool
	// WordRisk returns why one typed word of the program makes a '*'
	// grant unsafe where Exec's rules do not say it (make CFLAGS=-B/tmp,
	// docker --network host, npm -g, tar -P while extracting), "" when
	// it does not: grants keeps that word out of a '*'. sub is the
	// subcommand's name.
	WordRisk func(c *Command, sub string, w Word, p Parsed) string
	// SubRisk returns why a use of a subcommand makes a '*' grant unsafe
	// (npm publish, npm config set script-shell, docker context use, npm
	// create PKG), "" when it does not: grants keeps every word from the
	// subcommand on out of a '*'.
	SubRisk func(c *Command, p Parsed, sub string) string
	// Closed: the spec is audited whole (git), so an option it does not
	// type takes a use out of the read-only set, with a reason that
	// names the option.
	Closed bool
	// Groups are subcommands that only group others (docker container
	// run is docker run): the exec-capable rules read the command as the
	// one grouped.
	Groups []string
	// Reaches lists the subcommands that fetch from or send to another
	// machine (git fetch, git push): their risk is high.
	Reaches []string
	// Network: every use of the program reaches another machine (curl,
	// ssh, gh): its risk is high.
	Network bool
	// NetworkFor names the programs Network is for, as ReadOnlyFor
	// (kubectl and helm reach a cluster; k3s, which shares their spec,
	// also runs one).
	NetworkFor []string
	// Installs lists the subcommands that install packages (npm install,
	// cargo add): they fetch, and run the packages' scripts.
	Installs []string
	// InstallsFor names the programs Installs is for, as ReadOnlyFor.
	InstallsFor []string
	// InstallsAll names the programs of this spec every use of which
	// installs (npx PKG fetches the package and runs it).
	InstallsAll []string
	// DeletesTree reports a use of the program, named name, that deletes
	// a whole tree or wipes data (rm -r, find -delete, shred): its risk
	// is high.
	DeletesTree func(name string, p Parsed) bool
	// Instructions: the program reads its instructions from files it is
	// given (a Dockerfile, a makefile, a config): one outside the project
	// is not the project's, and a '*' grant does not cover it.
	Instructions bool
	// Uploads: the program can send a local file to another machine
	// (curl -T, scp): a secret file among its read words is marked.
	Uploads bool
	// WritesHere reports a use that writes files into the working
	// directory without a word naming them (curl -O, wget, tar -x): after
	// cd ~ that directory is not the project.
	WritesHere func(p Parsed) bool
	// WriteTarget returns the path a write word names when the word is
	// more than a path (docker build --output type=local,dest=PATH); ok
	// is false when it names none on this machine (type=registry).
	WriteTarget func(w Word) (path string, ok bool)
	// Builds: a build or test driver, which runs the project's own code
	// in the project (make, go, cargo, gcc): its risk is at least low.
	Builds bool
	// Grant is the shape of the grant guard suggests for the program
	// ([GrantSub]: git commit *).
	Grant GrantShape
	// GrantFor names the programs Grant is for when programs that differ
	// share the spec, as ReadOnlyFor; the others get GrantDefault.
	GrantFor []string
	// Keeps is the directory in the project the program keeps for itself
	// (git: .git): the write tier denies writes there to every other
	// program, and lets this one through.
	Keeps string
	// RepoURLs: its URL words name repositories, which may be paths on
	// this machine (git clone ../x, git fetch ~/y): one outside the
	// project is another repository, whose config and hooks are not the
	// project's.
	RepoURLs bool
}

// AnyUse is the ReadOnly of a program every use of which only reads and
// prints (awk: the exec-capable rules mark system(), print > FILE, -f).
func AnyUse(*Command, Parsed) bool { return true }

// For reports whether a fact of s whose programs list is names (one of
// the *For fields: ReadOnlyFor, GrantFor, …) is for the program name:
// nil names every program of the spec.
func (s *Spec) For(names []string, name string) bool {
	return names == nil || slices.Contains(names, name)
}

// runnerSpecs are the specs whose Runs name programs (a test checks the
// array is whole): [Runners] walks them, since the family tables are
// switches that cannot be listed.
var runnerSpecs = [...]*Spec{&wrapperSpec, &xargsSpec, &npxSpec, &chrootSpec, &busyboxSpec, &envSpec, &scriptSpec, &pythonSpec, &npmSpec, &goSpec}

// Runners calls f with each program an entry says runs whatever its
// arguments say ([Spec.Runs]), until f returns false.
func Runners(f func(name string) bool) {
	for _, s := range runnerSpecs {
		for _, n := range s.Runs {
			if !f(n) {
				return
			}
		}
	}
}

// RunsAny reports a program an entry says runs whatever its arguments
// say ([Spec.Runs]), by its name as written.
func RunsAny(name string) bool {
	s := SpecFor(name)
	return s != nil && slices.Contains(s.Runs, name)
}

// VersionUse is the ReadOnly of a tool whose only read-only use is to
// print its version: TOOL --version, -V, -version or -v, alone.
func VersionUse(c *Command, _ Parsed) bool {
	if len(c.Args) != 2 {
		return false
	}
	switch c.Args[1] {
	case "--version", "-V", "-version", "-v":
		return true
	}
	return false
}

// VersionUseNoV is VersionUse for an interpreter whose -v is verbose
// (python -v then runs a script from stdin).
func VersionUseNoV(c *Command, p Parsed) bool {
	return VersionUse(c, p) && c.Args[1] != "-v"
}

// VersionSubUse is VersionUse for a tool with a version subcommand
// (docker version, kubectl version); other tools' "version" is a target
// or a file (make version, node version).
func VersionSubUse(c *Command, p Parsed) bool {
	return VersionUse(c, p) || len(c.Args) == 2 && c.Args[1] == "version"
}

// GrantShape is the shape of the grant guard suggests when a human allows
// a command for a project or everywhere.
type GrantShape uint8

const (
	// GrantDefault: grants decides from the words (a subcommand-like
	// first word is kept).
	GrantDefault GrantShape = iota
	// GrantSub: the first word is a subcommand and the suggestion names
	// it (git commit *, cargo build *).
	GrantSub
	// GrantTarget: the first word is a target and the suggestion names
	// it and stops, since a further word is one more target (make all).
	GrantTarget
	// GrantPlain: the first word is an operand (a pattern, a file, a
	// text), never kept (grep foo x.go → grep *).
	GrantPlain
	// GrantExact: the program changes the files it is given, wherever
	// they are ("mv *" would cover mv ~/.bashrc /tmp): only the exact
	// command is suggested.
	GrantExact
)

// ExecRule is one entry of a program's exec-capable argument table
// ([Spec.Exec]): what, in the argument model's typed parse of a command,
// makes a '*' grant unsafe. A word a rule marks is sensitive: a '*' in an
// allow pattern never covers it, only literal pattern text does. Options
// are named by the spec's names, so bundles (-avze), attached values
// (-ofile, --out=file) and abbreviations (--exe) come from the spec,
// never from a scan of the word.
type ExecRule struct {
	ID     string
	Sub    []string // only when the subcommand is one of these
	Global bool     // the options count only before the subcommand (git -C, git -c)
	// Opts are options by the name the spec gives them (Word.Name: the
	// first long name of an entry with one letter, else the letter or
	// long name itself). Present, the option and its value are
	// sensitive. Their letters are listed too, for an option the spec
	// does not type: a letter the parser could not read, or one in the
	// rest of a bundle it stopped at (git archive -vo F, when -v is
	// unknown to it).
	Opts []string
	// Words are operands (after the subcommand), exact or prefixes when
	// they end in '*' (git bundle create, make SHELL=x, vim +cmd).
	Words []string
	Rest  bool // every word after the command word (or after the subcommand) is sensitive
	// Only names the programs the rule applies to, when programs that
	// differ share the spec (cat's spec is more's; sudo's is npx's);
	// nil: every program of the spec.
	Only []string
	// Check marks what Opts and Words cannot say (git -c KEY=VALUE of a
	// key that runs a program, an ext:: remote).
	Check  func(c *Command, p Parsed, m Marker)
	Reason string
}

// Hit reports whether a typed word is one of r's options or operands.
// An option the spec could not resolve (unknown to it, or an ambiguous
// abbreviation such as git log --outp) fails closed: it hits when it
// could be one of r's options.
func (r *ExecRule) Hit(w Word) bool {
	if w.Name == "" {
		if w.Arg == 0 {
			return false
		}
		for _, x := range r.Words {
			if p, ok := strings.CutSuffix(x, "*"); ok && strings.HasPrefix(w.Val, p) || x == w.Val {
				return true
			}
		}
		return false
	}
	for _, o := range r.Opts {
		if o == w.Name {
			return true
		}
	}
	return Unresolved(w, r.Opts...)
}

// Marker receives the words an [ExecRule]'s Check finds sensitive (grants
// keeps them): Mark by index in the command's Args, MarkWord by typed
// word (an option's value given as the next word marks the option too).
type Marker interface {
	Mark(i int, reason string)
	MarkWord(c *Command, w Word, reason string)
	// MarkAll: no allow pattern with a '*' covers the command at all
	// (LESSOPEN=… less f).
	MarkAll(reason string)
	// OutsideProject reports a path on this machine outside the project
	// (npm install ../other): grants knows the project's root.
	OutsideProject(c *Command, path string) bool
	// Parse is the argument model ([ParseCommand]), for a check that
	// types a value with a program's spec (make's MAKEFLAGS, python -m
	// pytest): a spec's own rules cannot name the model without an
	// initialization cycle.
	Parse(name string, args []string) Parsed
}

// HelpWord reports --help, --version, -h or -V: a word no exec-capable
// rule marks, since the program prints and exits.
func HelpWord(w string) bool {
	return w == "--version" || w == "--help" || w == "-V" || w == "-h"
}

// Unresolved reports an option word the spec could not type (an unknown
// option, an ambiguous abbreviation) that could be one of names: an
// abbreviation of one of them, or a letter of a bundle the parser stopped
// reading at. Checks fail closed with it.
func Unresolved(w Word, names ...string) bool {
	if w.Role != RoleUnknown || w.Name == "" {
		return false
	}
	for _, n := range names {
		if len(w.Name) > 1 && len(n) > 1 && strings.HasPrefix(n, w.Name) {
			return true
		}
		if len(w.Name) == 1 && len(n) == 1 && strings.Contains(w.Name+w.Val, n) {
			return true
		}
	}
	return false
}

// Word is one argument of a command, typed by its spec.
type Word struct {
	Arg  int    // index in the command's Args
	Name string // the option's canonical name; "" for an operand
	Role Role   // RoleFlag for an option without a value, else what Val is
	Val  string // the operand, or the option's value with -x / --long= cut off
	Rest bool   // one of the words of an option with Rest (a command's argv)
}

// Parsed is a command's argv typed by its spec.
type Parsed struct {
	Words []Word
	Sub   int  // index in Args of the subcommand word, or -1
	Spec  bool // a spec was found (false: every operand is RoleUnknown)
	// Unknown: an option the spec does not know, or an ambiguous
	// abbreviation; its value (if any) and the rest of its word are RoleUnknown.
	Unknown bool
	// Fresh is the first word that asks for a fresh run (Opt.Fresh,
	// Spec.FreshOperands), "" when none does.
	Fresh string
	// Effect holds the effects of the specs reached, the options given
	// and the operands named (see [Effect]).
	Effect Effect
}

// Has reports an option present, by canonical name.
func (p Parsed) Has(names ...string) bool {
	for _, w := range p.Words {
		if w.Name == "" {
			continue
		}
		for _, n := range names {
			if w.Name == n {
				return true
			}
		}
	}
	return false
}

// Values returns the values given to an option, by canonical name.
func (p Parsed) Values(name string) []Word {
	var out []Word
	for _, w := range p.Words {
		if w.Name == name && w.Role != RoleFlag {
			out = append(out, w)
		}
	}
	return out
}

// Operands returns the operand words (after the subcommand, if any).
func (p Parsed) Operands() []Word {
	var out []Word
	for _, w := range p.Words {
		if w.Name == "" && w.Arg != p.Sub {
			out = append(out, w)
		}
	}
	return out
}

// UntypedOptions returns the option words the spec could not type: an
// option it does not know (or an ambiguous abbreviation), and, where no
// spec types the words at all (a program or subcommand guard has no spec
// for), every word that reads as an option (-x, --long, up to a "--"). A
// '*' grant does not cover them: what guard cannot type is asked, not
// allowed. A bare number (-9, -20) is not an option word: kill -9, head
// -20 and nice -5 take it as a value.
func (p Parsed) UntypedOptions(args []string) []Word {
	var out []Word
	add := func(w Word) {
		if w.Arg > 0 && w.Arg < len(args) && !numberWord(args[w.Arg]) && (len(out) == 0 || out[len(out)-1].Arg != w.Arg) {
			out = append(out, w)
		}
	}
	dashdash := false
	for _, w := range p.Words {
		if w.Arg < len(args) && args[w.Arg] == "--" {
			dashdash = true
		}
		switch {
		case w.Name != "" && w.Role == RoleUnknown:
			add(w)
		case w.Name == "" && w.Role == RoleUnknown && !dashdash && !p.Spec && w.Arg < len(args) && optionWord(args[w.Arg]):
			add(w)
		}
	}
	return out
}

// OptionSpelling is how an untyped option word names its option in a
// reason: --long without its value, -x for a letter of a bundle.
func OptionSpelling(args []string, w Word) string {
	a := ""
	if w.Arg < len(args) {
		a = args[w.Arg]
	}
	if len(w.Name) == 1 && !strings.HasPrefix(a, "--") {
		return "-" + w.Name
	}
	name, _, _ := strings.Cut(a, "=")
	return name
}

func optionWord(w string) bool { return len(w) > 1 && w[0] == '-' && w != "--" }

func numberWord(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// SubName returns the subcommand word, "" when there is none.
func (p Parsed) SubName(args []string) string {
	if p.Sub < 0 || p.Sub >= len(args) {
		return ""
	}
	return args[p.Sub]
}

// ByRole returns the words with one of the roles (the question a path
// tier asks: which words are read paths, which are written).
func (p Parsed) ByRole(roles ...Role) []Word {
	var out []Word
	for _, w := range p.Words {
		for _, r := range roles {
			if w.Role == r {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// ParseCommand types a command's arguments with the spec of its name.
// A command without a spec comes back with Spec false and every argument
// RoleUnknown.
func ParseCommand(name string, args []string) Parsed {
	var p Parsed
	parseCommandInto(&p, name, args)
	return p
}

// parseCommandInto is ParseCommand into *p: the walker keeps every
// command's parse behind a pointer, and typing it in place spares a copy
// on the heap (the spec hooks take the Parsed by pointer, so a local one
// escapes anyway).
func parseCommandInto(p *Parsed, name string, args []string) {
	s := SpecFor(name)
	if s == &tarSpec {
		parseArgsInto(p, s, tarArgs(args))
		tarRoles(p)
		return
	}
	parseArgsInto(p, s, args)
	switch s {
	case &socatSpec:
		socatRoles(p)
	case &lessSpec:
		lessRoles(p, args)
	case &unzipSpec:
		unzipRoles(p)
	}
}

// ParseArgs types args (args[0] is the command word) with spec s; a nil
// spec makes every argument RoleUnknown.
func ParseArgs(s *Spec, args []string) Parsed {
	var p Parsed
	parseArgsInto(&p, s, args)
	return p
}

// parseArgsInto is ParseArgs into *p.
func parseArgsInto(p *Parsed, s *Spec, args []string) {
	*p = Parsed{Sub: -1, Spec: s != nil}
	if len(args) < 2 {
		return
	}
	p.Words = make([]Word, 0, len(args)-1)
	if s == nil {
		for i := 1; i < len(args); i++ {
			p.Words = append(p.Words, Word{Arg: i, Role: RoleUnknown, Val: args[i]})
		}
		return
	}
	end := parseInto(p, s, args, 1)
	if s.Sub != nil && end < len(args) {
		p.Sub = end
		sub := s.Sub(args[end])
		if sub == nil {
			p.Spec = false
			for i := end + 1; i < len(args); i++ {
				p.Words = append(p.Words, Word{Arg: i, Role: RoleUnknown, Val: args[i]})
			}
			return
		}
		parseInto(p, sub, args, end+1)
		if s.EffectIf != nil {
			// a spec with subcommands hands its words over at the
			// subcommand: its hook sees them all once they are typed,
			// the subcommand as the operand it reads like (gh auth token)
			q := *p
			q.Sub = -1
			q.Words = make([]Word, 0, len(p.Words)+1)
			k := 0
			for k < len(p.Words) && p.Words[k].Arg < p.Sub {
				k++
			}
			q.Words = append(append(append(q.Words, p.Words[:k]...), Word{Arg: p.Sub, Val: args[p.Sub]}), p.Words[k:]...)
			p.Effect |= s.EffectIf(&q, 0, args)
		}
	}
}

// parseInto parses args[from:] with s into p. With s.Sub set it stops at
// the first operand (the subcommand) and returns its index; otherwise it
// returns len(args).
func parseInto(p *Parsed, s *Spec, args []string, from int) int {
	p.Effect |= s.Effect
	dashdash := false
	firstGiven := false
	start := len(p.Words)
	var ops []int // indexes into p.Words of the operands
	for i := from; i < len(args); i++ {
		a := args[i]
		if dashdash || len(a) < 2 || a[0] != '-' {
			if s.Sub != nil {
				return i // git -- push: the subcommand still follows
			}
			if s.Action != nil && len(ops) == 0 {
				if as := s.Action(a); as != nil {
					p.Words = append(p.Words, Word{Arg: i, Role: RoleText, Val: a})
					parseInto(p, as, args, i+1)
					return len(args)
				}
			}
			ops = append(ops, len(p.Words))
			p.Words = append(p.Words, Word{Arg: i, Val: a})
			if p.Fresh == "" && contains(s.FreshOperands, a) {
				p.Fresh = a
			}
			if s.InOrder {
				dashdash = true
			}
			continue
		}
		if a == "--" && !s.NoDashDash {
			dashdash = true
			continue
		}
		var o *Opt
		var val, lname string
		var letter byte
		attached := false
		if strings.HasPrefix(a, "--") || s.OneDash {
			body := strings.TrimPrefix(a[1:], "-")
			name, v, eq := strings.Cut(body, "=")
			o, _ = s.long(name)
			if o != nil {
				lname = o.longMatch(name)
			}
			if o == nil && s.OneDash && len(s.Joined) > 0 && !strings.HasPrefix(a, "--") {
				best := ""
				for _, j := range s.Joined {
					if len(j) > len(best) && strings.HasPrefix(body, j) && len(body) > len(j) {
						best = j
					}
				}
				if best != "" {
					if jo, _ := s.long(best); jo != nil && jo.takes() {
						o, lname = jo, best
						v, eq = body[len(best):], true
					}
				}
			}
			if o == nil && s.Negate && !eq && strings.HasPrefix(name, "no-") {
				if no, _ := s.long(name[3:]); no != nil {
					p.Words = append(p.Words, Word{Arg: i, Name: "no-" + no.longMatch(name[3:]), Role: RoleFlag})
					continue
				}
			}
			if o == nil && s.Passthrough {
				p.Words = append(p.Words, Word{Arg: i, Name: name, Role: RoleText, Val: v})
				continue
			}
			if o == nil {
				p.Unknown = true
				p.Words = append(p.Words, Word{Arg: i, Name: name, Role: RoleUnknown, Val: v})
				continue
			}
			if eq {
				val, attached = v, true
			}
		} else {
			// a bundle of short options: -abc, -fFILE, -e.
			for k := 1; k < len(a); k++ {
				so := s.short(a[k])
				if so == nil {
					p.Unknown = true
					p.Words = append(p.Words, Word{Arg: i, Name: a[k : k+1], Role: RoleUnknown, Val: a[k+1:]})
					break
				}
				if !so.takes() {
					p.Effect |= so.Effect
					p.Words = append(p.Words, Word{Arg: i, Name: so.name(a[k], ""), Role: RoleFlag})
					if so.Fresh && p.Fresh == "" {
						p.Fresh = a
					}
					continue
				}
				letter = a[k]
				if k+1 < len(a) {
					o, val, attached = so, a[k+1:], true
				} else {
					o = so
				}
				break
			}
			if o == nil {
				continue
			}
		}
		name := o.name(letter, lname)
		if o.Fresh && p.Fresh == "" {
			p.Fresh = a
		}
		p.Effect |= o.Effect
		if !o.takes() || !attached && o.Optional || !attached && i+1 >= len(args) {
			p.Words = append(p.Words, Word{Arg: i, Name: name, Role: RoleFlag})
			continue
		}
		if o.Rest && !attached {
			for i++; i < len(args) && args[i] != ";"; i++ {
				p.Words = append(p.Words, Word{Arg: i, Name: name, Role: o.Val, Val: args[i], Rest: true})
			}
			continue
		}
		if !attached {
			i++
			val = args[i]
		}
		if o.Pair {
			p.Words = append(p.Words, Word{Arg: i, Name: name, Role: RoleText, Val: val})
			if i+1 >= len(args) {
				continue
			}
			i++
			val = args[i]
		}
		if s.First != RoleNone && contains(s.FirstBy, name) {
			firstGiven = true
		}
		p.Words = append(p.Words, Word{Arg: i, Name: name, Role: o.Val, Val: val})
	}
	s.operandRoles(p, start, ops, firstGiven)
	if s.EffectIf != nil {
		p.Effect |= s.EffectIf(p, start, args)
	}
	return len(args)
}

// operandRoles gives the operands (indexes ops into p.Words) their roles,
// from the options p.Words[start:] holds.
func (s *Spec) operandRoles(p *Parsed, start int, ops []int, firstGiven bool) {
	has := func(names []string) bool {
		for _, w := range p.Words[start:] {
			if w.Name != "" && contains(names, w.Name) {
				return true
			}
		}
		return false
	}
	meta, read := has(s.MetaIf), has(s.ReadIf)
	last := s.Last != RoleNone && (s.LastBy == nil || has(s.LastBy))
	rest := ops
	switch {
	case len(ops) > 0 && has(s.ScriptIf):
		p.Words[ops[0]].Role = RoleScript
		rest = ops[1:]
	case s.First != RoleNone && !firstGiven && len(ops) > 0:
		p.Words[ops[0]].Role = s.First
		rest = ops[1:]
	}
	for k, wi := range rest {
		r := s.Operands
		if last && (len(rest) >= 2 || s.LastBy != nil) && k == len(rest)-1 {
			r = s.Last
		}
		if r == RoleNone {
			r = RoleUnknown
		}
		switch {
		case meta && r == RoleRead:
			r = RoleMeta
		case read && r == RoleMeta:
			r = RoleRead
		}
		p.Words[wi].Role = r
	}
}

// longMatch returns the long name of o that name is (a prefix of).
func (o *Opt) longMatch(name string) string {
	for _, l := range o.Long {
		if l == name {
			return l
		}
	}
	for _, l := range o.Long {
		if strings.HasPrefix(l, name) {
			return l
		}
	}
	return name
}

// short returns the option of a letter, nil when the spec has none.
func (s *Spec) short(b byte) *Opt {
	for i := range s.Opts {
		if strings.IndexByte(s.Opts[i].Short, b) >= 0 {
			return &s.Opts[i]
		}
	}
	return nil
}

// long resolves a long option name: an exact name, else (with Abbrev) a
// prefix of exactly one option's names. ambiguous reports a prefix of
// several.
func (s *Spec) long(name string) (o *Opt, ambiguous bool) {
	if name == "" {
		return nil, false
	}
	for i := range s.Opts {
		for _, l := range s.Opts[i].Long {
			if l == name {
				return &s.Opts[i], false
			}
		}
	}
	if !s.Abbrev {
		return nil, false
	}
	var found *Opt
	foundName := ""
	for i := range s.Opts {
		for _, l := range s.Opts[i].Long {
			if strings.HasPrefix(l, name) {
				// two entries spelling one option (-r and -R, both
				// --recursive) are not an ambiguity
				if found != nil && foundName != l {
					return nil, true
				}
				found, foundName = &s.Opts[i], l
			}
		}
	}
	return found, false
}

// SpecFor returns the spec of a command by its name (basename), nil when
// guard has none: such a command is judged conservatively.
func SpecFor(name string) *Spec {
	for _, f := range specFamilies {
		if s := f(name); s != nil {
			return s
		}
	}
	return nil
}

// specFamilies are the family tables, one file each.
var specFamilies = [...]func(string) *Spec{filesSpec, searchSpec, archiveSpec, vcsSpec, netSpec, buildSpec, shellSpec, adminSpec, secretsSpec}
