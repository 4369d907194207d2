#!/bin/bash
# missing-nodes.sh on Slurm 22.05.
# shellcheck source=test/live/missing-nodes.sh
. "$(dirname "$0")/missing-nodes.sh"
