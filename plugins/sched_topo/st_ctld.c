/* st_ctld.c - one sched/topo cycle inside slurmctld; see st_ctld.h. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/power.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/srun_comm.h"

#include "model/job.h"
#include "st_ctld.h"
#include "st_decide.h"
#include "tpl_nodetable.h"

#define ST_TYPE "sched/topo"
#define ST_UNIT 60                       /* Slurm time limits: minutes */
#define ST_YEAR_S ((int64_t)365 * 24 * 3600) /* what INFINITE counts as */

/* What one partition's part of a cycle works with. */
typedef struct part_cycle {
	st_ctx *x;
	part_record_t *part;
	time_t now;
	uint32_t min_cpus;   /* fewest CPUs of a node of the partition */
	tp_nodeset pset;     /* the partition's nodes (allocator indices) */
	tp_nodeset tmp;
	bitstr_t *bits;      /* scratch, node_record_count bits */
} part_cycle;

static int64_t minutes_to_s(uint32_t m)
{
	return m == INFINITE ? ST_YEAR_S : (int64_t)m * 60;
}

/* The limit select_nodes() will give a pending job, in seconds. */
static int64_t pending_estimate(job_record_t *j, part_record_t *p)
{
	uint32_t m = j->time_limit;
	if (m == NO_VAL || (p->max_time != INFINITE && m > p->max_time &&
			    j->limit_set.time != ADMIN_SET_LIMIT))
		m = p->default_time != NO_VAL ? p->default_time : p->max_time;
	return minutes_to_s(m);
}

/* Why sched/topo cannot place this queue record exactly, or NULL. */
static const char *unsupported(job_queue_rec_t *rec)
{
	job_record_t *j = rec->job_ptr;
	struct job_details *d = j->details;
	if (!d)
		return "no job details";
	if (rec->resv_ptr || j->resv_name || j->resv_list)
		return "advanced reservations";
	if (rec->use_prefer || d->prefer || (d->features_use && *d->features_use))
		return "node features";
	if (j->het_job_id)
		return "heterogeneous jobs";
	if (d->req_node_bitmap)
		return "required nodes";
	if (d->exc_node_bitmap)
		return "excluded nodes";
	if (d->contiguous)
		return "contiguous allocations";
	return NULL;
}

/* ---- building the view --------------------------------------------- */

static void set_free(part_cycle *pc)
{
	bitstr_t *b = pc->bits;
	bit_copybits(b, pc->part->node_bitmap);
	bit_and(b, avail_node_bitmap);
	bit_and(b, idle_node_bitmap);
	bit_and_not(b, cg_node_bitmap);
	if (booting_node_bitmap)
		bit_and_not(b, booting_node_bitmap);
	if (power_node_bitmap)
		bit_and_not(b, power_node_bitmap);
	tpl_bits_to_set(&pc->x->topo.map, b, &pc->x->view.c.free);
}

static int add_running(part_cycle *pc)
{
	st_ctx *x = pc->x;
	ListIterator it = list_iterator_create(job_list);
	job_record_t *j;
	int rc = 0;
	while (!rc && (j = list_next(it))) {
		if (!(IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j)) ||
		    !j->node_bitmap ||
		    !bit_overlap_any(j->node_bitmap, pc->part->node_bitmap))
			continue;
		tpl_bits_to_set(&x->topo.map, j->node_bitmap, &pc->tmp);
		tp_nodeset_and(&pc->tmp, &pc->pset);
		st_fill *f = st_fills_find(&x->fills, j->job_id);
		if (f)
			f->seen = true;
		st_jobdesc d = { .id = j->job_id, .priority = j->priority,
				 .submit = j->details ? j->details->submit_time : 0,
				 .estimate = minutes_to_s(j->time_limit),
				 .nodes = (int32_t)tp_nodeset_count(&pc->tmp),
				 .seq = (int32_t)j->job_id, .ref = j };
		if (st_view_add_running(&x->view, &d, j->start_time, j->end_time,
					&pc->tmp, f ? f->fill_for : TP_NOT_FILL,
					f ? f->extensions : 0) < 0)
			rc = -1;
	}
	list_iterator_destroy(it);
	return rc;
}

/* Nodes of the partition still completing a job: they end "now". */
static int add_completing(part_cycle *pc)
{
	st_view *v = &pc->x->view;
	bit_copybits(pc->bits, pc->part->node_bitmap);
	bit_and(pc->bits, cg_node_bitmap);
	bit_and(pc->bits, avail_node_bitmap);
	if (bit_ffs(pc->bits) < 0)
		return 0;
	tpl_bits_to_set(&pc->x->topo.map, pc->bits, &pc->tmp);
	tp_nodeset_andnot(&pc->tmp, &v->c.free);
	for (size_t i = 0; i < v->c.nrun; i++)
		tp_nodeset_andnot(&pc->tmp, &v->c.run[i].nodes);
	return st_view_add_ending(v, &pc->tmp);
}

/* A job no placement on the partition can hold would block the queue for
 * ever (the simulator rejects it at arrival): leave it out, and say why. */
static void mark_unplaceable(part_cycle *pc, job_record_t *j, int32_t nodes)
{
	char *desc = xstrdup_printf("sched/topo: no placement of %d nodes exists in partition %s",
				    nodes, pc->part->name);
	if (j->state_reason != FAIL_BAD_CONSTRAINTS ||
	    xstrcmp(j->state_desc, desc)) {
		j->state_reason = FAIL_BAD_CONSTRAINTS;
		xfree(j->state_desc);
		j->state_desc = desc;
		last_job_update = pc->now;
		info("%s: %pJ left pending: %s", ST_TYPE, j, j->state_desc);
	} else {
		xfree(desc);
	}
}

static int add_pending(part_cycle *pc, job_queue_rec_t **recs, size_t nrec)
{
	st_view *v = &pc->x->view;
	for (size_t i = 0; i < nrec; i++) {
		job_queue_rec_t *rec = recs[i];
		job_record_t *j = rec->job_ptr;
		if (rec->part_ptr != pc->part || !IS_JOB_PENDING(j))
			continue;
		const char *why = unsupported(rec);
		if (why) {
			debug("%s: %pJ left pending: %s are not supported",
			      ST_TYPE, j, why);
			continue;
		}
		st_jobdesc d = { .id = j->job_id, .priority = rec->priority,
				 .submit = j->details->submit_time,
				 .estimate = pending_estimate(j, pc->part),
				 .nodes = tp_job_nodes(j->details->min_nodes,
						       j->details->min_cpus,
						       pc->min_cpus),
				 .seq = (int32_t)j->job_id, .ref = j };
		if (!tp_placeable_test(&v->placeable, v->alloc, &pc->pset,
				       d.nodes)) {
			mark_unplaceable(pc, j, d.nodes);
			continue;
		}
		if (j->state_reason == FAIL_BAD_CONSTRAINTS &&
		    !xstrncmp(j->state_desc, "sched/topo:", 11)) {
			/* Placeable again (a new topology): our mark goes. */
			j->state_reason = WAIT_NO_REASON;
			xfree(j->state_desc);
			last_job_update = pc->now;
		}
		if (st_view_add_pending(v, &d))
			return -1;
	}
	st_view_sort_queue(v);
	return 0;
}

/* ---- carrying decisions out ---------------------------------------- */

/* Extend a running job's limit by `secs` (a multiple of ST_UNIT), as
 * `scontrol update TimeLimit=` does for an operator.  0 or -1. */
static int extend_limit(job_record_t *j, part_record_t *p, int64_t secs,
			time_t now)
{
	uint32_t add = (uint32_t)(secs / ST_UNIT);
	if (j->time_limit == INFINITE || j->time_limit == NO_VAL)
		return -1;
	uint32_t limit = j->time_limit + add;
	if (p->max_time != INFINITE && limit > p->max_time) {
		info("%s: %pJ: an extension to %u min would pass partition %s's MaxTime=%u; not extended",
		     ST_TYPE, j, limit, p->name, p->max_time);
		return -1;
	}
	acct_policy_alter_job(j, limit);
	j->time_limit = limit;
	j->end_time += (time_t)add * 60;
	j->end_time_exp = j->end_time;
	last_job_update = now;
	return 0;
}

/* st_limit_fn: carry one at-limit answer out in slurmctld.  The view is
 * left as it is (a job to be ended keeps its nodes until Slurm ends it),
 * except that an extension slurmctld refused is undone. */
static void apply_limit(void *arg, st_view *v, const st_limit_dec *d)
{
	part_cycle *pc = arg;
	st_ctx *x = pc->x;
	job_record_t *j = st_view_ref(d->job);
	tp_run *r = &v->c.run[d->run];
	st_fill *f = st_fills_find(&x->fills, j->job_id);
	int64_t ff = f ? f->fill_for : r->fill_for;

	switch (d->answer.action) {
	case TP_LIMIT_EXTEND:
		if (!extend_limit(j, pc->part, d->answer.arg, pc->now)) {
			x->stats.ext_granted++;
			info("%s: RB_HAR extends %pJ (fill job for JobId=%" PRId64 ", extension %d) by %" PRId64 " s (minTime %" PRId64 " s): TimeLimit=%u",
			     ST_TYPE, j, ff, r->extensions, d->answer.arg, d->answer.raw,
			     j->time_limit);
			return;
		}
		/* Undo it in the view and the table: it did not happen. */
		r->limit -= d->answer.arg;
		r->extensions--;
		if (f)
			f->extensions = r->extensions;
		x->stats.ext_denied++;
		return;
	case TP_LIMIT_RESUBMIT:
		if (job_requeue(slurm_conf.slurm_user_id, j->job_id, NULL, false,
				0) == SLURM_SUCCESS) {
			j->time_limit = (uint32_t)(d->answer.arg / ST_UNIT);
			if (!j->time_limit)
				j->time_limit = 1;
			st_fills_remove(&x->fills, j->job_id);
			x->stats.requeued++;
			info("%s: RB_HAR requeues %pJ (fill job for JobId=%" PRId64 ", still running after %d extension(s)) with TimeLimit=%u",
			     ST_TYPE, j, ff, r->extensions, j->time_limit);
		} else {
			info("%s: RB_HAR could not requeue %pJ; its time limit ends it",
			     ST_TYPE, j);
		}
		return;
	case TP_LIMIT_KILL:
		if (d->answer.denied)
			x->stats.ext_denied++;
		info("%s: RB_HAR: %pJ (fill job for JobId=%" PRId64 ") at its limit: %s; Slurm's time limit ends it",
		     ST_TYPE, j, ff,
		     d->answer.denied ? "extension refused" : "no extension left");
		return;
	}
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
	int rc = select_nodes(j, false, NULL, NULL, false,
			      fill ? SLURMDB_JOB_FLAG_BACKFILL :
				     SLURMDB_JOB_FLAG_SCHED);
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

static void apply_start(part_cycle *pc, const tp_start *s)
{
	st_ctx *x = pc->x;
	job_record_t *j = st_view_ref(s->job);
	bool fill = s->fill_for != TP_NOT_FILL;

	tpl_set_to_bits(&x->topo.map, &s->nodes, pc->bits);
	if (!IS_JOB_PENDING(j))
		return;
	j->part_ptr = pc->part;
	int rc = start_on(j, pc->bits, fill);
	if (rc != SLURM_SUCCESS) {
		char *want = bitmap2node_name(pc->bits);
		x->stats.start_failed++;
		info("%s: %s decided %pJ on %s, but slurmctld did not start it: %s",
		     ST_TYPE, x->params.policy, j, want, slurm_strerror(rc));
		xfree(want);
		return;
	}
	last_job_update = pc->now;
	power_g_job_start(j);
	if (j->batch_flag == 0)
		srun_allocate(j);
	else if (!IS_JOB_CONFIGURING(j))
		launch_job(j);
	rebuild_job_part_list(j);
	x->started_now++;
	st_stats_started(&x->stats, x->params.policy, fill);
	if (fill && !st_fills_add(&x->fills, j->job_id, s->fill_for))
		error("%s: out of memory recording fill job %pJ", ST_TYPE, j);
	/* One line per start, in decision order, numbered by cycle: the live
	 * tests compare this sequence with the simulator's. */
	if (fill)
		info("%s: cycle %" PRIu64 ": %s: started JobId=%u on %s in partition %s (fill for JobId=%" PRId64 ")",
		     ST_TYPE, x->stats.cycles + 1, x->params.policy, j->job_id,
		     j->nodes, pc->part->name, s->fill_for);
	else
		info("%s: cycle %" PRIu64 ": %s: started JobId=%u on %s in partition %s (in order)",
		     ST_TYPE, x->stats.cycles + 1, x->params.policy, j->job_id,
		     j->nodes, pc->part->name);
	if (!j->node_bitmap || !bit_equal(j->node_bitmap, pc->bits)) {
		char *want = bitmap2node_name(pc->bits);
		x->stats.mismatches++;
		error("%s: %pJ was decided on %s but started on %s",
		      ST_TYPE, j, want, j->nodes);
		xfree(want);
	}
}

/* Pending reasons as Slurm's schedulers set them, and the reserved job's
 * expected start time (squeue --start). */
static void mark_waiting(part_cycle *pc)
{
	tp_cluster *c = &pc->x->view.c;
	for (size_t i = 0; i < c->nqueue; i++) {
		job_record_t *j = st_view_ref(c->queue[i]);
		uint32_t want = i ? WAIT_PRIORITY : WAIT_RESOURCES;
		if (!IS_JOB_PENDING(j) || j->state_reason == want ||
		    (j->state_reason != WAIT_NO_REASON &&
		     j->state_reason != WAIT_RESOURCES &&
		     j->state_reason != WAIT_PRIORITY))
			continue;
		j->state_reason = want;
		xfree(j->state_desc);
		last_job_update = pc->now;
	}
	if (c->resv_job && c->resv_time != INT64_MAX) {
		job_record_t *j = st_view_ref(c->resv_job);
		if (IS_JOB_PENDING(j))
			j->start_time = (time_t)c->resv_time;
	}
}

/* ---- one partition, one cycle -------------------------------------- */

static int build_view(part_cycle *pc, job_queue_rec_t **recs, size_t nrec,
		      size_t maxjobs)
{
	st_view *v = &pc->x->view;
	if (st_view_begin(v, pc->now, maxjobs))
		return -1;
	tpl_bits_to_set(&pc->x->topo.map, pc->part->node_bitmap, &pc->pset);
	pc->min_cpus = tpl_part_min_cpus(pc->part);
	set_free(pc);
	if (add_running(pc) || add_completing(pc) ||
	    add_pending(pc, recs, nrec))
		return -1;
	return 0;
}

static void decide_limits(part_cycle *pc)
{
	st_ctx *x = pc->x;
	if (!x->policy->ops->at_limit)
		return;
	/* Ask one period (plus a second of slack) ahead: Slurm ends a job
	 * at its first time-limit check after end_time. */
	if (st_decide_limits(x->policy, &x->view, &x->fills,
			     x->params.period + 1, ST_UNIT, ST_ASK_FILL,
			     apply_limit, pc) < 0)
		error("%s: out of memory in the at-limit questions", ST_TYPE);
}

static void cycle_partition(part_cycle *pc, job_queue_rec_t **recs,
			    size_t nrec, size_t maxjobs)
{
	st_ctx *x = pc->x;
	if (!pc->part->node_bitmap || build_view(pc, recs, nrec, maxjobs)) {
		if (pc->part->node_bitmap)
			error("%s: out of memory building partition %s's view",
			      ST_TYPE, pc->part->name);
		return;
	}
	st_view *v = &x->view;
	x->stats.last_running += (uint32_t)(v->c.nrun - v->nending);
	decide_limits(pc);
	if (!v->c.nqueue)
		return;
	x->stats.last_pending += (uint32_t)v->c.nqueue;
	tp_driver_pass(x->policy, &v->c);
	for (size_t k = 0; k < v->c.nstarts; k++)
		apply_start(pc, &v->c.starts[k]);
	mark_waiting(pc);
}

uint32_t st_ctld_cycle(st_ctx *x, time_t now)
{
	List q = build_job_queue(true, false);
	size_t nrec = q ? (size_t)list_count(q) : 0;
	job_queue_rec_t **recs = xcalloc(nrec + 1, sizeof(*recs));
	size_t k = 0;
	if (q) {
		ListIterator it = list_iterator_create(q);
		job_queue_rec_t *rec;
		while ((rec = list_next(it)) && k < nrec)
			recs[k++] = rec;
		list_iterator_destroy(it);
	}
	size_t maxjobs = (size_t)list_count(job_list) + nrec + 2;

	part_cycle pc = { .x = x, .now = now };
	tp_nodeset_init(&pc.pset, x->topo.topo.nnodes);
	tp_nodeset_init(&pc.tmp, x->topo.topo.nnodes);
	pc.bits = bit_alloc(node_record_count);
	x->started_now = 0;
	x->stats.last_pending = x->stats.last_running = 0;
	st_fills_unsee(&x->fills);

	ListIterator pit = list_iterator_create(part_list);
	part_record_t *part;
	while ((part = list_next(pit))) {
		pc.part = part;
		cycle_partition(&pc, recs, k, maxjobs);
	}
	list_iterator_destroy(pit);

	size_t gone = st_fills_drop_unseen(&x->fills);
	if (gone)
		debug("%s: %zu fill job(s) ended", ST_TYPE, gone);
	x->stats.last_started = x->started_now;
	FREE_NULL_BITMAP(pc.bits);
	tp_nodeset_fini(&pc.pset);
	tp_nodeset_fini(&pc.tmp);
	xfree(recs);
	FREE_NULL_LIST(q);
	return x->started_now;
}
