#!/bin/bash
# t-torus-boxes.sh on Slurm 26.05: topology/torus under select/cons_tres in
# Slurm 26.05.3 built from its release source (topo-cluster --slurm 26.05): every job's
# NodeList is a box and equals toposim's prediction (torus-compact, the
# default; torus-mss on the 5D torus), also with a node DOWN.
LIVE_SLURM=26.05
# shellcheck source=test/live/t-torus-boxes.sh
. "$(dirname "$0")/t-torus-boxes.sh"
