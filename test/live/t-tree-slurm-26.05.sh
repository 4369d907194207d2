#!/bin/bash
# tree-slurm.sh on Slurm 26.05: the core's tree-slurm-26.05 allocator
# chooses what Slurm 26.05's own topology/tree chooses, job by job.
LIVE_SLURM=26.05
TREE_ALLOC=tree-slurm-26.05
# shellcheck source=test/live/tree-slurm.sh
. "$(dirname "$0")/tree-slurm.sh"
