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
# Usage: slurm-suite.sh --slurm 22.05|24.11|26.05 --plugindir DIR --out DIR
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
case $SERIES in 22.05 | 24.11 | 26.05) ;; *) die "--slurm 22.05, 24.11 or 26.05" 2 ;; esac
case $MODES in local | auto | local,auto | auto,local) ;; *) die "--modes: local, auto or local,auto" 2 ;; esac
[ -n "$PLUGINDIR" ] && [ -d "$PLUGINDIR" ] || die "--plugindir DIR: the built plugins" 2
[ -n "$OUT" ] || die "--out DIR" 2
[ "$(id -u)" = 0 ] || die "needs root (Slurm daemons in network namespaces)"
PLUGINDIR=$(cd "$PLUGINDIR" && pwd)
# Which lines of known, skips and auto apply: the series, or for 26.05
# with 24.11's suite "26.05@24.11" (see suite_2605).
KEY=$SERIES
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

# Slurm 26.05's testsuite/python.  SchedMD's release tarballs have none
# since 25.11: the suite lives on Slurm's master branch only, and its
# tests skip below the release they need (atf.require_version), so that
# one suite serves every supported release.  Neither that branch nor
# Debian's 26.05 source can be downloaded here, so by default the 26.05
# gate runs the newest suite Debian serves here, 24.11.5's (the one the
# 24.11 gate runs), against the 26.05 daemons: its lines in known, skips
# and auto are keyed "26.05@24.11".  What passes on stock 26.05 must pass
# with our plugins, whichever suite asks.
#   SLURM_TESTSUITE=TARBALL|DIR  runs another suite (DIR holding
#      testsuite/python), keyed "26.05": e.g. one snapshot of master,
#      2026-08-20 (a week after 26.05.3), made with
#   git archive --prefix=slurm-testsuite-284c3b95f0/ 284c3b95f0 testsuite/python | xz -9
#      in SchedMD's repository;
#   SLURM_TESTSUITE=master  that snapshot, looked for beside the 26.05.3
#      source (../shared/slurm) and in the cache, checked by its sha256.
# Unpacked once into the cache; prints the directory that holds
# testsuite/python.
SUITE_2605=slurm-testsuite-284c3b95f0
SUITE_2605_SHA256=9ecf3f732323fae205349ab3d4f2efa69a94f764ea4c404557871ca46c12432f
suite_2605() {
	local t=$SLURM_TESTSUITE d
	if [ -d "$t" ]; then
		[ -d "$t/testsuite/python" ] || die "SLURM_TESTSUITE=$t has no testsuite/python"
		(cd "$t" && pwd)
		return
	fi
	if [ "$t" = master ]; then
		for t in "$TOP/../shared/slurm/$SUITE_2605.tar.xz" "$cache/$SUITE_2605.tar.xz" ""; do
			[ -f "$t" ] && break
		done
		[ -n "$t" ] || die "no $SUITE_2605.tar.xz (Slurm 26.05's testsuite/python, see this script) in $TOP/../shared/slurm or $cache; SLURM_TESTSUITE=TARBALL|DIR names one"
		echo "$SUITE_2605_SHA256  $t" | sha256sum -c --quiet - >/dev/null 2>&1 ||
			die "$t is not the snapshot this gate pins (sha256 $SUITE_2605_SHA256)"
	fi
	[ -f "$t" ] || die "SLURM_TESTSUITE=$t: no such file or directory"
	d=$cache/$(basename "$t" .tar.xz)
	if [ ! -f "$d/testsuite/python/lib/atf.py" ] || [ "$t" -nt "$d" ]; then
		rm -rf "$d.tmp" "$d"
		mkdir -p "$d.tmp"
		tar -xJf "$t" -C "$d.tmp" --strip-components=1 || die "cannot unpack $t"
		mv "$d.tmp" "$d"
	fi
	echo "$d"
}

if [ "$SERIES" = 22.05 ]; then
	src=$("$TOP/contrib/slurm-headers.sh") || die "contrib/slurm-headers.sh failed"
	need_debs "" python3-pytest python3-pexpect
elif [ "$SERIES" = 26.05 ]; then
	# The 26.05 daemons and clients built from source (topo-cluster
	# builds them once), its configured tree (the suite compiles a few
	# programs against it) and the suite, run on this machine; the suite
	# also imports jsondiff, jsonpatch and yaml; its auto-config mode
	# runs `mysql` (as on 24.11) and copies directories with rsync.
	if [ -n "${SLURM_TESTSUITE:-}" ]; then
		src=$(suite_2605)
	else
		src=$("$TOP/contrib/slurm-headers.sh" --version 24.11) || die "contrib/slurm-headers.sh --version 24.11 failed"
		KEY=26.05@24.11
	fi
	"$TOPO_CLUSTER" prepare --slurm 26.05 >/dev/null || die "topo-cluster prepare --slurm 26.05 failed"
	tree=$("$TOP/contrib/slurm-source.sh" --check) || die "no configured Slurm 26.05 tree (contrib/slurm-source.sh --check)"
	prefix=$cache/slurm-26.05.3-install # where topo-cluster runs them from (slurm-26.05.sh)
	[ -x "$prefix/sbin/slurmctld" ] || die "no Slurm 26.05 build in $prefix"
	need_debs "" python3-pytest python3-pexpect python3-requests python3-jsondiff \
		python3-jsonpatch python3-yaml mariadb-client rsync
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
if [ "$SERIES" = 26.05 ]; then
	mkdir -p "$OUT/shim" && cp "$HERE/sudo" "$OUT/shim/sudo" || die "cannot copy test/suite/sudo into $OUT/shim"
fi

# Deselected tests: "slow" lines of `known` and the files of `skips`
# (unless --full), "ignore" lines (modules that cannot load here); the
# preemption tests where a cluster does not run them.
deselect() { # PREEMPT
	local id what ser
	while read -r what id ser _; do
		[ "$ser" = all ] || [ "$ser" = "$KEY" ] || continue
		case $what in
		slow) [ "$FULL" = 1 ] || echo "--deselect=$id" ;;
		ignore) echo "--ignore=$id" ;;
		esac
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$HERE/known")
	[ "$FULL" = 1 ] || awk -v s="$KEY" '$1 == s { print "--deselect=" $2 }' "$HERE/skips"
	[ "$1" = yes ] || echo "--deselect=tests/parameters/slurm/PreemptType"
}

# Auto-config modules of this series (test/suite/auto), if that mode runs.
auto_ids() {
	[[ $MODES == *auto* ]] || return 0
	awk -v s="$KEY" '$1 == s { print $2 }' "$HERE/auto"
}

# ---- one cluster: start, run the suite, stop ------------------------------
# Where the suite goes in a cluster's directory: 26.05's finds its own
# scripts and data files in ../../python beside its lib directory.
SUITE_IN=suite
[ "$SERIES" = 26.05 ] && SUITE_IN=testsuite/python

# suite_exec DIR MODE PATH-FIRST TMP PYTEST-ARGS...: pytest in
# DIR/$SUITE_IN, in the cluster's namespace (and, on 24.11, its root:
# chroot starts in /, hence the cd), with PATH-FIRST before PATH and its
# temporary files in TMP.  Auto-config: in a private PID namespace.
suite_exec() {
	local dir=$1 mode=$2 first=$3 tmp=$4 pidns=()
	shift 4
	[ "$mode" = auto ] && pidns=(--pid-ns)
	"$TOPO_CLUSTER" exec --dir "$dir" "${pidns[@]}" -- sh -c 'cd "$0/$1" && PATH="$2:$PATH" && tmp=$3 && shift 3 && \
		exec env SLURM_TESTSUITE_CONF="$0/testsuite.conf" PYTHONDONTWRITEBYTECODE=1 \
		pytest-3 -p no:cacheprovider -q -rfE --basetemp="$tmp" \
		--junitxml="$0/result.xml" "$@"' "$dir" "$SUITE_IN" "$first" "$tmp" "$@"
}

# The suite finds daemons by /proc/PID/exe = SBIN/slurmctld (SBIN being
# where PATH has slurmctld).  Debian's /usr/sbin/slurmctld is a link to
# slurmctld-wlm, so it would never see one and not wait for a stopping
# slurmctld before starting the next: DIR/sbin has copies under the plain
# names.  24.11: the binaries of the Debian 13 root, where DIR is seen at
# the same path.  (26.05's build has them under their plain names.)
sbin_copies() { # DIR
	local b root=""
	[ "$SERIES" = 24.11 ] && root=$cache/trixie-root
	mkdir -p "$1/sbin"
	for b in slurmctld slurmd; do
		cp "$(readlink -f "$root/usr/sbin/$b-wlm" 2>/dev/null || echo "$root/usr/sbin/$b")" \
			"$1/sbin/$b" || return 1
	done
}

# suite_setup DIR MODE: the suite's files in the cluster's directory
# (which the 24.11 clients' root sees at the same path): DIR/$SUITE_IN,
# DIR/testsuite.conf; prints what goes first in the suite's PATH.
suite_setup() {
	local dir=$1 mode=$2
	mkdir -p "$(dirname "$dir/$SUITE_IN")" && cp -r "$src/testsuite/python" "$dir/$SUITE_IN" || return 1
	if [ "$SERIES" != 26.05 ]; then
		printf 'SlurmInstallDir=/usr\nSlurmConfigDir=%s\n' "$dir" >"$dir/testsuite.conf"
		if [ "$mode" = auto ]; then sbin_copies "$dir" || return 1; fi
		echo "$dir/sbin"
		return
	fi
	# 26.05: the build's daemons first in PATH (the system's are 22.05),
	# and test/suite/sudo in front of them ($OUT/shim): the suite runs
	# most commands through sudo, which would lose the cluster's
	# SLURM_CONF and PATH.  Not in DIR: auto-config mode removes DIR and
	# puts back a copy at each module's end, through sudo.
	printf 'SlurmInstallDir=%s\nSlurmConfigDir=%s\nSlurmSourceDir=%s\nSlurmBuildDir=%s\n' \
		"$prefix" "$dir" "$tree" "$tree" >"$dir/testsuite.conf"
	# Some modules ask `slurmdbd -V` for its version when they load, and
	# 26.05's slurmdbd reads slurmdbd.conf before it answers: one for
	# that question (the clusters have no accounting; those tests skip).
	printf 'DbdHost=localhost\nStorageType=accounting_storage/mysql\nSlurmUser=root\n' \
		>"$dir/slurmdbd.conf" && chmod 600 "$dir/slurmdbd.conf" || return 1
	# Auto-config mode puts back a copy of DIR at each module's end, and
	# a copy has no socket: munged's (DIR/munge, the one daemon that runs
	# through all modules) moves out of DIR, with a link in its place.
	if [ "$mode" = auto ]; then
		rm -rf "$dir.munge" && mv "$dir/munge" "$dir.munge" &&
			ln -s "$dir.munge" "$dir/munge" || return 1
	fi
	echo "$OUT/shim:$prefix/sbin"
}

# on_cluster TAG MODE OPTIONS... -- PYTEST-ARGS...: a fresh cluster $OUT/TAG
# (topo-cluster OPTIONS, @TOPO@/@TORUS@ filled in), pytest on it in MODE
# (local or auto) ($OUT/TAG.log, $OUT/TAG.xml), then stopped.  pytest's
# exit status, or 99 when the cluster did not start.
on_cluster() {
	local tag=$1 mode=$2 dir=$OUT/$1 rc=0 args=() a files=$OUT first tmp extra
	shift 2
	[ "$mode" = auto ] && { files=$OUT/auto; args=(--plain-conf --no-slurm); }
	# 26.05's suite reads each node's Port from slurm.conf and misreads
	# a bracketed range (Port=[17001-17008]): one line per node there too.
	[ "$mode" = local ] && [ "$SERIES" = 26.05 ] && args=(--plain-conf)
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		a=${1//@TOPO@/$files/topology.conf}
		args+=("${a//@TORUS@/$files/torus.conf}")
		shift
	done
	shift
	[ "$mode" = auto ] && set -- --auto-config "$@"
	rm -rf "$dir"
	rm -f "$OUT/$tag.xml" "$OUT/$tag.log" # never a previous run's verdict
	extra=$OUT/extra.conf
	if [ "$SERIES" = 26.05 ]; then
		# 26.05's suite creates and removes (rm -rf) the TmpFS directory
		# of each node it adds in auto-config mode (TmpFS=PATH/%n): the
		# cluster's own, not the default /tmp.  In auto-config mode it
		# moves StateSaveLocation aside while a module runs and copies
		# the whole configuration directory back at its end, which
		# would bring back the moved-aside state instead of the state
		# directory: StateSaveLocation outside DIR (the later line wins).
		extra=$OUT/$tag.extra.conf
		rm -rf "$OUT/$tag.tmpfs" "$OUT/$tag.state"
		seq -f "$OUT/$tag.tmpfs/n%.0f" 1 24 | xargs mkdir -p
		{
			cat "$OUT/extra.conf"
			echo "TmpFS=$OUT/$tag.tmpfs/%n"
			if [ "$mode" = auto ]; then
				mkdir -p "$OUT/$tag.state"
				echo "StateSaveLocation=$OUT/$tag.state"
			fi
		} >"$extra"
	fi
	if ! "$TOPO_CLUSTER" start --dir "$dir" --nodes 8 --cpus 2 --slurm "$SERIES" \
		--plugindir "$PLUGINDIR" --extra-conf "$extra" "${args[@]}" \
		>"$OUT/$tag.start" 2>&1; then
		echo "slurm-suite: $tag: cluster did not start:" >&2
		tail -n 5 "$OUT/$tag.start" >&2
		"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1 || true
		return 99
	fi
	if ! first=$(suite_setup "$dir" "$mode"); then
		echo "slurm-suite: $tag: cannot set up the suite in $dir" >&2
		"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1 || true
		return 99
	fi
	# 26.05's suite fails a test whose temporary directory is not under
	# /tmp (it opens the path up to /tmp for other users).
	tmp=$dir/tmp
	[ "$SERIES" = 26.05 ] && tmp=$(mktemp -d /tmp/slurm-suite.XXXXXX)/t
	suite_exec "$dir" "$mode" "$first" "$tmp" "$@" >"$OUT/$tag.log" 2>&1 || rc=$?
	[ "$SERIES" = 26.05 ] && rm -rf "${tmp%/t}"
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
echo "slurm-suite: $KEY: all clusters ran in $(($(date +%s) - t0)) s"
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
		/usr/bin/python3 "$HERE/suite-compare.py" --ids --known "$HERE/known" --series "$KEY" \
			"$OUT/stock$sfx.xml" "$OUT/$name$sfx.xml" \
			>"$OUT/$name$sfx.again" || die "suite-compare.py failed"
		if [ -s "$OUT/$name$sfx.again" ]; then
			echo "slurm-suite: $name$sfx: again: $(tr '\n' ' ' <"$OUT/$name$sfx.again")"
			# shellcheck disable=SC2086
			rerun "$name" "$mode" "$OUT/$name$sfx.again" $opts || true
		fi
	done
	/usr/bin/python3 "$HERE/suite-compare.py" --known "$HERE/known" --series "$KEY" \
		--mode "$mode" "$OUT/stock$sfx.xml" "${args[@]}" || gate=1
done
exit "$gate"
