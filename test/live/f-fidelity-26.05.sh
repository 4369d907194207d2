#!/bin/bash
# fidelity.sh on Slurm 26.05: toposim's replay against the live test bed
# (slurmdbd over MariaDB), every configuration (make check-fidelity).
LIVE_SLURM=26.05
# shellcheck source=test/live/fidelity.sh
. "$(dirname "$0")/fidelity.sh"
