#!/bin/bash
# Live test on Slurm 22.05 (select/cons_tres, nodes of unequal sizes):
# sched/topo's least-loaded policy, and toposim deciding the same nodes
# (sched-least-loaded.sh).
# shellcheck source=test/live/sched-least-loaded.sh
. "$(dirname "$0")/sched-least-loaded.sh"
