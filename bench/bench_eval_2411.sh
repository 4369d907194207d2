#!/bin/bash
# bench_eval_2411.sh: decision time of Slurm 24.11's topology_g_eval_nodes()
# at 4,096 nodes, topology/fattree and topology/torus against Slurm's own
# topology/tree, on the same machine state and the same job sequence,
# measured in the same run.
#
# The machine: WIDTH^3 nodes (default 16^3 = 4,096), a 3-level fat tree of
# WIDTH-node leaves (ftconf generate) for topology/tree and
# topology/fattree; for topology/torus the WIDTHxWIDTHxWIDTH torus with the
# nodes in the same order, so the tree is its equivalent hierarchy (leaf =
# a line of the last dimension, middle switch = a plane).  A real slurmd
# runs for n1 only (topo-cluster --nodes 1); n2.. are State=CLOUD nodes
# with power saving (Resume/SuspendProgram=/bin/true, long ResumeTimeout),
# all powered up at once (scontrol ... state=power_up: "idle#", booting
# for hours): select/cons_tres allocates them like any other node and
# their jobs stay CONFIGURING, so nothing is ever launched on them.  (Left
# powered down, they would form a node set of their own, which slurmctld
# tries after the powered-up nodes: extra eval calls no real machine
# makes.)  Whole nodes (OverSubscribe=EXCLUSIVE), sched/builtin.
#
# For each plugin in turn, a fresh cluster (contrib/cluster/topo-cluster
# --slurm 24.11) with bench/eval_timer.so preloaded into slurmctld (which
# logs the thread CPU time of every topology_g_eval_nodes() call):
#   1. background: seeded runs of busy nodes, one job pinned to each (-w),
#      about 57 % of the machine in fragments; the same nodes for every
#      plugin, so phases 2 and the start of 3 see the same state;
#   2. will-run: `sbatch --test-only` for each job of the seeded sequence
#      (sizes 1..MAXN, half of them powers of two): cons_tres's
#      SELECT_MODE_WILL_RUN in the RPC thread, on the unchanged state;
#   3. the same sequence submitted for real, one job at a time:
#      "submit"   the RPC thread (select_nodes(test_only): cons_tres's
#                 SELECT_MODE_TEST_ONLY; when refused, asked again on a
#                 larger node set, _pick_best_nodes);
#      "schedule" the main scheduler (thread sched_agent): RUN_NOW on the
#                 free nodes; when refused, TEST_ONLY on more nodes;
#      a job that does not start is cancelled before the next is
#      submitted.  From the first placement on, each plugin's own choices
#      shape the free set.
# Calls are told apart by the calling thread's name (eval_timer.c); how
# many calls one job costs depends on the plugin (a refusal leads to more
# calls), hence the per-job column.  Only the eval_nodes call is timed: no
# RPC, no job_test around it.
#
# Parameters (environment): WIDTH=16 JOBS=48 MAXN=256 SEED=1
# PLUGINS="tree fattree torus" (ratios need tree, the baseline),
# TOPO_BUILDDIR (default build/bench-2411; needs plugins/.libs,
# bench/.libs/eval_timer.so, src/tools/ftconf), PORT_BASE=27001,
# KEEP=1 keeps the work directory (cluster logs, eval logs).
# Needs root.  Prints the numbers and the ratios ours / topology/tree;
# asserts nothing about time.
set -Eeuo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
CLUSTER=$SRC/contrib/cluster/topo-cluster
BUILDDIR=${TOPO_BUILDDIR:-$SRC/build/bench-2411}
PLUGINDIR=$BUILDDIR/plugins/.libs
SHIM=$BUILDDIR/bench/.libs/eval_timer.so
FTCONF=$BUILDDIR/src/tools/ftconf
WIDTH=${WIDTH:-16} JOBS=${JOBS:-48} MAXN=${MAXN:-256} SEED=${SEED:-1}
PLUGINS=${PLUGINS:-"tree fattree torus"}
PORT_BASE=${PORT_BASE:-27001}
NODES=$((WIDTH * WIDTH * WIDTH))
DECIDE_S=30 # longest wait for the main scheduler's answer on one job

die() { echo "bench_eval_2411: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (daemons in private namespaces)"
[ -x "$FTCONF" ] || die "no $FTCONF (build with --with-slurm-version=24.11; set TOPO_BUILDDIR)"
[ -e "$SHIM" ] || die "no $SHIM (make bench builds it)"
for p in $PLUGINS; do
	[ "$p" = tree ] || [ -e "$PLUGINDIR/topology_$p.so" ] || die "no topology_$p.so in $PLUGINDIR"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-eval.XXXXXX")
DIR=""
cleanup() {
	[ -z "$DIR" ] || "$CLUSTER" stop --dir "$DIR" >/dev/null 2>&1 || true
	DIR=""
	if [ "${KEEP:-0}" = 1 ]; then echo "bench_eval_2411: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'echo "bench_eval_2411: failed at line $LINENO" >&2' ERR
trap 'exit 130' INT TERM

sx() { "$CLUSTER" exec --dir "$DIR" -- "$@"; }

# ------------------------------------------------------------- the input

# The machine files and the slurm.conf lines for the cloud nodes.  Slurm
# quirk: sched/builtin takes its will-run estimate interval from the first
# "interval=" in SchedulerParameters, which would be topo-cluster's
# sched_interval=2: a leading interval= keeps that pass (timing-dependent
# extra calls) out of the run.
write_inputs() {
	"$FTCONF" generate --levels 3 --width "$WIDTH" -o "$WORK/topology.conf" >/dev/null
	printf 'Dimensions=%dx%dx%d\nNodes=n[1-%d]\n' "$WIDTH" "$WIDTH" "$WIDTH" "$NODES" >"$WORK/torus.conf"
	cat >"$WORK/cloud.conf" <<-EOF
		NodeName=n[2-$NODES] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$((PORT_BASE + 1))-$((PORT_BASE + NODES - 1))] CPUs=1 State=CLOUD
		SuspendProgram=/bin/true
		ResumeProgram=/bin/true
		SuspendTime=36000
		SuspendTimeout=60
		ResumeTimeout=36000
		ResumeRate=0
		SuspendRate=0
		SchedulerParameters=interval=10800,sched_interval=2
	EOF
}

# Background jobs, one "FIRST LAST LIMIT_MIN" a line: busy runs of 1..64
# nodes between free gaps of 1..48.
background() {
	awk -v n="$NODES" -v seed="$SEED" 'BEGIN { srand(seed); i = 1
		while (i <= n) {
			i += 1 + int(rand() * 48)
			if (i > n) break
			len = 1 + int(rand() * 64); last = i + len - 1
			if (last > n) last = n
			printf "%d %d %d\n", i, last, 30 + int(rand() * 1411)
			i = last + 1
		} }'
}

# The job sequence, one "NODES LIMIT_MIN" a line: half powers of two up to
# MAXN, half uniform in 1..MAXN.
joblist() {
	awk -v n="$JOBS" -v maxn="$MAXN" -v seed="$SEED" 'BEGIN { srand(seed + 1)
		e = 0; while (2 ^ (e + 1) <= maxn) e++
		for (k = 0; k < n; k++) {
			if (rand() < 0.5) s = 2 ^ int(rand() * (e + 1))
			else s = 1 + int(rand() * maxn)
			printf "%d %d\n", s, 10 + int(rand() * 591)
		} }'
}

# ------------------------------------------------------------ one plugin

start_cluster() { # PLUGIN
	DIR=$WORK/$1
	mkdir -p "$DIR"
	local plugin=(--topology "topology/$1")
	[ "$1" = tree ] || plugin+=(--plugindir "$PLUGINDIR")
	"$CLUSTER" start --slurm 24.11 --dir "$DIR" --nodes 1 --port-base "$PORT_BASE" \
		--select select/cons_tres "${plugin[@]}" --sched sched/builtin \
		--part-opts OverSubscribe=EXCLUSIVE --topology-conf "$WORK/topology.conf" \
		--conf-file "$WORK/torus.conf" --extra-conf "$WORK/cloud.conf" \
		--ctld-preload "$SHIM" --timeout 120 >/dev/null ||
		die "the cluster with topology/$1 did not start"
	power_up
}

# Every cloud node "booting" (idle#), none powered down (idle~).
power_up() {
	local t
	sx scontrol update nodename="n[2-$NODES]" state=power_up
	for ((t = 0; t < 300; t++)); do
		sx sinfo -h -o %t | grep -q '~' || return 0
		sleep 0.1
	done
	die "cloud nodes still powered down after scontrol ... state=power_up"
}

calls() { if [ -f "$DIR/eval_timer.log" ]; then wc -l <"$DIR/eval_timer.log"; else echo 0; fi; }

# Pin the background jobs (four sbatch at a time) and wait until every one
# holds its nodes.
place_background() {
	local nbg t
	nbg=$(background | wc -l)
	# shellcheck disable=SC2016 # expanded by sh, from xargs' arguments
	background | xargs -P 4 -L 1 sh -c \
		'"$0" exec --dir "$1" -- sbatch -Q -w "n[$2-$3]" -N $(($3 - $2 + 1)) -t "$4" -J bg -o /dev/null --wrap "sleep 1000000"' \
		"$CLUSTER" "$DIR"
	for ((t = 0; t < 600; t++)); do
		[ "$(sx squeue -h -t CF,R -o %i | wc -l)" = "$nbg" ] && return 0
		sleep 0.1
	done
	die "only $(sx squeue -h -t CF,R -o %i | wc -l) of $nbg background jobs started"
}

will_run_phase() {
	local n lim
	while read -r n lim; do
		sx sbatch --test-only -N "$n" -t "$lim" -J wr --wrap true >/dev/null 2>&1 || true
	done < <(joblist)
}

# started | refused: the main scheduler's answer on job ID; a refused job is
# cancelled so that it is never evaluated again.
decision() { # ID
	local t st reason
	for ((t = 0; t < DECIDE_S * 10; t++)); do
		read -r st reason < <(sx squeue -h -j "$1" -o '%T %r' 2>/dev/null || true) || true
		case ${st:-} in
		PENDING) [ "$reason" = None ] || break ;;
		"") echo gone; return 0 ;;
		*) echo started; return 0 ;;
		esac
		sleep 0.1
	done
	sx scancel "$1"
	echo refused
}

# A job the plugin can never place (e.g. no box of that size on the torus)
# is rejected at submission (REJECTED).
sequence_phase() { # -> STARTED REJECTED
	local n lim id
	STARTED=0 REJECTED=0
	while read -r n lim; do
		if ! id=$(sx sbatch --parsable -N "$n" -t "$lim" -J rn -o /dev/null \
			--wrap "sleep 1000000" 2>/dev/null); then
			REJECTED=$((REJECTED + 1))
			continue
		fi
		if [ "$(decision "${id%%;*}")" = started ]; then STARTED=$((STARTED + 1)); fi
	done < <(joblist)
}

# Lines FROM..TO of the eval log go to WORK/PLUGIN.calls tagged with their
# phase: will-run (RPC thread, phase 2), submit (RPC thread, phase 3),
# schedule (sched_agent, phase 3), other (any other thread).
run_plugin() { # PLUGIN
	local l0 l1 l2
	start_cluster "$1"
	place_background
	l0=$(calls)
	# The background jobs were placed through eval_nodes: no call logged
	# means the shim was not interposed.
	[ "$l0" -gt 0 ] || die "topology/$1: no eval_nodes call recorded (eval_timer.so not interposed?)"
	will_run_phase
	l1=$(calls)
	sequence_phase
	l2=$(calls)
	awk -v l0="$l0" -v l1="$l1" -v l2="$l2" 'NR > l0 && NR <= l2 {
		ph = NR <= l1 ? "will-run" : "submit"
		if ($3 == "sched_agent") ph = "schedule"
		else if ($3 !~ /^worker/) ph = "other"
		print ph, $4, $5, $6 }' "$DIR/eval_timer.log" >"$WORK/$1.calls"
	echo "$1 $((l1 - l0)) $((l2 - l1)) $STARTED $REJECTED" >>"$WORK/runs"
	"$CLUSTER" stop --dir "$DIR" >/dev/null
	DIR=""
}

# ------------------------------------------------------------- the report

# One line per (plugin, phase): calls, calls that chose nodes (rc 0), CPU
# time per call (mean, median, max; microseconds), mean wall time per call,
# CPU time per job of the sequence (microseconds).
stats() { # PLUGIN
	sort -k1,1 -k2,2n "$WORK/$1.calls" | awk -v p="$1" -v jobs="$JOBS" '
		function flush() {
			if (!n) return
			med = n % 2 ? c[(n + 1) / 2] : (c[n / 2] + c[n / 2 + 1]) / 2
			printf "%s %s %d %d %.1f %.1f %.1f %.1f %.1f\n", p, ph, n, ok,
				sum / n / 1000, med / 1000, c[n] / 1000, wsum / n / 1000, sum / jobs / 1000
		}
		$1 != ph { flush(); ph = $1; n = ok = sum = wsum = 0 }
		{ c[++n] = $2; sum += $2; wsum += $3; ok += ($4 == 0) }
		END { flush() }'
}

report() {
	local p
	for p in $PLUGINS; do stats "$p"; done >"$WORK/stats"
	printf '%-8s %-9s %6s %6s %11s %10s %10s %12s %11s\n' plugin phase calls placed \
		mean_cpu_us med_cpu_us max_cpu_us mean_wall_us cpu_us/job
	awk '{ printf "%-8s %-9s %6d %6d %11.1f %10.1f %10.1f %12.1f %11.1f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$WORK/stats"
	awk '{ printf "runs: topology/%s: %d will-run queries -> %d calls; %d jobs submitted -> %d calls, %d started, %d rejected at submission\n",
		$1, jobs, $2, jobs, $3, $4, $5 }' jobs="$JOBS" "$WORK/runs"
	# Ratios against topology/tree, phase by phase (tree's lines read first).
	awk 'NR == FNR { if ($1 == "tree") { m[$2] = $5; d[$2] = $6; t[$2] = $9 }; next }
		$1 != "tree" && m[$2] > 0 && d[$2] > 0 && t[$2] > 0 {
			printf "ratio topology/%s / topology/tree, %-9s mean_cpu %.3f  median_cpu %.3f  cpu_per_job %.3f\n",
				$1, $2, $5 / m[$2], $6 / d[$2], $9 / t[$2] }' "$WORK/stats" "$WORK/stats"
}

write_inputs
echo "bench_eval_2411: $NODES nodes (3-level tree of width $WIDTH / ${WIDTH}x${WIDTH}x${WIDTH} torus)," \
	"$(background | wc -l) background jobs on $(background | awk '{ s += $2 - $1 + 1 } END { print s }') nodes," \
	"$JOBS jobs of 1..$MAXN nodes, seed $SEED; CPU time of the calling thread per topology_g_eval_nodes() call"
for p in $PLUGINS; do run_plugin "$p"; done
report
