#!/bin/bash
# bench_eval.sh on Slurm 24.11 (Debian 13's daemons): topology/fattree and
# topology/torus against topology/tree.
EVAL_SLURM=24.11
# shellcheck source=bench/bench_eval.sh
. "$(dirname "$0")/bench_eval.sh"
