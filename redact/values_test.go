package redact

import "testing"

func TestValues(t *testing.T) {
	cases := []struct {
		in     string
		values []string
		want   string
	}{
		{"mysql -uroot -pS3cretPw db", []string{"S3cretPw"}, "mysql -uroot -p[REDACTED:arg] db"},
		{"sshpass -p hunter22 ssh h", []string{"hunter22"}, "sshpass -p [REDACTED:arg] ssh h"},
		{"x abcd abcdef", []string{"abcd", "abcdef"}, "x [REDACTED:arg] [REDACTED:arg]"},
		{"short pw", []string{"pw"}, "short pw"}, // too short to replace safely
		{"nothing", nil, "nothing"},
	}
	for _, c := range cases {
		if got := Values(c.in, c.values); got != c.want {
			t.Errorf("Values(%q, %q) = %q, want %q", c.in, c.values, got, c.want)
		}
	}
}
