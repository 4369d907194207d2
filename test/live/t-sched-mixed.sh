#!/bin/bash
# Live test: a mixed set of the jobs users submit every day runs to the end
# under sched/backfill and under sched/topo on the same cluster (16 nodes,
# select/fattree on a fat tree of four 4-node leaves), and sched/topo's
# placements of such jobs are the simulator's (software in the loop).
#
# Part 1, under each scheduler in turn on a fresh cluster: one submission
# of -w, -x, a node range, an array, a reservation, --switches (one that
# can be met, one that cannot until its wait ends), a feature, --contiguous
# and a large job, all at once so they compete.  Every job must complete,
# each where its constraints say.
#
# Part 2, on the sched/topo cluster: the same kinds of job one event at a
# time (each starts at once on the nodes then free; jobs are cancelled in
# between so the free set fragments), and the same sequence through
# `toposim --policy easy --job-requests` on the same topology.conf: every
# job's nodes must be the simulator's.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=test/live/live-lib.sh
. "$LIVE_SRCDIR/live-lib.sh"

live_require
live_needs toposim ftconf sched_topo select_fattree

TMP=$(mktemp -d "${TMPDIR:-/tmp}/t-sched-mixed.XXXXXX")
"$FTCONF" generate --levels 2 --width 4 -o "$TMP/topology.conf" || bail_out "ftconf generate failed"
# The patent's unit method: the sequences below are written so that
# every job starts at its submission on its placements (part 2 then has
# no timing dependence); the node-level default scatters other jobs over
# the index runs a --contiguous job needs.
printf 'Allocator=fattree-msu\n' >"$TMP/fattree.conf"
leaf_of() { echo $((( ${1#n} - 1) / 4)); } # leaf switch of node nK

# start SCHED: a fresh cluster, node features and the reservation.
start() {
	local extra=()
	if [ "$1" = sched/topo ]; then
		st_extra_conf "topo_policy=easy" >"$TMP/extra.conf"
		extra=(--extra-conf "$TMP/extra.conf")
	fi
	live_start --nodes 16 --select select/fattree --sched "$1" \
		--plugindir "$TOPO_PLUGINDIR" --topology-conf "$TMP/topology.conf" \
		--conf-file "$TMP/fattree.conf" "${extra[@]}"
	sx scontrol update NodeName=n[5-6] AvailableFeatures=big ActiveFeatures=big ||
		bail_out "scontrol could not set node features"
	sx scontrol create reservation ReservationName=r1 Nodes=n16 StartTime=now \
		Duration=30 Users=root Flags=IGNORE_JOBS >/dev/null ||
		bail_out "scontrol could not create reservation r1"
}

# ---------------------------------------------------------------- part 1
# LABEL NODES SBATCH-ARGS (all sleep 3, limit 2 min)
MIXED="
w 2 -w n3
x 2 -x n[1-8]
range 3-6
arr 1 --array=1-6
resv 1 --reservation=r1
sw1 3 --switches=1
swwait 6 --switches=1@0:15
feat 2 --constraint=big
contig 4 --contiguous
big 12
"

# Node numbers of "nA nB ..." are consecutive.
consecutive() {
	tr ' ' '\n' <<<"$1" | sed 's/^n//' | sort -n |
		awk 'NR > 1 && $1 != p + 1 { bad = 1 } { p = $1 } END { exit bad }'
}

# Check where a finished job ran against what it asked for.
check_placement() { # SCHED LABEL ID
	local s=$1 l=$2 id=$3 nl nodes n
	nl=$(jobcomp_nodelist "$id")
	nodes=$(expand_hostlist "$nl" | sort -V | paste -sd' ')
	n=$(wc -w <<<"$nodes")
	case $l in
	w) assert_match "(.* )?n3( .*)?" "$nodes" "$s: -w n3 ran on n3 ($nl)" ;;
	x) assert_eq "" "$(tr ' ' '\n' <<<"$nodes" | sed 's/^n//' | awk '$1 <= 8')" \
		"$s: -x n[1-8] never ran on n1..n8 ($nl)" ;;
	range) assert_true "$s: -N 3-6 got $n nodes ($nl)" test "$n" -ge 3 -a "$n" -le 6 ;;
	resv) assert_eq n16 "$nl" "$s: --reservation=r1 ran on the reservation's node" ;;
	sw1) assert_eq 1 "$(for x in $nodes; do leaf_of "$x"; done | sort -u | wc -l)" \
		"$s: --switches=1 ran under one leaf switch ($nl)" ;;
	swwait) assert_eq 6 "$n" "$s: --switches=1@0:15 (6 nodes, leaves of 4) ran unconstrained after its wait ($nl)" ;;
	feat) assert_eq "n5 n6" "$nodes" "$s: --constraint=big ran on the nodes with the feature" ;;
	contig) assert_true "$s: --contiguous -N 4 ran on consecutive nodes ($nl)" consecutive "$nodes" ;;
	esac
	[ "$l" = resv ] ||
		assert_eq "" "$(grep -ow n16 <<<"$nodes")" "$s: $l ($nl) kept off the reserved node"
}

# Submit the mixed set at once (partition DOWN, then UP); every job and
# every array task must complete, each where its constraints say.
part1() { # SCHED
	local s=$1 label n args id i t t0 ids=() labels=() all=()
	diag "==== part 1 under $s"
	sx scontrol update PartitionName=debug State=DOWN
	while read -r label n args; do
		[ -n "$label" ] || continue
		# shellcheck disable=SC2086
		id=$(submit "$n" 3 2 "mix-$label" $args) || bail_out "sbatch $label ($args) failed"
		ids+=("$id") labels+=("$label")
	done <<<"$MIXED"
	for i in "${!ids[@]}"; do
		if [ "${labels[i]}" = arr ]; then
			for t in 1 2 3 4 5 6; do all+=("${ids[i]}_$t"); done
		else
			all+=("${ids[i]}")
		fi
	done
	t0=$(date +%s)
	sx scontrol update PartitionName=debug State=UP
	wait_jobs_final 150 "${all[@]}" || fail "$s: every job of the mixed set finished"
	diag "$s: the mixed set took $(($(date +%s) - t0)) s"
	for id in "${all[@]}"; do
		assert_eq COMPLETED "$(job_state "$id")" "$s: job $id ($(job_field "$id" JobName)) COMPLETED"
	done
	for i in "${!ids[@]}"; do
		[ "${labels[i]}" = arr ] || check_placement "$s" "${labels[i]}" "${ids[i]}"
	done
}

start sched/backfill
part1 sched/backfill
live_stop
start sched/topo
part1 sched/topo

# ---------------------------------------------------------------- part 2
# OP|LABEL|NODES|SBATCH ARGS|REQUEST KEYS (trace/jobreqs.h).  Jobs run until
# cancelled ("end"); each must start at once.  Every job outside the
# reservation may use n1..n15 only (r1 holds n16).
SEQ="
sub|A|2|-w n3|NodeList=n3
sub|B|2|-x n[1-8]|Exclude=n[1-8]
sub|D|1|--constraint=big|Nodes=n[5-6]
sub|C|3-6||MaxNodes=6
sub|E|1|--reservation=r1|Nodes=n16
end|A
sub|F|3|--switches=1|Switches=1
sub|G|3|--contiguous|Contiguous=yes
end|C
sub|H|1|--array=1-2|
sub|I|3|-x n[9-12]|Exclude=n[9-12]
end|B
sub|J|2|-w n10|NodeList=n10
"
declare -A sub_step end_step size req sid got
order=() # simulator jobs in submission order (array tasks: H_1, H_2)
step=0
while IFS='|' read -r op label n args keys; do
	[ -n "$op" ] || continue
	step=$((step + 1))
	case $op in
	sub)
		tasks=("$label")
		[[ "$args" =~ --array=1-([0-9]+) ]] &&
			tasks=($(seq -f "${label}_%.0f" 1 "${BASH_REMATCH[1]}"))
		for t in "${tasks[@]}"; do
			sub_step[$t]=$step size[$t]=${n%-*} req[$t]=$keys
			[[ "$keys" == *Nodes=n16* ]] || [[ "$keys" == *"Nodes=n["* ]] ||
				req[$t]="$keys Nodes=n[1-15]"
			order+=("$t")
		done ;;
	end) end_step[$label]=$step ;;
	*) bail_out "bad event '$op'" ;;
	esac
done <<<"$SEQ"

# The sequence as SWF (event k at 10k s) and the job requests file.
swf=$TMP/seq.swf reqf=$TMP/seq.req
events_swf "t-sched-mixed part 2" 16 >"$swf"
i=0
for t in "${order[@]}"; do
	i=$((i + 1))
	echo "JobId=$i ${req[$t]}"
done >"$reqf"
diag "job requests:" && diag_block <"$reqf"

out=$("$TOPOSIM" --workload "$swf" --policy easy --topology "$TMP/topology.conf" \
	--fattree-conf "$TMP/fattree.conf" \
	--job-requests "$reqf" --check --jobs-csv - --summary-json /dev/null --quiet) ||
	bail_out "toposim --job-requests failed: $out"
declare -A want
while IFS=, read -r id sub st _ _ _ _ _ _ _ rest; do
	nl=${rest#\"} nl=${nl%%\"*}
	t=${order[id - 1]}
	want[$t]=$(expand_hostlist "$nl" | sort -V | paste -sd,)
	assert_eq "$sub" "$st" "simulator: $t starts at its submission (no timing dependence)"
done < <(tail -n +2 <<<"$out")

# The same events in Slurm, one at a time.
diag "==== part 2: sched/topo against the simulator"
while IFS='|' read -r op label n args keys; do
	[ -n "$op" ] || continue
	case $op in
	sub)
		# shellcheck disable=SC2086
		id=$(submit "$n" 600 15 "seq-$label" $args) || bail_out "sbatch $label failed"
		tasks=("$label:$id")
		[[ "$args" =~ --array=1-([0-9]+) ]] &&
			tasks=($(for k in $(seq 1 "${BASH_REMATCH[1]}"); do echo "${label}_$k:${id}_$k"; done))
		for tj in "${tasks[@]}"; do
			t=${tj%%:*} j=${tj#*:}
			sid[$t]=$j
			wait_job_state "$j" RUNNING 30 || bail_out "job $t ($j) did not start at once"
			got[$t]=$(job_nodes "$j" | sort -V | paste -sd,)
		done ;;
	end)
		sx scancel "${sid[$label]}"
		wait_job_state "${sid[$label]}" CANCELLED 30 || bail_out "job $label was not cancelled"
		wait_nodes_idle "${got[$label]}" 30 || bail_out "nodes of job $label did not become idle" ;;
	esac
done <<<"$SEQ"
for t in "${order[@]}"; do
	assert_eq "${want[$t]}" "${got[$t]}" "job $t (${req[$t]}) ran where the simulator places it"
done
sx scancel -u root
rm -rf "$TMP"
done_testing
