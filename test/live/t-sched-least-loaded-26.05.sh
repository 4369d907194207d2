#!/bin/bash
# sched-least-loaded.sh on Slurm 26.05 (select/cons_tres, nodes of unequal
# sizes): sched/topo's least-loaded policy, and toposim deciding the same
# nodes.
LIVE_SLURM=26.05
# shellcheck source=test/live/sched-least-loaded.sh
. "$(dirname "$0")/sched-least-loaded.sh"
