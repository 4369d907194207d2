#!/bin/bash
# sched-priority.sh on Slurm 26.05 (select/cons_tres, whole nodes): sched/topo
# under priority/multifactor starts jobs in Slurm's priority order, and
# toposim computes the same priorities.
LIVE_SLURM=26.05
# shellcheck source=test/live/sched-priority.sh
. "$(dirname "$0")/sched-priority.sh"
