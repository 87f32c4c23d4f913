//go:build linux && arm64

package shim

// seccompArch is the audit architecture the seccomp filter lets through.
const seccompArch = 0xc00000b7 // AUDIT_ARCH_AARCH64
