//go:build linux && amd64

package shim

// seccompArch is the audit architecture the seccomp filter lets through.
const seccompArch = 0xc000003e // AUDIT_ARCH_X86_64
