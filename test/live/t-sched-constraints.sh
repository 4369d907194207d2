#!/bin/bash
# Live test: sched/topo runs jobs with node constraints in a real Slurm
# 22.05 cluster (4 nodes, select/linear, topo_policy=easy) and puts each
# where its constraints say, as Slurm's own schedulers would:
#   -w/--nodelist    the job gets the named node;
#   -x/--exclude     never an excluded node;
#   --constraint     only nodes with the feature (set by scontrol);
#   --contiguous     consecutive nodes;
#   --reservation    only the reservation's nodes, and jobs outside the
#                    reservation never get them;
#   Flags=MAGNETIC   a reservation that attracts jobs naming none: a job
#                    that fits in it runs there (Reservation= set), one
#                    that does not runs outside it;
# every pending job has a Reason other than None meanwhile, and a job
# whose constraints no node can meet now (its -w node drained) is left
# pending with a reason (Slurm's ReqNodeNotAvail) instead of blocking the
# queue behind it, and runs once the node is back.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs sched_topo

extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-constraints.XXXXXX")
st_extra_conf "topo_policy=easy" >"$extra"
live_start --nodes 4 --select select/linear --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"

sx scontrol update NodeName=n2 AvailableFeatures=big ActiveFeatures=big ||
	bail_out "scontrol could not set a node feature"

# ---------------------------------------------------- -w, -x, features
diag "---- -w, -x, --constraint, --contiguous"
w=$(submit 1 3 2 w -w n3) || bail_out "sbatch -w"
x=$(submit 2 3 2 x -x 'n[1-2]') || bail_out "sbatch -x"
f=$(submit 1 3 2 feat --constraint=big) || bail_out "sbatch --constraint"
c=$(submit 3 3 2 contig --contiguous) || bail_out "sbatch --contiguous"
wait_jobs_final 120 "$w" "$x" "$f" "$c" || fail "every constrained job finished"
for id in "$w" "$x" "$f" "$c"; do
	assert_eq COMPLETED "$(job_state "$id")" "job $id ($(job_field "$id" JobName)) COMPLETED under sched/topo"
done
assert_eq n3 "$(job_nodelist "$w")" "-w n3 ran on n3"
assert_eq "n[3-4]" "$(job_nodelist "$x")" "-x n[1-2] -N 2 ran on n3 and n4"
assert_eq n2 "$(job_nodelist "$f")" "--constraint=big ran on the only node with the feature"
nl=$(job_nodelist "$c")
assert_match "n\[(1-3|2-4)\]" "$nl" "--contiguous -N 3 ran on three consecutive nodes ($nl)"

# ------------------------------------------------------------ reservation
diag "---- --reservation"
sx scontrol create reservation ReservationName=r1 Nodes=n4 StartTime=now \
	Duration=10 Users=root Flags=IGNORE_JOBS | diag_block
r=$(submit 1 3 2 inresv --reservation=r1) || bail_out "sbatch --reservation"
o=$(submit 3 3 2 outside) || bail_out "sbatch outside the reservation"
wait_jobs_final 120 "$r" "$o" || fail "the reservation's job and the other finished"
assert_eq n4 "$(job_nodelist "$r")" "--reservation=r1 ran on the reservation's node"
assert_eq "n[1-3]" "$(job_nodelist "$o")" "a job outside the reservation never got its node"
sx scontrol delete ReservationName=r1 || fail "reservation r1 deleted"

diag "---- a MAGNETIC reservation"
sx scontrol create reservation ReservationName=mag Nodes=n3 StartTime=now \
	Duration=10 Users=root Flags=MAGNETIC,IGNORE_JOBS | diag_block
m=$(submit 1 3 2 drawn) || bail_out "sbatch (drawn into the MAGNETIC reservation)"
b=$(submit 2 3 2 toobig) || bail_out "sbatch (too big for the MAGNETIC reservation)"
wait_jobs_final 120 "$m" "$b" || fail "both jobs finished"
assert_eq n3 "$(job_nodelist "$m")" "a one-node job ran on the MAGNETIC reservation's node"
assert_eq mag "$(job_field "$m" Reservation)" "in the reservation (Reservation=mag)"
assert_match "^n\[(1-2|1,4|2,4)\]$" "$(job_nodelist "$b")" "a two-node job ran outside it"
assert_match "^(\(null\))?$" "$(job_field "$b" Reservation)" "with no reservation"
sx scontrol delete ReservationName=mag || fail "reservation mag deleted"

# ------------------------------------------------------------- never
diag "---- a job whose required node is drained"
sx scontrol update NodeName=n1 State=DRAIN Reason=t-sched-constraints ||
	bail_out "scontrol could not drain n1"
n=$(submit 1 2 2 never -w n1) || bail_out "sbatch -w n1"
after=$(submit 2 2 2 after) || bail_out "sbatch after"
wait_job_state "$after" COMPLETED 60 || fail "a job behind the stuck one ran"
assert_eq PENDING "$(job_state "$n")" "the job that needs the drained node stays pending"
reason=$(job_field "$n" Reason)
assert_match "ReqNodeNotAvail.*|sched/topo:.*" "$reason" "with a reason that names the node ($reason)"
assert_eq "n[2-3]" "$(job_nodelist "$after")" "the job behind it did not get the drained node"
sx scontrol update NodeName=n1 State=RESUME || fail "n1 resumed"
wait_job_state "$n" COMPLETED 60 || fail "once n1 is back, the job runs"
assert_eq n1 "$(job_nodelist "$n")" "on n1"

# ------------------------------------------------------------- reasons
diag "---- reasons while waiting"
# big runs 30 s: the two behind it wait however loaded the machine is,
# and the verdict is the reason appearing (a cycle or two of the plugin,
# topo_period=1), not a fixed sleep.
big=$(submit 4 30 2 big) || bail_out "sbatch big"
wait_job_state "$big" RUNNING 30 || fail "the 4-node job started"
q1=$(submit 1 2 2 q1 -w n1) || bail_out "sbatch q1"
q2=$(submit 2 2 2 q2 -x n4) || bail_out "sbatch q2"
for id in "$q1" "$q2"; do
	reason=None
	for _ in $(seq 1 40); do
		reason=$(job_field "$id" Reason)
		[ "$reason" != None ] && break
		sleep 0.5
	done
	assert_ne None "$reason" "pending job $id has a Reason ($reason)"
	assert_eq PENDING "$(job_state "$id")" "job $id still waits for the 4-node job"
done
wait_jobs_final 120 "$big" "$q1" "$q2" || fail "the queue drained"
for id in "$q1" "$q2"; do
	assert_eq COMPLETED "$(job_state "$id")" "job $id COMPLETED after waiting"
done

# ------------------------------------------- srun at submission, counts
# The idle cluster starts an srun --immediate job at once, as stock Slurm
# does (slurmctld's submission attempt, the queue head that fits); the
# plugin logs and counts it.  A held job is counted pending, not queued.
diag "---- srun --immediate, statistics"
stat_of() { sed -n "s/^$1=//p" "$LIVE_DIR/state/sched_topo.stats"; }
before=$(stat_of started_at_submit)
out=$(sx srun --immediate -N 2 hostname 2>&1) && rc=0 || rc=$?
assert_eq 0 "$rc" "srun --immediate -N 2 on the idle cluster runs at once ($out)"
assert_eq "" "$(printf '%s\n' "$out" | grep 'queued and waiting')" \
	"... without 'queued and waiting' on stderr"
held=$(submit 1 2 2 held -H) || bail_out "sbatch -H"
for _ in $(seq 50); do
	[ "$(stat_of started_at_submit)" -gt "$before" ] &&
		[ "$(stat_of last_pending)" -ge 1 ] && break
	sleep 0.2
done
assert_eq $((before + 1)) "$(stat_of started_at_submit)" "the srun job is counted as started at submission"
assert_match ".*sched/topo: JobId=[0-9]+ was started by slurmctld at submission on n.*" \
	"$(grep 'started by slurmctld at submission' "$LIVE_DIR/log/slurmctld.log" | tail -n 1)" \
	"... and logged"
assert_eq 1 "$(stat_of last_pending)" "the held job counts as pending"
assert_eq 0 "$(stat_of last_queued)" "... but is in no policy's queue"
sx scancel "$held"

done_testing
