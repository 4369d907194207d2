#!/bin/bash
# Live test on Slurm 22.05 (select/linear, slurmdbd over MariaDB):
# sched/topo keeps Slurm's association limits, and toposim replays them
# from the cluster's accounting (sched-limits.sh).
# shellcheck source=test/live/sched-limits.sh
. "$(dirname "$0")/sched-limits.sh"
