#!/bin/bash
# bench_eval.sh on Slurm 26.05 (26.05.3 built from source): topology/fattree
# and topology/torus against topology/tree, and topology/torus against
# Slurm's topology/torus3d on the same torus.
EVAL_SLURM=26.05
# shellcheck source=bench/bench_eval.sh
. "$(dirname "$0")/bench_eval.sh"
