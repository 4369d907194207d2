#!/usr/bin/env bash
# sim-main.sh BUILDDIR [DATADIR] - the simulator part of the main job
# (contrib/run-main.sh): the SDSC-SP2 trace through every cluster policy,
# then the heterogeneous policies on the paper's site, each table with a
# line saying what to read in it.  Every policy is given only the
# settings it reads, so toposim has nothing to warn about.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
b=${1:?usage: sim-main.sh BUILDDIR [DATADIR]}
data=${2:-${TP_SHARED_DATA:-$root/data}}
echo "== simulator: SDSC-SP2 (128 nodes), all policies, flat allocation"
echo "   read: backfilling (easy, conservative, rb-har) cuts fcfs's mean wait by far;"
echo "   rb-har's extensions kill fewer jobs at their limit"
"$root/contrib/sim-table.sh" "$b/src/sim/toposim" \
	"$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz"
echo
echo "== simulator: heterogeneous site (142 machines in 18 clusters, 6 speeds), 120 jobs at t=0,"
echo "   half of them possibly parallel; every heterogeneous policy (doc/heterogeneous.md)"
echo "   read: OLB (first machine free) totals the most; min-min and min-max differ, SJS keeps"
echo "   the better of the two; PJS runs a few jobs in parallel and totals the least"
het=$(mktemp -d)
trap 'rm -rf "$het"' EXIT
"$b/src/tools/hetgen" --machine site --jobs 120 --parallel 50 --seed 2 --out "$het/w"
printf '%-8s %16s %10s\n' policy total_job_time_s parallel
for p in olb min-min min-max sjs pjs; do
	"$b/src/sim/toposim" --machine "$het/w.machine" --het-jobs "$het/w.jobs" \
		--truth "$het/w.truth" --oracle --policy "$p" --jobs-csv /dev/null \
		--summary-json - --quiet |
		sed -n 's/^  "\(total_job_time\|fraction_parallel\)": \([0-9.]*\),$/\2/p' |
		paste -sd' ' | awk -v p="$p" '{ printf "%-8s %16.0f %9.1f%%\n", p, $1, 100 * $2 }'
done
