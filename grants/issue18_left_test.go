package grants

import (
	"testing"

	"github.com/guard-dev/guard/classify"
)

// leftGrants: the '*' grants of the tools whose gaps this table closes.
var leftGrants = []string{"terraform *", "tofu *", "aws *", "gcloud *", "az *", "tar *", "unzip *", "cpio *", "rsync *", "cp *",
	"ln *", "psql *", "rm *"}

// leftCases are decisions under leftGrants: true is allow; false is ask
// or deny (the reason is checked by the classify table).
var leftCases = []struct {
	cmd   string
	allow bool
}{
	// terraform: a saved plan applies whatever it holds, destroys
	// included, without showing it; taint, refresh and test change
	// infrastructure or state with no plan shown
	{"terraform apply plan.out", false},
	{"terraform apply -input=false tfplan", false},
	{"terraform -chdir=infra apply tfplan", false},
	{"tofu apply p", false},
	{"'terraform' apply p", false},
	{"env terraform apply p", false},
	{"bash -c 'terraform apply p'", false},
	{"terraform destroy", false},
	{"terraform apply -destroy", false},
	{"terraform state push x", false},
	{"terraform force-unlock 1", false},
	{"terraform workspace delete x", false},
	{"terraform taint a.b", false},
	{"terraform refresh", false},
	{"terraform test", false},
	{"terraform apply", true}, // it shows the plan and asks for yes
	{"terraform apply -var-file=x.tfvars", true},
	{"terraform plan -out=plan.out", true},
	{"terraform show plan.out", true},
	{"terraform untaint a.b", true},
	{"terraform validate", true},
	// aws: an allowlist of the operations that only read
	{"aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-1", false},
	{"aws ssm start-session --target i-1", false},
	{"aws lambda invoke --function-name f out.json", false},
	{"aws ecs execute-command --cluster c", false},
	{"aws ec2-instance-connect send-ssh-public-key", false},
	{"aws ec2 run-instances --user-data file://x.sh", false},
	{"aws cloudformation deploy --template-file t.yml --stack-name s", false},
	{"aws cloudformation create-stack --stack-name s", false},
	{"aws iam create-access-key", false},
	{"aws secretsmanager get-secret-value --secret-id x", false},
	{"aws ssm get-parameter --name x --with-decryption", false},
	{"aws sts get-session-token", false},
	{"aws lambda get-function --function-name f", false},
	{"aws s3 cp x s3://b/x", false},
	{"aws s3 rm s3://b/x", false},
	{"aws s3 sync s3://b . --delete", false},
	{"aws frobnicate do-thing", false}, // an operation guard does not know
	{"aws ec2 frob-instances", false},
	{"aws configure set region x", false},
	{"aws --region us-east-1 ssm send-command", false},
	{"'aws' lambda invoke --function-name f o", false},
	{"timeout 5 aws ssm start-session --target i", false},
	{"bash -c 'aws ssm start-session --target i'", false},
	{"aws s3 ls", true},
	{"aws s3 ls s3://b --recursive", true},
	{"aws s3 cp s3://b/x .", true},
	{"aws sts get-caller-identity", true},
	{"aws ec2 describe-instances", true},
	{"aws --region us-east-1 ec2 describe-instances", true},
	{"aws lambda list-functions", true},
	{"aws ssm get-parameter --name x", true},
	{"aws iam list-users", true},
	{"aws configure list", true},
	{"aws help", true},
	{"aws ec2 help", true},
	// gcloud and az: the same, by their verbs
	{"gcloud compute ssh vm", false},
	{"gcloud compute ssh vm --command id", false},
	{"gcloud functions call f", false},
	{"gcloud secrets versions access latest --secret x", false},
	{"gcloud auth print-identity-token", false},
	{"gcloud compute instances create list", false}, // list is the new instance's name
	{"gcloud run deploy x", false},
	{"gcloud compute scp x vm:/tmp", false},
	{"gcloud container clusters get-credentials c", false},
	{"gcloud sql connect db", false},
	{"gcloud frob x", false},
	{"gcloud beta compute ssh vm", false},
	{"gcloud compute instances list", true},
	{"gcloud beta compute instances list", true},
	{"gcloud compute instances describe vm --zone z", true},
	{"gcloud run services list", true},
	{"gcloud config list", true},
	{"gcloud projects list", true},
	{"gcloud logging read x", true},
	{"az vm run-command invoke -g g -n vm", false},
	{"az keyvault secret show --name x --vault-name v", false},
	{"az account get-access-token", false},
	{"az ssh vm -n x", false},
	{"az webapp ssh -n x", false},
	{"az aks command invoke -n c", false},
	{"az functionapp function invoke", false},
	{"az storage account keys list", false},
	{"az webapp config appsettings list -n x", false},
	{"az frob x", false},
	{"az vm list", true},
	{"az vm show -n x", true},
	{"az group list", true},
	{"az account show", true},
	// archives: a member named on an extracting command line is a file
	// written, judged like cp's destination (agent configs ask, git's and
	// guard's own paths deny)
	{"tar -xf x.tar .claude/settings.json", false},
	{"tar xf x.tar .mcp.json", false},
	{"tar -xzf x.tgz ./.claude/settings.json", false},
	{"tar --extract --file=x.tar .vscode/tasks.json", false},
	{"gtar -x -f x.tar .gemini/settings.json", false},
	{"bsdtar -xf x.tar .codex/config.toml", false},
	{"tar -xf x.tar .git/hooks/pre-commit", false},
	{"tar -xf x.tar .git/config", false},
	{"tar -xf x.tar -C build .mcp.json", false}, // build/.mcp.json: asked, to be safe
	{"tar -xf x.tar -C .claude", false},
	{"tar -x -C ~/.config/guard -f x.tar", false},
	{"tar -xf x.tar -C ~ .config/guard/config.toml", false},
	{"bash -c 'tar -xf x.tar .claude/settings.json'", false},
	{"unzip x.zip .mcp.json", false},
	{"unzip -o x.zip .claude/settings.json", false},
	{"unzip x.zip -d .claude", false},
	{"rsync -a x/ .claude/", false},
	{"rsync -a x/ .git/hooks/", false},
	{"tar -xf x.tar", true},
	{"tar -xf x.tar src/a.go", true},
	{"tar -xOf x.tar .claude/settings.json", true}, // to stdout
	{"tar -tf x.tar .claude/settings.json", true},
	{"tar -cf x.tar .claude", true},
	{"unzip -o x.zip", true},
	{"unzip x.zip src/a.go", true},
	{"unzip -l x.zip .mcp.json", true},
	{"unzip -p x.zip .mcp.json", true},
	{"rsync -a x/ build/", true},
	// links made earlier in the same text, and values bash computes
	{"ln -s ~ h; cp x h/.config/guard/config.toml", false},
	{"ln -s ~ h && cd h/.config/guard && cp /tmp/x config.toml", false},
	{"ln -s . h; cp x h/.claude/settings.json", false},
	{"ln -s ~ h; cat h/.ssh/id_rsa", false},
	{"ln -s src s; cp x s/a.go", true},
	{`rm -rf "$(cd / && pwd)"`, false},
	{`printf -v x %c /; rm -rf "$x"`, false},
	{`x=/; rm -rf "${x@P}"`, false},
	{`printf -v x %s build; rm "$x/a.o"`, true},
	// psql: the server's COPY of a file and its file functions
	{"psql -c \"COPY t FROM '/etc/passwd'\"", false},
	{"psql -c \"COPY t TO '/tmp/x'\"", false},
	{"psql -c '\\copy t from /etc/passwd'", false},
	{"psql -c \"select lo_import('/etc/passwd')\"", false},
	{"psql -c \"select pg_read_file('/etc/passwd')\"", false},
	{"bash -c \"psql -c \\\"COPY t FROM '/etc/passwd'\\\"\"", false},
	{"psql -c 'COPY t FROM STDIN'", true},
	{"psql -c 'select 1'", true},
}

// TestIssue18LeftGrants (issue 18 §1, §2, §4, §6): the forms a '*' grant of
// these tools left allowed: a saved terraform plan, cloud operations that
// run a program elsewhere, print a secret or are unknown, archive members
// and destinations in an agent's config, values bash computes, links made
// earlier in the same text, and psql reading files.
func TestIssue18LeftGrants(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify is a stub")
	}
	s := Defaults()
	s.Composite = "each"
	for _, p := range leftGrants {
		s.Rules = append(s.Rules, Rule{Kind: Allow, Pattern: p, Layer: LayerProjectGrants})
	}
	for _, tc := range leftCases {
		v := Decide(classify.Analyze(tc.cmd, testOptions()), s)
		if got := v.Decision == Allow; got != tc.allow {
			t.Errorf("%q under the grants: got %v (%s: %s), want allow=%v", tc.cmd, v.Decision, v.Rule, v.Reason, tc.allow)
		}
	}
}
