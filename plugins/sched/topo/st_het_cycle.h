/*
 * st_het_cycle.h - sched/topo's cycle for the heterogeneous schedules
 * (topo_policy=olb|min-min|min-max|sjs|pjs; doc/methods.md D1, hetero/het.h).
 *
 * Slurm itself starts a job submitted to several partitions wherever it
 * fits first, on as many nodes of its range as happen to be free.  Here
 * the whole machine is one plan: every partition is a machine class and a
 * cluster, every pending job may go to any of its partitions with any
 * node count of its range (-N min-max), and the expected run time of each
 * choice comes from the experiential database learned from the jobs that
 * completed (st_expdb.h, kept in StateSaveLocation/sched_topo.expdb).
 * One cycle, under the locks of st_cycle.h:
 *   1. learn: each job that completed (JOB_COMPLETE) since the last
 *      cycle adds its run time under (class, partition, node count);
 *   2. build the machine: every partition's nodes; a free node is ready
 *      now, a busy one when its job is expected to end (prediction,
 *      never after Slurm's end_time), an unusable one never;
 *   3. the queue: every runnable pending job once, with the partitions
 *      build_job_queue() lists for it, its node range and the nodes it
 *      may use (reservation, -x, --constraint, -w), in Slurm's priority
 *      order;
 *   4. tp_het_pass(): the jobs the plan starts now are started through
 *      select_nodes() in the chosen partition on exactly the chosen
 *      nodes; the others keep a reason naming the plan.
 */
#ifndef ST_HET_CYCLE_H
#define ST_HET_CYCLE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */
#include "src/slurmctld/slurmctld.h"

#include "st_ctx.h"

/* One heterogeneous cycle; returns the number of jobs started. */
uint32_t st_het_cycle(st_ctx *x, job_queue_rec_t **recs, size_t nrec,
		      time_t now);

#endif
