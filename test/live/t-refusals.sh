#!/bin/bash
# refusals.sh on Slurm 22.05 (select/linear).
LIVE_SLURM=22.05
# shellcheck source=test/live/refusals.sh
. "$(dirname "$0")/refusals.sh"
