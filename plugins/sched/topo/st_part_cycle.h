/*
 * st_part_cycle.h - sched/topo's partition cycle (every policy but the
 * heterogeneous ones), one partition at a time:
 *   1. builds an st_view: free nodes (the partition's nodes that are
 *      available, idle, not completing, not booting, not powered down),
 *      running jobs with Slurm's end_time as their limit, nodes still
 *      completing as ending now, and the partition's pending jobs that
 *      can ever be placed (st_job_usable; the rest keep a reason), a job
 *      a MAGNETIC reservation attracts inside it if it can start there
 *      now (st_magnetic.h);
 *   2. asks the core about fill jobs at their limit and carries out the
 *      answers (extend the time limit, or requeue, or let Slurm end it);
 *   3. runs one pass (tp_driver_pass) and starts each decided job
 *      through st_job_start on exactly the decided nodes.
 */
#ifndef ST_PART_CYCLE_H
#define ST_PART_CYCLE_H

#include <stddef.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */
#include "src/slurmctld/slurmctld.h"

#include "st_ctx.h"

/* Every partition, in slurm.conf order; recs: the queue records of
 * build_job_queue(); maxjobs: room for the view's jobs. */
void st_part_cycle_all(st_ctx *x, job_queue_rec_t **recs, size_t nrec,
		       size_t maxjobs, time_t now);

#endif
