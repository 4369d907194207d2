#!/bin/bash
# Live test: select/fattree never allocates a DOWN node.  On the 64-node,
# 3-level, width-4 fat tree n6 is set DOWN; then jobs of many sizes run
# (none may touch n6, all complete, no node is shared by overlapping jobs)
# and a job needing all 64 nodes stays pending.
#
# Hand-worked case of the method's single-unit rule: with n6 down its unit
# (leaf n5..n8) is partly usable with exactly 3 nodes free, and a job of 3
# nodes takes a partly used unit with exactly its size free before any
# completely free one -- so the first 3-node job runs on n5, n7, n8.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
live_needs ftconf select_fattree

tmp_topo=$(mktemp "${TMPDIR:-/tmp}/t-fattree-down.XXXXXX")
"$FTCONF" generate --levels 3 --width 4 -o "$tmp_topo" || { rm -f "$tmp_topo"; bail_out "ftconf generate failed"; }
live_start --nodes 64 --select select/fattree --sched sched/backfill \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$tmp_topo"
rm -f "$tmp_topo"

sx scontrol update nodename=n6 state=down reason=live-test
assert_match "down\*?" "$(node_state n6)" "n6 is down after scontrol update"

three=$(submit 3 3 1 three) || bail_out "sbatch failed"
wait_job_state "$three" "RUNNING|COMPLETED" 30
assert_eq "n5 n7 n8" "$(job_nodes "$three" | sort -V | paste -sd' ')" \
	"3-node job $three fills the unit of n6's leaf that has exactly 3 nodes up"

later=()
for n in 16 12 8 6 4 4 3 1 1 16 12 6; do
	later+=("$(submit "$n" 3 1 "n$n")") || bail_out "sbatch failed"
done
big=$(submit 64 1 1 all64) || bail_out "sbatch failed"
wait_jobs_final 150 "$three" "${later[@]}"
for id in "$three" "${later[@]}"; do
	diag "job $id ($(job_field "$id" NumNodes) nodes): $(job_nodelist "$id")"
done
on6="" bad=""
for id in "$three" "${later[@]}"; do
	job_nodes "$id" | grep -qx n6 && on6="$on6 $id"
	[ "$(job_state "$id")" = COMPLETED ] || bad="$bad $id($(job_state "$id"))"
done
assert_eq "" "$bad" "$((${#later[@]} + 1)) jobs after the DOWN completed"
assert_eq "" "$on6" "none of them ran on n6"
assert_no_node_shared "no node shared by overlapping jobs" "$three" "${later[@]}"
assert_eq PENDING "$(job_state "$big")" "64-node job $big stays pending while n6 is down"
diag "reason: $(job_field "$big" Reason)"
assert_match "down\*?" "$(node_state n6)" "n6 is still down"
sx scancel "$big"

done_testing
