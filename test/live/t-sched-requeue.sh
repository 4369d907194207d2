#!/bin/bash
# Live test: RB_HAR's requeue (topo_rbhar_requeue=yes) in a real Slurm 22.05
# cluster.  A fill job F (1 node, limit 1 min) runs far longer than asked:
# at its limit RB_HAR extends it once by minTime (capped at 120 s by
# topo_rbhar_max_time); at the new limit, its one extension used, the core
# answers "resubmit with the corrected estimate" = ceil(2 x 180 s) = 360 s,
# so the plugin requeues it (`scontrol requeue`, as the operator) with
# TimeLimit=00:06:00.  The simulator gives the same corrected estimate.
# Takes about 4 minutes.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo

PARAMS="topo_policy=rb-har,topo_rbhar_max_ext=1,topo_rbhar_max_time=120,topo_rbhar_factor=2,topo_rbhar_requeue=yes"
extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-requeue.XXXXXX")
st_extra_conf "$PARAMS" >"$extra"
live_start --nodes 4 --select select/linear --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"
LOG=$(st_log)

st_submit requeue "
A 2 600 8
H 3 5 1
F 1 600 1"
F=${ST_JID[F]}
H=${ST_JID[H]}
wait_job_state "$F" RUNNING 30 || bail_out "fill job F ($F) did not start"
assert_eq "A F*" "$(st_live_starts | st_groups)" "A starts in order and F as a fill job for H"

# At ~60 s: extended by 120 s.
for _ in $(seq 1 100); do grep -q "RB_HAR extends JobId=$F " "$LOG" && break; sleep 1; done
assert_eq "00:03:00" "$(job_field "$F" TimeLimit)" "F is extended once, to 3 minutes"
# At ~180 s: requeued with the corrected estimate.
for _ in $(seq 1 160); do grep -q "RB_HAR requeues JobId=$F " "$LOG" && break; sleep 1; done
assert_match ".*RB_HAR requeues JobId=$F \(fill job for JobId=$H, still running after 1 extension\(s\)\) with TimeLimit=6" \
	"$(grep "RB_HAR requeues JobId=$F " "$LOG")" "at its extended limit F is requeued with the corrected limit"
assert_eq "00:06:00" "$(job_field "$F" TimeLimit)" "scontrol shows the corrected limit of 6 minutes"
assert_eq 1 "$(job_field "$F" Restarts)" "F was requeued once (Restarts=1)"
sim=$(st_sim_starts 4 rb-har --rbhar-max-ext 1 --rbhar-max-time 120 --rbhar-factor 2) ||
	bail_out "toposim failed"
diag "toposim (start label nodes fill status extensions):"
printf '%s\n' "$sim" | diag_block
# attempt counted from the row's end: the quoted nodelist before it may hold commas
pred=$("$TOPOSIM" --workload "$(st_swf)" --nodes 4 --policy rb-har \
	--rbhar-max-ext 1 --rbhar-max-time 120 --rbhar-factor 2 --jobs-csv - --summary-json /dev/null --quiet |
	awk -F, '$1 == 3 && $(NF - 2) == 2 { print $7 }')
assert_eq 360 "$pred" "toposim too resubmits F with the estimate 360 s"
stats=$(sx "$LIVE_SRCDIR/../../contrib/topo-sched-stats" --raw)
assert_eq "1 1" "$(sed -n 's/^ext_granted=//p; s/^requeued=//p' <<<"$stats" | paste -sd' ')" \
	"statistics: one extension, one requeue"
sx scancel "${ST_IDS[@]}"
wait_jobs_final 60 "${ST_IDS[@]}" || fail "the jobs were cancelled"

done_testing
