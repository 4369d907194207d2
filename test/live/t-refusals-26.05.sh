#!/bin/bash
# refusals.sh on Slurm 26.05.
LIVE_SLURM=26.05
# shellcheck source=test/live/refusals.sh
. "$(dirname "$0")/refusals.sh"
