package classify

// Secrets that programs print: the helpers the specs' EffectIf hooks use
// to say which operands and options make a tool print a token, a password
// or a key (gh auth token, aws configure get aws_secret_access_key,
// kubectl get secret -o yaml, printenv GITHUB_TOKEN). The rule that acts on
// the effect is secret-print (rules.go); grants never lets a '*' cover a
// command that may print secrets.

import (
	"path"
	"strings"
)

// operandsOf returns the operand values of the words a spec typed from
// index start on, and lead: how many leading operands may instead be the
// values of options the spec does not know (gcloud --project p auth …),
// so that a subcommand path may start after them.
func operandsOf(p *Parsed, start int) (ops []string, lead int) {
	prevUnknown := -1 // Arg of the last option word the spec could not type, with no value attached
	leading := true
	for _, wd := range p.Words[start:] {
		if wd.Name != "" {
			if wd.Role == RoleUnknown && wd.Val == "" {
				prevUnknown = wd.Arg
			} else {
				prevUnknown = -1
			}
			continue
		}
		if wd.Arg == p.Sub {
			continue
		}
		if leading && prevUnknown >= 0 && wd.Arg == prevUnknown+1 {
			lead++
		} else {
			leading = false
		}
		prevUnknown = -1
		ops = append(ops, wd.Val)
	}
	return ops, lead
}

// subPath reports whether the operands name the subcommand path words
// (each word one of its "|" alternatives; "*" is any word), starting at
// the first operand or after operands that may be unknown options' values.
// It returns the index after the path.
func subPath(p *Parsed, start int, words ...string) (int, bool) {
	ops, lead := operandsOf(p, start)
	for k := 0; k <= lead && k+len(words) <= len(ops); k++ {
		ok := true
		for i, w := range words {
			if w != "*" && !alt(w, ops[k+i]) {
				ok = false
				break
			}
		}
		if ok {
			return k + len(words), true
		}
	}
	return 0, false
}

func alt(w, v string) bool {
	for {
		a, rest, more := strings.Cut(w, "|")
		if a == v {
			return true
		}
		if !more {
			return false
		}
		w = rest
	}
}

// hasOpt reports one of the options present among the words from start
// on, by the spec's canonical name or, for a word the spec could not type,
// by the name as written (gh has no option table: --show-token is
// "show-token").
func hasOpt(p *Parsed, start int, names ...string) bool {
	for _, wd := range p.Words[start:] {
		if wd.Name != "" && contains(names, wd.Name) {
			return true
		}
		if wd.Name != "" && wd.Role == RoleUnknown && len(wd.Name) == 1 {
			// a one-dash long option the spec read as a bundle
			// (terraform output -json)
			if full, _, _ := strings.Cut(wd.Name+wd.Val, "="); contains(names, full) {
				return true
			}
			// an unknown bundle (-at): every letter may be one of names
			for _, c := range wd.Name + wd.Val {
				if contains(names, string(c)) {
					return true
				}
			}
		}
	}
	return false
}

// optVals returns the values of the named options (attached or not).
func optVals(p *Parsed, start int, args []string, names ...string) []string {
	var out []string
	words := p.Words[start:]
	for k, wd := range words {
		if wd.Name == "" || !contains(names, wd.Name) {
			continue
		}
		switch {
		case wd.Role != RoleFlag && wd.Role != RoleUnknown:
			out = append(out, wd.Val)
		case wd.Val != "":
			out = append(out, strings.TrimPrefix(wd.Val, "="))
		case k+1 < len(words) && words[k+1].Name == "" && words[k+1].Arg == wd.Arg+1:
			out = append(out, words[k+1].Val) // an unknown option's value is the next word
		}
	}
	return out
}

// SecretName reports an environment variable or config key whose value
// is a token, password or key: GITHUB_TOKEN, aws_secret_access_key,
// //registry.npmjs.org/:_authToken, DB_PASSWORD.
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	for _, suf := range []string{"_FILE", "_PATH", "_DIR", "_SOCK", "_SOCKET", "_HOME", "_ID", "_USER", "_USERNAME", "_NAME"} {
		if strings.HasSuffix(n, suf) && !strings.HasSuffix(n, "KEY_ID") {
			return false // where a secret is, or who it belongs to: not the secret (SSH_AUTH_SOCK, GOOGLE_APPLICATION_CREDENTIALS_FILE)
		}
	}
	if secretVar(n) {
		return true
	}
	for _, w := range []string{"AUTHTOKEN", "AUTH_TOKEN", "APIKEY", "PASSPHRASE", "CREDENTIAL", "SESSION_KEY", "CLIENT_SECRET",
		"_PASS_", "PRIVATEKEY", "SIGNING_KEY", "WEBHOOK", "_DSN", "CONNECTION_STRING", "DATABASE_URL", "SECRET", "EXTRAHEADER",
		"AUTHORIZATION", "COOKIE", "SMTPPASS"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, suf := range []string{"_KEY", "_AUTH", "_PAT", "_PASS", "_PWD", "_PW"} {
		if strings.HasSuffix(n, suf) && !strings.HasSuffix(n, "_PUBLIC_KEY") {
			return true
		}
	}
	return n == "DSN"
}

// envEffect: printenv NAME… prints those variables: a secret one is the
// secret itself; printenv alone prints every variable.
func envEffect(p *Parsed, start int, args []string) Effect {
	ops, _ := operandsOf(p, start)
	if len(ops) == 0 {
		return EffectMayPrintSecret
	}
	for _, o := range ops {
		if SecretName(o) {
			return EffectPrintsSecret
		}
	}
	return 0
}

// ghEffect: gh auth token, gh auth status --show-token, the git credential
// helper's get, and the token a config key holds.
func ghEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "auth", "token"); ok {
		return EffectPrintsSecret
	}
	if _, ok := subPath(p, start, "auth", "status"); ok && hasOpt(p, start, "show-token", "t") {
		return EffectPrintsSecret
	}
	if _, ok := subPath(p, start, "auth", "git-credential", "get"); ok {
		return EffectPrintsSecret
	}
	if k, ok := subPath(p, start, "config", "get"); ok {
		if ops, _ := operandsOf(p, start); k < len(ops) && SecretName(ops[k]) || k < len(ops) && strings.Contains(ops[k], "token") {
			return EffectPrintsSecret
		}
	}
	return 0
}

// vaultEffect: vault print token prints the client token; reads of
// secrets and new tokens print secrets a project may own.
func vaultEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "print", "token"); ok {
		return EffectPrintsSecret
	}
	for _, sp := range [][]string{{"read"}, {"kv", "get"}, {"token", "lookup"}, {"token", "create"}, {"login"}, {"kv", "metadata", "get"}, {"write"}, {"unwrap"}} {
		if _, ok := subPath(p, start, sp...); ok {
			return EffectMayPrintSecret
		}
	}
	return 0
}

// herokuEffect: heroku auth:token; config and config:get print an app's
// secrets.
func herokuEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "auth:token"); ok {
		return EffectPrintsSecret
	}
	if _, ok := subPath(p, start, "config|config:get"); ok {
		return EffectMayPrintSecret
	}
	return 0
}

// doctlEffect: doctl auth token prints the access token.
func doctlEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "auth", "token"); ok {
		return EffectPrintsSecret
	}
	if _, ok := subPath(p, start, "kubernetes|k8s", "cluster|c", "kubeconfig|kcfg", "show"); ok {
		return EffectPrintsSecret
	}
	return 0
}

// opsEffect: the cloud CLIs' token printers (gcloud auth
// print-access-token, az account get-access-token, aws configure get
// KEY | export-credentials), and the reads of stored secrets.
func opsEffect(p *Parsed, start int, args []string) Effect {
	switch path.Base(args[0]) {
	case "gcloud":
		if _, ok := subPath(p, start, "alpha|beta|preview"); ok {
			// a release track before the group: gcloud beta auth …
			if k := trackAt(p, start); k >= 0 {
				q := *p
				q.Words = append(append([]Word(nil), p.Words[:k]...), p.Words[k+1:]...)
				return opsEffect(&q, start, args)
			}
		}
		for _, sp := range [][]string{{"auth", "print-access-token|print-identity-token|print-refresh-token"},
			{"auth", "application-default", "print-access-token|print-identity-token"}, {"config", "config-helper"}} {
			if _, ok := subPath(p, start, sp...); ok {
				return EffectPrintsSecret
			}
		}
		if _, ok := subPath(p, start, "secrets", "versions", "access"); ok {
			return EffectMayPrintSecret
		}
	case "az":
		if _, ok := subPath(p, start, "account", "get-access-token"); ok {
			return EffectPrintsSecret
		}
		for _, sp := range [][]string{{"keyvault", "secret", "show"}, {"storage", "account", "keys", "list"}, {"acr", "credential", "show"},
			{"acr", "login"}, {"ad", "sp", "create-for-rbac"}, {"ad", "sp", "credential", "reset"}, {"ad", "app", "credential", "reset"},
			{"storage", "account", "show-connection-string"}, {"cosmosdb", "keys", "list"}} {
			if _, ok := subPath(p, start, sp...); ok {
				if sp[0] == "acr" && sp[1] == "login" && !hasOpt(p, start, "expose-token", "t") {
					continue
				}
				return EffectMayPrintSecret
			}
		}
	case "ansible-vault":
		if _, ok := subPath(p, start, "view"); ok {
			return EffectMayPrintSecret
		}
		if _, ok := subPath(p, start, "decrypt"); ok && contains(optVals(p, start, args, "output"), "-") {
			return EffectMayPrintSecret
		}
	case "terraform", "tofu":
		// outputs and state hold the values marked sensitive
		if _, ok := subPath(p, start, "output"); ok && hasOpt(p, start, "json", "raw") {
			return EffectMayPrintSecret
		}
		if _, ok := subPath(p, start, "show"); ok && hasOpt(p, start, "json") {
			return EffectMayPrintSecret
		}
		if _, ok := subPath(p, start, "state", "pull|show"); ok {
			return EffectMayPrintSecret
		}
	case "aws":
		if k, ok := subPath(p, start, "configure", "get"); ok {
			ops, _ := operandsOf(p, start)
			if k < len(ops) && awsSecretKey(ops[k]) {
				return EffectPrintsSecret
			}
			return 0
		}
		if _, ok := subPath(p, start, "configure", "export-credentials"); ok {
			return EffectPrintsSecret
		}
		for _, sp := range [][]string{{"sts", "get-session-token|assume-role|assume-role-with-web-identity|assume-role-with-saml|get-federation-token"},
			{"sso", "get-role-credentials"}, {"ecr", "get-login-password|get-authorization-token"}, {"ecr-public", "get-login-password"},
			{"codeartifact", "get-authorization-token"}, {"secretsmanager", "get-secret-value|batch-get-secret-value"},
			{"iam", "create-access-key|create-service-specific-credential|create-login-profile"}, {"rds", "generate-db-auth-token"},
			{"eks", "get-token"}, {"lightsail", "get-instance-access-details"}, {"ec2", "get-password-data"}} {
			if _, ok := subPath(p, start, sp...); ok {
				return EffectMayPrintSecret
			}
		}
		if _, ok := subPath(p, start, "ssm", "get-parameter|get-parameters|get-parameters-by-path|get-parameter-history"); ok && hasOpt(p, start, "with-decryption") {
			return EffectMayPrintSecret
		}
	}
	return 0
}

// awsSecretKey reports a key of aws configure get that holds a secret
// (aws_secret_access_key, profile.x.aws_session_token; the region or
// output format do not).
func awsSecretKey(k string) bool {
	k = strings.ToLower(k)
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		k = k[i+1:]
	}
	return strings.Contains(k, "secret") || strings.Contains(k, "token") || strings.Contains(k, "key") || strings.Contains(k, "credential")
}

// kubeEffect: kubectl config view --raw (or --flatten) prints the client
// keys and tokens of every cluster; create token prints a service
// account's token; get secret -o yaml|json|jsonpath prints a secret's data.
func kubeEffect(p *Parsed, start int, args []string) Effect {
	switch path.Base(args[0]) {
	case "helm":
		return 0
	case "k3s", "microk8s", "k0s":
		// k3s kubectl …, microk8s kubectl …: kubectl's own words follow
		if k := firstOperand(p, start); k >= 0 && p.Words[k].Val == "kubectl" {
			q := *p
			q.Words = append(append([]Word(nil), p.Words[:k]...), p.Words[k+1:]...)
			return kubeEffect(&q, start, []string{"kubectl"})
		}
		if _, ok := subPath(p, start, "config|kubeconfig"); ok {
			return EffectPrintsSecret // microk8s config, k0s kubeconfig admin: the admin kubeconfig
		}
		return 0
	}
	if _, ok := subPath(p, start, "config", "view"); ok && hasOpt(p, start, "raw", "flatten") {
		return EffectPrintsSecret
	}
	if _, ok := subPath(p, start, "create", "token"); ok {
		return EffectPrintsSecret
	}
	if k, ok := subPath(p, start, "get|edit|view-secret|apply"); ok {
		ops, _ := operandsOf(p, start)
		verb := ops[k-1]
		names := false
		for _, o := range ops[k:] {
			names = names || kubeSecrets(o)
		}
		if !names {
			return 0
		}
		if verb == "edit" || verb == "view-secret" {
			return EffectMayPrintSecret
		}
		if verb == "get" {
			for _, o := range optVals(p, start, args, "output", "o") {
				o = strings.TrimPrefix(o, "=")
				f, _, _ := strings.Cut(o, "=")
				switch f {
				case "", "wide", "name":
					continue
				}
				return EffectMayPrintSecret // yaml, json, jsonpath, go-template, custom-columns: the data
			}
		}
	}
	return 0
}

// kubeSecrets reports a resource list naming secrets (secret,
// secrets/x, secret.v1, configmap,secret).
func kubeSecrets(o string) bool {
	for _, r := range strings.Split(strings.ToLower(o), ",") {
		r, _, _ = strings.Cut(r, "/")
		r, _, _ = strings.Cut(r, ".")
		if r == "secret" || r == "secrets" {
			return true
		}
	}
	return false
}

// npmEffect: npm config get KEY (npm get KEY) of an auth key prints the
// registry token.
func npmEffect(p *Parsed, start int, args []string) Effect {
	ops, _ := operandsOf(p, start)
	if p.SubName(args) != "get" {
		if len(ops) == 0 || ops[0] != "get" {
			return 0
		}
		ops = ops[1:]
	}
	for _, o := range ops {
		if npmAuthKey(o) {
			return EffectPrintsSecret
		}
	}
	return 0
}

func npmAuthKey(k string) bool {
	l := strings.ToLower(k)
	return strings.Contains(l, "_auth") || strings.Contains(l, "_password") || strings.Contains(l, "token") ||
		strings.HasPrefix(l, "//") && (strings.Contains(l, "keyfile") || strings.Contains(l, "pass")) || SecretName(k)
}

// gitConfigEffect: git config --get-regexp over credential keys, and a
// get of one (http.extraheader holds an Authorization header).
func gitConfigEffect(p *Parsed, start int, args []string) Effect {
	ops, _ := operandsOf(p, start)
	if len(ops) == 0 {
		return 0
	}
	if hasOpt(p, start, "get-regexp") {
		if gitRegexpSecret(ops[0]) {
			return EffectMayPrintSecret
		}
		return 0
	}
	if ops[0] == "list" && !hasOpt(p, start, "local", "worktree") {
		// git config list (git 2.46's --list): every setting of the
		// user's and the system's files, tokens in URLs included
		return EffectMayPrintSecret
	}
	if ops[0] == "get" && len(ops) >= 2 && hasOpt(p, start, "regexp") {
		// git config get --regexp PATTERN (git 2.46's form)
		if gitRegexpSecret(ops[1]) {
			return EffectMayPrintSecret
		}
		return 0
	}
	if len(ops) == 1 || hasOpt(p, start, "get", "get-all", "get-urlmatch") || len(ops) >= 2 && (ops[0] == "get") {
		key := ops[0]
		if ops[0] == "get" && len(ops) >= 2 {
			key = ops[1]
		}
		if gitSecretKey(key) {
			return EffectMayPrintSecret
		}
	}
	return 0
}

// gitSecretKeys are config keys (or their last part) that hold a secret.
var gitSecretKeys = []string{"extraheader", "password", "pass", "token", "smtppass", "oauth-token", "secret", "cookiefile", "sslkeypasswordprotected", "sslkey"}

func gitSecretKey(k string) bool {
	k = strings.ToLower(k)
	last := k
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		last = k[i+1:]
	}
	if contains(gitSecretKeys, last) || strings.Contains(last, "token") || strings.Contains(last, "password") {
		return true
	}
	return strings.HasPrefix(k, "credential.") && !strings.HasSuffix(k, ".helper") && !strings.HasSuffix(k, ".usehttppath")
}

// gitRegexpSecret reports a --get-regexp pattern that can match a key
// holding a secret: a pattern with regex syntax may match anything (.,
// .*, ^http), a plain one matches where it is a substring of such a key.
func gitRegexpSecret(re string) bool {
	l := strings.ToLower(re)
	if strings.ContainsAny(l, ".*+?[]()|\\{}") {
		plain := strings.Trim(l, "^$")
		if !strings.ContainsAny(plain, ".*+?[]()|\\{}") {
			l = plain
		} else {
			return true // guard does not evaluate a regular expression: it may match one
		}
	}
	for _, k := range []string{"http.extraheader", "http.https://x/.extraheader", "sendemail.smtppass", "github.token", "gitlab.token",
		"hub.oauthtoken", "credential.password", "url.https://token@x/.insteadof"} {
		if strings.Contains(k, strings.Trim(l, "^$")) {
			return true
		}
	}
	return false
}

// passEffect: pass (and gopass) NAME or show NAME decrypts a password; the
// listing subcommands do not.
func passEffect(p *Parsed, start int, args []string) Effect {
	ops, _ := operandsOf(p, start)
	if len(ops) == 0 {
		return 0 // the tree of names
	}
	switch ops[0] {
	case "ls", "list", "find", "search", "init", "help", "version", "rm", "remove", "delete", "mv", "rename", "cp", "copy", "git", "insert", "add", "edit", "sync", "setup", "config", "mounts", "recipients", "completion", "fsck", "audit", "templates", "update", "alias":
		return 0
	case "generate":
		return EffectMayPrintSecret // prints the password it made
	case "grep":
		return EffectMayPrintSecret
	}
	return EffectPrintsSecret // show, otp, cat, or a name (pass NAME is pass show NAME)
}

// secretToolEffect: secret-tool lookup and search print stored secrets.
func secretToolEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "lookup|search"); ok {
		return EffectPrintsSecret
	}
	return 0
}

// securityEffect: macOS security find-*-password -w/-g prints the
// password; dump-keychain -d decrypts every item.
func securityEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "find-generic-password|find-internet-password"); ok && hasOpt(p, start, "w", "g") {
		return EffectPrintsSecret
	}
	if _, ok := subPath(p, start, "dump-keychain"); ok && hasOpt(p, start, "d") {
		return EffectPrintsSecret
	}
	return 0
}

// opEffect: 1Password's op read, item get --reveal and document get print
// secrets; op inject fills a template with them.
func opEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "read"); ok {
		return EffectPrintsSecret
	}
	if _, ok := subPath(p, start, "item", "get"); ok {
		if hasOpt(p, start, "reveal") {
			return EffectPrintsSecret
		}
		if hasOpt(p, start, "fields", "otp", "format") {
			return EffectMayPrintSecret
		}
	}
	if _, ok := subPath(p, start, "document", "get"); ok {
		return EffectMayPrintSecret
	}
	if _, ok := subPath(p, start, "inject"); ok {
		return EffectMayPrintSecret
	}
	return 0
}

// dockerCredentialEffect: docker-credential-HELPER get prints the stored
// password for the server on its stdin.
func dockerCredentialEffect(p *Parsed, start int, args []string) Effect {
	if _, ok := subPath(p, start, "get"); ok {
		return EffectPrintsSecret
	}
	return 0
}

// secretPrint: a command whose spec says it prints a secret (its
// EffectPrintsSecret).
func (w *walker) secretPrint(c int) bool {
	if w.words(c).Effect&EffectPrintsSecret != 0 {
		return true
	}
	cmd := &w.a.Commands[c]
	switch cmd.Name {
	case "echo", "printf":
		// echo "$GITHUB_TOKEN" is printenv GITHUB_TOKEN
		for i := 1; i < len(cmd.Args) && i < len(cmd.Dynamic); i++ {
			if cmd.Dynamic[i] && expandsSecret(cmd.Args[i]) {
				return true
			}
		}
	}
	return false
}

// expandsSecret reports source text that expands a variable with a
// secret's name to its value ($TOKEN, ${API_KEY}, ${TOKEN:-x}, "t=$PASS");
// ${TOKEN:+set} and ${#TOKEN} print no part of it.
func expandsSecret(src string) bool {
	for i := 0; i < len(src); i++ {
		if src[i] != '$' || i+1 >= len(src) || i > 0 && src[i-1] == '\\' {
			continue
		}
		rest := src[i+1:]
		braced := rest[0] == '{'
		if braced {
			rest = rest[1:]
			if strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "!") {
				continue
			}
		}
		n := 0
		for n < len(rest) && (rest[n] == '_' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= 'a' && rest[n] <= 'z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
			n++
		}
		if n == 0 || !SecretName(rest[:n]) {
			continue
		}
		if braced && (strings.HasPrefix(rest[n:], ":+") || strings.HasPrefix(rest[n:], "+")) {
			continue
		}
		return true
	}
	return false
}

// trackAt returns the index in p.Words of gcloud's release track operand
// (the first operand, alpha|beta|preview), -1 when there is none.
func trackAt(p *Parsed, start int) int {
	for k := start; k < len(p.Words); k++ {
		wd := p.Words[k]
		if wd.Name != "" || wd.Arg == p.Sub {
			continue
		}
		if alt("alpha|beta|preview", wd.Val) {
			return k
		}
		return -1
	}
	return -1
}

// firstOperand returns the index in p.Words of the first operand from
// start on, -1 when there is none.
func firstOperand(p *Parsed, start int) int {
	for k := start; k < len(p.Words); k++ {
		if p.Words[k].Name == "" && p.Words[k].Arg != p.Sub {
			return k
		}
	}
	return -1
}

// storeEffect: the other secret managers and token CLIs, by their
// subcommand paths: what prints one secret (bw get password, lpass show,
// doppler secrets get, glab auth status -t, fly auth token, aws-vault
// export, kind get kubeconfig) and what prints many among other data
// (bw list items, sops -d, doppler secrets).
func storeEffect(p *Parsed, start int, args []string) Effect {
	name := path.Base(args[0])
	for _, r := range storePaths {
		if r.tool != name {
			continue
		}
		if _, ok := subPath(p, start, r.path...); ok && (r.opts == nil || hasOpt(p, start, r.opts...)) {
			return r.effect
		}
	}
	return 0
}

// storePaths are the secret-printing subcommand paths of the tools
// storeSpec covers, most specific first.
var storePaths = []struct {
	tool   string
	path   []string
	opts   []string
	effect Effect
}{
	{"glab", []string{"auth", "status"}, []string{"show-token", "t"}, EffectPrintsSecret},
	{"glab", []string{"config", "get", "token"}, nil, EffectPrintsSecret},
	{"fly", []string{"auth", "token"}, nil, EffectPrintsSecret},
	{"flyctl", []string{"auth", "token"}, nil, EffectPrintsSecret},
	{"doppler", []string{"secrets", "get"}, []string{"plain"}, EffectPrintsSecret},
	{"doppler", []string{"secrets", "get|download"}, nil, EffectMayPrintSecret},
	{"doppler", []string{"secrets"}, nil, EffectMayPrintSecret},
	{"doppler", []string{"configure", "get", "token"}, nil, EffectPrintsSecret},
	{"infisical", []string{"secrets", "get"}, nil, EffectPrintsSecret},
	{"infisical", []string{"secrets|export"}, nil, EffectMayPrintSecret},
	{"chamber", []string{"read"}, nil, EffectPrintsSecret},
	{"chamber", []string{"export"}, nil, EffectMayPrintSecret},
	{"aws-vault", []string{"export"}, nil, EffectPrintsSecret},
	{"bw", []string{"get", "password|totp|notes"}, nil, EffectPrintsSecret},
	{"bw", []string{"unlock|login"}, []string{"raw"}, EffectPrintsSecret},
	{"bw", []string{"get|list|export"}, nil, EffectMayPrintSecret},
	{"lpass", []string{"show"}, nil, EffectPrintsSecret},
	{"lpass", []string{"export"}, nil, EffectMayPrintSecret},
	{"keepassxc-cli", []string{"show"}, nil, EffectPrintsSecret},
	{"keepassxc-cli", []string{"export"}, nil, EffectMayPrintSecret},
	{"kwallet-query", []string{"*"}, []string{"read-password", "r"}, EffectPrintsSecret},
	{"sops", []string{"*"}, []string{"decrypt", "d", "extract"}, EffectMayPrintSecret},
	{"sops", []string{"decrypt"}, nil, EffectMayPrintSecret},
	{"sops", []string{"exec-env"}, nil, EffectMayPrintSecret},  // runs a command with the secrets in its environment
	{"sops", []string{"exec-file"}, nil, EffectMayPrintSecret}, // and with them in a file
	{"crane", []string{"auth", "get"}, nil, EffectPrintsSecret},
	{"crane", []string{"auth", "token"}, nil, EffectPrintsSecret},
	{"kind", []string{"get", "kubeconfig"}, nil, EffectPrintsSecret},
}
