#!/bin/bash
# fabrics.sh on Slurm 24.11.
LIVE_SLURM=24.11
# shellcheck source=test/live/fabrics.sh
. "$(dirname "$0")/fabrics.sh"
