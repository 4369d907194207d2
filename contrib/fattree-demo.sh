#!/usr/bin/env bash
# fattree-demo.sh - our fat-tree placement against Slurm's own topology/tree,
# live, on the same seeded stream of jobs.
#
# Starts the 64-node fat tree (3 levels, width 4: 16 leaf switches of 4
# nodes, 4 middle switches, one root) as real Slurm clusters, each in its
# own private network namespace (contrib/cluster/topo-cluster): one placing
# jobs with our plugin, one with Slurm's own topology/tree.  Both run at the
# same time and get the same seeded stream of `sleep` jobs at the same
# instants; when all have ended the clusters are stopped and the script
# prints, per job, where each cluster ran it, its wait, its hop sum (sum
# of pairwise hops between the 4-node units it touches) and its spread
# (node level: the routers between every pair of its nodes over the least
# any as many nodes have on the tree, 1 = most compact; both computed by
# the core library through `ftconf hopsum --spread`), then per cluster the
# total and mean hop sum, the mean spread of the multi-node jobs, the mean
# wait and the makespan.
#
# The Slurm release is the build tree's (configure --with-slurm-version):
#   ours        22.05: SelectType=select/fattree;
#               24.11, 26.05: TopologyPlugin=topology/fattree under
#               select/cons_tres, whole-node partition (OverSubscribe=EXCLUSIVE)
#   slurm-tree  TopologyPlugin=topology/tree under select/cons_tres,
#               OverSubscribe=EXCLUSIVE: none of our plugins loaded
# Both with SchedulerType=sched/backfill.  As references it also prints
# what the simulator chooses on the same stream (toposim, EASY, the first
# cluster's submit and run times): fattree, the model of this release's
# topology/tree (tree-slurm-26.05 on 26.05, else tree-slurm, 24.11's) and
# tree-greedy (Slurm 22.05's).
#
# Usage: fattree-demo.sh [BUILDDIR] [--slurm 22.05|24.11|26.05]
#          [--topology ours|slurm-tree|both] [--jobs N] [--seed S]
#          [--load moderate|heavy] [--mix demo|unit|odd]
#          [--records FILE] [--brief] [--keep]
#   BUILDDIR    a configured and built tree (default build/main; relative to
#               the current directory if it exists there, else to the source
#               root); its Slurm release is the clusters'
#   --slurm V   check that BUILDDIR is built for Slurm V
#   --topology  which clusters to run (default both, side by side)
#   --jobs N    jobs in the stream (default 24)
#   --seed S    seed of the stream (default 1)
#   --load L    time between two submissions: moderate 1.0-3.0 s (default),
#               heavy 0.0-1.0 s (tenths of a second)
#   --mix M     job sizes: demo 1,2,3,4,4,6,8,8,12,16 nodes (default);
#               unit whole 4-node units, 4, 8, 12 or 16; odd any of 1..24
#               Every job sleeps 3..10 s.  Sizes and sleeps depend only on
#               the seed and the mix, gaps only on the seed and the load.
#   --records F append one line per job and cluster to F:
#               "topology seed load mix job nodes sleep submit start end
#               state nodelist hops spread" (epoch seconds;
#               contrib/head-to-head.sh)
#   --brief     no per-job table
#   --keep      keep the work directory (cluster logs, SWF traces)
# Needs root (network namespaces, daemons), the packages of
# contrib/install-deps.sh and a build with the Slurm plugins.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=build/main jobs=24 seed=1 keep="" load=moderate mix=demo which=both
want_series="" records="" brief=""
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=${2:?--jobs needs a value}; shift 2 ;;
	--seed) seed=${2:?--seed needs a value}; shift 2 ;;
	--load) load=${2:?--load needs a value}; shift 2 ;;
	--mix) mix=${2:?--mix needs a value}; shift 2 ;;
	--topology) which=${2:?--topology needs a value}; shift 2 ;;
	--slurm) want_series=${2:?--slurm needs a value}; shift 2 ;;
	--records) records=${2:?--records needs a file}; shift 2 ;;
	--brief) brief=1; shift ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "fattree-demo: unknown option '$1'" >&2; exit 2 ;;
	*) build=$1; shift ;;
	esac
done
usage_err() { echo "fattree-demo: $*" >&2; exit 2; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || usage_err "--jobs: not a positive integer: '$jobs'"
[[ "$seed" =~ ^[0-9]+$ ]] || usage_err "--seed: not a number: '$seed'"
case $load in moderate | heavy) ;; *) usage_err "--load: expected moderate or heavy, got '$load'" ;; esac
case $mix in demo | unit | odd) ;; *) usage_err "--mix: expected demo, unit or odd, got '$mix'" ;; esac
case $which in
ours | slurm-tree) topos=("$which") ;;
both) topos=(ours slurm-tree) ;;
*) usage_err "--topology: expected ours, slurm-tree or both, got '$which'" ;;
esac
# A directory relative to the current one, else to the source root.
if [ -d "$build" ]; then build=$(cd "$build" && pwd); else build=$root/$build; fi
[ -z "$records" ] || records=$(realpath -m -- "$records")

die() { echo "fattree-demo: $*" >&2; exit 1; }
note() { echo "fattree-demo: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (the cluster's daemons run in a network namespace)"
cluster=$root/contrib/cluster/topo-cluster
toposim=$build/src/sim/toposim
ftconf=$build/src/tools/ftconf
plugindir=$build/plugins/.libs
for f in "$toposim" "$ftconf"; do [ -x "$f" ] || die "$f not found: build first (contrib/build.sh ${build#"$root"/})"; done
series=$(sed -n 's/^SLURM_SERIES = //p' "$build/Makefile" 2>/dev/null)
[ -n "$series" ] || die "$build/Makefile names no SLURM_SERIES: not a configured build tree"
[ -z "$want_series" ] || [ "$want_series" = "$series" ] ||
	die "--slurm $want_series: $build is built for Slurm $series (contrib/build.sh DIR --with-slurm-version=$want_series)"

# The two kinds of cluster: topo-cluster options and a name for the table.
if [ "$series" = 22.05 ]; then
	ours_so=select_fattree.so ours_name=select/fattree
	ours_args=(--select select/fattree)
else
	ours_so=topology_fattree.so ours_name=topology/fattree
	ours_args=(--select select/cons_tres --topology topology/fattree --part-opts OverSubscribe=EXCLUSIVE)
fi
[ -e "$plugindir/$ours_so" ] ||
	die "$plugindir/$ours_so not found: the build found no Slurm headers (see contrib/slurm-headers.sh)"
tree_args=(--select select/cons_tres --topology topology/tree --part-opts OverSubscribe=EXCLUSIVE)
name_of() { if [ "$1" = ours ]; then echo "$ours_name"; else echo topology/tree; fi; }
args_of() { if [ "$1" = ours ]; then echo "${ours_args[*]}"; else echo "${tree_args[*]}"; fi; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/fattree-demo.XXXXXX")
cleanup() {
	local t
	for t in "${topos[@]}"; do "$cluster" stop --dir "$dir/$t" >/dev/null 2>&1 || true; done
	if [ -n "$keep" ]; then note "files kept in $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ------------------------------------------------------------ the stream
# Three draws per job in a fixed order (size, sleep, gap), so the sizes and
# sleeps of a seed are the same under both loads, the gaps the same under
# every mix.  Gaps are in tenths of a second.
demo_sizes=(1 2 3 4 4 6 8 8 12 16)
RANDOM=$seed
declare -a n_of sleep_of at_of
at=0
for ((i = 0; i < jobs; i++)); do
	r=$RANDOM
	case $mix in
	demo) n_of[i]=${demo_sizes[r % ${#demo_sizes[@]}]} ;;
	unit) n_of[i]=$((4 * (1 + r % 4))) ;;
	odd) n_of[i]=$((1 + r % 24)) ;;
	esac
	sleep_of[i]=$((3 + RANDOM % 8))
	r=$RANDOM
	at_of[i]=$at
	if [ "$load" = heavy ]; then at=$((at + r % 11)); else at=$((at + 10 + r % 21)); fi
done

# ---------------------------------------------------------- the clusters
"$ftconf" generate --levels 3 --width 4 -o "$dir/tree.conf"
# Finished jobs stay known to slurmctld until the end of a long stream.
echo "MinJobAge=3600" >"$dir/extra.conf"
# Install or build what the clusters need once, before two starts race for it.
"$cluster" prepare --slurm "$series" >&2 || die "topo-cluster prepare --slurm $series failed"
t_begin=$(date +%s)
note "starting ${#topos[@]} cluster(s) of 64 slurmd + slurmctld on Slurm $series: $(for t in "${topos[@]}"; do name_of "$t"; done | paste -sd' ')"
for t in "${topos[@]}"; do
	# shellcheck disable=SC2046
	"$cluster" start --dir "$dir/$t" --slurm "$series" --nodes 64 $(args_of "$t") \
		--sched sched/backfill --plugindir "$plugindir" --topology-conf "$dir/tree.conf" \
		--extra-conf "$dir/extra.conf" >"$dir/$t.start.log" 2>&1 &
done
failed=""
for t in "${topos[@]}"; do wait -n || failed=1; done
if [ -n "$failed" ]; then
	for t in "${topos[@]}"; do tail -n 20 "$dir/$t.start.log" >&2; done
	die "a cluster did not start"
fi
topo=$dir/${topos[0]}/topology.conf
sx() { local t=$1; shift; "$cluster" exec --dir "$dir/$t" -- "$@"; }
# Each cluster runs the plugins it was started with.
for t in "${topos[@]}"; do
	got=$(sx "$t" scontrol show config | sed -n 's/^\(SelectType\|TopologyPlugin\) *= *//p' | paste -sd' ')
	want="select/cons_tres topology/tree"
	if [ "$t" = ours ]; then
		want="select/cons_tres topology/fattree"
		[ "$series" = 22.05 ] && want="select/fattree topology/tree"
	fi
	[ "$got" = "$want" ] || die "cluster $t runs SelectType, TopologyPlugin '$got', not '$want'"
done

# Every job is submitted to every cluster at its planned instant (tenths
# of a second after the first), all clusters at once.
note "submitting $jobs jobs (seed $seed, $load load, $mix sizes) to ${#topos[@]} cluster(s)"
declare -A id_of
t0=$(date +%s.%N)
for ((i = 0; i < jobs; i++)); do
	pause=$(awk -v t0="$t0" -v at="${at_of[i]}" -v now="$(date +%s.%N)" \
		'BEGIN { d = t0 + at / 10 - now; printf "%.2f", (d > 0 ? d : 0) }')
	sleep "$pause"
	for t in "${topos[@]}"; do
		sx "$t" sbatch --parsable -N "${n_of[i]}" -t 1 -J "demo$((i + 1))" -o /dev/null \
			--wrap "sleep ${sleep_of[i]}" >"$dir/$t.id.$i" 2>&1 &
	done
	wait
	for t in "${topos[@]}"; do
		id=$(cat "$dir/$t.id.$i")
		[[ "$id" =~ ^[0-9]+ ]] || die "sbatch of job $((i + 1)) on $(name_of "$t") failed: $id"
		id_of[$t:$i]=${id%%;*}
	done
done

note "waiting for the jobs to finish"
deadline=$(($(date +%s) + 600))
for t in "${topos[@]}"; do
	while :; do
		left=$(sx "$t" squeue -h -o %i 2>/dev/null | wc -l) || left=unknown
		[ "$left" = 0 ] && break
		[ "$(date +%s)" -lt "$deadline" ] || die "jobs still queued or running after 600 s on $(name_of "$t")"
		sleep 1
	done
done

# ------------------------------------------------------ what Slurm did
# One `scontrol -o show job` per cluster: "JOBID STATE NODELIST SUBMIT
# START END" per job (times in epoch seconds).
final='COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|PREEMPTED|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE'
for t in "${topos[@]}"; do
	sx "$t" scontrol -o show job >"$dir/$t.show" || die "scontrol show job failed on $(name_of "$t")"
	awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
		print f["JobId"], f["JobState"], f["NodeList"], f["SubmitTime"], f["StartTime"], f["EndTime"]
	}' "$dir/$t.show" | while read -r id st nl s b e; do
		echo "$id $st $nl $(date -d "$s" +%s) $(date -d "$b" +%s) $(date -d "$e" +%s)"
	done >"$dir/$t.parsed"
done
for t in "${topos[@]}"; do "$cluster" stop --dir "$dir/$t" >/dev/null 2>&1 & done
wait
note "clusters stopped ($(($(date +%s) - t_begin)) s from the first start)"

# $dir/TOPO.jobs: "job nodes sleep submit start end state nodelist hops
# spread", one line per job of the stream, in submission order.
for t in "${topos[@]}"; do
	for ((i = 0; i < jobs; i++)); do
		read -r _ st nl s b e < <(awk -v id="${id_of[$t:$i]}" '$1 == id' "$dir/$t.parsed") ||
			die "job ${id_of[$t:$i]} unknown to $(name_of "$t")'s slurmctld"
		[[ "$st" =~ ^($final)$ ]] || die "job ${id_of[$t:$i]} on $(name_of "$t") is $st"
		echo "$((i + 1)) ${n_of[i]} ${sleep_of[i]} $s $b $e $st $nl"
	done >"$dir/$t.pre"
	mapfile -t hops < <(awk '{ print $8 }' "$dir/$t.pre" | "$ftconf" hopsum --topology "$topo" --spread)
	[ "${#hops[@]}" = "$jobs" ] || die "ftconf hopsum gave ${#hops[@]} results for $jobs jobs"
	paste -d' ' "$dir/$t.pre" <(printf '%s\n' "${hops[@]}") >"$dir/$t.jobs"
	[ -z "$records" ] ||
		awk -v p="$(name_of "$t") $seed $load $mix" '{ print p, $0 }' "$dir/$t.jobs" >>"$records"
done

# ------------------------------------------------ the simulator's view
# The stream as an SWF trace: a cluster's submit times and the run times
# its jobs really had, the 1-minute limit as estimate.
swf() { # JOBS-FILE
	echo "; fattree-demo stream: seed $seed, $load load, $mix sizes"
	echo "; MaxNodes: 64"
	echo "; MaxProcs: 64"
	awk 'NR == 1 { t0 = $4 }
		{ if ($4 < t0) t0 = $4; t[NR] = $4; rt[NR] = $6 - $5; n[NR] = $2 }
		END { for (k = 1; k <= NR; k++) printf "%d %d -1 %d %d -1 -1 %d 60 -1 1 1 1 -1 1 -1 -1 -1\n",
			k, t[k] - t0, (rt[k] < 1 ? 1 : rt[k]), n[k], n[k] }' "$1"
}
# sim TRACE POLICY ALLOC: "INDEX NODES NODELIST HOPSUM SPREAD" per job
# (the run-time model at share 0 measures the spread, changing nothing).
sim() {
	"$toposim" --workload "$1" --policy "$2" --topology "$topo" --alloc "$3" \
		--runtime-model spread:0 --jobs-csv - --summary-json /dev/null --quiet |
		sed -n '2,$ s/^\([0-9]*\),[^,]*,[^,]*,[^,]*,[^,]*,\([0-9]*\),[^"]*"\([^"]*\)",[^,]*,[^,]*,\([^,]*\),\([^,]*\),.*$/\1 \2 \3 \4 \5/p'
}
first=${topos[0]}
swf "$dir/$first.jobs" >"$dir/stream.swf"
# The simulator's model of this release's topology/tree (22.05's is tree-greedy).
case $series in
26.05) tree_model=tree-slurm-26.05 tree_of="Slurm 26.05's tree" ;;
*) tree_model=tree-slurm tree_of="Slurm 24.11's tree" ;;
esac
declare -A sim_total
for a in fattree "$tree_model" tree-greedy; do
	sim "$dir/stream.swf" easy "$a" >"$dir/sim.$a"
	[ "$(wc -l <"$dir/sim.$a")" = "$jobs" ] || die "toposim --alloc $a did not place all $jobs jobs"
	sim_total[$a]=$(awk '{ s += $4; if ($2 > 1) { p += $5; n++ } }
		END { printf "%d (spread %.4f)", s, n ? p / n : 1 }' "$dir/sim.$a")
done

# ------------------------------------------------------------- the table
gaps=$([ "$load" = heavy ] && echo "0-1 s" || echo "1-3 s")
sizes=$(case $mix in demo) echo "1-16 nodes" ;; unit) echo "4, 8, 12, 16 nodes" ;; odd) echo "1-24 nodes" ;; esac)
echo "Slurm $series, 64-node fat tree (16 leaves x 4 nodes, 4 middle switches, 1 root), sched/backfill, whole nodes"
echo "$jobs jobs, seed $seed: $sizes, sleep 3-10 s, one every $gaps; the same stream to every cluster"
echo "hops = sum of pairwise hops between the 4-node units a job touches;"
echo "spread = routers between every pair of a job's nodes over the least any as many nodes have (1 = most compact)"
if [ -z "$brief" ]; then
	echo
	# Node list columns as wide as the longest list.
	nw=$(for t in "${topos[@]}"; do awk '{ print length($8) }' "$dir/$t.jobs"; done | sort -n | tail -n1)
	[ "$nw" -ge 16 ] || nw=16
	hdr=$(printf '%-4s %5s %5s' job nodes sleep)
	for t in "${topos[@]}"; do hdr+=$(printf '  %-*s %4s %4s %6s' "$nw" "$(name_of "$t")" wait hops spread); done
	echo "$hdr"
	for ((i = 0; i < jobs; i++)); do
		line=$(printf '%-4s %5s %5s' "$((i + 1))" "${n_of[i]}" "${sleep_of[i]}")
		for t in "${topos[@]}"; do
			read -r _ _ _ s b _ _ nl h sp < <(sed -n "$((i + 1))p" "$dir/$t.jobs")
			line+=$(printf '  %-*s %4s %4s %6s' "$nw" "$nl" "$((b - s))" "$h" "$sp")
		done
		echo "$line"
	done
fi
echo
# summary NAME JOBS-FILE: one row of the summary table.
summary() {
	awk -v name="$1" '
		{ h += $9; w += $5 - $4; if (NR == 1 || $4 < s0) s0 = $4; if ($6 > e1) e1 = $6
		  if ($2 > 1) { hm += $9; sm += $10; nm++ } }
		END { printf "%-18s %9d %10.2f %12.2f %12.4f %12.1f %10d\n", name, h, h / NR,
			nm ? hm / nm : 0, nm ? sm / nm : 1, w / NR, e1 - s0 }' "$2"
}
printf '%-18s %9s %10s %12s %12s %12s %10s\n' cluster "hop sum" "mean/job" "mean/multi" "mean spread" "mean wait s" "makespan s"
for t in "${topos[@]}"; do summary "$(name_of "$t")" "$dir/$t.jobs"; done
if [ "${#topos[@]}" = 2 ]; then
	awk -v a="$(awk '{ s += $9 } END { print s }' "$dir/ours.jobs")" \
		-v b="$(awk '{ s += $9 } END { print s }' "$dir/slurm-tree.jobs")" -v n1="$ours_name" \
		'BEGIN { printf "hop sum %s / topology/tree: %s\n", n1, b ? sprintf("%.3f", a / b) : "-" }'
fi
echo "simulator on the same stream (EASY, $(name_of "$first")'s submit and run times), hop sum (mean spread of multi-node jobs):" \
	"fattree ${sim_total[fattree]}, $tree_model ($tree_of) ${sim_total[$tree_model]}," \
	"tree-greedy (Slurm 22.05's) ${sim_total[tree-greedy]}"
for t in "${topos[@]}"; do
	bad=$(awk '$7 != "COMPLETED" { printf "%s%s:%s", sep, $1, $7; sep = " " }' "$dir/$t.jobs")
	[ -z "$bad" ] || echo "jobs that did not complete on $(name_of "$t"): $bad"
done
