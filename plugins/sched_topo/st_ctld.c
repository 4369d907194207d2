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
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/reservation.h"

#include "model/job.h"
#include "st_ctld.h"
#include "st_decide.h"
#include "st_hetero.h"
#include "st_slurm.h"
#include "tpl_compat.h"
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
	tp_nodeset uset;     /* of which usable (`usable`, allocator indices) */
	tp_nodeset tmp;
	bitstr_t *bits;      /* scratch, node_record_count bits */
	bitstr_t *usable;    /* the partition's nodes that are available (up,
			      * not drained): what a job without node
			      * constraints may use */
} part_cycle;

static int64_t minutes_to_s(uint32_t m)
{
	return m == INFINITE ? ST_YEAR_S : (int64_t)m * 60;
}

/* The limit select_nodes() will give a pending job, in seconds. */
int64_t st_ctld_pending_estimate(job_record_t *j, part_record_t *p)
{
	uint32_t m = j->time_limit;
	if (m == NO_VAL || (p->max_time != INFINITE && m > p->max_time &&
			    j->limit_set.time != ADMIN_SET_LIMIT))
		m = p->default_time != NO_VAL ? p->default_time : p->max_time;
	return minutes_to_s(m);
}

/* Why sched/topo cannot place this queue record, or NULL.  Node
 * constraints (-w, -x, --contiguous, --reservation, --constraint) are
 * placed (job_constraints); --prefer, a preference, is not modelled. */
static const char *unsupported(job_queue_rec_t *rec)
{
	job_record_t *j = rec->job_ptr;
	if (!j->details)
		return "no job details";
	if (j->het_job_id)
		return "heterogeneous jobs are not supported";
	return NULL;
}

/* How many of a pending record's tasks to queue: 1 for a job; for a job
 * array's pending tasks, each its own job in the pass (as many as the
 * partition's usable nodes could hold at once, within the array's task
 * limit, %N): every start splits one task off the record (start_task). */
static int32_t array_tasks(part_cycle *pc, job_record_t *j, int32_t nodes)
{
	job_array_struct_t *a = j->array_recs;
	if (!a || j->array_task_id != NO_VAL || a->task_cnt <= 1)
		return 1;
	int64_t n = a->task_cnt;
	if (a->max_run_tasks) {
		int64_t room = (int64_t)a->max_run_tasks - a->tot_run_tasks;
		n = room < n ? room : n;
	}
	int64_t fit = tp_nodeset_count(&pc->uset) / (nodes > 0 ? nodes : 1);
	n = fit < n ? fit : n;
	return n < 1 ? 1 : (int32_t)n;
}

/* The top of a job's node range (-N min-max), 0 for an exact count. */
int32_t st_ctld_range_max(job_record_t *j)
{
	uint32_t max = j->details->max_nodes;
	if (!max || max == NO_VAL || max <= j->details->min_nodes)
		return 0;
	return max > INT32_MAX ? INT32_MAX : (int32_t)max;
}

/* ---- building the view --------------------------------------------- */

void st_ctld_keep_free(bitstr_t *b)
{
	bit_and(b, avail_node_bitmap);
	bit_and(b, idle_node_bitmap);
	bit_and_not(b, cg_node_bitmap);
	if (booting_node_bitmap)
		bit_and_not(b, booting_node_bitmap);
	st_slurm_drop_powered_down(b);
}

static void set_free(part_cycle *pc)
{
	bitstr_t *b = pc->bits;
	bit_copybits(b, pc->part->node_bitmap);
	st_ctld_keep_free(b);
	tpl_bits_to_set(&pc->x->topo.map, b, &pc->x->view.c.free);
	tp_cluster_recount_free(&pc->x->view.c);
}

static int add_running(part_cycle *pc)
{
	st_ctx *x = pc->x;
	tpl_list_iter_t it = list_iterator_create(job_list);
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

/* A job sched/topo leaves out of this cycle's queue gets a reason that
 * says why (squeue, scontrol show job); logged when it changes.  Takes
 * `desc` (xmalloc'd, starting "sched/topo:"). */
void st_ctld_set_reason(job_record_t *j, uint32_t reason, char *desc,
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

static void set_reason(part_cycle *pc, job_record_t *j, uint32_t reason,
		       char *desc)
{
	st_ctld_set_reason(j, reason, desc, pc->now);
}

/* A job no placement on the partition can hold would block the queue for
 * ever (the simulator rejects it at arrival): leave it out, and say why. */
static void mark_unplaceable(part_cycle *pc, job_record_t *j, int32_t nodes,
			     bool constrained)
{
	set_reason(pc, j, FAIL_BAD_CONSTRAINTS,
		   xstrdup_printf("sched/topo: no placement of %d nodes exists on the available nodes of partition %s%s",
				  nodes, pc->part->name,
				  constrained ? " within the nodes the job may use" : ""));
}

/* The job's node constraints, as Slurm's own schedulers judge them
 * (sched/backfill: job_test_resv, job_req_node_filter): its reservation,
 * or none of the nodes reserved for others; the partition's usable
 * nodes; not excluded (-x); features (--constraint), memory and CPUs;
 * required nodes (-w); --contiguous.  Into d; 0, or -1 when the job cannot
 * start now (its reason says why). */
static int job_constraints(part_cycle *pc, job_record_t *j, st_jobdesc *d)
{
	st_view *v = &pc->x->view;
	tpl_details_t *dt = j->details;
	bitstr_t *avail = NULL;
	time_t when = pc->now;
	int rc = st_slurm_test_resv(j, &when, &avail);
	if (rc != SLURM_SUCCESS || when > pc->now) {
		FREE_NULL_BITMAP(avail);
		set_reason(pc, j, WAIT_RESERVATION,
			   xstrdup_printf("sched/topo: %s", rc ? slurm_strerror(rc) :
					  "its reservation has not started"));
		return -1;
	}
	bit_and(avail, pc->usable);
	if (dt->exc_node_bitmap)
		bit_and_not(avail, dt->exc_node_bitmap);
	(void) job_req_node_filter(j, avail, false);
	if (!bit_equal(avail, pc->usable)) {
		tp_nodeset *s = st_view_set(v);
		if (!s)
			rc = -1;
		else
			tpl_bits_to_set(&pc->x->topo.map, avail, s);
		d->allowed = s;
	}
	if (dt->req_node_bitmap && !bit_super_set(dt->req_node_bitmap, avail)) {
		/* A node it must have is down, drained, reserved or
		 * excluded: Slurm's reason (ReqNodeNotAvail) says so. */
		FREE_NULL_BITMAP(avail);
		if (j->state_reason == WAIT_NO_REASON)
			set_reason(pc, j, WAIT_NODE_NOT_AVAIL,
				   xstrdup("sched/topo: a node it requires (-w) is not available"));
		return -1;
	}
	FREE_NULL_BITMAP(avail);
	if (dt->req_node_bitmap && bit_set_count(dt->req_node_bitmap)) {
		tp_nodeset *s = st_view_set(v);
		if (!s)
			return -1;
		tpl_bits_to_set(&pc->x->topo.map, dt->req_node_bitmap, s);
		d->required = s;
	}
	d->contiguous = dt->contiguous;
	return rc ? -1 : 0;
}

/* Could the job be placed on the partition's usable nodes (busy or
 * not) within its constraints?  A job that could not (nodes down or
 * drained, a size no placement has) is left out of the queue with a
 * reason, as the simulator rejects it at arrival: at the head of the
 * queue it would block every job behind it.  It is asked again every
 * cycle, so it comes back when nodes do.  Per size, remembered, when
 * unconstrained. */
static bool ever_placeable(part_cycle *pc, const st_jobdesc *d)
{
	st_view *v = &pc->x->view;
	tp_job job = { .nodes = d->nodes, .max_nodes = d->max_nodes,
		       .allowed = d->allowed, .required = d->required,
		       .contiguous = d->contiguous };
	tp_alloc_req req = tp_job_req(&job);
	if (!tp_alloc_req_constrained(&req) && !tp_job_has_range(&job))
		return tp_placeable_test(&v->placeable, v->alloc, &pc->uset,
					 d->nodes);
	return tp_job_fits(v->alloc, &pc->uset, &job, &v->placeable.scratch);
}

/* --switches=N[@wait]: N while the job may still wait for a placement on
 * at most N leaf switches, 0 once its wait is over (it then runs on any,
 * as in Slurm) or when the machine has no switches (flat, torus). */
static int switch_limit(part_cycle *pc, job_record_t *j)
{
	if (!j->req_switch || !pc->x->topo.topo.groups)
		return 0;
	if (!j->wait4switch_start)
		j->wait4switch_start = pc->now; /* as Slurm's tree code does */
	if (pc->now >= j->wait4switch_start + (time_t)j->wait4switch)
		return 0;
	return j->req_switch > INT32_MAX ? INT32_MAX : (int)j->req_switch;
}

/* A --switches job that cannot be placed within its switch count now is
 * skipped (as sched/backfill skips it): it blocks nobody while it waits. */
static bool switches_wait(part_cycle *pc, job_record_t *j, st_jobdesc *d)
{
	st_view *v = &pc->x->view;
	tp_job job = { .nodes = d->nodes, .max_nodes = d->max_nodes,
		       .allowed = d->allowed, .required = d->required,
		       .contiguous = d->contiguous, .max_groups = d->max_groups };
	if (!d->max_groups ||
	    tp_job_fits(v->alloc, &v->c.free, &job, &v->placeable.scratch))
		return false;
	set_reason(pc, j, WAIT_RESOURCES,
		   xstrdup_printf("sched/topo: waiting up to %ld s for %d nodes on at most %d switch(es)",
				  (long)(j->wait4switch_start + j->wait4switch - pc->now),
				  d->nodes, d->max_groups));
	return true;
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
			set_reason(pc, j, FAIL_BAD_CONSTRAINTS,
				   xstrdup_printf("sched/topo: %s", why));
			continue;
		}
		st_jobdesc d = { .id = j->job_id, .priority = rec->priority,
				 .submit = j->details->submit_time,
				 .estimate = st_ctld_pending_estimate(j, pc->part),
				 .nodes = tp_job_nodes(j->details->min_nodes,
						       j->details->min_cpus,
						       pc->min_cpus),
				 .max_nodes = st_ctld_range_max(j),
				 .seq = (int32_t)j->job_id, .ref = j };
		if (job_constraints(pc, j, &d))
			continue;
		d.max_groups = switch_limit(pc, j);
		if (switches_wait(pc, j, &d))
			continue;
		if (!ever_placeable(pc, &d)) {
			mark_unplaceable(pc, j, d.nodes, d.allowed || d.required);
			continue;
		}
		if ((j->state_reason == FAIL_BAD_CONSTRAINTS ||
		     j->state_reason == WAIT_RESERVATION ||
		     j->state_reason == WAIT_RESOURCES) &&
		    !xstrncmp(j->state_desc, "sched/topo:", 11)) {
			/* Placeable again (a new topology, a node back, the
			 * reservation started): our mark goes. */
			j->state_reason = WAIT_NO_REASON;
			xfree(j->state_desc);
			last_job_update = pc->now;
		}
		for (int32_t t = array_tasks(pc, j, d.nodes); t > 0; t--)
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

int st_ctld_start(st_ctx *x, job_record_t *j, part_record_t *p,
		  bitstr_t *want, bool fill, time_t now)
{
	j->part_ptr = p;
	int rc = start_on(j, want, fill);
	if (rc != SLURM_SUCCESS) {
		char *names = bitmap2node_name(want);
		x->stats.start_failed++;
		info("%s: %s decided %pJ on %s in partition %s, but slurmctld did not start it: %s",
		     ST_TYPE, x->params.policy, j, names, p->name,
		     slurm_strerror(rc));
		xfree(names);
		return rc;
	}
	st_ctld_started(x, j, now);
	st_stats_started(&x->stats, x->params.policy, fill);
	return SLURM_SUCCESS;
}

void st_ctld_check_nodes(st_ctx *x, job_record_t *j, bitstr_t *want)
{
	if (j->node_bitmap && bit_equal(j->node_bitmap, want))
		return;
	char *names = bitmap2node_name(want);
	x->stats.mismatches++;
	error("%s: %pJ was decided on %s but started on %s", ST_TYPE, j, names,
	      j->nodes);
	xfree(names);
}

/* What follows every start this cycle makes: launch it as Slurm's
 * schedulers do, and remember it as seen (not started at submission). */
void st_ctld_started(st_ctx *x, job_record_t *j, time_t now)
{
	last_job_update = now;
	if (st_seen_note(&x->seen, j->job_id) < 0)
		st_seen_reset(&x->seen);
	st_slurm_launch(j);
	rebuild_job_part_list(j);
	x->started_now++;
}

static void apply_start(part_cycle *pc, const tp_start *s)
{
	st_ctx *x = pc->x;
	job_record_t *j = st_view_ref(s->job);
	bool fill = s->fill_for != TP_NOT_FILL;

	tpl_set_to_bits(&x->topo.map, &s->nodes, pc->bits);
	if (!IS_JOB_PENDING(j) && j->array_job_id) {
		/* An earlier start this cycle split a task off this array:
		 * the pending rest is the array's record now. */
		job_record_t *rest = find_job_record(j->array_job_id);
		if (rest && IS_JOB_PENDING(rest) && rest->array_recs)
			j = rest;
	}
	if (!IS_JOB_PENDING(j))
		return;
	if (st_ctld_start(x, j, pc->part, pc->bits, fill, pc->now))
		return;
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
	st_ctld_check_nodes(x, j, pc->bits);
}

/* Slurm's preemption (PreemptType, PreemptMode): a job still waiting
 * that may preempt running jobs goes to select_nodes() on every node it
 * may use, as in Slurm's own schedulers: Slurm picks the preemptees and
 * cancels, requeues or suspends them; the job starts at once (suspend) or
 * at a later cycle, when their nodes are free.  Which jobs may preempt
 * which is Slurm's configuration, not a topology decision. */
static void preempt_for_waiting(part_cycle *pc)
{
	st_ctx *x = pc->x;
	tp_cluster *c = &x->view.c;
	for (size_t i = 0; i < c->nqueue; i++) {
		job_record_t *j = st_view_ref(c->queue[i]);
		if (!IS_JOB_PENDING(j) || !st_slurm_may_preempt(j))
			continue;
		j->part_ptr = pc->part;
		int rc = st_slurm_select_nodes(j, false);
		if (rc != SLURM_SUCCESS) {
			debug("%s: %pJ may preempt: %s", ST_TYPE, j,
			      slurm_strerror(rc));
			continue;
		}
		st_ctld_started(pc->x, j, pc->now);
		x->stats.started_preempting++;
		info("%s: cycle %" PRIu64 ": started JobId=%u on %s in partition %s (preempting, PreemptType=%s)",
		     ST_TYPE, x->stats.cycles + 1, j->job_id, j->nodes,
		     pc->part->name, slurm_conf.preempt_type);
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
	bit_copybits(pc->usable, pc->part->node_bitmap);
	bit_and(pc->usable, avail_node_bitmap);
	tpl_bits_to_set(&pc->x->topo.map, pc->usable, &pc->uset);
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
	x->stats.last_queued += (uint32_t)v->c.nqueue;
	tp_driver_pass(x->policy, &v->c);
	for (size_t k = 0; k < v->c.nstarts; k++)
		apply_start(pc, &v->c.starts[k]);
	preempt_for_waiting(pc);
	mark_waiting(pc);
}

/* ---- what happened since the last cycle ----------------------------- */

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

uint32_t st_ctld_cycle(st_ctx *x, time_t now)
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

	part_cycle pc = { .x = x, .now = now };
	tp_nodeset_init(&pc.pset, x->topo.topo.nnodes);
	tp_nodeset_init(&pc.uset, x->topo.topo.nnodes);
	tp_nodeset_init(&pc.tmp, x->topo.topo.nnodes);
	pc.bits = bit_alloc(node_record_count);
	pc.usable = bit_alloc(node_record_count);
	x->started_now = 0;
	x->stats.last_pending = x->stats.last_queued = 0;
	x->stats.last_running = 0;
	survey_jobs(x);
	st_fills_unsee(&x->fills);

	if (tp_policy_het_algo(x->policy) >= 0) {
		st_het_cycle(x, recs, k, now);
	} else {
		tpl_list_iter_t pit = list_iterator_create(part_list);
		part_record_t *part;
		while ((part = list_next(pit))) {
			pc.part = part;
			cycle_partition(&pc, recs, k, maxjobs);
		}
		list_iterator_destroy(pit);
	}

	st_seen_end(&x->seen, (int64_t)now);
	size_t gone = st_fills_drop_unseen(&x->fills);
	if (gone)
		debug("%s: %zu fill job(s) ended", ST_TYPE, gone);
	x->stats.last_started = x->started_now;
	FREE_NULL_BITMAP(pc.bits);
	FREE_NULL_BITMAP(pc.usable);
	tp_nodeset_fini(&pc.pset);
	tp_nodeset_fini(&pc.uset);
	tp_nodeset_fini(&pc.tmp);
	xfree(recs);
	FREE_NULL_LIST(q);
	return x->started_now;
}
