#!/usr/bin/env bash
# fattree-demo.sh - select/fattree at work in a live Slurm 22.05 cluster.
#
# Starts a 64-node cluster (the 3-level, width-4 fat tree: 16 leaf switches
# of 4 nodes, 4 middle switches, one root) with SelectType=select/fattree,
# inside a private network namespace (contrib/cluster/topo-cluster), runs a
# seeded mix of short `sleep` jobs submitted over about a minute, waits for
# all of them, stops the cluster and prints, per job, where Slurm ran it and
# the hop sum of that placement (sum of pairwise hops between the 4-node
# units it touches, computed by the core library through ftconf), next to
# the hop sum the Slurm-like tree-greedy allocator gives for the same
# sequence (toposim, EASY, on an SWF trace of the jobs' real submit and run
# times), with totals, means and the ratio fattree / tree-greedy.  It also
# replays the jobs at Slurm's start times through the simulator's fattree
# allocator and counts the jobs placed on exactly Slurm's nodes.
#
# Usage: fattree-demo.sh [BUILDDIR] [--jobs N] [--seed S] [--keep]
#   BUILDDIR  a configured and built tree (default build/main; relative to
#             the current directory if it exists there, else to the source root)
#   --jobs N  jobs to submit (default 24)
#   --seed S  seed of the job mix (default 1)
#   --keep    keep the work directory (cluster logs, the SWF trace)
# Needs root (network namespace, daemons), the packages of
# contrib/install-deps.sh and a build with the Slurm plugins.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=build/main jobs=24 seed=1 keep=""
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=${2:?--jobs needs a value}; shift 2 ;;
	--seed) seed=${2:?--seed needs a value}; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "fattree-demo: unknown option '$1'" >&2; exit 2 ;;
	*) build=$1; shift ;;
	esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fattree-demo: --jobs: not a positive integer: '$jobs'" >&2; exit 2; }
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "fattree-demo: --seed: not a number: '$seed'" >&2; exit 2; }
# A directory relative to the current one, else to the source root.
if [ -d "$build" ]; then build=$(cd "$build" && pwd); else build=$root/$build; fi

die() { echo "fattree-demo: $*" >&2; exit 1; }
note() { echo "fattree-demo: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (the cluster's daemons run in a network namespace)"
cluster=$root/contrib/cluster/topo-cluster
toposim=$build/src/sim/toposim
ftconf=$build/src/tools/ftconf
plugindir=$build/plugins/.libs
for f in "$toposim" "$ftconf"; do [ -x "$f" ] || die "$f not found: build first (contrib/build.sh ${build#"$root"/})"; done
[ -e "$plugindir/select_fattree.so" ] ||
	die "$plugindir/select_fattree.so not found: the build found no Slurm headers (see contrib/slurm-headers.sh)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/fattree-demo.XXXXXX")
cleanup() {
	"$cluster" stop --dir "$dir" >/dev/null 2>&1 || true
	if [ -n "$keep" ]; then note "files kept in $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$ftconf" generate --levels 3 --width 4 -o "$dir/tree.conf"
note "starting 64 slurmd + slurmctld with select/fattree"
"$cluster" start --dir "$dir/cluster" --nodes 64 --select select/fattree \
	--sched sched/backfill --plugindir "$plugindir" --topology-conf "$dir/tree.conf" >&2
topo=$dir/cluster/topology.conf
sx() { "$cluster" exec --dir "$dir/cluster" -- "$@"; }

# ---------------------------------------------------------- the workload
# A seeded mix: sizes from single nodes to a quarter of the machine, each
# job a `sleep` of 3..10 s, one job every 1..3 s.
sizes=(1 2 3 4 4 6 8 8 12 16)
RANDOM=$seed
declare -a n_of sleep_of gap_of id_of
for ((i = 0; i < jobs; i++)); do
	n_of[i]=${sizes[RANDOM % ${#sizes[@]}]}
	sleep_of[i]=$((3 + RANDOM % 8))
	gap_of[i]=$((1 + RANDOM % 3))
done
note "submitting $jobs jobs (seed $seed)"
for ((i = 0; i < jobs; i++)); do
	id_of[i]=$(sx sbatch --parsable -N "${n_of[i]}" -t 1 -J "demo$((i + 1))" -o /dev/null \
		--wrap "sleep ${sleep_of[i]}") || die "sbatch failed"
	id_of[i]=${id_of[i]%%;*}
	[ $((i + 1)) -lt "$jobs" ] && sleep "${gap_of[i]}"
done

final='COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|PREEMPTED|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE'
note "waiting for the jobs to finish"
deadline=$(($(date +%s) + 600))
while :; do
	left=$(sx squeue -h -o %i 2>/dev/null | wc -l) || left=unknown
	[ "$left" = 0 ] && break
	[ "$(date +%s)" -lt "$deadline" ] || die "jobs still queued or running after 600 s"
	sleep 1
done

# ------------------------------------------------------ what Slurm did
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -n1; }
epoch() { date -d "$1" +%s; }
declare -a nl_of sub_of start_of end_of state_of
for ((i = 0; i < jobs; i++)); do
	rec=$(sx scontrol -o show job "${id_of[i]}") || die "job ${id_of[i]} unknown to slurmctld"
	state_of[i]=$(field "$rec" JobState)
	[[ "${state_of[i]}" =~ ^($final)$ ]] || die "job ${id_of[i]} is ${state_of[i]}"
	nl_of[i]=$(field "$rec" NodeList)
	sub_of[i]=$(epoch "$(field "$rec" SubmitTime)")
	start_of[i]=$(epoch "$(field "$rec" StartTime)")
	end_of[i]=$(epoch "$(field "$rec" EndTime)")
done
"$cluster" stop --dir "$dir/cluster" >/dev/null 2>&1
note "cluster stopped"
for ((i = 0; i < jobs; i++)); do
	echo "${id_of[i]} ${n_of[i]} ${sub_of[i]} ${start_of[i]} ${end_of[i]} ${state_of[i]} ${nl_of[i]}"
done >"$dir/slurm-jobs.txt"

# The jobs as SWF traces (1-minute limit as estimate, the run times the
# jobs really had):
#  demo.swf   Slurm's submit times: the sequence a tree-greedy scheduler
#             would have been given (the baseline, EASY like sched/backfill);
#  asrun.swf  Slurm's start times, each run one second longer (a node is
#             free again only after its job's completion, which follows the
#             recorded end second): replayed FCFS, the core must put each
#             job where select/fattree put it, the software-in-the-loop check.
t0=${sub_of[0]}
for ((i = 1; i < jobs; i++)); do [ "${sub_of[i]}" -lt "$t0" ] && t0=${sub_of[i]}; done
swf() { # FILE SUBMIT-ARRAY-NAME EXTRA-SECONDS
	local -n at=$2
	local i rt
	{
		echo "; fattree-demo workload, seed $seed"
		echo "; MaxNodes: 64"
		echo "; MaxProcs: 64"
		for ((i = 0; i < jobs; i++)); do
			rt=$((end_of[i] - start_of[i] + $3))
			[ "$rt" -ge 1 ] || rt=1
			echo "$((i + 1)) $((at[i] - t0)) -1 $rt ${n_of[i]} -1 -1 ${n_of[i]} 60 -1 1 1 1 -1 1 -1 -1 -1"
		done
	} >"$1"
}
swf "$dir/demo.swf" sub_of 0
swf "$dir/asrun.swf" start_of 1

# sim TRACE POLICY ALLOC: "INDEX NODELIST HOPSUM" per job.
sim() {
	"$toposim" --workload "$1" --policy "$2" --topology "$topo" --alloc "$3" \
		--jobs-csv - --summary-json /dev/null --quiet |
		sed -n '2,$ s/^\([0-9]*\),[^"]*"\([^"]*\)",[^,]*,[^,]*,\(.*\)$/\1 \2 \3/p'
}
declare -a tg_hop tg_nl ft_hop ar_nl
while read -r k nl h; do tg_hop[k - 1]=$h tg_nl[k - 1]=$nl; done < <(sim "$dir/demo.swf" easy tree-greedy)
while read -r k _ h; do ft_hop[k - 1]=$h; done < <(sim "$dir/demo.swf" easy fattree)
while read -r k nl _; do ar_nl[k - 1]=$nl; done < <(sim "$dir/asrun.swf" fcfs fattree)
[ "${#tg_hop[@]}" = "$jobs" ] && [ "${#ft_hop[@]}" = "$jobs" ] && [ "${#ar_nl[@]}" = "$jobs" ] ||
	die "toposim did not place all $jobs jobs"
mapfile -t hop_of < <(for ((i = 0; i < jobs; i++)); do echo "${nl_of[i]}"; done | "$ftconf" hopsum --topology "$topo")
[ "${#hop_of[@]}" = "$jobs" ] || die "ftconf hopsum gave ${#hop_of[@]} results for $jobs jobs"

# ------------------------------------------------------------- the table
echo "select/fattree on the 64-node fat tree (16 leaves x 4 nodes, 4 middle switches, 1 root)"
echo "$jobs jobs, seed $seed; hops = sum of pairwise hops between the 4-node units a job touches"
echo
printf '%-8s %5s %6s  %-26s %6s  %-26s %6s\n' job nodes wait_s "NodeList (Slurm, fattree)" hops \
	"tree-greedy (toposim)" hops
awk_in=""
for ((i = 0; i < jobs; i++)); do
	printf '%-8s %5s %6s  %-26s %6s  %-26s %6s\n' "${id_of[i]}" "${n_of[i]}" \
		"$((start_of[i] - sub_of[i]))" "${nl_of[i]}" "${hop_of[i]}" \
		"${tg_nl[i]}" "${tg_hop[i]}"
	awk_in+="${n_of[i]} ${hop_of[i]} ${tg_hop[i]} ${ft_hop[i]}"$'\n'
done
echo
awk '
	NF == 4 {
		all[1] += $2; all[2] += $3; all[3] += $4; na++
		if ($1 > 1) { mn[1] += $2; mn[2] += $3; mn[3] += $4; nm++ }
		if ($1 > 4) { mu[1] += $2; mu[2] += $3; mu[3] += $4; nu++ }
	}
	function r(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "-" }
	function m(s, n) { return n > 0 ? sprintf("%.2f", s / n) : "-" }
	END {
		printf "%-32s %16s %18s %12s %14s\n", "", "fattree (Slurm)", "tree-greedy (sim)", "ratio ft/tg", "fattree (sim)"
		printf "%-32s %16d %18d %12s %14d\n", "total hop sum, all " na " jobs", all[1], all[2], r(all[1], all[2]), all[3]
		printf "%-32s %16s %18s %12s %14s\n", "mean, " nm " multi-node jobs", m(mn[1], nm), m(mn[2], nm), r(mn[1], mn[2]), m(mn[3], nm)
		printf "%-32s %16s %18s %12s %14s\n", "mean, " nu " multi-unit jobs (>4)", m(mu[1], nu), m(mu[2], nu), r(mu[1], mu[2]), m(mu[3], nu)
	}' <<<"$awk_in"
bad=$(for ((i = 0; i < jobs; i++)); do [ "${state_of[i]}" = COMPLETED ] || echo "${id_of[i]}:${state_of[i]}"; done | paste -sd' ')
[ -z "$bad" ] || echo "jobs that did not complete: $bad"
same=0
# toposim writes node lists in the form Slurm's NodeList has
for ((i = 0; i < jobs; i++)); do [ "${ar_nl[i]}" = "${nl_of[i]}" ] && same=$((same + 1)); done
echo "fattree (sim): toposim --alloc fattree on the trace of Slurm's submit times, as the baseline."
echo "Replayed at Slurm's start times, toposim --alloc fattree put $same of $jobs jobs on the very nodes select/fattree chose."
