#!/bin/bash
# t-sched-policies.sh on Slurm 26.05: sched/topo's window-ff (both window
# rules), easy and batch-njob under select/cons_tres (whole nodes) in
# Slurm 26.05.3 built from its release source start the same jobs in the same order on the
# same nodes as toposim.
LIVE_SLURM=26.05
# shellcheck source=test/live/t-sched-policies.sh
. "$(dirname "$0")/t-sched-policies.sh"
