#!/bin/bash
# Live test body (t-tree-slurm-24.11.sh, t-tree-slurm-26.05.sh): the core's
# model of Slurm's OWN topology/tree (select/cons_tres, whole nodes) chooses
# what Slurm LIVE_SLURM chooses, job by job.  The wrapper names the model:
# TREE_ALLOC=tree-slurm for 24.11 (24.05's rules), tree-slurm-26.05 for
# 26.05, whose select/cons_tres places a job of one node on the first free
# node without asking the tree (alloc_tree_slurm.c).
#
# The machine is the 64-node, 3-level, width-4 fat tree written by ftconf
# (16 leaf switches of 4 nodes, 4 middle switches, one root), run by
# Slurm LIVE_SLURM (topo-cluster --slurm LIVE_SLURM) with
# SelectType=select/cons_tres, TopologyPlugin=topology/tree and a
# whole-node (OverSubscribe=EXCLUSIVE) partition: none of the project's
# plugins is loaded.  A scripted sequence of 23 jobs of 1 to 24 nodes,
# each running until it is cancelled, with cancellations in between so the
# free set fragments, is run through Slurm one event at a time; the last
# three name required nodes, free under both releases' rules (-w: U one
# in a leaf whose other free node does not suffice, V two in different
# middle switches, W one whose leaf has 4 free nodes under 24.11's rules
# and 1 under 26.05's: from the one-node job O on, the two differ).  The
# same sequence, encoded as an SWF trace (event k at 10k s) with the -w
# lists as --job-requests, is replayed through `toposim --alloc TREE_ALLOC
# --policy fcfs` on the very topology.conf slurmctld reads.  Every job's
# expanded NodeList must equal the prediction.  The sequence is the same
# for both releases and must tell the models apart: tree-greedy (Slurm
# 22.05's rules) and the other release's model must each place at least
# one job differently, so a model that fell back to another release's
# rules would fail here.
#
# Timing cannot change the outcome: each event is carried out and its
# effect awaited (a job RUNNING; a cancelled job's nodes idle again) before
# the next, and every job has free nodes to start at once (checked in the
# simulation, under both releases' models), so the free set each placement
# sees is the simulator's.
LIVE_SLURM=${LIVE_SLURM:-24.11}
TREE_ALLOC=${TREE_ALLOC:-tree-slurm}
# the models of Slurm's topology/tree since 24.05, one per release that
# changed what it chooses
SLURM_MODELS="tree-slurm tree-slurm-26.05"
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
live_needs toposim ftconf

# One event a line: "sub JOB NODES [HOSTLIST]" submits a job that runs
# until cancelled (with -w HOSTLIST when given); "end JOB" cancels it.
SEQ="
sub A 3
sub B 6
sub C 1
sub D 10
sub E 2
end B
sub F 5
sub G 7
end C
sub H 24
end A
sub I 2
sub J 6
end D
end G
sub K 9
sub L 3
end E
sub M 5
end H
sub N 14
sub O 1
end J
sub P 7
sub Q 4
end K
sub R 12
end F
sub S 3
sub T 6
end N
sub U 6 n45
end I
sub V 5 n29,n47
end T
sub W 8 n20
"
LONG_S=600       # no job ends by itself within the test

tmp_topo=$(mktemp "${TMPDIR:-/tmp}/t-tree-slurm.XXXXXX")
"$FTCONF" generate --levels 3 --width 4 -o "$tmp_topo" || { rm -f "$tmp_topo"; bail_out "ftconf generate failed"; }
live_start --nodes 64 --select select/cons_tres --topology topology/tree \
	--part-opts OverSubscribe=EXCLUSIVE --sched sched/builtin --topology-conf "$tmp_topo"
rm -f "$tmp_topo"
topo=$LIVE_DIR/topology.conf
work=$LIVE_DIR/replay
mkdir -p "$work"
assert_eq "16 4 1" "$(for l in 0 1 2; do grep -c "^SwitchName=s$l-" "$topo"; done | paste -sd' ')" \
	"topology.conf: 16 leaf switches, 4 middle switches, 1 root"
conf=$(sx scontrol show config)
assert_eq "topology/tree" "$(sed -n 's/^TopologyPlugin *= *//p' <<<"$conf")" \
	"slurmctld runs Slurm's own TopologyPlugin=topology/tree"
assert_eq "select/cons_tres" "$(sed -n 's/^SelectType *= *//p' <<<"$conf")" \
	"slurmctld runs SelectType=select/cons_tres"
assert_match "${LIVE_SLURM/./\\.}\\..*" "$(sed -n 's/^SLURM_VERSION *= *//p' <<<"$conf")" "Slurm $LIVE_SLURM"

# ------------------------------------------------- the sequence as SWF
declare -A sub_step end_step size sid need
order=()
step=0
while read -r op job n w; do
	[ -n "$op" ] || continue
	step=$((step + 1))
	case $op in
	sub) sub_step[$job]=$step size[$job]=$n need[$job]=$w; order+=("$job") ;;
	end) end_step[$job]=$step ;;
	*) bail_out "bad event '$op $job'" ;;
	esac
done <<<"$SEQ"
swf=$work/seq.swf
events_swf "t-tree-slurm-$LIVE_SLURM's event sequence" 64 >"$swf"
reqs=$work/seq.reqs   # -w per job, by SWF job number (toposim(1))
for i in "${!order[@]}"; do
	job=${order[i]}
	[ -z "${need[$job]}" ] || echo "JobId=$((i + 1)) NodeList=${need[$job]}"
done >"$reqs"

# predict ALLOC: "JOB SUBMIT START NODES" per job, NODES expanded and
# sorted like Slurm's (job_nodes | sort -V).
predict() {
	"$TOPOSIM" --workload "$swf" --policy fcfs --topology "$topo" --alloc "$1" \
		--job-requests "$reqs" --jobs-csv - --summary-json /dev/null --quiet |
		sed -n '2,$ s/^\([0-9]*\),\([0-9]*\),\([0-9]*\),[^"]*"\([^"]*\)",.*$/\1 \2 \3 \4/p' |
		while read -r id s st nl; do
			echo "${order[id - 1]} $s $st $(expand_hostlist "$nl" | sort -V | paste -sd,)"
		done
}
case " $SLURM_MODELS " in
*" $TREE_ALLOC "*) ;;
*) bail_out "TREE_ALLOC=$TREE_ALLOC is none of $SLURM_MODELS" ;;
esac
other=
for m in $SLURM_MODELS; do [ "$m" = "$TREE_ALLOC" ] || other=$m; done
pred_ts=$(predict "$TREE_ALLOC") || bail_out "toposim --alloc $TREE_ALLOC failed"
pred_ot=$(predict "$other") || bail_out "toposim --alloc $other failed"
pred_tg=$(predict tree-greedy) || bail_out "toposim --alloc tree-greedy failed"
pred_ft=$(predict fattree) || bail_out "toposim --alloc fattree failed"
assert_eq "${#order[@]}" "$(printf '%s\n' "$pred_ts" | grep -c .)" \
	"toposim ran all ${#order[@]} jobs of the sequence"
late=$(awk '$2 != $3 { print $1 }' <<<"$pred_ts" | paste -sd' ')
assert_eq "" "$late" "with $TREE_ALLOC every job starts at its submission (no timing dependence)"
late=$(awk '$2 != $3 { print $1 }' <<<"$pred_ot" | paste -sd' ')
assert_eq "" "$late" "with $other too (the sequence serves both releases)"
declare -A want ot tg ft
while read -r job _ _ nl; do want[$job]=$nl; done <<<"$pred_ts"
while read -r job _ _ nl; do ot[$job]=$nl; done <<<"$pred_ot"
while read -r job _ _ nl; do tg[$job]=$nl; done <<<"$pred_tg"
while read -r job _ _ nl; do ft[$job]=$nl; done <<<"$pred_ft"

# ---------------------------------------------------- run it in Slurm
declare -A got
while read -r op job n w; do
	[ -n "$op" ] || continue
	case $op in
	sub)
		sid[$job]=$(submit "$n" "$LONG_S" 15 "$job" ${w:+-w "$w"}) || bail_out "sbatch of job $job failed"
		wait_job_state "${sid[$job]}" RUNNING 30 ||
			bail_out "job $job (${sid[$job]}, $n nodes) did not start at once"
		got[$job]=$(job_nodes "${sid[$job]}" | sort -V | paste -sd,)
		;;
	end)
		sx scancel "${sid[$job]}"
		wait_job_state "${sid[$job]}" CANCELLED 30 || bail_out "job $job was not cancelled"
		wait_nodes_idle "${got[$job]}" 30 || bail_out "nodes of job $job did not become idle"
		;;
	esac
done <<<"$SEQ"

# ------------------------------------------------------------ compare
for job in "${order[@]}"; do
	assert_eq "${want[$job]}" "${got[$job]}" \
		"job $job (${size[$job]} nodes${need[$job]:+, -w ${need[$job]}}, Slurm job ${sid[$job]}): topology/tree's NodeList is $TREE_ALLOC's"
done
d_ot=() d_tg=() d_ft=()
for job in "${order[@]}"; do
	[ "${got[$job]}" != "${ot[$job]}" ] && d_ot+=("$job")
	[ "${got[$job]}" != "${tg[$job]}" ] && d_tg+=("$job")
	[ "${got[$job]}" != "${ft[$job]}" ] && d_ft+=("$job")
done
{
	printf '%-4s %5s %-7s %-22s %-22s %s\n' job nodes slurmid "topology/tree (Slurm)" \
		"$other" "tree-greedy (22.05)"
	for job in "${order[@]}"; do
		printf '%-4s %5s %-7s %-22s %-22s %s\n' "$job" "${size[$job]}" "${sid[$job]}" \
			"$(sx scontrol show hostlist "${got[$job]}")" \
			"$(sx scontrol show hostlist "${ot[$job]}")" "$(sx scontrol show hostlist "${tg[$job]}")"
	done
} | diag_block
diag "jobs placed differently by $other: ${#d_ot[@]} of ${#order[@]} (${d_ot[*]:-none})" \
	"jobs placed differently by tree-greedy: ${#d_tg[@]} of ${#order[@]} (${d_tg[*]:-none})" \
	"jobs placed differently by fattree: ${#d_ft[@]} of ${#order[@]} (${d_ft[*]:-none})"
assert_match "[1-9][0-9]*" "${#d_ot[@]}" \
	"the sequence tells Slurm $LIVE_SLURM from the other release's model ($other differs on ${d_ot[*]:-no job})"
assert_match "[1-9][0-9]*" "${#d_tg[@]}" \
	"the sequence tells Slurm $LIVE_SLURM from Slurm 22.05's rules (tree-greedy differs on ${d_tg[*]:-no job})"

running=$(sx squeue -h -o %i | paste -sd' ')
# shellcheck disable=SC2086
[ -z "$running" ] || sx scancel $running

done_testing
