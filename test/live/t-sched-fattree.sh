#!/bin/bash
# Live test: sched/topo with select/fattree (LIVE_SLURM=24.11: with
# topology/fattree under select/cons_tres in Debian 13's Slurm 24.11,
# t-sched-fattree-24.11.sh).  The plugin must use the very allocator and
# tree select/fattree uses (read from the same fattree.conf /
# topology.conf), so that every job it decides starts exactly where it
# decided, and the whole schedule is toposim's on the same topology.
#
# 16 nodes, a 2-level fat tree of width 4 (4 leaves of 4 nodes = 4 minimum
# scheduling units), policy easy.  t=0: A (2) on n1-2; B (4) gets a whole
# unit (n5-8, where first-free would give n3-6); C (3) n9-11; D (12) must
# wait and is reserved at A's and B's limit (120 s); E (1, 1 min) and
# F (4, 3 min: D still fits at 120 without F's unit) are backfilled.
# D starts when C ends (25 s) on the three units A does not touch.
# Then --switches (see below).
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
PLUGIN=$(placement_plugin fattree)
live_needs toposim ftconf sched_topo "${PLUGIN/\//_}"

extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-fattree.XXXXXX")
topo=$(mktemp "${TMPDIR:-/tmp}/t-sched-fattree-topo.XXXXXX")
st_extra_conf "topo_policy=easy" >"$extra"
"$FTCONF" generate --levels 2 --width 4 -o "$topo" || bail_out "ftconf generate failed"
# shellcheck disable=SC2046
live_start --nodes 16 $(placement_args fattree) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$topo" --extra-conf "$extra"
rm -f "$extra" "$topo"
LOG=$(st_log)
assert_match ".*sched/topo: allocator fattree on the tree of .*topology.conf \(16 nodes\).*" \
	"$(st_allocator)" "sched/topo uses select/fattree's allocator and tree"

st_submit fattree "
A 2 30 2
B 4 20 2
C 3 25 1
D 12 5 1
E 1 10 1
F 4 12 3"
st_wait_completed 240
live=$(st_live_starts)
sim=$(st_sim_starts 16 easy --topology "$LIVE_DIR/topology.conf" --alloc fattree) ||
	bail_out "toposim failed"
st_compare fattree "$sim" "$live" "A B C E* F* | D"
flat=$(st_sim_starts 16 easy --topology "$LIVE_DIR/topology.conf" --alloc first-free) ||
	bail_out "toposim (first-free) failed"
assert_ne "$(awk '{ print $2, $3 }' <<<"$flat" | sort)" "$(awk '{ print $2, $3 }' <<<"$live" | sort)" \
	"the placements are the tree's, not first-free's"
assert_eq 0 "$(grep -c "was decided on .* but started on" "$LOG")" "no job started elsewhere than decided"
assert_no_node_shared "no node shared by jobs whose runs overlap" "${ST_IDS[@]}"

# --switches=N[@wait]: a placement on at most N leaf switches while the
# wait lasts.  On the idle tree, -N 4 --switches=1 gets one leaf's nodes.
# -N 8 --switches=1@0:15 cannot be met (a leaf has 4 nodes): it is skipped
# with a reason and blocks nobody, so a 2-node job behind it starts at
# once; after its 15 s it runs on two leaves, as Slurm lets it.
diag "---- --switches"
s1=$(submit 4 2 1 sw1 --switches=1) || bail_out "sbatch --switches=1"
wait_job_state "$s1" COMPLETED 60 || fail "-N 4 --switches=1 ran"
assert_match "n\[(1-4|5-8|9-12|13-16)\]" "$(job_nodelist "$s1")" \
	"-N 4 --switches=1 got the nodes of one leaf switch ($(job_nodelist "$s1"))"
s8=$(submit 8 2 1 sw8 --switches=1@0:15) || bail_out "sbatch --switches=1@0:15"
t0=$(date +%s)
behind=$(submit 2 2 1 behind) || bail_out "sbatch behind"
wait_job_state "$behind" COMPLETED 30 || fail "the job behind the waiting --switches job ran"
assert_eq PENDING "$(job_state "$s8")" "the --switches job waits while its switch count cannot be met"
assert_match "sched/topo:[ _]waiting[ _]up[ _]to[ _].*[ _]on[ _]at[ _]most[ _]1[ _]switch.*" \
	"$(sx scontrol -o show job "$s8" | sed -n 's/.*Reason=\(.*\) Dependency=.*/\1/p')" \
	"with a reason that says so"
wait_job_state "$s8" COMPLETED 90 || fail "after its wait the --switches job ran"
waited=$(($(job_time "$s8" StartTime) - t0))
assert_true "not before its 15 s wait was over (started after $waited s)" test "$waited" -ge 14
assert_eq 8 "$(job_field "$s8" NumNodes)" "on 8 nodes of two leaves"

done_testing
