#!/bin/bash
# cons-tres.sh on Slurm 24.11.
LIVE_SLURM=24.11
# shellcheck source=test/live/cons-tres.sh
. "$(dirname "$0")/cons-tres.sh"
