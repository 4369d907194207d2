/*
 * st_ctld.h - one sched/topo cycle inside slurmctld.
 *
 * Under slurmctld's locks (config read, job write, node write, partition
 * read, federation read: the set sched/backfill takes) the cycle
 *   0. counts the pending jobs and the jobs slurmctld started since the
 *      last cycle (srun/salloc at submission; st_seen.h);
 *   1. asks Slurm for the runnable pending jobs (build_job_queue(), the
 *      same eligibility tests Slurm's own schedulers use: not held,
 *      dependencies satisfied, begin time passed, partition and QOS
 *      limits), then for each partition in slurm.conf order:
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
#ifndef ST_CTLD_H
#define ST_CTLD_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */
#include "src/common/bitstring.h"
#include "src/slurmctld/slurmctld.h"

#include "policy/policy.h"
#include "st_fills.h"
#include "st_hetero.h"
#include "st_seen.h"
#include "io/settings.h"
#include "st_stats.h"
#include "st_topo.h"
#include "st_view.h"

typedef struct st_ctx {
	tp_settings params;  /* topo_ SchedulerParameters */
	tp_policy *policy;
	st_topo topo;
	bool topo_ok;
	st_fills fills;
	st_het het;          /* heterogeneous policies: run-time database */
	st_seen seen;        /* running jobs of the last cycle */
	st_stats stats;
	st_view view;
	uint32_t started_now; /* starts of the current cycle */
} st_ctx;

/* One cycle over every partition; the caller holds the locks above.
 * Returns the number of jobs started. */
uint32_t st_ctld_cycle(st_ctx *x, time_t now);

/* Clear from b the nodes a job cannot start on now: not available
 * (down, drained), not idle, completing, booting or powered down. */
void st_ctld_keep_free(bitstr_t *b);
/* The limit select_nodes() will give a pending job in partition p, in
 * seconds (INFINITE: a year). */
int64_t st_ctld_pending_estimate(job_record_t *j, part_record_t *p);
/* The top of a job's node range (-N min-max), 0 for an exact count. */
int32_t st_ctld_range_max(job_record_t *j);
/* A pending job's reason and description (xmalloc'd, "sched/topo: ...",
 * taken), logged when it changes. */
void st_ctld_set_reason(job_record_t *j, uint32_t reason, char *desc,
			time_t now);
/* A start a policy decided: into partition p on exactly `want` (through
 * select_nodes() with every other node excluded, as sched/backfill
 * narrows a job), then st_ctld_started and the statistics; a refusal is
 * logged and counted.  Slurm's return code. */
int st_ctld_start(st_ctx *x, job_record_t *j, part_record_t *p,
		  bitstr_t *want, bool fill, time_t now);
/* After a start: the job got exactly `want`, or the mismatch is logged
 * and counted (the live tests look for it). */
void st_ctld_check_nodes(st_ctx *x, job_record_t *j, bitstr_t *want);
/* What follows every start a cycle makes: launch it as Slurm's
 * schedulers do, and remember it as seen (not started at submission). */
void st_ctld_started(st_ctx *x, job_record_t *j, time_t now);

#endif
