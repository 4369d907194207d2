#!/bin/bash
# t-sched-fattree.sh on Slurm 26.05: sched/topo (easy) with topology/fattree
# under select/cons_tres in Slurm 26.05.3 built from its release source: the same starts in the
# same order on the same nodes as toposim, and --switches.
LIVE_SLURM=26.05
# shellcheck source=test/live/t-sched-fattree.sh
. "$(dirname "$0")/t-sched-fattree.sh"
