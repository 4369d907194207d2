#!/bin/bash
# slurm-suite.sh - Slurm's own pytest suite (testsuite/python of the source
# package the build downloads) as a gate: run it in local-config mode
# against a stock cluster and against clusters with the project's plugins
# (test/suite/combos), then compare test by test (suite-compare.py).  A
# test that passes on stock and fails with our plugins fails the gate;
# known environmental failures are listed in test/suite/known.
#
# Usage: slurm-suite.sh --slurm 22.05|24.11 --plugindir DIR --out DIR
#                       [--only NAME[,NAME...]] [--full]
#   --full   run every test (default: the tests known as slow are left
#            out, see `known`, to keep CI short).
# Needs root (topo-cluster).  Exit 0: no regression; 1: a regression or a
# cluster that did not start; 2: usage.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TOPO_CLUSTER=$TOP/contrib/cluster/topo-cluster
SERIES="" PLUGINDIR="" OUT="" ONLY="" FULL=0
die() { echo "slurm-suite: $*" >&2; exit "${2:-1}"; }

while [ $# -gt 0 ]; do
	case $1 in
	--slurm) SERIES=$2; shift 2 ;;
	--plugindir) PLUGINDIR=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--only) ONLY=,$2,; shift 2 ;;
	--full) FULL=1; shift ;;
	*) die "unknown argument $1 (see the header of $0)" 2 ;;
	esac
done
case $SERIES in 22.05 | 24.11) ;; *) die "--slurm 22.05 or 24.11" 2 ;; esac
[ -n "$PLUGINDIR" ] && [ -d "$PLUGINDIR" ] || die "--plugindir DIR: the built plugins" 2
[ -n "$OUT" ] || die "--out DIR" 2
[ "$(id -u)" = 0 ] || die "needs root (Slurm daemons in network namespaces)"
PLUGINDIR=$(cd "$PLUGINDIR" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cache=${SLURM_TOPO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/slurm-topo}

# ---- Slurm's suite, pytest and pexpect where the clients run -------------
need_debs() { # ROOT PKG...: install PKGs (Debian) into ROOT ("" = this system)
	local root=$1 p missing=""
	shift
	for p in "$@"; do
		dpkg-query ${root:+--admindir="$root/var/lib/dpkg"} -W -f='${Status}' "$p" \
			2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "slurm-suite: installing$missing${root:+ into $root}" >&2
	# shellcheck disable=SC2086
	if [ -z "$root" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null ||
			{ apt-get update -q >/dev/null &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null; }
	else
		chroot "$root" env DEBIAN_FRONTEND=noninteractive sh -c \
			"apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $missing >/dev/null"
	fi || die "apt-get install$missing failed"
}

if [ "$SERIES" = 22.05 ]; then
	src=$("$TOP/contrib/slurm-headers.sh") || die "contrib/slurm-headers.sh failed"
	need_debs "" python3-pytest python3-pexpect
else
	src=$("$TOP/contrib/slurm-headers.sh" --version 24.11) || die "contrib/slurm-headers.sh --version 24.11 failed"
	# The 24.11 clients run in the Debian 13 root: so does pytest.
	"$TOPO_CLUSTER" prepare --slurm 24.11 >/dev/null || die "no Debian 13 root"
	need_debs "$cache/trixie-root" python3-pytest python3-pexpect python3-requests
fi
[ -f "$src/testsuite/python/lib/atf.py" ] || die "$src has no testsuite/python"

# Cluster files shared by every cluster.
printf 'SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=top Switches=s[1-2]\n' \
	>"$OUT/topology.conf"
printf 'Dimensions=2x2x2\nNodes=n[1-8]\n' >"$OUT/torus.conf"
printf 'PreemptType=preempt/partition_prio\nPreemptMode=CANCEL,GANG\nMinJobAge=86400\n' >"$OUT/extra.conf"

# Deselected tests: "slow" lines of `known` (unless --full); the
# preemption tests where a cluster does not run them.
deselect() { # PREEMPT
	local id what
	while read -r what id _; do
		case $what in
		slow) [ "$FULL" = 1 ] || echo "--deselect=$id" ;;
		esac
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$HERE/known")
	[ "$1" = yes ] || echo "--deselect=tests/parameters/slurm/PreemptType"
}

# ---- one cluster: start, run the suite, stop ------------------------------
# suite_exec DIR PYTEST-ARGS...: pytest in DIR/suite, in the cluster's
# namespace (and, on 24.11, its root: chroot starts in /, hence the cd).
suite_exec() {
	local dir=$1
	shift
	"$TOPO_CLUSTER" exec --dir "$dir" -- sh -c 'cd "$0/suite" && exec env \
		SLURM_TESTSUITE_CONF="$0/testsuite.conf" PYTHONDONTWRITEBYTECODE=1 \
		pytest-3 -p no:cacheprovider -q -rfE --basetemp="$0/tmp" \
		--junitxml="$0/result.xml" "$@"' "$dir" "$@"
}

# on_cluster TAG OPTIONS... -- PYTEST-ARGS...: a fresh cluster $OUT/TAG
# (topo-cluster OPTIONS, @TOPO@/@TORUS@ filled in), pytest on it
# ($OUT/TAG.log, $OUT/TAG.xml), then stopped.  pytest's exit status, or 99
# when the cluster did not start.
on_cluster() {
	local tag=$1 dir=$OUT/$1 rc=0 args=() a
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		a=${1//@TOPO@/$OUT/topology.conf}
		args+=("${a//@TORUS@/$OUT/torus.conf}")
		shift
	done
	shift
	rm -rf "$dir"
	if ! "$TOPO_CLUSTER" start --dir "$dir" --nodes 8 --cpus 2 --slurm "$SERIES" \
		--plugindir "$PLUGINDIR" --extra-conf "$OUT/extra.conf" "${args[@]}" \
		>"$OUT/$tag.start" 2>&1; then
		echo "slurm-suite: $tag: cluster did not start:" >&2
		tail -n 5 "$OUT/$tag.start" >&2
		"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1 || true
		return 99
	fi
	# The suite and its output live in the cluster's directory, which the
	# 24.11 clients' root sees at the same path.
	cp -r "$src/testsuite/python" "$dir/suite"
	printf 'SlurmInstallDir=/usr\nSlurmConfigDir=%s\n' "$dir" >"$dir/testsuite.conf"
	suite_exec "$dir" "$@" >"$OUT/$tag.log" 2>&1 || rc=$?
	cp "$dir/result.xml" "$OUT/$tag.xml" 2>/dev/null || true
	"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1 || true
	return "$rc"
}

# run_one NAME PREEMPT OPTIONS...: the suite on cluster NAME.
run_one() {
	local name=$1 preempt=$2 rc=0
	shift 2
	mapfile -t sel < <(deselect "$preempt")
	on_cluster "$name" "$@" -- "${sel[@]}" tests || rc=$?
	[ "$rc" = 99 ] && return 1
	# pytest: 0 all passed, 1 some failed; anything else is a broken run.
	[ "$rc" -le 1 ] && [ -f "$OUT/$name.xml" ] || {
		echo "slurm-suite: $name: pytest exited $rc (log: $OUT/$name.log)" >&2
		return 1
	}
	echo "slurm-suite: $name: $(tail -n 1 "$OUT/$name.log")"
}

# rerun NAME IDS-FILE OPTIONS...: the tests in IDS-FILE again on a fresh
# cluster of that kind ($OUT/NAME.rerun.xml).
rerun() {
	local name=$1 ids=$2
	shift 2
	mapfile -t ids_a <"$ids"
	on_cluster "$name.rerun" "$@" -- "${ids_a[@]}"
}

# ---- all clusters of the series at once, then the comparison --------------
mapfile -t lines < <(awk -v s="$SERIES" '$1 == s' "$HERE/combos")
declare -A pids=()
t0=$(date +%s)
for l in "${lines[@]}"; do
	read -r _ name preempt opts <<<"$l"
	[ -z "$ONLY" ] || [ "$name" = stock ] || [[ $ONLY == *",$name,"* ]] || continue
	# shellcheck disable=SC2086
	run_one "$name" "$preempt" $opts &
	pids[$name]=$!
done
fail=0
for name in "${!pids[@]}"; do
	wait "${pids[$name]}" || fail=1
done
echo "slurm-suite: $SERIES: all clusters ran in $(($(date +%s) - t0)) s"
[ "$fail" = 0 ] || die "a cluster did not run the suite (logs in $OUT)"

# A test that failed here but passed on stock gets one more run on a
# fresh cluster of the same kind (the suite has timing-sensitive tests
# that also fail now and then on stock).
for l in "${lines[@]}"; do
	read -r _ name preempt opts <<<"$l"
	[ -n "${pids[$name]:-}" ] && [ "$name" != stock ] || continue
	/usr/bin/python3 "$HERE/suite-compare.py" --ids "$OUT/stock.xml" "$OUT/$name.xml" \
		>"$OUT/$name.again" || die "suite-compare.py failed"
	if [ -s "$OUT/$name.again" ]; then
		echo "slurm-suite: $name: again: $(tr '\n' ' ' <"$OUT/$name.again")"
		# shellcheck disable=SC2086
		rerun "$name" "$OUT/$name.again" $opts || true
	fi
done

args=()
for l in "${lines[@]}"; do
	read -r _ name _ <<<"$l"
	[ -n "${pids[$name]:-}" ] && [ "$name" != stock ] && args+=("$OUT/$name.xml")
done
/usr/bin/python3 "$HERE/suite-compare.py" --known "$HERE/known" --series "$SERIES" \
	"$OUT/stock.xml" "${args[@]}"
