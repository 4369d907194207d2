#!/bin/bash
# cons-tres.sh on Slurm 26.05.
LIVE_SLURM=26.05
# shellcheck source=test/live/cons-tres.sh
. "$(dirname "$0")/cons-tres.sh"
