#!/bin/bash
# bad-input.sh on Slurm 26.05.
LIVE_SLURM=26.05
# shellcheck source=test/live/bad-input.sh
. "$(dirname "$0")/bad-input.sh"
