#!/bin/bash
# fabrics.sh on Slurm 22.05.
# shellcheck source=test/live/fabrics.sh
. "$(dirname "$0")/fabrics.sh"
