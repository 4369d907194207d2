#!/bin/bash
# Live test: sched/topo's heterogeneous policy (topo_policy=pjs) on a
# Slurm 22.05 cluster (LIVE_SLURM=24.11: t-sched-hetero-24.11.sh) whose two
# partitions differ in speed, emulated by the job script: class "work"
# sleeps 12 s on one node of partition a, 8 s on two; 40 s on one node of
# b, 18 s on two.  The run-time database is learned live from the jobs that
# complete, kept in StateSaveLocation across a slurmctld restart, and the
# choices of partition and node count for `-p a,b -N 1-2` jobs are the ones
# worked out by hand from it, and the ones toposim makes on the same job
# sequence (the same core: hetero/het.h tp_het_pass).
#
# The times are far apart on purpose: Slurm learns whole seconds of
# Elapsed, a loaded machine adds a second or more to a sleep, and with
# 4 s and 3 s on a the lone job of phase 3 went to one node once (both
# learned as 4 s).  Every choice below holds with any of the four learned
# times up to 3 s longer than its sleep: test/hetero-margins.sh replays
# the sequence in toposim under every such error (make check).
#
#  1. learning: one job on each (partition, node count), named explicitly;
#  2. four `-p a,b -N 1-2` jobs eligible at once: each ends sooner waiting
#     for a node of a (12 + 12 s) than on b (40 s), so all four run on a,
#     one node each, two of them after the first two (stock Slurm would
#     start those two on b at once); PJS tries the most profitable
#     parallel option (2 nodes of a, 8 s instead of 12) and rejects it: the
#     sum of expected times grows (80 > 72 s);
#  3. one such job alone: 2 nodes of a (8 s < 12 s): a parallel start;
#  4. partition a busy with a job of an unknown class (expected to run to
#     its 2-minute limit): the next job goes to b (40 s), not behind it;
#  5. a -w job naming fewer nodes than its -N, which the plan does not
#     model, still runs (Slurm's own node selection).
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo

part_opts=""
topology_series && part_opts=" OverSubscribe=EXCLUSIVE"
extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-hetero.XXXXXX")
{
	st_extra_conf "topo_policy=pjs"
	echo "PartitionName=a Nodes=n[1-2] MaxTime=INFINITE State=UP$part_opts"
	echo "PartitionName=b Nodes=n[3-4] MaxTime=INFINITE State=UP$part_opts"
} >"$extra"
# shellcheck disable=SC2046 # topo-cluster options, split on purpose
live_start --nodes 4 $(flat_args) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"
LOG=$(st_log)
DB=$LIVE_DIR/state/sched_topo.expdb
EXPDB=$TOPO_BUILDDIR/src/sim/topo-expdb
assert_match "topo_policy=pjs,.*topo_class_key=name.*" "$(st_settings)" \
	"sched/topo runs topo_policy=pjs, job classes by name"

WORK='case $SLURM_JOB_PARTITION:$SLURM_JOB_NUM_NODES in a:1) sleep 12;; a:2) sleep 8;; b:1) sleep 40;; b:2) sleep 18;; *) exit 3;; esac'
declare -A PART NODES SUB
IDS=()
T0=$(date +%s)
# hsub LABEL SIM_SUBMIT BEGIN SBATCH_ARG...: a "work" job (1 min limit)
# eligible at epoch BEGIN (hold: held until released); SIM_SUBMIT is its
# submit time in the simulator.
hsub() {
	local label=$1 t=$2 begin=$3 out when
	shift 3
	when=(--begin "$(date -d "@$begin" +%Y-%m-%dT%H:%M:%S)")
	[ "$begin" = hold ] && when=(--hold)
	out=$(sx sbatch --parsable -J work -t 1 -o "$LIVE_DIR/out/%j.out" \
		"${when[@]}" "$@" --wrap "$WORK" 2>&1) || bail_out "sbatch failed: $out"
	out=${out%%;*}
	IDS+=("$out")
	SUB[$out]=$t
	eval "$label=$out"
	SIMJOBS+="JobId=$out Submit=$t Class=work Partitions=$(sed -n 's/.*-p \([^ ]*\).*/\1/p' <<<"$*") Nodes=$(sed -n 's/.*-N \([^ ]*\).*/\1/p' <<<"$*") TimeLimit=60"$'\n'
}
SIMJOBS=""
# where ID: "PARTITION NODECOUNT" of a finished job
where() { echo "$(job_field "$1" Partition) $(job_field "$1" NumNodes)"; }
wait_done() { wait_jobs_final 120 "$@" || fail "jobs $* finished"; }

# ---- 1. learning
b=$(($(date +%s) + 3))
hsub L1 0 "$b" -p a -N 1
hsub L2 0 "$b" -p a -N 2
hsub L3 0 "$b" -p b -N 1
hsub L4 0 "$b" -p b -N 2
wait_done "$L1" "$L2" "$L3" "$L4"
for id in "$L1" "$L2" "$L3" "$L4"; do
	assert_eq COMPLETED "$(job_state "$id")" "learning job $id COMPLETED"
done
# db_has REGEX COUNT: the saved database lists COUNT entries matching
# REGEX within 15 s (the plugin learns at the cycle after a job ends and
# saves after that cycle).
db_has() {
	for _ in $(seq 1 30); do
		[ -s "$DB" ] && [ "$("$EXPDB" show "$DB" | grep -c "$1")" = "$2" ] && return 0
		sleep 0.5
	done
	return 1
}
db_has '^work ' 4
"$EXPDB" show "$DB" | diag_block
assert_eq 4 "$("$EXPDB" show "$DB" | grep -c '^work ')" \
	"the database in StateSaveLocation has the 4 (partition, node count) entries of class work"
# The choices below hold for learned times up to 3 s over the sleeps
# (test/hetero-margins.sh): say so when a machine was slower than that.
learned() { "$EXPDB" show "$DB" | awk -v m="$1" -v n="$2" '$1 == "work" && $2 == m && $3 == n { printf "%.0f", $5 }'; }
while read -r part n sl; do
	t=$(learned "$part" "$n") within=0
	[ -n "$t" ] && [ "$t" -ge "$sl" ] && [ "$t" -le $((sl + 3)) ] && within=1
	assert_eq 1 "$within" "work on $n node(s) of $part learned as ${t:-nothing} s: within the 3 s over its $sl-s sleep that the choices allow"
done <<'EOF'
a 1 12
a 2 8
b 1 40
b 2 18
EOF

# A restart keeps what was learned.
restart_ctld >/dev/null || bail_out "slurmctld did not restart"
assert_match ".*sched/topo: run-time database .*sched_topo.expdb: 4 entries.*" \
	"$(grep "run-time database" "$LOG" | tail -n1)" "after a restart slurmctld reads the 4 entries back"

# ---- 2. four choosers at once: held, then released by one command (a
# common --begin a few seconds ahead let the first start alone when a
# loaded machine took longer than that to submit the four)
hsub J1 200 hold -p a,b -N 1-2
hsub J2 200 hold -p a,b -N 1-2
hsub J3 200 hold -p a,b -N 1-2
hsub J4 200 hold -p a,b -N 1-2
sx scontrol release "$J1,$J2,$J3,$J4" || bail_out "scontrol release of the four jobs failed"
wait_done "$J1" "$J2" "$J3" "$J4"
for id in "$J1" "$J2" "$J3" "$J4"; do
	assert_eq "a 1" "$(where "$id")" "job $id (-p a,b -N 1-2, 4 at once): partition a, 1 node"
done
assert_true "jobs 3 and 4 waited for a (started after jobs 1 and 2 ended)" \
	[ "$(job_time "$J3" StartTime)" -ge "$(job_time "$J1" EndTime)" ]

# ---- 3. one chooser alone: parallel on a
b=$(($(date +%s) + 3))
hsub S1 400 "$b" -p a,b -N 1-2
wait_done "$S1"
assert_eq "a 2" "$(where "$S1")" "a lone -p a,b -N 1-2 job: 2 nodes of a (PJS's parallel option)"
assert_match ".*started JobId=$S1 on .* in partition a \\(2 nodes, parallel, .*" \
	"$(grep "started JobId=$S1 " "$LOG")" "the plugin logged it as a parallel start"

# ---- 4. a busy: the chooser goes to b
long=$(sx sbatch --parsable -J long -t 2 -p a -N 2 -o /dev/null --wrap "sleep 20") ||
	bail_out "sbatch failed"
wait_job_state "$long" RUNNING 30 || fail "the long job runs"
b=$(($(date +%s) + 2))
hsub K1 601 "$b" -p a,b -N 1-2
wait_done "$K1" "$long"
assert_eq "b 1" "$(where "$K1")" "with a busy for its 2-minute limit, the job goes to b (1 node)"
SIMJOBS+="JobId=$long Submit=600 Class=long Partitions=a Nodes=2 TimeLimit=120"$'\n'
db_has '^long ' 1 || fail "the long job's run time is in the database"

# ---- the simulator on the same sequence
SIMDIR=$LIVE_DIR/sim
mkdir -p "$SIMDIR"
printf 'PartitionName=a Nodes=n[1-2]\nPartitionName=b Nodes=n[3-4]\n' >"$SIMDIR/machine.conf"
printf '%s' "$SIMJOBS" >"$SIMDIR/jobs.conf"
cp "$DB" "$SIMDIR/truth.expdb"
sim=$("$TOPOSIM" --machine "$SIMDIR/machine.conf" --het-jobs "$SIMDIR/jobs.conf" \
	--truth "$SIMDIR/truth.expdb" --policy pjs --jobs-csv - --summary-json /dev/null --quiet) ||
	fail "toposim ran on the live sequence"
printf '%s\n' "$sim" | diag_block
simwhere=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ print $col["id"], $col["partition"], $col["nodes"] }' <<<"$sim" | sort -n)
livewhere=$(for id in "${IDS[@]}" "$long"; do echo "$id $(where "$id")"; done | sort -n)
diag "live (id partition nodes):"
printf '%s\n' "$livewhere" | diag_block
assert_eq "$simwhere" "$livewhere" "toposim makes the same choices of partition and node count for every job"
assert_eq "" "$(grep "was decided on .* but started on" "$LOG")" "every job started on the nodes the plan chose"

# ---- 5. -w naming fewer nodes than -N: not in the plan's model, so
# Slurm's own selection, partition by partition (a lacks n3; b has it).
pinned=$(sx sbatch --parsable -J pinned -t 1 -p a,b -N 2 -w n3 -o /dev/null --wrap "sleep 1") ||
	bail_out "sbatch failed"
wait_done "$pinned"
assert_eq "COMPLETED b 2 n[3-4]" "$(job_state "$pinned") $(where "$pinned") $(job_nodelist "$pinned")" \
	"-p a,b -N 2 -w n3 runs: Slurm's selection in b adds n4"
assert_match ".*started JobId=$pinned on .* in partition b \\(Slurm's node selection: -w names fewer nodes than -N\\).*" \
	"$(grep "started JobId=$pinned " "$LOG")" "the plugin logged it as Slurm's selection"

done_testing
