//go:build linux && !amd64 && !arm64

package shim

// seccompArch 0: no seccomp filter on this architecture (Landlock still
// scopes ptrace to the command's own tree).
const seccompArch = 0
