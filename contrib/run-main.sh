#!/usr/bin/env bash
# run-main.sh - the project's main job, from a fresh Debian 12 machine:
# installs what it needs, builds, and replays the SDSC-SP2 trace through
# every scheduling policy of the simulator, printing a comparison table, then
# runs a real Slurm cluster (munged, slurmctld, 64 slurmd in a private network
# namespace) with select/fattree on a short workload, printing where each job
# ran and its hop sum against the tree-greedy baseline.
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
echo "== live cluster: 64-node 3-level width-4 fat tree, select/fattree vs the tree-greedy baseline"
if [ "$(id -u)" -eq 0 ]; then
	./contrib/fattree-demo.sh build/main
else
	echo "(skipped: the live cluster needs root for its network namespace)"
fi
