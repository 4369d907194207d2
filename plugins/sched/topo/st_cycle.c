/* st_cycle.c - one sched/topo cycle; see st_cycle.h. */
#include "config.h"

#include <inttypes.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/job_scheduler.h"

#include "driver/driver.h"
#include "st_cycle.h"
#include "st_het_cycle.h"
#include "st_part_cycle.h"
#include "tpl_compat.h"

#define ST_TYPE "sched/topo"

static uint32_t pending_count(job_record_t *j)
{
	if (j->array_recs && j->array_recs->task_cnt)
		return j->array_recs->task_cnt;
	return 1;
}

/* A job that started since the last cycle (it may have ended already):
 * its start time is not older than that cycle and it got nodes (a job
 * cancelled while pending gets a start time but no nodes). */
static bool started_since(job_record_t *j, int64_t since)
{
	return j->start_time && (int64_t)j->start_time >= since &&
	       j->nodes && j->nodes[0];
}

/* Count the pending jobs, and the jobs sched/topo neither saw running
 * last cycle nor started: slurmctld started them at submission. */
static void survey_jobs(st_ctx *x)
{
	int64_t since = x->seen.since;
	tpl_list_iter_t it = list_iterator_create(job_list);
	job_record_t *j;
	while ((j = list_next(it))) {
		if (IS_JOB_PENDING(j)) {
			x->stats.last_pending += pending_count(j);
			continue;
		}
		bool runs = IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j);
		if (!runs && !started_since(j, since))
			continue;
		int fresh = st_seen_note(&x->seen, j->job_id);
		if (fresh < 0) {
			st_seen_reset(&x->seen);
			break;
		}
		if (fresh && started_since(j, since)) {
			x->stats.started_at_submit++;
			info("%s: %pJ was started by slurmctld at submission on %s (top priority in partition %s, fitted)",
			     ST_TYPE, j, j->nodes,
			     j->part_ptr ? j->part_ptr->name : "?");
		}
	}
	list_iterator_destroy(it);
}

uint32_t st_cycle_run(st_ctx *x, time_t now)
{
	tpl_list_t q = build_job_queue(true, false);
	size_t nrec = q ? (size_t)list_count(q) : 0;
	job_queue_rec_t **recs = xcalloc(nrec + 1, sizeof(*recs));
	size_t k = 0;
	/* Room in the view: every job, every queue record, and an array's
	 * pending tasks (array_tasks() queues at most one per node). */
	size_t maxjobs = (size_t)list_count(job_list) + nrec + 2;
	if (q) {
		tpl_list_iter_t it = list_iterator_create(q);
		job_queue_rec_t *rec;
		while ((rec = list_next(it)) && k < nrec) {
			recs[k++] = rec;
			job_array_struct_t *a = rec->job_ptr->array_recs;
			if (a && a->task_cnt > 1)
				maxjobs += a->task_cnt < (uint32_t)node_record_count
					   ? a->task_cnt : (size_t)node_record_count;
		}
		list_iterator_destroy(it);
	}

	x->started_now = 0;
	x->stats.last_pending = x->stats.last_queued = 0;
	x->stats.last_running = 0;
	survey_jobs(x);
	st_fills_unsee(&x->fills);
	tp_refusals_unsee(&x->refused);

	switch (tp_driver_scope_of(x->policy)) {
	case TP_DRIVE_MACHINE:
		st_het_cycle(x, recs, k, now);
		break;
	case TP_DRIVE_CLUSTER:
		st_part_cycle_all(x, recs, k, maxjobs, now);
		break;
	}

	st_seen_end(&x->seen, (int64_t)now);
	(void)tp_refusals_drop_unseen(&x->refused);
	size_t gone = st_fills_drop_unseen(&x->fills);
	if (gone)
		debug("%s: %zu fill job(s) ended", ST_TYPE, gone);
	x->stats.last_started = x->started_now;
	xfree(recs);
	FREE_NULL_LIST(q);
	return x->started_now;
}
