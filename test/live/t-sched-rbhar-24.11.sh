#!/bin/bash
# t-sched-rbhar.sh on Slurm 24.11: RB_HAR under select/cons_tres (whole
# nodes) in Debian 13's own daemons, checked against toposim; the fill-job
# table survives `kill -9` of slurmctld.
LIVE_SLURM=24.11
# shellcheck source=test/live/t-sched-rbhar.sh
. "$(dirname "$0")/t-sched-rbhar.sh"
