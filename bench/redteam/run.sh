#!/usr/bin/env bash
# bench/redteam/run.sh: the red-team probe files, judged from outside the code
# with `guard check --stdin --json` only (nothing is run). A measurement, not a
# test. Usage: bench/redteam/run.sh [-v]   (-v lists every miss;
# GUARD_BIN_DIR=DIR judges with DIR/guard and DIR/guard-cli instead of a build)
#
#   danger.txt    must not be allowed silently (ask or deny), with no grants,
#                 with the common wholesale grants and with those and the tools'
#                 (kubectl *, psql *, gh *, terraform *, …)
#   deny.txt      must deny, in every spelling, with and without grants
#   harmless.txt  must never deny (an ask is counted apart), with no grants;
#                 its asks are counted again under the tool grants
#
# In the probe files '# CLASS' starts a class; '## text' is a comment (a probe
# removed or changed as a mistake of its own, and why).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=$REPO/bench/redteam
VERBOSE=${1:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [[ -n ${GUARD_BIN_DIR:-} ]]; then # judge with other binaries (an older build, to compare)
	cp "$GUARD_BIN_DIR/guard" "$GUARD_BIN_DIR/guard-cli" "$TMP/"
else
	(cd "$REPO" && CGO_ENABLED=0 go build -o "$TMP/guard" ./cmd/guard && go build -o "$TMP/guard-cli" ./cmd/guard-cli)
fi
export PATH=$TMP:$PATH
unset GUARD_ACTIVE
# the probes name /tmp/redteam/home as HOME's absolute spelling; it is
# recreated here, and only guard's own dirs under it are written
export HOME=/tmp/redteam/home XDG_CONFIG_HOME=/tmp/redteam/home/.config XDG_DATA_HOME=/tmp/redteam/home/.local/share
export XDG_STATE_HOME=/tmp/redteam/home/.local/state XDG_CACHE_HOME=/tmp/redteam/home/.cache
rm -rf "$HOME" && mkdir -p "$XDG_CONFIG_HOME/guard" "$XDG_STATE_HOME" "$XDG_DATA_HOME/guard/shims" "$HOME/.ssh"
conf() { # $1: name, $2: allow list (TOML array body)
	local c=$TMP/$1.toml
	sed -n '/^default_config() {/,/^EOF$/p' "$REPO/install.sh" | sed '1,2d;$d' |
		sed "s|^allow = \[\]|allow = [$2]|" >"$c"
	echo "$c"
}
GRANTS='"cat *", "cp *", "mv *", "git *", "npm *", "make *", "docker *", "curl *", "tar *", "rsync *", "pytest *", "go test *"'
# the tools people grant wholesale (issue 18 §1): cluster, database and cloud CLIs
TOOLS='"kubectl *", "oc *", "k3s *", "microk8s *", "helm *", "psql *", "mysql *", "sqlite3 *", "gh *", "aws *", "gcloud *", "az *", "terraform *", "tmux *", "vim *", "nvim *", "yarn *", "uv *", "pipx *", "poetry *", "pdm *", "rye *", "pipenv *", "bundle *", "conda *", "mamba *", "micromamba *", "pixi *", "composer *", "gem *", "rustup *", "dotnet *", "mvn *", "cmake *", "openssl *", "mypy *", "entr *", "yq *", "jq *", "sops *", "crane *"'
mkdir -p "$TMP/proj" && (cd "$TMP/proj" && git init -q .)
judge() { # $1: config dir, $2: file -> "class<TAB>decision<TAB>command" lines
	cp "$1" "$XDG_CONFIG_HOME/guard/config.toml"
	(cd "$TMP/proj" && "$TMP/guard" check --stdin --json < <(grep -v '^#' "$2" | grep .)) |
		sed 's/^.*"decision":"\([a-z]*\)".*$/\1/' >"$TMP/dec"
	awk -v D="$TMP/dec" '/^# /{cls=substr($0,3); next} /^#/{next} /^$/{next} {getline d < D; print cls "\t" d "\t" $0}' "$2"
}
report() { # $1: title, $2: miss predicate (awk on $2), stdin judged lines
	awk -F'\t' -v T="$1" -v V="$VERBOSE" "{n[\$1]++; if ($2) {m[\$1]++; if (V==\"-v\") print \"  miss \" \$2 \": \" \$3}} END {for (c in n) printf \"%-28s %-48s %4d / %4d miss\\n\", T, c, m[c]+0, n[c]}" | sort
}
def=$(conf default '')
gr=$(conf grants "$GRANTS")
tg=$(conf tools "$GRANTS, $TOOLS")
judge "$def" "$DIR/danger.txt" | report "danger, no grants" '$2=="allow"'
judge "$gr" "$DIR/danger.txt" | report "danger, common grants" '$2=="allow"'
judge "$tg" "$DIR/danger.txt" | report "danger, tool grants" '$2=="allow"'
judge "$def" "$DIR/deny.txt" | report "deny, no grants" '$2!="deny"'
judge "$gr" "$DIR/deny.txt" | report "deny, common grants" '$2!="deny"'
judge "$def" "$DIR/harmless.txt" | report "harmless denied" '$2=="deny"'
judge "$def" "$DIR/harmless.txt" | report "harmless asked" '$2=="ask"'
judge "$tg" "$DIR/harmless.txt" | report "harmless asked, tool grants" '$2=="ask"'
