/* st_part_cycle.c - the partition cycle; see st_part_cycle.h. */
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
#include "st_load.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/reservation.h"

#include "model/job.h"
#include "driver/admit.h"
#include "driver/switches.h"
#include "st_decide.h"
#include "st_job.h"
#include "st_magnetic.h"
#include "st_part_cycle.h"
#include "st_refuse.h"
#include "st_slurm.h"
#include "tpl_compat.h"
#include "tpl_nodetable.h"

#define ST_TYPE "sched/topo"
#define ST_UNIT 60                       /* Slurm time limits: minutes */

/* What one partition's part of a cycle works with. */
typedef struct part_cycle {
	st_ctx *x;
	part_record_t *part;
	time_t now;
	uint32_t min_cpus;   /* fewest CPUs of a node of the partition */
	int64_t usable_cpus; /* CPUs of `usable`, for a policy that shares
			      * nodes (needs_res), else 0 */
	tp_nodeset pset;     /* the partition's nodes (allocator indices) */
	tp_nodeset uset;     /* of which usable (`usable`, allocator indices) */
	tp_nodeset tmp;
	bitstr_t *bits;      /* scratch, node_record_count bits */
	bitstr_t *usable;    /* the partition's nodes that are available (up,
			      * not drained): what a job without node
			      * constraints may use */
} part_cycle;

/* The CPUs per node a job's CPU count is converted to nodes with: the
 * partition's fewest (kept per cycle), fewer for a job whose memory per
 * CPU its nodes cannot hold that many times (tpl_part_job_cpus). */
static uint32_t job_cpus(const part_cycle *pc, const job_record_t *j)
{
	return tpl_job_mem_per_cpu(j) ? tpl_part_job_cpus(pc->part, j) : pc->min_cpus;
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
 * partition's usable nodes could hold at once, or their CPUs when the
 * policy shares nodes, within the array's task limit, %N): every start
 * splits one task off the record (start_task). */
static int32_t array_tasks(part_cycle *pc, job_record_t *j, int32_t nodes,
			   const st_jobdesc *d)
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
	if (d->has_ask && !d->ask.whole)
		fit = pc->usable_cpus / (d->ask.cpus > 0 ? d->ask.cpus : 1);
	n = fit < n ? fit : n;
	return n < 1 ? 1 : (int32_t)n;
}

/* ---- building the view --------------------------------------------- */

static void set_free(part_cycle *pc)
{
	bitstr_t *b = pc->bits;
	bit_copybits(b, pc->part->node_bitmap);
	st_job_keep_free(b);
	tpl_bits_to_set(&pc->x->topo.map, b, &pc->x->view.c.free);
	tp_cluster_recount_free(&pc->x->view.c);
}

static int extend_limit(job_record_t *j, int64_t secs, time_t now);

/* An extension granted before a slurmctld crash that Slurm's job state
 * lost (st_fill_lost_extension): granted again, so the restart changes
 * nothing for the job. */
static void restore_extension(job_record_t *j, st_fill *f, time_t now)
{
	int64_t lost = st_fill_lost_extension(f, (int64_t)j->end_time);
	if (!lost || !IS_JOB_RUNNING(j))
		return;
	if (extend_limit(j, lost, now)) {
		f->granted_end = 0;
		return;
	}
	info("%s: RB_HAR extension of %pJ (fill job for JobId=%" PRId64 ", extension %d) lost with slurmctld's job state, granted again: TimeLimit=%u",
	     ST_TYPE, j, f->fill_for, f->extensions, j->time_limit);
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
		if (f) {
			f->seen = true;
			restore_extension(j, f, pc->now);
		}
		st_jobdesc d = { .id = j->job_id, .priority = j->priority,
				 .submit = j->details ? j->details->submit_time : 0,
				 .estimate = st_job_minutes_to_s(j->time_limit),
				 .nodes = (int32_t)tp_nodeset_count(&pc->tmp),
				 .seq = (int32_t)j->job_id, .ref = j };
		long ri = st_view_add_running(&x->view, &d, j->start_time,
					      j->end_time, &pc->tmp,
					      f ? f->fill_for : TP_NOT_FILL,
					      f ? f->extensions : 0);
		if (ri < 0)
			rc = -1;
		else if (pc->part->max_time != INFINITE)
			x->view.c.run[ri].ceiling = (int64_t)j->start_time +
				st_job_minutes_to_s(pc->part->max_time);
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

static void set_reason(part_cycle *pc, job_record_t *j, uint32_t reason,
		       char *desc)
{
	st_job_set_reason(j, reason, desc, pc->now);
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

/* The job's node constraints (st_job_usable on the partition's usable
 * nodes; required nodes, -w; --contiguous) into d; 0, or -1 when the job
 * cannot start now (its reason says why). */
static int job_constraints(part_cycle *pc, job_record_t *j, st_jobdesc *d,
			   bool say)
{
	st_view *v = &pc->x->view;
	tpl_details_t *dt = j->details;
	bitstr_t *avail;
	if (st_job_usable(j, pc->usable, pc->now, say, &avail))
		return -1;
	int rc = 0;
	if (!bit_equal(avail, pc->usable)) {
		tp_nodeset *s = st_view_set(v);
		if (!s)
			rc = -1;
		else
			tpl_bits_to_set(&pc->x->topo.map, avail, s);
		d->allowed = s;
	}
	FREE_NULL_BITMAP(avail);
	if (!rc && dt->req_node_bitmap && bit_set_count(dt->req_node_bitmap)) {
		tp_nodeset *s = st_view_set(v);
		if (!s)
			return -1;
		tpl_bits_to_set(&pc->x->topo.map, dt->req_node_bitmap, s);
		d->required = s;
	}
	d->contiguous = dt->contiguous;
	return rc;
}

/* Could the job be placed on the partition's usable nodes (busy or
 * not) within its constraints (tp_driver_admit)?  A job that could not
 * (nodes down or drained, a size no placement has) is left out of the
 * queue with a reason, as the simulator rejects it at arrival: at the
 * head of the queue it would block every job behind it.  It is asked
 * again every cycle, so it comes back when nodes do.  Its --switches
 * limit is a wait (Slurm's max_switch_wait), not part of the question. */
static bool ever_placeable(part_cycle *pc, const st_jobdesc *d)
{
	st_view *v = &pc->x->view;
	tp_job job = { .nodes = d->nodes, .max_nodes = d->max_nodes,
		       .allowed = d->allowed, .required = d->required,
		       .contiguous = d->contiguous };
	return tp_driver_admit(&v->placeable, v->alloc, &pc->uset, &job);
}

/* --switches=N[@wait] (driver/switches.h): N while the job may still wait
 * for a placement on at most N leaf switches, 0 after. */
static int switch_limit(part_cycle *pc, job_record_t *j)
{
	if (j->req_switch && !j->wait4switch_start)
		j->wait4switch_start = pc->now; /* as Slurm's tree code does */
	return tp_switch_limit((int64_t)j->req_switch, (int64_t)j->wait4switch,
			       (int64_t)j->wait4switch_start, (int64_t)pc->now,
			       pc->x->topo.topo.groups != NULL);
}

/* A --switches job that cannot be placed within its switch count now
 * sits out the pass (as sched/backfill skips it): it blocks nobody while
 * it waits. */
static bool switches_wait(part_cycle *pc, job_record_t *j, st_jobdesc *d)
{
	st_view *v = &pc->x->view;
	tp_job job = { .nodes = d->nodes, .max_nodes = d->max_nodes,
		       .allowed = d->allowed, .required = d->required,
		       .contiguous = d->contiguous, .max_groups = d->max_groups };
	if (!tp_switch_sits_out(v->alloc, &v->c.free, &job,
				&v->placeable.scratch))
		return false;
	set_reason(pc, j, WAIT_RESOURCES,
		   xstrdup_printf("sched/topo: waiting up to %ld s for %d nodes on at most %d switch(es)",
				  (long)(j->wait4switch_start + j->wait4switch - pc->now),
				  d->nodes, d->max_groups));
	return true;
}

/* Could the job start now, within its constraints and switch limit, on
 * the partition's free nodes? */
static bool fits_now(part_cycle *pc, const st_jobdesc *d)
{
	st_view *v = &pc->x->view;
	tp_job job = { .nodes = d->nodes, .max_nodes = d->max_nodes,
		       .allowed = d->allowed, .required = d->required,
		       .contiguous = d->contiguous, .max_groups = d->max_groups };
	return tp_job_fits(v->alloc, &v->c.free, &job, &v->placeable.scratch);
}

/* One queue record into the pass.  A MAGNETIC reservation's record
 * (st_magnetic.h) goes in only if the job can start in it now; else the
 * job is left as it asked, without a word.  0, or -1 out of memory. */
static int add_record(part_cycle *pc, job_queue_rec_t *rec, bool magnetic)
{
	st_view *v = &pc->x->view;
	job_record_t *j = rec->job_ptr;
	const char *why = unsupported(rec);
	if (why) {
		if (!magnetic)
			set_reason(pc, j, FAIL_BAD_CONSTRAINTS,
				   xstrdup_printf("sched/topo: %s", why));
		return 0;
	}
	/* Refused "not now" lately: decided without it for a while (its
	 * reason is Slurm's). */
	if (st_refuse_sits_out(pc->x, j, pc->now))
		return 0;
	if (magnetic)
		st_magnetic_try(rec);
	st_jobdesc d = { .id = j->job_id, .priority = rec->priority,
			 .submit = j->details->submit_time,
			 .estimate = st_job_pending_estimate(j, pc->part),
			 .nodes = tp_job_nodes(j->details->min_nodes,
					       j->details->min_cpus,
					       job_cpus(pc, j)),
			 .max_nodes = st_job_range_max(j),
			 .seq = (int32_t)j->job_id, .ref = j };
	if (job_constraints(pc, j, &d, !magnetic)) {
		if (magnetic)
			st_magnetic_drop(j);
		return 0;
	}
	d.max_groups = switch_limit(pc, j);
	if (pc->x->policy->ops->needs_res) {
		/* nodes shared: its -N, its CPUs spread over them */
		d.nodes = j->details->min_nodes ? (int32_t)j->details->min_nodes : 1;
		st_load_ask(pc->part, j, d.nodes, &d.ask);
		d.has_ask = true;
	}
	if (magnetic && !fits_now(pc, &d)) {
		st_magnetic_drop(j);
		return 0;
	}
	if (switches_wait(pc, j, &d))
		return 0;
	if (!ever_placeable(pc, &d)) {
		mark_unplaceable(pc, j, d.nodes, d.allowed || d.required);
		return 0;
	}
	/* Placeable again (a new topology, a node back, the reservation
	 * started): our mark goes. */
	(void) st_job_clear_mark(j, pc->now);
	for (int32_t t = array_tasks(pc, j, d.nodes, &d); t > 0; t--)
		if (st_view_add_pending(v, &d))
			return -1;
	return 0;
}

/* Slurm's accounting policy (AccountingStorageEnforce=limits): a job its
 * QOS or association limits hold now sits the pass out in its place,
 * with Slurm's reason (AssocMaxJobsLimit, QOSMaxJobsPerUserLimit, ...),
 * as Slurm's own schedulers skip it; the decisions never see it, so it
 * blocks nobody and is not started only to be refused. */
static bool held_by_limits(job_record_t *j)
{
	return !acct_policy_job_runnable_pre_select(j, false);
}

/* The partition's pending jobs into the pass: the records for MAGNETIC
 * reservations first, as Slurm's queue order has them; a job that went
 * in inside one of those is not added again as it asked. */
static int add_pending(part_cycle *pc, job_queue_rec_t **recs, size_t nrec)
{
	for (int pass = 0; pass < 2; pass++) {
		bool magnetic_pass = pass == 0;
		for (size_t i = 0; i < nrec; i++) {
			job_queue_rec_t *rec = recs[i];
			job_record_t *j = rec->job_ptr;
			if (rec->part_ptr != pc->part || !IS_JOB_PENDING(j) ||
			    st_magnetic_rec(rec) != magnetic_pass ||
			    st_magnetic_trying(j) || held_by_limits(j))
				continue;
			if (add_record(pc, rec, magnetic_pass))
				return -1;
		}
	}
	st_view_sort_queue(&pc->x->view);
	return 0;
}

/* At the pass's end: a job that did not start loses the MAGNETIC
 * reservation it was tried in (the next pass tries it again). */
static void drop_magnetic(part_cycle *pc, job_queue_rec_t **recs,
			  size_t nrec)
{
	for (size_t i = 0; i < nrec; i++) {
		job_record_t *j = recs[i]->job_ptr;
		if (recs[i]->part_ptr == pc->part && IS_JOB_PENDING(j) &&
		    st_magnetic_trying(j))
			st_magnetic_drop(j);
	}
}

/* ---- carrying decisions out ---------------------------------------- */

/* Extend a running job's limit by `secs` (a multiple of ST_UNIT), as
 * `scontrol update TimeLimit=` does for an operator.  The partition's
 * MaxTime was the core's ceiling (tp_run.ceiling, set in add_running).
 * 0 or -1. */
static int extend_limit(job_record_t *j, int64_t secs, time_t now)
{
	uint32_t add = (uint32_t)(secs / ST_UNIT);
	if (j->time_limit == INFINITE || j->time_limit == NO_VAL)
		return -1;
	uint32_t limit = j->time_limit + add;
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
		if (!extend_limit(j, d->answer.arg, pc->now)) {
			x->stats.ext_granted++;
			info("%s: RB_HAR extends %pJ (fill job for JobId=%" PRId64 ", extension %d) by %" PRId64 " s (minTime %" PRId64 " s): TimeLimit=%u",
			     ST_TYPE, j, ff, r->extensions, d->answer.arg, d->answer.raw,
			     j->time_limit);
			return;
		}
		/* Undo it in the view and the table: it did not happen. */
		r->limit -= d->answer.arg;
		r->extensions--;
		if (f) {
			f->extensions = r->extensions;
			f->granted_end = 0;
		}
		x->stats.ext_denied++;
		return;
	case TP_LIMIT_RESUBMIT:
		if (st_slurm_requeue(j) == SLURM_SUCCESS) {
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
		     !d->answer.denied ? "no extension left" :
		     d->answer.ceiling ?
		     "an extension would pass the partition's MaxTime" :
		     "extension refused");
		return;
	}
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
	/* An earlier start of this pass may have taken the job's user or
	 * account to a limit (two jobs of one user under MaxJobs=1 decided
	 * together): Slurm's accounting policy holds it, as it would refuse
	 * it, and it waits with Slurm's reason. */
	if (!IS_JOB_PENDING(j) || held_by_limits(j))
		return;
	if (st_job_start(x, j, pc->part, pc->bits, fill, pc->now))
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
	st_job_check_nodes(x, j, pc->bits);
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
		if (!IS_JOB_PENDING(j) || !j->priority || /* held */
		    !st_slurm_may_preempt(j))
			continue;
		j->part_ptr = pc->part;
		int rc = st_slurm_select_nodes(j, false);
		if (rc != SLURM_SUCCESS) {
			debug("%s: %pJ may preempt: %s", ST_TYPE, j,
			      slurm_strerror(rc));
			continue;
		}
		st_job_started(pc->x, j, pc->now);
		x->stats.started_preempting++;
		info("%s: cycle %" PRIu64 ": started JobId=%u on %s in partition %s (preempting, PreemptType=%s)",
		     ST_TYPE, x->stats.cycles + 1, j->job_id, j->nodes,
		     pc->part->name, slurm_conf.preempt_type);
	}
}

/* The least-loaded method's waiting jobs are in their delay queues:
 * no node has the CPUs and memory they ask free.  A reason of ours
 * (squeue %r), where Slurm's own says no more. */
static void mark_delayed(part_cycle *pc)
{
	tp_cluster *c = &pc->x->view.c;
	for (size_t i = 0; i < c->nqueue; i++) {
		job_record_t *j = st_view_ref(c->queue[i]);
		if (IS_JOB_PENDING(j) && st_job_generic_reason(j->state_reason))
			st_job_set_reason(j, WAIT_RESOURCES,
					  xstrdup("sched/topo: least-loaded delay queue, no node has the CPUs and memory it asks free"),
					  pc->now);
	}
}

/* Pending reasons as Slurm's schedulers set them, and the reserved job's
 * expected start time (squeue --start). */
static void mark_waiting(part_cycle *pc)
{
	tp_cluster *c = &pc->x->view.c;
	if (pc->x->policy->ops->needs_res) {
		mark_delayed(pc);
		return;
	}
	for (size_t i = 0; i < c->nqueue; i++)
		st_job_mark_waiting(st_view_ref(c->queue[i]),
				    i ? WAIT_PRIORITY : WAIT_RESOURCES, pc->now);
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
	bool res = pc->x->policy->ops->needs_res;
	pc->usable_cpus = res ? st_load_cpus(pc->usable) : 0;
	set_free(pc);
	if (add_running(pc) || add_completing(pc) ||
	    add_pending(pc, recs, nrec))
		return -1;
	/* A policy deciding on resources inside nodes sees what slurmctld
	 * has allocated on each node. */
	return res ? st_load_attach(pc->x, pc->usable) : 0;
}

/* st_mine_fn: a job at its limit is asked about in the cycle of the
 * partition it runs in, where its reserved job queues.  Another
 * partition sharing its nodes (a default partition of all nodes) has
 * another queue: asked there, RB_HAR's conditions would be checked
 * against jobs that never wanted the fill job's nodes, and first. */
static bool runs_here(void *arg, const tp_job *job)
{
	part_cycle *pc = arg;
	job_record_t *j = st_view_ref(job);
	return j && j->part_ptr == pc->part;
}

static void decide_limits(part_cycle *pc)
{
	st_ctx *x = pc->x;
	if (!x->policy->ops->at_limit)
		return;
	/* Ask one period (plus a second of slack) ahead: Slurm ends a job
	 * at its first time-limit check after end_time. */
	if (st_decide_limits_of(x->policy, &x->view, &x->fills,
				x->params.period + 1, ST_UNIT, ST_ASK_FILL,
				runs_here, apply_limit, pc) < 0)
		error("%s: out of memory in the at-limit questions", ST_TYPE);
}

static void pass_partition(part_cycle *pc, job_queue_rec_t **recs,
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

static void cycle_partition(part_cycle *pc, job_queue_rec_t **recs,
			    size_t nrec, size_t maxjobs)
{
	pass_partition(pc, recs, nrec, maxjobs);
	drop_magnetic(pc, recs, nrec);
}

void st_part_cycle_all(st_ctx *x, job_queue_rec_t **recs, size_t nrec,
		       size_t maxjobs, time_t now)
{
	part_cycle pc = { .x = x, .now = now };
	tp_nodeset_init(&pc.pset, x->topo.topo.nnodes);
	tp_nodeset_init(&pc.uset, x->topo.topo.nnodes);
	tp_nodeset_init(&pc.tmp, x->topo.topo.nnodes);
	pc.bits = bit_alloc(node_record_count);
	pc.usable = bit_alloc(node_record_count);
	tpl_list_iter_t pit = list_iterator_create(part_list);
	part_record_t *part;
	while ((part = list_next(pit))) {
		pc.part = part;
		cycle_partition(&pc, recs, nrec, maxjobs);
	}
	list_iterator_destroy(pit);
	FREE_NULL_BITMAP(pc.bits);
	FREE_NULL_BITMAP(pc.usable);
	tp_nodeset_fini(&pc.pset);
	tp_nodeset_fini(&pc.uset);
	tp_nodeset_fini(&pc.tmp);
}
