#!/bin/bash
# t-linear-smoke.sh on Slurm 24.11: Debian 13's own daemons from a Debian 13
# root file system (topo-cluster --slurm 24.11), select/cons_tres and
# sched/backfill on 8 nodes: allocation, a kill -9 of slurmctld with jobs
# running (none lost), a DOWN node.
LIVE_SLURM=24.11 LIVE_SELECT=select/cons_tres
# shellcheck source=test/live/t-linear-smoke.sh
. "$(dirname "$0")/t-linear-smoke.sh"
