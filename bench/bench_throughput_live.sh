#!/bin/bash
# bench_throughput_live.sh: how fast a real Slurm 22.05 cluster gets through
# many small jobs, sched/topo + select/fattree against sched/backfill +
# select/linear, measured in the same run on the same machine.
#
# Workloads (each on a fresh cluster of NODES nodes, fat tree of 4-node
# leaves from `ftconf generate` for select/fattree):
#   burst   BURST single-node jobs (`true`), one sbatch each;
#   array   one array of ARRAY single-node tasks (`true`).
# The jobs are submitted while the partition is DOWN (they wait with
# Reason=PartitionDown, nothing starts), then the partition is set UP and
# the clock runs until squeue is empty: the time is the schedulers' and the
# daemons', not sbatch's.  Every setup runs with the SchedulerParameters
# contrib/cluster/topo-cluster gives it (sched/backfill: sched_interval=2,
# bf_interval=1; sched/topo: its defaults, topo_period 1 s).
#
# Prints one line per (workload, setup) and the ratio
# sched/topo time / sched/backfill time per workload (goals: burst <= 1.0,
# array <= 2.0; printed, not asserted).  Parameters (environment):
# NODES=64 BURST=5000 ARRAY=300 WORKLOADS="burst array"
# SETUPS="backfill-linear topo-fattree" (also: topo-linear),
# TOPO_POLICY=easy, PLUGINDIR (default build/plugins/.libs),
# FTCONF (default build/src/tools/ftconf), KEEP=1 keeps cluster dirs.
# Needs root (network namespaces).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
CLUSTER=$SRC/contrib/cluster/topo-cluster
NODES=${NODES:-64} BURST=${BURST:-5000} ARRAY=${ARRAY:-300}
WORKLOADS=${WORKLOADS:-"burst array"}
SETUPS=${SETUPS:-"backfill-linear topo-fattree"}
TOPO_POLICY=${TOPO_POLICY:-easy}
PLUGINDIR=${PLUGINDIR:-$SRC/build/plugins/.libs}
FTCONF=${FTCONF:-$SRC/build/src/tools/ftconf}
TMPD=${TMPDIR:-/tmp}

die() { echo "bench_throughput_live: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (daemons in a private network namespace)"
[ -e "$PLUGINDIR/sched_topo.so" ] || die "no sched_topo.so in $PLUGINDIR (set PLUGINDIR)"
[ -e "$PLUGINDIR/select_fattree.so" ] || die "no select_fattree.so in $PLUGINDIR (set PLUGINDIR)"
[ -x "$FTCONF" ] || die "no ftconf at $FTCONF (set FTCONF)"

DIR=""
cleanup() {
	if [ -n "$DIR" ]; then
		"$CLUSTER" stop --dir "$DIR" >/dev/null 2>&1 || true
		[ "${KEEP:-0}" = 1 ] || rm -rf "$DIR"
		DIR=""
	fi
	rm -f "$TMPD/bench-tp.$$.topo" "$TMPD/bench-tp.$$.conf"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sx() { "$CLUSTER" exec --dir "$DIR" -- "$@"; }

# start SETUP: a fresh cluster
start() {
	local sched select extra=() topo=$TMPD/bench-tp.$$.topo
	case $1 in
	backfill-linear) sched=sched/backfill select=select/linear ;;
	topo-linear) sched=sched/topo select=select/linear ;;
	topo-fattree) sched=sched/topo select=select/fattree ;;
	*) die "unknown setup '$1'" ;;
	esac
	if [ "$select" = select/fattree ]; then
		levels=0 n=1
		while [ $n -lt "$NODES" ]; do n=$((n * 4)) levels=$((levels + 1)); done
		[ $n = "$NODES" ] || die "NODES=$NODES is not a power of 4 (fat tree of 4-node leaves)"
		"$FTCONF" generate --levels $levels --width 4 -o "$topo" || die "ftconf failed"
		extra+=(--topology-conf "$topo")
	fi
	[ "$sched" = sched/topo ] && extra+=(--sched-params "topo_policy=$TOPO_POLICY")
	DIR=$(mktemp -d "$TMPD/bench-tp.XXXXXX")
	"$CLUSTER" start --dir "$DIR" --nodes "$NODES" --select "$select" \
		--sched "$sched" --plugindir "$PLUGINDIR" "${extra[@]}" \
		--timeout 300 >/dev/null || die "cluster $1 did not start"
	rm -f "$topo"
}

submit() { # WORKLOAD
	sx scontrol update PartitionName=debug State=DOWN
	case $1 in
	burst)
		# Four sbatch at a time, all inside the namespace.
		sx sh -c 'seq "$1" | xargs -P 4 -I{} sbatch -Q -N1 -t 1 -J b{} -o /dev/null --wrap true' \
			sh "$BURST"
		want=$BURST ;;
	array)
		sx sbatch -Q --array=1-"$ARRAY" -N1 -t 1 -o /dev/null --wrap true
		want=$ARRAY ;;
	esac
	local n
	n=$(sx squeue -h -r -t PD -o %i | wc -l)
	[ "$n" = "$want" ] || die "$n jobs pending, wanted $want"
}

# Seconds from partition UP to an empty queue.
run_all() {
	local t0 t1
	t0=$(date +%s.%N)
	sx scontrol update PartitionName=debug State=UP
	while [ -n "$(sx squeue -h -o %i | head -1)" ]; do sleep 0.5; done
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }'
}

declare -A T
echo "bench_throughput_live: $NODES nodes; burst $BURST x 1 node, array of $ARRAY; sched/topo policy $TOPO_POLICY"
for w in $WORKLOADS; do
	for s in $SETUPS; do
		start "$s"
		submit "$w"
		T[$w,$s]=$(run_all)
		done_jobs=$(sx sh -c "grep -c 'JobState=COMPLETED' '$DIR/jobcomp.txt' || true")
		printf '%-6s %-16s seconds=%s completed=%s\n' "$w" "$s" "${T[$w,$s]}" "$done_jobs"
		cleanup
	done
	for s in $SETUPS; do
		case $s in topo-*) ;; *) continue ;; esac
		[ -n "${T[$w,backfill-linear]:-}" ] || continue
		awk -v a="${T[$w,$s]}" -v b="${T[$w,backfill-linear]}" -v w="$w" -v s="$s" \
			'BEGIN { if (b > 0) printf "ratio %s: %s / backfill-linear = %.3f\n", w, s, a / b }'
	done
done
