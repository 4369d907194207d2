#!/bin/bash
# bad-input.sh on Slurm 24.11.
LIVE_SLURM=24.11
# shellcheck source=test/live/bad-input.sh
. "$(dirname "$0")/bad-input.sh"
