#!/usr/bin/env bash
# torus-head-to-head.sh - our topology/torus (torus.conf Method=mss, fs,
# base, anchor) against Slurm 26.05's own topology/torus3d, live, on a
# 4x4x4 torus (64 nodes, n1..n64 in x-major order), on the same seeded
# job streams.
#
# One cluster at a time (contrib/cluster/topo-cluster, Slurm 26.05,
# select/cons_tres, sched/backfill, whole-node partition
# OverSubscribe=EXCLUSIVE).  torus3d gets topology.yaml with the placement
# chain 1x1x1,2x1x1,2x2x1,2x2x2,4x2x2,4x4x2,4x4x4 (sizes 1..64 in powers
# of two, as its documentation recommends); ours gets the torus.conf
# test/live/torus3d-conf.sh writes for the same torus, with Method=X.
# Streams: power-of-two sizes 1..32, `sleep` 3..6 s, gaps moderate
# 1.0-3.0 s or heavy 0.0-1.0 s; sizes and sleeps depend only on the seed.
# Per run and plugin it prints the mean pairwise torus (wrap-around
# Manhattan) distance over the multi-node jobs, the share of multi-node
# jobs placed on a box (a compact sub-torus), the mean wait and the
# makespan, as markdown.
#
# Usage: torus-head-to-head.sh PLUGINDIR [--seeds "1 2"] [--loads "moderate heavy"]
#          [--methods "mss fs base anchor torus3d"] [--jobs N] [--records FILE]
#   PLUGINDIR  a directory with topology_torus.so built for Slurm 26.05
#              (BUILD/plugins/.libs)
#   --records  append "plugin seed load job nodes sleep submit start end
#              state nodelist dist box" per job
# Needs root (network namespaces, daemons).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seeds="1 2" loads="moderate heavy" methods="mss fs base anchor torus3d" jobs=24 records=""
plugindir=""
while [ $# -gt 0 ]; do
	case $1 in
	--seeds) seeds=${2:?}; shift 2 ;;
	--loads) loads=${2:?}; shift 2 ;;
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
[ "$(id -u)" = 0 ] || die "must run as root"
[ -n "$plugindir" ] && [ -e "$plugindir/topology_torus.so" ] || die "PLUGINDIR with topology_torus.so needed"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs: not a positive integer: '$jobs'"
for m in $methods; do case $m in mss | fs | base | anchor | torus3d) ;; *) die "--methods: unknown '$m'" ;; esac; done
for l in $loads; do case $l in moderate | heavy) ;; *) die "--loads: unknown '$l'" ;; esac; done
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

# make_stream SEED LOAD: n_of, sleep_of, at_of (tenths of a second).
make_stream() {
	local i r at=0
	RANDOM=$1
	n_of=() sleep_of=() at_of=()
	for ((i = 0; i < jobs; i++)); do
		n_of[i]=$((1 << (RANDOM % 6)))
		sleep_of[i]=$((3 + RANDOM % 4))
		r=$RANDOM
		at_of[i]=$at
		if [ "$2" = heavy ]; then at=$((at + r % 11)); else at=$((at + 10 + r % 21)); fi
	done
}

# run_one PLUGIN SEED LOAD: one cluster, the stream, records appended.
run_one() {
	local p=$1 seed=$2 load=$3 d=$work/$1.$2.$3 i id args t0 pause deadline
	mkdir -p "$d/conf"
	torus3d_confs "$d/conf" 4 4 4 'n[1-64]' 1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2 4x4x4
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
		echo "$p $seed $load $((i + 1)) ${n_of[i]} ${sleep_of[i]} $(date -d "$s" +%s)" \
			"$(date -d "$b" +%s) $(date -d "$e" +%s) $st $nl $(torus_metrics "$nodes")"
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
		make_stream "$seed" "$load"
		for p in $methods; do
			t=$(date +%s)
			run_one "$p" "$seed" "$load"
			note "$p, seed $seed, $load load: $(($(date +%s) - t)) s"
		done
	done
done

# Records: 1 plugin 2 seed 3 load 4 job 5 nodes 6 sleep 7 submit 8 start
# 9 end 10 state 11 nodelist 12 dist 13 box.
awk '{ r = $2 SUBSEP $3; p = $1
	if (!(r in seen)) { seen[r] = 1; runs[++nr] = r }
	if (!((r, p) in pseen)) { pseen[r, p] = 1; pl[r, ++np[r]] = p }
	n[r, p]++; w[r, p] += $8 - $7
	if (!((r, p) in s0) || $7 < s0[r, p]) s0[r, p] = $7
	if ($9 > e1[r, p]) e1[r, p] = $9
	if ($10 != "COMPLETED") bad[r, p]++
	if ($5 > 1) { nm[r, p]++; d[r, p] += $12; bx[r, p] += $13 } }
	END {
	for (i = 1; i <= nr; i++) {
		r = runs[i]; split(r, q, SUBSEP)
		printf "\nseed %s, %s load (%d jobs, %d multi-node)\n\n", q[1], q[2], n[r, pl[r, 1]], nm[r, pl[r, 1]]
		print "| plugin | mean pairwise distance | box share | mean wait (s) | makespan (s) | not completed |"
		print "|---|---:|---:|---:|---:|---:|"
		for (k = 1; k <= np[r]; k++) { p = pl[r, k]
			printf "| %s | %.3f | %d/%d | %.2f | %d | %d |\n", (p == "torus3d" ? "Slurm torus3d" : "torus " p),
				d[r, p] / nm[r, p], bx[r, p], nm[r, p], w[r, p] / n[r, p], e1[r, p] - s0[r, p], bad[r, p] }
	} }' "$records"
