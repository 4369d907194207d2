#!/bin/bash
# t-sched-fattree.sh on Slurm 24.11: sched/topo (easy) with topology/fattree
# under select/cons_tres in Debian 13's own daemons: the same starts in the
# same order on the same nodes as toposim, and --switches.
LIVE_SLURM=24.11
# shellcheck source=test/live/t-sched-fattree.sh
. "$(dirname "$0")/t-sched-fattree.sh"
