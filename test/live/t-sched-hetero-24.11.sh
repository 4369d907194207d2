#!/bin/bash
# t-sched-hetero.sh on Slurm 24.11: the heterogeneous policy (pjs) under
# select/cons_tres (whole nodes) in Debian 13's own daemons chooses the
# same partitions and node counts, and the same as toposim.
LIVE_SLURM=24.11
# shellcheck source=test/live/t-sched-hetero.sh
. "$(dirname "$0")/t-sched-hetero.sh"
