#!/bin/bash
# bench_sched_live.sh: sched/topo against sched/backfill on a real Slurm
# 22.05 cluster (multiple-slurmd mode, contrib/cluster/topo-cluster), both
# measured in the same run on the same machine.  Two modes (MODE=):
#
# MODE=queue (default): cycle time on a long queue.  For each scheduler in
# turn, a fresh cluster of NODES nodes (select/linear) gets one blocker job on
# all nodes but FREE, then JOBS pending jobs (seeded sizes FREE+1..MAXN
# nodes, limits 5..120 min: none fits the FREE idle nodes, so the queue stays
# whole and every cycle goes through all of it).  After the submissions the
# counters are reset (sdiag --reset; a snapshot of sched_topo.stats), the
# cluster runs WINDOW seconds, and the cycle times over that window are read:
#   sched/backfill  sdiag's backfill "Mean cycle" / "Last cycle" (us) and
#                   its depth, plus the main scheduler's mean cycle;
#   sched/topo      (sum of cycle us) / cycles from sched_topo.stats.
# Parameters: NODES=256 JOBS=5000 FREE=8 MAXN=64 WINDOW=60 SEED=1
# TOPO_POLICIES="easy conservative" BF_PARAMS (see below).
#
# MODE=burst: live scale.  For each setup of SETUPS in turn (default
# "topo-fattree backfill-fattree": select/fattree with sched/topo, then
# select/fattree with sched/backfill; also backfill-linear, topo-linear), a
# fresh cluster of NODES (default 1024) slurmd on a two-level fat tree
# (generated topology.conf: leaves of LEAF=32 nodes under one top switch;
# the last leaf is partial when LEAF does not divide NODES):
#   1. starts, and reports its start-up time (topo-cluster: from writing
#      the configuration to all NODES nodes idle) and memory (VmRSS of
#      slurmctld, sum and mean VmRSS of the slurmds, Pss of everything);
#   2. gets BURST (default 5000) short batch jobs (`--wrap true`, -t 1)
#      while its partition is DOWN, four sbatch at a time (submit_s); sizes
#      seeded: 80 % 1 node, 8 % 2, 5 % 4, 4 % 8, 2 % 16, 1 % 32;
#   3. resets the counters (sdiag --reset, a snapshot of sched_topo.stats),
#      sets the partition UP and waits until jobcomp/filetxt (JobCompLoc,
#      topo-cluster's default) holds a record for every job (polled every
#      0.2 s: a file read, no RPC that would load slurmctld), then until
#      squeue is empty;
#   4. checks that no job is lost: every job id sbatch printed has exactly
#      one jobcomp record, JobState=COMPLETED (other states are counted);
#   5. prints drain_s (partition UP to the last completion record),
#      jobs_per_s, slurmctld's VmRSS after the burst, the cycle times over
#      the drain (sched/topo: sum/cycles of sched_topo.stats, its max since
#      start; sched/backfill: sdiag's backfill and main-scheduler mean and
#      max cycle), the jobs each started, their busy time (busy_s: the sum
#      of the cycles, each holding slurmctld's job write lock) and that per
#      started job (per_start_us), and at the end the ratios topo/backfill.
# Each setup runs with the SchedulerParameters topo-cluster gives it
# (sched/backfill: sched_interval=2,bf_interval=1,bf_resolution=1 and
# Slurm's defaults; sched/topo: sched_interval=-1, topo_policy=TOPO_POLICY
# (easy), topo_period 1 s) plus BURST_BF_PARAMS / BURST_TOPO_PARAMS.
# A run that makes no progress for STALL=300 s stops waiting and reports
# the jobs left (a hang guard, not a time limit on the benchmark).
# Parameters: NODES=1024 LEAF=32 BURST=5000 SEED=1 SETUPS TOPO_POLICY.
#
# Scale on this machine (Debian 12, 2 cores, 24 GiB, shared; measured):
# 1,024 slurmd fit, so NODES=1024 is the default.  Each slurmd has 8 MiB
# VmRSS (8.1 GiB summed) but most of it is libslurmfull shared between them:
# Pss of the whole cluster is 2.6 GiB.  1,024 listening ports
# (17001..18024), ~1,030 processes and the slurmstepds of the running jobs
# stay far below ulimit -n 20000, ulimit -u 96365 and kernel.pid_max 32768.
# slurmctld needs no TreeWidth, MessageTimeout, max_rpc_cnt or MaxJobCount
# change (topo-cluster: MessageTimeout=10, default TreeWidth 50; MaxJobCount
# 10,000 with MinJobAge=300 keeps the 5,000 finished jobs in memory: a BURST
# above ~9,000 needs MaxJobCount raised).  The two cores are the limit: a
# job start costs slurmctld 7-10 ms of lock-holding cycle time whichever
# scheduler starts it, plus a slurmstepd fork per job: jobs_per_s (~50 here)
# and the cycle times in a burst are bounded by job starts.
#
# Common parameters (environment): PLUGINDIR (default build/plugins/.libs),
# NICE=5 (the daemons run under `nice -n NICE`: the machine is shared),
# KEEP=1 keeps the cluster dirs.  Needs root (network namespaces).  Prints
# one line per scheduler and the ratios; asserts nothing about time.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
CLUSTER=$SRC/contrib/cluster/topo-cluster
MODE=${MODE:-queue}
case $MODE in
queue) NODES=${NODES:-256} ;;
burst) NODES=${NODES:-1024} ;;
*) echo "bench_sched_live: MODE must be queue or burst, not '$MODE'" >&2; exit 1 ;;
esac
JOBS=${JOBS:-5000} FREE=${FREE:-8} MAXN=${MAXN:-64}
WINDOW=${WINDOW:-60} SEED=${SEED:-1}
TOPO_POLICIES=${TOPO_POLICIES:-"easy conservative"}
LEAF=${LEAF:-32} BURST=${BURST:-5000} STALL=${STALL:-300}
SETUPS=${SETUPS:-"topo-fattree backfill-fattree"}
TOPO_POLICY=${TOPO_POLICY:-easy}
BURST_BF_PARAMS=${BURST_BF_PARAMS:-} BURST_TOPO_PARAMS=${BURST_TOPO_PARAMS:-}
NICE=${NICE:-5}
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
	rm -f "$TMPD/bench-sched.$$".*
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sx() { "$CLUSTER" exec --dir "$DIR" -- "$@"; }

# start SCHED SELECT EXTRA_CONF_LINE [topo-cluster options...]: a fresh
# cluster; its start-up report line goes to START_REPORT.
start() {
	local sched=$1 select=$2 out
	DIR=$(mktemp -d "$TMPD/bench-sched.XXXXXX")
	local extra=$DIR.conf
	echo "$3" >"$extra"
	shift 3
	out=$(nice -n "$NICE" "$CLUSTER" start --dir "$DIR" --nodes "$NODES" --select "$select" \
		--sched "$sched" --plugindir "$PLUGINDIR" --extra-conf "$extra" \
		--timeout $((300 + NODES)) --report "$@") || die "cluster with $sched + $select did not start"
	START_REPORT=$(echo "$out" | sed -n 's/^report: //p')
	rm -f "$extra"
}

# sdiag field "NAME: VALUE" within the Backfilling section or main.
sdiag_field() { # SECTION(main|backfill) NAME [SDIAG_OUTPUT]
	local text=${3:-}
	[ -n "$text" ] || text=$(sx sdiag)
	echo "$text" | awk -v sec="$1" -v name="$2" '
		/^Main schedule statistics/ { s = "main" }
		/^Backfilling stats/ { s = "backfill" }
		/^Latency for/ || /^Remote Procedure Call/ { s = "" }
		s == sec && index($0, name ":") { sub(/.*: */, ""); print; exit }'
}

stat_of() { sed -n "s/^$1=//p" "$DIR/state/sched_topo.stats"; }

# ------------------------------------------------------------ MODE=queue

# The pending jobs, one "NODES LIMIT_MIN" a line, the same for every run.
joblist() {
	awk -v n="$JOBS" -v lo=$((FREE + 1)) -v hi="$MAXN" -v seed="$SEED" \
		'BEGIN { srand(seed); for (i = 0; i < n; i++)
			printf "%d %d\n", lo + int(rand() * (hi - lo + 1)), 5 + int(rand() * 116) }'
}

submit_all() {
	sx sbatch -Q -N $((NODES - FREE)) -t 1000 -J blocker -o /dev/null --wrap "sleep 100000"
	# The blocker must run before the queue is counted (a small JOBS is
	# submitted before the next scheduling cycle).
	local i
	for ((i = 0; i < 300; i++)); do
		[ -n "$(sx squeue -h -t R -o %i)" ] && break
		sleep 0.2
	done
	# Four sbatch at a time: submission dominates the run time otherwise.
	joblist | nl -ba | xargs -P 4 -L 1 sh -c \
		'"$0" exec --dir "$1" -- sbatch -Q -N "$3" -t "$4" -J "p$2" -o /dev/null --wrap "sleep 60"' \
		"$CLUSTER" "$DIR"
	local n
	n=$(sx squeue -h -t PD -o %i | wc -l)
	[ "$n" = "$JOBS" ] || die "$n jobs pending, wanted $JOBS"
}

run_backfill() {
	start sched/backfill select/linear "SchedulerParameters=sched_interval=2,$BF_PARAMS"
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
	start sched/topo select/linear "SchedulerParameters=sched_interval=-1,topo_policy=$1,topo_period=1,topo_stats_every=0"
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

mode_queue() {
	echo "bench_sched_live: $NODES nodes ($FREE idle), $JOBS pending jobs of $((FREE + 1))..$MAXN nodes, ${WINDOW}s window, seed $SEED"
	run_backfill
	for p in $TOPO_POLICIES; do
		run_topo "$p"
		awk -v a="$TOPO_MEAN" -v b="$BF_MEAN" -v p="$p" \
			'BEGIN { if (a > 0) printf "ratio: sched/backfill mean cycle / sched/topo %s mean cycle = %.1f\n", p, b / a }'
	done
}

# ------------------------------------------------------------ MODE=burst

# Two-level fat tree: leaves of LEAF nodes, one top switch.
write_tree() { # FILE
	awk -v n="$NODES" -v w="$LEAF" 'BEGIN {
		k = int((n + w - 1) / w)
		printf "# %d nodes, %d leaves of up to %d nodes, 2 levels\n", n, k, w
		for (i = 0; i < k; i++) {
			lo = i * w + 1; hi = (i + 1) * w; if (hi > n) hi = n
			printf "SwitchName=s0-%d Nodes=n[%d-%d]\n", i, lo, hi
		}
		printf "SwitchName=s1-0 Switches=s0-[0-%d]\n", k - 1 }' >"$1"
}

# The burst, one job size a line, the same for every setup.
burstlist() {
	awk -v n="$BURST" -v seed="$SEED" -v max="$NODES" 'BEGIN { srand(seed)
		for (i = 0; i < n; i++) {
			r = rand()
			s = r < .80 ? 1 : r < .88 ? 2 : r < .93 ? 4 : r < .97 ? 8 : r < .99 ? 16 : 32
			print (s > max ? max : s) } }'
}

kv() { echo "$START_REPORT" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
ctld_rss_now() {
	local pid
	pid=$(awk '$1 == "slurmctld" { p = $2 } END { print p }' "$DIR/pids")
	awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status"
}
secs() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1e6 }'; }
per() { awk -v u="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.0f", u / n; else printf "n/a" }'; }
records() { [ -f "$DIR/jobcomp.txt" ] && wc -l <"$DIR/jobcomp.txt" || echo 0; }

run_burst() { # SETUP
	local setup=$1 sched select extra="" topo=$TMPD/bench-sched.$$.topo
	case $setup in
	topo-fattree) sched=sched/topo select=select/fattree ;;
	topo-linear) sched=sched/topo select=select/linear ;;
	backfill-fattree) sched=sched/backfill select=select/fattree ;;
	backfill-linear) sched=sched/backfill select=select/linear ;;
	*) die "unknown setup '$setup'" ;;
	esac
	local params="topo_policy=$TOPO_POLICY,topo_stats_every=0${BURST_TOPO_PARAMS:+,$BURST_TOPO_PARAMS}"
	[ "$sched" = sched/backfill ] && params=$BURST_BF_PARAMS
	local opts=(--sched-params "$params")
	if [ "$select" = select/fattree ]; then
		write_tree "$topo"
		opts+=(--topology-conf "$topo")
	fi
	start "$sched" "$select" "" "${opts[@]}"
	rm -f "$topo"
	printf '%-16s start: startup_s=%s rss_slurmctld_mib=%s rss_slurmd_sum_mib=%s rss_slurmd_avg_mib=%s pss_total_mib=%s processes=%s\n' \
		"$setup" "$(kv startup_s)" "$(kv rss_slurmctld_mib)" "$(kv rss_slurmd_sum_mib)" \
		"$(kv rss_slurmd_avg_mib)" "$(kv pss_total_mib)" "$(kv processes)"
	STARTUP[$setup]=$(kv startup_s)

	# Submit with the partition DOWN: nothing starts, the drain below is
	# the schedulers' and daemons' time, not sbatch's.
	local ids=$DIR/job-ids t0 t1 n
	sx scontrol update PartitionName=debug State=DOWN
	t0=$(date +%s.%N)
	burstlist | sx sh -c 'xargs -P 4 -I{} sbatch --parsable -N {} -t 1 -J burst -o /dev/null --wrap true' >"$ids" ||
		echo "$setup: some sbatch failed" >&2
	t1=$(date +%s.%N)
	n=$(sx squeue -h -t PD -o %i | wc -l)
	[ "$n" = "$BURST" ] && [ "$(wc -l <"$ids")" = "$BURST" ] ||
		die "$setup: $n jobs pending, $(wc -l <"$ids") job ids, wanted $BURST"
	local submit_s
	submit_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

	# Reset the counters, release the burst, wait for every record.
	local c0=0 s0=0 g0=0
	sx sdiag --reset >/dev/null
	if [ "$sched" = sched/topo ]; then
		c0=$(stat_of cycles) s0=$(stat_of sum_cycle_us) g0=$(stat_of started)
	fi
	local r0 r last now tlast
	r0=$(records)
	t0=$(date +%s.%N)
	sx scontrol update PartitionName=debug State=UP
	last=$r0 tlast=$(date +%s)
	while r=$(records) && [ "$r" -lt $((r0 + BURST)) ]; do
		now=$(date +%s)
		if [ "$r" != "$last" ]; then
			last=$r tlast=$now
		elif [ $((now - tlast)) -ge "$STALL" ]; then
			echo "$setup: no job completed for ${STALL}s, $((r0 + BURST - r)) records missing; stopped waiting" >&2
			break
		fi
		sleep 0.2
	done
	t1=$(date +%s.%N)
	local sd
	sd=$(sx sdiag)
	local c1=0 s1=0 g1=0 tmax=""
	if [ "$sched" = sched/topo ]; then
		c1=$(stat_of cycles) s1=$(stat_of sum_cycle_us) g1=$(stat_of started)
		tmax=$(stat_of max_cycle_us)
	fi
	# COMPLETING jobs leave squeue once their epilogs are done.
	local left tq
	tq=$(($(date +%s) + 60))
	while left=$(sx squeue -h -o %i | wc -l) && [ "$left" != 0 ] && [ "$(date +%s)" -lt "$tq" ]; do
		sleep 0.2
	done
	local rss_after
	rss_after=$(ctld_rss_now)

	# No job lost: one COMPLETED record per submitted id.
	local check
	check=$(awk 'FNR == NR { want[$1] = 1; next }
		{ id = ""; st = ""
		  for (i = 1; i <= NF; i++) {
			if ($i ~ /^JobId=/) id = substr($i, 7)
			if ($i ~ /^JobState=/) st = substr($i, 10) }
		  if (!(id in want)) next
		  seen[id]++; if (st == "COMPLETED") ok[id] = 1; else other++ }
		END { nw = 0; lost = 0; dup = 0; done = 0
		  for (id in want) { nw++; if (!(id in seen)) lost++; else if (seen[id] > 1) dup++
			if (id in ok) done++ }
		  printf "%d %d %d %d %d", nw, done, lost, other + 0, dup }' \
		"$ids" "$DIR/jobcomp.txt")
	local nw ncomp lost other dup
	read -r nw ncomp lost other dup <<<"$check"
	[ "$lost" = 0 ] && [ "$ncomp" = "$BURST" ] && [ "$left" = 0 ] || BAD=1

	local drain_s jps
	drain_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	jps=$(awk -v n="$ncomp" -v d="$drain_s" 'BEGIN { printf "%.1f", (d > 0 ? n / d : 0) }')
	DRAIN[$setup]=$drain_s JPS[$setup]=$jps CTLD1[$setup]=$rss_after
	printf '%-16s burst: jobs=%s submit_s=%s drain_s=%s jobs_per_s=%s completed=%s lost=%s other_states=%s duplicate_records=%s left_in_queue=%s rss_slurmctld_after_mib=%s\n' \
		"$setup" "$nw" "$submit_s" "$drain_s" "$jps" "$ncomp" "$lost" "$other" "$dup" "$left" "$rss_after"
	# Cycle times over the drain.  busy_s: the cycles' total time (each
	# holds slurmctld's job write lock); per_start_us: busy time per job the
	# scheduler started (a cycle's cost in a burst is mostly job starts).
	local mmean mmax mcyc started
	mmean=$(sdiag_field main "Mean cycle" "$sd") mmax=$(sdiag_field main "Max cycle" "$sd")
	mcyc=$(sdiag_field main "Total cycles" "$sd") started=$(sdiag_field "" "Jobs started" "$sd")
	mmean=${mmean:-0} mmax=${mmax:-0} mcyc=${mcyc:-0}
	if [ "$sched" = sched/topo ]; then
		local cyc=$((c1 - c0)) mean=0 tstart=$((g1 - g0))
		[ "$cyc" -gt 0 ] && mean=$(((s1 - s0) / cyc))
		CYCLE[$setup]=$mean BUSY[$setup]=$(((s1 - s0) + mcyc * mmean))
		printf '%-16s cycles: sched/topo cycles=%d mean_cycle_us=%d max_cycle_us_since_start=%s started=%d busy_s=%s per_start_us=%s main_sched cycles=%s mean_cycle_us=%s max_cycle_us=%s jobs_started=%s (%s)\n' \
			"$setup" "$cyc" "$mean" "$tmax" "$tstart" "$(secs $((s1 - s0)))" "$(per $((s1 - s0)) "$tstart")" \
			"$mcyc" "$mmean" "$mmax" "$started" "$params"
	else
		local bmean bmax bcyc bdepth bstart bbusy
		bmean=$(sdiag_field backfill "Mean cycle" "$sd") bmax=$(sdiag_field backfill "Max cycle" "$sd")
		bcyc=$(sdiag_field backfill "Total cycles" "$sd") bdepth=$(sdiag_field backfill "Depth Mean" "$sd")
		bstart=$(sdiag_field backfill "Total backfilled jobs (since last stats cycle start)" "$sd")
		bmean=${bmean:-0} bcyc=${bcyc:-0} bstart=${bstart:-0}
		bbusy=$((bcyc * bmean))
		CYCLE[$setup]=$bmean MAINCYCLE[$setup]=$mmean BUSY[$setup]=$((bbusy + mcyc * mmean))
		printf '%-16s cycles: sched/backfill cycles=%s mean_cycle_us=%s max_cycle_us=%s depth_mean=%s started=%s busy_s=%s per_start_us=%s main_sched cycles=%s mean_cycle_us=%s max_cycle_us=%s started=%s busy_s=%s per_start_us=%s (topo-cluster defaults%s)\n' \
			"$setup" "$bcyc" "$bmean" "$bmax" "$bdepth" "$bstart" "$(secs "$bbusy")" "$(per "$bbusy" "$bstart")" \
			"$mcyc" "$mmean" "$mmax" "$((started - bstart))" "$(secs $((mcyc * mmean)))" \
			"$(per $((mcyc * mmean)) $((started - bstart)))" "${params:+,$params}"
	fi
	cleanup
}

mode_burst() {
	declare -gA STARTUP CTLD1 DRAIN JPS CYCLE MAINCYCLE BUSY
	BAD=0
	echo "bench_sched_live burst: $NODES nodes (2-level fat tree, leaves of $LEAF), $BURST jobs (80% 1 node, 8% 2, 5% 4, 4% 8, 2% 16, 1% 32; --wrap true, -t 1), seed $SEED, daemons at nice $NICE, sched/topo policy $TOPO_POLICY"
	local s
	for s in $SETUPS; do run_burst "$s"; done
	local t b
	for t in $SETUPS; do
		case $t in topo-*) ;; *) continue ;; esac
		for b in $SETUPS; do
			case $b in backfill-*) ;; *) continue ;; esac
			awk -v t="$t" -v b="$b" -v st="${STARTUP[$t]}" -v sb="${STARTUP[$b]}" \
				-v ct="${CTLD1[$t]}" -v cb="${CTLD1[$b]}" -v dt="${DRAIN[$t]}" -v db="${DRAIN[$b]}" \
				-v jt="${JPS[$t]}" -v jb="${JPS[$b]}" -v yt="${CYCLE[$t]}" -v yb="${CYCLE[$b]}" \
				-v mb="${MAINCYCLE[$b]:-0}" -v bt="${BUSY[$t]}" -v bb="${BUSY[$b]}" 'function r(a, c) { return c > 0 ? sprintf("%.3f", a / c) : "n/a" }
				BEGIN {
				printf "ratio %s / %s: startup %s, slurmctld_rss_after %s, drain_s %s, jobs_per_s %s\n",
					t, b, r(st, sb), r(ct, cb), r(dt, db), r(jt, jb)
				printf "ratio %s mean cycle: sched/backfill / sched/topo = %s, main scheduler (%s) / sched/topo = %s\n",
					b, r(yb, yt), b, r(mb, yt)
				printf "ratio scheduling busy time (all cycles, main scheduler included): %s / %s = %s\n",
					t, b, r(bt, bb) }'
		done
	done
	[ "$BAD" = 0 ] || die "jobs lost or left in the queue (see above)"
}

case $MODE in
queue) mode_queue ;;
burst) mode_burst ;;
esac
