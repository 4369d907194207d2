#!/bin/bash
# t-sched-hetero.sh on Slurm 26.05: the heterogeneous policy (pjs) under
# select/cons_tres (whole nodes) in Slurm 26.05.3 built from its release source chooses the
# same partitions and node counts, and the same as toposim.
LIVE_SLURM=26.05
# shellcheck source=test/live/t-sched-hetero.sh
. "$(dirname "$0")/t-sched-hetero.sh"
