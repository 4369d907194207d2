#!/bin/bash
# refusals.sh on Slurm 24.11.
LIVE_SLURM=24.11
# shellcheck source=test/live/refusals.sh
. "$(dirname "$0")/refusals.sh"
