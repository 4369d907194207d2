/*
 * st_job.h - sched/topo's one layer over Slurm's job records, used by
 * both cycles (the partition cycle, st_part_cycle.h, and the
 * heterogeneous one, st_het_cycle.h): what a pending job may use, its
 * limit and node range, its reason, and starting it on exactly the nodes
 * a policy chose.  Callers hold slurmctld's locks (st_cycle.h).
 */
#ifndef ST_JOB_H
#define ST_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */
#include "src/common/bitstring.h"
#include "src/slurmctld/slurmctld.h"

#include "st_ctx.h"

/* Slurm time limits are minutes; INFINITE counts as a year. */
int64_t st_job_minutes_to_s(uint32_t m);
/* The limit select_nodes() will give a pending job in partition p, in
 * seconds. */
int64_t st_job_pending_estimate(job_record_t *j, part_record_t *p);
/* The top of a job's node range (-N min-max), 0 for an exact count. */
int32_t st_job_range_max(job_record_t *j);

/* Clear from b the nodes a job cannot start on now: not available
 * (down, drained), not idle, completing, booting or powered down. */
void st_job_keep_free(bitstr_t *b);

/*
 * The nodes of `mine` the job may use, as Slurm's own schedulers judge
 * them (sched/backfill: job_test_resv, job_req_node_filter): its
 * reservation, or none of the nodes reserved for others; not excluded
 * (-x); features (--constraint), memory and CPUs.  0 with *avail
 * (the caller frees it); -1 when the job cannot start now, with its
 * reason set if `say`: its reservation has not begun, or a node it
 * requires (-w) is not among them.  (A MAGNETIC reservation sched/topo
 * only tries, st_magnetic.h, says nothing.)
 */
int st_job_usable(job_record_t *j, const bitstr_t *mine, time_t now,
		  bool say, bitstr_t **avail);

/* A pending job's reason and description (xmalloc'd, "sched/topo: ...",
 * taken), logged when it changes. */
void st_job_set_reason(job_record_t *j, uint32_t reason, char *desc,
		       time_t now);
/* Whether reason r is one a cycle may replace: none yet, or the generic
 * waiting ones (its own earlier marks included). */
bool st_job_generic_reason(uint32_t r);
/* A job a policy keeps waiting: `want` (Resources for the head,
 * Priority behind it), as Slurm's schedulers say it; a reason of
 * Slurm's own that says more stays. */
void st_job_mark_waiting(job_record_t *j, uint32_t want, time_t now);
/* A job placeable again (a node back, its reservation begun): our own
 * mark goes.  True if there was one. */
bool st_job_clear_mark(job_record_t *j, time_t now);

/* A start a policy decided: into partition p on exactly `want` (through
 * select_nodes() with every other node excluded, as sched/backfill
 * narrows a job), then st_job_started and the statistics; a refusal is
 * counted and judged (st_refuse.h: held if never runnable, else it sits
 * out a while), logged once.  Slurm's return code. */
int st_job_start(st_ctx *x, job_record_t *j, part_record_t *p,
		 bitstr_t *want, bool fill, time_t now);
/* After a start: the job got exactly `want`, or the mismatch is logged
 * and counted (the live tests look for it). */
void st_job_check_nodes(st_ctx *x, job_record_t *j, bitstr_t *want);
/* What follows every start a cycle makes: launch it as Slurm's
 * schedulers do, and remember it as seen (not started at submission). */
void st_job_started(st_ctx *x, job_record_t *j, time_t now);

#endif
