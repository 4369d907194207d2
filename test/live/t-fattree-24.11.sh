#!/bin/bash
# t-fattree-replay.sh on Slurm 24.11: topology/fattree under
# select/cons_tres in Debian 13's own daemons (topo-cluster --slurm 24.11):
# every NodeList of the scripted 64-node sequence equals toposim's fattree
# prediction, and the mean hop sum against Slurm's own topology/tree on the
# same sequence is at most 1.
LIVE_SLURM=24.11
# shellcheck source=test/live/t-fattree-replay.sh
. "$(dirname "$0")/t-fattree-replay.sh"
