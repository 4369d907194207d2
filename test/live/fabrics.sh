#!/bin/bash
# Live test on every release (t-fabrics.sh on 22.05, t-fabrics-RELEASE.sh):
# a topology.conf of two fabrics (two 8-node islands, A = n[1-8] and
# B = n[9-16], no spine) is two fabrics for the placement plugin, as for
# Slurm's own topology/tree, which never combines switches that have no
# common ancestor:
#  - slurmctld logs the plugin's warning naming both fabrics;
#  - a 6-node job runs inside one island;
#  - two 6-node jobs run side by side, each inside one island;
#  - a 12-node job, which only both islands together could hold, never
#    starts on the idle cluster; what it gets (sbatch's refusal, or the
#    pending reason) is what Slurm's own topology/tree gives it on the same
#    cluster and file (22.05: select/linear; 24.11, 26.05: select/cons_tres
#    with whole nodes), checked in the same run.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
if topology_series; then
	live_needs topology_fattree
else
	live_needs select_fattree
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/t-fabrics.XXXXXX")
printf '%s\n' 'SwitchName=a1 Nodes=n[1-4]' 'SwitchName=a2 Nodes=n[5-8]' \
	'SwitchName=b1 Nodes=n[9-12]' 'SwitchName=b2 Nodes=n[13-16]' \
	'SwitchName=A Switches=a[1-2]' 'SwitchName=B Switches=b[1-2]' >"$work/topology.conf"

# island ID: "A" or "B" when every node of the job is in that island,
# else the list of islands seen ("A B").
island() {
	job_nodes "$1" | sed 's/^n//' | awk '{ print ($1 <= 8) ? "A" : "B" }' |
		sort -u | paste -sd' '
}

# jobs_case LABEL: the three cases on the running cluster; CASE gets
# the 12-node job's outcome ("rejected: MESSAGE" or "STATE/REASON").
jobs_case() {
	local label=$1 six x y out twelve one
	six=$(submit 6 1 1 six) || bail_out "$label: sbatch -N 6 failed"
	wait_job_state "$six" COMPLETED 60 || fail "$label: the 6-node job ran"
	diag "$label: 6-node job on $(job_nodelist "$six")"
	assert_eq 6 "$(job_nodes "$six" | wc -l)" "$label: the 6-node job got 6 nodes"
	assert_match "[AB]" "$(island "$six")" "$label: the 6-node job inside one island ($(job_nodelist "$six"))"

	held x x -N 6
	held y y -N 6
	wait_job_state "$x" RUNNING 60 || fail "$label: the first 6-node job started"
	wait_job_state "$y" RUNNING 60 || fail "$label: the second 6-node job started beside it"
	diag "$label: side by side on $(job_nodelist "$x") and $(job_nodelist "$y")"
	assert_eq "A B" "$(printf '%s\n' "$(island "$x")" "$(island "$y")" | sort | paste -sd' ')" \
		"$label: two 6-node jobs side by side, one in each island"
	release
	wait_jobs_final 60 "$x" "$y" || fail "$label: the held jobs ended"
	unrelease
	wait_nodes_idle "n[1-16]" 60 || fail "$label: the cluster idle again"

	if out=$(sx sbatch --parsable -N 12 -t 1 -J twelve -o "$LIVE_DIR/out/%j.out" \
		--wrap "sleep 1" 2>&1); then
		twelve=${out%%;*}
		wait_tried "$twelve" || fail "$label: the scheduler looked at the 12-node job"
		# a 1-node job behind it: once that one has run, the
		# scheduler has passed over the 12-node job on the idle cluster
		one=$(submit 1 1 1 one) || bail_out "$label: sbatch -N 1 failed"
		wait_job_state "$one" COMPLETED 60 || fail "$label: a 1-node job ran past it"
		CASE="$(job_state "$twelve")/$(job_field "$twelve" Reason)"
		assert_eq "" "$(job_nodelist "$twelve")" "$label: the 12-node job got no nodes on the idle cluster"
		sx scancel "$twelve"
	else
		CASE="rejected: ${out#sbatch: error: }"
		CASE=${CASE%%$'\n'*}
	fi
	diag "$label: 12-node job: $CASE"
}

plugin=$(placement_plugin fattree)
# shellcheck disable=SC2046 # placement_args: several words
live_start --nodes 16 $(placement_args fattree) --sched sched/backfill \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$work/topology.conf"
LOG=$LIVE_DIR/log/slurmctld.log
line=$(grep -m1 "$plugin: .*fabrics with no switch above them" "$LOG" || true)
printf '%s\n' "$line" | diag_block
assert_match ".*$plugin: $LIVE_DIR/topology.conf: 2 fabrics with no switch above them: fabric 1 = A \(n\[1-8\]\), fabric 2 = B \(n\[9-16\]\); no job will span two; write a spine switch to join them" \
	"$line" "slurmctld logs the two fabrics"
jobs_case "$plugin"
ours=$CASE
assert_match "(PENDING/.*|rejected: .*)" "$ours" "$plugin: the 12-node job never starts ($ours)"
assert_eq 0 "$(grep -ci "segfault\|core dumped\|signal 11" "$LOG")" "no crash"
live_stop

# ---- Slurm's own topology/tree, the same file and jobs
if topology_series; then
	own="--select select/cons_tres --topology topology/tree --part-opts OverSubscribe=EXCLUSIVE"
else
	own="--select select/linear"
fi
# shellcheck disable=SC2086 # own: several words
live_start --nodes 16 $own --sched sched/backfill --topology-conf "$work/topology.conf"
LOG=$LIVE_DIR/log/slurmctld.log
diag "topology/tree: $(grep -m1 "no switch can reach all nodes" "$LOG" || echo "no warning")"
jobs_case "topology/tree"
tree=$CASE
assert_eq "$tree" "$ours" "the 12-node job: as under Slurm's own topology/tree"
live_stop
rm -rf "$work"
done_testing
