#!/bin/bash
# torus3d.sh - sourced by the live tests t-torus3d-26.05.sh (list a),
# t-torus3d-rich-26.05.sh (list b) and t-torus3d-rot-26.05.sh (list c),
# one cluster each so that check-live's shards can run them side by side:
# the core's "torus-anchor" allocator chooses what Slurm 26.05.3's OWN
# topology/torus3d chooses, job by job.
#
# The machine is a 4x4x4 torus of 64 nodes run by Slurm 26.05.3
# (topo-cluster --slurm 26.05) with SelectType=select/cons_tres,
# TopologyPlugin=topology/torus3d, topology.yaml beside slurm.conf (the
# only place torus3d reads; test/live/torus3d-conf.sh writes it and the
# matching torus.conf) and a whole-node (OverSubscribe=EXCLUSIVE)
# partition: none of the project's plugins is loaded.  Three placement
# lists, each on a fresh cluster (torus3d_test chain | rich | rot):
#  (a) the power-of-two chain 1x1x1, 2x1x1, 2x2x1, 2x2x2, 4x2x2, 4x4x2,
#      4x4x4 (one placement per size, default anchors: the head-to-head's
#      one-orientation set-up);
#  (b) several placements per size, in an order that is not the shape
#      order, with anchor_seed and an overlapping anchor_spacing;
#  (c) every distinct rotation of each placement of a chain of sizes 1,
#      2, 3, 4, 6, 8, 12, 16, 24, 32 and 64 (3x1x1, 3x2x1, 3x2x2, 3x4x2:
#      sides of 3 on rings of 4), the given orientation first: the list
#      a careful site writes (the head-to-head's torus3d).
# For each, a stream of 30 jobs of the list's sizes (powers of two for
# (a) and (b)), each running until it is cancelled, with cancellations in
# between, is drawn from a seeded generator (bash's RANDOM) such that
# every job can start at once (each draw checked with toposim on the
# stream so far; a size that would wait is replaced by the next smaller
# one of the list).  The stream is run through Slurm one
# event at a time, each awaited (a job RUNNING; cancelled jobs' nodes idle
# again before the next submission), so the free set every placement sees
# is the simulator's.
# Every job's NodeList must equal `toposim --alloc torus-anchor
# --policy fcfs` on the same torus.conf.  The stream must tell the
# declared list from the derived one (torus.conf without Placement=
# lines) on at least one job, and list (c) from the same chain in one
# orientation (some job's rotation is not the first of its size).
# Finally sizes that no placement has (3 and 12, which has a box; 5 and 9,
# which has one, for (c)) are refused at submission by Slurm ("Requested
# topology configuration is not available") and rejected by toposim.
LIVE_SLURM=26.05
# shellcheck source=test/live/lib.sh
. "$LIVE_SRCDIR/lib.sh"
# shellcheck source=test/live/torus3d-conf.sh
. "$LIVE_SRCDIR/torus3d-conf.sh"

live_require
live_needs toposim

SEED=${TORUS3D_SEED:-2605}
NJOBS=30
NODES=64
LONG_S=900 # no job ends by itself within the test
CHAIN=(1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2 4x4x4)
# Sizes 1, 2, 4, 8, 32, 64 (a job drawn at 16 gets 8): x-pairs, then
# y-pairs seeded at y 1, then x-pairs seeded at x 1; xy squares, then yz
# squares seeded at (y 1, z 1), then x-runs of 4 anchored at x 0 and 2
# (spacing 2 < 4: overlapping anchors); cubes, then cubes seeded at
# (1,1,1); 4x4x2 slabs; the torus.
# shellcheck disable=SC2054 # the commas are inside placements
RICH=(1x1x1 2x1x1 1x2x1@0,1,0 2x1x1@1,0,0 2x2x1 1x2x2@0,1,1 4x1x1/2,1,1
	2x2x2 2x2x2@1,1,1 4x4x2 4x4x4)
# (c): the chain in one orientation, then every rotation of each shape
# (contrib/torus-h2h-mix.py rotations prints ROT from ROT_ONE)
ROT_ONE=(1x1x1 2x1x1 3x1x1 2x2x1 3x2x1 2x2x2 3x2x2 4x2x2 3x4x2 4x4x2 4x4x4)
ROT=(1x1x1 2x1x1 1x1x2 1x2x1 3x1x1 1x1x3 1x3x1 2x2x1 1x2x2 2x1x2 3x2x1 1x2x3
	1x3x2 2x1x3 2x3x1 3x1x2 2x2x2 3x2x2 2x2x3 2x3x2 4x2x2 2x2x4 2x4x2 3x4x2
	2x3x4 2x4x3 3x2x4 4x2x3 4x3x2 4x4x2 2x4x4 4x2x4 4x4x4)
# The sizes a stream draws (weights in %, a size that would wait falls to
# the next smaller one) and two sizes no placement has, per list.
# shellcheck disable=SC2034 # read through a nameref
POW2_DRAW=(1:20 2:25 4:25 8:15 16:10 32:5) ROT_DRAW=(1:10 2:15 3:10 4:15 6:10 8:10 12:10 16:8 24:7 32:5)

# the streams, SWFs and configuration files; kept when a check fails
work=$(mktemp -d "${LIVE_TMPDIR:-${TMPDIR:-/tmp}}/t-torus3d.XXXXXX") || bail_out "mktemp failed"
declare -A sub_step end_step size
order=()

# ------------------------------------------------------- the stream
# Events "sub JOB SIZE" / "end JOB" in $work/NAME.seq; the SWF of a
# sequence (event k at 10k s) is written by events_swf.

# Reads the caller's seq array into order, sub_step, end_step, size.
parse_seq() {
	local op job n step=0
	order=() sub_step=() end_step=() size=()
	for ev in "${seq[@]}"; do
		read -r op job n <<<"$ev"
		step=$((step + 1))
		case $op in
		sub) sub_step[$job]=$step size[$job]=$n; order+=("$job") ;;
		end) end_step[$job]=$step ;;
		esac
	done
}

# predict TORUS_CONF SWF: "JOB SUBMIT START NODES" per placed job, NODES
# expanded and sorted like Slurm's; order[] maps SWF ids to jobs.
predict() {
	"$TOPOSIM" --workload "$2" --policy fcfs --torus "$1" --alloc torus-anchor \
		--jobs-csv - --summary-json /dev/null --quiet |
		sed -n '2,$ s/^\([0-9]*\),\([0-9]*\),\([0-9]*\),[^"]*"\([^"]*\)",.*$/\1 \2 \3 \4/p' |
		while read -r id s st nl; do
			echo "${order[id - 1]} $s $st $(expand_names "$nl")"
		done
}

# n[1-3,7] -> n1,n2,n3,n7 without a cluster (toposim's node names are
# n<k>); the same order as sort -V.
expand_names() {
	local body=${1#n} r out=()
	body=${body#[}
	body=${body%]}
	IFS=, read -ra parts <<<"$body"
	for r in "${parts[@]}"; do
		if [[ $r == *-* ]]; then
			for ((k = ${r%-*}; k <= ${r#*-}; k++)); do out+=("n$k"); done
		else
			out+=("n$r")
		fi
	done
	printf '%s\n' "${out[@]}" | sort -V | paste -sd,
}

# Does the last submitted job of seq start at its submission on TORUS_CONF?
starts_at_once() {
	local conf=$1 last
	parse_seq
	events_swf "draft" $NODES >"$work/draft.swf"
	last=${order[${#order[@]} - 1]}
	predict "$conf" "$work/draft.swf" | awk -v j="$last" '$1 == j && $2 == $3 { ok = 1 } END { exit !ok }'
}

# gen_stream TORUS_CONF DRAW: fills seq with NJOBS submissions of the
# sizes of the array named DRAW (SIZE:WEIGHT, weights in %, sizes
# ascending) and cancellations, from RANDOM.
gen_stream() {
	local conf=$1 used=0 k=0 job s r w i
	local -n draw=$2
	local -A alive=()
	seq=()
	RANDOM=$SEED
	while [ "$k" -lt "$NJOBS" ]; do
		r=$((RANDOM % 100))
		if [ "${#alive[@]}" -gt 0 ] && { [ "$r" -lt 35 ] || [ "$used" -gt 40 ]; }; then
			local keys=("${!alive[@]}")
			job=${keys[$((RANDOM % ${#keys[@]}))]}
			seq+=("end $job")
			used=$((used - alive[$job]))
			unset "alive[$job]"
			continue
		fi
		r=$((RANDOM % 100)) w=0
		for ((i = 0; i < ${#draw[@]} - 1; i++)); do
			w=$((w + ${draw[i]#*:}))
			[ "$r" -ge "$w" ] || break
		done
		job=J$((k + 1)) s=0
		for (( ; i >= 0; i--)); do
			s=${draw[i]%:*}
			if [ $((used + s)) -le $NODES ]; then
				seq+=("sub $job $s")
				starts_at_once "$conf" && break
				unset 'seq[${#seq[@]}-1]'
			fi
		done
		if [ "$i" -lt 0 ]; then # nothing fits now: free something first
			local keys=("${!alive[@]}")
			[ "${#keys[@]}" -gt 0 ] || bail_out "generator: nothing fits on an empty torus"
			job=${keys[0]}
			seq+=("end $job")
			used=$((used - alive[$job]))
			unset "alive[$job]"
			continue
		fi
		alive[$job]=$s
		used=$((used + s))
		k=$((k + 1))
	done
}

# ---------------------------------------------------------- one phase
# phase NAME DRAW REFUSED ONE PLACEMENT...: a fresh cluster with these
# placements, a stream of DRAW's sizes run through Slurm, every NodeList
# compared with torus-anchor; the sizes of REFUSED ("A B") are refused;
# ONE names a list in one orientation the stream must tell these
# placements from ("" for none).
phase() {
	local name=$1 drawn=$2 refused=$3 one=$4 dir=$work/$1
	shift 4
	mkdir -p "$dir"
	torus3d_confs "$dir" 4 4 4 "n[1-$NODES]" "$@" || bail_out "torus3d_confs $*"
	grep -v '^Placement=' "$dir/torus.conf" >"$dir/derived.conf"

	local t0=$SECONDS
	gen_stream "$dir/torus.conf" "$drawn"
	parse_seq
	diag "($name) stream of ${#seq[@]} events drawn in $((SECONDS - t0)) s (seed $SEED)"
	events_swf "t-torus3d-26.05 ($name), seed $SEED" $NODES >"$dir/seq.swf"
	local pred pred_derived pred_one="" late
	pred=$(predict "$dir/torus.conf" "$dir/seq.swf") || bail_out "toposim failed"
	pred_derived=$(predict "$dir/derived.conf" "$dir/seq.swf") || bail_out "toposim (derived) failed"
	if [ -n "$one" ]; then
		local -n one_list=$one
		mkdir -p "$dir/one"
		torus3d_confs "$dir/one" 4 4 4 "n[1-$NODES]" "${one_list[@]}" || bail_out "torus3d_confs (one)"
		pred_one=$(predict "$dir/one/torus.conf" "$dir/seq.swf") || bail_out "toposim (one orientation) failed"
	fi
	assert_eq "${#order[@]}" "$(printf '%s\n' "$pred" | grep -c .)" \
		"($name) toposim placed all ${#order[@]} jobs of the stream (${#seq[@]} events)"
	late=$(awk '$2 != $3 { print $1 }' <<<"$pred" | paste -sd' ')
	assert_eq "" "$late" "($name) in the simulation every job starts at its submission"
	local -A want=() drv=() onep=() got=() sid=()
	local job n
	while read -r job _ _ n; do want[$job]=$n; done <<<"$pred"
	while read -r job _ _ n; do drv[$job]=$n; done <<<"$pred_derived"
	[ -z "$pred_one" ] || while read -r job _ _ n; do onep[$job]=$n; done <<<"$pred_one"

	# shellcheck disable=SC2046
	live_start $(torus3d_cluster_args "$dir" $NODES) --sched sched/builtin
	local conf
	conf=$(sx scontrol show config)
	assert_eq "select/cons_tres topology/torus3d" \
		"$(sed -n 's/^TopologyPlugin *= *//p; s/^SelectType *= *//p' <<<"$conf" | paste -sd' ')" \
		"($name) slurmctld runs TopologyPlugin=topology/torus3d under select/cons_tres"
	assert_match "26\\.05\\..*" "$(sed -n 's/^SLURM_VERSION *= *//p' <<<"$conf")" "($name) Slurm 26.05"
	local topo
	topo=$(sx scontrol show topology)
	printf '%s\n' "$topo" | diag_block
	assert_eq "TorusName=t0 Dims=4x4x4 Nodes=n[1-$NODES] $#" \
		"$(head -n1 <<<"$topo") $(grep -c PlacementDims <<<"$topo")" \
		"($name) scontrol show topology: torus t0, 4x4x4, all nodes, $# placements"

	# Consecutive cancellations go out together; all of them have ended
	# (CANCELLED, nodes idle) before the next submission.
	local ev op e ending=()
	t0=$SECONDS
	for ev in "${seq[@]}" "sub"; do
		read -r op job n <<<"$ev"
		case $op in
		sub)
			for e in "${ending[@]}"; do
				wait_job_state "${sid[$e]}" CANCELLED 30 || bail_out "($name) job $e was not cancelled"
				wait_nodes_idle "${got[$e]}" 30 || bail_out "($name) nodes of job $e did not become idle"
			done
			ending=()
			[ -n "$job" ] || break # the sentinel
			sid[$job]=$(submit "$n" "$LONG_S" 20 "$job") || bail_out "sbatch of job $job failed"
			wait_job_state "${sid[$job]}" RUNNING 30 ||
				bail_out "($name) job $job (${sid[$job]}, $n nodes) did not start at once"
			got[$job]=$(job_nodes "${sid[$job]}" | sort -V | paste -sd,)
			;;
		end)
			sx scancel "${sid[$job]}"
			ending+=("$job")
			;;
		esac
	done

	diag "($name) the ${#seq[@]} events ran through Slurm in $((SECONDS - t0)) s"
	local same=0 d_drv=() d_one=()
	for job in "${order[@]}"; do
		assert_eq "${want[$job]}" "${got[$job]}" \
			"($name) job $job (${size[$job]} nodes, Slurm job ${sid[$job]}): topology/torus3d's NodeList is torus-anchor's"
		[ "${want[$job]}" = "${got[$job]}" ] && same=$((same + 1))
		[ "${got[$job]}" != "${drv[$job]}" ] && d_drv+=("$job")
		[ -z "$one" ] || [ "${got[$job]}" = "${onep[$job]:-}" ] || d_one+=("$job")
	done
	{
		printf '%-4s %5s %-7s %-26s %s\n' job nodes slurmid "topology/torus3d" "torus-anchor (derived list)"
		for job in "${order[@]}"; do
			printf '%-4s %5s %-7s %-26s %s\n' "$job" "${size[$job]}" "${sid[$job]}" \
				"$(sx scontrol show hostlist "${got[$job]}")" \
				"$(sx scontrol show hostlist "${drv[$job]:-}" 2>/dev/null)"
		done
	} | diag_block
	diag "($name) same NodeList as torus-anchor: $same of ${#order[@]}" \
		"($name) placed otherwise with the derived list: ${#d_drv[@]} of ${#order[@]} (${d_drv[*]:-none})"
	assert_match "[1-9][0-9]*" "${#d_drv[@]}" \
		"($name) the stream tells the declared placements from the derived list"
	if [ -n "$one" ]; then
		diag "($name) placed otherwise with the list in one orientation: ${#d_one[@]} of ${#order[@]} (${d_one[*]:-none})"
		assert_match "[1-9][0-9]*" "${#d_one[@]}" \
			"($name) the stream tells the rotations from the list in one orientation"
	fi

	# sizes that no placement has: refused by Slurm at submission, rejected
	# by toposim
	local out s
	for s in $refused; do
		out=$(sx sbatch --parsable -N "$s" -t 5 -o /dev/null --wrap "sleep 1" 2>&1) && sx scancel "${out%%;*}"
		assert_match ".*Requested topology configuration is not available.*" "$out" \
			"($name) sbatch -N $s (no placement of $s nodes) is refused at submission"
		printf '; MaxNodes: %s\n1 0 -1 100 %s -1 -1 %s 200 -1 1 1 1 -1 1 -1 -1 -1\n' $NODES "$s" "$s" >"$dir/odd.swf"
		assert_match ".*\"rejected\": 1,.*" \
			"$("$TOPOSIM" --workload "$dir/odd.swf" --policy fcfs --torus "$dir/torus.conf" \
				--alloc torus-anchor --jobs-csv /dev/null --summary-json - --quiet | tr -d '\n')" \
			"($name) toposim rejects the job of $s nodes"
	done
	local running
	running=$(sx squeue -h -o %i | paste -sd' ')
	# shellcheck disable=SC2086
	[ -z "$running" ] || sx scancel $running
	live_stop
}

# torus3d_test chain|rich: the whole test on one placement list.
torus3d_test() {
	case $1 in
	chain) phase chain POW2_DRAW "3 12" "" "${CHAIN[@]}" ;;
	rich) phase rich POW2_DRAW "3 12" "" "${RICH[@]}" ;;
	rot) phase rot ROT_DRAW "5 9" ROT_ONE "${ROT[@]}" ;;
	*) bail_out "torus3d_test: no placement list '$1'" ;;
	esac
	if [ "$_live_fail" = 0 ]; then rm -rf "$work"; else diag "streams and files kept in $work"; fi
	done_testing
}
