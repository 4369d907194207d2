#!/bin/bash
# sched-priority.sh on Slurm 24.11 (select/cons_tres, whole nodes): sched/topo
# under priority/multifactor starts jobs in Slurm's priority order, and
# toposim computes the same priorities.
LIVE_SLURM=24.11
# shellcheck source=test/live/sched-priority.sh
. "$(dirname "$0")/sched-priority.sh"
