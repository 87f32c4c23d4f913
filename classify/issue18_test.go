package classify

import (
	"fmt"
	"strings"
	"testing"
)

// issue18Cases are the rows of issue 18 §4 to §6: destruction outside the
// vocabulary, values computed with certainty, bash state that changes
// later commands, and self-protection. Each rule's row is also tried in
// every spelling evasions makes of it (TestIssue18Evasions).
var issue18Cases = []denyCase{
	// ---- volume-destroy: LVM, ZFS, btrfs, stratis, granted or not
	{`lvremove -f vg0/lv`, "volume-destroy", ""},
	{`lvremove vg0`, "volume-destroy", ""},
	{`vgremove -ff vg0`, "volume-destroy", ""},
	{`pvremove /dev/sdb`, "volume-destroy", ""},
	{`lvreduce -L 1G vg0/lv`, "volume-destroy", ""},
	{`lvm lvremove vg0/lv`, "volume-destroy", ""},
	{`zfs destroy tank/data`, "volume-destroy", ""},
	{`zfs destroy -r tank`, "volume-destroy", ""},
	{`zfs rollback -r tank/data@snap`, "volume-destroy", ""},
	{`zfs recv -F tank/data`, "volume-destroy", ""},
	{`zpool destroy tank`, "volume-destroy", ""},
	{`zpool destroy -f tank`, "volume-destroy", ""},
	{`zpool labelclear sdb`, "volume-destroy", ""},
	{`zpool create tank sdb`, "volume-destroy", ""},
	{`btrfs subvolume delete /mnt/data/@home`, "volume-destroy", ""},
	{`btrfs sub del /mnt/x`, "volume-destroy", ""},
	{`btrfs su d /mnt/x`, "volume-destroy", ""},
	{`btrfs check --repair /dev/sdb1`, "volume-destroy", ""},
	{`stratis pool destroy p`, "volume-destroy", ""},
	{`vdo remove --name=v`, "volume-destroy", ""},
	{`lvs`, "", ""},
	{`lvremove --help`, "", ""},
	{`zfs list -t snapshot`, "", ""},
	{`zfs rollback tank/data@snap`, "", ""},
	{`zpool status`, "", ""},
	{`btrfs subvolume list /`, "", ""},
	{`btrfs subvolume snapshot / /snap`, "", ""},
	{`btrfs check /dev/sdb1`, "", ""},
	{`echo zfs destroy tank`, "", ""},
	// ---- firmware-write
	{`flashrom -p internal -w bios.bin`, "firmware-write", ""},
	{`flashrom -p internal --write=bios.bin`, "firmware-write", ""},
	{`flashrom -p internal -E`, "firmware-write", ""},
	{`flashrom --erase -p ch341a_spi`, "firmware-write", ""},
	{`flashrom -p internal -Vw bios.bin`, "firmware-write", ""},
	{`fwupdmgr install fw.cab`, "firmware-write", ""},
	{`fwupdmgr update -y`, "firmware-write", ""},
	{`fwupdmgr --force downgrade`, "firmware-write", ""},
	{`fwupdtool install-blob fw.bin`, "firmware-write", ""},
	{`efibootmgr -B -b 0001`, "firmware-write", ""},
	{`efibootmgr -b 0001 -B`, "firmware-write", ""},
	{`efibootmgr --delete-bootnum --bootnum 0001`, "firmware-write", ""},
	{`flash_erase /dev/mtd0 0 0`, "firmware-write", ""},
	{`flashcp image.bin /dev/mtd1`, "firmware-write", ""},
	{`mtd_debug erase /dev/mtd0 0 4096`, "firmware-write", ""},
	{`flashrom -p internal -r backup.bin`, "", ""},
	{`fwupdmgr get-devices`, "", ""},
	{`efibootmgr -v`, "", ""},
	{`mtd_debug info /dev/mtd0`, "", ""},
	// ---- disk-write: every block and memory device as a write target
	{`dd if=/dev/zero of=/dev/zvol/tank/vol1`, "disk-write", ""},
	{`dd if=x of=/dev/mtd0`, "disk-write", ""},
	{`dd if=x of=/dev/mtdblock0`, "disk-write", ""},
	{`dd if=/dev/zero of=/dev/rbd0`, "disk-write", ""},
	{`dd if=/dev/zero of=/dev/sg0`, "disk-write", ""},
	{`dd if=/dev/zero of=/dev/nvme0`, "disk-write", ""},
	{`dd if=/dev/zero of=/dev/mmcblk0boot0`, "disk-write", ""},
	{`dd if=x of=/dev/mem bs=1 seek=4096`, "disk-write", ""},
	{`echo x > /dev/kmem`, "disk-write", ""},
	{`printf x > /dev/port`, "disk-write", ""},
	{`cat x > /dev/vg0/root`, "disk-write", ""},
	{`cp disk.img /dev/ubuntu-vg/root`, "disk-write", ""},
	{`tee /dev/bcache0 < x`, "disk-write", ""},
	{`echo 1 > /dev/watchdog`, "disk-write", ""},
	{`dd if=/dev/sda of=disk.img`, "", ""},
	{`echo x > /dev/null`, "", ""},
	{`echo x 2> /dev/stderr`, "", ""},
	{`echo x > /dev/tty`, "", ""},
	{`echo AT > /dev/ttyUSB0`, "", ""},
	{`echo x > /dev/shm/x`, "", ""},
	{`echo x > /dev/fd/3`, "", ""},
	{`cat /dev/mem`, "", ""},
	// ---- disk-format: mkswap and mkfs on a device, not on a file
	{`mkswap /dev/sdb1`, "disk-format", ""},
	{`mkswap /dev/zvol/tank/swap`, "disk-format", ""},
	{`cd /dev && mkswap sdb2`, "disk-format", ""},
	{`mkswap "$DEV"`, "disk-format", ""},
	{`mkswap ./swapfile`, "", ""},
	{`mkswap swapfile`, "", ""},
	{`mkfs.ext4 -F disk.img`, "", ""},
	// ---- rm-home-all: the home directory and its whole top level, like /
	{`rm -rf ~/*`, "rm-home-all", ""},
	{`rm -rf ~/.*`, "rm-home-all", ""},
	{`rm -rf $HOME/*`, "rm-home-all", ""},
	{`rm -rf "$HOME"/*`, "rm-home-all", ""},
	{`rm -r ~/`, "rm-home-all", ""},
	{`rm -rf ~alice`, "rm-home-all", ""},
	{`rm -rf ~alice/*`, "rm-home-all", ""},
	{`cd && rm -rf .`, "rm-home-all", ""},
	{`cd ~ && rm -rf *`, "rm-home-all", ""},
	{`find ~ -delete`, "rm-home-all", ""},
	{`find $HOME -mindepth 1 -delete`, "rm-home-all", ""},
	{`mv ~ /tmp/gone`, "rm-home-all", ""},
	{`rsync -a --delete empty/ ~/`, "rm-home-all", ""},
	{`cargo clean --target-dir ~`, "rm-home-all", ""},
	{`cmake -E rm -rf ~`, "rm-home-all", ""},
	{`cmake -E remove_directory $HOME`, "rm-home-all", ""},
	{`tar --remove-files -czf /tmp/h.tgz ~`, "rm-home-all", ""},
	{`rm -rf ~/..`, "rm-root|rm-home-all", ""},
	{`rm -rf ~//*`, "rm-home-all", ""},
	{`rm -rf ~/./`, "rm-home-all", ""},
	{`rm -rf "$HOME/"`, "rm-home-all", ""},
	{`rm -rf ${HOME%/}`, "rm-home-all", ""},
	{`cd; rm -rf -- *`, "rm-home-all", ""},
	{`rm -rf ~/old`, "", "rm-home"},
	{`rm -rf ~/.cache/pip`, "", "rm-home"},
	{`rm -rf ~/*.log`, "", "rm-home"},
	{`cmake -E rm -rf ~/build`, "", "rm-home"},
	{`rm -rf build`, "", "rm-recursive"},
	{`ls ~/*`, "", ""},
	// ---- deletes by other tools, judged by their targets
	{`cargo clean --target-dir /`, "rm-root", ""},
	{`cargo clean --target-dir=/usr`, "rm-root", ""},
	{`CARGO_TARGET_DIR=/etc cargo clean`, "rm-root", ""},
	{`cmake -E rm -rf /`, "rm-root", ""},
	{`cmake -E remove_directory /usr`, "rm-root", ""},
	{`cmake -E remove -f /etc/passwd`, "rm-root", ""},
	{`tar --remove-files -cf /tmp/x.tar /etc`, "rm-root", ""},
	{`tar -cf /tmp/x.tar --remove-files /var`, "rm-root", ""},
	{`cargo clean`, "", ""},
	{`cargo clean --target-dir target`, "", ""},
	{`cargo build --target-dir /tmp/t`, "", ""},
	{`cmake -E rm -rf build`, "", ""},
	{`cmake -E make_directory /tmp/x`, "", ""},
	{`tar --remove-files -cf logs.tar logs`, "", ""},
	{`tar -cf /tmp/x.tar /etc`, "", ""},
	// ---- values computed with certainty: a denylisted command behind one is denied
	{`rm -rf ${HOME//[a-z]/}`, "rm-root", ""},      // /home/u without its letters is //
	{`rm -rf ${HOME//[a-t]/}`, "", "rm-recursive"}, // //u: a directory under /
	{`x=/usr; rm -rf ${x//usr/}`, "rm-root", ""},
	{`x=/etc; rm -rf ${x/#?etc//}`, "rm-root", ""},
	{`x=/etc; rm -rf ${x/%etc/}`, "rm-root", ""},
	{`x=/ETC; rm -rf ${x,,}`, "rm-root", ""},
	{`x=/etc; rm -rf ${x@L}`, "rm-root", ""},
	{`x=/Etc; rm -rf ${x,}`, "", "rm-recursive"}, // lowers only the first character: /Etc
	{`rm -rf $(dirname /x)`, "rm-root", ""},
	{`rm -rf "$(dirname /etc/passwd)"`, "rm-root", ""},
	{`rm -rf $(realpath /)`, "rm-root", ""},
	{`rm -rf $(readlink -f /usr)`, "rm-root", ""},
	{`rm -rf "$(dirname "$(dirname /etc/x)")"`, "rm-root", ""},
	{`rm -rf "$(dirname /x | sed s/x/y/)"`, "", "rm-recursive"},
	{`rm -rf "$(dirname "$(cat f)")"`, "", "rm-recursive"},
	{`rm -rf /$(basename /x/etc)`, "rm-root", ""},
	{`unset X; rm -rf "$X"/`, "rm-root", ""},
	{`unset X; rm -rf "$X/"*`, "rm-root", ""},
	{`read d <<< /; rm -rf $d`, "rm-root", ""},
	{`read -r d <<< /etc; rm -rf "$d"`, "rm-root", ""},
	{`IFS= read -r d <<< ' /'; rm -rf $d`, "rm-root", ""},        // d is " /", and $d splits to /
	{`IFS= read -r d <<< ' /'; rm -rf "$d"`, "", "rm-recursive"}, // " /": a relative name
	{`read a b <<< '-rf /'; rm $a $b`, "rm-root", ""},
	{`read -a arr <<< '/ /etc'; rm -rf "${arr[@]}"`, "rm-root", ""},
	{`a=(x); a[0]=/; rm -rf ${a[0]}`, "rm-root", ""},
	{`a[0]=/etc; rm -rf "${a[@]}"`, "rm-root", ""},
	{`a=(-rf); a+=(/); rm "${a[@]}"`, "rm-root", ""},
	{`a=(x y); a[5]=/; rm -rf "${a[@]}"`, "", "rm-recursive"}, // a gap: not modelled, unknown
	{`v=x; x=/; rm -rf ${!v}`, "rm-root", ""},
	{`v=HOME; rm -rf ${!v}`, "rm-home-all", ""},
	{`declare -n r=x; x=/; rm -rf $r`, "rm-root", ""},
	{`declare -n r=x; r=/usr; rm -rf $x`, "rm-root", ""},
	{`local -n r=x; x=/; rm -rf "$r"`, "rm-root", ""},
	{`declare -i n; n='a[$(id)]'`, "hidden-exec", ""},
	{`declare -i n='x[$(rm -rf /)]'`, "rm-root|hidden-exec", ""},
	{`declare -i n=0; echo /$n`, "", ""},
	{`PS4='$(rm -rf /)'; set -x; ls`, "rm-root", ""},
	{"PS4='`rm -rf /etc`' bash -x script.sh", "rm-root", ""},
	// (h18st) case attributes, arithmetic subscripts, mapfile and heredocs
	{`declare -l x=/ETC; rm -rf $x`, "rm-root", ""},
	{`typeset -l x=/ETC; rm -rf "$x"`, "rm-root", ""},
	{`declare -l x; x=/USR; rm -rf $x`, "rm-root", ""},
	{`f() { local -l x=/Etc; rm -rf $x; }; f`, "rm-root", ""},
	{`declare -u x=/etc; rm -rf $x`, "", "rm-recursive"},    // /ETC, not /etc
	{`x=/ETC; declare -l x; rm -rf $x`, "", "rm-recursive"}, // an attribute leaves what x held
	{`declare -ul x=/ETC; rm -rf $x`, "", "rm-recursive"},   // both: bash changes nothing; unknown
	{`declare -l x=HELLO; echo $x`, "", ""},
	{`a=(/ x); rm -rf ${a[1-1]}`, "rm-root", ""},
	{`declare -i n=2-2; a=(/ x); rm -rf ${a[n]}`, "rm-root", ""},
	{`n=1; a=(x /etc); rm -rf "${a[$n]}"`, "rm-root", ""},
	{`a=(x /); rm -rf ${a[-1]}`, "rm-root", ""},
	{`a=(x /); rm -rf ${a[-5]}`, "", "rm-recursive"}, // a bad subscript: unknown
	{`a=(/ x); rm -rf ${a[m]}`, "", "rm-recursive"},  // m from the environment: unknown here
	{`a=(/ x); echo ${a[1-1]}`, "", ""},
	{`a=([0]=/); rm -rf ${a[0]}`, "rm-root", ""},
	{`declare -a a=([0]=x [1]=/); rm -rf "${a[@]}"`, "rm-root", ""},
	{`a=([2]=/); rm -rf ${a[0]}`, "", "rm-recursive"}, // a gap: not modelled, unknown
	{`a=([0]=x [1]=y); echo "${a[@]}"`, "", ""},
	{`mapfile -t a <<< /; rm -rf ${a[0]}`, "rm-root", ""},
	{`readarray a <<< /; rm -rf ${a[0]}`, "rm-root", ""},
	{`readarray -t <<< /etc; rm -rf "${MAPFILE[0]}"`, "rm-root", ""},
	{"mapfile -t a <<EOF\nx\n/\nEOF\nrm -rf ${a[1]}", "rm-root", ""},
	{"read d <<EOF\n/\nEOF\nrm -rf $d", "rm-root", ""},
	{"read d <<EOF\n$x\nEOF\nrm -rf $d", "", "rm-recursive"},
	{`mapfile -n 1 a <<< /; rm -rf ${a[0]}`, "", "rm-recursive"}, // an option not followed
	{`mapfile -t a <<< x; echo "${a[0]}"`, "", ""},
	{`x=; rm -rf /etc${x-/usr}`, "rm-root", ""}, // x is set (empty): /etc
	{`x=/; rm -rf ${x+/}`, "rm-root", ""},       // set: the alternative
	{`x=/etc; rm -rf ${x:+/}`, "rm-root", ""},   // set and not empty: the alternative
	{`x=; rm -rf /etc${x:+/x}`, "rm-root", ""},  // empty: nothing
	{`unset x; rm -rf ${x-/}`, "rm-root", ""},   // unset: the default
	{`unset x; rm -rf /etc${x+/x}`, "rm-root", ""},
	{`x=${#HOME}; echo $x`, "", ""},
	{`x=Hello; echo ${x,,} ${x^^}`, "", ""},
	{`read -r line <<< hello; echo "$line"`, "", ""},
	{`declare -n r=x; echo "$r"`, "", ""},
	{`echo $(dirname /a/b) $(basename /a/b)`, "", ""},
	// ---- git-lose-work: what git cannot give back, asked under git *
	{`git reset --merge HEAD~1`, "", "git-lose-work"},
	{`git reset --keep HEAD~1`, "", "git-lose-work"},
	{`git read-tree -u --reset HEAD`, "", "git-lose-work"},
	{`git checkout-index -f -a`, "", "git-lose-work"},
	{`git checkout-index -fa`, "", "git-lose-work"},
	{`git rm -r .`, "", "git-lose-work"},
	{`git rm -rf src`, "", "git-lose-work"},
	{`git rm -r :/`, "", "git-lose-work"},
	{`git branch -M main`, "", "git-lose-work"},
	{`git branch -f topic HEAD~3`, "", "git-lose-work"},
	{`git branch -C a b`, "", "git-lose-work"},
	{`git tag -d v1`, "", "git-lose-work"},
	{`git tag --delete v1`, "", "git-lose-work"},
	{`git worktree remove --force ../w`, "", "git-lose-work"},
	{`git submodule deinit -f --all`, "", "git-lose-work"},
	{`git repack -a -d`, "", "git-lose-work"},
	{`git repack -ad`, "", "git-lose-work"},
	{`git -c clean.requireForce=false clean -dx`, "", "git-lose-work"},
	{`git config clean.requireForce false && git clean -dx`, "", "git-lose-work"},
	{`git stash clear`, "", "git-checkout-discard"},
	{`git stash drop`, "", "git-checkout-discard"},
	{`git reset --soft HEAD~1`, "", ""},
	{`git rm -r --cached .`, "", ""},
	{`git rm old.go`, "", ""},
	{`git checkout-index -a -f --prefix=export/`, "", ""},
	{`git branch -m old new`, "", ""},
	{`git branch --format='%(refname)'`, "", ""},
	{`git tag -a v1 -m msg`, "", ""},
	{`git tag --sort=-creatordate`, "", ""},
	{`git worktree remove ../w`, "", ""},
	{`git clean -n`, "", ""},
	{`git repack -a`, "", ""},
	// ---- cloud-delete: deletes of cloud and hosting resources, asked under a '*' grant
	{`gh repo delete me/x --yes`, "", "cloud-delete"},
	{`gh release delete v1 -y`, "", "cloud-delete"},
	{`gh api -X DELETE repos/me/x`, "", "cloud-delete"},
	{`gh api --method delete repos/me/x`, "", "cloud-delete"},
	{`gh api -XDELETE repos/me/x`, "", "cloud-delete"},
	{`gh repo edit --visibility public`, "", "cloud-delete"},
	{`aws s3 rm s3://b --recursive`, "", "cloud-delete"},
	{`aws s3 rb s3://b --force`, "", "cloud-delete"},
	{`aws ec2 terminate-instances --instance-ids i-1`, "", "cloud-delete"},
	{`aws rds delete-db-instance --db-instance-identifier d`, "", "cloud-delete"},
	{`aws --region us-east-1 s3api delete-bucket --bucket b`, "", "cloud-delete"},
	{`gcloud projects delete p`, "", "cloud-delete"},
	{`gcloud compute instances delete vm --quiet`, "", "cloud-delete"},
	{`az group delete -n g --yes`, "", "cloud-delete"},
	{`pulumi destroy --yes`, "", "cloud-delete"},
	{`heroku apps:destroy app`, "", "cloud-delete"},
	{`gh repo view`, "", ""},
	{`gh api repos/me/x`, "", ""},
	{`gh release list`, "", ""},
	{`aws s3 ls`, "", ""},
	{`aws s3 rm s3://b/key`, "", ""},
	{`aws ec2 describe-instances`, "", ""},
	{`gcloud projects list`, "", ""},
	{`az group list`, "", ""},
	// ---- shell-state: writers of state that changes what later commands run
	{`printf -v PATH %s /tmp/evil:/usr/bin; ls`, "", "shell-state"},
	{`printf -vPATH %s /tmp/evil; ls`, "", "shell-state"},
	{`printf -v 'BASH_CMDS[ls]' %s /tmp/evil/ls; ls`, "", "shell-state"},
	{`printf -v 'BASH_CMDS[ls]' %s /bin/sh; ls -c 'rm -rf /'`, "rm-root", ""},
	{`BASH_CMDS[ls]=/bin/sh; ls -c 'rm -rf /'`, "rm-root", ""},
	{`BASH_CMDS[ls]=/tmp/evil/ls; ls`, "", "shell-state"},
	{`BASH_ALIASES[ls]='rm -rf /'; ls`, "rm-root", ""},
	{`hash -p /bin/sh ls; ls -c 'rm -rf /'`, "rm-root", ""},
	{`hash -p /tmp/evil/ls ls; ls`, "", "shell-state"},
	{`read PATH <<< /tmp/evil; ls`, "", "shell-state"},
	{`read -r -a BASH_CMDS <<< /tmp`, "", "shell-state"},
	{`read -p "$(date)> " PATH`, "", "shell-state"},
	{`mapfile -t PATH < /dev/null`, "", "shell-state"},
	{`readarray -t LD_PRELOAD < list`, "", "shell-state"},
	{`declare PATH=/tmp/evil; ls`, "", "shell-state"},
	{`export PATH=/tmp/evil:$PATH; ls`, "", "shell-state"},
	{`local PATH=/tmp/evil`, "", "shell-state"},
	{`typeset -x BASH_ENV=/tmp/x`, "", "shell-state"},
	{`export NODE_OPTIONS=--require=/tmp/x.js`, "", "shell-state"},
	{`export JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar`, "", "shell-state"},
	{`printf -v GOFLAGS %s -toolexec=/tmp/x; go test ./...`, "", "shell-state"},
	{`read MAKEFLAGS <<< --eval=x; make`, "", "shell-state"},
	{`printf -v RUSTC_WRAPPER %s /tmp/x; cargo build`, "", "shell-state"},
	{`printf -v npm_config_script_shell %s /tmp/x; npm test`, "", "shell-state"},
	{`printf -v GIT_SSH_COMMAND %s 'sh -c id'; git fetch`, "", "shell-state"},
	{`LD_PRELOAD=/tmp/x.so; export LD_PRELOAD`, "", "shell-state"},
	{`IFS=/; x=a/b`, "", "shell-state"},
	{`CDPATH=/etc; cd .`, "", "shell-state"},
	{`GLOBIGNORE='*'`, "", "shell-state"},
	{`PROMPT_COMMAND=date`, "", "shell-state"},
	{`enable -f /tmp/x.so evil`, "", "shell-state"},
	{`enable -n echo`, "", "shell-state"},
	{`shopt -s xpg_echo`, "", "shell-state"},
	{`shopt -u nocaseglob`, "", "shell-state"},
	{`set -k`, "", "shell-state"},
	{`set -o keyword`, "", "shell-state"},
	{`alias "$x"`, "", "shell-state"},
	{`unset PATH; ls`, "", "shell-state"}, // bash then runs ./ls
	{`unset -v PATH; ls`, "", "shell-state"},
	{`unset "$v"; ls`, "", "shell-state"},
	{`f() { local PATH; ls; }; f`, "", "shell-state"},
	{`declare PATH; ls`, "", "shell-state"},
	{`unset -f PATH; ls`, "", ""},
	{`unset x; ls`, "", ""},
	{`local x`, "", ""},
	{`BASH_ENV='$(rm -rf /)' bash -c ls`, "rm-root", ""}, // bash expands BASH_ENV before it sources it
	{`export BASH_ENV='$(rm -rf /)'`, "rm-root", ""},
	{"ENV='`rm -rf /`' sh -c ls", "rm-root", ""},
	{`ENV=production npm start`, "", ""},   // a plain value names no program
	{`alias ls='rm -rf /'`, "rm-root", ""}, // denied where defined: a later line expands it
	{`alias x='sudo -n true' y=ls`, "privilege", ""},
	{`alias gp='git push --force'`, "", ""}, // asked where it is used
	{`printf -v x %s y; echo $x`, "", ""},
	{`read -r name <<< bob; echo $name`, "", ""},
	{`read -p "[$(date)] name? " x`, "", ""},
	{`mapfile -t lines < list`, "", ""},
	{`export FOO=1`, "", ""},
	{`declare -p PATH`, "", ""},
	{`export PATH`, "", ""},
	{`echo "$PATH"`, "", ""},
	{`hash -r`, "", ""},
	{`hash`, "", ""},
	{`alias ll='ls -l'; ll`, "", ""},
	{`enable -p`, "", ""},
	{`shopt -q xpg_echo`, "", ""},
	{`shopt -s nullglob`, "", ""},
	{`set -euo pipefail`, "", ""},
	{`while IFS= read -r l; do echo "$l"; done < f`, "", ""},
	{`IFS=, read -r a b <<< "x,y"`, "", ""},
	// ---- agent-config: an agent's project configuration is asked, never granted
	{`echo '{}' > .claude/settings.json`, "", "agent-config"},
	{`cp x .CLAUDE/settings.json`, "", "agent-config"}, // the same file on a disk that ignores case
	{`cp x .Claude/settings.json`, "", "agent-config"},
	{`cp x .MCP.json`, "", "agent-config"},
	{`cp x .opencode.json`, "", "agent-config"},
	{`cp x .zed/tasks.json`, "", "agent-config"},
	{`cp x .kilocode/mcp.json`, "", "agent-config"},
	{`echo 'test-cmd: x' > .aider.conf.yml`, "", "agent-config"},
	{`ln -s .claude c`, "", "agent-config"}, // a second name: cp x c/settings.json writes through it
	{`ln -s .claude c; cp x c/settings.json`, "", "agent-config"},
	{`ln -sfn ../proj/.mcp.json m`, "", "agent-config"},
	{`ln .claude/settings.json s`, "", "agent-config"}, // a hard link is the same file
	{`cp -s .mcp.json m`, "", "agent-config"},
	{`cp --link .claude/settings.json s`, "", "agent-config"},
	{`cp .claude/settings.json /tmp/backup.json`, "", ""}, // a copy is not the file
	{`ln -s ../README.md docs/README.md`, "", ""},
	{`ln -s ~/.config/guard g; cp x g/config.toml`, "guard-self", ""}, // guard's files under a second name
	{`ln ~/.config/guard/grants.toml g`, "guard-self", ""},
	{`cp -s ~/.config/guard/grants.toml g`, "guard-self", ""},
	{`ln -s /etc x`, "", ""},   // a link to a directory above guard's files names it, replaces nothing
	{`cp x CLAUDE.md`, "", ""}, // instructions, not hooks: agents edit them all day
	{`cp x .github/copilot-instructions.md`, "", ""},
	{`echo x >> .claude/settings.local.json`, "", "agent-config"},
	{`cp hooks.json .claude/settings.json`, "", "agent-config"},
	{`tee .mcp.json < x`, "", "agent-config"},
	{`sed -i s/a/b/ .vscode/tasks.json`, "", "agent-config"},
	{`cp x .gemini/settings.json`, "", "agent-config"},
	{`echo > .cursor/mcp.json`, "", "agent-config"},
	{`mv x .codex/config.toml`, "", "agent-config"},
	{`echo > .opencode/plugin.js`, "", "agent-config"},
	{`echo {} > opencode.json`, "", "agent-config"},
	{`cd .claude && echo x > settings.json`, "", "agent-config"},
	{`mkdir -p .claude/commands`, "", "agent-config"},
	{`ln -sf /tmp/evil.json .mcp.json`, "", "agent-config"},
	{`rm .claude/settings.json`, "", "agent-config"},
	{`echo x > .cl*/settings.json`, "", "agent-config"},
	{`cat .claude/settings.json`, "", ""},
	{`grep x .mcp.json`, "", ""},
	{`echo x > claude.txt`, "", ""},
	{`echo x > docs/mcp.md`, "", ""},
	{`mv * old/`, "", ""},
	{`echo x > "$F"`, "", ""},
	// ---- guard-self: guard's binaries, any bit, any spelling
	{`chmod -x /home/u/.local/bin/guard`, "guard-self", ""},
	{`chmod a-x /home/u/.local/bin/guard`, "guard-self", ""},
	{`chmod 000 /home/u/.local/bin/guard-cli`, "guard-self", ""},
	{`chmod +t /home/u/.local/bin/guard`, "guard-self", ""},
	{`chmod -w /home/u/.local/bin/guard`, "guard-self", ""},
	{`cd /home/u/.local/bin && chmod -x guard`, "guard-self", ""},
	{`cd /home/u/.local && chmod 644 bin/guard`, "guard-self", ""},
	{`chown nobody /home/u/.local/bin/guard`, "guard-self", ""},
	{`cd ~/.local && rm -rf bin`, "guard-self", ""},
	{`cd ~/.config && mv guard old`, "guard-self", ""},
	{`chmod -R 777 ~/.config`, "guard-self", ""},
	{`cd ~ && chown -R nobody .local`, "guard-self", ""},
	{`chmod 700 ~/.config`, "", ""},
	{`chmod -R u+w ~/.config/nvim`, "", ""},
	{`chmod -x tool`, "", ""},
	{`ls -l /home/u/.local/bin/guard`, "", ""},
	// ---- guard runs what it is given: unwrapped like sh -c
	{`guard -c 'rm -rf /'`, "rm-root", ""},
	{`guard -lc 'rm -rf /'`, "rm-root", ""},
	{`guard -c 'sudo -n true'`, "privilege", ""},
	{`guard exec -- rm -rf /`, "rm-root", ""},
	{`guard exec --timeout 5s -- rm -rf /etc`, "rm-root", ""},
	{`guard exec --no-cache rm -rf /`, "rm-root", ""},
	{`guard-cli grants add 'rm *'`, "guard-self", ""},
	{`GUARD grants add 'rm *'`, "guard-self", ""},
	{`Guard-Cli approve x`, "guard-self", ""},
	{`guard -c 'guard grants add "rm *"'`, "guard-self", ""},
	{`guard grants list`, "", ""},
	{`guard explain 'rm -rf /'`, "", ""},
	{`guard check -- 'rm -rf /'`, "", ""},
	{`guard -c 'ls'`, "", ""},
	// ---- privilege under any name
	{`kdesu ls`, "privilege", ""},
	{`kdesudo ls`, "privilege", ""},
	{`gksu ls`, "privilege", ""},
	{`gksudo ls`, "privilege", ""},
	{`lxqt-sudo ls`, "privilege", ""},
	{`xdg-su -c ls`, "privilege", ""},
	{`please ls`, "privilege", ""},
	{`pleaseedit /etc/hosts`, "privilege", ""},
	{`SUDO -n true`, "privilege", ""},
	{`Sudo -n true`, "privilege", ""},
	{`DOAS ls`, "privilege", ""},
	{`systemd-run ls`, "privilege", ""},
	{`systemd-run --scope -p MemoryMax=1G make`, "privilege", ""},
	{`systemd-run --user --machine=root@.host ls`, "privilege", ""},
	{`flatpak-spawn --host ls`, "privilege", ""},
	{`host-spawn ls`, "privilege", ""},
	{`ssh root@::1 id`, "privilege", ""},
	{`ssh root@[::1] id`, "privilege", ""},
	{`ssh root@0:0:0:0:0:0:0:1 id`, "privilege", ""},
	{`ssh root@::ffff:127.0.0.1 id`, "privilege", ""},
	{`ssh root@127.1 id`, "privilege", ""},
	{`ssh root@2130706433 id`, "privilege", ""},
	{`ssh root@0x7f000001 id`, "privilege", ""},
	{`ssh root@0177.0.0.1 id`, "privilege", ""},
	{`ssh root@0x7f.1 id`, "privilege", ""},
	{`ssh root@localhost. id`, "privilege", ""},
	{`ssh -l root 127.0.0.2 id`, "privilege", ""},
	{`ssh root@localhost6 id`, "privilege", ""},
	{`ssh root@127.0.0.1.nip.io id`, "privilege", ""},
	{`ssh root@x.localtest.me id`, "privilege", ""},
	{`ssh root@nip.io id`, "", ""},
	{`scp root@2130706433:/etc/hosts .`, "privilege", ""},
	{`systemd-run --user ls`, "", ""},
	{`flatpak-spawn ls`, "", ""},
	{`ssh root@example.com id`, "", ""},
	{`ssh root@128.0.0.1 id`, "", ""},
	{`ssh bob@127.0.0.1 id`, "", ""},
	{`ssh root@2113929216 id`, "", ""}, // 126.0.0.0
	{`sudoku`, "", ""},
	{`pleased`, "", ""},
}

// evasions returns spellings bash runs the same as text: for a simple
// command, its name quoted, escaped, split by quotes, by path, in ANSI-C,
// and behind env, command, timeout and xargs; for any text, bash -c, eval,
// and three shells deep.
func evasions(text string) []string {
	out := []string{
		"bash -c " + QuoteWord(text),
		"eval " + QuoteWord(text),
		"bash -c " + QuoteWord("sh -c "+QuoteWord("eval "+QuoteWord(text))),
	}
	a := Analyze(text, tcOpt())
	if len(a.Composite) > 0 || len(a.Commands) == 0 || a.Commands[0].Wrap != WrapNone || strings.ContainsAny(text, "=$`") {
		return out
	}
	name, rest, _ := strings.Cut(text, " ")
	if strings.Contains(name, "/") || len(name) < 2 {
		return out
	}
	var ansi strings.Builder
	for i := 0; i < len(name); i++ {
		fmt.Fprintf(&ansi, `\x%02x`, name[i])
	}
	rest = " " + rest
	return append(out,
		"'"+name+"'"+rest,
		`\`+name+rest,
		name[:1]+"''"+name[1:]+rest,
		`"`+name[:1]+`"`+name[1:]+rest,
		"/usr/bin/"+name+rest,
		"$'"+ansi.String()+"'"+rest,
		"env "+text,
		"command "+text,
		"timeout 5 "+text,
		"xargs "+text+" </dev/null",
	)
}

func TestIssue18(t *testing.T) {
	opt := tcOpt()
	opt.Protected = append(opt.Protected, "/home/u/.local/bin/guard", "/home/u/.local/bin/guard-cli")
	check := func(t *testing.T, in string, c denyCase) {
		t.Helper()
		a := Analyze(in, opt)
		got := fmt.Sprintf("fail=%q (%s) deny=%v ask=%v", a.Fail, a.FailReason, tcIDs(a.Deny), tcIDs(a.Ask))
		switch {
		case c.deny == "" && (len(a.Deny) > 0 || a.Fail != ""):
			t.Errorf("%q: want no deny and a clean parse, got %s", in, got)
		case c.deny != "" && !tcHasHit(a.Deny, c.deny):
			t.Errorf("%q: want deny %s, got %s", in, c.deny, got)
		}
		switch {
		case c.ask != "" && c.deny == "" && !tcHasHit(a.Ask, c.ask):
			t.Errorf("%q: want ask %s, got %s", in, c.ask, got)
		case c.ask == "" && c.deny == "" && len(a.Ask) > 0:
			t.Errorf("%q: want no built-in ask, got %s", in, got)
		}
	}
	for i, c := range issue18Cases {
		t.Run(tcName(i, c.in), func(t *testing.T) {
			check(t, c.in, c)
			if c.deny == "" && c.ask == "" {
				return // a look-alike: its spellings prove nothing more
			}
			for _, e := range evasions(c.in) {
				if c.ask == "shell-state" && !builtinSpelling(e) {
					continue // env, timeout, xargs and a path run a program: no builtin, no state
				}
				check(t, e, c)
			}
		})
	}
}

// builtinSpelling reports an evasion that still runs a shell builtin in
// a shell (not through a program: env, timeout, xargs, /usr/bin/NAME).
func builtinSpelling(e string) bool {
	for _, p := range []string{"env ", "timeout ", "xargs ", "/usr/bin/"} {
		if strings.HasPrefix(e, p) {
			return false
		}
	}
	return true
}

// TestUnsetCertain: with the environment known, a variable nothing sets is
// empty, so "$UNSET"/ is /; anything that could set it keeps it unknown.
func TestUnsetCertain(t *testing.T) {
	opt := tcOpt()
	opt.EnvNames = map[string]bool{"HOME": true, "PATH": true, "SET_IN_ENV": true}
	for _, c := range []denyCase{
		{`rm -rf "$UNSET"/`, "rm-root", ""},
		{`rm -rf "$UNSET"/*`, "rm-root", ""},
		{`rm -rf ${UNSET}/`, "rm-root", ""},
		{`rm -rf "${UNSET:-/}"`, "rm-root", ""},
		{`rm -rf ${UNSET-/}`, "rm-root", ""},                // unset: the default
		{`rm -rf "${UNSET:+/x}"/`, "rm-root", ""},           // unset: no alternative
		{`a=(/ x); rm -rf ${a[UNSET]}`, "", "rm-recursive"}, // a bare name counts as written: unknown
		{`bash -c 'rm -rf "$UNSET"/'`, "rm-root", ""},
		{`rm -rf "$SET_IN_ENV"/`, "", "rm-recursive"},
		{`rm -rf "$UNSET"/; UNSET=x`, "", "rm-recursive"},
		{`f() { UNSET=/x; }; f; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`for i in 1 2; do rm -rf "$UNSET"/; read UNSET; done`, "", "rm-recursive"},
		{`eval "$v"; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`eval $'UNSET\x3d/x'; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`eval "UNSET=/x"; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`eval 'rm -rf "$UNSET"/'`, "rm-root", ""},
		{`source ./env.sh; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`read "$v"; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`: ${UNSET:=/x}; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`let "$v=1"; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`exec {UNSET}>/dev/null; rm -rf "$UNSET"/`, "", "rm-recursive"},
		{`rm -rf "$RANDOM"/`, "", "rm-recursive"},
		{`rm -rf "$BASH_REMATCH"/`, "", "rm-recursive"},
		{`rm -rf "$REPLY"/`, "", "rm-recursive"},
		// a secret's name is never taken for unset: the agent's shell may
		// export it where guard's checker does not (echo prints it there)
		{`echo $GITHUB_TOKEN`, "secret-print", ""},
		{`echo "token: ${OPENAI_API_KEY}"`, "secret-print", ""},
		{`env echo $GITHUB_TOKEN`, "secret-print", ""},
		{`timeout 5 printf %s "$AWS_SECRET_ACCESS_KEY"`, "secret-print", ""},
		{`bash -c 'echo $DB_PASSWORD'`, "secret-print", ""},
	} {
		a := Analyze(c.in, opt)
		got := fmt.Sprintf("deny=%v ask=%v", tcIDs(a.Deny), tcIDs(a.Ask))
		if c.deny != "" && !tcHasHit(a.Deny, c.deny) || c.deny == "" && len(a.Deny) > 0 {
			t.Errorf("%q: want deny %q, got %s", c.in, c.deny, got)
		}
		if c.deny == "" && !tcHasHit(a.Ask, c.ask) {
			t.Errorf("%q: want ask %q, got %s", c.in, c.ask, got)
		}
	}
	// look-alikes: nothing of the secret is printed
	for _, in := range []string{`echo ${GITHUB_TOKEN:+set}`, `echo ${#GITHUB_TOKEN}`, `echo '$GITHUB_TOKEN'`, `echo "$UNSET_NAME"`} {
		if a := Analyze(in, opt); len(a.Deny) > 0 {
			t.Errorf("%q: denied %v", in, tcIDs(a.Deny))
		}
	}
	// without the environment, nothing is certain
	if a := Analyze(`rm -rf "$UNSET"/`, tcOpt()); len(a.Deny) > 0 {
		t.Errorf("unknown environment: %v", tcIDs(a.Deny))
	}
}

// TestValuesNotCertain: where bash's result depends on what guard does not
// model, the value stays unknown rather than guessed harmless.
func TestValuesNotCertain(t *testing.T) {
	opt := tcOpt()
	for _, in := range []string{
		`readonly X=/etc; unset X; rm -rf "$X"`,      // unset fails: X is still /etc
		`declare -r X=/etc; unset X; rm -rf "$X"`,    // the same
		`a=(/etc); declare -n r='a[0]'; rm -rf "$r"`, // r names an element
		`x=/etc; rm -rf "${x//[[:punct:]]/}"/../etc`, // a class shellMatch does not read
	} {
		a := Analyze(in, opt)
		if len(a.Deny) == 0 && len(a.Ask) == 0 {
			t.Errorf("%q: neither denied nor asked", in)
		}
	}
	for _, c := range []denyCase{
		{`readonly X=/etc; unset X; rm -rf "$X"`, "rm-root", ""},
		{`a=(/etc); declare -n r='a[0]'; cat "$r"`, "", ""},
	} {
		a := Analyze(c.in, opt)
		if c.deny != "" && !tcHasHit(a.Deny, c.deny) {
			t.Errorf("%q: want deny %s, got %v", c.in, c.deny, tcIDs(a.Deny))
		}
	}
	// a nameref to an element: the word is unknown, never the text a[0]
	a := Analyze(`k=(x); declare -n r='k[0]'; cat $r`, opt)
	for _, cm := range a.Commands {
		if cm.Name == "cat" && (len(cm.Dynamic) < 2 || !cm.Dynamic[1]) {
			t.Errorf("cat $r through a nameref to an element: %q is taken as literal", cm.Args)
		}
	}
}
