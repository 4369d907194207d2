#!/bin/bash
# Live test: sched/topo starts jobs in a real Slurm 22.05 cluster in the
# order, and on the nodes, that the simulator (same core library) predicts,
# for the window-ff (both window rules), easy and batch-njob policies on
# select/linear (LIVE_SLURM=24.11: Slurm 24.11, select/cons_tres with
# whole nodes, t-sched-policies-24.11.sh).
#
# One 4-node cluster with SchedulerType=sched/topo; slurmctld's own FIFO
# scheduler is switched off (sched_interval=-1), so only the plugin starts
# the (batch) jobs.  Each scenario:
#   - sets the policy in SchedulerParameters and runs `scontrol reconfigure`
#     (sched_p_reconfig applies it; the log must show the new settings),
#   - submits its jobs while the partition is DOWN and sets it UP, so the
#     first cycle sees the whole queue, as the simulator does at t = 0
#     (priority/basic: priority order = submission order),
#   - waits for every job to finish, reads the plugin's start lines from
#     slurmctld.log and runs toposim on the same jobs (SWF: run time =
#     sleep, estimate = time limit): the same groups of jobs must start
#     together, in the same order, on the same nodes, with the same fill
#     flags; and the order inside each cycle is the one worked out by hand.
# Run times differ by several seconds wherever the outcome would otherwise
# depend on which of two jobs ending "at once" slurmctld sees first.
# Also: a bad value in SchedulerParameters keeps the previous setting.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo

extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-policies.XXXXXX")
st_extra_conf "topo_policy=fcfs" >"$extra"
# shellcheck disable=SC2046 # topo-cluster options, split on purpose
live_start --nodes 4 $(flat_args) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"
LOG=$(st_log)

assert_eq sched/topo "$(sx scontrol show config | sed -n 's/^SchedulerType *= *//p')" \
	"slurmctld runs with SchedulerType=sched/topo"
assert_eq "" "$(grep "main scheduler still starts jobs" "$LOG")" \
	"no warning about slurmctld's main scheduler (sched_interval=-1 is set)"

# scenario NAME PARAMS "TOPOSIM ARGS" EXPECTED_ORDER JOBS
scenario() {
	local name=$1 params=$2 simargs=$3 expect=$4 policy sim live
	policy=$(sed -n 's/.*topo_policy=\([^,]*\).*/\1/p' <<<"$params")
	diag "---- scenario $name: $params"
	st_set_params "$params" || { fail "$name: reconfigured"; return; }
	assert_match "topo_policy=$policy,.*" "$(st_settings)" "$name: scontrol reconfigure applied $params"
	st_submit "$name" "$5"
	st_wait_completed 300 "$name"
	live=$(st_live_starts)
	# shellcheck disable=SC2086
	sim=$(st_sim_starts 4 "$policy" $simargs) || { fail "$name: toposim ran"; return; }
	st_compare "$name" "$sim" "$live" "$expect"
	assert_no_node_shared "$name: no node shared by jobs whose runs overlap" "${ST_IDS[@]}"
}

# ---------------------------------------------------------------- window-ff
# W = 2.  t=0: A (3) starts; B (2) does not fit; C (1) does; D does not:
# two misses end the pass.  A ends at 20: B on n1-2 (D still misses);
# C ends at 25: D on n3-4.  (FCFS would start C only at 20, after B.)
scenario window-ff "topo_policy=window-ff,topo_window=2" "--window 2" \
	"A C | B | D" "
A 3 20 1
B 2 10 1
C 1 25 1
D 2 10 1"

# ------------------------------------------------------ window-ff, index rule
# W = 2, the Angara paper's window: arrival indices below the oldest
# waiting job's plus W (in Slurm the job id).  t=0: X on n1-2; B (4) waits;
# C (index B+1) fits: n3.  D (index B+2) is outside the window while B
# waits: C's start left a hole that is not refilled (the queue rule would
# start D at once).  X ends at 30: B; B ends at 35: D.
scenario window-index "topo_policy=window-ff,topo_window=2,topo_window_rule=index" \
	"--window 2 --window-rule index" \
	"X C | B | D" "
X 2 30 1
B 4 5 1
C 1 10 1
D 1 10 1"

# --------------------------------------------------------------------- easy
# t=0: A (2 nodes, limit 2 min) starts; B needs all 4: reserved at A's
# limit (120 s); C (1 node, 1 min) ends by then: backfilled; D (1 node,
# 3 min) would outlive the reservation on a node B needs: waits.  C ends
# at 10 (D still waits), A at 30: B; B at 35: D.
scenario easy "topo_policy=easy" "" \
	"A C* | B | D" "
A 2 30 2
B 4 5 1
C 1 10 1
D 1 8 3"

# --------------------------------------------------------------- batch-njob
# Njob = 3.  t=0: batch A,B,C (4 nodes <= 4 free): largest first, so B
# (n1-2) before A (n3) and C (n4).  A ends at 12: batch D,E needs 4 > 1
# free, D alone 3 > 1: nothing (E may not pass D).  B ends at 20: D on
# n1-3; E alone does not fit.  C ends at 28: E on n4.
scenario batch-njob "topo_policy=batch-njob,topo_njob=3" "--njob 3" \
	"B A C | D | E" "
A 1 12 1
B 2 20 1
C 1 28 1
D 3 10 1
E 1 10 1"

# ------------------------------------------- a bad value keeps the previous
# (22.05).  24.11's reconfigure restarts slurmctld: the plugin starts
# afresh and a bad value gets the default, 4 (sched_topo(5)).
before=$(st_settings)
kept=3
if topology_series; then
	kept=4
	before=${before/topo_njob=3/topo_njob=4}
fi
st_set_params "topo_policy=batch-njob,topo_njob=three" || fail "reconfigured with a bad value"
assert_match ".*sched/topo: SchedulerParameters topo_njob: bad value 'three'.*keeping topo_njob=$kept.*" \
	"$(grep "bad value 'three'" "$LOG" | tail -n1)" "a bad topo_njob is logged with key, value and the setting kept (topo_njob=$kept)"
assert_eq "$before" "$(st_settings)" "the other settings stay as they were"

done_testing
