#!/bin/bash
# slurm-suite.sh - Slurm's own pytest suite (testsuite/python of the source
# package the build downloads) as a gate: run it against a stock cluster
# and against clusters with the project's plugins (test/suite/combos), then
# compare test by test (suite-compare.py).  A test that passes on stock and
# fails with our plugins fails the gate; known environmental failures are
# listed in test/suite/known.
#
# Two modes per cluster, one after the other: local-config (the whole
# suite against a running cluster) and auto-config for the modules listed
# in test/suite/auto (the suite writes slurm.conf, starts and stops the
# daemons itself and adds nodes; topo-cluster --no-slurm gives it the
# namespace and authentication, exec --pid-ns a private PID namespace so
# that it finds only its own daemons).
#
# Usage: slurm-suite.sh --slurm 22.05|24.11 --plugindir DIR --out DIR
#                       [--only NAME[,NAME...]] [--full] [--modes local,auto]
#   --full   run every test (default: the tests known as slow are left
#            out, see `known`, to keep CI short).
#   --modes  which of the two runs per cluster (default both).
# Needs root (topo-cluster).  Exit 0: no regression; 1: a regression or a
# cluster that did not start; 2: usage.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TOPO_CLUSTER=$TOP/contrib/cluster/topo-cluster
SERIES="" PLUGINDIR="" OUT="" ONLY="" FULL=0 MODES=local,auto
die() { echo "slurm-suite: $*" >&2; exit "${2:-1}"; }

while [ $# -gt 0 ]; do
	case $1 in
	--slurm) SERIES=$2; shift 2 ;;
	--plugindir) PLUGINDIR=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--only) ONLY=,$2,; shift 2 ;;
	--full) FULL=1; shift ;;
	--modes) MODES=$2; shift 2 ;;
	*) die "unknown argument $1 (see the header of $0)" 2 ;;
	esac
done
case $SERIES in 22.05 | 24.11) ;; *) die "--slurm 22.05 or 24.11" 2 ;; esac
case $MODES in local | auto | local,auto | auto,local) ;; *) die "--modes: local, auto or local,auto" 2 ;; esac
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
	# The 24.11 clients run in the Debian 13 root: so does pytest.  Its
	# auto-config mode runs `mysql` at every module's end to restore an
	# accounting database; with the client and no server that is a no-op.
	"$TOPO_CLUSTER" prepare --slurm 24.11 >/dev/null || die "no Debian 13 root"
	need_debs "$cache/trixie-root" python3-pytest python3-pexpect python3-requests mariadb-client
fi
[ -f "$src/testsuite/python/lib/atf.py" ] || die "$src has no testsuite/python"

# Cluster files shared by every cluster.
printf 'SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=top Switches=s[1-2]\n' \
	>"$OUT/topology.conf"
printf 'Dimensions=2x2x2\nNodes=n[1-8]\n' >"$OUT/torus.conf"
# Auto-config mode adds nodes n9.. (up to n17 in the modules of `auto`:
# 24.11 adds all N nodes a test requires): its topology files place them,
# so that our plugins, not a fallback, decide for them too.
mkdir -p "$OUT/auto"
printf 'SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=s3 Nodes=n[9-24]\nSwitchName=top Switches=s[1-3]\n' \
	>"$OUT/auto/topology.conf"
printf 'Dimensions=4x2x3\nNodes=n[1-24]\n' >"$OUT/auto/torus.conf"
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

# Auto-config modules of this series (test/suite/auto), if that mode runs.
auto_ids() {
	[[ $MODES == *auto* ]] || return 0
	awk -v s="$SERIES" '$1 == s { print $2 }' "$HERE/auto"
}

# ---- one cluster: start, run the suite, stop ------------------------------
# suite_exec DIR MODE PYTEST-ARGS...: pytest in DIR/suite, in the cluster's
# namespace (and, on 24.11, its root: chroot starts in /, hence the cd).
# Auto-config: in a private PID namespace, and with DIR/sbin first in PATH.
suite_exec() {
	local dir=$1 mode=$2 pidns=()
	shift 2
	[ "$mode" = auto ] && pidns=(--pid-ns)
	"$TOPO_CLUSTER" exec --dir "$dir" "${pidns[@]}" -- sh -c 'cd "$0/suite" && exec env \
		PATH="$0/sbin:$PATH" SLURM_TESTSUITE_CONF="$0/testsuite.conf" PYTHONDONTWRITEBYTECODE=1 \
		pytest-3 -p no:cacheprovider -q -rfE --basetemp="$0/tmp" \
		--junitxml="$0/result.xml" "$@"' "$dir" "$@"
}

# The suite finds daemons by /proc/PID/exe = SBIN/slurmctld (SBIN being
# where PATH has slurmctld).  Debian's /usr/sbin/slurmctld is a link to
# slurmctld-wlm, so it would never see one and not wait for a stopping
# slurmctld before starting the next: DIR/sbin has copies under the plain
# names.  24.11: the binaries of the Debian 13 root, where DIR is seen at
# the same path.
sbin_copies() { # DIR
	local b root=""
	[ "$SERIES" = 24.11 ] && root=$cache/trixie-root
	mkdir -p "$1/sbin"
	for b in slurmctld slurmd; do
		cp "$(readlink -f "$root/usr/sbin/$b-wlm" 2>/dev/null || echo "$root/usr/sbin/$b")" \
			"$1/sbin/$b" || return 1
	done
}

# on_cluster TAG MODE OPTIONS... -- PYTEST-ARGS...: a fresh cluster $OUT/TAG
# (topo-cluster OPTIONS, @TOPO@/@TORUS@ filled in), pytest on it in MODE
# (local or auto) ($OUT/TAG.log, $OUT/TAG.xml), then stopped.  pytest's
# exit status, or 99 when the cluster did not start.
on_cluster() {
	local tag=$1 mode=$2 dir=$OUT/$1 rc=0 args=() a files=$OUT
	shift 2
	[ "$mode" = auto ] && { files=$OUT/auto; args=(--plain-conf --no-slurm); }
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		a=${1//@TOPO@/$files/topology.conf}
		args+=("${a//@TORUS@/$files/torus.conf}")
		shift
	done
	shift
	[ "$mode" = auto ] && set -- --auto-config "$@"
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
	if [ "$mode" = auto ] && ! sbin_copies "$dir"; then
		echo "slurm-suite: $tag: cannot copy the daemons into $dir/sbin" >&2
		"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1 || true
		return 99
	fi
	suite_exec "$dir" "$mode" "$@" >"$OUT/$tag.log" 2>&1 || rc=$?
	cp "$dir/result.xml" "$OUT/$tag.xml" 2>/dev/null || true
	"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1 || true
	return "$rc"
}

# run_mode TAG MODE OPTIONS... -- PYTEST-ARGS...: on_cluster, and a
# verdict on pytest's exit.
run_mode() {
	local tag=$1 rc=0
	on_cluster "$@" || rc=$?
	[ "$rc" = 99 ] && return 1
	# pytest: 0 all passed, 1 some failed; anything else is a broken run.
	[ "$rc" -le 1 ] && [ -f "$OUT/$tag.xml" ] || {
		echo "slurm-suite: $tag: pytest exited $rc (log: $OUT/$tag.log)" >&2
		return 1
	}
	echo "slurm-suite: $tag: $(tail -n 1 "$OUT/$tag.log")"
}

# run_one NAME PREEMPT OPTIONS...: the suite on cluster NAME in
# local-config mode ($OUT/NAME.*) and, on a second cluster at the same
# time, the auto-config modules ($OUT/NAME.auto.*).  Both mostly wait on
# Slurm, so together they take about the time of the longer.
run_one() {
	local name=$1 preempt=$2 rc=0 local_pid=""
	shift 2
	if [[ $MODES == *local* ]]; then
		mapfile -t sel < <(deselect "$preempt")
		run_mode "$name" local "$@" -- "${sel[@]}" tests &
		local_pid=$!
	fi
	mapfile -t sel < <(auto_ids)
	if [ "${#sel[@]}" -gt 0 ]; then
		run_mode "$name.auto" auto "$@" -- "${sel[@]}" || rc=1
	fi
	if [ -n "$local_pid" ]; then
		wait "$local_pid" || rc=1
	fi
	return "$rc"
}

# rerun TAG MODE IDS-FILE OPTIONS...: the tests in IDS-FILE again on a
# fresh cluster of that kind ($OUT/TAG.rerun.xml).
rerun() {
	local tag=$1 mode=$2 ids=$3
	shift 3
	mapfile -t ids_a <"$ids"
	[ "$mode" = auto ] && tag=$tag.auto
	on_cluster "$tag.rerun" "$mode" "$@" -- "${ids_a[@]}"
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
# that also fail now and then on stock).  Then the comparison, per mode.
modes=()
[[ $MODES == *local* ]] && modes+=(local)
[ -n "$(auto_ids)" ] && modes+=(auto)
gate=0
for mode in "${modes[@]}"; do
	sfx=""
	[ "$mode" = auto ] && sfx=.auto
	args=()
	for l in "${lines[@]}"; do
		read -r _ name preempt opts <<<"$l"
		[ -n "${pids[$name]:-}" ] && [ "$name" != stock ] || continue
		args+=("$OUT/$name$sfx.xml")
		/usr/bin/python3 "$HERE/suite-compare.py" --ids "$OUT/stock$sfx.xml" "$OUT/$name$sfx.xml" \
			>"$OUT/$name$sfx.again" || die "suite-compare.py failed"
		if [ -s "$OUT/$name$sfx.again" ]; then
			echo "slurm-suite: $name$sfx: again: $(tr '\n' ' ' <"$OUT/$name$sfx.again")"
			# shellcheck disable=SC2086
			rerun "$name" "$mode" "$OUT/$name$sfx.again" $opts || true
		fi
	done
	/usr/bin/python3 "$HERE/suite-compare.py" --known "$HERE/known" --series "$SERIES" \
		--mode "$mode" "$OUT/stock$sfx.xml" "${args[@]}" || gate=1
done
exit "$gate"
