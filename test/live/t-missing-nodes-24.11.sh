#!/bin/bash
# missing-nodes.sh on Slurm 24.11.
LIVE_SLURM=24.11
# shellcheck source=test/live/missing-nodes.sh
. "$(dirname "$0")/missing-nodes.sh"
