#!/bin/bash
# Live test: sched/topo with select/torus.  The plugin must plan with the
# torus and allocator select/torus loads (the same torus.conf beside
# slurm.conf, Method=mss), so that every job it decides starts exactly on
# the box it decided, and the schedule is toposim's on the same torus.
#
# 16 nodes, a 4x4 torus (both rings), policy easy.  t=0: A (4 nodes),
# B (4) and C (2) start at once: 10 nodes busy, 6 free.  D (12, a 3x4 box)
# cannot start and is reserved at the limits of A and B (2 min); E (2
# nodes, 1 min limit) ends by then and is backfilled in the same cycle.
# D starts in a later cycle, once the jobs around it have ended.
# Then node ranges (-N 5-6, -N 3-16) get the most nodes a box allows.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo select_torus

tmpd=$(mktemp -d "${TMPDIR:-/tmp}/t-sched-torus.XXXXXX")
st_extra_conf "topo_policy=easy" >"$tmpd/extra.conf"
printf 'Dimensions=4x4\nNodes=n[1-16]\nMethod=mss\n' >"$tmpd/torus.conf"
live_start --nodes 16 --select select/torus --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --conf-file "$tmpd/torus.conf" --extra-conf "$tmpd/extra.conf"
rm -rf "$tmpd"
LOG=$(st_log)
assert_match ".*sched/topo: allocator torus-mss on the torus of .*torus.conf \(16 nodes.*" \
	"$(st_allocator)" "sched/topo uses select/torus's torus and allocator"

st_submit torus "
A 4 30 2
B 4 20 2
C 2 25 1
D 12 5 1
E 2 10 1"
st_wait_completed 240
live=$(st_live_starts)
sim=$(st_sim_starts 16 easy --torus "$LIVE_DIR/torus.conf" --alloc torus-mss) ||
	bail_out "toposim failed"
st_compare torus "$sim" "$live" "A B C E* | D"
assert_eq 0 "$(grep -c "was decided on .* but started on" "$LOG")" "no job started elsewhere than decided"
assert_no_node_shared "no node shared by jobs whose runs overlap" "${ST_IDS[@]}"

# Node ranges: no 5-node box exists on a 4x4 torus, so -N 5-6 gets a box
# of 6 (before, sched/topo tried only the minimum and the job waited for
# ever); -N 3-16 on the idle torus gets all 16, as Slurm gives a range
# as many nodes as it can.
diag "---- node ranges"
r56=$(submit 5-6 2 1 r56) || bail_out "sbatch -N 5-6"
wait_job_state "$r56" COMPLETED 60 || fail "-N 5-6 ran"
assert_eq 6 "$(job_field "$r56" NumNodes)" "-N 5-6 got a box of 6 nodes"
r316=$(submit 3-16 2 1 r316) || bail_out "sbatch -N 3-16"
wait_job_state "$r316" COMPLETED 60 || fail "-N 3-16 ran"
assert_eq 16 "$(job_field "$r316" NumNodes)" "-N 3-16 on an idle torus got all 16 nodes"
assert_eq 0 "$(grep -c "was decided on .* but started on" "$LOG")" "still no job started elsewhere than decided"

# A broken torus.conf at `scontrol reconfigure`: select/torus and
# sched/topo both keep the torus they have and go on scheduling (before,
# sched/topo started nothing until the file was fixed).
diag "---- reconfigure with a broken torus.conf"
cp "$LIVE_DIR/torus.conf" "$LIVE_DIR/torus.conf.good"
printf 'Dimensions=4x4x\nNodes=n[1-16]\n' >"$LIVE_DIR/torus.conf"
before=$(grep -c "sched/topo: keeping the previous topology" "$LOG")
sx scontrol reconfigure || fail "scontrol reconfigure"
for _ in $(seq 1 50); do
	[ "$(grep -c "sched/topo: keeping the previous topology" "$LOG")" -gt "$before" ] && break
	sleep 0.2
done
assert_eq 1 "$(($(grep -c "sched/topo: keeping the previous topology" "$LOG") > before))" \
	"sched/topo logged that it keeps the previous torus"
k=$(submit 4 2 1 afterbad) || bail_out "sbatch after the broken reconfigure"
wait_job_state "$k" COMPLETED 60 || fail "a job still runs after the broken reconfigure"
assert_eq 4 "$(job_field "$k" NumNodes)" "on a box of 4 of the previous torus"
mv "$LIVE_DIR/torus.conf.good" "$LIVE_DIR/torus.conf"
sx scontrol reconfigure || fail "scontrol reconfigure with the file fixed"

done_testing
