#!/bin/bash
# Live test, Slurm 26.05: sched/topo's state files in StateSaveLocation
# (the fill table sched_topo.fills, the run-time database sched_topo.expdb,
# the statistics sched_topo.stats) hold garbage when slurmctld starts:
# each file's problem is logged with its path and line, the file is
# ignored, and sched/topo runs jobs.
#
# slurmctld writes the files itself (after cycles, and at shutdown), so
# it is stopped (SIGSTOP) while the garbage goes in, then killed and
# started again (restart-ctld --kill9).
LIVE_SLURM=26.05
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs sched_topo

extra=$(mktemp "${TMPDIR:-/tmp}/t-state-files.XXXXXX")
st_extra_conf "topo_policy=easy" >"$extra"
# shellcheck disable=SC2046 # topo-cluster options, split on purpose
live_start --nodes 4 $(flat_args) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"
LOG=$(st_log)
STATE=$LIVE_DIR/state

# run_jobs LABEL: two jobs sched/topo starts; both complete.
run_jobs() {
	local a b
	a=$(submit 2 1 1 "$1-a") || bail_out "sbatch failed"
	b=$(submit 4 1 1 "$1-b") || bail_out "sbatch failed"
	wait_jobs_final 60 "$a" "$b" || fail "$1: jobs $a $b ended"
	assert_eq "COMPLETED COMPLETED" "$(job_state "$a") $(job_state "$b")" "$1: jobs $a and $b completed"
	assert_match "[1-9][0-9]*" "$(grep -ac "sched/topo: cycle [0-9]*: easy: started JobId=$b " "$LOG")" \
		"$1: sched/topo started job $b"
}

run_jobs before
for _ in $(seq 1 50); do [ -s "$STATE/sched_topo.stats" ] && break; sleep 0.2; done
assert_true "the statistics file exists" test -s "$STATE/sched_topo.stats"

wait_state_saved
pid=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
[ -n "$pid" ] || bail_out "no slurmctld pid in $LIVE_DIR/pids"
kill -STOP "$pid" || bail_out "kill -STOP $pid"
for f in fills expdb stats; do
	printf 'PK\003\004 this is not a state file\n\001\002\377 %s\n' "$f" >"$STATE/sched_topo.$f"
done
mark=$(wc -l <"$LOG")
restart_ctld --kill9 | diag_block
since() { tail -n +"$((mark + 1))" "$LOG"; }
for _ in $(seq 1 50); do since | grep -aq "sched/topo: topo_policy=" && break; sleep 0.2; done

assert_match ".*sched/topo: $STATE/sched_topo.fills:1: not a sched/topo fill table .*: file ignored; fill jobs of before the restart are treated as ordinary jobs" \
	"$(since | grep -a "sched_topo.fills")" "the fill table's problem is logged with path and line"
assert_match ".*sched/topo: $STATE/sched_topo.expdb:1: not an experiential database .*; starting with an empty run-time database.*" \
	"$(since | grep -a "sched_topo.expdb")" "the run-time database's problem is logged with path and line"
assert_match ".*sched/topo: $STATE/sched_topo.stats:1: not 'key=value': .*: not read; replaced after the first cycle" \
	"$(since | grep -a "sched_topo.stats")" "the statistics file's problem is logged with path and line"
run_jobs after
assert_eq "format=1" "$(head -n1 "$STATE/sched_topo.stats")" "the statistics file was written anew"
assert_eq "" "$(since | grep -a "fatal\|segfault\|assert" | head -n3)" "no fatal error after the restart"
done_testing
