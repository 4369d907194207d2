#!/bin/bash
# The main job's live part (contrib/head-to-head.sh) on Slurm 26.05:
# topology/fattree against Slurm's own topology/tree on the same short
# stream, side by side (test/live/demo.sh).
LIVE_SLURM=26.05
# shellcheck source=test/live/demo.sh
. "$(dirname "$0")/demo.sh"
