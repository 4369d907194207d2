#!/bin/bash
# Live smoke test of the harness with stock Slurm plugins (select/linear,
# sched/backfill) on 8 nodes: allocation, a slurmctld crash and restart with
# jobs running, and a DOWN node.  The topology tests follow this pattern.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
live_start --nodes 8 --select "${LIVE_SELECT:-select/linear}" --sched sched/backfill

ALL8="n1 n2 n3 n4 n5 n6 n7 n8"

# --- the cluster is up
idle=$(sx sinfo -h -N -o '%N %t' | awk '$2 == "idle" { print $1 }' | sort -V | paste -sd' ')
assert_eq "$ALL8" "$idle" "sinfo shows 8 idle nodes"

# --- a 2-node job runs on 2 nodes and is recorded where it ran
j=$(submit 2 2) || bail_out "sbatch failed"
wait_job_state "$j" "RUNNING|COMPLETED" 30
nl=$(job_nodelist "$j")
assert_eq 2 "$(expand_hostlist "$nl" | sort -u | wc -l)" "2-node job $j got 2 distinct nodes ($nl)"
wait_job_state "$j" COMPLETED 30
assert_eq COMPLETED "$(job_state "$j")" "2-node job $j completed"
assert_eq "$nl" "$(jobcomp_nodelist "$j")" "jobcomp.txt records job $j on $nl"

# --- kill -9 slurmctld while jobs run; nothing may be lost or double-booked
long=() short=()
# The long jobs run until released: a fixed length raced state save and
# the restart on a loaded machine (a job ended before it was checked).
for i in 1 2 3 4; do held "long[$((i - 1))]" "long$i" --tag long -N 2; done
for i in 1 2 3; do short+=("$(submit 2 3 1 "short$i")"); done
wide=$(submit 8 2 1 wide)
ids=("${long[@]}" "${short[@]}" "$wide")
for id in "${long[@]}"; do wait_job_state "$id" RUNNING 30; done
assert_snapshot_disjoint "before the crash: no node under two running jobs"
declare -A before
for id in "${long[@]}"; do before[$id]=$(job_nodelist "$id"); done
assert_eq "$ALL8" "$(for id in "${long[@]}"; do job_nodes "$id"; done | sort -V | paste -sd' ')" \
	"four 2-node jobs cover the 8 nodes"
wait_state_saved
ctld_old=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
restart_ctld --kill9 | diag_block
ctld_new=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
assert_ne "$ctld_old" "$ctld_new" "slurmctld restarted under a new pid ($ctld_old -> $ctld_new)"
lost=""
for id in "${ids[@]}"; do job_known "$id" || lost="$lost $id"; done
assert_eq "" "$lost" "every job id is still known after the crash (${ids[*]})"
for id in "${long[@]}"; do
	assert_eq "RUNNING ${before[$id]}" "$(job_state "$id") $(job_nodelist "$id")" \
		"job $id still running on the same nodes after the restart"
done
assert_snapshot_disjoint "after the restart: no node under two running jobs"
release long
wait_jobs_final 120 "${ids[@]}"
states=$(for id in "${ids[@]}"; do echo "$id $(job_state "$id") $(job_field "$id" ExitCode)"; done)
assert_eq "$(for id in "${ids[@]}"; do echo "$id COMPLETED 0:0"; done)" "$states" \
	"all jobs submitted before the crash completed with exit 0"
assert_eq "$ALL8" "$(job_nodes "$wide" | sort -V | paste -sd' ')" "8-node job $wide ran on all nodes"
assert_no_node_shared "no node was given to two jobs whose run times overlap" "$j" "${ids[@]}"
missing=""
for id in "${ids[@]}"; do [ -n "$(jobcomp_nodelist "$id")" ] || missing="$missing $id"; done
assert_eq "" "$missing" "jobcomp.txt has a record of every finished job"

# --- a DOWN node is never allocated
sx scontrol update nodename=n3 state=down reason=test
assert_match "down\*?" "$(node_state n3)" "n3 is down after scontrol update"
later=("$(submit 7 3 1 seven)")
for i in 1 2 3 4 5; do later+=("$(submit 1 2 1 "one$i")"); done
for i in 1 2; do later+=("$(submit 2 2 1 "two$i")"); done
big=$(submit 8 1 1 all8)
wait_jobs_final 120 "${later[@]}"
assert_eq "n1 n2 n4 n5 n6 n7 n8" "$(job_nodes "${later[0]}" | sort -V | paste -sd' ')" \
	"7-node job ran on every node but n3"
on3=""
for id in "${later[@]}"; do
	job_nodes "$id" | grep -qx n3 && on3="$on3 $id"
	[ "$(job_state "$id")" = COMPLETED ] || on3="$on3 $id($(job_state "$id"))"
done
assert_eq "" "$on3" "${#later[@]} jobs after the DOWN completed and none ran on n3"
assert_no_node_shared "no node shared by overlapping jobs after the DOWN" "${later[@]}"
assert_eq PENDING "$(job_state "$big")" "8-node job $big stays pending while n3 is down"
assert_match "down\*?" "$(node_state n3)" "n3 is still down"
sx scancel "$big"

done_testing
