package classify

import (
	"strings"
	"testing"
)

func TestPackages(t *testing.T) {
	opt := Options{Cwd: "/p", Home: "/h"}
	for _, tc := range []struct {
		cmd  string
		want string // approvals joined by spaces; "-" : not a named install; "?" : dynamic
	}{
		{"npm install left-pad", "npm:left-pad"},
		{"npm i -D left-pad@1.3.0 @types/node@20.11.5", "npm:left-pad@1.3.0 npm:@types/node@20.11.5"},
		{"npm install left-pad@^1.3.0 x@latest y@1.2", "npm:left-pad npm:x npm:y"},
		{"npm install --registry https://r.example left-pad@1.3.0", "npm:left-pad@1.3.0"},
		{"npm install", "-"},
		{"npm ci", "-"},
		{"npm install ./local ../x file:y https://x/y.tgz", "-"},
		{"npm run build", "-"},
		{"pnpm add zod@3.22.4", "npm:zod@3.22.4"},
		{"pnpm add -w zod@3.22.4", "npm:zod@3.22.4"}, // -w is --workspace-root, a flag
		{"yarn add react", "npm:react"},
		{"pip install requests==2.31.0 'Flask[async]==3.0.0'", "pypi:requests@2.31.0 pypi:flask@3.0.0"},
		{"pip install 'requests>=2' black~=24.0", "pypi:requests pypi:black"},
		{"pip install -r requirements.txt", "-"},
		{"pip install -e .", "-"},
		{"pip3 install --user httpx==0.27.0", "pypi:httpx@0.27.0"},
		{"python3 -m pip install black==24.1.0", "pypi:black@24.1.0"},
		{"uv add httpx==0.27.0", "pypi:httpx@0.27.0"},
		{"uv pip install httpx", "pypi:httpx"},
		{"uv tool install ruff==0.6.1", "pypi:ruff@0.6.1"},
		{"uv tool install --with z==2 --python 3.12 y==1", "pypi:z@2 pypi:y@1"},
		{"uv tool upgrade ruff", "pypi:ruff"},
		{"yarn global add x@1.0.0", "npm:x@1.0.0"},
		{"yarn --silent global add x", "npm:x"},
		{"pipx install black==24.1.0", "pypi:black@24.1.0"},
		{"pipx inject black-env z==2", "pypi:z@2"},
		{"pipx install --python 3.12 --spec y==1 ycmd", "pypi:y@1 pypi:ycmd"},
		{"yarn global list", "-"},
		{"poetry add requests==2.31.0", "pypi:requests@2.31.0"},
		{"poetry add requests@2.31.0", "pypi:requests"},
		{"poetry self add poetry-plugin-export==1.8.0", "pypi:poetry-plugin-export@1.8.0"},
		{"poetry add --group dev pytest==8.0.0", "pypi:pytest@8.0.0"},
		{"poetry install", "-"},
		{"pdm add httpx", "pypi:httpx"},
		{"rye add httpx==0.27.0", "pypi:httpx@0.27.0"},
		{"pipenv install requests==2.31.0", "pypi:requests@2.31.0"},
		{"pipenv install", "-"},
		{"bundle add rails --version 7.1.3", "gem:rails@7.1.3"},
		{"bundle install", "-"},
		{"conda install -c conda-forge numpy=1.26.4", "conda:numpy@1.26.4"},
		{"conda install numpy=1.26", "conda:numpy"},
		{"mamba install numpy==1.26", "conda:numpy@1.26"},
		{"conda install --file env.txt", "-"},
		{"pixi add python>=3.12", "conda:python"},
		{"pixi global install ripgrep", "conda:ripgrep"},
		{"pixi install", "-"},
		{"composer require monolog/monolog:3.5.0", "composer:monolog/monolog@3.5.0"},
		{"composer global require laravel/installer", "composer:laravel/installer"},
		{"composer install", "-"},
		{"uv tool list", "-"},
		{"uv tool run ruff", "-"}, // download-and-run: its own exec rule
		{"pipx list", "-"},
		{"pipx install ./local", "-"},
		{"uv sync", "-"},
		{"cargo install ripgrep", "cargo:ripgrep"},
		{"cargo install ripgrep --version 14.1.0", "cargo:ripgrep@14.1.0"},
		{"cargo install ripgrep@14.1.0", "cargo:ripgrep@14.1.0"},
		{"cargo install --path .", "-"},
		{"cargo add serde@1.0.197 --features derive", "cargo:serde@1.0.197"},
		{"go install golang.org/x/tools/gopls@v0.15.3", "go:golang.org/x/tools/gopls@v0.15.3"},
		{"go install golang.org/x/tools/gopls@latest", "go:golang.org/x/tools/gopls"},
		{"go install ./cmd/guard", "-"},
		{"go get github.com/pkg/errors@v0.9.1", "go:github.com/pkg/errors@v0.9.1"},
		{"go get", "-"},
		{"go get -u ./...", "-"},
		{"gem install rails -v 7.1.3", "gem:rails@7.1.3"},
		{"gem install rails:7.1.3", "gem:rails@7.1.3"},
		{"brew install jq", "brew:jq"},
		{"apt-get install -y jq=1.6-2.1 curl", "apt:jq@1.6-2.1 apt:curl"},
		{"apt install ./x.deb", "-"},
		{`npm install "$PKG"`, "?"},
	} {
		a := Analyze(tc.cmd, opt)
		got := "-"
		for i := range a.Commands {
			pi := Packages(&a.Commands[i])
			if pi == nil {
				continue
			}
			if pi.Dynamic {
				got = "?"
				break
			}
			var s []string
			for _, p := range pi.Packages {
				s = append(s, p.String())
			}
			got = strings.Join(s, " ")
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
