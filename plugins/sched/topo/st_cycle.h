/*
 * st_cycle.h - one sched/topo cycle inside slurmctld.
 *
 * Under slurmctld's locks (config read, job write, node write, partition
 * read, federation read: the set sched/backfill takes) the cycle
 *   0. counts the pending jobs and the jobs slurmctld started since the
 *      last cycle (srun/salloc at submission; st_seen.h);
 *   1. asks Slurm for the runnable pending jobs (build_job_queue(), the
 *      same eligibility tests Slurm's own schedulers use: not held,
 *      dependencies satisfied, begin time passed, partition and QOS
 *      limits); then, as the core's driver says for the policy
 *      (tp_driver_scope_of): one plan over every partition for the
 *      heterogeneous policies (st_het_cycle.h), else for each partition
 *      in slurm.conf order (st_part_cycle.h):
 *   2. builds an st_view: free nodes (the partition's nodes that are
 *      available, idle, not completing, not booting, not powered down),
 *      running jobs with Slurm's end_time as their limit, nodes still
 *      completing as ending now, and the partition's pending jobs;
 *   3. asks the core about fill jobs at their limit and carries out the
 *      answers (extend the time limit, or requeue, or let Slurm end it);
 *   4. runs one pass and starts each decided job through select_nodes()
 *      with every node but the decided ones excluded, checks it got
 *      exactly those nodes, and launches it as Slurm's schedulers do.
 */
#ifndef ST_CYCLE_H
#define ST_CYCLE_H

#include <stdint.h>
#include <time.h>

#include "st_ctx.h"

/* One cycle; the caller holds the locks above.  Returns the number of
 * jobs started. */
uint32_t st_cycle_run(st_ctx *x, time_t now);

#endif
