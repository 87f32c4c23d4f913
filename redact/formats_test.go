package redact

import (
	"strings"
	"testing"
)

// Fake, format-valid secrets, assembled from pieces so that no complete
// key sits in the source for a scanner to flag. None of them is real.
var (
	alnum40  = "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm12"
	hex64    = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
	b64url86 = "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0X1c2V3b4N5m6Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7"
)

// formatTests: one or more entries for every format redact knows.
var formatTests = []struct{ name, in, want string }{
	// private keys
	{"pem-ec", "-----BEGIN EC " + "PRIVATE KEY-----\n" + pemBody + "\n-----END EC PRIVATE KEY-----\n", "[REDACTED:private-key]\n"},
	{"pem-pkcs8", "-----BEGIN " + "PRIVATE KEY-----\n" + pemBody + "\n" + pemBody + "\n-----END PRIVATE KEY-----", "[REDACTED:private-key]"},
	{"pem-pkcs8-encrypted", "-----BEGIN ENCRYPTED " + "PRIVATE KEY-----\n" + pemBody + "\n-----END ENCRYPTED PRIVATE KEY-----", "[REDACTED:private-key]"},
	{"pem-rsa-encrypted-headers", "-----BEGIN RSA " + "PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,2A3F4E5D6C7B8A9F0E1D2C3B4A596877\n\n" + pemBody + "\n-----END RSA PRIVATE KEY-----\nok", "[REDACTED:private-key]\nok"},
	{"pem-openssh", pemOpenSSH, "[REDACTED:private-key]"},
	{"pem-pgp", "-----BEGIN PGP " + "PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\nlQOYBF" + pemBody + "\n=Xq1b\n-----END PGP PRIVATE KEY BLOCK-----\nafter", "[REDACTED:private-key]\nafter"},
	{"pem-dsa-crlf", "-----BEGIN DSA " + "PRIVATE KEY-----\r\n" + pemBody + "\r\n-----END DSA PRIVATE KEY-----\r\nnext", "[REDACTED:private-key]\r\nnext"},
	{"pem-json-escaped", `{"type": "service_account", "private_key": "-----BEGIN ` + `PRIVATE KEY-----\n` + pemBody + `\n-----END PRIVATE KEY-----\n", "client_email": "x@p.iam.gserviceaccount.com"}`,
		`{"type": "service_account", "private_key": "[REDACTED:private-key]", "client_email": "x@p.iam.gserviceaccount.com"}`},
	{"pem-yaml-indented", "key: |\n  -----BEGIN RSA " + "PRIVATE KEY-----\n  " + pemBody + "\n  -----END RSA PRIVATE KEY-----\nport: 80", "key: |\n  [REDACTED:private-key]\nport: 80"},
	{"pem-ci-prefixed", "2024-05-01T10:00:00.1Z -----BEGIN RSA " + "PRIVATE KEY-----\n2024-05-01T10:00:00.2Z " + pemBody + "\n2024-05-01T10:00:00.3Z -----END RSA PRIVATE KEY-----\n2024-05-01T10:00:00.4Z done",
		"2024-05-01T10:00:00.1Z [REDACTED:private-key]\n2024-05-01T10:00:00.4Z done"},
	{"pem-diff", "+-----BEGIN OPENSSH " + "PRIVATE KEY-----\n+" + pemBody + "\n+-----END OPENSSH PRIVATE KEY-----\n context", "+[REDACTED:private-key]\n context"},
	{"pem-grep-a", "id_rsa:-----BEGIN RSA " + "PRIVATE KEY-----\nid_rsa-" + pemBody + "\nid_rsa-q1w2e3==\nid_rsa:-----END RSA PRIVATE KEY-----\nother.txt:1:x", "id_rsa:[REDACTED:private-key]\nother.txt:1:x"},
	{"pem-cat-n", "     1\t-----BEGIN EC " + "PRIVATE KEY-----\n     2\t" + pemBody + "\n     3\tq1w2==\n     4\t-----END EC PRIVATE KEY-----\n     5\tdone", "     1\t[REDACTED:private-key]\n     5\tdone"},
	{"pem-cut-short-then-text", "-----BEGIN " + "PRIVATE KEY-----\n" + pemBody + "\nError: truncated output", "[REDACTED:private-key]\nError: truncated output"},
	{"putty", "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n" + pemBody[:44] + "\nPrivate-MAC: 8f2e", "PuTTY-User-Key-File-3: ssh-ed25519\n[REDACTED:private-key]\nPrivate-MAC: 8f2e"},
	{"pem-base64-kubeconfig", "    client-key-data: LS0tLS1CRUdJTi" + "BSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVB", "    client-key-data: [REDACTED:private-key]"},
	{"pem-base64-k8s-secret", "  tls.key: LS0tLS1CRUdJTi" + "BQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Fo", "  tls.key: [REDACTED:private-key]"},
	{"age", "AGE-SECRET-KEY-1" + "QYZ3PMJ7J5A3Z9VXLQRHGPW6KZ8NJ4WDUFMCNXG5W2J8YP6LQK4SQ5ZVJR", "[REDACTED:age-secret-key]"},
	// AWS, GCP, Azure, Alibaba and other clouds
	{"aws-abia", "ABIA" + "Q2W3E4R5T6Y7U8I9", "[REDACTED:aws-access-key-id]"},
	{"aws-credentials-file", "[default]\naws_access_key_id = " + awsID + "\naws_secret_access_key = " + awsSecret + "\naws_session_token = IQoJb3JpZ2luX2VjEJr" + alnum40,
		"[default]\naws_access_key_id = [REDACTED:aws-access-key-id]\naws_secret_access_key = [REDACTED:aws-secret-access-key]\naws_session_token = [REDACTED:credential]"},
	{"aws-sts-json", `"SessionToken": "FwoGZXIvYXdzE` + alnum40 + `",`, `"SessionToken": "[REDACTED:credential]",`},
	{"aws-secret-key-colon", "secret_key: " + awsSecret, "secret_key: [REDACTED:aws-secret-access-key]"},
	{"aws-csv", "bob,," + awsID + "," + awsSecret + ",https://123456789012.signin.aws.amazon.com/console", "bob,,[REDACTED:aws-access-key-id],[REDACTED:aws-secret-access-key],https://123456789012.signin.aws.amazon.com/console"},
	{"gcp-hmac", "GOOG1E" + "Q2W3E4R5T6Y7U8I9O0P1A2S3D4F5G6H7J8K9L0Z1X2C3V4B5N6M7", "[REDACTED:gcp-hmac]"},
	{"azure-devops-pat", alnum40 + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2" + "AZDO" + "Xy12", "[REDACTED:azure]"},
	{"aws-mws", "amzn.mws." + "4ea38b7b-f563-7709-4bae-87aeaf4b2c3d", "[REDACTED:aws-mws]"},
	{"gcp-oauth-secret", `"client_secret": "GOCSPX-` + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9S" + `"`, `"client_secret": "[REDACTED:google-oauth]"`},
	{"google-ya29", "access_token=ya29." + "a0AfB_byC" + alnum40, "access_token=[REDACTED:google-oauth]"},
	{"google-refresh", "refresh: 1//0" + "gLq2w3e4r5t6y7u8i9o0p-AbCdEfGhIjKl", "refresh: [REDACTED:google-oauth]"},
	{"azure-conn-string", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + b64url86 + "==;EndpointSuffix=core.windows.net",
		"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure];EndpointSuffix=core.windows.net"},
	{"azure-servicebus", "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=" + alnum40 + "=",
		"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=[REDACTED:azure]"},
	{"azure-sas", "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sp=r&se=2030-01-01&sig=Xy1%2BzW2" + "AbCdEfGhIjKlMn%3D",
		"https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sp=r&se=2030-01-01&sig=[REDACTED:signature]"},
	{"azure-ad-secret", "AZURE_CLIENT_SECRET2 " + "abc8Q~" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz", "AZURE_CLIENT_SECRET2 [REDACTED:azure]"},
	{"s3-presigned", "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=" + hex64, "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=[REDACTED:signature]"},
	{"alibaba", "LTAI" + "5tQw8Er7Ty6Ui5Op", "[REDACTED:alibaba]"},
	{"digitalocean", "dop_v1_" + hex64, "[REDACTED:digitalocean]"},
	{"databricks", "dapi" + hex64[:32], "[REDACTED:databricks]"},
	{"vault", "VAULT_TOKEN hvs." + "CAESIJ" + alnum40, "VAULT_TOKEN [REDACTED:vault]"},
	{"terraform-cloud", "token = \"" + "AbCdEfGhIjKlMn" + ".atlasv1." + b64url86[:70] + "\"", "token = \"[REDACTED:terraform]\""},
	{"doppler", "dp.pt." + alnum40 + "abc", "[REDACTED:doppler]"},
	{"pulumi", "pul-" + hex64[:40], "[REDACTED:pulumi]"},
	{"heroku", "HRKU-" + b64url86[:64], "[REDACTED:heroku]"},
	{"supabase", "sbp_" + hex64[:40], "[REDACTED:supabase]"},
	{"planetscale", "pscale_tkn_" + alnum40, "[REDACTED:planetscale]"},
	{"netlify", "nfp_" + alnum40[:36], "[REDACTED:netlify]"},
	// VCS
	{"github-ghu", "ghu_" + alnum40[:36], "[REDACTED:github]"},
	{"github-ghs", "x-access-token " + "ghs_" + alnum40[:36], "x-access-token [REDACTED:github]"},
	{"github-ghr", "ghr_" + alnum40[:36], "[REDACTED:github]"},
	{"gitlab-deploy", "gldt-" + "Ab12Cd34Ef56Gh78Ij90", "[REDACTED:gitlab]"},
	{"gitlab-runner", "token = \"glrt-" + "t1_Ab12Cd34Ef56Gh78Ij90Kl\"", "token = \"[REDACTED:gitlab]\""},
	{"gitlab-cbt", "glcbt-" + "64_Ab12Cd34Ef56Gh78Ij90", "[REDACTED:gitlab]"},
	{"gitlab-routable", "glpat-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn3" + ".01.1a2b3c4d5", "[REDACTED:gitlab]"},
	{"gitlab-runner-registration", "GR1348941" + "Ab12Cd34Ef56Gh78Ij90", "[REDACTED:gitlab]"},
	{"bitbucket", "ATBB" + alnum40, "[REDACTED:bitbucket]"},
	{"atlassian", "ATATT3" + "xFfGF0" + b64url86[:80], "[REDACTED:atlassian]"},
	// chat
	{"slack-user", "xoxp-" + "1234567890-1234567890-1234567890-" + hex64[:32], "[REDACTED:slack]"},
	{"slack-app", "xapp-1-" + "A01ABCDEF12-1234567890123-" + hex64, "[REDACTED:slack]"},
	{"slack-webhook", "https://hooks.slack.com/services/" + "T01ABCDEF/B02ABCDEF/" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8", "https://hooks.slack.com/services/[REDACTED:slack-webhook]"},
	{"discord-bot", "Bot " + "MTA1NjQ3ODkwMTIzNDU2Nzg5MA" + ".GaBcDe." + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0U", "Bot [REDACTED:discord]"},
	{"discord-webhook", "https://discord.com/api/webhooks/123456789012345678/" + b64url86[:68], "https://discord.com/api/webhooks/123456789012345678/[REDACTED:discord-webhook]"},
	{"telegram", "https://api.telegram.org/bot" + "123456789:AA" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1" + "/getMe", "https://api.telegram.org/bot[REDACTED:telegram]/getMe"},
	{"teams-webhook", "https://acme.webhook.office.com/webhookb2/" + "4c1a2b3c-1234-5678-9abc-def012345678@1a2b/IncomingWebhook/" + hex64[:32], "https://acme.webhook.office.com/webhookb2/[REDACTED:teams-webhook]"},
	// payments
	{"stripe-test", "sk_test_" + "51H8hG2eZvKYlo2C0aBcDeFg", "[REDACTED:stripe]"},
	{"stripe-webhook", "STRIPE_WEBHOOK whsec_" + alnum40[:32], "STRIPE_WEBHOOK [REDACTED:stripe]"},
	{"square-token", "sq0atp-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7O", "[REDACTED:square]"},
	{"square-secret", "sq0csp-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4C", "[REDACTED:square]"},
	{"square-eaaa", "EAAA" + b64url86[:60], "[REDACTED:square]"},
	{"braintree", "access_token$production$" + "abcd1234efgh5678$" + hex64[:32], "[REDACTED:braintree]"},
	{"shopify", "shpat_" + hex64[:32], "[REDACTED:shopify]"},
	// AI providers
	{"openai-svcacct", "sk-svcacct-" + b64url86[:60], "[REDACTED:openai]"},
	{"openai-legacy", "sk-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn" + "T3BlbkFJ" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn", "[REDACTED:openai]"},
	{"anthropic-admin", "sk-ant-admin01-" + b64url86, "[REDACTED:anthropic]"},
	{"openrouter", "sk-or-v1-" + hex64, "[REDACTED:openrouter]"},
	{"deepseek", "sk-" + hex64[:32], "[REDACTED:deepseek]"},
	{"huggingface", "HF_TOKEN " + "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh", "HF_TOKEN [REDACTED:huggingface]"},
	{"groq", "gsk_" + alnum40 + "Ab1Cd2Ef3Gh4", "[REDACTED:groq]"},
	{"replicate", "r8_" + alnum40[:37], "[REDACTED:replicate]"},
	{"xai", "xai-" + b64url86[:80], "[REDACTED:xai]"},
	{"perplexity", "pplx-" + alnum40 + "Ab1Cd2Ef", "[REDACTED:perplexity]"},
	{"tavily", "tvly-dev-" + alnum40[:32], "[REDACTED:tavily]"},
	{"langsmith", "lsv2_pt_" + hex64[:32] + "_" + hex64[:10], "[REDACTED:langsmith]"},
	{"pinecone", "pcsk_" + alnum40 + "_" + alnum40, "[REDACTED:pinecone]"},
	{"elevenlabs", "sk_" + hex64[:48], "[REDACTED:elevenlabs]"},
	{"nvidia", "nvapi-" + b64url86[:64], "[REDACTED:nvidia]"},
	// registries
	{"pypi", "password = pypi-AgEIcHlwaS5vcmc" + b64url86[:60], "password = [REDACTED:pypi]"},
	{"rubygems", ":rubygems_api_key: rubygems_" + hex64[:48], ":rubygems_api_key: [REDACTED:rubygems]"},
	{"docker-pat", "echo dckr_pat_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9" + " | docker login -u me --password-stdin", "echo [REDACTED:docker] | docker login -u me --password-stdin"},
	{"docker-config-auth", `		"https://index.docker.io/v1/": {"auth": "bWU6czNjcjN0cGFzcw=="}`, `		"https://index.docker.io/v1/": {"auth": "[REDACTED:docker]"}`},
	{"nuget", "oy2" + "abcdefghijklmnopqrstuvwxyz0123456789abcdefg", "[REDACTED:nuget]"},
	{"jfrog", "AKCp" + alnum40 + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St", "[REDACTED:jfrog]"},
	{"npmrc-auth", "_auth=bWU6czNjcjN0cGFzcw==", "_auth=[REDACTED:credential]"},
	// SaaS
	{"sendgrid", "SG." + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7O" + "." + b64url86[:43], "[REDACTED:sendgrid]"},
	{"mailgun", "key-" + hex64[:32], "[REDACTED:mailgun]"},
	{"twilio", "SK" + hex64[:32], "[REDACTED:twilio]"},
	{"linear", "lin_api_" + alnum40, "[REDACTED:linear]"},
	{"notion", "ntn_" + alnum40 + "Ab1", "[REDACTED:notion]"},
	{"postman", "PMAK-" + hex64[:24] + "-" + hex64[:34], "[REDACTED:postman]"},
	{"newrelic", "NRAK-" + "AB12CD34EF56GH78IJ90KL12MN3", "[REDACTED:newrelic]"},
	{"grafana", "glsa_" + alnum40[:32] + "_" + hex64[:8], "[REDACTED:grafana]"},
	{"sentry", "sntrys_" + "eyJpYXQiOjE3MDAwMDAwMDB9" + alnum40, "[REDACTED:sentry]"},
	{"flyio", "fo1_" + b64url86[:43], "[REDACTED:flyio]"},
	{"dynatrace", "dt0c01." + "AB12CD34EF56GH78IJ90KL12" + "." + strings.ToUpper(hex64), "[REDACTED:dynatrace]"},
	{"meta", "EAAB" + b64url86 + "Ab1Cd2Ef3Gh4", "[REDACTED:meta]"},
	{"fireworks", "fw_" + alnum40[:24], "[REDACTED:fireworks]"},
	{"crates-io", "cio" + alnum40[:32], "[REDACTED:crates-io]"},
	{"clojars", "CLOJARS_" + hex64[:60], "[REDACTED:clojars]"},
	{"packagist", "packagist_uut_" + hex64 + "abcd", "[REDACTED:packagist]"},
	{"onepassword", "ops_eyJ" + b64url86 + b64url86[:20], "[REDACTED:onepassword]"},
	{"figma", "figd_" + b64url86[:40], "[REDACTED:figma]"},
	// tokens with structure
	{"jwt-bearer", "Authorization: Bearer " + jwt, "Authorization: Bearer [REDACTED:jwt]"},
	// context
	{"url-redis-no-user", "redis://:" + "p4ssw0rdRedis@cache:6379/0", "redis://:[REDACTED:url-password]@cache:6379/0"},
	{"url-git-remote", "origin\thttps://x-access-token:" + "s3cretTok3n@github.com/o/r.git (fetch)", "origin\thttps://x-access-token:[REDACTED:url-password]@github.com/o/r.git (fetch)"},
	{"url-amqp", "AMQP_URL=amqp://guest:" + "Gu3stPassw0rd@rabbit:5672/", "AMQP_URL=amqp://guest:[REDACTED:url-password]@rabbit:5672/"},
	{"curl-v-auth", "> Authorization: Basic " + "YWxpY2U6czNjcjN0", "> Authorization: Basic [REDACTED:authorization]"},
	{"proxy-auth", "Proxy-Authorization: Basic " + "YWxpY2U6czNjcjN0", "Proxy-Authorization: Basic [REDACTED:authorization]"},
	{"auth-json", `"Authorization": "Bearer ` + "abcDEF123456ghiJKL" + `"`, `"Authorization": "Bearer [REDACTED:authorization]"`},
	{"cookie", "> Cookie: session=" + "abc123def456; theme=dark", "> Cookie: session=[REDACTED:cookie]; theme=[REDACTED:cookie]"},
	{"set-cookie", "< Set-Cookie: sid=" + "Zx9Qw8Er7Ty6; Path=/; HttpOnly; Secure", "< Set-Cookie: sid=[REDACTED:cookie]; Path=/; HttpOnly; Secure"},
	{"cookie-curl-b", "curl -b 'session=" + "abc123def456' https://x", "curl -b 'session=[REDACTED:cookie]' https://x"},
	{"cookie-jar", ".example.com\tTRUE\t/\tTRUE\t1893456000\tsession\t" + "Zx9Qw8Er7Ty6Ui5Op4", ".example.com\tTRUE\t/\tTRUE\t1893456000\tsession\t[REDACTED:cookie]"},
	{"netrc-one-line", "machine api.example.com login bob password " + "Hunter2Hunter2", "machine api.example.com login bob password [REDACTED:netrc]"},
	{"netrc-lines", "machine api.example.com\n  login bob\n  password " + "Hunter2Hunter2\n", "machine api.example.com\n  login bob\n  password [REDACTED:netrc]\n"},
	{"flag-token", "gh --registry-token=" + "Zx9Qw8Er7Ty6", "gh --registry-token=[REDACTED:credential]"},
	{"flag-client-secret", "az login --client-secret " + "Zx9Qw8Er7Ty6 --tenant t", "az login --client-secret [REDACTED:credential] --tenant t"},
	{"yaml-password", "  password: " + "correct horse battery", "  password: [REDACTED:credential]"},
	{"yaml-comment", "db_password: " + "s3cr3t-value # prod", "db_password: [REDACTED:credential] # prod"},
	{"toml-secret", `client_secret = "` + "Zx9Qw8Er7Ty6" + `"`, `client_secret = "[REDACTED:credential]"`},
	{"ini-password", "password = " + "two words", "password = [REDACTED:credential]"},
	{"json-escaped-quote", `{"password": "ab\"cd` + "ef" + `"}`, `{"password": "[REDACTED:credential]"}`},
	{"env-file", "export STRIPE_SECRET=" + "plainvalue99", "export STRIPE_SECRET=[REDACTED:credential]"},
	{"rails-secret-key-base", "secret_key_base: " + hex64, "secret_key_base: [REDACTED:credential]"},
	{"kube-token", "    token: " + "kubeadm.abcdef0123456789", "    token: [REDACTED:credential]"},
	{"api-key-header", "> X-Api-Key: " + "Zx9Qw8Er7Ty6Ui5", "> X-Api-Key: [REDACTED:credential]"},
	{"subscription-key", "Ocp-Apim-Subscription-Key: " + hex64[:32], "Ocp-Apim-Subscription-Key: [REDACTED:credential]"},
	{"private-token-header", "PRIVATE-TOKEN: " + "Zx9Qw8Er7Ty6", "PRIVATE-TOKEN: [REDACTED:credential]"},
	{"passphrase", "passphrase=" + "Zx9Qw8Er7Ty6", "passphrase=[REDACTED:credential]"},
	{"php-arrow", `'password' => '` + "Zx9Qw8Er7Ty6" + `',`, `'password' => '[REDACTED:credential]',`},
	{"xml-maven", "<server><id>repo</id><username>me</username><password>" + "Zx9Qw8Er7Ty6" + "</password></server>", "<server><id>repo</id><username>me</username><password>[REDACTED:credential]</password></server>"},
	{"vault-table", "password    " + "Zx9Qw8Er7Ty6", "password    [REDACTED:netrc]"},
	{"vault-table-key", "api_key\t" + "Zx9Qw8Er7Ty6", "api_key\t[REDACTED:credential]"},
	{"add-mask", "::add-mask::" + "Zx9Qw8Er7Ty6", "::add-mask::[REDACTED:credential]"},
	{"pgpass", "db.example.com:5432:app:app:" + "Zx9Qw8Er7Ty6", "db.example.com:5432:app:app:[REDACTED:credential]"},
	{"dockerconfigjson", "  .dockerconfigjson: eyJhdXRocyI6eyJnaGNyLmlvIjp7ImF1dGgiOiJabUZyWlE9PSJ9fX0=", "  .dockerconfigjson: [REDACTED:credential]"},
	{"jdbc", "jdbc:mysql://db:3306/app?user=root&password=" + "Zx9Qw8Er7Ty6", "jdbc:mysql://db:3306/app?user=root&password=[REDACTED:credential]"},
	{"okta-ssws", "Authorization: SSWS " + "00" + alnum40, "Authorization: SSWS [REDACTED:authorization]"},
	{"django", "SECRET_KEY = 'django-insecure-" + "Zx9Qw8Er7Ty6Ui5'", "SECRET_KEY = '[REDACTED:credential]'"},
	{"laravel", "APP_KEY=base64:" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz=", "APP_KEY=[REDACTED:credential]"},
	{"wireguard", "PresharedKey = " + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm12A=", "PresharedKey = [REDACTED:credential]"},
	{"wp-config", "define( 'DB_PASSWORD', '" + "Zx9Qw8Er7Ty6" + "' );", "define( 'DB_PASSWORD', '[REDACTED:credential]' );"},
	{"wp-salt", "define('AUTH_KEY',         '" + "Zx9Qw8Er7Ty6 ^%$#@!" + "');", "define('AUTH_KEY',         '[REDACTED:credential]');"},
	{"odbc", "Driver={ODBC};Server=db;UID=sa;PWD=" + "Zx9Qw8Er7Ty6;", "Driver={ODBC};Server=db;UID=sa;PWD=[REDACTED:credential];"},
	{"consul", "SecretID:          " + "7c9e6679-7425-40de-944b-e07fc1f90ae7", "SecretID:          [REDACTED:credential]"},
	{"mapbox", "sk.eyJ1Ijoib2N0byIsImEiOiJjbGZha2UifQ." + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7O", "[REDACTED:mapbox]"},
	{"contentful", "CFPAT-" + b64url86[:43], "[REDACTED:contentful]"},
	{"airtable", "pat" + "Ab1Cd2Ef3Gh4Ij" + "." + hex64, "[REDACTED:airtable]"},
	{"cloudflare-origin-ca", "v1.0-" + hex64[:24] + "-" + hex64 + hex64 + hex64[:18], "[REDACTED:cloudflare]"},
	{"circleci", "CCIPAT_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7O" + "_" + hex64[:40], "[REDACTED:circleci]"},
	{"buildkite", "bkua_" + hex64[:40], "[REDACTED:buildkite]"},
	{"sourcegraph", "sgp_" + hex64[:16] + "_" + hex64[:40], "[REDACTED:sourcegraph]"},
	{"sonarqube", "squ_" + hex64[:40], "[REDACTED:sonarqube]"},
	{"twitter", "AAAAAAAAAAAAAAAAAAAAA" + "Ab1Cd2Ef3Gh4%3D" + alnum40 + alnum40, "[REDACTED:twitter]"},
	{"mailchimp", hex64[:32] + "-us21", "[REDACTED:mailchimp]"},
	{"aws-ecr", "eyJwYXlsb2FkIjoi" + b64url86 + b64url86[:30] + "==", "[REDACTED:aws-ecr]"},
	{"json-in-json", `{"log":"{\"user\":\"bob\",\"password\":\"` + "Zx9Qw8Er7Ty6" + `\"}"}`, `{"log":"{\"user\":\"bob\",\"password\":\"[REDACTED:credential]\"}"}`},
	{"netrc-login-line", "  login bob password " + "Zx9Qw8Er7Ty6", "  login bob password [REDACTED:netrc]"},
	{"bearer-percent", "Authorization: Bearer " + "abc%2Fdef%3D123456", "Authorization: Bearer [REDACTED:authorization]"},
	{"numeric-pin", "pin_password: " + "482913", "pin_password: [REDACTED:credential]"},
	{"spaced-api-key", "Your API Key: " + "Zx9Qw8Er7Ty6Ui5", "Your API Key: [REDACTED:credential]"},
	{"spaced-access-key", "Secret Access Key: " + "Zx9Qw8Er7Ty6Ui5", "Secret Access Key: [REDACTED:credential]"},
	{"spaced-client-secret", "Client Secret: " + "Zx9Qw8Er7Ty6Ui5", "Client Secret: [REDACTED:credential]"},
	{"go-const", `const apiKey = "` + "Zx9Qw8Er7Ty6" + `"`, `const apiKey = "[REDACTED:credential]"`},
}

// keepTests must come out byte for byte as they went in.
var keepTests = []string{
	"commit 3f786850e387550fdab836ed7e6dc881de23001b",
	"Merge: 1a2b3c4 5d6e7f8",
	"123e4567-e89b-12d3-a456-426614174000",
	`"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXGOFjnOIpULQrnrMPaB6ilVZmmSfg=="`,
	"golang.org/x/sys v0.20.0 h1:Od9JTbYCk261bKm4M/mw7AklTlFYIa0bIp9BgSm1S8Y=",
	"golang.org/x/sys v0.20.0/go.mod h1:/VUhepiaJMQUp4+oa/7Zr1D23ma6VTLIYjOOTFZPUcA=",
	"docker.io/library/alpine@sha256:c5b1261d6d3e43071626931fc004f70149baeba2c8ec672bd4f27761f8e1ad6b",
	"Digest: sha256:c5b1261d6d3e43071626931fc004f70149baeba2c8ec672bd4f27761f8e1ad6b",
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt",
	"d41d8cd98f00b204e9800998ecf8427e  -",
	"SGVsbG8sIHRoaXMgaXMganVzdCBvcmRpbmFyeSB0ZXh0IGVuY29kZWQgaW4gYmFzZTY0Lg==",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl bob@laptop",
	"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC3" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz bob@host",
	"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + alnum40 + "\n-----END PUBLIC KEY-----",
	"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----",
	"    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Fo",
	"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBF" + alnum40 + "\n-----END PGP PUBLIC KEY BLOCK-----",
	"arn:aws:iam::123456789012:role/deploy-role",
	"arn:aws:s3:::my-bucket/path/to/object",
	`"Account": "123456789012",`,
	`"UserId": "AIDA` + `Q2W3E4R5T6Y7U8I9O",`,
	`"RoleId": "AROA` + `Q2W3E4R5T6Y7U8I9O",`,
	"token: ${{ secrets.GITHUB_TOKEN }}",
	"GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
	"export TOKEN=$GITHUB_TOKEN",
	"password: <redacted>",
	"api_key: your-api-key-here",
	"OPENAI_API_KEY=sk-your-key-here",
	"password: changeme",
	"password = xxx",
	"secret: ********",
	"DB_PASSWORD=${DB_PASSWORD:-}",
	"api_key = os.getenv(\"OPENAI_API_KEY\")",
	"    password = request.form['password']",
	"  apiKey: process.env.API_KEY,",
	"token := os.Getenv(\"TOKEN\")",
	"if password == \"\" {",
	"    password: str = Field(...)",
	"//registry.npmjs.org/:_authToken = (protected)",
	"password_hash: $2b$12$KIXQJrZ1k0vW1L6m8s3Heu",
	"tokens used: 1532, prompt_tokens=1200 completion_tokens=332",
	`"max_tokens": 4096,`,
	"secretName: db-credentials",
	"kind: Secret",
	"type: kubernetes.io/dockerconfigjson",
	"python train.py --tokenizer=bert-base-uncased",
	"docker build --secret id=npmrc,src=$HOME/.npmrc .",
	"docker login --password-stdin",
	"git push -u origin main",
	"ok  \tgithub.com/example/project/internal/token\t0.123s",
	"https://github.com/guard-dev/guard/blob/main/redact/redact.go#L10",
	"git@github.com:guard-dev/guard.git",
	"Cloning into 'guard'... remote: Enumerating objects: 1523, done.",
	"npm WARN deprecated inflight@1.0.6: This module is not supported",
	"added 234 packages, and audited 235 packages in 3s",
	"curl: (22) The requested URL returned error: 401",
	"< HTTP/2 200",
	"< content-type: application/json; charset=utf-8",
	"* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
	"access_key     ****************ABCD shared-credentials-file",
	"secret_key     ****************WXYZ shared-credentials-file",
	"    region                us-east-1      config-file    ~/.aws/config",
	"db_password = <sensitive>",
	"Outputs:\n\ninstance_ip = \"10.0.1.23\"",
	"aws_session_token =",
	"export HISTCONTROL=ignoredups",
	"sk-learn-examples-for-beginners-v2",
	"The password policy requires 12 characters; the secret is rotated daily.",
	"Set-Cookie: (none)",
	"<REDACTED>",
	"postgres://user@localhost:5432/db",
	"https://user:${PASSWORD}@host/x",
	"mongodb+srv://user:<password>@cluster0.mongodb.net/",
	"  password: \"{{ .Values.db.password }}\"",
	"MTIzNDU2Nzg5MA is base64 but no token",
	"TASK [deploy : Install packages] *****",
	"uses: actions/checkout@v4",
	"EAAB is a prefix of nothing",
	"hf_hub_download(repo_id='x')",
	"1//comment-like",
	"1 passed, 0 failed; pass: 12",
}

func TestFormats(t *testing.T) {
	r := New(nil)
	for _, tt := range formatTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := r.String(tt.want); again != tt.want {
				t.Errorf("not idempotent: %q", again)
			}
		})
	}
}

func TestKeep(t *testing.T) {
	r := New(nil)
	for _, in := range append(keepTests, keepProse...) {
		if got := r.String(in); got != in {
			t.Errorf("touched:\n  in %q\n got %q", in, got)
		}
	}
}

// TestFormatCount keeps the documented count honest: every kind the table
// names has a test here or in redact_test.go.
func TestFormatCount(t *testing.T) {
	tested := map[string]bool{}
	for _, tt := range formatTests {
		for _, k := range kindsIn(tt.want) {
			tested[k] = true
		}
	}
	for _, tt := range redactTests {
		for _, k := range kindsIn(tt.want) {
			tested[k] = true
		}
	}
	kinds := map[string]bool{}
	for _, p := range builtin() {
		kinds[p.kind] = true
		if !tested[p.kind] {
			t.Errorf("kind %s has no test", p.kind)
		}
	}
	t.Logf("%d patterns, %d kinds", len(builtin()), len(kinds))
}

func kindsIn(s string) []string {
	var ks []string
	for {
		i := strings.Index(s, marker)
		if i < 0 {
			return ks
		}
		s = s[i+len(marker):]
		if j := strings.IndexByte(s, ']'); j >= 0 {
			ks = append(ks, s[:j])
		}
	}
}

var keepProse = []string{
	"Primary key: id",
	"sort key: name",
	"    $ prove -b --state=slow -j9",
	`    _('*** Seen unexpected token "%(token)s"') % {'token': 'test'}`,
	"                'token': tstring,",
	`{token:"string.quoted.single",regex:"'[a-zA-Z_]'"},{defaultToken:"comment"}`,
	"passwd:         files systemd",
	"        self._token = value",
	"# For a non-default password file location use the following line",
	"root:*:20228:0:99999:7:::",
	"        client_token: str | None,",
	"        next_token: str | None = None,",
	"    :param password: The plaintext password.",
	"    password: str, method: str = \"scrypt\", salt_length: int = 16",
	"	token = -1",
	"	SYS_MEMFD_SECRET            = 447",
	"	SIOCGLIFTOKEN                 = -0x3f879678",
	"	Cm2Token        uint32",
	"	illegalTok token = iota",
	"	token := pageToken{LastUID: uid}",
	`		cmd.Env = append(os.Environ(), "PWD="+cmd.Dir, "GOROOT="+build.Default.GOROOT)`,
	`		"NACLENV_NACLPWD=" + strings.Replace(pwd, runtime.GOROOT(), "/go", 1),`,
	"Please login with your password to continue",
	"PWD=/home/octo/app",
	"OLDPWD=/",
	"path: /usr/local/bin pattern: *.go",
	"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	"  AccessorID:       7c9e6679-7425-40de-944b-e07fc1f90ae7",
	"docker run --rm -u 1000:1000 -v $PWD:/src golang:1.22 go build",
	"git push --no-password --force-with-lease",
	"      --api-key KEY          the key to use",
	"  -t, --token: the API token",
	"Key                 Value",
	"token_policies      [default]",
	"token_duration      768h",
	"secret_key     ****************WXYZ shared-credentials-file",
	"root:x:0:0:root:/root:/bin/bash",
	"Authorization: Bearer <token>",
	"Authorization: Bearer YOUR_TOKEN",
	"error: invalid token: expired",
	"Token: token,",
	"	Password: cfg.Password,",
	"	Secret:   []byte(secret),",
}

func TestBase64KeyWrapped(t *testing.T) {
	r := New(nil)
	in := "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVBM1R6Mm1yN1NaaUFN\nZlF5dXZCak0yWTZaSjBQTDJuWXpxRDVuN2lhNnYwTEJRZGpFCg==\n$ next\n"
	if got, want := r.String(in), "[REDACTED:private-key]\n$ next\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestTokensAnywhere takes every token with a shape of its own from the
// format table and puts it in the places output puts tokens: it must be
// redacted in each.
func TestTokensAnywhere(t *testing.T) {
	shape := map[string]bool{}
	for _, p := range builtin() {
		if p.scan == nil && !strings.Contains(p.expr, "(?P<s>") {
			shape[p.kind] = true
		}
	}
	r := New(nil)
	contexts := []string{
		"%s", "X=%s", "export FOO=%s", `{"value": "%s"}`, "  value: %s", "word %s word", "'%s'", "(%s)",
		"key: \"%s\",", "https://api.example.com/v1?x=1&k=%s", "Bearer %s", "%s\n", "\t%s\t", "<v>%s</v>", "[%s]",
	}
	n := 0
	for _, tt := range formatTests {
		ks := kindsIn(tt.want)
		if len(ks) != 1 || !shape[ks[0]] || tt.want != marker+ks[0]+"]" {
			continue // only lines that are the token and nothing else
		}
		n++
		for _, c := range contexts {
			in := strings.ReplaceAll(c, "%s", tt.in)
			if got := r.String(in); strings.Contains(got, tt.in) || !strings.Contains(got, marker) {
				t.Errorf("%s in %q: got %q", tt.name, c, got)
			}
		}
	}
	t.Logf("%d tokens in %d contexts", n, len(contexts))
}
