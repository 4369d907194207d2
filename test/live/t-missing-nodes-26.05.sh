#!/bin/bash
# missing-nodes.sh on Slurm 26.05.
LIVE_SLURM=26.05
# shellcheck source=test/live/missing-nodes.sh
. "$(dirname "$0")/missing-nodes.sh"
