#!/usr/bin/env bash
# torus-head-to-head.sh - our topology/torus (torus.conf Method=mss, fs,
# base, anchor) against Slurm 26.05's own topology/torus3d, live, on a
# 4x4x4 torus (64 nodes, n1..n64 in x-major order), on the same seeded
# job streams.
#
# One cluster at a time (contrib/cluster/topo-cluster, Slurm 26.05,
# select/cons_tres, sched/backfill, whole-node partition
# OverSubscribe=EXCLUSIVE).  Two size mixes, each job's size drawn
# uniformly from six:
#   pow2  1 2 4 8 16 32; torus3d's placement chain (x, y, z) 1x1x1,
#         2x1x1, 2x2x1, 2x2x2, 4x2x2, 4x4x2, 4x4x4
#   odd   3 6 9 12 18 24; chain 3x1x1, 3x2x1, 3x3x1, 3x2x2, 3x3x2, 3x4x2
# One placement per size, the most compact box the torus has, as
# torus3d's documentation recommends: torus3d places a job of s nodes
# only on a placement of exactly s nodes and refuses any other size
# (eval_nodes: ESLURM_REQUESTED_TOPO_CONFIG_UNAVAILABLE), so every size
# of a mix needs a placement, and a size with no box on 4x4x4 (5, 7, 10,
# 11, 13, ...) cannot run under torus3d at all; the odd mix keeps to
# sizes that are boxes.  anchor_spacing stays at its default (the
# placement's dimensions; a side of 3 steps 3 on a ring of 4, which
# reaches every position).  Ours gets the torus.conf
# test/live/torus3d-conf.sh writes for the same torus and chain, with
# Method=X.  Streams: `sleep` 3..6 s, gaps moderate 1.0-3.0 s or heavy
# 0.0-1.0 s; sizes, sleeps and gaps depend only on the seed (the k-th
# size of one mix goes with the k-th of the other, so both mixes of a
# seed share arrivals and sleeps).
#
# Metrics per run (contrib/torus-h2h-summary.py computes them from the
# records; times are Slurm's whole seconds; a job holds its nodes for
# start <= t < end):
#   distance       mean pairwise wrap-around Manhattan distance of a
#                  multi-node job's nodes, averaged over multi-node jobs
#   box            multi-node jobs whose nodes are a box (each axis's
#                  coordinates a cyclic interval, count = product)
#   fragmentation  for each job at its start second (after every start of
#                  that second): 1 - L/f, f the free nodes, L the nodes of
#                  the largest free box (any a x b x c, any anchor, with
#                  wraparound); samples with f = 0 left out; the mean
#   blocked while free  waited job-seconds s (submit < s < start) in
#                  which the free node count was >= the job's size in
#                  second s and in s - 1 (a second of grace for whole
#                  seconds and the next scheduling pass), as a share of
#                  all waited job-seconds; it counts waits for shape and
#                  waits for order (backfill keeping nodes for an earlier
#                  job); "of it no box free": the part in which also no
#                  box of exactly the job's size was free (shape)
#   mean wait, makespan (last end - first submit), jobs not COMPLETED
# It prints one table per size mix and load (means over seeds) and one
# row per run, as markdown.
#
# Usage: torus-head-to-head.sh PLUGINDIR [--seeds "1 2 3"] [--loads "moderate heavy"]
#          [--mixes "pow2 odd"] [--methods "mss fs base anchor torus3d"]
#          [--jobs N (30)] [--records FILE]
#        torus-head-to-head.sh --summary FILE   (the tables of a records file)
#   PLUGINDIR  a directory with topology_torus.so built for Slurm 26.05
#              (BUILD/plugins/.libs)
#   --records  append "plugin seed load mix job nodes sleep submit start
#              end state nodelist dist box nodes" per job
# Needs root (network namespaces, daemons).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seeds="1 2 3" loads="moderate heavy" mixes="pow2 odd" methods="mss fs base anchor torus3d" jobs=30 records=""
summary=""
plugindir=""
while [ $# -gt 0 ]; do
	case $1 in
	--seeds) seeds=${2:?}; shift 2 ;;
	--loads) loads=${2:?}; shift 2 ;;
	--mixes) mixes=${2:?}; shift 2 ;;
	--summary) summary=${2:?}; shift 2 ;;
	--methods) methods=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--records) records=${2:?}; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "torus-head-to-head: unknown option '$1'" >&2; exit 2 ;;
	*) plugindir=$(realpath -- "$1"); shift ;;
	esac
done
die() { echo "torus-head-to-head: $*" >&2; exit 1; }
note() { echo "torus-head-to-head: $*" >&2; }
summarise() { python3 "$root/contrib/torus-h2h-summary.py" "$1"; }
if [ -n "$summary" ]; then
	[ -r "$summary" ] || die "--summary: cannot read '$summary'"
	summarise "$summary"
	exit
fi
[ "$(id -u)" = 0 ] || die "must run as root"
[ -n "$plugindir" ] && [ -e "$plugindir/topology_torus.so" ] || die "PLUGINDIR with topology_torus.so needed"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs: not a positive integer: '$jobs'"
for m in $methods; do case $m in mss | fs | base | anchor | torus3d) ;; *) die "--methods: unknown '$m'" ;; esac; done
for l in $loads; do case $l in moderate | heavy) ;; *) die "--loads: unknown '$l'" ;; esac; done
for x in $mixes; do case $x in pow2 | odd) ;; *) die "--mixes: unknown '$x'" ;; esac; done
# shellcheck source=test/live/torus3d-conf.sh
. "$root/test/live/torus3d-conf.sh"
cluster=$root/contrib/cluster/topo-cluster

work=$(mktemp -d "${TMPDIR:-/tmp}/torus-h2h.XXXXXX")
cur=""
cleanup() { [ -z "$cur" ] || "$cluster" stop --dir "$cur" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[ -n "$records" ] || records=$work/records
records=$(realpath -m -- "$records")
: >"$records"
"$cluster" prepare --slurm 26.05 >&2 || die "topo-cluster prepare --slurm 26.05 failed"

# Sizes of each mix; index k of one mix goes with index k of the other,
# so for one seed both mixes share arrival times and sleeps.
# shellcheck disable=SC2034
size_pow2=(1 2 4 8 16 32) size_odd=(3 6 9 12 18 24)
# torus3d's placement chain per mix (x, y, z): one box per size, the
# most compact the 4x4x4 torus allows; anchor_spacing left at its
# default (the placement's dimensions: a length-3 side steps 3 on a ring
# of 4, which reaches all 4 positions).
# shellcheck disable=SC2034 # read through ${!place}
place_pow2="1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2 4x4x4"
# shellcheck disable=SC2034
place_odd="3x1x1 3x2x1 3x3x1 3x2x2 3x3x2 3x4x2"

# make_stream SEED LOAD MIX: n_of, sleep_of, at_of (tenths of a second).
make_stream() {
	local i r at=0
	local -n sizes=size_$3
	RANDOM=$1
	n_of=() sleep_of=() at_of=()
	for ((i = 0; i < jobs; i++)); do
		n_of[i]=${sizes[RANDOM % 6]}
		sleep_of[i]=$((3 + RANDOM % 4))
		r=$RANDOM
		at_of[i]=$at
		if [ "$2" = heavy ]; then at=$((at + r % 11)); else at=$((at + 10 + r % 21)); fi
	done
}

# run_one PLUGIN SEED LOAD MIX: one cluster, the stream, records appended.
run_one() {
	local p=$1 seed=$2 load=$3 mix=$4 d=$work/$1.$2.$3.$4 i id args t0 pause deadline place
	place=place_$mix
	mkdir -p "$d/conf"
	# shellcheck disable=SC2086
	torus3d_confs "$d/conf" 4 4 4 'n[1-64]' ${!place}
	echo "MinJobAge=3600" >"$d/conf/extra.conf"
	if [ "$p" = torus3d ]; then
		read -ra args <<<"$(torus3d_cluster_args "$d/conf" 64)"
		want="topology/torus3d"
	else
		sed -i "s/^Method=.*/Method=$p/" "$d/conf/torus.conf"
		args=(--slurm 26.05 --nodes 64 --select select/cons_tres --topology topology/torus
			--part-opts OverSubscribe=EXCLUSIVE --conf-file "$d/conf/torus.conf")
		want="topology/torus"
	fi
	cur=$d/c
	"$cluster" start --dir "$cur" "${args[@]}" --sched sched/backfill --plugindir "$plugindir" \
		--extra-conf "$d/conf/extra.conf" >"$d/start.log" 2>&1 ||
		{ tail -n 20 "$d/start.log" >&2; die "$p: cluster did not start"; }
	sx() { "$cluster" exec --dir "$cur" -- "$@"; }
	got=$(sx scontrol show config | sed -n 's/^TopologyPlugin *= *//p')
	[ "$got" = "$want" ] || die "$p: TopologyPlugin is '$got', not '$want'"
	declare -gA id_of=()
	t0=$(date +%s.%N)
	for ((i = 0; i < jobs; i++)); do
		pause=$(awk -v t0="$t0" -v at="${at_of[i]}" -v now="$(date +%s.%N)" \
			'BEGIN { d = t0 + at / 10 - now; printf "%.2f", (d > 0 ? d : 0) }')
		sleep "$pause"
		id=$(sx sbatch --parsable -N "${n_of[i]}" -t 1 -J "t$((i + 1))" -o /dev/null \
			--wrap "sleep ${sleep_of[i]}" 2>&1) || die "$p: sbatch of job $((i + 1)) failed: $id"
		id_of[$i]=${id%%;*}
	done
	deadline=$(($(date +%s) + 600))
	while [ "$(sx squeue -h -o %i | wc -l)" != 0 ]; do
		[ "$(date +%s)" -lt "$deadline" ] || die "$p: jobs still queued after 600 s"
		sleep 1
	done
	sx scontrol -o show job >"$d/show" || die "$p: scontrol show job failed"
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
		print f["JobId"], f["JobState"], f["NodeList"], f["SubmitTime"], f["StartTime"], f["EndTime"] }' \
		"$d/show" >"$d/parsed"
	for ((i = 0; i < jobs; i++)); do
		read -r _ st nl s b e < <(awk -v id="${id_of[$i]}" '$1 == id' "$d/parsed") ||
			die "$p: job ${id_of[$i]} unknown"
		nodes=$(sx scontrol show hostnames "$nl" | sed 's/^n//' | paste -sd,)
		echo "$p $seed $load $mix $((i + 1)) ${n_of[i]} ${sleep_of[i]} $(date -d "$s" +%s)" \
			"$(date -d "$b" +%s) $(date -d "$e" +%s) $st $nl $(torus_metrics "$nodes") ${nodes:--}"
	done >>"$records"
	"$cluster" stop --dir "$cur" >/dev/null 2>&1 || true
	cur=""
}

# torus_metrics K1,K2,...: "DIST BOX" for node numbers on the 4x4x4 torus
# (node k at x=(k-1)%4, y=((k-1)/4)%4, z=(k-1)/16): mean pairwise
# wrap-around Manhattan distance, and 1 if the nodes are a box (each
# axis's occupied coordinates a cyclic interval, the product of their
# lengths the node count), else 0.
torus_metrics() {
	awk -v list="$1" 'function wd(a, b) { d = a - b; if (d < 0) d = -d; return d < 4 - d ? d : 4 - d }
	function span(ax,   c, best, s, l) { # shortest cyclic interval covering the occupied coords
		best = 5
		for (s = 0; s < 4; s++) for (l = 1; l <= 4; l++) {
			ok = 1
			for (c = 0; c < 4; c++) if (occ[ax, c] && (c - s + 4) % 4 >= l) ok = 0
			if (ok && l < best) best = l
		}
		return best }
	BEGIN { n = split(list, k, ",")
		for (i = 1; i <= n; i++) { v = k[i] - 1; x[i] = v % 4; y[i] = int(v / 4) % 4; z[i] = int(v / 16)
			occ[0, x[i]] = 1; occ[1, y[i]] = 1; occ[2, z[i]] = 1 }
		sum = 0; pairs = 0
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
			sum += wd(x[i], x[j]) + wd(y[i], y[j]) + wd(z[i], z[j]); pairs++ }
		cnt = 0; for (c = 0; c < 4; c++) cnt += occ[0, c] + occ[1, c] + occ[2, c]
		vol = span(0) * span(1) * span(2)
		# each axis: the occupied coords must fill their interval
		full = 1; for (a = 0; a < 3; a++) { m = 0; for (c = 0; c < 4; c++) m += occ[a, c]; if (m != span(a)) full = 0 }
		printf "%.3f %d\n", pairs ? sum / pairs : 0, (full && vol == n) ? 1 : 0 }'
}

for seed in $seeds; do
	for load in $loads; do
		for mix in $mixes; do
			make_stream "$seed" "$load" "$mix"
			for p in $methods; do
				t=$(date +%s)
				run_one "$p" "$seed" "$load" "$mix"
				note "$p, seed $seed, $load load, $mix sizes: $(($(date +%s) - t)) s"
			done
		done
	done
done
summarise "$records"
