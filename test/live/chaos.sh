#!/bin/bash
# Live test on every release (t-chaos.sh on 22.05 with select/fattree,
# t-chaos-RELEASE.sh on 24.11 and 26.05 with topology/fattree under
# select/cons_tres): sched/topo (rb-har) under load and crashes on the
# 64-node, 3-level, width-4 fat tree.
#
#  - a burst of CHAOS_JOBS (default 2000) small jobs in partition "burst"
#    (n[1-48], three pods of the tree): 1 to 4 nodes, `true` or `sleep 1`,
#    submitted in three chunks, plus four "anchor" jobs that run until
#    the test releases them;
#  - slurmctld killed with -9 (by PID, restart-ctld --kill9) twice during
#    the burst, with hundreds of burst jobs pending and anchors (and the
#    RB_HAR jobs) running, and started again on its saved state;
#  - in partition "rb" (n[49-64], the fourth pod): A (8 nodes, two leaf
#    switches) runs, H (12 nodes: three whole leaves) waits for it, F (1
#    node, 1-minute limit, runs 160 s) is a fill job for H on the fourth
#    leaf, which H does not need, so RB_HAR extends F at its limit (by
#    A's remaining time, capped at 120 s); the second kill comes while F
#    runs, and while F's RB_HAR extension is pending (its limit less than
#    12 s away, not yet extended) F's slurmd is killed with -9 (by PID,
#    restart-slurmd) and started again: F must be extended and complete;
#  - then, from jobcomp.txt alone (not sacct, not scontrol): every job
#    sbatch acknowledged has a record (none lost), exactly one (none ran
#    twice; a requeue would show as an earlier record, counted apart), all
#    COMPLETED with exit 0, and no node held by two jobs whose run
#    intervals (StartTime, EndTime, NodeList) overlap.  The counts are
#    printed.
#
# What stock Slurm itself forgets at kill -9: slurmctld writes
# StateSaveLocation/job_state at most every 5 s, so a job acknowledged,
# started or ended after the last write is lost, started again or run
# again after a crash, whatever the scheduler (see wait_state_saved in
# lib.sh).  This test does not count those against the plugin: before each
# kill it stops new starts in the burst partition (State=DOWN), lets the
# burst jobs then running end (the anchors and the RB_HAR jobs run on),
# asks for a save and waits until job_state is written after it, then
# kills.  Every job sbatch acknowledged is then in the saved state, while
# hundreds are still pending and some running: a kill during the burst
# that a correct scheduler must survive without loss.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
PLUGIN=$(placement_plugin fattree)
live_needs ftconf sched_topo "${PLUGIN/\//_}"
T0=$(date +%s)

NJOBS=${CHAOS_JOBS:-2000}
PARAMS="sched_interval=-1,topo_period=1,topo_stats_every=0,topo_policy=rb-har"
PARAMS="$PARAMS,topo_rbhar_max_ext=1,topo_rbhar_max_time=120,topo_rbhar_requeue=no"
excl=""
topology_series && excl=" OverSubscribe=EXCLUSIVE"
work=$(mktemp -d "${TMPDIR:-/tmp}/t-chaos.XXXXXX")
"$FTCONF" generate --levels 3 --width 4 -o "$work/topology.conf" || bail_out "ftconf generate failed"
{
	echo "SchedulerParameters=$PARAMS"
	echo "PartitionName=burst Nodes=n[1-48] MaxTime=INFINITE State=UP$excl"
	echo "PartitionName=rb Nodes=n[49-64] MaxTime=INFINITE State=UP$excl"
} >"$work/extra.conf"
# shellcheck disable=SC2046 # placement_args: several words
live_start --nodes 64 $(placement_args fattree) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$work/topology.conf" \
	--extra-conf "$work/extra.conf"
rm -rf "$work"
LOG=$LIVE_DIR/log/slurmctld.log
IDS=$LIVE_DIR/acked.ids   # every job id sbatch acknowledged, one a line
: >"$IDS"

# ------------------------------------------------------------ helpers

# The burst's submitter, run inside the cluster (one client process per
# job, no launcher per job): jobs FIRST..LAST, job i on (i/2)%4+1 nodes
# running `true` (i even) or `sleep 1`.  Prints each acknowledged id;
# a refused sbatch goes to stderr and is not a submitted job.
cat >"$LIVE_DIR/submit.sh" <<'EOF'
i=$1
while [ "$i" -le "$2" ]; do
	n=$(((i / 2) % 4 + 1))
	w=true
	[ $((i % 2)) = 1 ] && w="sleep 1"
	out=$(sbatch --parsable -p burst -N "$n" -t 1 -J "b$i" -o /dev/null --wrap "$w" 2>&1)
	case $out in
	[0-9]*) echo "${out%%;*}" ;;
	*) echo "sbatch of job $i: $out" >&2 ;;
	esac
	i=$((i + 1))
done
EOF
submit_chunk() { # FIRST LAST
	local t=$SECONDS before
	before=$(wc -l <"$IDS")
	sx bash "$LIVE_DIR/submit.sh" "$1" "$2" >>"$IDS" 2>"$LIVE_DIR/submit.err"
	[ -s "$LIVE_DIR/submit.err" ] && diag_block <"$LIVE_DIR/submit.err"
	diag "burst jobs $1..$2: $(($(wc -l <"$IDS") - before)) acknowledged in $((SECONDS - t)) s"
}

# anchor VAR PARTITION NODES K: a job that runs until release K; its id
# into VAR and into the acknowledged list.
anchor() {
	held "$1" "anchor$4" --tag "$4" -p "$2" -N "$3"
	echo "${!1}" >>"$IDS"
}

# A job of the rb scenario: ack'd id into VAR.
rb_job() { # VAR NODES SECONDS LIMIT_MIN LABEL
	local id
	id=$(submit "$2" "$3" "$4" "rb-$5" -p rb -o /dev/null) || bail_out "sbatch of rb job $5 failed"
	printf -v "$1" '%s' "$id"
	echo "$id" >>"$IDS"
}

# Queue snapshot: "ID STATE NODELIST" of every job not yet finished.
queue() { sx squeue -h -t PD,R,CG,CF,S -o '%i %T %N' | sort -n; }

# wait_burst_quiet ANCHOR...: no burst job runs or completes but the anchors.
wait_burst_quiet() {
	local end=$((SECONDS + 90)) busy
	while :; do
		busy=$(sx squeue -h -p burst -t R,CG,CF -o %i | grep -vxF -f <(printf '%s\n' "$@"))
		[ -z "$busy" ] && return 0
		[ "$SECONDS" -lt "$end" ] || break
		sleep 0.3
	done
	diag "burst jobs still running after 90 s: $(paste -sd" " <<<"$busy")"
	return 1
}

# wait_saved_after_poke ID: every job change so far is older than this
# second; once the clock has passed it, ask for a state save by a change
# of job ID (its Comment, as any job change does) and wait for a write of
# job_state stamped a second or more later: it began after the request,
# so it holds every change before.
wait_saved_after_poke() {
	local t end
	t=$(date +%s)
	while [ "$(date +%s)" -le "$t" ]; do sleep 0.1; done
	sx scontrol update JobId="$1" Comment="chaos-$t" || return 1
	end=$((SECONDS + 60))
	until state_saved_after "$LIVE_DIR/state/job_state" "$t"; do
		[ "$SECONDS" -lt "$end" ] || { diag "job_state not written within 60 s"; return 1; }
		sleep 0.2
	done
}

# lost_or_moved BEFORE AFTER: queue snapshots ("ID STATE NODELIST") from
# before a kill and after the restart; prints each job of BEFORE that is
# neither queued AFTER nor in jobcomp (lost), and each job running BEFORE
# that runs or ran elsewhere.  Jobs may start and end in between: without
# -R a restarted slurmctld takes partition states from slurm.conf, so the
# burst partition is UP again at once.
lost_or_moved() {
	awk -F' ' 'FILENAME == ARGV[1] { ran[$1] = $6; next }
		FILENAME == ARGV[2] { st[$1] = $2; nl[$1] = $3; next }
		NF > 0 {
			if ($1 in st) {
				if ($2 == "RUNNING" && st[$1] == "RUNNING" && nl[$1] != $3)
					print $1 " moved from " $3 " to " nl[$1]
			} else if ($1 in ran) {
				if ($2 == "RUNNING" && ran[$1] != $3)
					print $1 " ran on " ran[$1] ", not " $3
			} else
				print $1 " (" $2 ") lost"
		}' <(jobcomp_table) <(printf '%s\n' "$2") <(printf '%s\n' "$1")
}

# crash K: stop starts in the burst partition, let the burst jobs running
# end (the anchors run on), wait for a state save holding everything, kill
# -9 slurmctld and start it again; the queue must come back as it was.
crash() {
	local k=$1 pend before after old new t=$SECONDS
	sx scontrol update PartitionName=burst State=DOWN
	wait_burst_quiet "${ANCHORS[@]}" || fail "crash $k: the burst jobs running ended"
	wait_saved_after_poke "${ANCHORS[-1]}" || fail "crash $k: a state save after every job change"
	before=$(queue)
	pend=$(grep -c ' PENDING ' <<<"$before")
	diag "crash $k: $pend jobs pending, running: $(awk '$2 == "RUNNING" { printf "%s ", $1 }' <<<"$before")"
	assert_true "crash $k: burst jobs pending at the kill ($pend)" test "$pend" -ge 100
	old=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
	restart_ctld --kill9 | diag_block
	new=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
	assert_ne "$old" "$new" "crash $k: slurmctld killed (-9) and restarted ($old -> $new)"
	after=$(queue)
	assert_eq "" "$(lost_or_moved "$before" "$after")" \
		"crash $k: the restarted slurmctld has every pending and running job, running ones on the same nodes"
	sx scontrol update PartitionName=burst State=UP
	diag "crash $k took $((SECONDS - t)) s"
}

# jobcomp_table: "ID STATE START END EXIT NODELIST" per jobcomp record,
# times as sortable digits (YYYYMMDDhhmmss).
jobcomp_table() {
	sed -n 's/^JobId=\([0-9]*\) .* JobState=\([A-Z_]*\) .* StartTime=\([^ ]*\) EndTime=\([^ ]*\) NodeList=\([^ ]*\) .* ExitCode=\([^ ]*\) .*/\1 \2 \3 \4 \6 \5/p' \
		"$LIVE_DIR/jobcomp.txt" | awk '{ gsub(/[^0-9]/, "", $3); gsub(/[^0-9]/, "", $4); print }'
}

# stdin "ID STATE START END EXIT NODELIST" -> "NODE START END ID" per node
# (hostlists of one prefix: n5, n[1-3,7]).
per_node() {
	awk '{
		l = $6
		if (l !~ /\[/) { print l, $3, $4, $1; next }
		p = substr(l, 1, index(l, "[") - 1)
		r = substr(l, index(l, "[") + 1); sub(/\].*/, "", r)
		k = split(r, part, ",")
		for (i = 1; i <= k; i++) {
			if (split(part[i], b, "-") == 2) { for (n = b[1]; n <= b[2]; n++) print p n, $3, $4, $1 }
			else print p part[i], $3, $4, $1
		}
	}'
}

# stdin "NODE START END ID" -> one line per overlap: two jobs on one node
# whose intervals [START, END) meet (whole seconds: a job that ends and one
# that starts in the same second do not).
overlaps() {
	sort -k1,1 -k2,2n -k3,3n | awk '
		$1 != node { node = $1; maxe = $3; who = $4; next }
		$2 < maxe { print node ": jobs " who " and " $4 }
		$3 > maxe { maxe = $3; who = $4 }'
}

# not_completed TABLE: why the count fell short: the jobcomp records of
# each acknowledged job whose last record is not "COMPLETED 0:0" (at most
# ten) and what slurmctld.log says of it.
not_completed() {
	local id
	awk '{ last[$1] = $0; st[$1] = $2 " " $5 } END { for (i in st) if (st[i] != "COMPLETED 0:0") print last[i] }' <<<"$1" |
		sort -n | grep -wF -f "$LIVE_DIR/acked.sorted" | head -n 10 >"$LIVE_DIR/not-completed"
	diag "acknowledged jobs not COMPLETED 0:0 (ID STATE START END EXIT NODELIST):"
	diag_block <"$LIVE_DIR/not-completed"
	for id in $(awk '{ print $1 }' "$LIVE_DIR/not-completed"); do
		grep -E "JobId=$id([^0-9]|$)" "$LOG" | tail -n 8 | diag_block
	done
}

# ----------------------------------------------------- chunk 1, crash 1
a1="" a2="" a3="" a4="" A="" H="" F=""
c1=$((NJOBS * 35 / 100)) c2=$((NJOBS * 70 / 100))
# All four anchors start first (later ones would queue behind the burst):
# a1, a2 run until crash 1 is over, a3, a4 until crash 2 is.
anchor a1 burst 4 1
anchor a2 burst 1 1
anchor a3 burst 3 2
anchor a4 burst 2 2
ANCHORS=("$a1" "$a2" "$a3" "$a4")
for id in "${ANCHORS[@]}"; do
	wait_job_state "$id" RUNNING 30 || bail_out "anchor $id did not start"
done
# burst holds its starts while chunk 1 goes in: hundreds are pending at
# crash 1 however fast the machine runs them.
sx scontrol update PartitionName=burst State=DOWN
submit_chunk 1 "$c1"
crash 1
release 1
ANCHORS=("$a3" "$a4")

# ------------------------ chunk 2, the RB_HAR jobs, slurmd kill, crash 2
# Chunk 2 goes in first: on a loaded machine its submission takes tens of
# seconds, which must not eat F's minute before its extension is pending.
# burst holds its starts (DOWN) from before chunk 2 until crash 2 is over,
# so that hundreds of its jobs are still pending at the kill however fast
# or slow the machine runs them (submitted with burst UP, a loaded machine
# ran all but one of 700 while they went in); sched/topo still passes over
# all of them.
sx scontrol update PartitionName=burst State=DOWN
submit_chunk "$((c1 + 1))" "$c2"
sx scontrol update PartitionName=rb State=DOWN
rb_job A 8 150 4 A
rb_job H 12 5 1 H
rb_job F 1 160 1 F
sx scontrol update PartitionName=rb State=UP
wait_job_state "$F" RUNNING 30 || bail_out "fill job F ($F) did not start"
assert_eq "RUNNING PENDING" "$(job_state "$A") $(job_state "$H")" "rb: A runs, H waits for it"
assert_match "$F $H 0 0 0" "$(grep "^$F " "$LIVE_DIR/state/sched_topo.fills")" \
	"rb: the fill-job table records F ($F) as a fill job for H ($H)"
F_NODE=$(job_nodelist "$F")
# F's extension is pending from the moment its limit is near: the plugin
# decides it when EndTime is at most topo_period + 1 s away.
end_f=$(job_time "$F" EndTime)
while [ "$(date +%s)" -lt $((end_f - 10)) ]; do sleep 0.5; done
assert_eq "RUNNING 00:01:00 0" \
	"$(job_state "$F") $(job_field "$F" TimeLimit) $(grep -c "RB_HAR extends JobId=$F " "$LOG")" \
	"rb: F's extension is pending (running, 1-minute limit, not extended yet)"
sd_old=$(awk -v n="slurmd:$F_NODE" '$1 == n { print $2 }' "$LIVE_DIR/pids")
"$TOPO_CLUSTER" restart-slurmd --dir "$LIVE_DIR" --node "$F_NODE" --kill9 2>&1 | diag_block
sd_new=$(awk -v n="slurmd:$F_NODE" '$1 == n { print $2 }' "$LIVE_DIR/pids")
assert_ne "$sd_old" "$sd_new" "rb: the slurmd of F's node $F_NODE killed (-9) and restarted ($sd_old -> $sd_new)"
assert_eq "RUNNING $F_NODE" "$(job_state "$F") $(job_nodelist "$F")" "rb: F runs on after its slurmd's restart"
# Crash 2 while F (a fill job, extended by now or about to be) and A run.
restored=$(grep -c "fill job(s) restored" "$LOG")
crash 2
release 2
assert_eq 1 "$(($(grep -c "fill job(s) restored" "$LOG") > restored))" \
	"crash 2: the restarted slurmctld restores the fill-job table"

# ------------------------------------------------------------- chunk 3
submit_chunk "$((c2 + 1))" "$NJOBS"
wait_job_state "$F" "COMPLETED|TIMEOUT|FAILED|CANCELLED|NODE_FAIL" 180
assert_eq "COMPLETED 00:03:00" "$(job_state "$F") $(job_field "$F" TimeLimit)" \
	"rb: F was extended (limit 3 minutes) and completed"
assert_match ".*RB_HAR extends JobId=$F \\(fill job for JobId=$H, extension 1\\) by 120 s.*" \
	"$(grep "RB_HAR extends JobId=$F " "$LOG")" "rb: the extension is logged"
# Granted before the kill but after Slurm's last job-state save, the
# extension comes back with slurmctld's job state at its old limit: the
# plugin grants it again (which of the two happened depends on timing).
diag "rb: extension granted again after crash 2: $(grep -c "JobId=$F .*lost with slurmctld's job state, granted again" "$LOG")"
assert_eq "" "$(sx sinfo -h -N -n "$F_NODE" -o '%t' | grep -E 'down|drain|fail' | head -n1)" \
	"rb: F's node $F_NODE is not down or drained"

# ------------------------------------------------------- the reckoning
end=$((SECONDS + 300))
while [ -n "$(queue)" ] && [ "$SECONDS" -lt "$end" ]; do sleep 1; done
left=$(queue)
assert_eq "" "$left" "every job has left the queue"
ctld=$(awk '$1 == "slurmctld" { print $2 }' "$LIVE_DIR/pids")
assert_true "slurmctld (pid $ctld) is still running" kill -0 "$ctld"

table=$(jobcomp_table)
sort -n -u "$IDS" >"$LIVE_DIR/acked.sorted"
submitted=$(wc -l <"$LIVE_DIR/acked.sorted")
dups=$(($(wc -l <"$IDS") - submitted))
awk '{ print $1 }' <<<"$table" | sort -n >"$LIVE_DIR/records.ids"
lost=$(comm -23 <(sort "$LIVE_DIR/acked.sorted") <(sort -u "$LIVE_DIR/records.ids") | wc -l)
unacked=$(comm -13 <(sort "$LIVE_DIR/acked.sorted") <(sort -u "$LIVE_DIR/records.ids") | wc -l)
# A requeued job leaves a record per run: earlier ones REQUEUED (or
# NODE_FAIL, PREEMPTED), the last its end.  Two records otherwise: ran twice.
read -r requeued double <<<"$(awk '
	{ n[$1]++; if (n[$1] > 1 && (prev[$1] ~ /^(REQUEUED|REQUEUE_HOLD|REQUEUE_FED|NODE_FAIL|PREEMPTED)$/)) rq[$1] = 1;
	  else if (n[$1] > 1) dbl[$1] = 1; prev[$1] = $2 }
	END { r = 0; d = 0; for (i in rq) if (!(i in dbl)) r++; for (i in dbl) d++; print r, d }' <<<"$table")"
completed=$(awk '{ last[$1] = $2 " " $5 } END { for (i in last) if (last[i] == "COMPLETED 0:0") print i }' <<<"$table" |
	sort | comm -12 - <(sort "$LIVE_DIR/acked.sorted") | wc -l)
ov=$(per_node <<<"$table" | overlaps)
noverlap=$(grep -c . <<<"$ov")
diag "counts: submitted=$submitted completed=$completed requeued=$requeued lost=$lost double-run=$double overlaps=$noverlap" \
	"        (jobcomp records $(wc -l <<<"$table"), not acknowledged but recorded $unacked," \
	"         slurmctld.log lines on a requeue $(grep -i 'requeu' "$LOG" | grep -vc 'topo_rbhar_requeue='), $NJOBS burst jobs asked for)"
assert_true "at least 2000 jobs acknowledged by sbatch ($submitted)" test "$submitted" -ge 2000
assert_eq 0 "$dups" "no job id acknowledged twice"
assert_eq 0 "$lost" "no acknowledged job lost (each has a jobcomp record)"
assert_eq 0 "$double" "no job ran twice (one jobcomp record per job)"
assert_eq 0 "$requeued" "no job was requeued"
assert_eq "$submitted" "$completed" "every acknowledged job COMPLETED with exit 0" ||
	not_completed "$table"
assert_eq "" "$ov" "no node under two jobs whose run intervals overlap (jobcomp StartTime, EndTime, NodeList)"
diag "t-chaos: $(($(date +%s) - T0)) s from cluster start to the reckoning"

done_testing
