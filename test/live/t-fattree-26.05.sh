#!/bin/bash
# t-fattree-replay.sh on Slurm 26.05: topology/fattree under
# select/cons_tres in Slurm 26.05.3 built from its release source (topo-cluster --slurm 26.05):
# every NodeList of the scripted 64-node sequence equals toposim's fattree
# prediction, and the mean hop sum against Slurm's own topology/tree on the
# same sequence is at most 1.
LIVE_SLURM=26.05
# shellcheck source=test/live/t-fattree-replay.sh
. "$(dirname "$0")/t-fattree-replay.sh"
