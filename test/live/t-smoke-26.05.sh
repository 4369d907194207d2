#!/bin/bash
# t-linear-smoke.sh on Slurm 26.05: Slurm 26.05.3 built from its release source
# (topo-cluster --slurm 26.05), select/cons_tres and
# sched/backfill on 8 nodes: allocation, a kill -9 of slurmctld with jobs
# running (none lost), a DOWN node.
LIVE_SLURM=26.05 LIVE_SELECT=select/cons_tres
# shellcheck source=test/live/t-linear-smoke.sh
. "$(dirname "$0")/t-linear-smoke.sh"
