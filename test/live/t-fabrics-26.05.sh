#!/bin/bash
# fabrics.sh on Slurm 26.05.
LIVE_SLURM=26.05
# shellcheck source=test/live/fabrics.sh
. "$(dirname "$0")/fabrics.sh"
