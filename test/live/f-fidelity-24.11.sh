#!/bin/bash
# fidelity.sh on Slurm 24.11: toposim's replay against the live test bed
# (slurmdbd over MariaDB), every configuration (make check-fidelity).
LIVE_SLURM=24.11
# shellcheck source=test/live/fidelity.sh
. "$(dirname "$0")/fidelity.sh"
