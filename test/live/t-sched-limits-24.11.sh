#!/bin/bash
# sched-limits.sh on Slurm 24.11 (select/cons_tres, whole nodes, slurmdbd
# over MariaDB): sched/topo keeps Slurm's association limits, and toposim
# replays them from the cluster's accounting.
LIVE_SLURM=24.11
# shellcheck source=test/live/sched-limits.sh
. "$(dirname "$0")/sched-limits.sh"
