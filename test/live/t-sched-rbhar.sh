#!/bin/bash
# Live test: RB_HAR in a real Slurm 22.05 cluster (SchedulerType=sched/topo,
# topo_policy=rb-har, select/linear, 4 nodes; LIVE_SLURM=24.11: Slurm 24.11,
# select/cons_tres with whole nodes, t-sched-rbhar-24.11.sh), checked against the
# simulator on the same jobs.
#
#   extended  A (2 nodes, limit 4 min) runs 100 s; H (3 nodes) must wait
#             for it and is reserved at A's limit; F (1 node, limit 1 min)
#             is backfilled around H but runs 75 s.  At F's limit H could
#             still start at its reservation without F's node, nothing
#             else wants F's hole, so RB_HAR extends F by minTime (A's
#             remaining time, ~180 s, capped by topo_rbhar_max_time=120):
#             scontrol shows TimeLimit=00:03:00 and F completes.  Meanwhile
#             slurmctld is killed (-9) and restarted: the fill-job table
#             (StateSaveLocation/sched_topo.fills) must carry F over.
#   refused   the same, F runs 200 s, and X (2 nodes, limit 1 min <=
#             minTime) waits: it could use the hole F would leave, so the
#             extension is refused, Slurm ends F at its limit (TIMEOUT),
#             and X is backfilled into the hole.
# Both: the plugin's starts (order, nodes, fill flags) equal toposim's
# (--policy rb-har --rbhar-max-time 120 --rbhar-requeue no), and F's fate
# is the simulator's (extended / killed).  Takes about 5 minutes.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo
STATS=$LIVE_SRCDIR/../../contrib/topo-sched-stats

PARAMS="topo_policy=rb-har,topo_rbhar_max_ext=1,topo_rbhar_max_time=120,topo_rbhar_requeue=no"
SIMARGS=(--rbhar-max-ext 1 --rbhar-max-time 120 --rbhar-requeue no)
extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-rbhar.XXXXXX")
st_extra_conf "$PARAMS" >"$extra"
# shellcheck disable=SC2046 # topo-cluster options, split on purpose
live_start --nodes 4 $(flat_args) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"
LOG=$(st_log)
assert_match "topo_policy=rb-har,.*topo_rbhar_max_time=120,.*" "$(st_settings)" \
	"the plugin runs rb-har with a 120 s cap on an extension"

# The simulator's line of job LABEL: "START LABEL NODES FILL STATUS EXT".
sim_of() { awk -v l="$2" '$2 == l' <<<"$1"; }

# ------------------------------------------------------------- extended
diag "---- scenario extended"
st_submit extended "
A 2 100 4
H 3 5 1
F 1 75 1"
F=${ST_JID[F]}
wait_job_state "$F" RUNNING 30 || bail_out "fill job F ($F) did not start"
assert_eq "A F*" "$(st_live_starts | st_groups)" "A starts in order and F as a fill job for H"
assert_eq PENDING "$(job_state "${ST_JID[H]}")" "H waits for A"
assert_eq "00:01:00" "$(job_field "$F" TimeLimit)" "F starts with its own 1-minute limit"

# Slurm saves job state within 5 s; the fill table is saved at once.
wait_state_saved
assert_match "${F} ${ST_JID[H]} 0 0 0" "$(grep "^$F " "$LIVE_DIR/state/sched_topo.fills")" \
	"StateSaveLocation/sched_topo.fills records F as a fill job for H"
restart_ctld --kill9 | diag_block
assert_match ".*sched/topo: 1 fill job\(s\) restored from .*" \
	"$(grep "fill job(s) restored" "$LOG" | tail -n1)" "after kill -9 the restarted slurmctld restores the fill job"

wait_job_state "$F" "COMPLETED|TIMEOUT|FAILED|CANCELLED" 150
assert_eq COMPLETED "$(job_state "$F")" "F ran past its first limit and completed"
assert_eq "00:03:00" "$(job_field "$F" TimeLimit)" "scontrol shows F's limit extended by 2 minutes"
assert_match ".*RB_HAR extends JobId=$F \(fill job for JobId=${ST_JID[H]}, extension 1\) by 120 s.*TimeLimit=3" \
	"$(grep "RB_HAR extends JobId=$F " "$LOG")" "the extension is logged with its fill job, reserved job and size"
wait_jobs_final 120 "${ST_IDS[@]}" || fail "extended: every job finished"
assert_eq "COMPLETED COMPLETED COMPLETED" \
	"$(for id in "${ST_IDS[@]}"; do job_state "$id"; done | paste -sd' ')" "extended: A, H and F completed"
live=$(st_live_starts)
sim=$(st_sim_starts 4 rb-har "${SIMARGS[@]}") || bail_out "toposim failed"
st_compare extended "$sim" "$live" "A F* | H"
assert_match "[0-9]+ F n3 1 extended 1" "$(sim_of "$sim" F)" "toposim too extends F once and it completes"

# -------------------------------------------------------------- refused
diag "---- scenario refused"
st_submit refused "
A 2 140 4
H 3 5 1
F 1 200 1
X 2 10 1"
F=${ST_JID[F]}
wait_job_state "$F" RUNNING 30 || bail_out "fill job F ($F) did not start"
assert_eq "A F*" "$(st_live_starts | st_groups)" "A starts in order, F as a fill job; X (2 nodes) does not fit"
wait_job_state "$F" "COMPLETED|TIMEOUT|FAILED|CANCELLED" 150
assert_eq TIMEOUT "$(job_state "$F")" "F is ended by its time limit (TIMEOUT)"
assert_eq "00:01:00" "$(job_field "$F" TimeLimit)" "F's limit was not extended"
assert_match ".*RB_HAR: JobId=$F \(fill job for JobId=${ST_JID[H]}\) at its limit: extension refused.*" \
	"$(grep "RB_HAR: JobId=$F " "$LOG")" "the refusal is logged"
wait_jobs_final 240 "${ST_IDS[@]}" || fail "refused: every job finished"
assert_eq "COMPLETED COMPLETED TIMEOUT COMPLETED" \
	"$(for id in "${ST_IDS[@]}"; do job_state "$id"; done | paste -sd' ')" "refused: A, H, X completed, F timed out"
live=$(st_live_starts)
sim=$(st_sim_starts 4 rb-har "${SIMARGS[@]}") || bail_out "toposim failed"
st_compare refused "$sim" "$live" "A F* | X* | H"
assert_match "[0-9]+ F n3 1 killed 0" "$(sim_of "$sim" F)" "toposim too kills F at its limit"

# ----------------------------------------------------------- statistics
# 24.11's clients run inside the Debian 13 root, where this tree is not:
# there the tool reads the file StateSaveLocation holds, from outside.
if [ "${LIVE_SLURM:-22.05}" = 24.11 ]; then
	stats=$("$STATS" --file "$LIVE_DIR/state/sched_topo.stats" 2>&1)
else
	stats=$(sx "$STATS" 2>&1)
fi
printf '%s\n' "$stats" | diag_block
assert_match ".*RB_HAR extensions +granted 1, denied 1, requeued 0.*" "$(tr '\n' ' ' <<<"$stats")" \
	"topo-sched-stats: one extension granted (after the restart), one denied"
assert_match ".*jobs started +[0-9]+ \(fill jobs [0-9]+; rb-har=[0-9]+\).*" "$(tr '\n' ' ' <<<"$stats")" \
	"topo-sched-stats counts the starts by policy"

done_testing
