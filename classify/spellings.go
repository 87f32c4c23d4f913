package classify

// spelling maps the other names of a program to the one name guard's
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
// A switch, not a map: a map literal is built at init, in every run.
func spelling(name string) (string, bool) {
	switch name {
	case "gfind":
		return "find", true
	case "gsed":
		return "sed", true
	case "gawk", "mawk", "nawk":
		return "awk", true
	case "gmake":
		return "make", true
	case "ggrep", "egrep", "fgrep":
		return "grep", true
	case "gtar", "bsdtar":
		return "tar", true
	case "gxargs":
		return "xargs", true
	case "pip3":
		return "pip", true
	case "fdfind":
		return "fd", true
	case "podman-compose":
		return "docker-compose", true
	case "7za", "7zz":
		return "7z", true
	case "bao":
		return "vault", true
	case "microk8s.kubectl":
		return "kubectl", true
	case "ncat", "netcat":
		return "nc", true
	case "tofu":
		return "terraform", true
	case "py.test":
		return "pytest", true
	case "nerdctl", "podman":
		return "docker", true
	case "gradlew":
		return "gradle", true
	case "mvnw":
		return "mvn", true
	case "wget2":
		return "wget", true
	case "bazelisk":
		return "bazel", true
	case "gpg2":
		return "gpg", true
	case "gojq":
		return "jq", true
	}
	return "", false
}

// ProgramName returns the name guard's rules know the program called name
// by: name itself, or the program it is another spelling of (gfind → find,
// bsdtar → tar), or a versioned build of (gcc-12 → gcc, clang-17 → clang,
// wget2 → wget) when guard has an entry for the unversioned name and none
// for the versioned one.
func ProgramName(name string) string {
	if p, ok := spelling(name); ok {
		return p
	}
	if base := UnversionedName(name); base != name && SpecFor(name) == nil && SpecFor(base) != nil {
		if p, ok := spelling(base); ok {
			return p
		}
		return base
	}
	return name
}
