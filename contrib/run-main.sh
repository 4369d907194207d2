#!/usr/bin/env bash
# run-main.sh - the project's main job, from a fresh Debian 12 machine:
# installs what it needs, builds, and replays the SDSC-SP2 trace through
# every scheduling policy of the simulator, printing a comparison table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
data=${TP_SHARED_DATA:-$root/../shared/data}
./contrib/install-deps.sh
./contrib/build.sh build/main
echo "== simulator: SDSC-SP2 (128 nodes), all policies, flat allocation"
./contrib/sim-table.sh build/main/src/sim/toposim \
	"$data/traces/SDSC-SP2-1998-4.2-cln.swf.gz"
