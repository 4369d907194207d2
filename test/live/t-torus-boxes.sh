#!/bin/bash
# Live test of select/torus (LIVE_SLURM=24.11: topology/torus under
# select/cons_tres, t-torus-24.11.sh) on a 64-node 4x4x2x2 torus (all rings,
# torus.conf beside slurm.conf without Method=: the default, compact),
# multiple-slurmd mode, and on the same nodes as a 5D torus with
# Method=mss (c):
#  (a) a job sequence replayed live gives every job a box of the torus, the
#      very box the core predicts: toposim --alloc torus-compact --policy
#      fcfs on an SWF of the same sequence (each start immediate, one event at a
#      time: submit and wait until RUNNING, scancel where the SWF job ends
#      and wait until its nodes are idle again);
#  (b) a node set DOWN is never allocated, the free space around it is
#      packed as the core predicts with that node held by a job forever;
#  (c) restarted with a 5D torus.conf (4x2x2x2x2, Method=mss), a sequence
#      as in (a), predicted by toposim --alloc torus-mss;
#  each RUN_NOW placement is logged with its box (DebugFlags=SelectType).
# The box check is independent of the plugin: a node set is a box iff in
# every dimension its coordinates form one cyclic interval and it has as
# many nodes as the product of the interval lengths.
# shellcheck source=test/live/lib.sh
. "$(dirname "$0")/lib.sh"

live_require
BUILDDIR=${TOPO_BUILDDIR:-}
TOPOSIM=${BUILDDIR:+$BUILDDIR/src/sim/toposim}
PLUGIN=$(placement_plugin torus)
SO=${PLUGIN/\//_}.so
if [ -z "${TOPO_PLUGINDIR:-}" ] || [ ! -e "$TOPO_PLUGINDIR/$SO" ]; then
	skip_all "$SO not built (TOPO_PLUGINDIR=${TOPO_PLUGINDIR:-unset})"
fi
# How a RUN_NOW placement is logged (DebugFlags=SelectType): 22.05's
# job_test names its mode; 24.11's eval_nodes runs for every mode alike.
if topology_series; then RUN_TAG=":"; else RUN_TAG=" RUN_NOW:"; fi
[ -x "$TOPOSIM" ] || skip_all "toposim not built (TOPO_BUILDDIR=${BUILDDIR:-unset})"

DIMS=4x4x2x2
NODES=64
# the method in force: torus.conf's default, until (c) names mss
METHOD=compact

# Seconds since T0 (date +%s.%N), to 0.1 s.
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# ------------------------------------------------------------ the cluster

# torus.conf must lie beside slurm.conf before slurmctld starts: make the
# cluster directory with a 1-node cluster, stop it, add the files, start
# the real one in the same directory.
live_start --nodes 1
"$TOPO_CLUSTER" stop --dir "$LIVE_DIR" 2>&1 | diag_block
cat >"$LIVE_DIR/torus.conf" <<EOF
# $NODES nodes, row-major with the last dimension fastest
Dimensions=$DIMS
Nodes=n[1-$NODES]
EOF
printf 'DebugFlags=SelectType\nSlurmctldDebug=verbose\n' >"$LIVE_DIR/extra.conf"
CTLD_LOG=$LIVE_DIR/log/slurmctld.log

# Start the cluster in LIVE_DIR with its torus.conf; check that slurmctld
# logged the torus of $DIMS.
start_cluster() {
	local t0 out
	t0=$(date +%s.%N)
	# shellcheck disable=SC2046
	if ! out=$("$TOPO_CLUSTER" start --dir "$LIVE_DIR" --nodes $NODES ${LIVE_SLURM:+--slurm $LIVE_SLURM} \
		$(placement_args torus) --plugindir "$TOPO_PLUGINDIR" \
		--extra-conf "$LIVE_DIR/extra.conf" 2>&1); then
		printf '%s\n' "$out" | diag_block
		bail_out "the $PLUGIN cluster did not start"
	fi
	printf '%s\n' "$out" | diag_block
	diag "start-up of the $NODES-node cluster: $(elapsed "$t0") s"
	assert_match ".*$PLUGIN: torus $LIVE_DIR/torus.conf: $DIMS, $NODES nodes, Ntransit=0, allocator torus-$METHOD .from torus.conf Method=.*" \
		"$(grep "$PLUGIN: torus " "$CTLD_LOG" | tail -n1)" \
		"slurmctld found torus.conf ($DIMS) beside slurm.conf and logged the torus, allocator torus-$METHOD"
}
start_cluster
assert_eq "$NODES idle" "$(sx sinfo -h -o '%D %t')" "sinfo (client loads $SO) shows $NODES idle nodes"

# ------------------------------------------------------------ helpers

# box_of NAME...: "off=a,b,c,d len=p,q,r,s" of the box the nodes n<i>
# (index i-1) form on the torus, or "none".
box_of() {
	printf '%s\n' "$@" | sed -n 's/^n//p' | awk -v dims="$DIMS" '
	BEGIN { n = split(dims, d, "x") }
	{
		idx = $1 - 1; cnt++
		for (i = n; i >= 1; i--) { used[i, idx % d[i]] = 1; idx = int(idx / d[i]) }
	}
	END {
		if (!cnt) { print "none"; exit }
		prod = 1
		for (i = 1; i <= n; i++) {
			k = 0; starts = 0; st = 0
			for (p = 0; p < d[i]; p++) {
				if (!((i, p) in used)) continue
				k++
				q = p > 0 ? p - 1 : d[i] - 1   # ring: 0 follows d-1
				if (!((i, q) in used)) { starts++; st = p }
			}
			if (k < d[i] && starts != 1) { print "none"; exit }
			if (k == d[i]) st = 0
			prod *= k
			off = off (i > 1 ? "," : "") st; len = len (i > 1 ? "," : "") k
		}
		print (prod == cnt ? "off=" off " len=" len : "none")
	}'
}

# The SWF of a sequence "SIZE:ENDSLOT ...": job i is submitted at 10*i and
# ends at 10*ENDSLOT+5 (ENDSLOT 0: runs past the end of the test).
make_swf() {
	local i=0 spec size slot run
	echo "; MaxNodes: $NODES"
	echo "; MaxProcs: $NODES"
	for spec in "$@"; do
		i=$((i + 1)) size=${spec%:*} slot=${spec#*:}
		if [ "$slot" = 0 ]; then run=100000; else run=$((10 * slot + 5 - 10 * i)); fi
		echo "$i $((10 * i)) -1 $run $size -1 -1 $size $((run + 60)) -1 1 1 1 1 1 1 -1 -1"
	done
}

# predict SWF: "ID SUBMIT START NODE..." per job (names sorted), from
# toposim with the same torus.conf and method.
predict() {
	"$TOPOSIM" -w "$1" -p fcfs --torus "$LIVE_DIR/torus.conf" --alloc "torus-$METHOD" \
		--jobs-csv "$1.csv" --summary-json /dev/null --quiet || return 1
	tail -n +2 "$1.csv" |
		sed -E 's/^([^,]*),([^,]*),([^,]*),[^"]*"([^"]*)".*/\1 \2 \3 \4/' |
		while read -r id sub st nl; do
			echo "$id $sub $st $(expand_hostlist "$nl" | sort -V | paste -sd' ')"
		done | sort -n
}

# Wait until every node of the list is idle (after a job's epilog).
wait_idle() {
	local l=$1 end=$(($(date +%s) + 30)) st
	while :; do
		st=$(sx sinfo -h -N -n "$l" -o '%t' | sort -u | paste -sd' ')
		[ "$st" = idle ] && return 0
		[ "$(date +%s)" -lt "$end" ] || { diag "nodes $l still '$st' after 30 s"; return 1; }
		sleep 0.2
	done
}

# replay SWF [DOWN_ID]: run the SWF's events live in time order.  Job
# DOWN_ID is not run: its predicted node is set DOWN instead (it holds that
# node forever in the SWF).  Fills LIVE[swf id] = sorted node names and
# SLURM_ID[swf id].
declare -A LIVE SLURM_ID PRED
replay() {
	local swf=$1 down_id=${2:-} t kind id size jid nl
	while read -r t kind id size; do
		case $kind in
		S)
			if [ "$id" = "$down_id" ]; then
				sx scontrol update nodename="${PRED[$id]}" state=down reason=torus-live-test
				LIVE[$id]=${PRED[$id]}
				continue
			fi
			jid=$(submit "$size" 3000 60 "t$id") || return 1
			SLURM_ID[$id]=$jid
			wait_job_state "$jid" RUNNING 30 || return 1
			LIVE[$id]=$(job_nodes "$jid" | sort -V | paste -sd' ')
			;;
		E)
			jid=${SLURM_ID[$id]}
			nl=$(job_nodelist "$jid")
			sx scancel "$jid"
			wait_job_state "$jid" CANCELLED 30 || return 1
			wait_idle "$nl" || return 1
			;;
		esac
	done < <(awk '!/^;/ { print $2, "S", $1, $5; if ($4 < 100000) print $2 + $4, "E", $1 }' "$swf" | sort -n -k1,1)
}

# check_sequence NAME SWF [DOWN_ID]: predicted vs live, boxes, logs.
check_sequence() {
	local name=$1 swf=$2 down_id=${3:-} id sub st nodes pred="" live="" nobox="" badlog="" box lb
	local p
	unset LIVE SLURM_ID PRED
	declare -gA LIVE SLURM_ID PRED
	p=$(predict "$swf") || bail_out "toposim failed on $swf"
	while read -r id sub st nodes; do
		PRED[$id]=$nodes
		[ "$sub" = "$st" ] || bail_out "$name: the sequence is not all immediate starts (job $id waits in toposim)"
	done <<<"$p"
	local t1
	t1=$(date +%s.%N)
	replay "$swf" "$down_id" || fail "$name: the live replay stopped (see diagnostics)"
	diag "$name: live replay of $(grep -vc '^;' "$swf") jobs took $(elapsed "$t1") s"
	while read -r id sub st nodes; do
		[ "$id" = "$down_id" ] && continue
		pred+="job $id: $nodes"$'\n'
		live+="job $id: ${LIVE[$id]:-}"$'\n'
		# shellcheck disable=SC2086
		box=$(box_of ${LIVE[$id]:-})
		[ "$box" = none ] && nobox+=" $id(${LIVE[$id]:-})"
		# the RUN_NOW log line names the same box and nodes
		lb=$(grep -E "$PLUGIN: JobId=${SLURM_ID[$id]:-x}$RUN_TAG " "$CTLD_LOG" | tail -n1 |
			sed -nE 's/.* (box_off=[^ ]*) (box_len=[^ ]*) .*NodeList=([^ ]*) .*/\1 \2 \3/p')
		[ "$lb" = "box_${box/ len/ box_len} $(job_nodelist "${SLURM_ID[$id]:-x}")" ] ||
			badlog+=" $id(log '$lb', box '$box')"
	done <<<"$p"
	assert_eq "$pred" "$live" "$name: every job got the core's predicted nodes (toposim torus-$METHOD fcfs)"
	assert_eq "" "$nobox" "$name: every job's NodeList is a box of the $DIMS torus"
	assert_eq "" "$badlog" "$name: each placement is logged with its box and NodeList"
}

# Cancel every job and wait until all nodes but DOWN ones are idle.
clear_jobs() {
	local end=$(($(date +%s) + 60))
	sx scancel --user=root 2>/dev/null
	while [ -n "$(sx squeue -h -o %i)" ]; do
		[ "$(date +%s)" -lt "$end" ] || { diag "jobs left: $(sx squeue -h -o '%i %T')"; return 1; }
		sleep 0.3
	done
}

# ------------------------------------------------------------ (a) boxes

# Sizes 1..12 with a shape on 4x4x2x2 (3, 6 and 12 too); jobs 1, 4 and 11
# end on the way, so later jobs go into the holes they leave.
make_swf 3:5 4:0 6:0 1:9 4:0 4:0 8:0 12:0 8:0 2:0 3:12 8:0 2:0 4:0 1:0 >"$LIVE_DIR/a.swf"
check_sequence "(a) sequence" "$LIVE_DIR/a.swf"
# The sequence tells the methods apart: base, fs and mss place it
# differently.
for m in base fs mss; do
	"$TOPOSIM" -w "$LIVE_DIR/a.swf" -p fcfs --torus "$LIVE_DIR/torus.conf" --alloc torus-$m \
		--jobs-csv "$LIVE_DIR/a-$m.csv" --summary-json /dev/null --quiet
	assert_ne "$(sort "$LIVE_DIR/a.swf.csv" | md5sum)" "$(sort "$LIVE_DIR/a-$m.csv" | md5sum)" \
		"(a) torus-$m would place the sequence differently (the test tells compact from $m)"
done
assert_snapshot_disjoint "(a) no node under two running jobs"
clear_jobs || fail "(a) jobs did not end after scancel"

# ------------------------------------------------------------ (b) DOWN

# Jobs 1-3 fill the torus but one node, job 4 would take that node forever
# (it is set DOWN instead), 1-3 end, and jobs 5-11 (63 nodes in all, one
# 16-node job ending on the way) pack the free space around it.
make_swf 16:4 12:4 3:4 1:0 32:0 16:9 8:0 4:0 2:0 16:0 1:0 >"$LIVE_DIR/b.swf"
p=$(predict "$LIVE_DIR/b.swf") || bail_out "toposim failed on b.swf"
X=$(awk '$1 == 4 { print $4 }' <<<"$p")
diag "(b) the node set DOWN: $X (where the core puts a 1-node job after jobs 1-3)"
check_sequence "(b) with $X DOWN" "$LIVE_DIR/b.swf" 4
assert_match "down\*?" "$(node_state "$X")" "(b) $X is DOWN"
on_x=""
for id in "${!SLURM_ID[@]}"; do
	[ "$id" -gt 4 ] || continue # started before the DOWN
	job_nodes "${SLURM_ID[$id]}" | grep -qx "$X" && on_x+=" ${SLURM_ID[$id]}"
done
assert_eq "" "$on_x" "(b) no job started after the DOWN got $X"
assert_eq "" "$(sx sinfo -h -t idle -o %N)" "(b) the boxes around $X use every other node"
clear_jobs || fail "(b) jobs did not end after scancel"
whole=$(submit $NODES 5 1 whole) || bail_out "sbatch failed"
half=$(submit 32 5 1 half) || bail_out "sbatch failed"
wait_job_state "$half" RUNNING 30
hn=$(job_nodes "$half" | sort -V | paste -sd' ')
# shellcheck disable=SC2086
assert_match "off=.* len=.*" "$(box_of $hn)" "(b) a 32-node job submitted after a $NODES-node one runs in a box ($hn)"
assert_excludes "$(job_nodelist "$half")" "$X" "(b) ... that avoids $X"
assert_eq PENDING "$(job_state "$whole")" "(b) the $NODES-node job $whole waits while $X is DOWN"
sx scancel "$whole" "$half"
clear_jobs || fail "(b) jobs did not end after scancel"

# ------------------------------------------------------------ options

# --exclude: the excluded nodes are simply not candidates.
ex=$(submit 8 30 1 excl -x "n[1-32]") || bail_out "sbatch failed"
wait_job_state "$ex" RUNNING 30
ex_nodes=$(job_nodes "$ex" | sort -V | paste -sd' ')
# shellcheck disable=SC2086
assert_match "off=.* len=.*" "$(box_of $ex_nodes)" "-x n[1-32]: the 8-node job runs in a box ($ex_nodes)"
# shellcheck disable=SC2086
assert_eq "" "$(comm -12 <(printf '%s\n' $ex_nodes | sort) <(seq -f 'n%.0f' 1 32 | sort) | paste -sd' ')" \
	"-x n[1-32]: ... of none of the excluded nodes"
# --nodelist naming a box: select/linear takes exactly those nodes.
req=$(submit 8 30 1 req -w "n[1-4,17-20]") || bail_out "sbatch failed"
wait_job_state "$req" RUNNING 30
assert_eq "n[1-4,17-20]" "$(job_nodelist "$req")" "-w n[1-4,17-20] (a box) runs on exactly those nodes"
# A size without a box shape on 4x4x2x2 (and no transit nodes) would never
# get a box: with Shapeless=pack (the default) it runs on 5 nodes of a
# free 6-node box, as Slurm would run it, neither refused nor pending.
p5=$(submit 5 30 1 pack5) || bail_out "sbatch -N 5 failed"
wait_job_state "$p5" RUNNING 30
assert_eq 5 "$(job_field "$p5" NumNodes)" "a 5-node job (no box shape) runs on 5 nodes"
p5_nodes=$(job_nodes "$p5" | sort -V | paste -sd' ')
# shellcheck disable=SC2086
assert_eq none "$(box_of $p5_nodes)" "... which are not a box ($p5_nodes)"
sx scancel "$ex" "$req" "$p5"

# ------------------------------------------------------------ (c) 5D

# The same 64 nodes as a five-dimensional torus (4x2x2x2x2, all rings):
# slurmctld restarted with the new torus.conf places a sequence of
# power-of-two sizes (each has box shapes there), jobs 1 and 3 ending on
# the way, in the boxes the core predicts.
clear_jobs || fail "(c) jobs did not end after scancel"
"$TOPO_CLUSTER" stop --dir "$LIVE_DIR" 2>&1 | diag_block
DIMS=4x2x2x2x2
METHOD=mss
sed -i "s/^Dimensions=.*/Dimensions=$DIMS/" "$LIVE_DIR/torus.conf"
echo "Method=mss" >>"$LIVE_DIR/torus.conf"
start_cluster
make_swf 8:4 4:0 16:6 2:0 1:0 8:0 4:0 2:0 16:0 >"$LIVE_DIR/c.swf"
check_sequence "(c) 5D" "$LIVE_DIR/c.swf"

done_testing
