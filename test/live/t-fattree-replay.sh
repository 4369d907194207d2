#!/bin/bash
# Live test: select/fattree in a real Slurm 22.05 cluster (with
# LIVE_SLURM=24.11: topology/fattree under select/cons_tres in Debian 13's
# Slurm 24.11, t-fattree-24.11.sh) places every job exactly where the core
# library (the simulator, same code) predicts.
#
# The machine is the 64-node, 3-level, width-4 fat tree (16 leaf switches
# of 4 nodes, 4 middle switches, one root; n1 <-> n64 crosses 5 routers),
# written by ftconf.  A scripted sequence of jobs of mixed sizes, with jobs
# ending and cancelled in between so the free set fragments, is run
# through Slurm one event at a time, and the same sequence, encoded as an
# SWF trace, through `toposim --alloc fattree --policy fcfs` on the same
# topology.conf.  Every job's expanded NodeList must equal the prediction.
# The sequence is only meaningful if it exercises the minimum-hop choice of
# several units: the test also runs toposim with first-free and tree-greedy
# and demands that some multi-unit placements differ from both.
# Then sinfo, squeue and scontrol must work with the plugin loaded.
# On 24.11 the same sequence then runs on Slurm's own topology/tree (under
# select/cons_tres) and the mean hop sums are compared: fattree's must not
# be larger.
#
# Timing cannot change the outcome: each event is carried out and its
# effect awaited (a job RUNNING; an ended job's nodes idle again) before the
# next, and every job has free nodes to start at once, so the free set each
# placement sees is the simulator's.  No fattree.conf: the plugin runs with
# the core's defaults (allocator fattree, MSU rule, PreferFull), as toposim.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
PLUGIN=$(placement_plugin fattree)
live_needs toposim ftconf "${PLUGIN/\//_}"

# The event sequence, one event a line:
#   sub JOB NODES [short]  submit; "short" jobs sleep a few seconds and end
#                          by themselves, the others run until cancelled
#   end JOB                a short job has completed / a long one is cancelled
# A short job's end must follow it before any later submission: it ends on
# its own, so no placement may happen while it could be ending.
SEQ="
sub A 6
sub B 8
sub C 8 short
end C
sub D 1
sub E 6
end A
sub F 12
end B
sub G 12
sub H 16 short
end H
end E
sub I 6
sub J 16
end D
sub K 3
sub L 1
sub M 6
end G
sub N 3
sub O 4
"
NUNIT=4          # MSU size on this tree (leaves of 4 nodes)
SHORT_S=2        # run time of a short job
LONG_S=600       # long jobs never end by themselves within the test

tmp_topo=$(mktemp "${TMPDIR:-/tmp}/t-fattree-replay.XXXXXX")
"$FTCONF" generate --levels 3 --width 4 -o "$tmp_topo" || { rm -f "$tmp_topo"; bail_out "ftconf generate failed"; }
# shellcheck disable=SC2046
live_start --nodes 64 $(placement_args fattree) --sched sched/builtin \
	--plugindir "$TOPO_PLUGINDIR" --topology-conf "$tmp_topo"
# From here on the simulator reads the very file slurmctld reads; scratch
# files live in the cluster directory (kept with the logs on failure).
topo=$LIVE_DIR/topology.conf
work=$LIVE_DIR/replay
mkdir -p "$work"
assert_eq "16 4 1" "$(for l in 0 1 2; do grep -c "^SwitchName=s$l-" "$topo"; done | paste -sd' ')" \
	"topology.conf: 16 leaf switches, 4 middle switches, 1 root"
assert_eq "$(seq -f 'n%.0f' 1 64 | paste -sd,)" \
	"$(sed -n 's/^SwitchName=s0-[0-9]* Nodes=//p' "$topo" | while read -r l; do expand_hostlist "$l"; done | paste -sd,)" \
	"topology.conf: leaves hold n1..n64, 4 each, in order"
assert_eq 5 "$("$FTCONF" hopsum --topology "$topo" n1,n64)" "n1 <-> n64 crosses 5 routers"
assert_match "$PLUGIN" "$(sx scontrol show config | sed -n "s/^$(placement_key) *= *//p")" \
	"slurmctld runs with $(placement_key)=$PLUGIN"

# ------------------------------------------------- the sequence as SWF
# Event k happens at time 10k; a job ending at event e ran (e - s) * 10 s;
# a job never ended runs far past the last event.
declare -A sub_step end_step size short sid
order=()
step=0
while read -r op job n flag; do
	[ -n "$op" ] || continue
	step=$((step + 1))
	case $op in
	sub) sub_step[$job]=$step size[$job]=$n short[$job]=${flag:-}; order+=("$job") ;;
	end) end_step[$job]=$step ;;
	*) bail_out "bad event '$op $job'" ;;
	esac
done <<<"$SEQ"
swf=$work/seq.swf
events_swf "the live test's event sequence" 64 >"$swf"

# predict ALLOC: "JOB SUBMIT START NODES HOPSUM" per job, in order, NODES
# the CSV's hostlist expanded and sorted like Slurm's (job_nodes | sort -V).
predict() {
	"$TOPOSIM" --workload "$swf" --policy fcfs --topology "$topo" --alloc "$1" \
		--jobs-csv - --summary-json /dev/null --quiet |
		sed -n '2,$ s/^\([0-9]*\),\([0-9]*\),\([0-9]*\),[^"]*"\([^"]*\)",[^,]*,[^,]*,\(.*\)$/\1 \2 \3 \4 \5/p' |
		while read -r id s st nl hop; do
			echo "${order[id - 1]} $s $st $(expand_hostlist "$nl" | sort -V | paste -sd,) ${hop:--}"
		done
}
pred_ft=$(predict fattree) || bail_out "toposim --alloc fattree failed"
pred_tg=$(predict tree-greedy) || bail_out "toposim --alloc tree-greedy failed"
pred_ff=$(predict first-free) || bail_out "toposim --alloc first-free failed"
assert_eq "${#order[@]}" "$(printf '%s\n' "$pred_ft" | grep -c .)" \
	"toposim ran all ${#order[@]} jobs of the sequence"
late=$(awk '$2 != $3 { print $1 }' <<<"$pred_ft" | paste -sd' ')
assert_eq "" "$late" "in the simulation every job starts at its submission (no timing dependence)"
declare -A want want_hop
while read -r job _ _ nl hop; do want[$job]=$nl want_hop[$job]=$hop; done <<<"$pred_ft"

# ---------------------------------------------------- run it in Slurm
# run_sequence: the events on the running cluster; got[JOB] = its nodes.
declare -A got
run_sequence() {
	local running_short="" op job n flag s
	while read -r op job n flag; do
		[ -n "$op" ] || continue
		case $op in
		sub)
			[ -z "$running_short" ] ||
				bail_out "sequence error: $job submitted while short job $running_short may be ending"
			s=$LONG_S
			[ -n "${short[$job]}" ] && { s=$SHORT_S; running_short=$job; }
			sid[$job]=$(submit "$n" "$s" 15 "$job") || bail_out "sbatch of job $job failed"
			wait_job_state "${sid[$job]}" "RUNNING|COMPLETED" 30 ||
				bail_out "job $job (${sid[$job]}, $n nodes) did not start at once"
			got[$job]=$(job_nodes "${sid[$job]}" | sort -V | paste -sd,)
			;;
		end)
			if [ -n "${short[$job]}" ]; then
				wait_job_state "${sid[$job]}" COMPLETED 30 || bail_out "short job $job did not complete"
				running_short=""
			else
				sx scancel "${sid[$job]}"
				wait_job_state "${sid[$job]}" CANCELLED 30 || bail_out "job $job was not cancelled"
			fi
			wait_nodes_idle "${got[$job]}" 30 || bail_out "nodes of job $job did not become idle"
			;;
		esac
	done <<<"$SEQ"
}
t0=$(date +%s)
run_sequence
diag "sequence of ${#order[@]} jobs ran in $(($(date +%s) - t0)) s"

# ------------------------------------------------------------ compare
# One assertion per job; on a mismatch assert_eq shows the diff.
for job in "${order[@]}"; do
	assert_eq "${want[$job]}" "${got[$job]}" \
		"job $job (${size[$job]} nodes, Slurm job ${sid[$job]}) ran where the core predicts"
done
# The hop sum of Slurm's placement, computed from its node list, is the
# simulator's cost of the same placement.
hops=$(for job in "${order[@]}"; do echo "${got[$job]}"; done |
	"$FTCONF" hopsum --topology "$topo" | paste -sd' ')
assert_eq "$(for job in "${order[@]}"; do echo "${want_hop[$job]}"; done | paste -sd' ')" "$hops" \
	"hop sums of Slurm's placements equal toposim's hop_sum column"
{
	printf '%-4s %5s %-7s %4s  %s\n' job nodes slurmid hops nodelist
	i=0
	for job in "${order[@]}"; do
		i=$((i + 1))
		printf '%-4s %5s %-7s %4s  %s\n' "$job" "${size[$job]}" "${sid[$job]}" \
			"$(cut -d' ' -f"$i" <<<"$hops")" "${got[$job]}"
	done
} | diag_block

# The sequence must exercise the multi-unit minimum-hop choice: jobs of
# more than one unit placed differently from both baselines.
declare -A tg ff tg_hop
while read -r job _ _ nl hop; do tg[$job]=$nl tg_hop[$job]=$hop; done <<<"$pred_tg"
while read -r job _ _ nl _; do ff[$job]=$nl; done <<<"$pred_ff"
d_tg=() d_ff=() d_both=() ft_sum=0 tg_sum=0
for job in "${order[@]}"; do
	[ "${size[$job]}" -gt "$NUNIT" ] || continue
	[ "${want[$job]}" != "${tg[$job]}" ] && d_tg+=("$job")
	[ "${want[$job]}" != "${ff[$job]}" ] && d_ff+=("$job")
	[ "${want[$job]}" != "${tg[$job]}" ] && [ "${want[$job]}" != "${ff[$job]}" ] && d_both+=("$job")
	ft_sum=$((ft_sum + ${want_hop[$job]}))
	tg_sum=$((tg_sum + ${tg_hop[$job]}))
done
assert_match "[1-9][0-9]*" "${#d_tg[@]}" \
	"multi-unit jobs placed differently by tree-greedy: ${d_tg[*]:-none}"
assert_match "[1-9][0-9]*" "${#d_ff[@]}" \
	"multi-unit jobs placed differently by first-free: ${d_ff[*]:-none}"
assert_match "[1-9][0-9]*" "${#d_both[@]}" \
	"multi-unit jobs placed differently by both baselines: ${d_both[*]:-none}"
for job in "${d_both[@]}"; do
	diag "job $job (${size[$job]} nodes): fattree ${want[$job]} (hops ${want_hop[$job]})" \
		"    tree-greedy ${tg[$job]} (hops ${tg_hop[$job]})" "    first-free ${ff[$job]}"
done
diag "hop sum of the multi-unit jobs: fattree $ft_sum, tree-greedy $tg_sum"

# -------------------------------------- client commands with the plugin
running=()
for job in "${order[@]}"; do
	[ "$(job_state "${sid[$job]}")" = RUNNING ] && running+=("${sid[$job]}")
done
busy=$(for id in "${running[@]}"; do job_nodes "$id"; done | sort -u | wc -l)
out=$(sx sinfo 2>&1) && rc=0 || rc=$?
assert_eq 0 "$rc" "sinfo exits 0"
printf '%s\n' "$out" | diag_block
sum=$(sx sinfo -h -o '%D' | awk '{ s += $1 } END { print s }')
assert_eq 64 "$sum" "sinfo counts 64 nodes"
alloc=$(sx sinfo -h -N -o '%N %t' | awk '$2 == "alloc"' | wc -l)
assert_eq "$busy" "$alloc" "sinfo shows as allocated exactly the nodes of the running jobs ($busy)"
out=$(sx squeue -h -o '%i %T %D %N' 2>&1) && rc=0 || rc=$?
assert_eq 0 "$rc" "squeue exits 0"
assert_eq "$(printf '%s\n' "${running[@]}" | sort -n | paste -sd' ')" \
	"$(awk '$2 == "RUNNING" { print $1 }' <<<"$out" | sort -n | paste -sd' ')" \
	"squeue lists the running jobs of the sequence"
j=${sid[O]}
out=$(sx scontrol show job "$j" 2>&1) && rc=0 || rc=$?
assert_eq 0 "$rc" "scontrol show job $j exits 0"
assert_match ".*JobState=RUNNING.*" "$(tr '\n' ' ' <<<"$out")" "scontrol show job $j: JobState=RUNNING"
assert_eq "${want[O]}" "$(expand_hostlist "$(sed -n 's/^ *NodeList=//p' <<<"$out")" | sort -V | paste -sd,)" \
	"scontrol show job $j: NodeList is the job's nodes"
out=$(sx scontrol show node n1 2>&1) && rc=0 || rc=$?
assert_eq 0 "$rc" "scontrol show node n1 exits 0"
sx scancel "${running[@]}"

# ------------------------------- 24.11: against Slurm's own topology/tree
# The same sequence on the same tree under select/cons_tres with
# topology/tree; the mean hop sum of the multi-unit jobs, fattree's over
# tree's, must be at most 1.
if topology_series; then
	cp "$topo" "$tmp_topo"
	live_stop
	live_start --nodes 64 --select select/cons_tres --topology topology/tree \
		--part-opts OverSubscribe=EXCLUSIVE --sched sched/builtin --topology-conf "$tmp_topo"
	run_sequence
	tree_hops=$(for job in "${order[@]}"; do echo "${got[$job]}"; done |
		"$FTCONF" hopsum --topology "$tmp_topo" | paste -sd' ')
	read -r ft_mean tree_mean ratio < <(awk -v a="$hops" -v b="$tree_hops" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) { sa += x[i]; sb += y[i] }
		printf "%.3f %.3f %.3f\n", sa / n, sb / n, sb ? sa / sb : 0 }')
	diag "mean hop sum over the ${#order[@]} jobs: topology/fattree $ft_mean, topology/tree $tree_mean, ratio $ratio"
	assert_match "0\.[0-9]*|1\.000" "$ratio" \
		"mean hop sum: topology/fattree / topology/tree = $ratio (at most 1)"
	running=$(sx squeue -h -o %i | paste -sd' ')
	# shellcheck disable=SC2086
	[ -z "$running" ] || sx scancel $running
fi
rm -f "$tmp_topo"

done_testing
