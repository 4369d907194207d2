#!/bin/bash
# t-sched-rbhar.sh on Slurm 26.05: RB_HAR under select/cons_tres (whole
# nodes) in Slurm 26.05.3 built from its release source, checked against toposim; the fill-job
# table survives `kill -9` of slurmctld.
LIVE_SLURM=26.05
# shellcheck source=test/live/t-sched-rbhar.sh
. "$(dirname "$0")/t-sched-rbhar.sh"
