package classify

// spellings maps the other names of a program to the one name guard's
// rules know it by: the GNU g-prefixed builds (gfind, gsed, ggrep), the
// BSD and busybox ones (bsdtar), the wrappers a project ships (gradlew,
// mvnw), renamed forks (tofu, bao, wget2) and the grep modes egrep and
// fgrep. A Command's Name is this one name, so that every rule that asks
// about find asks about gfind too (the red team's gfind . -delete passed a
// gfind * grant where find . -delete was asked); its Args keep the text as
// written, which is what grant patterns match.
//
// Only spellings of one program belong here, never programs that merely
// share an entry's options (nice and sudo; cat and sha256sum).
// TestAliasesDecideAlike holds each spelling's decisions to its program's.
var spellings = map[string]string{
	"gfind": "find",
	"gsed":  "sed",
	"gawk":  "awk", "mawk": "awk", "nawk": "awk",
	"gmake": "make",
	"ggrep": "grep", "egrep": "grep", "fgrep": "grep",
	"gtar": "tar", "bsdtar": "tar",
	"gxargs":         "xargs",
	"pip3":           "pip",
	"fdfind":         "fd",
	"podman-compose": "docker-compose",
	"7za":            "7z", "7zz": "7z",
	"bao":              "vault",
	"microk8s.kubectl": "kubectl",
	"ncat":             "nc", "netcat": "nc",
	"tofu":    "terraform",
	"py.test": "pytest",
	"nerdctl": "docker", "podman": "docker",
	"gradlew":  "gradle",
	"mvnw":     "mvn",
	"wget2":    "wget",
	"bazelisk": "bazel",
	"gpg2":     "gpg",
	"gojq":     "jq",
}

// ProgramName returns the name guard's rules know the program called name
// by: name itself, or the program it is another spelling of (gfind → find,
// bsdtar → tar), or a versioned build of (gcc-12 → gcc, clang-17 → clang,
// wget2 → wget) when guard has an entry for the unversioned name and none
// for the versioned one.
func ProgramName(name string) string {
	if p, ok := spellings[name]; ok {
		return p
	}
	if base := UnversionedName(name); base != name && SpecFor(name) == nil && SpecFor(base) != nil {
		if p, ok := spellings[base]; ok {
			return p
		}
		return base
	}
	return name
}
