#!/bin/bash
# sched-limits.sh (body of t-sched-limits*.sh): sched/topo keeps Slurm's
# association limits, as Slurm's own schedulers do, and toposim replays
# them the same way from the cluster's own accounting.
#
# One 4-node cluster (4 CPUs a node) with slurmdbd over MariaDB
# (topo-cluster --accounting: AccountingStorageEnforce=associations,
# limits,qos), sched/topo easy.  Account la; user ua with MaxJobs=1, user
# ub without.  With the partition DOWN, ua submits three 1-node jobs and
# ub one; the partition goes UP: all four would fit at once.  Checked:
#   - ub's job and one of ua's start in the first cycle; ua's others wait
#     with Slurm's reason AssocMaxJobsLimit, and ua's runs never overlap
#     (sacct from slurmdbd);
#   - sched/topo never had a start refused by slurmctld (it asked Slurm's
#     accounting policy before deciding and before starting);
#   - toposim, given the live sacct, `sacctmgr dump` and slurm.conf,
#     replays ua's three jobs one after another, its first and ub's at
#     their submission.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo

extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-limits.XXXXXX")
st_extra_conf "topo_policy=easy" >"$extra"
# shellcheck disable=SC2046 # topo-cluster options, split on purpose
live_start --nodes 4 --cpus 4 $(flat_args) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra" --accounting --users ua,ub
rm -f "$extra"
# ua's and ub's batch scripts run from the cluster's spool, under
# mktemp's 0700 folder: let them through.
chmod a+x "$LIVE_DIR"

enforce=$(sx scontrol show config | sed -n 's/^AccountingStorageEnforce *= *//p')
assert_true "slurmctld enforces limits (AccountingStorageEnforce=$enforce)" \
	grep -q limits <<<"$enforce"
sx sacctmgr -i add account la >/dev/null || bail_out "sacctmgr add account failed"
sx sacctmgr -i add user ua account=la MaxJobs=1 >/dev/null || bail_out "sacctmgr add user ua failed"
sx sacctmgr -i add user ub account=la >/dev/null || bail_out "sacctmgr add user ub failed"
# slurmctld learns the associations from slurmdbd: wait for ua's limit.
for _ in $(seq 1 100); do
	sx scontrol show assoc_mgr users=ua flags=assoc 2>/dev/null | grep -q "MaxJobs=1(" && break
	sleep 0.2
done
assert_true "slurmctld knows ua's MaxJobs=1" \
	bash -c 'grep -q "MaxJobs=1(" <<<"$1"' _ "$(sx scontrol show assoc_mgr users=ua flags=assoc 2>&1)"

sub() { # USER: a 1-node job of 4 s
	local out
	out=$(sx sbatch --parsable --uid="$1" --account=la -N 1 -t 1 -J "lim-$1" \
		-o /dev/null -e /dev/null --chdir=/tmp --wrap "sleep 4" 2>&1) || { diag "sbatch failed: $out"; return 1; }
	echo "${out%%;*}"
}
sx scontrol update partitionname=debug state=down
A=()
for _ in 1 2 3; do A+=("$(sub ua)") || bail_out "sbatch as ua failed"; done
B=$(sub ub) || bail_out "sbatch as ub failed"
marker=$(wc -l <"$(st_log)")
sx scontrol update partitionname=debug state=up

# While ua's first job runs, its others wait with Slurm's reason (set
# at a cycle after the partition came up: until then it says
# PartitionDown).
reason=""
for _ in $(seq 1 100); do
	reason=$(sx squeue -h -u ua -t PD -o %r 2>/dev/null | sort -u | paste -sd,)
	[ "$reason" = AssocMaxJobsLimit ] && break
	sleep 0.2
done
assert_eq "AssocMaxJobsLimit" "$reason" "ua's waiting jobs hold Slurm's reason"

# shellcheck disable=SC2086
wait_jobs_final 120 "${A[@]}" "$B" || fail "every job finished"
for id in "${A[@]}" "$B"; do
	assert_eq COMPLETED "$(job_state "$id")" "job $id COMPLETED"
done

# Starts and ends as slurmdbd has them (epoch seconds).
times() { # ID: "START END"
	local s e
	IFS='|' read -r s e < <(sx env TZ=UTC sacct -n -X -P -j "$1" -o Start,End 2>/dev/null)
	echo "$(date -u -d "$s" +%s 2>/dev/null) $(date -u -d "$e" +%s 2>/dev/null)"
}
for _ in $(seq 1 60); do
	sx sacct -n -X -P -j "$(IFS=,; echo "${A[*]},$B")" -o End 2>/dev/null | grep -q Unknown || break
	sleep 0.5
done
prev_end=0
overlap=""
for id in "${A[@]}"; do
	read -r s e <<<"$(times "$id")"
	[ -n "$s" ] && [ "$s" -ge "$prev_end" ] || overlap="$overlap $id(start $s < $prev_end)"
	prev_end=$e
done
assert_eq "" "$overlap" "ua's three runs never overlap (MaxJobs=1)"
read -r sa _ <<<"$(times "${A[0]}")"
read -r sb _ <<<"$(times "$B")"
assert_true "ub's job started with ua's first ($sb against $sa)" test "$sb" -le $((sa + 1))

refused=$(tail -n +"$((marker + 1))" "$(st_log)" | grep -c "but slurmctld did not start it" || true)
assert_eq 0 "$refused" "no start of sched/topo was refused by slurmctld"

# The replay from the cluster's own accounting.
sx env TZ=UTC sacct -a -P -X -S now-1days -E now \
	--format=JobID,JobIDRaw,Submit,Start,End,Elapsed,Timelimit,NNodes,NCPUS,ReqCPUS,ReqMem,AllocTRES,Partition,QOS,Account,User,State,NodeList \
	>"$LIVE_DIR/live.sacct"
sx sacctmgr -i dump topo file="$LIVE_DIR/assoc.cfg" >/dev/null 2>&1
if "$TOPOSIM" --sacct "$LIVE_DIR/live.sacct" --slurm-conf "$LIVE_DIR/slurm.conf" \
	--sacctmgr "$LIVE_DIR/assoc.cfg" --policy easy --rhythm every-event \
	--jobs-csv "$LIVE_DIR/sim.csv" --summary-json /dev/null 2>"$LIVE_DIR/toposim.err"; then
	pass "toposim replayed the cluster's accounting"
else
	fail "toposim replayed the cluster's accounting" "$(cat "$LIVE_DIR/toposim.err")"
fi
assert_true "toposim read ua's limit" grep -q "association limits: 1 association" "$LIVE_DIR/toposim.err"
sim() { awk -F, -v id="$1" -v f="$2" '$1 == id { print $f }' "$LIVE_DIR/sim.csv"; }
prev_end=0
overlap=""
for id in "${A[@]}"; do
	s=$(sim "$id" 3)
	[ -n "$s" ] && [ "$s" -ge "$prev_end" ] || overlap="$overlap $id"
	prev_end=$(sim "$id" 4)
done
assert_eq "" "$overlap" "toposim runs ua's three jobs one after another"
assert_eq "$(sim "$B" 2)" "$(sim "$B" 3)" "toposim starts ub's job at its submission"
assert_eq "$(sim "${A[0]}" 2)" "$(sim "${A[0]}" 3)" "toposim starts ua's first job at its submission"

done_testing
