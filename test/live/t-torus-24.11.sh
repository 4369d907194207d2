#!/bin/bash
# t-torus-boxes.sh on Slurm 24.11: topology/torus under select/cons_tres in
# Debian 13's own daemons (topo-cluster --slurm 24.11): every job's
# NodeList is a box and equals toposim's prediction (torus-compact, the
# default; torus-mss on the 5D torus), also with a node DOWN.
LIVE_SLURM=24.11
# shellcheck source=test/live/t-torus-boxes.sh
. "$(dirname "$0")/t-torus-boxes.sh"
