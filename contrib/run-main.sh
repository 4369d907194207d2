#!/usr/bin/env bash
# run-main.sh - the project's main job, from a fresh Debian 12 machine:
# installs what it needs, builds, and replays the SDSC-SP2 trace through
# every scheduling policy of the simulator, printing a comparison table, then
# runs two real Slurm clusters side by side (slurmctld and 64 slurmd each,
# in private network namespaces) on the 64-node fat tree, one placing jobs
# with our topology/fattree and one with Slurm's own topology/tree, gives
# both the same seeded stream of jobs and prints, per job, where each ran,
# its wait and its hop sum, then hop sums, waits and makespans; three such
# streams (seeds 1-3, 30 jobs of 1-24 nodes, one every 0-1 s) and a table
# of the three (contrib/head-to-head.sh).  Between
# the two, the heterogeneous simulator compares OLB, min-min, min-max, SJS
# and PJS on the paper's 142-machine site (the simulator part:
# contrib/sim-main.sh).
#
# Usage: run-main.sh [--slurm 24.11|26.05]
#   --slurm  the Slurm release of the live clusters: 24.11 (default;
#            Debian 13's daemons from a debootstrap root, made once, about a
#            minute) or 26.05 (26.05.3 built from its release source once,
#            about 6 min on 2 cores); either is cached in ~/.cache/slurm-topo
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
slurm=24.11
while [ $# -gt 0 ]; do
	case $1 in
	--slurm) slurm=${2:?--slurm needs 24.11 or 26.05}; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run-main: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case $slurm in 24.11 | 26.05) ;; *) echo "run-main: --slurm: expected 24.11 or 26.05, got '$slurm'" >&2; exit 2 ;; esac
data=${TP_SHARED_DATA:-$root/data}
./contrib/install-deps.sh
./contrib/build.sh build/main
./contrib/sim-main.sh build/main "$data"
echo
echo "== live clusters on Slurm $slurm: 64-node 3-level width-4 fat tree, our topology/fattree"
echo "   against Slurm's own topology/tree, side by side, the same job streams (contrib/head-to-head.sh)"
if [ "$(id -u)" -eq 0 ]; then
	./contrib/build.sh "build/main-$slurm" --with-slurm-version="$slurm"
	./contrib/head-to-head.sh "build/main-$slurm" --slurm "$slurm" --seeds "1 2 3" \
		--loads heavy --mixes odd --jobs 30 --show-runs
else
	echo "(skipped: the live clusters need root for their network namespaces)"
fi
