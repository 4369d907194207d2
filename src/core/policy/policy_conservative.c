/*
 * policy_conservative.c - conservative backfilling.
 *
 * Every queued job, in queue order, gets a reservation: the earliest time
 * it fits given the running jobs (ending at their limits) and the
 * reservations of all jobs ahead of it.  A job whose reservation is now
 * starts now; one that starts while a job ahead of it waits was backfilled
 * around the first waiting job (fill_for).
 *
 * Reservations are NOT kept between passes: each pass rebuilds the profile
 * from the running jobs and re-plans the queue from scratch.  This is the
 * usual "conservative backfilling with compression": when jobs end before
 * their limits, the plan moves up.  With exact estimates (run time =
 * estimate) a re-plan reproduces the previous plan, so no job starts later
 * than its first reservation; with run time < estimate that holds for the
 * head job's reservation (c->resv_time), while a job behind a head that
 * moved up may lose its slot to it.  (With an allocator that is not
 * monotone, see below, even the head's holds only while no job ends
 * early: more free nodes need not mean a placement.)
 *
 * Allocation model (see profile.h): with a flat allocator the plan is by
 * node counts (the textbook algorithm) and jobs starting now are placed by
 * the allocator on c->free; with a topology allocator the plan is by node
 * sets, each reservation pins the placement the allocator chose on the
 * nodes free throughout its window, and a job starting now starts on that
 * placement (the allocator's choice on c->free less the nodes pinned for
 * jobs ahead of it), so a backfilled job never takes a reserved node.
 *
 * With an allocator that is not monotone (profile.h; the patent's fat-tree
 * rule), keeping off the reserved nodes is not enough: taking other nodes
 * of the head's window can make the head unplaceable there (e.g. a unit
 * the head would use whole becomes partly used).  So, as EASY does with
 * any allocator, a job may start now around the first waiting job only if
 * that job can still be placed on its window less the nodes of the jobs
 * started around it; otherwise it gets its earliest later slot.  For
 * allocators that declare TP_ALLOC_MONOTONE the planner also takes
 * shortcuts that skip allocator calls.
 *
 * A job that cannot fit even on the whole idle machine gets no reservation
 * and blocks nobody; it is not "waiting" for fill_for either.
 *
 * Cost: planning stops as soon as no job further down the queue could
 * start now (fewer nodes free now than the smallest of them asks, or not
 * free for as long as the shortest of them needs): later reservations
 * cannot change this pass's decisions.  The head's reservation is always
 * computed and published in c->resv_job / c->resv_time.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "policy/policy.h"
#include "policy/profile.h"
#include "policy/timeline.h"

/* With resources inside nodes: the job searched for, and the runs'
 * releases up to the window being looked at (profile.h's narrow). */
typedef struct narrowing {
	tp_cluster *c;
	const tp_job *job;
	tp_timeline tl;
	bool begun;
	bool failed;         /* ENOMEM: nothing can host anything */
	tp_nodeset hosts;
} narrowing;

/* A decision of the plan: queue entry qi starts now on `nodes` nodes. */
typedef struct now_start {
	size_t qi;
	int nodes;          /* its planned count (a node range's choice) */
	int64_t fill_for;
	tp_nodeset where;   /* set mode: the pinned placement */
} now_start;

typedef struct plan {
	tp_profile_mode mode;
	tp_profile prof;
	int *min_nodes;      /* over queue[i..] */
	int64_t *min_est;    /* over queue[i..] */
	now_start *now;
	size_t nnow, capnow; /* capnow entries have initialised sets */
	tp_nodeset where;
	/* Non-monotone allocators: the first waiting job, its reservation
	 * and its window less the nodes of the jobs starting now around it. */
	const tp_job *head;
	int head_nodes;      /* its planned count */
	int64_t head_start;
	tp_nodeset head_win, scratch, scratch_out;
	narrowing nw;        /* c->res only */
} plan;

static void plan_fini(plan *pl)
{
	tp_profile_fini(&pl->prof);
	free(pl->min_nodes);
	free(pl->min_est);
	for (size_t i = 0; i < pl->capnow; i++)
		tp_nodeset_fini(&pl->now[i].where);
	free(pl->now);
	tp_nodeset_fini(&pl->where);
	tp_nodeset_fini(&pl->head_win);
	tp_nodeset_fini(&pl->scratch);
	tp_nodeset_fini(&pl->scratch_out);
	tp_timeline_fini(&pl->nw.tl);
	tp_nodeset_fini(&pl->nw.hosts);
}

static bool any_constrained(const tp_cluster *c)
{
	for (size_t i = 0; i < c->nqueue; i++) {
		tp_alloc_req req = tp_job_req(c->queue[i]);
		if (tp_alloc_req_constrained(&req))
			return true;
	}
	return false;
}

/* How to plan a pass of c (see profile.h).  Counts are exact only for a
 * flat allocator and jobs without node constraints: a pass whose queue
 * has a constrained job plans on node sets, every job's reservation then
 * pinned to nodes (traces without constraints are planned as before).
 * A job with a node range is planned at the largest count that starts no
 * later than any smaller one (earliest_range). */
static tp_profile_mode profile_mode(const tp_cluster *c)
{
	const tp_alloc *a = c->alloc;
	if (tp_alloc_is_flat(a) && !c->res && !any_constrained(c))
		return TP_PROFILE_COUNTS;
	if (tp_alloc_is_monotone(a))
		return TP_PROFILE_SETS_MONOTONE;
	return TP_PROFILE_SETS;
}

static int plan_init(plan *pl, const tp_cluster *c)
{
	size_t q = c->nqueue;
	*pl = (plan){0};
	pl->mode = profile_mode(c);
	if (tp_profile_init(&pl->prof, c->nnodes, pl->mode) ||
	    tp_nodeset_init(&pl->where, c->nnodes) ||
	    tp_nodeset_init(&pl->head_win, c->nnodes) ||
	    tp_nodeset_init(&pl->scratch, c->nnodes) ||
	    tp_nodeset_init(&pl->scratch_out, c->nnodes))
		return -1;
	pl->min_nodes = malloc(q * sizeof(*pl->min_nodes));
	pl->min_est = malloc(q * sizeof(*pl->min_est));
	if (!pl->min_nodes || !pl->min_est)
		return -1;
	for (size_t i = q; i-- > 0;) {
		const tp_job *j = c->queue[i];
		int last = i + 1 == q;
		pl->min_nodes[i] = last || j->nodes < pl->min_nodes[i + 1]
				   ? j->nodes : pl->min_nodes[i + 1];
		pl->min_est[i] = last || j->estimate < pl->min_est[i + 1]
				 ? j->estimate : pl->min_est[i + 1];
	}
	if (c->res)
		return tp_nodeset_init(&pl->nw.hosts, c->nnodes) ||
		       tp_profile_build_all(&pl->prof, c);
	return tp_profile_build(&pl->prof, c);
}

/* profile.h's narrow with resources inside nodes: the nodes that can
 * host the job when the window starts, the runs (those started by this
 * pass too) released by then. */
static void narrow_to_hosts(void *arg, int64_t start, tp_nodeset *win)
{
	narrowing *nw = arg;
	if (nw->failed)
		goto none;
	if (!nw->begun || start < nw->tl.at) {
		if (tp_timeline_begin(&nw->tl, nw->c, -1)) {
			nw->failed = true;
			goto none;
		}
		nw->begun = true;
	}
	tp_timeline_advance(&nw->tl, start);
	tp_timeline_hosts(&nw->tl, nw->job, &nw->hosts);
	tp_nodeset_and(win, &nw->hosts);
	return;
none:
	tp_nodeset_zero(win);
}

static int add_now(plan *pl, size_t qi, int nodes, int64_t fill_for)
{
	if (pl->nnow == pl->capnow) {
		size_t cap = pl->capnow ? 2 * pl->capnow : 8;
		now_start *n = realloc(pl->now, cap * sizeof(*n));
		if (!n)
			return -1;
		pl->now = n;
		for (; pl->capnow < cap; pl->capnow++)
			if (tp_nodeset_init(&n[pl->capnow].where, pl->where.n))
				return -1;
	}
	now_start *s = &pl->now[pl->nnow++];
	s->qi = qi;
	s->nodes = nodes;
	s->fill_for = fill_for;
	tp_nodeset_copy(&s->where, &pl->where);
	return 0;
}

/* Could any job from queue entry i on still start now? */
static int more_may_start(const plan *pl, size_t i)
{
	return tp_profile_free_for(&pl->prof, pl->min_nodes[i]) >=
	       pl->min_est[i];
}

/* The first waiting job's reservation was just found: remember its window
 * if the allocator needs watching. */
static void guard_head(plan *pl, const tp_job *job, int nodes, int64_t t)
{
	if (pl->mode != TP_PROFILE_SETS)
		return;
	pl->head = job;
	pl->head_nodes = nodes;
	pl->head_start = t;
	tp_nodeset_copy(&pl->head_win, tp_profile_window(&pl->prof));
}

/* May `job`, planned to start now on pl->where, start around the first
 * waiting job?  Yes unless the allocator is not known to be monotone and
 * the head could no longer be placed on its window without these nodes;
 * if yes, those nodes leave the head's window. */
static bool head_keeps_fit(plan *pl, const tp_cluster *c, const tp_job *job)
{
	if (!pl->head || job->estimate <= pl->head_start - c->now ||
	    !tp_nodeset_intersects(&pl->head_win, &pl->where))
		return true;
	tp_nodeset_copy(&pl->scratch, &pl->head_win);
	tp_nodeset_andnot(&pl->scratch, &pl->where);
	tp_alloc_req head = tp_job_req(pl->head);
	head.nodes = pl->head_nodes;
	if (!tp_alloc_fits(c->alloc, &pl->scratch, &head, &pl->scratch_out))
		return false;
	tp_nodeset_copy(&pl->head_win, &pl->scratch);
	return true;
}

/* Earliest start of `job` at `k` nodes (after `after`, or from now if
 * INT64_MIN); the placement is in pl->where. */
static int64_t earliest_at(plan *pl, tp_cluster *c, const tp_job *job, int k,
			   int64_t after)
{
	tp_alloc_req req = tp_job_req(job);
	req.nodes = k;
	if (c->res) {
		/* The placement is made on the allocations at the window's
		 * start (narrow_to_hosts), weighed by them. */
		pl->nw.job = job;
		pl->nw.begun = false;
		req.res = tp_cluster_projection(c);
		req.ask = job->ask;
	}
	if (after == INT64_MIN)
		return tp_profile_earliest_req(&pl->prof, c->alloc, &req,
					       job->estimate, &pl->where);
	return tp_profile_earliest_after_req(&pl->prof, c->alloc, &req,
					     job->estimate, after, &pl->where);
}

/* Earliest start over the job's node range: the largest count that starts
 * no later than any smaller one (Slurm's rule for -N min-max); the count
 * into *k, its placement (and the profile's window) as the last search
 * left them. */
static int64_t earliest_range(plan *pl, tp_cluster *c, const tp_job *job,
			      int64_t after, int *k)
{
	int hi = tp_job_has_range(job) ? job->max_nodes : job->nodes;
	int64_t best = TP_PROFILE_NEVER;
	*k = job->nodes;
	for (int n = hi; n >= job->nodes; n--) {
		int64_t t = earliest_at(pl, c, job, n, after);
		if (t < best) {
			best = t;
			*k = n;
		}
	}
	if (*k != job->nodes && best != TP_PROFILE_NEVER)
		earliest_at(pl, c, job, *k, after); /* its placement again */
	return best;
}

/* How long a reservation from t holds job's nodes: its limit, to the
 * end of its last slot when later than now under Slurm's backfill
 * (c->slot: bf_resolution).  Its start is not moved to its slot's start:
 * the nodes' running jobs hold them until t, and the profile would count
 * them twice. */
static int64_t reserved_for(const tp_cluster *c, int64_t t, const tp_job *job)
{
	if (t == c->now || job->estimate > INT64_MAX - t)
		return job->estimate;
	return tp_slot_ceil(c, t + job->estimate) - t;
}

/* Reserve for the queue in order; collect the jobs whose reservation is
 * now.  Returns 0, -1 on ENOMEM. */
static int plan_queue(plan *pl, tp_cluster *c)
{
	const tp_job *first_wait = NULL;
	for (size_t i = 0; i < c->nqueue; i++) {
		const tp_job *job = c->queue[i];
		int k;
		int64_t t = earliest_range(pl, c, job, INT64_MIN, &k);
		if (t == c->now && !head_keeps_fit(pl, c, job))
			t = earliest_range(pl, c, job, c->now, &k);
		if (t == TP_PROFILE_NEVER)
			continue;
		if (tp_profile_reserve(&pl->prof, t, reserved_for(c, t, job), k,
				       &pl->where))
			return -1;
		if (t == c->now) {
			if (add_now(pl, i, k, first_wait ? first_wait->id
							 : TP_NOT_FILL))
				return -1;
		} else if (!first_wait) {
			first_wait = job;
			c->resv_job = c->queue[i];
			c->resv_time = t;
			guard_head(pl, job, k, t);
		}
		if (first_wait && i + 1 < c->nqueue &&
		    !more_may_start(pl, i + 1))
			break;
	}
	return 0;
}

/*
 * plan_queue() with resources inside nodes (c->res): a job whose
 * reservation is now starts at once, taking its ask on its nodes (the
 * jobs after it see what is left: several may share a node in one
 * pass); a reservation later holds its nodes whole for its window, as
 * Slurm's backfill holds them.  Every search narrows its windows to the
 * nodes that can host the job then.  0, -1 on ENOMEM.
 */
static int plan_queue_res(tp_policy *p, plan *pl, tp_cluster *c)
{
	const tp_job *first_wait = NULL;
	size_t started = 0; /* queue entries gone: min_nodes' index shift */
	tp_nodeset none;
	if (tp_nodeset_init(&none, c->nnodes))
		return -1;
	pl->nw.c = c;
	pl->prof.narrow = narrow_to_hosts;
	pl->prof.narrow_arg = &pl->nw;
	int rc = 0;
	for (size_t i = 0; i < c->nqueue && !rc;) {
		const tp_job *job = c->queue[i];
		int k;
		int64_t t = earliest_range(pl, c, job, INT64_MIN, &k);
		if (t == c->now && !head_keeps_fit(pl, c, job))
			t = earliest_range(pl, c, job, c->now, &k);
		if (t == TP_PROFILE_NEVER) {
			i++;
			continue;
		}
		if (t == c->now) {
			int64_t ff = first_wait ? first_wait->id : TP_NOT_FILL;
			/* its end is a time others may start at */
			if (tp_profile_reserve(&pl->prof, t, job->estimate, 0,
					       &none) ||
			    tp_cluster_start(c, i, &pl->where, ff)) {
				rc = -1;
				break;
			}
			started++;
			if (ff != TP_NOT_FILL)
				p->stats.backfilled++;
			continue;
		}
		if (tp_profile_reserve(&pl->prof, t, reserved_for(c, t, job), k,
				       &pl->where)) {
			rc = -1;
			break;
		}
		if (!first_wait) {
			first_wait = job;
			c->resv_job = c->queue[i];
			c->resv_time = t;
			guard_head(pl, job, k, t);
		}
		i++;
		if (i < c->nqueue && !more_may_start(pl, i + started))
			break;
	}
	tp_nodeset_fini(&none);
	return rc;
}

/* Carry out the plan's decisions for now, in queue order. */
static void start_planned(tp_policy *p, tp_cluster *c, plan *pl)
{
	int sets = tp_profile_has_sets(&pl->prof);
	for (size_t k = 0; k < pl->nnow; k++) {
		now_start *s = &pl->now[k];
		/* The k entries started before it have left the queue. */
		size_t qi = s->qi - k;
		/* Flat: the plan guaranteed the count, the allocator picks
		 * (and may refuse a job whose node constraints the counts
		 * could not see: it stays queued). */
		tp_alloc_req req = tp_job_req(c->queue[qi]);
		req.nodes = s->nodes;
		if (!sets && !tp_alloc_fits(c->alloc, &c->free, &req, &s->where))
			return;
		if (tp_cluster_start(c, qi, &s->where, s->fill_for))
			return;
		if (s->fill_for != TP_NOT_FILL)
			p->stats.backfilled++;
	}
}

static void conservative_pass(tp_policy *p, tp_cluster *c)
{
	c->resv_job = NULL;
	c->resv_time = 0;
	if (c->nqueue == 0)
		return;
	plan pl;
	/* Out of memory: start nothing this pass rather than half a plan
	 * (with resources inside nodes, what started before it stands). */
	if (plan_init(&pl, c) == 0) {
		if (c->res)
			plan_queue_res(p, &pl, c);
		else if (plan_queue(&pl, c) == 0)
			start_planned(p, c, &pl);
	}
	plan_fini(&pl);
}

const tp_policy_ops tp_policy_conservative = {
	.name = "conservative",
	.summary = "conservative backfilling: every queued job holds a "
		   "reservation; re-planned every pass",
	.pass = conservative_pass,
	.at_limit = NULL,
};
