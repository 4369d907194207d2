/* st_job.c - sched/topo's Slurm job-record layer; see st_job.h. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/reservation.h"

#include "st_job.h"
#include "st_refuse.h"
#include "st_slurm.h"
#include "tpl_compat.h"

#define ST_TYPE "sched/topo"
#define ST_YEAR_S ((int64_t)365 * 24 * 3600) /* what INFINITE counts as */

int64_t st_job_minutes_to_s(uint32_t m)
{
	return m == INFINITE ? ST_YEAR_S : (int64_t)m * 60;
}

int64_t st_job_pending_estimate(job_record_t *j, part_record_t *p)
{
	uint32_t m = j->time_limit;
	if (m == NO_VAL || (p->max_time != INFINITE && m > p->max_time &&
			    j->limit_set.time != ADMIN_SET_LIMIT))
		m = p->default_time != NO_VAL ? p->default_time : p->max_time;
	return st_job_minutes_to_s(m);
}

/* The top of a job's node range (-N min-max), 0 for an exact count. */
int32_t st_job_range_max(job_record_t *j)
{
	uint32_t max = j->details->max_nodes;
	if (!max || max == NO_VAL || max <= j->details->min_nodes)
		return 0;
	return max > INT32_MAX ? INT32_MAX : (int32_t)max;
}

void st_job_keep_free(bitstr_t *b)
{
	bit_and(b, avail_node_bitmap);
	bit_and(b, idle_node_bitmap);
	bit_and_not(b, cg_node_bitmap);
	if (booting_node_bitmap)
		bit_and_not(b, booting_node_bitmap);
	st_slurm_drop_powered_down(b);
}

/* A job sched/topo leaves out of this cycle's queue gets a reason that
 * says why (squeue, scontrol show job); logged when it changes.  Takes
 * `desc` (xmalloc'd, starting "sched/topo:"). */
void st_job_set_reason(job_record_t *j, uint32_t reason, char *desc,
			time_t now)
{
	if (j->state_reason == reason && !xstrcmp(j->state_desc, desc)) {
		xfree(desc);
		return;
	}
	j->state_reason = reason;
	xfree(j->state_desc);
	j->state_desc = desc;
	last_job_update = now;
	info("%s: %pJ left pending: %s", ST_TYPE, j, j->state_desc);
}

/* select_nodes() on exactly `want`: every other node is excluded, the way
 * sched/backfill narrows a job to its non-reserved nodes. */
static int start_on(job_record_t *j, bitstr_t *want, bool fill)
{
	bitstr_t *orig = j->details->exc_node_bitmap;
	bitstr_t *exc = bit_copy(want);
	bool array_head = j->array_recs != NULL;

	bit_not(exc);
	if (orig)
		bit_or(exc, orig);
	j->details->exc_node_bitmap = exc;
	int rc = st_slurm_select_nodes(j, fill);
	if (array_head && j->details) {
		/* The pending rest of the array was copied from this record,
		 * narrowed exclusion included: give it the original. */
		job_record_t *base = find_job_record(j->array_job_id);
		if (base && base != j && base->array_recs && base->details) {
			FREE_NULL_BITMAP(base->details->exc_node_bitmap);
			if (orig)
				base->details->exc_node_bitmap = bit_copy(orig);
		}
	}
	if (j->details) {
		FREE_NULL_BITMAP(j->details->exc_node_bitmap);
		j->details->exc_node_bitmap = orig;
	} else {
		FREE_NULL_BITMAP(orig);
	}
	return rc;
}

int st_job_start(st_ctx *x, job_record_t *j, part_record_t *p,
		  bitstr_t *want, bool fill, time_t now)
{
	j->part_ptr = p;
	int rc = start_on(j, want, fill);
	if (rc != SLURM_SUCCESS) {
		x->stats.start_failed++;
		st_refuse_start(x, j, p, want, rc, now);
		return rc;
	}
	tp_refusals_forget(&x->refused, j->job_id);
	st_job_started(x, j, now);
	st_stats_started(&x->stats, x->params.policy, fill);
	return SLURM_SUCCESS;
}

void st_job_check_nodes(st_ctx *x, job_record_t *j, bitstr_t *want)
{
	if (j->node_bitmap && bit_equal(j->node_bitmap, want))
		return;
	char *names = bitmap2node_name(want);
	x->stats.mismatches++;
	error("%s: %pJ was decided on %s but started on %s", ST_TYPE, j, names,
	      j->nodes);
	xfree(names);
}

void st_job_started(st_ctx *x, job_record_t *j, time_t now)
{
	last_job_update = now;
	if (st_seen_note(&x->seen, j->job_id) < 0)
		st_seen_reset(&x->seen);
	st_slurm_launch(j);
	rebuild_job_part_list(j);
	x->started_now++;
}


/* Reasons a cycle may replace: none yet, or the generic waiting ones
 * (its own earlier marks included).  Any other is Slurm's own and says
 * more (e.g. ReqNodeNotAvail with the nodes' names): it stays. */
bool st_job_generic_reason(uint32_t r)
{
	return r == WAIT_NO_REASON || r == WAIT_RESOURCES ||
	       r == WAIT_PRIORITY;
}

int st_job_usable(job_record_t *j, const bitstr_t *mine, time_t now,
		  bool say, bitstr_t **avail_out)
{
	bitstr_t *avail = NULL;
	time_t when = now;
	int rc = st_slurm_test_resv(j, &when, &avail);
	*avail_out = NULL;
	if (rc != SLURM_SUCCESS || when > now) {
		FREE_NULL_BITMAP(avail);
		if (say)
			st_job_set_reason(j, WAIT_RESERVATION,
					  xstrdup_printf("sched/topo: %s", rc ? slurm_strerror(rc) :
							 "its reservation has not started"),
					  now);
		return -1;
	}
	bit_and(avail, (bitstr_t *)mine);
	if (j->details->exc_node_bitmap)
		bit_and_not(avail, j->details->exc_node_bitmap);
	(void) job_req_node_filter(j, avail, false);
	bitstr_t *req = j->details->req_node_bitmap;
	if (req && !bit_super_set(req, avail)) {
		/* A node it must have is down, drained, reserved or
		 * excluded. */
		FREE_NULL_BITMAP(avail);
		if (say && st_job_generic_reason(j->state_reason))
			st_job_set_reason(j, WAIT_NODE_NOT_AVAIL,
					  xstrdup("sched/topo: a node it requires (-w) is not available"),
					  now);
		return -1;
	}
	*avail_out = avail;
	return 0;
}

void st_job_mark_waiting(job_record_t *j, uint32_t want, time_t now)
{
	if (!IS_JOB_PENDING(j) || j->state_reason == want ||
	    !st_job_generic_reason(j->state_reason))
		return;
	j->state_reason = want;
	xfree(j->state_desc);
	last_job_update = now;
}

bool st_job_clear_mark(job_record_t *j, time_t now)
{
	if ((j->state_reason != FAIL_BAD_CONSTRAINTS &&
	     j->state_reason != WAIT_RESERVATION &&
	     j->state_reason != WAIT_RESOURCES &&
	     j->state_reason != WAIT_NODE_NOT_AVAIL) ||
	    xstrncmp(j->state_desc, "sched/topo:", 11))
		return false;
	j->state_reason = WAIT_NO_REASON;
	xfree(j->state_desc);
	last_job_update = now;
	return true;
}
