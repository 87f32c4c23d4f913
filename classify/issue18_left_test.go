package classify

import (
	"slices"
	"testing"
)

// TestIssue18LeftExecMarks: the word each new exec rule marks (what the
// reason names), and look-alikes it leaves alone.
func TestIssue18LeftExecMarks(t *testing.T) {
	cases := []struct{ in, want string }{
		{"terraform apply plan.out", "plan.out"},
		{"terraform -chdir=x apply -input=false tfplan", "tfplan"},
		{"terraform taint a.b", "taint"},
		{"terraform refresh", "refresh"},
		{"terraform test", "test"},
		{"terraform apply -var-file=x.tfvars", ""},
		{"terraform untaint a.b", ""},
		{"aws ssm send-command --instance-ids i-1", "send-command"},
		{"aws lambda invoke --function-name f out.json", "invoke"},
		{"aws ec2-instance-connect send-ssh-public-key", "send-ssh-public-key"},
		{"aws secretsmanager get-secret-value", "get-secret-value"},
		{"aws ssm get-parameters-by-path --with-decryption", "get-parameters-by-path"},
		{"aws frob do-thing", "do-thing"},
		{"aws s3 mv s3://b/x .", "mv"},
		{"aws ec2", "ec2"},
		{"aws ec2 describe-instances", ""},
		{"aws s3 ls", ""},
		{"aws s3 sync s3://b/x ./d", ""},
		{"aws ssm get-parameter --name x", ""},
		{"gcloud compute ssh vm", "ssh"},
		{"gcloud alpha functions call f", "call"},
		{"gcloud compute instances create list", "create"},
		{"gcloud frob x", "x"},
		{"gcloud compute instances list", ""},
		{"az vm run-command invoke", "run-command"},
		{"az keyvault secret show -n x", "secret"},
		{"az vm list", ""},
		{"ansible-playbook site.yml", ""}, // opsSpec's other tools keep their own rules
	}
	for _, tc := range cases {
		got := execMarked(t, tc.in)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%q: marked %q, want none", tc.in, got)
		case tc.want != "" && !slices.Contains(got, tc.want):
			t.Errorf("%q: marked %q, want %q among them", tc.in, got, tc.want)
		}
	}
}
