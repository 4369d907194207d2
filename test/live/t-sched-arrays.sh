#!/bin/bash
# Live test: sched/topo starts a job array's pending tasks as jobs of
# their own in one pass, as many as fit (8 nodes, select/linear,
# topo_policy=easy): --array=1-16 of 1-node jobs, submitted first on a
# fresh cluster, starts 8 tasks in the same cycle, then the other 8 as
# those end: in the cycles their ends fall in (one or two on a quiet
# machine; on a loaded one the 3-s tasks end up to a few seconds apart,
# so at most 4 cycles in all are allowed); a %2 task limit holds.
# Before, the plugin started one task per cycle (16 cycles).
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs sched_topo

extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-arrays.XXXXXX")
st_extra_conf "topo_policy=easy" >"$extra"
live_start --nodes 8 --select select/linear --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"
LOG=$(st_log)

# cycles_of JOBID: the sched/topo cycle numbers that started its tasks.
cycles_of() {
	sed -n "s/.*sched\/topo: cycle \([0-9]*\): .*started JobId=\([0-9]*\) .*/\1 \2/p" "$LOG" |
		while read -r cyc id; do
			[ "$(job_field "$id" ArrayJobId)" = "$1" ] && echo "$cyc"
		done
}

diag "---- --array=1-16, 1 node each, on 8 nodes"
a=$(submit 1 3 1 arr --array=1-16) || bail_out "sbatch --array"
t0=$(date +%s)
for _ in $(seq 1 60); do
	[ "$(sx squeue -h -j "$a" -t PENDING,RUNNING | wc -l)" -eq 0 ] && break
	sleep 1
done
el=$(($(date +%s) - t0))
assert_eq 0 "$(sx squeue -h -j "$a" | wc -l)" "every task of the array finished (${el} s)"
per_cycle=$(cycles_of "$a" | sort | uniq -c | awk '{print $1}' | sort -n | tail -n1)
assert_eq 8 "$per_cycle" "8 tasks started in one cycle (all 8 nodes)"
ncyc=$(cycles_of "$a" | sort -u | wc -l)
assert_true "the 16 tasks started in 2 to 4 cycles, not one a cycle ($ncyc)" \
	test "$ncyc" -ge 2 -a "$ncyc" -le 4

diag "---- --array=1-4%2"
b=$(submit 1 3 1 lim --array=1-4%2) || bail_out "sbatch --array %2"
for _ in $(seq 1 60); do
	[ "$(sx squeue -h -j "$b" -t PENDING,RUNNING | wc -l)" -eq 0 ] && break
	[ "$(sx squeue -h -j "$b" -t RUNNING | wc -l)" -le 2 ] ||
		fail "more than 2 tasks of a %2 array running"
	sleep 0.5
done
assert_eq 0 "$(sx squeue -h -j "$b" | wc -l)" "every task of the %2 array finished"
assert_eq 2 "$(cycles_of "$b" | sort | uniq -c | awk '{print $1}' | sort -n | tail -n1)" \
	"at most 2 tasks started together under %2"

done_testing
