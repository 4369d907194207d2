#!/bin/bash
# Live test on Slurm 24.11 and 26.05 (t-bad-input-RELEASE.sh): bad input to topology/fattree, topology/torus
# and sched/topo gets a clear error naming the file, line and value, as on
# 22.05, and never a crash:
#  - a malformed topology.conf (topology/fattree) and a malformed
#    torus.conf (topology/torus) stop slurmctld at start-up with a fatal
#    message naming FILE:LINE and the bad value (topology/tree stops on a
#    bad topology.conf too: a controller must not run on a topology it
#    does not have), and no core dump;
#  - a topology.conf that lists a node under two leaf switches stops it
#    too, naming the line and the node;
#  - an unknown topo_ key in SchedulerParameters is logged with its name
#    and ignored, and a valid one the policy does not read is logged with
#    the policies that read it; the cluster runs jobs.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

LIVE_SLURM=${LIVE_SLURM:-24.11}
live_require
live_needs topology_fattree topology_torus sched_topo
work=$(mktemp -d "${TMPDIR:-/tmp}/t-bad-input.XXXXXX")

# start_fails NAME ARGS...: topo-cluster start must fail; echoes the
# slurmctld log of the attempt.
start_fails() {
	local name=$1 dir=$work/$1 out
	shift
	if out=$("$TOPO_CLUSTER" start --dir "$dir" --slurm "$LIVE_SLURM" --nodes 4 --timeout 20 "$@" 2>&1); then
		"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1
		fail "$name: slurmctld started on bad input"
		return 1
	fi
	"$TOPO_CLUSTER" stop --dir "$dir" >/dev/null 2>&1
	cat "$dir/log/slurmctld.log" "$dir/log/slurmctld.out" 2>/dev/null
}

# ---- topology/fattree: a switch listing an unknown switch
printf 'SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Switches=s0,s9\n' >"$work/bad-topology.conf"
log=$(start_fails fattree --select select/cons_tres --topology topology/fattree \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$work/bad-topology.conf")
line=$(grep -m1 "topology/fattree" <<<"$log" | grep "topology.conf:2:" || true)
printf '%s\n' "$line" | diag_block
assert_match ".*fatal.*topology/fattree.*topology\.conf:2:.*s9.*|.*topology/fattree.*topology\.conf:2:.*s9.*" \
	"$(grep "topology.conf:2:" <<<"$log" | head -n1)" \
	"malformed topology.conf: the error names the file, line 2 and the unknown switch s9"
assert_match ".*fatal: topology/fattree: cannot load the fattree.*" "$(grep -m1 "fatal: topology/fattree" <<<"$log")" \
	"and slurmctld stops with a fatal message"
assert_eq 0 "$(grep -ci "segfault\|core dumped\|signal 11" <<<"$log")" "no crash"

# ---- topology/fattree: a node under two leaf switches.  Slurm's
# topology/tree keeps it under both; the plugin's tree cannot, so it is an
# error naming the line and the node (before, the node stayed under the
# first leaf with a warning, and the second leaf had no node at all).
printf 'SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Nodes=n[1-4]\nSwitchName=top Switches=s[0-1]\n' \
	>"$work/two-leaves.conf"
log=$(start_fails two-leaves --select select/cons_tres --topology topology/fattree \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$work/two-leaves.conf")
assert_match ".*topology/fattree: .*topology\.conf:2: node 'n1' is already under leaf switch 's0' \(line 1\).*" \
	"$(grep -m1 "topology.conf:2:" <<<"$log")" \
	"a node under two leaf switches: the error names line 2, the node and the first leaf"

# ---- topology/torus: a bad dimension
printf 'Dimensions=2xq\nNodes=n[1-4]\n' >"$work/torus.conf"
log=$(start_fails torus --select select/cons_tres --topology topology/torus \
	--plugindir "$TOPO_PLUGINDIR" --conf-file "$work/torus.conf")
assert_match ".*topology/torus: .*torus\.conf:1:.*2xq.*" "$(grep -m1 "torus.conf:1:" <<<"$log")" \
	"malformed torus.conf: the error names the file, line 1 and the value 2xq"
assert_match ".*fatal: topology/torus: cannot load the torus.*" "$(grep -m1 "fatal: topology/torus" <<<"$log")" \
	"and slurmctld stops with a fatal message"

# ---- sched/topo: an unknown topo_ key, and one easy does not read
printf 'SchedulerParameters=sched_interval=-1,topo_policy=easy,topo_bogus=1,topo_window=4\n' >"$work/extra.conf"
live_start --nodes 4 --select select/cons_tres --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$work/extra.conf"
LOG=$LIVE_DIR/log/slurmctld.log
id=$(submit 2 1 1 ok) || bail_out "sbatch failed"
wait_job_state "$id" COMPLETED 60 || fail "a job ran with the unknown key in place"
assert_match ".*sched/topo: .*unknown key 'topo_bogus'.*ignored.*" "$(grep -m1 "topo_bogus" "$LOG")" \
	"an unknown topo_ key is logged by name and ignored"
assert_match ".*sched/topo: .*topo_window=4 has no effect with topo_policy=easy \(it is read by window-ff\).*" \
	"$(grep -m1 "topo_window=4" "$LOG")" \
	"a setting the policy does not read is logged with the policies that read it"
rm -rf "$work"
done_testing
