#!/bin/bash
# sched-limits.sh on Slurm 26.05 (select/cons_tres, whole nodes, slurmdbd
# over MariaDB): sched/topo keeps Slurm's association limits, and toposim
# replays them from the cluster's accounting.
LIVE_SLURM=26.05
# shellcheck source=test/live/sched-limits.sh
. "$(dirname "$0")/sched-limits.sh"
