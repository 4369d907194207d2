#!/bin/bash
# bench_sched_live.sh: cycle time of sched/topo against sched/backfill on a
# real Slurm 22.05 cluster with a long queue, measured in the same run.
#
# For each scheduler in turn, a fresh cluster of NODES nodes (multiple-slurmd
# mode, select/linear, contrib/cluster/topo-cluster) gets one blocker job on
# all nodes but FREE, then JOBS pending jobs (seeded sizes FREE+1..MAXN
# nodes, limits 5..120 min: none fits the FREE idle nodes, so the queue stays
# whole and every cycle goes through all of it).  After the submissions the
# counters are reset (sdiag --reset; a snapshot of sched_topo.stats), the
# cluster runs WINDOW seconds, and the cycle times over that window are read:
#   sched/backfill  sdiag's backfill "Mean cycle" / "Last cycle" (us) and
#                   its depth, plus the main scheduler's mean cycle;
#   sched/topo      (sum of cycle us) / cycles from sched_topo.stats.
# Parameters (environment): NODES=256 JOBS=5000 FREE=8 MAXN=64 WINDOW=60
# SEED=1 TOPO_POLICIES="easy conservative" BF_PARAMS (see below),
# PLUGINDIR (default build/plugins/.libs), KEEP=1 keeps the cluster dirs.
# Needs root (network namespaces).  Prints one line per scheduler and the
# ratios; asserts nothing about time.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
CLUSTER=$SRC/contrib/cluster/topo-cluster
NODES=${NODES:-256} JOBS=${JOBS:-5000} FREE=${FREE:-8} MAXN=${MAXN:-64}
WINDOW=${WINDOW:-60} SEED=${SEED:-1}
TOPO_POLICIES=${TOPO_POLICIES:-"easy conservative"}
PLUGINDIR=${PLUGINDIR:-$SRC/build/plugins/.libs}
# sched/backfill looks at every job (bf_max_job_test) as sched/topo does,
# every 5 s; its main scheduler runs beside it as usual.
BF_PARAMS=${BF_PARAMS:-bf_interval=5,bf_max_job_test=$((JOBS + 100)),bf_max_time=60}
TMPD=${TMPDIR:-/tmp}

die() { echo "bench_sched_live: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (daemons in a private network namespace)"
[ -e "$PLUGINDIR/sched_topo.so" ] || die "no sched_topo.so in $PLUGINDIR (set PLUGINDIR)"

DIR=""
cleanup() {
	if [ -n "$DIR" ]; then
		"$CLUSTER" stop --dir "$DIR" >/dev/null 2>&1 || true
		[ "${KEEP:-0}" = 1 ] || rm -rf "$DIR"
		DIR=""
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sx() { "$CLUSTER" exec --dir "$DIR" -- "$@"; }

# The pending jobs, one "NODES LIMIT_MIN" a line, the same for every run.
joblist() {
	awk -v n="$JOBS" -v lo=$((FREE + 1)) -v hi="$MAXN" -v seed="$SEED" \
		'BEGIN { srand(seed); for (i = 0; i < n; i++)
			printf "%d %d\n", lo + int(rand() * (hi - lo + 1)), 5 + int(rand() * 116) }'
}

# start SCHED EXTRA_CONF_LINE
start() {
	DIR=$(mktemp -d "$TMPD/bench-sched.XXXXXX")
	local extra=$DIR.conf
	echo "$2" >"$extra"
	"$CLUSTER" start --dir "$DIR" --nodes "$NODES" --select select/linear \
		--sched "$1" --plugindir "$PLUGINDIR" --extra-conf "$extra" \
		--timeout 300 >/dev/null || die "cluster with $1 did not start"
	rm -f "$extra"
}

submit_all() {
	sx sbatch -Q -N $((NODES - FREE)) -t 1000 -J blocker -o /dev/null --wrap "sleep 100000"
	# Four sbatch at a time: submission dominates the run time otherwise.
	joblist | nl -ba | xargs -P 4 -L 1 sh -c \
		'"$0" exec --dir "$1" -- sbatch -Q -N "$3" -t "$4" -J "p$2" -o /dev/null --wrap "sleep 60"' \
		"$CLUSTER" "$DIR"
	local n
	n=$(sx squeue -h -t PD -o %i | wc -l)
	[ "$n" = "$JOBS" ] || die "$n jobs pending, wanted $JOBS"
}

# sdiag field "NAME: VALUE" within the Backfilling section or main.
sdiag_field() { # SECTION(main|backfill) NAME
	sx sdiag | awk -v sec="$1" -v name="$2" '
		/^Main schedule statistics/ { s = "main" }
		/^Backfilling stats/ { s = "backfill" }
		/^Latency for/ || /^Remote Procedure Call/ { s = "" }
		s == sec && index($0, name ":") { sub(/.*: */, ""); print; exit }'
}

stat_of() { sed -n "s/^$1=//p" "$DIR/state/sched_topo.stats"; }

run_backfill() {
	start sched/backfill "SchedulerParameters=sched_interval=2,$BF_PARAMS"
	submit_all
	sx sdiag --reset >/dev/null
	sleep "$WINDOW"
	local mean last cycles depth mmean
	mean=$(sdiag_field backfill "Mean cycle")
	last=$(sdiag_field backfill "Last cycle")
	cycles=$(sdiag_field backfill "Total cycles")
	depth=$(sdiag_field backfill "Last depth cycle")
	mmean=$(sdiag_field main "Mean cycle")
	printf 'sched/backfill        nodes=%d pending=%d cycles=%s mean_cycle_us=%s last_cycle_us=%s depth=%s main_sched_mean_cycle_us=%s (%s)\n' \
		"$NODES" "$JOBS" "$cycles" "$mean" "$last" "$depth" "$mmean" "$BF_PARAMS"
	BF_MEAN=$mean
	cleanup
}

run_topo() { # POLICY
	start sched/topo "SchedulerParameters=sched_interval=-1,topo_policy=$1,topo_period=1,topo_stats_every=0"
	submit_all
	sleep 2
	local c0 s0 c1 s1 last
	c0=$(stat_of cycles) s0=$(stat_of sum_cycle_us)
	sleep "$WINDOW"
	c1=$(stat_of cycles) s1=$(stat_of sum_cycle_us) last=$(stat_of last_cycle_us)
	local pend
	pend=$(stat_of last_queued)
	TOPO_MEAN=$(((s1 - s0) / (c1 - c0)))
	printf 'sched/topo %-12s nodes=%d pending=%d cycles=%d mean_cycle_us=%d last_cycle_us=%s queue_seen=%s\n' \
		"$1" "$NODES" "$JOBS" $((c1 - c0)) "$TOPO_MEAN" "$last" "$pend"
	cleanup
}

echo "bench_sched_live: $NODES nodes ($FREE idle), $JOBS pending jobs of $((FREE + 1))..$MAXN nodes, ${WINDOW}s window, seed $SEED"
run_backfill
for p in $TOPO_POLICIES; do
	run_topo "$p"
	awk -v a="$TOPO_MEAN" -v b="$BF_MEAN" -v p="$p" \
		'BEGIN { if (a > 0) printf "ratio: sched/backfill mean cycle / sched/topo %s mean cycle = %.1f\n", p, b / a }'
done
