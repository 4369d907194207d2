#!/bin/bash
# t-sched-policies.sh on Slurm 24.11: sched/topo's window-ff (both window
# rules), easy and batch-njob under select/cons_tres (whole nodes) in
# Debian 13's own daemons start the same jobs in the same order on the
# same nodes as toposim.
LIVE_SLURM=24.11
# shellcheck source=test/live/t-sched-policies.sh
. "$(dirname "$0")/t-sched-policies.sh"
