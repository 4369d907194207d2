#!/bin/bash
# sched-least-loaded.sh (body of t-sched-least-loaded*.sh): sched/topo's
# topo_policy=least-loaded (the heterogeneous-cluster patent's
# placement) on nodes of unequal CPUs and memory that jobs share
# (select/cons_tres, CR_Core_Memory), and toposim's replay of the same
# jobs deciding the same nodes.
#
# Three nodes: n1 8 CPUs and 8000 MB, n2 4 and 4000, n3 2 and 2000.
# With the partition DOWN, seven jobs of 2 CPUs and 500 MB and one of 8
# CPUs are submitted, then the partition goes UP.  Worked by hand, the
# lowest CPU utilisation first (equal ones: the first node): 1 n1 (2/8),
# 2 n2 (2/4), 3 n3 (2/2), 4 n1 (4/8), 5 n1 (6/8: 4/8 ties 2/4), 6 n2,
# 7 n1: every CPU is taken, and job 8 (8 CPUs, only n1 has them) waits
# in its delay queue, with sched/topo's reason, until n1 is idle again.
# Then an array of four 1-CPU tasks on the idle cluster: n1, n2, n3, n1.
# A job asking more memory than any node has is refused at submission.
# toposim, given the jobs' records and the cluster's slurm.conf, places
# every job on the node the plugin did.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim sched_topo

extra=$(mktemp "${TMPDIR:-/tmp}/t-sched-least-loaded.XXXXXX")
{
	st_extra_conf "topo_policy=least-loaded"
	echo "SelectTypeParameters=CR_Core_Memory"
} >"$extra"
live_start --nodes 3 --node-sizes 8:8000,4:4000,2:2000 --select select/cons_tres \
	--sched sched/topo --plugindir "$TOPO_PLUGINDIR" --extra-conf "$extra"
rm -f "$extra"

assert_eq "8 4 2" "$(for n in n1 n2 n3; do sx scontrol -o show node "$n" |
	sed -n 's/.* CPUTot=\([0-9]*\) .*/\1/p'; done | paste -sd' ')" \
	"the nodes have 8, 4 and 2 CPUs"

sub() { # NAME CPUS MB SECONDS [SBATCH-ARG...]: a 1-node job
	local name=$1 cpus=$2 mem=$3 s=$4 out
	shift 4
	out=$(sx sbatch --parsable -N 1 -n "$cpus" --mem="$mem" -t 1 -J "$name" \
		-o "$LIVE_DIR/out/%j.out" "$@" --wrap "sleep $s" 2>&1) ||
		{ diag "sbatch failed: $out"; return 1; }
	echo "${out%%;*}"
}
sx scontrol update partitionname=debug state=down
J=()
for k in 1 2 3 4 5 6 7; do J+=("$(sub "ll-$k" 2 500 6)") || bail_out "sbatch failed"; done
J+=("$(sub ll-8 8 500 2)") || bail_out "sbatch failed"
sx scontrol update partitionname=debug state=up

want=(n1 n2 n3 n1 n1 n2 n1)
for k in 0 1 2 3 4 5 6; do
	wait_job_state "${J[k]}" RUNNING 30 || true
	assert_eq "${want[k]}" "$(job_nodelist "${J[k]}")" "job $((k + 1)) (2 CPUs) on the least-loaded node"
done
reason=$(sx squeue -h -j "${J[7]}" -o %r)
assert_match "sched/topo: least-loaded delay queue.*" "$reason" "job 8 (8 CPUs) waits with sched/topo's delay-queue reason"
wait_jobs_final 120 "${J[@]}" || fail "every job finished"
assert_eq n1 "$(job_nodelist "${J[7]}")" "job 8 ran on n1, the only node of 8 CPUs"
s8=$(job_time "${J[7]}" StartTime)
last=0
for k in 0 3 4 6; do
	e=$(job_time "${J[k]}" EndTime)
	[ "$e" -gt "$last" ] && last=$e
done
assert_true "job 8 started once n1's jobs had ended ($s8 >= $last)" test "$s8" -ge "$last"
for id in "${J[@]}"; do
	assert_eq COMPLETED "$(job_state "$id")" "job $id COMPLETED"
done

# An array on the idle cluster: its tasks go where the load is lowest.
arr=$(sub ll-array 1 100 3 --array=1-4) || bail_out "sbatch --array failed"
for _ in $(seq 1 100); do
	[ "$(sx squeue -h -r -j "$arr" -t R -o %i | wc -l)" = 4 ] && break
	sleep 0.2
done
nodes=$(sx squeue -h -r -j "$arr" -t R -o %N | sort | paste -sd' ')
assert_eq "n1 n1 n2 n3" "$nodes" "the array's four tasks on n1, n2, n3 and n1"
tasks=$(sx squeue -h -r -j "$arr" -o %i | paste -sd' ')
# shellcheck disable=SC2086
wait_jobs_final 60 $(sx squeue -h -r -j "$arr" -o %A) || true

# Bad input: memory no node has.
if out=$(sx sbatch --parsable -N 1 -n 1 --mem=9000 -t 1 -o /dev/null --wrap true 2>&1); then
	fail "a job asking 9000 MB (no node has it) was accepted: $out"
else
	pass "a job asking 9000 MB, more than any node, refused at submission: $out"
fi

# The replay: the same eight jobs, with their records, under the
# cluster's slurm.conf (sched/topo's pass every topo_period).
sacct=$LIVE_DIR/ll.sacct
{
	echo "JobID|JobIDRaw|Submit|Start|End|Timelimit|NNodes|NCPUS|ReqCPUS|ReqMem|Partition|State|NodeList"
	for id in "${J[@]}"; do
		sx scontrol -o show job "$id" | tr ' ' '\n' | awk -F= -v id="$id" '
			{ v[$1] = substr($0, length($1) + 2) }
			END { printf "%s|%s|%s|%s|%s|00:01:00|1|%s|%s|%sM|debug|COMPLETED|%s\n",
				id, id, v["SubmitTime"], v["StartTime"], v["EndTime"],
				v["NumCPUs"], v["NumCPUs"], v["MinMemoryNode"] + 0, v["NodeList"] }'
	done
} >"$sacct"
if "$TOPOSIM" --sacct "$sacct" --slurm-conf "$LIVE_DIR/slurm.conf" --policy least-loaded \
	--jobs-csv "$LIVE_DIR/ll.csv" --summary-json /dev/null 2>"$LIVE_DIR/toposim.err"; then
	pass "toposim replayed the eight jobs with the cluster's slurm.conf"
else
	fail "toposim replayed the eight jobs with the cluster's slurm.conf" "$(cat "$LIVE_DIR/toposim.err")"
fi
for k in 0 1 2 3 4 5 6 7; do
	sim=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["id"] == sys.argv[2]:
        print(r["nodelist"])' "$LIVE_DIR/ll.csv" "${J[k]}")
	assert_eq "$(job_nodelist "${J[k]}")" "$sim" "job $((k + 1)): toposim's node is the plugin's"
done

done_testing
