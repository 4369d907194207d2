#!/usr/bin/env bash
# cli-rule.sh - the command-line rule every installed program follows
# (src/replay/cli/cli.h), program by program: --version and --help answer
# (exit 0, standard output); an option's value that is an option is
# refused naming both, an unknown option or name lists the valid ones, a
# repeated option is refused naming both values: each a usage error,
# exit 2, ending "Try 'PROG --help'."  Then the cases a user met in
# toposim: --sacct --partition batch, --alloc fat-tree, no argument at
# all, --jobs-csv given twice, TOPOSIM_PROGRESS_SECONDS set empty.
# shellcheck source=test/sim-lib.sh
. "$(dirname "$0")/sim-lib.sh"
b=${TOPO_BUILDDIR:-.}
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$b/Makefile" 2>/dev/null)
[ -n "$version" ] || version=$("$toposim" --version | awk '{print $NF}')

# prog NAME: the built program.
prog() {
	case $1 in
	toposim | topo-expdb | topotasks) echo "$b/src/sim/$1" ;;
	*) echo "$b/src/tools/$1" ;;
	esac
}

# usage_error PATTERN LABEL ARGS...: the program LABEL names (its first
# word; LABEL is how it names itself, "ftconf generate") run with ARGS
# exits 2, PATTERN on stderr, "Try 'LABEL --help'." last.
usage_error() {
	local pat=$1 label=$2 rc
	shift 2
	(cd "$tmp" && "$(prog "${label%% *}")" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null)
	rc=$?
	if [ "$rc" -ne 2 ]; then
		bad "$label $*: exit $rc, expected 2: $(cat "$tmp/err")"
	elif ! grep -qF -- "$pat" "$tmp/err"; then
		bad "$label $*: stderr lacks '$pat': $(cat "$tmp/err")"
	elif [ "$(tail -n 1 "$tmp/err")" != "Try '$label --help'." ]; then
		bad "$label $*: the last line is not the usage line: $(tail -n 1 "$tmp/err")"
	else
		ok
	fi
}

# ---- --version and --help, every installed program --------------------
for p in toposim topo-expdb topotasks ftconf topogen hetgen; do
	if out=$("$(prog "$p")" --version 2>&1) && [ "$out" = "$p (slurm-topo) $version" ]; then
		ok; else bad "$p --version: '$out'"; fi
	if "$(prog "$p")" --help >"$tmp/help" 2>"$tmp/err" && grep -q "^usage: $p" "$tmp/help" &&
		[ ! -s "$tmp/err" ]; then ok; else
		bad "$p --help: $(head -n 2 "$tmp/help") $(cat "$tmp/err")"; fi
done
# a subcommand's own --help and --version
for pc in "ftconf generate" "ftconf check" "ftconf hopsum" "topo-expdb seed" \
	"topo-expdb show" "topogen torus"; do
	set -- $pc
	if "$(prog "$1")" "$2" --help | grep -q "^usage: $1"; then ok; else bad "$pc --help"; fi
	if [ "$("$(prog "$1")" "$2" --version)" = "$1 (slurm-topo) $version" ]; then ok; else
		bad "$pc --version"; fi
done

# ---- a value that is an option: refused, naming both ---------------------
usage_error "--nodes needs a value, but '--jobs' follows it" topotasks --nodes --jobs x
usage_error "--levels needs a value, but '--width' follows it" "ftconf generate" generate --levels --width 4
usage_error "--topology needs a value, but '--msu-size' follows it" "ftconf hopsum" hopsum --topology --msu-size 2 n1
usage_error "--out needs a value, but '--seed' follows it" hetgen --out --seed 3
usage_error "--nodes needs a value, but '-o' follows it" topogen torus --nodes -o x.swf
usage_error "--key needs a value, but '--from' follows it" "topo-expdb seed" seed --key --from x out
usage_error "--sacct needs a value, but '--partition' follows it" toposim --sacct --partition batch \
	--policy easy --jobs-csv - --summary-json /dev/null
# --opt=VALUE passes a value that begins with '-' (the file named so)
printf '1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$tmp/-t.swf"
if (cd "$tmp" && "$toposim" --workload=-t.swf --nodes 2 --policy easy --jobs-csv /dev/null \
	--summary-json /dev/null --quiet); then ok; else bad "--workload=-t.swf"; fi

# ---- unknown options and names: the valid ones listed --------------------
usage_error "unknown option '--bogus'; valid: --nodes, --jobs, --jobs-csv, --fifo-first-fit, --help, --version" \
	topotasks --bogus
usage_error "unknown option '--polcy' (did you mean --policy?); valid: --workload," toposim --polcy easy
usage_error "unknown option '--lvls' (did you mean --levels?)" "ftconf generate" generate --lvls 3 --width 4
usage_error "unknown command 'gen' (did you mean generate?); valid: generate, check, hopsum" ftconf gen
usage_error "unknown command 'sho' (did you mean show?); valid: show, seed, add" topo-expdb sho x
usage_error "unknown workload kind 'tor' (did you mean torus?); valid: torus, rbhar" topogen tor
usage_error "--machine: unknown machine 'sit' (did you mean site?); valid: site, small" hetgen --machine sit --out x
usage_error "--key: unknown key 'nam' (did you mean name?); valid: name, user, wckey, comment" \
	"topo-expdb seed" seed --key nam x
usage_error "--alloc: unknown allocator 'fat-tree' (did you mean fattree?); valid: first-free, cons-tres, fattree, fattree-msu, tree-greedy" \
	toposim --workload x --policy easy --alloc fat-tree --jobs-csv - --summary-json /dev/null
usage_error "--policy: unknown policy 'bacth'; valid: fcfs, easy," toposim --workload x --policy bacth \
	--jobs-csv - --summary-json /dev/null
usage_error "ambiguous option '--job': --job-requests, --jobs, --jobs-csv begin with it" toposim --job x
usage_error "--estimate-error: estimate error 'lognorm:0.5': unknown model 'lognorm' (none, lognormal, uniform, scale)" \
	toposim --workload x --policy easy --estimate-error lognorm:0.5 --jobs-csv - --summary-json /dev/null
# a partition slurm.conf lacks (the file's fault, exit 1): the ones it has
printf 'NodeName=n[1-4]\nPartitionName=batch Nodes=n[1-4]\nPartitionName=debug Nodes=n1\n' >"$tmp/slurm.conf"
printf '1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$tmp/p.swf"
"$toposim" --workload "$tmp/p.swf" --policy easy --partition bacth --slurm-conf "$tmp/slurm.conf" \
	--jobs-csv /dev/null --summary-json /dev/null 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -qF "no PartitionName=bacth (the partitions there: batch, debug)" "$tmp/err"; then ok; else
	bad "--partition bacth --slurm-conf: exit $rc: $(cat "$tmp/err")"; fi

# ---- an option given twice: refused, naming both values -------------------
usage_error "--jobs-csv given twice ('a', then 'b'): give it once" toposim --workload x --policy easy \
	--jobs-csv a --jobs-csv b --summary-json /dev/null
usage_error "--policy given twice ('easy', then 'fcfs')" toposim -w x -p easy --policy fcfs
usage_error "--workload given twice" toposim -w x --workload y -p easy
usage_error "--quiet given twice: give it once" toposim --quiet --quiet
usage_error "--width given twice ('4', then '2')" "ftconf generate" generate --levels 2 --width 4 --width 2
usage_error "--seed given twice ('1', then '2')" hetgen --seed 1 --seed 2 --out x
usage_error "--seed given twice ('1', then '2')" topogen rbhar --seed 1 --seed 2
usage_error "--jobs given twice" topotasks --nodes a --jobs b --jobs c
usage_error "--from given twice ('a', then 'b')" "topo-expdb seed" seed --key name --from a --from b x
# nothing was written by a refused command line
if [ ! -e "$tmp/a" ] && [ ! -e "$tmp/b" ]; then ok; else bad "a refused command line wrote a or b"; fi

# ---- no argument: what a run needs, every form named ---------------------
usage_error "a workload is required: --workload FILE (SWF), --sacct FILE (sacct -P output) or --machine FILE" toposim
"$toposim" >/dev/null 2>"$tmp/err"
if grep -q '^usage: toposim' "$tmp/err"; then ok; else bad "toposim without arguments: no usage text"; fi
usage_error "a command is required: generate, check or hopsum" ftconf
usage_error "a command is required: show, seed or add" topo-expdb
usage_error "the workload kind is required first: torus or rbhar" topogen

# ---- the environment: set but empty is unset -----------------------------
printf '1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$tmp/one.swf"
if TOPOSIM_PROGRESS_SECONDS='' "$toposim" --workload "$tmp/one.swf" --nodes 2 --policy easy \
	--jobs-csv /dev/null --summary-json /dev/null 2>"$tmp/err"; then ok; else
	bad "TOPOSIM_PROGRESS_SECONDS='': $(cat "$tmp/err")"; fi
if TOPOSIM_PROGRESS_SECONDS=x "$toposim" --workload "$tmp/one.swf" --nodes 2 --policy easy \
	--jobs-csv /dev/null --summary-json /dev/null 2>"$tmp/err"; then
	bad "TOPOSIM_PROGRESS_SECONDS=x accepted"; else ok; fi

# ---- ftconf hopsum on a terminal waits for nothing ------------------------
"$(prog ftconf)" generate --levels 2 --width 2 -o "$tmp/t.conf"
if command -v script >/dev/null; then
	out=$(timeout 10 script -qec "$(prog ftconf) hopsum --topology $tmp/t.conf" /dev/null 2>&1)
	rc=$?
	case "$rc:$out" in
	2:*"no HOSTLIST"*) ok ;;
	*) bad "ftconf hopsum on a terminal: exit $rc: $out" ;;
	esac
else
	bad "no script(1) to give ftconf a terminal (util-linux)"
fi
# piped, it reads the lists; check says what tree a file is
if [ "$(echo 'n[1-2]' | "$(prog ftconf)" hopsum --topology "$tmp/t.conf")" = 0 ]; then ok; else
	bad "ftconf hopsum from a pipe"; fi
if [ "$("$(prog ftconf)" check --topology "$tmp/t.conf")" = \
	"$tmp/t.conf: 4 nodes, 2 leaf switches, 2 switch levels, 1 fabric" ]; then ok; else
	bad "ftconf check: $("$(prog ftconf)" check --topology "$tmp/t.conf" 2>&1)"; fi

sim_done cli-rule
