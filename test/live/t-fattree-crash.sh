#!/bin/bash
# Live test: select/fattree survives `kill -9` of slurmctld with jobs
# running on the 64-node, 3-level, width-4 fat tree.  After the restart no
# job is lost (every id known, running jobs RUNNING on the same NodeList,
# the pending one still queued), jobs submitted after the restart get only
# nodes no running job holds, every job completes, and no node was ever
# given to two jobs whose run times overlap.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
live_needs ftconf select_fattree

# The long jobs run until the test releases them (lib.sh's held): they
# outlive the state save, the crash and the restart however slow the
# machine is; a fixed sleep did not on a loaded one.

tmp_topo=$(mktemp "${TMPDIR:-/tmp}/t-fattree-crash.XXXXXX")
"$FTCONF" generate --levels 3 --width 4 -o "$tmp_topo" || { rm -f "$tmp_topo"; bail_out "ftconf generate failed"; }
live_start --nodes 64 --select select/fattree --sched sched/backfill \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$tmp_topo"
rm -f "$tmp_topo"

# --- jobs on the tree: long ones (50 nodes), short ones, one that waits
long=() short=()
for n in 16 12 8 6 4 3 1; do
	held id "long$n" -N "$n"
	long+=("$id")
done
for n in 4 4; do short+=("$(submit "$n" 3 1 "short$n")") || bail_out "sbatch failed"; done
waiter=$(submit 16 2 1 wait16) || bail_out "sbatch failed"
ids=("${long[@]}" "${short[@]}" "$waiter")
for id in "${long[@]}"; do wait_job_state "$id" RUNNING 30 || bail_out "job $id did not start"; done
assert_eq PENDING "$(job_state "$waiter")" "16-node job $waiter waits while 50 nodes are busy"
assert_snapshot_disjoint "before the crash: no node under two running jobs"
declare -A before
for id in "${long[@]}"; do before[$id]=$(job_nodelist "$id"); done
for id in "${long[@]}"; do diag "job $id ($(job_field "$id" NumNodes) nodes): ${before[$id]}"; done

# --- crash: every change so far must be on disk first.  The short jobs
# end first: slurmctld saves state at most every 5 s, so a job ending just
# before the kill would come back as running (a Slurm limit, not ours) and
# hold its nodes until its time limit.
for id in "${short[@]}"; do wait_job_state "$id" COMPLETED 60 || bail_out "job $id did not complete"; done
wait_state_saved
ctld_old=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
loads_old=$(grep -c 'select/fattree: topology' "$LIVE_DIR/log/slurmctld.log")
restart_ctld --kill9 | diag_block
ctld_new=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
assert_ne "$ctld_old" "$ctld_new" "slurmctld restarted under a new pid ($ctld_old -> $ctld_new)"
loads_new=$(grep -c 'select/fattree: topology' "$LIVE_DIR/log/slurmctld.log")
assert_eq 1 "$((loads_new > loads_old))" \
	"the restarted slurmctld loaded select/fattree and the tree again (log lines $loads_old -> $loads_new)"
lost=""
for id in "${ids[@]}"; do job_known "$id" || lost="$lost $id"; done
assert_eq "" "$lost" "every job id is still known after the crash (${ids[*]})"
for id in "${long[@]}"; do
	assert_eq "RUNNING ${before[$id]}" "$(job_state "$id") $(job_nodelist "$id")" \
		"job $id still running on the same nodes after the restart"
done
assert_match "PENDING|RUNNING|COMPLETED" "$(job_state "$waiter")" \
	"16-node job $waiter is still queued (or started on freed nodes)"
assert_snapshot_disjoint "after the restart: no node under two running jobs"

# --- the restarted plugin must know which nodes the running jobs hold
held=$(for id in "${long[@]}"; do job_nodes "$id"; done | sort -u)
after=()
for n in 4 6 1; do after+=("$(submit "$n" 2 1 "after$n")") || bail_out "sbatch failed"; done
for id in "${after[@]}"; do wait_job_state "$id" "RUNNING|COMPLETED" 60; done
clash=""
for id in "${after[@]}"; do
	c=$(comm -12 <(job_nodes "$id" | sort -u) <(printf '%s\n' "$held") | paste -sd,)
	[ -n "$c" ] && clash="$clash job $id on $c;"
	diag "after the restart: job $id ($(job_field "$id" NumNodes) nodes) on $(job_nodelist "$id")"
done
assert_eq "" "$clash" "jobs submitted after the restart got no node of a running job"
assert_snapshot_disjoint "after new submissions: no node under two running jobs"

# --- everything completes, nothing was double-booked
release
all=("${ids[@]}" "${after[@]}")
wait_jobs_final 180 "${all[@]}"
states=$(for id in "${all[@]}"; do echo "$id $(job_state "$id") $(job_field "$id" ExitCode)"; done)
assert_eq "$(for id in "${all[@]}"; do echo "$id COMPLETED 0:0"; done)" "$states" \
	"all ${#all[@]} jobs completed with exit 0"
for id in "${long[@]}"; do
	assert_eq "${before[$id]}" "$(jobcomp_nodelist "$id")" "jobcomp.txt records job $id on ${before[$id]}"
done
assert_eq 16 "$(job_nodes "$waiter" | sort -u | wc -l)" "16-node job $waiter ran on 16 nodes"
assert_no_node_shared "no node was given to two jobs whose run times overlap" "${all[@]}"

done_testing
