#!/usr/bin/env bash
# torus-head-to-head.sh - our topology/torus (torus.conf Method=compact,
# mss, base, anchor, fs) against Slurm 26.05's own topology/torus3d, live,
# on a 4x4x4 torus (64 nodes, n1..n64 in x-major order), on the same
# seeded job streams.
#
# One cluster at a time (contrib/cluster/topo-cluster, Slurm 26.05,
# select/cons_tres, sched/backfill, whole-node partition
# OverSubscribe=EXCLUSIVE).  Three size mixes, each job's size drawn from:
#   pow2  1 2 4 8 16 32, uniformly
#   odd   3 6 9 12 18 24, uniformly
#   sdsc  a real trace's sizes (--trace, default SDSC-SP2) scaled to 64
#         nodes and drawn with their frequencies in the trace
#         (contrib/torus-h2h-mix.py sizes): every size 1..64 that it has,
#         sizes that are no box on 4x4x4 (5, 7, 10, 11, 13, ...) included.
# torus3d places a job of s nodes only on a placement of exactly s nodes
# and refuses any other size at submission (eval_nodes:
# ESLURM_REQUESTED_TOPO_CONFIG_UNAVAILABLE): each size needs a placement
# line, and a size that is no box on 4x4x4 cannot run under torus3d at
# all.  The placement lists, printed before the tables:
#   one        one placement per size, the most compact box, one
#              orientation (pow2: 1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2
#              4x4x4; odd: 3x1x1 3x2x1 3x3x1 3x2x2 3x3x2 3x4x2, all 3 long
#              in x; sdsc: torus-h2h-mix.py one)
#   rotations  every distinct rotation of each placement of `one`, as
#              further placements of the same size (the given orientation
#              first): torus3d takes the first placement of the size, in
#              list order, that has a free anchor
#   shapes     every box of each size, most compact first, each in every
#              rotation
#   LIST-dense the same with anchor_spacing 1,1,1 (an anchor at every
#              position; by default anchors are a box length apart)
# Plugins (--methods):
#   torus3d-LIST  Slurm's topology/torus3d with placement list LIST;
#                 torus3d alone: LIST = --torus3d-list (default shapes,
#                 torus3d's best list in the simulator: doc/results.md)
#   compact, mss, fs, base, anchor
#                 our topology/torus with torus.conf Method=X and the
#                 torus.conf test/live/torus3d-conf.sh writes for the
#                 same torus and list (only anchor reads its Placement=
#                 lines, the --torus3d-list list; Shapeless=pack as
#                 shipped)
#   anchor-LIST   Method=anchor with placement list LIST
# Streams: `sleep` 3..6 s, gaps moderate 1.0-3.0 s or heavy 0.0-1.0 s;
# sizes, sleeps and gaps depend only on the seed (the k-th size of one mix
# goes with the k-th of the others: all mixes of a seed share arrivals
# and sleeps).  A job torus3d refuses at submission is recorded as
# REFUSED and not waited for.
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
#   mean wait, makespan (last end - first submit), jobs not COMPLETED,
#   refused; when a plugin refused jobs, also the mean wait over the
#   jobs every plugin of the stream ran
# It prints one table per size mix and load (means over seeds) and one
# row per run, as markdown.
#
# Usage: torus-head-to-head.sh PLUGINDIR [--seeds "1 2 3"] [--loads "moderate heavy"]
#          [--mixes "pow2 odd sdsc"]
#          [--methods "compact mss base torus3d-shapes torus3d-rotations torus3d-one"]
#          [--torus3d-list shapes|rotations|one[-dense]] [--trace SWF]
#          [--jobs N (30)] [--records FILE]
#        torus-head-to-head.sh --sim TOPOSIM [same options]
#          the same streams through the simulator instead of Slurm:
#          torus3d and anchor are toposim's torus-anchor on the list,
#          the others torus-X; policy easy, limits 60 s (as -t 1)
#        torus-head-to-head.sh --summary FILE   (the tables of a records file)
#   PLUGINDIR  a directory with topology_torus.so built for Slurm 26.05
#              (BUILD/plugins/.libs)
#   --records  append "plugin seed load mix job nodes sleep submit start
#              end state nodelist dist box nodes" per job
# Needs root (network namespaces, daemons), except --sim and --summary.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seeds="1 2 3" loads="moderate heavy" mixes="pow2 odd sdsc"
methods="compact mss base torus3d-shapes torus3d-rotations torus3d-one" jobs=30 records=""
list=shapes summary="" plugindir="" sim=""
trace=${TP_SHARED_DATA:-$root/data}/traces/SDSC-SP2-1998-4.2-cln.swf.gz
while [ $# -gt 0 ]; do
	case $1 in
	--seeds) seeds=${2:?}; shift 2 ;;
	--loads) loads=${2:?}; shift 2 ;;
	--mixes) mixes=${2:?}; shift 2 ;;
	--summary) summary=${2:?}; shift 2 ;;
	--methods) methods=${2:?}; shift 2 ;;
	--torus3d-list) list=${2:?}; shift 2 ;;
	--trace) trace=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--records) records=${2:?}; shift 2 ;;
	--sim) sim=$(realpath -- "${2:?}"); shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "torus-head-to-head: unknown option '$1'" >&2; exit 2 ;;
	*) plugindir=$(realpath -- "$1"); shift ;;
	esac
done
die() { echo "torus-head-to-head: $*" >&2; exit 1; }
note() { echo "torus-head-to-head: $*" >&2; }
summarise() { python3 "$root/contrib/torus-h2h-summary.py" "$1"; }
mixpy() { python3 "$root/contrib/torus-h2h-mix.py" "$@"; }
if [ -n "$summary" ]; then
	[ -r "$summary" ] || die "--summary: cannot read '$summary'"
	summarise "$summary"
	exit
fi
if [ -n "$sim" ]; then
	[ -x "$sim" ] || die "--sim: '$sim' is not an executable toposim"
else
	[ "$(id -u)" = 0 ] || die "must run as root"
	[ -n "$plugindir" ] && [ -e "$plugindir/topology_torus.so" ] || die "PLUGINDIR with topology_torus.so needed"
fi
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs: not a positive integer: '$jobs'"
lists="one rotations shapes one-dense rotations-dense shapes-dense"
for m in $methods; do
	case $m in
	compact | mss | fs | base | anchor | torus3d) ;;
	torus3d-* | anchor-*) [[ " $lists " == *" ${m#*-} "* ]] || die "--methods: unknown list in '$m' ($lists)" ;;
	*) die "--methods: unknown '$m'" ;;
	esac
done
for l in $loads; do case $l in moderate | heavy) ;; *) die "--loads: unknown '$l'" ;; esac; done
for x in $mixes; do case $x in pow2 | odd | sdsc) ;; *) die "--mixes: unknown '$x'" ;; esac; done
[[ " $lists " == *" $list "* ]] || die "--torus3d-list: unknown '$list' ($lists)"
# torus3d alone is torus3d with --torus3d-list
methods=$(for m in $methods; do [ "$m" = torus3d ] && echo "torus3d-$list" || echo "$m"; done | paste -sd' ')
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
[ -n "$sim" ] || "$cluster" prepare --slurm 26.05 >&2 || die "topo-cluster prepare --slurm 26.05 failed"

# Sizes of each mix; index k of one mix goes with index k of the others,
# so for one seed all mixes share arrival times and sleeps.
# shellcheck disable=SC2034
size_pow2=(1 2 4 8 16 32) size_odd=(3 6 9 12 18 24)
# sdsc: the trace's scaled sizes and their cumulative counts
sdsc_size=() sdsc_cum=() sdsc_total=0
if [[ " $mixes " == *" sdsc "* ]]; then
	[ -r "$trace" ] || die "--trace: cannot read '$trace' (the sdsc mix's sizes)"
	while read -r sz cnt; do
		sdsc_total=$((sdsc_total + cnt))
		sdsc_size+=("$sz") sdsc_cum+=("$sdsc_total")
	done < <(mixpy sizes "$trace") || die "no sizes from '$trace'"
	[ "$sdsc_total" -gt 0 ] || die "no sizes from '$trace'"
fi

# placements MIX LIST: torus3d's list, one AxBxC[/1,1,1] per word.  The
# `one` chains of pow2 and odd are the earlier grid's.
placements() {
	local mix=$1 kind=${2%-dense} dense="" one
	[ "$2" = "$kind" ] || dense=/1,1,1
	case $mix in
	pow2) one="1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2 4x4x4" ;;
	odd) one="3x1x1 3x2x1 3x3x1 3x2x2 3x3x2 3x4x2" ;;
	sdsc) one=$(mixpy one "${sdsc_size[@]}" | paste -sd' ') ;;
	esac
	# shellcheck disable=SC2086,SC2046 # $one: words
	case $kind in
	one) printf '%s\n' $one ;;
	rotations) mixpy rotations $one ;;
	shapes) mixpy shapes $(for p in $one; do IFS=x read -r a b c <<<"$p"; echo $((a * b * c)); done) ;;
	esac | sed "s|\$|$dense|" | paste -sd' '
}

# The list a plugin runs with (torus3d's list; ours read it only as anchor).
list_of() { # PLUGIN
	case $1 in torus3d-* | anchor-*) echo "${1#*-}" ;; *) echo "$list" ;; esac
}

# make_stream SEED LOAD MIX: n_of, sleep_of, at_of (tenths of a second).
# One RANDOM draw per size in every mix (pow2 and odd take it modulo 6,
# sdsc as a quantile of the trace's sizes), so the sleeps and gaps after
# it are the same in every mix.
make_stream() {
	local i r q k at=0
	RANDOM=$1
	n_of=() sleep_of=() at_of=()
	for ((i = 0; i < jobs; i++)); do
		r=$RANDOM
		case $3 in
		pow2) n_of[i]=${size_pow2[r % 6]} ;;
		odd) n_of[i]=${size_odd[r % 6]} ;;
		sdsc)
			q=$(((2 * r + 1) * sdsc_total)) # quantile (r + 1/2) / 32768, scaled
			for ((k = 0; 65536 * sdsc_cum[k] < q; k++)); do :; done
			n_of[i]=${sdsc_size[k]}
			;;
		esac
		sleep_of[i]=$((3 + RANDOM % 4))
		r=$RANDOM
		at_of[i]=$at
		if [ "$2" = heavy ]; then at=$((at + r % 11)); else at=$((at + 10 + r % 21)); fi
	done
}

# configure DIR PLUGIN MIX: DIR/conf with topology.yaml and torus.conf
# for the plugin's placement list.
configure() {
	local d=$1 p=$2 mix=$3 pl
	mkdir -p "$d/conf"
	pl=$(placements "$mix" "$(list_of "$p")")
	# shellcheck disable=SC2086
	torus3d_confs "$d/conf" 4 4 4 'n[1-64]' $pl
	case $p in
	torus3d*) ;;
	anchor*) sed -i "s/^Method=.*/Method=anchor/" "$d/conf/torus.conf" ;;
	*) sed -i "s/^Method=.*/Method=$p/" "$d/conf/torus.conf" ;;
	esac
}

# record P SEED LOAD MIX I SUBMIT START END STATE NODELIST NODES: one line.
record() {
	echo "$1 $2 $3 $4 $(($5 + 1)) ${n_of[$5]} ${sleep_of[$5]} $6 $7 $8 $9 ${10}" \
		"$(torus_metrics "${11}") ${11:--}" >>"$records"
}

# run_sim PLUGIN SEED LOAD MIX: the stream through toposim (easy, limits
# of 60 s), records appended; a job toposim rejects (no placement of its
# size) is REFUSED.
run_sim() {
	local p=$1 seed=$2 load=$3 mix=$4 d=$work/$1.$2.$3.$4 i alloc
	configure "$d" "$p" "$mix"
	case $p in torus3d* | anchor*) alloc=torus-anchor ;; *) alloc=torus-$p ;; esac
	{
		echo "; MaxNodes: 64"
		echo "; MaxProcs: 64"
		for ((i = 0; i < jobs; i++)); do
			echo "$((i + 1)) $((at_of[i] / 10)) -1 ${sleep_of[i]} ${n_of[i]} -1 -1 ${n_of[i]} 60 -1 1 1 1 1 1 1 -1 -1"
		done
	} >"$d/stream.swf"
	"$sim" -w "$d/stream.swf" -p easy --torus "$d/conf/torus.conf" --alloc "$alloc" \
		--jobs-csv "$d/jobs.csv" --summary-json /dev/null --quiet 2>"$d/err" ||
		die "$p: toposim failed: $(cat "$d/err")"
	declare -A got=()
	local id sub st en nl
	while IFS=, read -r id sub st en nl; do got[$id]="$sub $st $en $nl"; done < <(
		tail -n +2 "$d/jobs.csv" | sed -E 's/^([^,]*),([^,]*),([^,]*),([^,]*),[^"]*"([^"]*)".*/\1,\2,\3,\4,\5/')
	for ((i = 0; i < jobs; i++)); do
		if [ -z "${got[$((i + 1))]:-}" ]; then
			record "$p" "$seed" "$load" "$mix" "$i" $((at_of[i] / 10)) - - REFUSED - ""
			continue
		fi
		read -r sub st en nl <<<"${got[$((i + 1))]}"
		record "$p" "$seed" "$load" "$mix" "$i" "$sub" "$st" "$en" COMPLETED "$nl" \
			"$(expand_nodes "$nl" | paste -sd,)"
	done
}

# n[1-3,7] -> 1 2 3 7, one per line (toposim's node names are n<k>)
expand_nodes() {
	local body=${1#n} r k
	body=${body#[}
	body=${body%]}
	IFS=, read -ra parts <<<"$body"
	for r in "${parts[@]}"; do
		if [[ $r == *-* ]]; then
			for ((k = ${r%-*}; k <= ${r#*-}; k++)); do echo "$k"; done
		else
			echo "$r"
		fi
	done
}

# run_one PLUGIN SEED LOAD MIX: one cluster, the stream, records appended.
run_one() {
	local p=$1 seed=$2 load=$3 mix=$4 d=$work/$1.$2.$3.$4 i id args t0 pause deadline out
	configure "$d" "$p" "$mix"
	echo "MinJobAge=3600" >"$d/conf/extra.conf"
	if [[ $p == torus3d* ]]; then
		read -ra args <<<"$(torus3d_cluster_args "$d/conf" 64)"
		want="topology/torus3d"
	else
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
	declare -gA id_of=() sub_of=()
	t0=$(date +%s.%N)
	for ((i = 0; i < jobs; i++)); do
		pause=$(awk -v t0="$t0" -v at="${at_of[i]}" -v now="$(date +%s.%N)" \
			'BEGIN { d = t0 + at / 10 - now; printf "%.2f", (d > 0 ? d : 0) }')
		sleep "$pause"
		sub_of[$i]=$(date +%s)
		if out=$(sx sbatch --parsable -N "${n_of[i]}" -t 1 -J "t$((i + 1))" -o /dev/null \
			--wrap "sleep ${sleep_of[i]}" 2>&1); then
			id_of[$i]=${out%%;*}
		elif [[ $out == *"Requested topology configuration is not available"* ]]; then
			id_of[$i]=REFUSED
		else
			die "$p: sbatch of job $((i + 1)) failed: $out"
		fi
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
		if [ "${id_of[$i]}" = REFUSED ]; then
			record "$p" "$seed" "$load" "$mix" "$i" "${sub_of[$i]}" - - REFUSED - ""
			continue
		fi
		read -r _ st nl s b e < <(awk -v id="${id_of[$i]}" '$1 == id' "$d/parsed") ||
			die "$p: job ${id_of[$i]} unknown"
		record "$p" "$seed" "$load" "$mix" "$i" "$(date -d "$s" +%s)" "$(date -d "$b" +%s)" \
			"$(date -d "$e" +%s)" "$st" "$nl" \
			"$(sx scontrol show hostnames "$nl" | sed 's/^n//' | paste -sd,)"
	done
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

# The placement lists the plugins run with, before any table.
{
	echo "torus3d placement lists (x, y, z; /1,1,1: anchor_spacing 1,1,1):"
	for mix in $mixes; do
		for l in $(for p in $methods; do list_of "$p"; done | sort -u); do
			echo "  $mix, $l: $(placements "$mix" "$l")"
		done
	done
	echo
} | tee "$records.lists"
run=run_one
[ -z "$sim" ] || run=run_sim
for seed in $seeds; do
	for load in $loads; do
		for mix in $mixes; do
			make_stream "$seed" "$load" "$mix"
			for p in $methods; do
				t=$(date +%s)
				$run "$p" "$seed" "$load" "$mix"
				note "$p, seed $seed, $load load, $mix sizes: $(($(date +%s) - t)) s"
			done
		done
	done
done
summarise "$records"
