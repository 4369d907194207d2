#!/usr/bin/env bash
# run-main.sh - the project's main job, from a fresh Debian 12 machine:
# installs what it needs, builds, and replays the SDSC-SP2 trace through
# every scheduling policy of the simulator, printing a comparison table, then
# runs a real Slurm cluster (munged, slurmctld, 64 slurmd in a private network
# namespace) with select/fattree on a short workload, printing where each job
# ran and its hop sum against the tree-greedy baseline.  Between the two, the
# heterogeneous simulator compares OLB, min-min, min-max, SJS and PJS on
# the paper's 142-machine site.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
data=${TP_SHARED_DATA:-$root/../shared/data}
./contrib/install-deps.sh
./contrib/build.sh build/main
echo "== simulator: SDSC-SP2 (128 nodes), all policies, flat allocation"
./contrib/sim-table.sh build/main/src/sim/toposim \
	"$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz"
echo
echo "== simulator: heterogeneous site (142 machines in 18 clusters, 6 speeds), 15 jobs at t=0,"
echo "   half of them possibly parallel; every heterogeneous policy (doc/heterogeneous.md)"
het=$(mktemp -d)
build/main/src/tools/hetgen --machine site --jobs 15 --parallel 50 --seed 1 --out "$het/w"
printf '%-8s %16s %10s\n' policy total_job_time_s parallel
for p in olb min-min min-max sjs pjs; do
	build/main/src/sim/toposim --machine "$het/w.machine" --het-jobs "$het/w.jobs" \
		--truth "$het/w.truth" --oracle --policy "$p" --jobs-csv /dev/null \
		--summary-json - --quiet |
		sed -n 's/^  "\(total_job_time\|fraction_parallel\)": \([0-9.]*\),$/\2/p' |
		paste -sd' ' | awk -v p="$p" '{ printf "%-8s %16.0f %9.1f%%\n", p, $1, 100 * $2 }'
done
rm -rf "$het"
echo
echo "== live cluster: 64-node 3-level width-4 fat tree, select/fattree vs the tree-greedy baseline"
if [ "$(id -u)" -eq 0 ]; then
	./contrib/fattree-demo.sh build/main
else
	echo "(skipped: the live cluster needs root for its network namespace)"
fi
