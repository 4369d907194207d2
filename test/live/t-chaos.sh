#!/bin/bash
# chaos.sh on Slurm 22.05: sched/topo (rb-har) with select/fattree, 2,000
# jobs, two kill -9 of slurmctld, one of a slurmd.
# shellcheck source=test/live/chaos.sh
. "$(dirname "$0")/chaos.sh"
