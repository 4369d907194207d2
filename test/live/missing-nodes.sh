#!/bin/bash
# Live test on every release (t-missing-nodes.sh on 22.05,
# t-missing-nodes-RELEASE.sh): a node of slurm.conf that topology.conf or
# torus.conf lacks no longer stops slurmctld.  As Slurm's own topology/tree
# ("switches lack access to N nodes"), the placement plugin warns, naming
# the node, and runs on; the node is outside the tree:
#  - 17 nodes, topology.conf names n[1-16] (4 leaf switches of 4): the
#    cluster starts, the warning names n17, a 2-node job runs on one leaf;
#  - with n[1-16] held by one job, a 2-node job waits (n17 is never part
#    of a placement of more nodes) and a 1-node job gets what the
#    release's topology/tree gives it: n17 at once on 26.05 (a job of one
#    node may use any node there), nothing on 22.05 and 24.11 (every job
#    below a switch): it waits for the tree and never runs on n17;
#  - 17 nodes, torus.conf a 4x4 torus of n[1-16]: the cluster starts, the
#    warning names n17, a 2-node job gets a box of the torus;
#  - the same jobs on Slurm's own topology/tree (22.05: select/linear;
#    24.11, 26.05: select/cons_tres) and the same topology.conf: the same
#    jobs wait, the same runs on n17 (26.05) or none (22.05, 24.11).
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
if topology_series; then
	live_needs topology_fattree topology_torus
else
	live_needs select_fattree select_torus
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/t-missing-nodes.XXXXXX")
printf 'SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Nodes=n[5-8]\nSwitchName=s2 Nodes=n[9-12]\n%s\n%s\n' \
	'SwitchName=s3 Nodes=n[13-16]' 'SwitchName=top Switches=s[0-3]' >"$work/topology.conf"
printf 'Dimensions=4x4\nNodes=n[1-16]\n' >"$work/torus.conf"

leaf_of() { echo $(((${1#n} - 1) / 4)); }

# ---- fat tree: n17 outside it
plugin=$(placement_plugin fattree)
# shellcheck disable=SC2046 # placement_args: several words
live_start --nodes 17 $(placement_args fattree) --sched sched/backfill \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$work/topology.conf"
LOG=$LIVE_DIR/log/slurmctld.log
pass "slurmctld runs with a node that topology.conf lacks"
line=$(grep -m1 "$plugin: .*not in .*topology.conf" "$LOG" || true)
printf '%s\n' "$line" | diag_block
assert_match ".*$plugin: .*1 node is not in $LIVE_DIR/topology.conf: n17; outside the tree, .*" \
	"$line" "the warning names the file and n17"
if ! topology_series; then
	# Slurm 22.05's own topology/tree reads the same file beside us
	assert_match ".*switches lack access to 1 nodes: n17.*" \
		"$(grep -m1 "lack access" "$LOG")" "and Slurm's topology/tree says the same"
fi

two=$(submit 2 1 1 two) || bail_out "sbatch failed"
wait_job_state "$two" COMPLETED 60 || fail "the 2-node job ran"
nodes=$(job_nodes "$two" | paste -sd' ')
assert_eq 2 "$(job_nodes "$two" | wc -l)" "the 2-node job got 2 nodes ($nodes)"
assert_excludes "$(job_nodelist "$two")" n17 "not n17"
assert_eq 1 "$(for n in $nodes; do leaf_of "$n"; done | sort -u | wc -l)" "both under one leaf switch"

# outside_case LABEL: with n[1-16] held by one job, a 2-node job and a
# 1-node job; CASE gets "multi=STATE single=STATE@NODES" as they are
# before the hold ends (once the scheduler has looked at them), then
# " single-after=NODES"; every job must complete, the 2-node job on the
# tree.
outside_case() {
	local label=$1 hold multi single before id
	held hold hold -N 16
	wait_job_state "$hold" RUNNING 60 || bail_out "$label: the 16-node job did not start"
	[ "$(job_nodelist "$hold")" = "n[1-16]" ] ||
		fail "$label: the 16-node job holds the whole tree: $(job_nodelist "$hold")"
	held multi multi -N 2
	held single single -N 1
	wait_tried "$multi" || fail "$label: the scheduler looked at the 2-node job"
	if [ "${LIVE_SLURM:-22.05}" = 26.05 ]; then
		wait_job_state "$single" RUNNING 60 || diag "$label: the 1-node job did not start"
	else
		wait_tried "$single" || fail "$label: the scheduler looked at the 1-node job"
	fi
	before="multi=$(job_state "$multi") single=$(job_state "$single")@$(job_nodelist "$single")"
	release
	wait_jobs_final 120 "$hold" "$multi" "$single" || fail "$label: the jobs ended once released"
	for id in "$hold" "$multi" "$single"; do
		diag "$label: job $id ($(job_field "$id" JobName)): $(job_state "$id") on $(job_nodelist "$id")"
		[ "$(job_state "$id")" = COMPLETED ] || fail "$label: job $id completed"
	done
	if expand_hostlist "$(job_nodelist "$multi")" | grep -qx n17; then
		fail "$label: the 2-node job ran on n17"
	fi
	unrelease
	CASE="$before single-after=$(job_nodelist "$single")"
}

outside_case "$plugin"
ours=$CASE
diag "$plugin: $ours"
if [ "${LIVE_SLURM:-22.05}" = 26.05 ]; then
	assert_eq "multi=PENDING single=RUNNING@n17 single-after=n17" "$ours" \
		"n[1-16] busy: the 2-node job waits, the 1-node job runs on n17 at once"
else
	assert_match "multi=PENDING single=PENDING@ single-after=n([1-9]|1[0-6])" "$ours" \
		"n[1-16] busy: the 2-node and the 1-node job wait, n17 free; then they run on the tree"
fi
assert_eq 0 "$(grep -ci "segfault\|core dumped\|signal 11" "$LOG")" "no crash"
live_stop

# ---- torus: n17 outside it
plugin=$(placement_plugin torus)
# shellcheck disable=SC2046
live_start --nodes 17 $(placement_args torus) --sched sched/backfill \
	--plugindir "$TOPO_PLUGINDIR" --conf-file "$work/torus.conf"
LOG=$LIVE_DIR/log/slurmctld.log
pass "slurmctld runs with a node that torus.conf lacks"
assert_match ".*$plugin: .*1 node is not in $LIVE_DIR/torus.conf: n17; outside the torus, .*" \
	"$(grep -m1 "$plugin: .*not in .*torus.conf" "$LOG")" "the warning names the file and n17"
two=$(submit 2 1 1 two) || bail_out "sbatch failed"
wait_job_state "$two" COMPLETED 60 || fail "the 2-node job ran"
assert_eq 2 "$(job_nodes "$two" | wc -l)" "the 2-node job got 2 nodes ($(job_nodelist "$two"))"
assert_excludes "$(job_nodelist "$two")" n17 "on the torus, not n17"
# a box of 2 on the 4x4 torus (row-major, rings): neighbours in a row or
# a column
read -r a b <<<"$(job_nodes "$two" | sed 's/^n//' | paste -sd' ')"
box=$(awk -v a=$((a - 1)) -v b=$((b - 1)) 'BEGIN {
	ra = int(a / 4); ca = a % 4; rb = int(b / 4); cb = b % 4
	dr = (ra - rb + 4) % 4; dc = (ca - cb + 4) % 4
	print ((ra == rb && (dc == 1 || dc == 3)) || (ca == cb && (dr == 1 || dr == 3))) ? "box" : "no box" }')
assert_eq box "$box" "a box of the torus (n$a, n$b)"
live_stop

# ---- Slurm's own topology/tree on the same cluster: the same answers
# (on 22.05 under select/linear, on 24.11 and 26.05 under
# select/cons_tres with whole nodes)
if topology_series; then
	own="--select select/cons_tres --topology topology/tree --part-opts OverSubscribe=EXCLUSIVE"
else
	own="--select select/linear"
fi
# shellcheck disable=SC2086 # own: several words
live_start --nodes 17 $own --sched sched/backfill --topology-conf "$work/topology.conf"
outside_case "topology/tree"
diag "topology/tree: $CASE"
tree=$CASE
if [ "${LIVE_SLURM:-22.05}" = 26.05 ]; then
	assert_eq "$tree" "$ours" "Slurm's topology/tree: the same jobs wait and run on n17"
else
	assert_eq "${tree%% single-after=*}" "${ours%% single-after=*}" \
		"Slurm's own topology/tree: the same jobs wait, n17 stays free"
	assert_excludes "${tree##*single-after=}" n17 "and its 1-node job too runs on the tree after"
fi
rm -rf "$work"
done_testing
