#!/bin/bash
# chaos.sh on Slurm 26.05: sched/topo (rb-har) with topology/fattree under
# select/cons_tres, 2,000 jobs, two kill -9 of slurmctld, one of a slurmd.
LIVE_SLURM=26.05
# shellcheck source=test/live/chaos.sh
. "$(dirname "$0")/chaos.sh"
