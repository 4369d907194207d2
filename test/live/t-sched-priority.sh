#!/bin/bash
# Live test on Slurm 22.05 (select/linear): sched/topo under
# priority/multifactor starts jobs in Slurm's priority order, and toposim
# computes the same priorities (sched-priority.sh).
# shellcheck source=test/live/sched-priority.sh
. "$(dirname "$0")/sched-priority.sh"
