#!/bin/bash
# tree-slurm.sh on Slurm 24.11: the core's tree-slurm allocator chooses
# what Slurm 24.11's own topology/tree chooses, job by job.
LIVE_SLURM=24.11
TREE_ALLOC=tree-slurm
# shellcheck source=test/live/tree-slurm.sh
. "$(dirname "$0")/tree-slurm.sh"
