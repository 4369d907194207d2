#!/bin/bash
# bench_eval.sh: decision time of topology_g_eval_nodes() at 4,096 nodes,
# topology/fattree and topology/torus against Slurm's own topology/tree,
# on the same machine state and the same job sequence, measured in the
# same run.  The common body of bench_eval_2411.sh (Slurm 24.11) and
# bench_eval_2605.sh (Slurm 26.05), which set EVAL_SLURM and source it.
#
# The machine: WIDTH^3 nodes (default 16^3 = 4,096), a 3-level fat tree of
# WIDTH-node leaves (ftconf generate) for topology/tree and
# topology/fattree; for topology/torus the WIDTHxWIDTHxWIDTH torus with the
# nodes in the same order, so the tree is its equivalent hierarchy (leaf =
# a line of the last dimension, middle switch = a plane).  A real slurmd
# runs for n1 only (topo-cluster --nodes 1); n2.. are State=CLOUD nodes
# with power saving (Resume/SuspendProgram=/bin/true, long ResumeTimeout),
# all powered up at once (scontrol ... state=power_up: "idle#", booting
# for hours): select/cons_tres allocates them like any other node and
# their jobs stay CONFIGURING, so nothing is ever launched on them.  (Left
# powered down, they would form a node set of their own, which slurmctld
# tries after the powered-up nodes: extra eval calls no real machine
# makes.)  Whole nodes (OverSubscribe=EXCLUSIVE), sched/builtin.
#
# Slurm 26.05 adds a second torus baseline, its own topology/torus3d, on
# the same torus (topology.yaml; its x, fastest, is our last dimension).
# It gives a job a box only of a configured placement size: here every box
# shape (every orientation) of every size the sequence asks, anchored at
# every position (anchor_spacing 1x1x1, wrapping) - the boxes
# topology/torus (torus-base, BaseShapes=all) searches; TORUS3D_ANCHORS=
# tiled leaves anchor_spacing at torus3d's default, the shape itself (a
# tiling: far fewer boxes).  A size with no box shape on the torus (17,
# 254, ...) torus3d refuses at submission, where topology/torus packs it
# (Shapeless=pack); "torus-refuse", topology/torus with Shapeless=refuse,
# refuses the same sizes, so it and torus3d decide on the same jobs.
# torus3d would refuse the background's pinned runs (not boxes): there
# the background jobs go to a second partition on all nodes, "bg", whose
# topology is topology.yaml's flat one - the same jobs on the same nodes,
# placed before anything is measured.  (Restarting slurmctld with
# topology.yaml after pinning them under topology/tree does not do: the
# restarted slurmctld marks the booting CLOUD nodes NOT_RESPONDING and no
# longer schedules on them.)
# Also 26.05: cons_tres asks a plugin whose allow_one_node() is true
# (topology/tree) about a job of at most one node node by node
# (topology_g_eval_node) until one fits; such a run of calls is one
# decision here, timed as the sum of its calls.
#
# For each plugin in turn, a fresh cluster (contrib/cluster/topo-cluster
# --slurm EVAL_SLURM) with bench/eval_timer.so preloaded into slurmctld
# (which logs the thread CPU time of every topology_g_eval_nodes() and
# topology_g_eval_node() call):
#   1. background: seeded runs of busy nodes, one job pinned to each (-w),
#      about 57 % of the machine in fragments; the same nodes for every
#      plugin, so phases 2 and the start of 3 see the same state;
#   2. will-run: `sbatch --test-only` for each job of the seeded sequence
#      (sizes 1..MAXN, half of them powers of two): cons_tres's
#      SELECT_MODE_WILL_RUN in the RPC thread, on the unchanged state;
#   3. the same sequence submitted for real, one job at a time:
#      "submit"   the RPC thread (select_nodes(test_only): cons_tres's
#                 SELECT_MODE_TEST_ONLY; when refused, asked again on a
#                 larger node set, _pick_best_nodes);
#      "schedule" the main scheduler (thread sched_agent): RUN_NOW on the
#                 free nodes; when refused, TEST_ONLY on more nodes;
#      a job that does not start is cancelled before the next is
#      submitted.  From the first placement on, each plugin's own choices
#      shape the free set.
# Calls are told apart by the calling thread's name (eval_timer.c); how
# many calls one job costs depends on the plugin (a refusal leads to more
# calls), hence the per-job column.  Only the eval_nodes call is timed: no
# RPC, no job_test around it.
#
# Parameters (environment): WIDTH=16 JOBS=48 MAXN=256 SEED=1
# PLUGINS (24.11: "tree fattree torus", 26.05: "tree fattree torus
# torus-refuse torus3d"; ratios need tree, the baseline),
# TORUS3D_ANCHORS=all|tiled, TOPO_BUILDDIR (default build/bench-2411 or
# build/bench-2605; needs plugins/.libs, bench/.libs/eval_timer.so,
# src/tools/ftconf), PORT_BASE=27001, KEEP=1 keeps the work directory
# (cluster logs, eval logs).
# Needs root.  Prints the numbers and the ratios ours / topology/tree (and
# ours / topology/torus3d for the torus); asserts nothing about time.
set -Eeuo pipefail

EVAL_SLURM=${EVAL_SLURM:-24.11}
PROG=bench_eval_${EVAL_SLURM//./}
die() { echo "$PROG: $*" >&2; exit 1; }
case $EVAL_SLURM in
24.11) DEFAULT_PLUGINS="tree fattree torus" ;;
26.05) DEFAULT_PLUGINS="tree fattree torus torus-refuse torus3d" ;;
*) die "EVAL_SLURM=$EVAL_SLURM: 24.11 or 26.05" ;;
esac
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
CLUSTER=$SRC/contrib/cluster/topo-cluster
BUILDDIR=${TOPO_BUILDDIR:-$SRC/build/bench-${EVAL_SLURM//./}}
PLUGINDIR=$BUILDDIR/plugins/.libs
SHIM=$BUILDDIR/bench/.libs/eval_timer.so
FTCONF=$BUILDDIR/src/tools/ftconf
WIDTH=${WIDTH:-16} JOBS=${JOBS:-48} MAXN=${MAXN:-256} SEED=${SEED:-1}
PLUGINS=${PLUGINS:-$DEFAULT_PLUGINS}
TORUS3D_ANCHORS=${TORUS3D_ANCHORS:-all}
PORT_BASE=${PORT_BASE:-27001}
NODES=$((WIDTH * WIDTH * WIDTH))
DECIDE_S=30 # longest wait for the main scheduler's answer on one job

[ "$(id -u)" = 0 ] || die "needs root (daemons in private namespaces)"
[ -x "$FTCONF" ] || die "no $FTCONF (build with --with-slurm-version=$EVAL_SLURM; set TOPO_BUILDDIR)"
[ -e "$SHIM" ] || die "no $SHIM (make bench builds it)"
# A PLUGINS entry names a topology plugin, or a variant: torus-refuse is
# topology/torus with Shapeless=refuse.
topology_of() { echo "${1%-refuse}"; }
# Slurm's own plugins (tree; torus3d from 26.05 on) come with the daemons.
slurms_own() { [ "$1" = tree ] || [ "$1" = torus3d ]; }
for p in $PLUGINS; do
	case $p in tree | fattree | torus | torus-refuse | torus3d) ;; *) die "PLUGINS: unknown '$p'" ;; esac
	[ "$p" != torus3d ] || [ "$EVAL_SLURM" != 24.11 ] || die "topology/torus3d is Slurm 26.05's"
	slurms_own "$p" || [ -e "$PLUGINDIR/topology_$(topology_of "$p").so" ] ||
		die "no topology_$(topology_of "$p").so in $PLUGINDIR"
done
case $TORUS3D_ANCHORS in all | tiled) ;; *) die "TORUS3D_ANCHORS=$TORUS3D_ANCHORS: all or tiled" ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-eval.XXXXXX")
DIR=""
cleanup() {
	[ -z "$DIR" ] || "$CLUSTER" stop --dir "$DIR" >/dev/null 2>&1 || true
	DIR=""
	if [ "${KEEP:-0}" = 1 ]; then echo "$PROG: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'echo "$PROG: failed at line $LINENO" >&2' ERR
trap 'exit 130' INT TERM

sx() { "$CLUSTER" exec --dir "$DIR" -- "$@"; }

# ------------------------------------------------------------- the input

# The machine files and the slurm.conf lines for the cloud nodes.  Slurm
# quirk: sched/builtin takes its will-run estimate interval from the first
# "interval=" in SchedulerParameters, which would be topo-cluster's
# sched_interval=2: a leading interval= keeps that pass (timing-dependent
# extra calls) out of the run.
write_inputs() {
	"$FTCONF" generate --levels 3 --width "$WIDTH" -o "$WORK/topology.conf" >/dev/null
	printf 'Dimensions=%dx%dx%d\nNodes=n[1-%d]\n' "$WIDTH" "$WIDTH" "$WIDTH" "$NODES" >"$WORK/torus.conf"
	mkdir -p "$WORK/refuse"
	{ cat "$WORK/torus.conf"; echo "Shapeless=refuse"; } >"$WORK/refuse/torus.conf"
	cat >"$WORK/cloud.conf" <<-EOF
		NodeName=n[2-$NODES] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$((PORT_BASE + 1))-$((PORT_BASE + NODES - 1))] CPUs=1 State=CLOUD
		SuspendProgram=/bin/true
		ResumeProgram=/bin/true
		SuspendTime=36000
		SuspendTimeout=60
		ResumeTimeout=36000
		ResumeRate=0
		SuspendRate=0
		SchedulerParameters=interval=10800,sched_interval=2
	EOF
	case " $PLUGINS " in *" torus3d "*)
		torus3d_yaml >"$WORK/topology.yaml"
		{ cat "$WORK/cloud.conf"
		  echo "PartitionName=bg Nodes=ALL MaxTime=INFINITE State=UP OverSubscribe=EXCLUSIVE Topology=flat"
		} >"$WORK/cloud-torus3d.conf" ;;
	esac
}

# Every box shape X Y Z (X*Y*Z = SIZE, each at most WIDTH), one a line.
box_shapes() { # SIZE
	awk -v s="$1" -v w="$WIDTH" 'BEGIN {
		for (x = 1; x <= w; x++) for (y = 1; y <= w; y++) for (z = 1; z <= w; z++)
			if (x * y * z == s) print x, y, z }'
}

# topology.yaml for topology/torus3d: the WIDTH^3 torus, nodes in x-major
# order (node n(1 + x + WIDTH*y + WIDTH^2*z): x is our last dimension),
# every box shape of every size of the sequence, anchored everywhere (or,
# TORUS3D_ANCHORS=tiled, at multiples of the shape).
torus3d_yaml() {
	local n x y z
	printf -- '- topology: flat\n  cluster_default: false\n  flat: true\n'
	printf -- '- topology: torus\n  cluster_default: true\n  torus3d:\n    toruses:\n'
	printf '      - name: t0\n        dims: {x: %d, y: %d, z: %d}\n' "$WIDTH" "$WIDTH" "$WIDTH"
	printf '        nodes: n[1-%d]\n        placements:\n' "$NODES"
	for n in $(joblist | awk '{ print $1 }' | sort -nu); do
		while read -r x y z; do
			printf '          - dims: {x: %d, y: %d, z: %d}\n' "$x" "$y" "$z"
			[ "$TORUS3D_ANCHORS" = tiled ] ||
				printf '            anchor_spacing: {x: 1, y: 1, z: 1}\n'
		done < <(box_shapes "$n")
	done
}

# Background jobs, one "FIRST LAST LIMIT_MIN" a line: busy runs of 1..64
# nodes between free gaps of 1..48.
background() {
	awk -v n="$NODES" -v seed="$SEED" 'BEGIN { srand(seed); i = 1
		while (i <= n) {
			i += 1 + int(rand() * 48)
			if (i > n) break
			len = 1 + int(rand() * 64); last = i + len - 1
			if (last > n) last = n
			printf "%d %d %d\n", i, last, 30 + int(rand() * 1411)
			i = last + 1
		} }'
}

# The job sequence, one "NODES LIMIT_MIN" a line: half powers of two up to
# MAXN, half uniform in 1..MAXN.
joblist() {
	awk -v n="$JOBS" -v maxn="$MAXN" -v seed="$SEED" 'BEGIN { srand(seed + 1)
		e = 0; while (2 ^ (e + 1) <= maxn) e++
		for (k = 0; k < n; k++) {
			if (rand() < 0.5) s = 2 ^ int(rand() * (e + 1))
			else s = 1 + int(rand() * maxn)
			printf "%d %d\n", s, 10 + int(rand() * 591)
		} }'
}

# ------------------------------------------------------------ one plugin

# BG_PART: sbatch's partition option for the background jobs (torus3d:
# the flat partition bg; see the top).
start_cluster() { # PLUGIN
	DIR=$WORK/$1
	mkdir -p "$DIR"
	local plugin=(--topology "topology/$(topology_of "$1")") extra=$WORK/cloud.conf
	local torusconf=$WORK/torus.conf
	BG_PART=()
	slurms_own "$1" || plugin+=(--plugindir "$PLUGINDIR")
	if [ "$1" = torus3d ]; then
		plugin+=(--conf-file "$WORK/topology.yaml")
		extra=$WORK/cloud-torus3d.conf
		BG_PART=(-p bg)
	else
		plugin+=(--topology-conf "$WORK/topology.conf")
	fi
	[ "$1" != torus-refuse ] || torusconf=$WORK/refuse/torus.conf
	"$CLUSTER" start --slurm "$EVAL_SLURM" --dir "$DIR" --nodes 1 --port-base "$PORT_BASE" \
		--select select/cons_tres "${plugin[@]}" --sched sched/builtin \
		--part-opts OverSubscribe=EXCLUSIVE \
		--conf-file "$torusconf" --extra-conf "$extra" \
		--ctld-preload "$SHIM" --timeout 120 >/dev/null ||
		die "the cluster with topology/$1 did not start"
	[ "$1" != torus3d ] || torus3d_loaded || die "slurmctld did not load topology/torus3d"
	power_up
}

# scontrol's first line is the torus (read whole: grep -q would end
# the pipe early, and pipefail turn that into a failure).
torus3d_loaded() {
	local topo
	topo=$(sx scontrol show topology 2>&1) || true
	[[ $topo == "TorusName=t0 Dims=${WIDTH}x${WIDTH}x${WIDTH} "* ]] && return 0
	echo "$PROG: scontrol show topology: ${topo:0:200}" >&2
	return 1
}

# Every cloud node "booting" (idle#), none powered down (idle~).
power_up() {
	local t
	sx scontrol update nodename="n[2-$NODES]" state=power_up
	for ((t = 0; t < 300; t++)); do
		sx sinfo -h -o %t | grep -q '~' || return 0
		sleep 0.1
	done
	die "cloud nodes still powered down after scontrol ... state=power_up"
}

# slurmctld's resident memory (kB), at the end of a plugin's run.
ctld_rss() {
	local pid
	pid=$(awk '$1 == "slurmctld" { print $2 }' "$DIR/pids" | tail -1)
	awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0
}

calls() { if [ -f "$DIR/eval_timer.log" ]; then wc -l <"$DIR/eval_timer.log"; else echo 0; fi; }

# Pin the background jobs (four sbatch at a time) and wait until every one
# holds its nodes.
place_background() {
	local nbg t
	nbg=$(background | wc -l)
	# shellcheck disable=SC2016 # expanded by sh, from xargs' arguments
	background | xargs -P 4 -L 1 sh -c \
		'"$0" exec --dir "$1" -- sbatch $2 -Q -w "n[$3-$4]" -N $(($4 - $3 + 1)) -t "$5" -J bg -o /dev/null --wrap "sleep 1000000"' \
		"$CLUSTER" "$DIR" "${BG_PART[*]:-}"
	for ((t = 0; t < 600; t++)); do
		[ "$(sx squeue -h -t CF,R -o %i | wc -l)" = "$nbg" ] && return 0
		sleep 0.1
	done
	die "only $(sx squeue -h -t CF,R -o %i | wc -l) of $nbg background jobs started"
}

will_run_phase() {
	local n lim
	while read -r n lim; do
		sx sbatch --test-only -N "$n" -t "$lim" -J wr --wrap true >/dev/null 2>&1 || true
	done < <(joblist)
}

# started | refused: the main scheduler's answer on job ID; a refused job is
# cancelled so that it is never evaluated again.
decision() { # ID
	local t st reason
	for ((t = 0; t < DECIDE_S * 10; t++)); do
		read -r st reason < <(sx squeue -h -j "$1" -o '%T %r' 2>/dev/null || true) || true
		case ${st:-} in
		PENDING) [ "$reason" = None ] || break ;;
		"") echo gone; return 0 ;;
		*) echo started; return 0 ;;
		esac
		sleep 0.1
	done
	sx scancel "$1"
	echo refused
}

# A job the plugin can never place (e.g. no box of that size on the torus)
# is rejected at submission (REJECTED).
sequence_phase() { # -> STARTED REJECTED
	local n lim id
	STARTED=0 REJECTED=0
	while read -r n lim; do
		if ! id=$(sx sbatch --parsable -N "$n" -t "$lim" -J rn -o /dev/null \
			--wrap "sleep 1000000" 2>/dev/null); then
			REJECTED=$((REJECTED + 1))
			continue
		fi
		if [ "$(decision "${id%%;*}")" = started ]; then STARTED=$((STARTED + 1)); fi
	done < <(joblist)
}

# Lines FROM..TO of the eval log go to WORK/PLUGIN.calls tagged with their
# phase: will-run (RPC thread, phase 2), submit (RPC thread, phase 3),
# schedule (sched_agent, phase 3), other (any other thread).  A thread's
# run of eval_node calls up to the first node that fits is one decision
# (the sum of its calls; a run that finds none ends at the thread's next
# eval_nodes call).
decisions() { # FROM TO-WILL-RUN TO
	awk -v l0="$1" -v l1="$2" -v l2="$3" '
		function flush(t) {
			if (!(t in gph)) return
			print gph[t], gc[t], gw[t], grc[t]
			delete gph[t]
		}
		NR > l0 && NR <= l2 {
			ph = NR <= l1 ? "will-run" : "submit"
			if ($3 == "sched_agent") ph = "schedule"
			else if ($3 !~ /^worker/) ph = "other"
			if ($7 != "node") { flush($2); print ph, $4, $5, $6; next }
			if (!($2 in gph)) { gph[$2] = ph; gc[$2] = gw[$2] = 0 }
			gc[$2] += $4; gw[$2] += $5; grc[$2] = $6
			if ($6 == 0) flush($2)
		}
		END { for (t in gph) flush(t) }' "$DIR/eval_timer.log"
}

run_plugin() { # PLUGIN
	local l0 l1 l2 nodecalls
	start_cluster "$1"
	place_background
	# The background jobs were placed through eval_nodes: no call logged
	# means the shim was not interposed.
	[ "$(calls)" -gt 0 ] || die "topology/$1: no eval_nodes call recorded (eval_timer.so not interposed?)"
	l0=$(calls)
	will_run_phase
	l1=$(calls)
	[ "$l1" -gt "$l0" ] || die "topology/$1: no eval_nodes call recorded for the will-run queries"
	sequence_phase
	l2=$(calls)
	decisions "$l0" "$l1" "$l2" >"$WORK/$1.calls"
	nodecalls=$(awk -v l0="$l0" -v l2="$l2" 'NR > l0 && NR <= l2 && $7 == "node"' "$DIR/eval_timer.log" | wc -l)
	echo "$1 $((l1 - l0)) $((l2 - l1)) $STARTED $REJECTED $nodecalls $(ctld_rss)" >>"$WORK/runs"
	"$CLUSTER" stop --dir "$DIR" >/dev/null
	DIR=""
}

# ------------------------------------------------------------- the report

# One line per (plugin, phase): calls, calls that chose nodes (rc 0), CPU
# time per call (mean, median, max; microseconds), mean wall time per call,
# CPU time per job of the sequence (microseconds).
stats() { # PLUGIN
	sort -k1,1 -k2,2n "$WORK/$1.calls" | awk -v p="$1" -v jobs="$JOBS" '
		function flush() {
			if (!n) return
			med = n % 2 ? c[(n + 1) / 2] : (c[n / 2] + c[n / 2 + 1]) / 2
			printf "%s %s %d %d %.1f %.1f %.1f %.1f %.1f\n", p, ph, n, ok,
				sum / n / 1000, med / 1000, c[n] / 1000, wsum / n / 1000, sum / jobs / 1000
		}
		$1 != ph { flush(); ph = $1; n = ok = sum = wsum = 0 }
		{ c[++n] = $2; sum += $2; wsum += $3; ok += ($4 == 0) }
		END { flush() }'
}

# Ratios PLUGIN / BASE for every plugin in PLUGINS (not BASE itself),
# phase by phase (BASE's lines read first).
ratios() { # BASE PLUGIN...
	local base=$1
	shift
	awk -v base="$base" -v plugins=" $* " '
		NR == FNR { if ($1 == base) { m[$2] = $5; d[$2] = $6; t[$2] = $9 }; next }
		$1 != base && index(plugins, " " $1 " ") && m[$2] > 0 && d[$2] > 0 && t[$2] > 0 {
			printf "ratio topology/%s / topology/%s, %-9s mean_cpu %.3f  median_cpu %.3f  cpu_per_job %.3f\n",
				$1, base, $2, $5 / m[$2], $6 / d[$2], $9 / t[$2] }' "$WORK/stats" "$WORK/stats"
}

report() {
	local p
	for p in $PLUGINS; do stats "$p"; done >"$WORK/stats"
	printf '%-12s %-9s %6s %6s %11s %10s %10s %12s %11s\n' plugin phase calls placed \
		mean_cpu_us med_cpu_us max_cpu_us mean_wall_us cpu_us/job
	awk '{ printf "%-12s %-9s %6d %6d %11.1f %10.1f %10.1f %12.1f %11.1f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$WORK/stats"
	awk '{ printf "runs: topology/%s: %d will-run queries -> %d calls; %d jobs submitted -> %d calls, %d started, %d rejected at submission",
		$1, jobs, $2, jobs, $3, $4, $5
		if ($6) printf "; %d of the calls eval_node (one-node decisions)", $6
		printf "; slurmctld VmRSS %.1f MiB\n", $7 / 1024 }' jobs="$JOBS" "$WORK/runs"
	# shellcheck disable=SC2086 # one word per plugin
	ratios tree $PLUGINS
	# (only the plugins that ran have lines)
	ratios torus3d torus torus-refuse
}

write_inputs
echo "$PROG: Slurm $EVAL_SLURM, $NODES nodes (3-level tree of width $WIDTH / ${WIDTH}x${WIDTH}x${WIDTH} torus)," \
	"$(background | wc -l) background jobs on $(background | awk '{ s += $2 - $1 + 1 } END { print s }') nodes," \
	"$JOBS jobs of 1..$MAXN nodes, seed $SEED; CPU time of the calling thread per topology_g_eval_nodes() call"
if [ -f "$WORK/topology.yaml" ]; then
	echo "$PROG: topology/torus3d: $(grep -c '  - dims:' "$WORK/topology.yaml") placements" \
		"(every box shape of each of the sequence's sizes; anchors: $TORUS3D_ANCHORS)," \
		"$(joblist | awk '{ print $1 }' | sort -nu |
			while read -r n; do [ -n "$(box_shapes "$n")" ] || echo "$n"; done | paste -sd, -) nodes: no box shape"
fi
for p in $PLUGINS; do run_plugin "$p"; done
report
