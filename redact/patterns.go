package redact

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
)

// A pattern is one kind of secret. Its matcher runs only on the lines where
// one of its triggers occurs (fold: compared case-insensitively; wordStart:
// only where no letter, digit or '_' precedes it; near: a cheap look at the
// text around the trigger), so text without any trigger costs one scan and
// no regular expression at all.
//
// The matcher is expr, a regular expression compiled on first use, or scan,
// written by hand where a regexp would be slow or cannot say it. When expr
// has groups named "s", only those are replaced (the label in
// password=hunter2 stays readable); otherwise the whole match is.
type pattern struct {
	kind      string
	triggers  []string
	fold      bool
	wordStart bool
	near      func(line []byte, i int) bool
	// nearAny: near holds on the whole input wherever it holds on the
	// line (it reads only bytes around the trigger that it needs inside
	// the line), so scan may try it before it finds the line
	nearAny bool
	// flagRun: near is flagNear, which looks at the whole run of a flag's
	// name; scan measures each run once, not once for each "--" in it
	// (a line of dashes is one run)
	flagRun bool
	expr    string
	// pre, when set, holds on every line where expr matches and costs
	// far less: a line it turns away needs no regexp
	pre  func(line []byte) bool
	scan func(r *Redactor, line []byte, k *spanSink)
	// valid, when set, rejects a candidate secret (the replaced text).
	valid func(secret []byte) bool
	// literal: expr is matched as plain text (a user pattern that does not
	// compile).
	literal bool
	// encoded: the pattern of the encoded spellings, which also runs on
	// every unit holding a NUL (see nulHits)
	encoded bool
}

// compile compiles p's expression. The built-in ones always compile
// (TestPatternsCompile); a user's that does not is matched as literal text,
// never a panic on guard's path.
func (p *pattern) compile() *regexp.Regexp {
	if !p.literal {
		if re, err := regexp.Compile(p.expr); err == nil {
			return re
		}
	}
	return regexp.MustCompile(regexp.QuoteMeta(p.expr))
}

// accept reports whether a candidate is a secret: it passes valid, and a
// bare token (no label) is not filler such as ghp_xxxxxxxx….
func (p *pattern) accept(b []byte) bool {
	if p.valid != nil {
		return p.valid(b)
	}
	return !filler(b)
}

// Values after a label: double-quoted, single-quoted or bare.
const labelValue = "(?:\"(?P<s>[^\"\n]+)\"|'(?P<s>[^'\n]+)'|(?P<s>[^\\s\"'`&;,)\\]}>]+))"

// labelWords end a label whose value is a secret, once the label is
// lower-cased and its '_', '-' and '.' taken out: db_password, apiKey,
// aws_session_token, client_secret, "SecretAccessKey", secret_key_base.
// The word must end the label, so password_file, tokenizer and secretName
// are not labels.
var labelWords = [...]string{
	"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey", "signingkey",
	"encryptionkey", "masterkey", "authkey", "secretkeybase", "subscriptionkey", "primarykey", "secondarykey",
	"dockerconfigjson", "dockercfg", "secretkey", "appkey", "sharedkey", "hmackey", "presharedkey", "licensekey",
	"secretid", "pwd",
}

// pemBegin and pemEnd are a private key's armour lines (RSA, EC, DSA,
// OpenSSH, PKCS#8 plain and ENCRYPTED, PGP, SSH2).
const (
	pemBegin = `-{4,5} ?BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)? ?-{4,5}`
	pemEnd   = `-{4,5} ?END[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)? ?-{4,5}`
	// pemInner is what may stand between them on one line: base64, the
	// headers of an encrypted key, and JSON escapes (\n) of newlines.
	pemInner = `(?:[A-Za-z0-9+/=\s:,.-]|\\+[nrt])`
)

// builtin is the table of secrets guard knows, applied in one pass; where
// matches overlap, their union is replaced and named after the earliest
// entry. So whole secrets with a recognisable shape come before the
// label-based entries: "token=ghp_…" is reported as github.
//
// It is built on first use, not at init: a package-level table of this
// many strings, slices and funcs costs every run of guard its share of the
// runtime's start (the GC program over .data) and of the package's init,
// and most runs (a hook's answer, an allowed `true`) redact nothing.
var builtin = sync.OnceValue(func() []pattern {
	return []pattern{
		// ---- private keys -------------------------------------------------
		{kind: "private-key", triggers: []string{"PRIVATE KEY", "Private-Lines:"}, scan: scanPrivateKey},
		{
			// a PEM file base64-encoded again: kubeconfig client-key-data,
			// a Kubernetes secret's data, base64 < id_rsa
			kind: "private-key", triggers: []string{"LS0tLS1CRUdJTi"}, scan: scanBase64Key,
		},
		{
			kind: "private-key", triggers: []string{"client-key-data"},
			expr: `client-key-data["']?[ \t]*[:=][ \t]*["']?(?P<s>[A-Za-z0-9+/=]{16,})`,
		},
		{kind: "age-secret-key", triggers: []string{"AGE-SECRET-KEY-1"}, expr: `AGE-SECRET-KEY-1[0-9A-Z]{58}`},

		// ---- cloud ----------------------------------------------------------
		{
			// access key ids: long-term AKIA, temporary ASIA, ABIA, ACCA (the
			// unique ids of users and roles, AIDA/AROA/…, are not keys)
			kind: "aws-access-key-id", triggers: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, wordStart: true,
			expr: `\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`,
		},
		{
			kind: "aws-secret-access-key", triggers: []string{"secret"}, fold: true, near: awsBefore, nearAny: true,
			expr: `(?i)aws[_-]?secret(?:[_-]?access)?[_-]?key["']?[ \t]*(?:[:=]|[ \t])[ \t]*["']?(?P<s>[A-Za-z0-9/+=]{16,128})`,
		},
		{
			kind: "aws-secret-access-key", triggers: []string{"secret_access_key", "secretaccesskey", "secret-access-key", "secret_key"}, fold: true,
			expr: `(?i)secret[_-]?(?:access[_-]?)?key["']?[ \t]*(?:[:=]|[ \t]+)[ \t]*["']?(?P<s>[A-Za-z0-9/+]{40})(?:$|[^A-Za-z0-9/+])`,
		},
		{
			// a key pair side by side, as the console's credentials CSV and
			// many tables show it: AKIA…,wJalr… (the secret has no label)
			kind: "aws-secret-access-key", triggers: []string{"AKIA", "ASIA"}, wordStart: true,
			expr: `\b(?:AKIA|ASIA)[A-Z0-9]{16}["']?[ \t]*[,;|:\t ][ \t]*["']?(?P<s>[A-Za-z0-9/+]{40})(?:$|[^A-Za-z0-9/+=])`,
		},
		{kind: "gcp-hmac", triggers: []string{"GOOG1"}, wordStart: true, expr: `\bGOOG1[A-Z0-9]{20,}\b`},
		{kind: "azure", triggers: []string{"AZDO"}, expr: `\b[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}\b`},
		{kind: "aws-mws", triggers: []string{"amzn.mws."}, expr: `amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`},
		{kind: "google-api-key", triggers: []string{"AIza"}, expr: `\bAIza[0-9A-Za-z_-]{35}`},
		{kind: "google-oauth", triggers: []string{"GOCSPX-"}, expr: `\bGOCSPX-[A-Za-z0-9_-]{28}`},
		{kind: "google-oauth", triggers: []string{"ya29."}, wordStart: true, expr: `\bya29\.[0-9A-Za-z_-]{20,}`},
		{kind: "google-oauth", triggers: []string{"1//0"}, wordStart: true, expr: `\b1//0[0-9A-Za-z_-]{30,}`},
		{
			kind: "azure", triggers: []string{"accountkey", "sharedaccesskey", "sharedsecretvalue"}, fold: true,
			expr: `(?i)(?:AccountKey|SharedAccessKey|SharedSecretValue)[ \t]*=[ \t]*(?P<s>[A-Za-z0-9+/]{20,}={0,2})`,
		},
		{
			// Entra ID (Azure AD) client secrets: abc8Q~…
			kind: "azure", triggers: []string{"Q~"},
			expr: `(?:^|[^A-Za-z0-9_~.-])(?P<s>[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?:$|[^A-Za-z0-9_~.-])`,
		},
		{
			// the signature of a signed URL: Azure SAS sig=, S3 presigned
			// X-Amz-Signature=, GCS X-Goog-Signature=, CloudFront Signature=
			kind: "signature", triggers: []string{"sig=", "signature="}, fold: true,
			expr: `(?i)(?:[?&;]sig|x-amz-signature|x-goog-signature|[?&]signature)=(?P<s>[A-Za-z0-9%+/=_.~-]{16,})`,
		},
		{kind: "alibaba", triggers: []string{"LTAI"}, wordStart: true, expr: `\bLTAI[A-Za-z0-9]{12,20}\b`},
		{kind: "digitalocean", triggers: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, expr: `\bdo[opr]_v1_[a-f0-9]{64}`},
		{kind: "databricks", triggers: []string{"dapi"}, wordStart: true, expr: `\bdapi[a-f0-9]{32}(?:-[0-9])?\b`},
		{kind: "vault", triggers: []string{"hvs.", "hvb.", "hvr."}, wordStart: true, expr: `\bhv[sbr]\.[A-Za-z0-9_-]{24,}`},
		{kind: "terraform", triggers: []string{".atlasv1."}, expr: `[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}`},
		{kind: "doppler", triggers: []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."}, expr: `\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`},
		{kind: "pulumi", triggers: []string{"pul-"}, wordStart: true, expr: `\bpul-[a-f0-9]{40}\b`},
		{kind: "heroku", triggers: []string{"HRKU-"}, expr: `\bHRKU-[A-Za-z0-9_-]{60,}`},
		{kind: "flyio", triggers: []string{"fo1_", "fm1", "fm2"}, expr: `\b(?:fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/=,_-]{60,})`},
		{kind: "supabase", triggers: []string{"sbp_"}, expr: `\bsbp_[a-f0-9]{40}`},
		{kind: "planetscale", triggers: []string{"pscale_"}, expr: `\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}`},
		{kind: "netlify", triggers: []string{"nfp_"}, expr: `\bnfp_[A-Za-z0-9]{36}`},
		{kind: "dynatrace", triggers: []string{"dt0c01."}, expr: `\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}`},

		// ---- version control ------------------------------------------------
		{kind: "github", triggers: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, expr: `\bgh[pousr]_[A-Za-z0-9]{36,}\b`},
		{kind: "github", triggers: []string{"github_pat_"}, expr: `\bgithub_pat_[A-Za-z0-9_]{22,}\b`},
		{
			kind: "gitlab",
			triggers: []string{"glpat-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "glsoat-",
				"gloas-", "glffct-", "glwt-", "GR1348941"},
			expr: `\b(?:(?:glpat|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|gloas|glffct|glwt)-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?|GR1348941[A-Za-z0-9_-]{20,})`,
		},
		{kind: "bitbucket", triggers: []string{"ATBB"}, wordStart: true, expr: `\bATBB[A-Za-z0-9_=.-]{28,}`},
		{kind: "atlassian", triggers: []string{"ATATT3", "ATCTT3"}, wordStart: true, expr: `\bAT[AC]TT3[A-Za-z0-9_=-]{60,}`},

		// ---- chat -----------------------------------------------------------
		{kind: "slack", triggers: []string{"xox"}, wordStart: true, expr: `\bxox(?:[abposre]|e\.xox[bp])-[A-Za-z0-9-]{10,}`},
		{kind: "slack", triggers: []string{"xapp-"}, wordStart: true, expr: `\bxapp-[0-9]-[A-Za-z0-9-]{20,}`},
		{kind: "slack-webhook", triggers: []string{"hooks.slack.com"}, expr: `hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9/_-]{20,})`},
		{
			// bot tokens: the bot's id in base64 (M…, N…, O…), a dot, a
			// timestamp, a dot, an HMAC
			kind: "discord", triggers: []string{"MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"}, wordStart: true, near: discordNear, nearAny: true,
			expr: `\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b`,
		},
		{kind: "discord-webhook", triggers: []string{"discord"}, expr: `discord(?:app)?\.com/api/webhooks/[0-9]+/(?P<s>[A-Za-z0-9_-]{40,})`},
		{kind: "telegram", triggers: []string{":AA"}, expr: `(?:^|[^0-9])(?P<s>[0-9]{8,10}:AA[A-Za-z0-9_-]{32,34})\b`},
		{kind: "teams-webhook", triggers: []string{"webhook.office.com"}, expr: `webhook\.office\.com/webhookb2/(?P<s>[A-Za-z0-9@/_-]{20,})`},

		// ---- payments -------------------------------------------------------
		{kind: "stripe", triggers: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_"}, expr: `\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`},
		{kind: "stripe", triggers: []string{"whsec_"}, expr: `\bwhsec_[A-Za-z0-9+/=]{24,}`},
		{kind: "square", triggers: []string{"sq0atp-", "sq0csp-", "sq0idp-"}, expr: `\bsq0(?:atp|csp|idp)-[0-9A-Za-z_-]{22,43}`},
		{kind: "square", triggers: []string{"EAAA"}, wordStart: true, expr: `\bEAAA[A-Za-z0-9_-]{60}\b`},
		{kind: "meta", triggers: []string{"EAA"}, wordStart: true, expr: `\bEAA[A-Za-z0-9]{90,}`},
		{kind: "braintree", triggers: []string{"access_token$"}, expr: `access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}`},
		{kind: "shopify", triggers: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, expr: `\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`},

		// ---- AI providers ---------------------------------------------------
		{kind: "anthropic", triggers: []string{"sk-ant-"}, expr: `\bsk-ant-[A-Za-z0-9_-]{20,}`},
		{kind: "openrouter", triggers: []string{"sk-or-v1-"}, expr: `\bsk-or-v1-[0-9a-f]{64}`},
		{
			// sk-…, sk-proj-…, sk-svcacct-…, sk-admin-…: mixed case and
			// digits, so that sk-learn-style names stay
			kind: "openai", triggers: []string{"sk-"}, wordStart: true,
			expr: `\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`, valid: mixedCase,
		},
		{kind: "deepseek", triggers: []string{"sk-"}, wordStart: true, expr: `\bsk-[0-9a-f]{32}\b`},
		{kind: "huggingface", triggers: []string{"hf_", "api_org_"}, wordStart: true, expr: `\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`, valid: upperLower},
		{kind: "groq", triggers: []string{"gsk_"}, wordStart: true, expr: `\bgsk_[A-Za-z0-9]{48,}`},
		{kind: "replicate", triggers: []string{"r8_"}, wordStart: true, expr: `\br8_[A-Za-z0-9]{37,}`},
		{kind: "xai", triggers: []string{"xai-"}, wordStart: true, expr: `\bxai-[A-Za-z0-9]{70,}`},
		{kind: "perplexity", triggers: []string{"pplx-"}, wordStart: true, expr: `\bpplx-[A-Za-z0-9]{40,}`},
		{kind: "fireworks", triggers: []string{"fw_"}, wordStart: true, expr: `\bfw_[A-Za-z0-9]{24,}\b`, valid: mixedCase},
		{kind: "tavily", triggers: []string{"tvly-"}, wordStart: true, expr: `\btvly-(?:dev-)?[A-Za-z0-9]{30,}`},
		{kind: "langsmith", triggers: []string{"lsv2_"}, wordStart: true, expr: `\blsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}`},
		{kind: "pinecone", triggers: []string{"pcsk_"}, wordStart: true, expr: `\bpcsk_[A-Za-z0-9_]{50,}`},
		{kind: "elevenlabs", triggers: []string{"sk_"}, wordStart: true, expr: `\bsk_[0-9a-f]{48}\b`},
		{kind: "nvidia", triggers: []string{"nvapi-"}, wordStart: true, expr: `\bnvapi-[A-Za-z0-9_-]{60,}`},

		// ---- package registries --------------------------------------------
		{kind: "npm", triggers: []string{"npm_"}, wordStart: true, expr: `\bnpm_[A-Za-z0-9]{36}\b`},
		{kind: "pypi", triggers: []string{"pypi-Ag"}, wordStart: true, expr: `\bpypi-Ag[A-Za-z0-9_-]{50,}`},
		{kind: "rubygems", triggers: []string{"rubygems_"}, wordStart: true, expr: `\brubygems_[0-9a-f]{48}\b`},
		{kind: "docker", triggers: []string{"dckr_pat_", "dckr_oat_"}, wordStart: true, expr: `\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}`},
		{
			// ~/.docker/config.json: "auth": "base64(user:password)"
			kind: "docker", triggers: []string{`"auth"`},
			expr: `"auth"[ \t]*:[ \t]*"(?P<s>[A-Za-z0-9+/=]{8,})"`,
		},
		{kind: "nuget", triggers: []string{"oy2"}, wordStart: true, expr: `\boy2[a-z0-9]{43}\b`},
		{kind: "crates-io", triggers: []string{"cio"}, wordStart: true, expr: `\bcio[A-Za-z0-9]{32}\b`, valid: mixedCase},
		{kind: "clojars", triggers: []string{"CLOJARS_"}, wordStart: true, expr: `\bCLOJARS_[a-z0-9]{60}`},
		{kind: "jfrog", triggers: []string{"AKCp"}, wordStart: true, expr: `\bAKCp[A-Za-z0-9]{69}`},
		{kind: "packagist", triggers: []string{"packagist_"}, wordStart: true, expr: `\bpackagist_[ou]ut_[a-f0-9]{68}`},

		// ---- SaaS -----------------------------------------------------------
		{kind: "sendgrid", triggers: []string{"SG."}, wordStart: true, expr: `\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`},
		{kind: "mailgun", triggers: []string{"key-"}, wordStart: true, pre: runOf(32, lowerHex), expr: `\bkey-[0-9a-f]{32}\b`},
		{kind: "twilio", triggers: []string{"SK"}, wordStart: true, near: hexAfter(2, 32), nearAny: true, expr: `\bSK[0-9a-fA-F]{32}\b`},
		{kind: "linear", triggers: []string{"lin_api_"}, wordStart: true, expr: `\blin_api_[A-Za-z0-9]{40}`},
		{kind: "notion", triggers: []string{"ntn_", "secret_"}, wordStart: true, pre: runOf(40, alnum), expr: `\b(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43})\b`, valid: mixedCase},
		{kind: "postman", triggers: []string{"PMAK-"}, wordStart: true, expr: `\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}`},
		{kind: "newrelic", triggers: []string{"NRAK-", "NRII-"}, wordStart: true, expr: `\bNR(?:AK|II)-[A-Z0-9]{27,32}`},
		{kind: "grafana", triggers: []string{"glc_", "glsa_"}, wordStart: true, expr: `\b(?:glc_[A-Za-z0-9+/=]{32,}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`},
		{kind: "sentry", triggers: []string{"sntrys_", "sntryu_"}, wordStart: true, expr: `\bsntry[su]_[A-Za-z0-9+/=_]{40,}`},
		{kind: "figma", triggers: []string{"figd_"}, wordStart: true, expr: `\bfigd_[A-Za-z0-9_-]{40,}`},
		{kind: "onepassword", triggers: []string{"ops_eyJ"}, wordStart: true, expr: `\bops_eyJ[A-Za-z0-9+/=_-]{100,}`},

		{kind: "mapbox", triggers: []string{"sk.eyJ"}, wordStart: true, expr: `\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`},
		{kind: "contentful", triggers: []string{"CFPAT-"}, wordStart: true, expr: `\bCFPAT-[A-Za-z0-9_-]{43}`},
		{kind: "airtable", triggers: []string{"pat"}, wordStart: true, near: airtableNear, nearAny: true, pre: runOf(64, lowerHex), expr: `\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b`},
		{kind: "cloudflare", triggers: []string{"v1.0-"}, wordStart: true, expr: `\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}`},
		{kind: "circleci", triggers: []string{"CCIPAT_"}, wordStart: true, expr: `\bCCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}`},
		{kind: "buildkite", triggers: []string{"bkua_"}, wordStart: true, expr: `\bbkua_[a-f0-9]{40}`},
		{kind: "sourcegraph", triggers: []string{"sgp_"}, wordStart: true, expr: `\bsgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}`},
		{kind: "sonarqube", triggers: []string{"squ_", "sqp_", "sqa_"}, wordStart: true, expr: `\bsq[upa]_[a-f0-9]{40}`},
		{kind: "twitter", triggers: []string{"AAAAAAAAAAAAAAAAAAAAA"}, expr: `AAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{60,}`, valid: hasPercent},
		{kind: "mailchimp", triggers: []string{"-us"}, near: hexBefore(32), nearAny: true, expr: `\b[0-9a-f]{32}-us[0-9]{1,2}\b`},
		{kind: "aws-ecr", triggers: []string{"eyJwYXlsb2FkIjoi"}, wordStart: true, expr: `\beyJwYXlsb2FkIjoi[A-Za-z0-9+/=]{100,}`},
		{
			// PHP: define('DB_PASSWORD', '…'); (wp-config.php and its salts)
			kind: "credential", triggers: []string{"define("}, wordStart: true,
			expr:  `define\([ \t]*['"][A-Z0-9_]*(?:PASSWORD|PASS|SECRET|KEY|SALT|TOKEN)['"][ \t]*,[ \t]*['"](?P<s>[^'"\n]+)['"]`,
			valid: notPlaceholder,
		},

		// ---- tokens of a known structure -----------------------------------
		{kind: "jwt", triggers: []string{"eyJ"}, wordStart: true, expr: `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`},

		// ---- other spellings ----------------------------------------------
		{
			// lower-cased access key ids (tr A-Z a-z, a case-folding tool)
			kind: "aws-access-key-id", triggers: []string{"akia", "asia"}, wordStart: true,
			expr: `\b(?:akia|asia)[a-z2-7]{16}\b`, valid: hasDigit,
		},
		{
			// a secret split by escapes, in UTF-16 or hex-encoded: matched
			// in its plain form, named after what is found there
			// (encoded.go)
			kind: "credential", triggers: encodedTriggers(), fold: true, scan: scanEncoded, encoded: true,
		},

		// ---- secrets known by their context --------------------------------
		{
			// scheme://user:password@host: only the password goes
			kind: "url-password", triggers: []string{"://"}, scan: scanURLPassword,
		},
		{
			// Authorization: Bearer …, also as curl -v prints it (> …) and in
			// JSON; Proxy-Authorization too
			kind: "authorization", triggers: []string{"authorization"}, fold: true,
			expr:  `(?i)authorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token|bot|negotiate|ntlm|apikey|api-key|key|sso-key|otp|jwt|splunk|ssws|dsn)[ \t]+(?P<s>[^\s"'\[\],;]{4,})`,
			valid: notPlaceholder,
		},
		{kind: "cookie", triggers: []string{"cookie", "-b "}, fold: true, scan: scanCookie},
		{
			// a Netscape cookie jar line (curl -c, wget --save-cookies):
			// domain, flag, path, secure, expiry, name, value
			kind: "cookie", triggers: []string{"\tTRUE\t", "\tFALSE\t"},
			expr:  `^\S+\t(?:TRUE|FALSE)\t\S+\t(?:TRUE|FALSE)\t[0-9]+\t[^\t]+\t(?P<s>[^\t\r]+)`,
			valid: notPlaceholder,
		},
		{
			// .netrc: machine h login u password p on one line
			kind: "netrc", triggers: []string{"machine", "default"}, near: lineStart, pre: hasPassword,
			expr:  `^[ \t]*(?:machine|default)\b.*?\bpassword[ \t]+(?P<s>\S+)`,
			valid: notPlaceholder,
		},
		{
			// .netrc: login u password p, without machine on the line
			kind: "netrc", triggers: []string{"login"}, near: lineStart, pre: hasPassword,
			expr:  `^[ \t]*login[ \t]+\S+[ \t]+password[ \t]+(?P<s>\S+)`,
			valid: notPlaceholder,
		},
		{
			// .netrc: password p on a line of its own
			kind: "netrc", triggers: []string{"password"}, near: lineStart, pre: passwordBlank,
			expr:  `^[ \t]*password[ \t]+(?P<s>\S+)[ \t]*$`,
			valid: notPlaceholder,
		},
		{
			// password=hunter2, DB_PASSWORD: hunter2, "api_key": "…", ?token=…,
			// and YAML, INI and .env values that run to the end of the line
			// ("  password: two words # comment")
			kind: "credential", triggers: labelTriggers, fold: true, scan: scanLabels,
		},
		{
			// XML: <password>…</password>, Maven's settings.xml, NuGet.Config
			kind: "credential", triggers: []string{"password>", "passwd>", "passphrase>", "secret>", "token>", "apikey>", "api_key>", "accesskey>", "access_key>", "privatekey>"}, fold: true,
			expr:  `(?i)<[A-Za-z0-9_.:-]*(?:password|passwd|passphrase|secret|token|api_?key|access_?key|private_?key)>(?P<s>[^<\n]+)</`,
			valid: notPlaceholder,
		},
		{
			// GitHub Actions: ::add-mask::VALUE names a value to hide
			kind: "credential", triggers: []string{"::add-mask::"},
			expr:  `::add-mask::(?P<s>\S+)`,
			valid: notPlaceholder,
		},
		{
			// ~/.pgpass: host:port:database:user:password
			kind: "credential", triggers: []string{":5432:", ":*:"},
			expr:  `^[^:\s]+:(?:[0-9]+|\*):[^:\s]+:[^:\s]+:(?P<s>[^:\s]+)$`,
			valid: notPlaceholder,
		},
		{
			// curl -u user:hunter2, --user=user:hunter2 (the password only)
			kind: "credential", triggers: []string{"-u", "--user"},
			expr:  `(?:^|[\s'"])(?:-u|--user)(?:[ \t]+|=)?["']?[^\s:'"@/]+:(?P<s>[^\s'"]+)`,
			valid: notUserID,
		},
		{
			// --password hunter2, --registry-token=…, --client-secret …
			kind: "credential", triggers: []string{"--"},
			near: flagNear, flagRun: true,
			expr: `(?i)--(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|secret|token|api-?key|api_key|client-secret|secret-key|access-key|secret-access-key)(?:[ \t]+|=)` +
				labelValue,
			valid: notFlagValue,
		},
	}
})

// labelTriggers are the triggers of the label patterns: every way a
// secretWords label can be spelled.
var labelTriggers = []string{"passw", "_pass=", "passphrase", "secret", "token", "_auth", "api_key", "api-key", "apikey", "api.key", "api key", "access key", "access_key", "access-key", "accesskey", "private_key", "private-key", "privatekey", "signing_key", "signing-key", "signingkey", "encryption_key", "encryptionkey", "master_key", "masterkey", "auth_key", "authkey", "subscription-key", "subscription_key", "subscriptionkey", "primarykey", "secondarykey", "dockerconfigjson", "dockercfg", "app_key", "appkey", "app-key", "sharedkey", "shared_key", "hmackey", "hmac_key", "presharedkey", "licensekey", "license_key", "secretid", "secret_id", "pwd"}

// runOf returns a pre check: n bytes in a row that in accepts.
func runOf(n int, in func(c byte) bool) func([]byte) bool {
	return func(line []byte) bool {
		run := 0
		for _, c := range line {
			if !in(c) {
				run = 0
				continue
			}
			if run++; run >= n {
				return true
			}
		}
		return false
	}
}

func lowerHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

func alnum(c byte) bool { return isWord(c) && c != '_' }

// hasPassword is the pre check of the netrc lines that hold "password".
func hasPassword(line []byte) bool {
	return bytes.Contains(line, []byte("password"))
}

// passwordBlank is the pre check of a netrc "password p" line: blanks,
// password, blanks, one token (no \t, \n, \f, \r or space: \S), blanks.
func passwordBlank(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	if len(t) <= 8 || string(t[:8]) != "password" || t[8] != ' ' && t[8] != '\t' {
		return false
	}
	t = bytes.TrimLeft(t[8:], " \t")
	e := 0
	for e < len(t) && !bytes.ContainsRune([]byte("\t\n\f\r "), rune(t[e])) {
		e++
	}
	return e > 0 && len(bytes.Trim(t[e:], " \t")) == 0
}

// awsBefore reports whether "aws" (any case) ends at most one byte before
// position i: aws_secret…, AWS-SECRET…, awssecret….
func awsBefore(line []byte, i int) bool {
	for _, k := range [...]int{3, 4} {
		if i >= k && bytes.EqualFold(line[i-k:i-k+3], []byte("aws")) {
			return true
		}
	}
	return false
}

// lineStart reports whether only blanks come before position i.
func lineStart(line []byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		if line[j] != ' ' && line[j] != '\t' {
			return false
		}
	}
	return true
}

// flagWords are what a credential flag's name ends with.
var flagWords = [...]string{"pass", "passwd", "password", "passphrase", "secret", "token", "key", "api_key", "apikey"}

// flagNear is a cheap look at "--" before the credential-flag expression
// runs: the flag's name must hold one of the flagWords.
func flagNear(line []byte, i int) bool {
	return flagName(line[i+2 : flagEnd(line, i+2)])
}

// flagEnd returns where the run of letters, digits, '_' and '-' that
// starts at k in line ends.
func flagEnd(line []byte, k int) int {
	for k < len(line) && (isWord(line[k]) || line[k] == '-') {
		k++
	}
	return k
}

// maxFlagWord is the length of the longest flagWord: flagName looks at
// no more of a name's end.
const maxFlagWord = len("passphrase")

// flagName reports whether a flag's name ends in one of the flagWords.
func flagName(name []byte) bool {
	// the name is ASCII: compare its end without a lower-case copy
	for _, w := range flagWords {
		if len(name) >= len(w) && bytes.EqualFold(name[len(name)-len(w):], []byte(w)) {
			return true
		}
	}
	return false
}

// discordNear checks a bot token's first part: 23 to 27 token characters
// and a dot.
func discordNear(line []byte, i int) bool {
	j := i
	for j < len(line) && j-i <= 27 && (isWord(line[j]) || line[j] == '-') {
		j++
	}
	return j-i >= 24 && j < len(line) && line[j] == '.'
}

// airtableNear checks "pat" + 14 letters or digits + ".".
func airtableNear(line []byte, i int) bool {
	j := i + 3 + 14
	return j < len(line) && line[j] == '.'
}

// hexBefore returns a near check: n hex digits just before the trigger.
func hexBefore(n int) func([]byte, int) bool {
	return func(line []byte, i int) bool {
		if i < n {
			return false
		}
		for _, c := range line[i-n : i] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
		return true
	}
}

// hasDigit accepts text holding a digit.
func hasDigit(b []byte) bool {
	return bytes.ContainsAny(b, "0123456789")
}

// hasPercent accepts a token holding a URL escape: a Twitter bearer token
// does, base64 of zeros does not.
func hasPercent(b []byte) bool {
	return bytes.IndexByte(b, '%') >= 0
}

// hexAfter returns a near check: n hex digits after a trigger of length k.
func hexAfter(k, n int) func([]byte, int) bool {
	return func(line []byte, i int) bool {
		if len(line)-i < k+n {
			return false
		}
		for _, c := range line[i+k : i+k+n] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return true
	}
}

// mixedCase accepts only text with a digit, an upper- and a lower-case
// letter: generated keys have all three, kebab-case names do not.
func mixedCase(b []byte) bool {
	var d, u, l bool
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			d = true
		case 'A' <= c && c <= 'Z':
			u = true
		case 'a' <= c && c <= 'z':
			l = true
		}
	}
	return d && u && l && !filler(b)
}

// upperLower accepts text with both upper- and lower-case letters.
func upperLower(b []byte) bool {
	var u, l bool
	for _, c := range b {
		u = u || 'A' <= c && c <= 'Z'
		l = l || 'a' <= c && c <= 'z'
	}
	return u && l && !filler(b)
}

// filler reports whether a token is a placeholder made of one repeated
// character after its prefix (ghp_xxxxxxxx…, sk-000000…): half of it or
// more is one character, which random text never is.
func filler(b []byte) bool {
	var count [256]int
	top := 0
	for _, c := range b {
		count[c]++
		top = max(top, count[c])
	}
	return len(b) >= 12 && top*2 >= len(b)
}

// notFlagValue is notPlaceholder, and also rejects what docker build
// --secret takes (id=…,src=…): that names a secret, it is not one.
func notFlagValue(b []byte) bool {
	if b[0] == '-' {
		return false // --no-password --next: the next flag
	}
	if metavar(b) {
		return false // --api-key KEY in a usage text
	}
	if proseWord(strings.ToLower(string(b))) {
		return false // "Using --password via the CLI is insecure"
	}
	for _, p := range []string{"id=", "src=", "env=", "type="} {
		if bytes.HasPrefix(b, []byte(p)) {
			return false
		}
	}
	return notPlaceholder(b)
}

// metavar reports whether b is a usage text's name for a value: TOKEN,
// API_KEY, VALUE.
func metavar(b []byte) bool {
	if len(b) > 24 {
		return false
	}
	for _, c := range b {
		if !('A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// notUserID is notPlaceholder, and also rejects the numeric uid:gid of
// docker run -u 1000:1000.
func notUserID(b []byte) bool {
	return !allDigits(b) && notPlaceholder(b)
}

// proseWord reports whether w, after a flag's name, shows a sentence about
// the flag, not its value. A switch, not a map: a map literal is built at
// init, in every run of guard.
func proseWord(w string) bool {
	switch w {
	case "via", "is", "and", "or", "the", "to", "for", "from", "with", "flag", "option", "instead",
		"must", "should", "was", "has", "can", "cannot", "will", "of", "in", "on", "as", "when", "if",
		"not", "argument", "parameter", "are", "be":
		return true
	}
	return false
}

// notPlaceholder rejects values that are not secrets themselves: a shell
// or template reference ($TOKEN, ${{ secrets.X }}, {{ .Values.x }}), text
// already redacted, a placeholder (changeme, <your-token>, ****), a
// boolean, a type name, a code expression (os.getenv(…), self.password,
// request.form[…]) or a path.
func notPlaceholder(b []byte) bool {
	return len(b) > 0 && !placeholder(b) && !reference(b)
}

// placeholderWord reports whether w (in lower case) is a value people
// write where a secret will go.
func placeholderWord(w string) bool {
	switch w {
	case "changeme", "change-me", "change_me", "changeit", "password", "passwd", "pass", "secret",
		"token", "redacted", "placeholder", "null", "none", "nil", "true", "false", "yes", "no", "on",
		"off", "undefined", "empty", "todo", "tbd", "fixme", "hidden", "masked", "str", "string", "int",
		"bool", "any", "bytes", "secretstr", "optional", "required", "sensitive", "protected", "unset",
		"notset", "not-set", "not_set", "replaceme", "replace-me", "replace_me", "insert", "enter",
		"omitted", "prompt", "stdin", "env", "default", "enabled", "disabled", "iota", "byte", "rune",
		"error", "uintptr", "float32", "float64", "int8", "int16", "int32", "int64", "uint", "uint8",
		"uint16", "uint32", "uint64", "number", "object", "boolean", "test", "testing", "example",
		"sample", "dummy", "foo", "bar", "api_key", "apikey", "api-key":
		return true
	}
	return false
}

func placeholder(b []byte) bool {
	b = bytes.Trim(bytes.TrimSpace(b), `"'`)
	if len(b) <= 1 {
		return true // password=x in a usage text
	}
	// lower-case the start into a buffer on the stack: this runs for
	// every labelled value
	var buf [128]byte
	low := buf[:min(len(b), len(buf))]
	for i := range low {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	if len(b) <= len(buf) && placeholderWord(string(low)) {
		return true
	}
	if smallNumber(b) || b[len(b)-1] == '+' {
		return true // token = -1, SYS_MEMFD_SECRET = 447, "PWD=" + dir
	}
	switch low[0] {
	case '$', '`', '<', '{', '[', '(', '%', '*', '#', '|', '>', '+':
		return true // $VAR, ${{ secrets.X }}, <your-token>, {{ x }}, [REDACTED], (protected), %s, ****, #, YAML's | and >
	}
	for _, p := range placeholderPrefixes {
		if bytes.HasPrefix(low, []byte(p)) {
			return true
		}
	}
	for _, p := range placeholderParts {
		if bytes.Contains(low, []byte(p)) {
			return true
		}
	}
	// one character repeated: xxxxxx, 000000, ......
	return len(b) >= 3 && len(bytes.Trim(b, string(b[:1]))) == 0
}

// smallNumber reports whether b is a number of code or configuration
// rather than a secret: up to four digits, or any negative or 0x number.
func smallNumber(b []byte) bool {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	switch {
	case len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X'):
		for _, c := range b[2:] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return len(b) <= 18
	case len(b) == 0 || !allDigits(b):
		return false
	}
	return neg || len(b) <= 4
}

// placeholderPrefixes and placeholderParts mark a value as a placeholder:
// your-api-key-here, <redacted>, xxx, changeme. Words such as "test" or
// "example" are not among them: a real secret may hold them.
var (
	placeholderPrefixes = [...]string{"your", "insert", "enter-", "enter_", "replace", "xxx", "...", "…", "redacted", "changeme", "placeholder"}
	placeholderParts    = [...]string{"-here", "_here", "xxxx", "****", "••••"}
)

// codeWords in an identifier path mark it as code naming a secret, not the
// secret: self.password, args.token, process.env.API_KEY.
var codeWords = [...]string{"pass", "secret", "token", "key", "auth", "cred", "env", "config", "settings", "getenv"}

func reference(b []byte) bool {
	b = bytes.TrimRight(b, ",;")
	if len(b) == 0 {
		return true
	}
	if bytes.HasPrefix(b, []byte(marker)) {
		return true
	}
	if b[0] == '=' || b[0] == ':' { // ==, :=, ::
		return true
	}
	// os.getenv("X"), request.form['password'], a sentence with a
	// parenthesis; not one word of symbols (django-insecure-7x$%^&*(…)
	if i := bytes.IndexAny(b, "()[]{}"); i > 0 && identStart(b[0]) && (identPath(b[:i]) && callEnd(b) || bytes.ContainsAny(b, " \t")) {
		return true
	}
	// ./file, ../file, ~/file, /dir/file
	if bytes.HasPrefix(b, []byte("./")) || bytes.HasPrefix(b, []byte("../")) || bytes.HasPrefix(b, []byte("~/")) ||
		(b[0] == '/' && bytes.Count(b, []byte("/")) >= 2 && !bytes.ContainsAny(b, "+=")) {
		return true
	}
	// an identifier (or a dotted path of them) that names a secret
	ident := identStart(b[0])
	for _, c := range b {
		if !isWord(c) && c != '.' {
			ident = false
			break
		}
	}
	// without a dot, only a compound name without digits counts
	// (db_password, accessToken): hunter2secret and MyPassw0rd are
	// passwords
	if ident && !bytes.ContainsRune(b, '.') && (!compound(b) || bytes.ContainsAny(b, "0123456789")) {
		ident = false
	}
	if ident {
		low := strings.ToLower(string(b))
		for _, w := range codeWords {
			if strings.Contains(low, w) {
				return true
			}
		}
	}
	return false
}

// compound reports whether an identifier joins words: snake_case or
// camelCase.
func compound(b []byte) bool {
	for i, c := range b {
		if c == '_' && i > 0 && i < len(b)-1 {
			return true
		}
		if i > 0 && 'A' <= c && c <= 'Z' && 'a' <= b[i-1] && b[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// callEnd reports whether a value that starts with a call or an index
// ends as code does: with a bracket, an opening one (the rest was cut at
// a quote: os.environ[), or a field after the last bracket (.token).
func callEnd(b []byte) bool {
	last := bytes.LastIndexAny(b, "()[]{}")
	if last == len(b)-1 {
		return true
	}
	return b[last+1] == '.' && last+2 < len(b) && identPath(b[last+2:])
}

// identPath reports whether b is an identifier or a dotted path of them:
// what comes before the parenthesis of a call.
func identPath(b []byte) bool {
	if !identStart(b[0]) {
		return false
	}
	for _, c := range b {
		if !isWord(c) && c != '.' {
			return false
		}
	}
	return true
}

func identStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// ---- hand-written matchers -------------------------------------------

// The expressions the hand-written matchers use, compiled once per
// Redactor on first use (not at start-up: guard starts for every command).
type keyExprs struct {
	begin, end, oneLine *regexp.Regexp
}

var keyExprSrc = [...]string{
	pemBegin,
	pemEnd,
	pemBegin + `(?:` + pemInner + `*?` + pemEnd + `(?:\\+n)?|(?P<open>` + pemInner + `*))`,
	cookieHeader,
}

// scanPrivateKey finds private keys on one line: a whole block (one line,
// or JSON-escaped with \n), or the start of a block that goes on over the
// next lines (open), which process then follows line by line. A PuTTY
// key's Private-Lines header opens a block the same way.
func scanPrivateKey(r *Redactor, line []byte, sink *spanSink) {
	if i := bytes.Index(line, []byte("Private-Lines:")); i >= 0 {
		rest := bytes.TrimSpace(line[i+len("Private-Lines:"):])
		if len(rest) > 0 && len(rest) <= 4 && allDigits(rest) {
			sink.add(i, len(line), true)
		}
	}
	re := r.keyExpr(2)
	for _, m := range re.FindAllSubmatchIndex(line, -1) {
		open := m[2] >= 0 && m[1] == len(line)
		sink.add(m[0], m[1], open)
	}
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// blockLine decides the fate of a line inside an open private-key block:
// with end ≥ 0 the block ends on it, after line[:end] (its END armour);
// with goesOn the whole line is part of the block (base64, a blank line, an
// encrypted key's headers before the body, a prefixed base64 line as a CI
// log or a diff shows it). Otherwise the block ended before the line.
func (r *Redactor) blockLine(line []byte, st *state) (end int, goesOn bool) {
	if bytes.Contains(line, []byte("PRIVATE KEY")) {
		if m := r.keyExpr(1).FindIndex(line); m != nil {
			return m[1], false
		}
	}
	// The lines of a block carry what its BEGIN line carried before the
	// armour (grep's "id_rsa:", cat -n's number, a log's timestamp): look
	// past as much of each line first.
	if p := st.prefix; p > 0 && p < len(line) && keyLine(line[p:], st) {
		return -1, true
	}
	return -1, keyLine(line, st)
}

// keyLine reports whether line can be one of a private-key block's lines.
func keyLine(line []byte, st *state) bool {
	t := bytes.TrimLeft(line, " \t+->|#*/\"'")
	t = bytes.TrimRight(t, " \t\r\",'")
	t = bytes.TrimSuffix(t, []byte(`\n`))
	if len(t) == 0 {
		return true
	}
	if base64Line(t) {
		st.body = true
		return true
	}
	if !st.body && header(t) {
		return true
	}
	// a prefix (a timestamp) then a long base64 field
	if i := bytes.LastIndexAny(t, " \t"); i >= 0 && len(t)-i-1 >= 16 && base64Line(t[i+1:]) {
		st.body = true
		return true
	}
	return false
}

func base64Line(b []byte) bool {
	for _, c := range b {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// header reports whether b is an armour header (Proc-Type: 4,ENCRYPTED,
// DEK-Info: …, Version: …, Comment: …).
func header(b []byte) bool {
	name, _, ok := bytes.Cut(b, []byte(": "))
	if !ok || len(name) == 0 || len(name) > 32 {
		return false
	}
	for _, c := range name {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// keyExpr returns the i-th of keyExprSrc, compiled on first use.
func (r *Redactor) keyExpr(i int) *regexp.Regexp {
	r.keyOnce[i].Do(func() { r.keyRE[i] = regexp.MustCompile(keyExprSrc[i]) })
	return r.keyRE[i]
}

// scanBase64Key finds a PEM private key encoded in base64 (it starts
// LS0tLS1CRUdJTi, "-----BEGIN"): the run is redacted when its decoded start
// names a PRIVATE KEY, so certificate-authority-data stays. A line that is
// nothing but such a run opens a block: base64 < key wraps at 76.
func scanBase64Key(r *Redactor, line []byte, sink *spanSink) {
	const lead = "LS0tLS1CRUdJTi"
	for off := 0; ; {
		i := bytes.Index(line[off:], []byte(lead))
		if i < 0 {
			return
		}
		i += off
		j := i
		for j < len(line) && (isWord(line[j]) && line[j] != '_' || line[j] == '+' || line[j] == '/' || line[j] == '=') {
			j++
		}
		off = j
		head := line[i:min(j, i+96)]
		head = head[:len(head)/4*4]
		dec := make([]byte, base64.StdEncoding.DecodedLen(len(head)))
		n, _ := base64.StdEncoding.Decode(dec, head)
		if bytes.Contains(dec[:n], []byte("PRIVATE KEY")) {
			// only a line of nothing but the run (base64 < key wraps it
			// at 76) goes on to the next line; a YAML value ends on its own
			whole := len(bytes.TrimSpace(line[:i])) == 0 && len(bytes.TrimSpace(line[j:])) == 0
			sink.add(i, j, whole)
		}
	}
}

// scanURLPassword finds the password in scheme://user:password@host. It is
// written by hand: "://" is common in output, and this costs a few byte
// comparisons where a regexp would cost a microsecond.
func scanURLPassword(_ *Redactor, line []byte, sink *spanSink) {
	for off := 0; ; {
		i := bytes.Index(line[off:], []byte("://"))
		if i < 0 {
			return
		}
		i += off
		off = i + 3
		// a scheme before it
		k := i
		for k > 0 && (isWord(line[k-1]) && line[k-1] != '_' || line[k-1] == '+' || line[k-1] == '.' || line[k-1] == '-') {
			k--
		}
		if k == i {
			continue
		}
		// the authority: up to the first '/', '?', '#', space or quote;
		// its userinfo ends at the last '@'
		a := i + 3
		end := a
		at := -1
		for end < len(line) {
			c := line[end]
			if c == '/' || c == '?' || c == '#' || c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '\\' {
				break
			}
			if c == '@' {
				at = end
			}
			end++
		}
		if at < 0 {
			continue
		}
		colon := bytes.IndexByte(line[a:at], ':')
		if colon < 0 {
			continue
		}
		ps := a + colon + 1
		if ps == at || insideMarker(line, ps) {
			continue
		}
		pw := line[ps:at]
		if placeholder(pw) || pw[0] == '$' {
			continue
		}
		sink.add(ps, at, false)
		off = at
	}
}

// scanLabels finds label: value and label=value pairs whose label ends in
// one of the labelWords, in every notation agents meet: JSON ("apiKey":
// "…"), YAML (password: …), TOML and INI (secret = "…"), .env and shell
// (DB_PASSWORD=…, export TOKEN=…), Go (apiKey := "…"), HTTP headers
// (X-Api-Key: …) and query strings (?token=…&). Written by hand, because it
// runs on every line that holds such a word and a regexp engine would cost
// a hundred times more on text dense with them.
//
// A bare value ends at a blank or one of "'&;,)]}>, except when the label
// starts its line and a blank follows the separator (YAML, INI): then it
// runs to the end of the line, less a trailing # comment.
func scanLabels(_ *Redactor, line []byte, sink *spanSink) {
	scanLinePrefixes(line, sink)
	// colon and eq are the next ':' and '=' at or after j (len(line):
	// none), found by a vector search and looked for again once passed
	colon, eq := -1, -1
	for j := 0; j < len(line); j++ {
		if colon < j {
			colon = indexFrom(line, j, ':')
		}
		if eq < j {
			eq = indexFrom(line, j, '=')
		}
		if j = min(colon, eq); j >= len(line) {
			return
		}
		if j = labelAt(line, j, sink); j < 0 {
			return
		}
	}
}

// scanLinePrefixes runs the label forms that are found from the start of
// the line, not from a separator: a table's row and an environment
// command.
func scanLinePrefixes(line []byte, sink *spanSink) {
	scanTableLabel(line, sink)
	scanEnvCommand(line, sink)
}

// labelAt looks at the separator (':' or '=') at j of line: when a label
// ends before it, its value goes to sink. It returns where the search for
// the next separator goes on (after the value), or -1 when no separator
// after it can hold a value.
func labelAt(line []byte, j int, sink *spanSink) int {
	c := line[j]
	// the label, before the separator: blanks, a closing quote, the name
	k := j
	for k > 0 && (line[k-1] == ' ' || line[k-1] == '\t') {
		k--
	}
	spaceBefore := k < j
	if k > 0 && (line[k-1] == '"' || line[k-1] == '\'') {
		k--
		if k > 0 && line[k-1] == '\\' { // JSON inside a JSON string: \"password\":
			k--
		}
	}
	ne := k
	for k > 0 && (isWord(line[k-1]) || line[k-1] == '-' || line[k-1] == '.') {
		k--
	}
	ok := ne > k && labelName(line[k:ne])
	env := false
	if !ok && ne > k && envPassName(line[k:ne]) {
		ok, env = true, true // DB_PASS=…: _PASS only in an environment name
	}
	if !ok && ne > k {
		if w := spacedLabel(line, k, ne); w != k {
			k, ok = w, true // "API Key: …", "Secret Access Key: …"
		}
	}
	if !ok {
		if ne-k == 5 && bytes.EqualFold(line[k:ne], []byte("value")) {
			return keyValue(line, k, sink) // <add key="ClearTextPassword" value="…"/>
		}
		return j
	}
	if k > 0 && line[k-1] == '/' {
		return j // https://x-access-token:pw@…: the URL's to judge
	}
	if k >= 2 && line[k-2] == '$' && line[k-1] == '{' {
		return j // ${DB_PASSWORD:-default}: a shell expansion
	}
	if docParam(line[:k]) {
		return j // :param password: the password to use
	}
	if nsswitch(line[k:ne], line[j+1:]) {
		return j // /etc/nsswitch.conf: "passwd: files systemd"
	}
	// the separator: = : := => (not == or ::)
	v := j + 1
	if v < len(line) && (c == ':' && line[v] == '=' || c == '=' && line[v] == '>') {
		v++
	}
	if v < len(line) && (line[v] == '=' || line[v] == ':') {
		return v
	}
	blank := v < len(line) && (line[v] == ' ' || line[v] == '\t')
	for v < len(line) && (line[v] == ' ' || line[v] == '\t') {
		v++
	}
	if v >= len(line) {
		return -1
	}
	// an environment assignment: NAME=value, the name in upper case
	// right before '=' and the value right after it, the name starting
	// the line or a word (export X=…, docker run -e X=…, "X=…"): its
	// value is anything up to a blank, whatever its alphabet
	// (django-insecure-7x$%^&*(…)
	envLine := c == '=' && !spaceBefore && !blank && ne == j && upperName(line[k:ne]) &&
		(k == 0 || line[k-1] == ' ' || line[k-1] == '\t' || line[k-1] == '"' || line[k-1] == '\'')
	if env && !envLine {
		return j
	}
	s, e := v, v
	switch q := line[v]; {
	case q == '\\' && v+1 < len(line) && line[v+1] == '"':
		// \"…\" inside a JSON string
		s = v + 2
		i := bytes.Index(line[s:], []byte(`\"`))
		if i < 0 {
			return j
		}
		e = s + i
	case q == '"' || q == '\'':
		s = v + 1
		e = s
		for e < len(line) && line[e] != q {
			if q == '"' && line[e] == '\\' {
				e++
			}
			e++
		}
		if e >= len(line) {
			return j // no closing quote on this line
		}
	case envLine:
		for e < len(line) && line[e] != ' ' && line[e] != '\t' && line[e] != '\r' && line[e] != 0x1b && (k == 0 || line[e] != line[k-1]) {
			e++
		}
	default:
		if blank && labelStartsLine(line[:k]) {
			if t := firstToken(line[v:]); !secretValue(line[k:ne], t, true, false) {
				return v // client_token: str | None = None
			}
			e = len(line)
			if h := bytes.Index(line[v:], []byte(" #")); h >= 0 {
				e = v + h
			}
			for e > v && (line[e-1] == ' ' || line[e-1] == '\t' || line[e-1] == '\r' || line[e-1] == ',' || line[e-1] == ';') {
				e--
			}
			break
		}
		for e < len(line) && !bytes.ContainsRune([]byte(" \t\r\"'`&;,)]}>\x1b"), rune(line[e])) {
			e++
		}
	}
	next := max(j, e-1)
	if quoted := k < ne && ne < len(line) && (line[ne] == '"' || line[ne] == '\''); quoted && s == v && identifier(line[s:e]) {
		return next // {'token': tstring}: a quoted key, a bare name: code
	}
	if lexerToken(line[k:ne], line[s:e]) {
		return next // {token: "keyword.operator"}: a lexer's token type
	}
	if codeLabel(line[k:ne]) && identifier(line[s:e]) && s == v {
		return next // self._token = value: code moving a value around
	}
	if pwdPath(line[k:ne], line[s:e]) {
		return next // PWD=/home/me: the shell's directory, not ODBC's Pwd=
	}
	if e > s && !insideMarker(line, s) && secretValue(line[k:ne], line[s:e], s > v || envLine || c == ':' && blank && labelStartsLine(line[:k]), s > v) &&
		!(c == ':' && blank && s == v && !labelStartsLine(line[:k]) && lowerWord(line[s:e])) {
		sink.add(s, e, false)
	}
	return next
}

// secretValue reports whether value, after label, is a secret. Where the
// form says it is assigned (quoted, an environment line, a YAML key at the
// start of its line), a password label's value counts however short: a
// PIN of three or four digits (PASSWORD=1234), one character in quotes
// (password = "x"). A bare 0 or 1 stays: MYSQL_ALLOW_EMPTY_PASSWORD=1 is a
// switch.
func secretValue(label, value []byte, assigned, quoted bool) bool {
	// notPlaceholder, with each of its checks made once
	if len(value) == 0 || reference(value) {
		return false
	}
	if !placeholder(value) {
		return true
	}
	if !assigned || !passwordLabel(label) {
		return false
	}
	if len(value) == 1 {
		return quoted && value[0] != '*' && value[0] != '$' && value[0] != '-' && value[0] != '.'
	}
	return allDigits(value) && len(value) >= 3 && len(value) <= 4
}

// passwordLabel reports whether a label names a password (not a token, a
// key or a count of them).
func passwordLabel(label []byte) bool {
	for _, w := range [...]string{"password", "passwd", "passphrase"} {
		if len(label) >= len(w) && bytes.EqualFold(label[len(label)-len(w):], []byte(w)) {
			return true
		}
	}
	return false
}

// upperName reports whether b is an environment variable's name: upper
// case letters, digits and '_', starting with a letter or '_'.
func upperName(b []byte) bool {
	if len(b) == 0 || '0' <= b[0] && b[0] <= '9' {
		return false
	}
	for _, c := range b {
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// envPassName reports whether b is an environment name that ends in _PASS
// (DB_PASS, SMTP_PASS): in lower case or alone "pass" is too common a word
// (pass: 12 in a test summary) to mark a secret.
func envPassName(b []byte) bool {
	return len(b) > 5 && string(b[len(b)-5:]) == "_PASS" && upperName(b)
}

// keyValue looks at a value attribute or field at i of line (value=,
// "value":) whose key is named before it, in the same element or object:
// key= or name= (NuGet.Config's <add key="ClearTextPassword" value="…"/>,
// .NET appSettings' <add key="ApiKey" value="…"/>, a property's
// name="db.password" value="…", JSON's {"name": "DB_PASSWORD", "value":
// "…"}). When the key is a label, the value goes to sink. It returns where
// the search for the next separator goes on.
func keyValue(line []byte, i int, sink *spanSink) int {
	if i > 0 && (line[i-1] == '-' || line[i-1] == '.') {
		return i + 5 // data-value=
	}
	vs, ve, ok := attrValue(line, i+5)
	if !ok {
		return i + 5
	}
	name, ok := keyBefore(line, i)
	if ok && (labelName(name) || envPassName(name) || spacedName(name)) && ve > vs && !insideMarker(line, vs) && notPlaceholder(line[vs:ve]) {
		sink.add(vs, ve, false)
	}
	return ve
}

// keyBefore reads back from a value attribute or field at i: the key= or
// name= attribute (or "key": field) right before it, and returns its
// quoted value.
func keyBefore(line []byte, i int) ([]byte, bool) {
	j := i
	if j > 0 && (line[j-1] == '"' || line[j-1] == '\'') {
		j-- // "value": the field's own opening quote
	}
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t' || line[j-1] == ',') {
		j--
	}
	if j == 0 || line[j-1] != '"' && line[j-1] != '\'' {
		return nil, false
	}
	e := j - 1
	s := bytes.LastIndexByte(line[:e], line[e])
	if s < 0 {
		return nil, false
	}
	j = s
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	if j == 0 || line[j-1] != '=' && line[j-1] != ':' {
		return nil, false
	}
	j--
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	if j > 0 && (line[j-1] == '"' || line[j-1] == '\'') {
		j--
	}
	n := j
	for n > 0 && isWord(line[n-1]) {
		n--
	}
	if w := line[n:j]; !bytes.EqualFold(w, []byte("key")) && !bytes.EqualFold(w, []byte("name")) {
		return nil, false
	}
	return line[s+1 : e], true
}

// attrValue reads what follows an attribute's or field's name at i: an
// optional closing quote, blanks, '=' or ':', blanks, and a quoted value,
// whose bounds it returns.
func attrValue(line []byte, i int) (s, e int, ok bool) {
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		i++
	}
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) || line[i] != '=' && line[i] != ':' {
		return 0, 0, false
	}
	i++
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) || line[i] != '"' && line[i] != '\'' {
		return 0, 0, false
	}
	q := line[i]
	end := bytes.IndexByte(line[i+1:], q)
	if end < 0 {
		return 0, 0, false
	}
	return i + 1, i + 1 + end, true
}

// spacedName reports whether a key with blanks spells a label ("API
// Key", "Client Secret").
func spacedName(b []byte) bool {
	if len(b) > 64 || bytes.IndexByte(b, ' ') < 0 {
		return false
	}
	var buf [64]byte
	n := 0
	for _, c := range b {
		if c != ' ' {
			buf[n] = c
			n++
		}
	}
	return labelName(buf[:n])
}

// scanEnvCommand finds the value of an environment variable set by a
// command that takes the name and the value as two words: csh's setenv
// DB_PASSWORD x, a Dockerfile's ENV DB_PASSWORD x.
func scanEnvCommand(line []byte, sink *spanSink) {
	if len(line) == 0 || line[0] != 's' && line[0] != 'E' && line[0] != ' ' && line[0] != '\t' {
		return
	}
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || line[i] != 's' && line[i] != 'E' {
		return
	}
	t := line[i:]
	var rest []byte
	for _, p := range [...]string{"setenv ", "ENV "} {
		if bytes.HasPrefix(t, []byte(p)) {
			rest = t[len(p):]
			break
		}
	}
	if rest == nil {
		return
	}
	rest = bytes.TrimLeft(rest, " \t")
	ne := 0
	for ne < len(rest) && (isWord(rest[ne])) {
		ne++
	}
	if ne == 0 || ne >= len(rest) || rest[ne] != ' ' && rest[ne] != '\t' || !upperName(rest[:ne]) || !(labelName(rest[:ne]) || envPassName(rest[:ne])) {
		return
	}
	v := ne
	for v < len(rest) && (rest[v] == ' ' || rest[v] == '\t') {
		v++
	}
	e := len(rest)
	for e > v && (rest[e-1] == ' ' || rest[e-1] == '\t' || rest[e-1] == '\r') {
		e--
	}
	if e > v && (rest[v] == '"' || rest[v] == '\'') && rest[e-1] == rest[v] && e-v >= 2 {
		v, e = v+1, e-1
	}
	if e == v {
		return
	}
	off := len(line) - len(rest)
	if !insideMarker(line, off+v) && notPlaceholder(rest[v:e]) {
		sink.add(off+v, off+e, false)
	}
}

// indexFrom returns the index of the first c in b at or after i, or
// len(b).
func indexFrom(b []byte, i int, c byte) int {
	if k := bytes.IndexByte(b[i:], c); k >= 0 {
		return i + k
	}
	return len(b)
}

// firstToken returns b up to its first blank, ',' or '|'.
func firstToken(b []byte) []byte {
	if i := bytes.IndexAny(b, " \t,|"); i >= 0 {
		return b[:i]
	}
	return b
}

// nsswitchSources are the sources /etc/nsswitch.conf lists after passwd:.
var nsswitchSources = [...]string{"files", "compat", "systemd", "sss", "ldap", "nis", "db", "winbind", "extrausers", "dns"}

// nsswitch reports whether label: rest is an nsswitch.conf line.
func nsswitch(label, rest []byte) bool {
	if string(label) != "passwd" && string(label) != "shadow" {
		return false
	}
	t := firstToken(bytes.TrimLeft(rest, " \t"))
	for _, w := range nsswitchSources {
		if string(t) == w {
			return true
		}
	}
	return false
}

// docParam reports whether a label is a parameter in documentation:
// ":param token:", "@param password", ":type secret:".
func docParam(pre []byte) bool {
	for _, p := range [...]string{":param ", ":type ", "@param ", ":arg ", ":ivar "} {
		if bytes.HasSuffix(pre, []byte(p)) {
			return true
		}
	}
	return false
}

// lexerToken reports whether a token label holds a lexer's or syntax
// highlighter's token type (keyword.operator, comment, paren.lparen):
// lower-case words and dots. A credential token is random.
func lexerToken(label, value []byte) bool {
	if len(label) < 5 || !bytes.EqualFold(label[len(label)-5:], []byte("token")) {
		return false
	}
	for _, c := range value {
		if !('a' <= c && c <= 'z' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return len(value) > 0
}

// codeLabel reports whether a label is a field of an object in code.
func codeLabel(label []byte) bool {
	for _, p := range [...]string{"self.", "this.", "cls.", "@"} {
		if bytes.HasPrefix(label, []byte(p)) {
			return true
		}
	}
	return false
}

// identifier reports whether b is a bare identifier without digits.
func identifier(b []byte) bool {
	if len(b) == 0 || !identStart(b[0]) {
		return false
	}
	for _, c := range b {
		if !identStart(c) {
			return false
		}
	}
	return true
}

// pwdPath reports whether a label ending in pwd holds a path (PWD, OLDPWD).
func pwdPath(label, value []byte) bool {
	return len(label) >= 3 && bytes.EqualFold(label[len(label)-3:], []byte("pwd")) && len(value) > 0 && (value[0] == '/' || value[0] == '~' || value[0] == '.')
}

// lowerWord reports whether b is one lower-case word: after "invalid
// token: " in an error message that is prose, not a secret.
func lowerWord(b []byte) bool {
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// scanTableLabel finds a label and its value in a table's row, as vault kv
// get prints one: "password    hunter2" (the label first on the line, then
// two blanks or a tab, then one value that ends the line).
func scanTableLabel(line []byte, sink *spanSink) {
	k := 0
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	ne := k
	for ne < len(line) && (isWord(line[ne]) || line[ne] == '-' || line[ne] == '.') {
		ne++
	}
	if ne == k || ne+2 > len(line) || !(line[ne] == '\t' || line[ne] == ' ' && line[ne+1] == ' ') || !labelName(line[k:ne]) {
		return
	}
	v := ne
	for v < len(line) && (line[v] == ' ' || line[v] == '\t') {
		v++
	}
	e := v
	for e < len(line) && line[e] != ' ' && line[e] != '\t' && line[e] != '\r' {
		e++
	}
	if e == v || len(bytes.TrimSpace(line[e:])) != 0 {
		return
	}
	if !insideMarker(line, v) && notPlaceholder(line[v:e]) {
		sink.add(v, e, false)
	}
}

// spacedLabel extends the label line[k:ne] over one word before it when
// the two spell a label with a space ("API Key", "Access Key"), and
// returns where it starts; otherwise k.
func spacedLabel(line []byte, k, ne int) int {
	if !bytes.EqualFold(line[k:ne], []byte("key")) || k < 2 || line[k-1] != ' ' {
		return k
	}
	w := k - 1
	for w > 0 && isWord(line[w-1]) {
		w--
	}
	var buf [64]byte
	n := copy(buf[:], line[w:k-1])
	n += copy(buf[n:], "key")
	if n < len(buf) && labelName(buf[:n]) {
		return w
	}
	return k
}

// labelName reports whether name ends in one of the labelWords (or is
// npm's _auth).
func labelName(name []byte) bool {
	if string(name) == "_auth" {
		return true
	}
	if len(name) >= 14 && bytes.EqualFold(name[len(name)-14:], []byte("existingsecret")) {
		return false // a Helm chart's name of a Kubernetes Secret
	}
	// every labelWord ends in d, e, t, n, y or g: most names are turned
	// away by their last letter (separators do not count)
	j := len(name) - 1
	for j >= 0 && (name[j] == '_' || name[j] == '-' || name[j] == '.') {
		j--
	}
	if j < 0 {
		return false
	}
	switch name[j] | 0x20 {
	case 'd', 'e', 't', 'n', 'y', 'g':
	default:
		return false
	}
	var buf [64]byte
	n := 0
	for i := len(name) - 1; i >= 0 && n < len(buf); i-- {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[len(buf)-1-n] = c
		n++
	}
	low := buf[len(buf)-n:]
	for _, w := range labelWords {
		if bytes.HasSuffix(low, []byte(w)) {
			return true
		}
	}
	return false
}

// labelStartsLine reports whether what comes before a label on its line is
// only blanks, a YAML list dash, export, or an opening quote.
func labelStartsLine(pre []byte) bool {
	pre = bytes.TrimLeft(pre, " \t")
	pre = bytes.TrimPrefix(pre, []byte("- "))
	pre = bytes.TrimPrefix(pre, []byte("export "))
	pre = bytes.Trim(pre, "\"' \t")
	return len(pre) == 0
}

// cookieHeader finds a Cookie or Set-Cookie header (as curl -v, HTTP dumps
// and JSON show them) or curl's -b/--cookie argument.
const cookieHeader = `(?i)(?:\b(set-)?cookie["']?[ \t]*:[ \t]*["']?|(?:^|\s)(?:-b|--cookie)[ \t]+["']?)`

// scanCookie redacts the value of every name=value pair of a Cookie header,
// and of the first pair of a Set-Cookie (the rest are attributes: Path,
// Expires, HttpOnly).
func scanCookie(r *Redactor, line []byte, sink *spanSink) {
	re := r.keyExpr(3)
	for _, m := range re.FindAllSubmatchIndex(line, -1) {
		set := m[2] >= 0
		j := m[1]
		for j < len(line) {
			for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			eq := j
			for eq < len(line) && line[eq] != '=' && line[eq] != ';' && line[eq] != ' ' && line[eq] != '"' && line[eq] != '\'' {
				eq++
			}
			if eq >= len(line) || line[eq] != '=' || eq == j || line[j] == '-' {
				return // not name=value (prove -b --state=slow)
			}
			v := eq + 1
			e := v
			for e < len(line) && line[e] != ';' && line[e] != ' ' && line[e] != '\t' && line[e] != '"' && line[e] != '\'' && line[e] != '\r' {
				e++
			}
			if e > v && notPlaceholder(line[v:e]) && !insideMarker(line, v) {
				sink.add(v, e, false)
			}
			if set || e >= len(line) || line[e] != ';' {
				break
			}
			j = e + 1
		}
	}
}
