#!/bin/bash
# sched-priority.sh (body of t-sched-priority*.sh): under
# priority/multifactor, sched/topo starts a queue of unequal priorities in
# Slurm's priority order, and toposim computes every job's priority as
# slurmctld did.
#
# One 4-node cluster (4 CPUs a node), PriorityType=priority/multifactor
# with a job size weight of 100000 and a partition weight of 50000 (age,
# fairshare and QOS 0, so the numbers do not move while the test runs).
# Five jobs of the whole machine (-N 4, so they run one after another)
# asking 4 to 16 CPUs are submitted while the partition is DOWN; their
# priorities, worked out by hand: job size (4/4 + CPUs/16) / 2 x 100000,
# partition 1 x 50000:
#   A 4 CPUs 112500, B 16 CPUs 150000, C 8 CPUs 125000, D 12 CPUs 137500,
#   E 6 CPUs 118750
# Checked: squeue's priority of each job; toposim's (--sacct of the same
# jobs with the cluster's own slurm.conf, --sprio-out at the first
# recalculation) equal to slurmctld's, job by job; the live start order
# B D C E A, and toposim's the same.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo

extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-priority.XXXXXX")
{
	st_extra_conf "topo_policy=fcfs"
	echo "PriorityType=priority/multifactor"
	echo "PriorityWeightJobSize=100000"
	echo "PriorityWeightPartition=50000"
	echo "PriorityWeightAge=0"
	echo "PriorityWeightFairshare=0"
	echo "PriorityWeightQOS=0"
	echo "PriorityFavorSmall=NO"
	echo "PriorityCalcPeriod=1"
} >"$extra"
# shellcheck disable=SC2046 # topo-cluster options, split on purpose
live_start --nodes 4 --cpus 4 $(flat_args) --sched sched/topo \
	--plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"

assert_eq priority/multifactor "$(sx scontrol show config | sed -n 's/^PriorityType *= *//p')" \
	"slurmctld runs priority/multifactor"

declare -A JID CPUS WANT
labels=(A B C D E)
CPUS=([A]=4 [B]=16 [C]=8 [D]=12 [E]=6)
WANT=([A]=112500 [B]=150000 [C]=125000 [D]=137500 [E]=118750)
sx scontrol update partitionname=debug state=down
for l in "${labels[@]}"; do
	JID[$l]=$(submit 4 3 1 "prio-$l" -n "${CPUS[$l]}") || bail_out "sbatch failed"
done
ids=$(for l in "${labels[@]}"; do echo "${JID[$l]}"; done)
marker=$(wc -l <"$(st_log)")

# Slurm's numbers while they wait (priority_p_set at submission).
declare -A SLURM
while read -r id p; do SLURM[$id]=$p; done < <(sx squeue -h -t PD -o "%i %Q")
for l in "${labels[@]}"; do
	assert_eq "${WANT[$l]}" "${SLURM[${JID[$l]}]:-none}" "job $l (${CPUS[$l]} CPUs): slurmctld's priority is the one worked out by hand"
done

sx scontrol update partitionname=debug state=up
# shellcheck disable=SC2086
wait_jobs_final 120 $ids || fail "every job finished"

# The live start order, from the plugin's start lines.
live=$(tail -n +"$((marker + 1))" "$(st_log)" |
	sed -n 's/.*sched\/topo: cycle [0-9]*: [^:]*: started JobId=\([0-9]*\) .*/\1/p' |
	while read -r id; do for l in "${labels[@]}"; do [ "${JID[$l]}" = "$id" ] && echo "$l"; done; done |
	paste -sd' ')
assert_eq "B D C E A" "$live" "sched/topo started the jobs in Slurm's priority order"

# The same jobs as sacct would give them, replayed with the cluster's
# slurm.conf: toposim's priorities and order.
nodes=$(sx sinfo -h -N -o "%N" | sort -V | paste -sd,)
sacct=$LIVE_DIR/prio.sacct
{
	echo "JobID|JobIDRaw|Submit|Start|End|NNodes|NCPUS|ReqCPUS|Partition|State|NodeList"
	i=0
	for l in "${labels[@]}"; do
		i=$((i + 1))
		echo "${JID[$l]}|${JID[$l]}|1000|$((1000 + 10 * i))|$((1003 + 10 * i))|4|16|${CPUS[$l]}|debug|COMPLETED|$nodes"
	done
} >"$sacct"
if "$TOPOSIM" --sacct "$sacct" --slurm-conf "$LIVE_DIR/slurm.conf" --policy fcfs --quiet \
	--sprio-out "$LIVE_DIR/sprio.csv" --sprio-at 0 \
	--jobs-csv "$LIVE_DIR/prio.csv" --summary-json /dev/null 2>"$LIVE_DIR/toposim.err"; then
	pass "toposim replayed the jobs with the cluster's slurm.conf"
else
	fail "toposim replayed the jobs with the cluster's slurm.conf" "$(cat "$LIVE_DIR/toposim.err")"
fi
for l in "${labels[@]}"; do
	p=$(awk -F, -v id="${JID[$l]}" '$2 == id { print $3 }' "$LIVE_DIR/sprio.csv")
	assert_eq "${SLURM[${JID[$l]}]:-none}" "${p:-none}" "job $l: toposim's priority equals slurmctld's"
done
sim=$(tail -n +2 "$LIVE_DIR/prio.csv" | sort -t, -k3,3n | cut -d, -f1 |
	while read -r id; do for l in "${labels[@]}"; do [ "${JID[$l]}" = "$id" ] && echo "$l"; done; done |
	paste -sd' ')
assert_eq "$live" "$sim" "toposim starts the jobs in the live order"

done_testing
