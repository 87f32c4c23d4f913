package classify

import "strings"

// Specs of the secret stores and the programs that print credentials:
// password managers, keychains, credential helpers, vault and the
// environment. Their effects (secrets.go) say which subcommands print a
// secret; their arguments are otherwise names, which the conservative
// reading (RoleUnknown) covers.

func secretsSpec(name string) *Spec {
	switch name {
	case "printenv":
		return &printenvSpec
	case "vault", "bao":
		return &vaultSpec
	case "op":
		return &opSpec
	case "pass", "gopass":
		return &passSpec
	case "secret-tool":
		return &secretToolSpec
	case "security":
		return &securitySpec
	case "glab", "fly", "flyctl", "doppler", "infisical", "chamber", "aws-vault", "bw", "lpass", "keepassxc-cli", "kwallet-query",
		"sops", "kind", "crane":
		return &storeSpec
	}
	if strings.HasPrefix(name, "docker-credential-") || strings.HasPrefix(name, "git-credential-") {
		return &credentialHelperSpec
	}
	return nil
}

// printenvSpec: printenv [NAME…]: alone it prints every variable.
var printenvSpec = Spec{DumpsEnv: printenvAll, ReadOnly: printenvReadOnly, Grant: GrantPlain, Operands: RoleText, EffectIf: envEffect, Opts: []Opt{
	{Short: "0", Long: []string{"null", "help", "version"}},
}}

var vaultSpec = Spec{Operands: RoleUnknown, EffectIf: vaultEffect}

var opSpec = Spec{Operands: RoleUnknown, EffectIf: opEffect}

var passSpec = Spec{Operands: RoleUnknown, EffectIf: passEffect, Opts: []Opt{
	{Short: "c", Long: []string{"clip"}, Val: RoleText, Optional: true},
	{Short: "q", Long: []string{"qrcode"}, Val: RoleText, Optional: true},
}}

var secretToolSpec = Spec{Operands: RoleText, EffectIf: secretToolEffect, Opts: []Opt{
	{Long: []string{"label", "collection"}, Val: RoleText},
	{Long: []string{"all", "unlock"}},
}}

var securitySpec = Spec{Operands: RoleUnknown, EffectIf: securityEffect}

// credentialHelperSpec: docker-credential-* and git-credential-* take
// their action as the operand and the server on stdin.
var credentialHelperSpec = Spec{Operands: RoleText, EffectIf: dockerCredentialEffect}

// storeSpec: the other secret managers and token CLIs (storePaths).
var storeSpec = Spec{Operands: RoleUnknown, EffectIf: storeEffect}

// printenvReadOnly: printenv NAME… prints those variables; read-only when
// none of the names could hold a secret (printenv HOME, printenv GOPATH).
// printenv alone prints them all (envDump).
func printenvReadOnly(c *Command, _ Parsed) bool {
	if len(c.Args) < 2 {
		return false
	}
	for _, a := range c.Args[1:] {
		if a == "-0" || a == "--null" {
			continue
		}
		if !plainVarName(a) || MaySecretName(a) {
			return false
		}
	}
	return true
}

func plainVarName(n string) bool {
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return false
	}
	for i := 0; i < len(n); i++ {
		b := n[i]
		if !(b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9') {
			return false
		}
	}
	return true
}

// printenvAll: printenv without a name prints every variable. The word
// as written, not a path to it: /usr/bin/printenv's words are judged by
// their effect (envEffect).
func printenvAll(c *Command) bool {
	return c.Args[0] == "printenv" && len(c.Args) == 1
}
