#!/bin/bash
# sched-least-loaded.sh on Slurm 24.11 (select/cons_tres, nodes of unequal
# sizes): sched/topo's least-loaded policy, and toposim deciding the same
# nodes.
LIVE_SLURM=24.11
# shellcheck source=test/live/sched-least-loaded.sh
. "$(dirname "$0")/sched-least-loaded.sh"
