/*
 * policy_rb_har.c - RB_HAR extended backfilling (doc/methods.md C).
 *
 * Passes are EASY passes.  The difference is what happens when a
 * backfilled ("fill") job reaches its time limit still running: plain
 * backfilling kills it, RB_HAR lets it run on for minTime when
 *   1. the reserved job AJ can still start at its reservation time without
 *      the fill job's nodes, and
 *   2. the queue head cannot start now even in the hole the fill job would
 *      leave, and no queued job X with requested time <= minTime fits there
 *      instead;
 * minTime being the smallest remaining time (by limit) among running
 * non-fill jobs.  A fill job still running after its extension(s) is killed
 * and, if enabled, resubmitted with a corrected estimate.
 *
 * [reading] The decision is taken when the fill job reaches its own limit
 * (which EASY placed at or before AJ's reservation), the moment Slurm would
 * otherwise end it; "free nodes" in condition 2 are the idle nodes plus the
 * fill job's, i.e. the hole a kill would open.  Condition 1 is checked for
 * the job holding the reservation now, the queue head: that is AJ while AJ
 * waits, and once AJ has started it is the next reserved job, whose
 * reservation an extension must not break either (EASY's guarantee).
 * Without running non-fill jobs minTime is undefined and the extension is
 * denied.
 */
#include <math.h>
#include <stdint.h>

#include "policy/backfill.h"
#include "policy/shadow.h"

static int64_t min_time(const tp_cluster *c, const tp_policy_opts *o)
{
	int64_t m = INT64_MAX;
	for (size_t i = 0; i < c->nrun; i++) {
		const tp_run *r = &c->run[i];
		if (r->fill_for == TP_NOT_FILL && r->limit > c->now &&
		    r->limit - c->now < m)
			m = r->limit - c->now;
	}
	if (m != INT64_MAX && o->rbhar_max_time > 0 && m > o->rbhar_max_time)
		m = o->rbhar_max_time;
	return m;
}

/* Condition 1: the reservation survives keeping the fill job's nodes. */
static int har_cond1(tp_cluster *c, const tp_run *fj, tp_nodeset *scratch)
{
	if (!c->nqueue)
		return 1;
	const tp_job *aj = c->queue[0];
	tp_shadow s;
	if (tp_shadow_init(&s, c->nnodes))
		return 0;
	int ok = 0;
	/* AJ's reservation as things stand (the fill job ending now)... */
	if (!tp_shadow_compute(c, aj, NULL, &s) && s.time != INT64_MAX) {
		tp_nodeset_andnot(&s.free, &fj->nodes);
		/* ...must still admit AJ without the fill job's nodes. */
		ok = tp_job_can_fit(c->alloc, &s.free, aj, scratch);
	}
	tp_shadow_fini(&s);
	return ok;
}

/* Condition 2: nobody in the queue could use the hole instead. */
static int har_cond2(tp_cluster *c, const tp_run *fj, int64_t mintime,
		     tp_nodeset *hole, tp_nodeset *scratch)
{
	tp_nodeset_copy(hole, &c->free);
	tp_nodeset_or(hole, &fj->nodes);
	if (c->nqueue && tp_job_can_fit(c->alloc, hole, c->queue[0], scratch))
		return 0;
	for (size_t i = 1; i < c->nqueue; i++) {
		const tp_job *x = c->queue[i];
		if (x->estimate <= mintime && tp_job_can_fit(c->alloc, hole, x, scratch))
			return 0;
	}
	return 1;
}

/* With resources inside nodes (c->res): condition 1 on allocations, the
 * fill job's ask taken back at AJ's shadow time if it was released by
 * then; condition 2 on the allocations now less the fill job's. */
static int har_res_ok(tp_cluster *c, const tp_run *fj, int64_t mintime,
		      tp_nodeset *hosts, tp_nodeset *scratch)
{
	if (!c->nqueue)
		return 1;
	const tp_job *aj = c->queue[0];
	const tp_res_ask *ask = tp_cluster_ask(fj->job);
	tp_timeline tl = { 0 };
	int64_t t;
	int ok = !tp_shadow_res(c, aj, -1, &tl, hosts, scratch, &t) &&
		 t != INT64_MAX;
	if (ok) {
		int64_t end = fj->limit > c->now ? fj->limit : c->now + 1;
		if (end <= tl.at)
			tp_res_take(tl.proj, &fj->nodes, ask);
		ok = tp_shadow_res_fits(c, tl.proj, aj, hosts, scratch);
	}
	if (ok) {
		/* the hole: now, without the fill job */
		tp_res_copy(tl.proj, c->res);
		tp_res_give(tl.proj, &fj->nodes, ask);
		ok = !tp_shadow_res_fits(c, tl.proj, aj, hosts, scratch);
		for (size_t i = 1; ok && i < c->nqueue; i++) {
			const tp_job *x = c->queue[i];
			ok = !(x->estimate <= mintime &&
			       tp_shadow_res_fits(c, tl.proj, x, hosts, scratch));
		}
	}
	tp_timeline_fini(&tl);
	return ok;
}

static int har_extend_ok(tp_cluster *c, const tp_run *fj, int64_t mintime)
{
	tp_nodeset hole, scratch;
	if (tp_nodeset_init(&hole, c->nnodes))
		return 0;
	if (tp_nodeset_init(&scratch, c->nnodes)) {
		tp_nodeset_fini(&hole);
		return 0;
	}
	int ok = c->res ? har_res_ok(c, fj, mintime, &hole, &scratch) :
		 har_cond1(c, fj, &scratch) &&
		 har_cond2(c, fj, mintime, &hole, &scratch);
	tp_nodeset_fini(&hole);
	tp_nodeset_fini(&scratch);
	return ok;
}

static tp_limit_action har_at_limit(tp_policy *p, tp_cluster *c, size_t ri,
				    int64_t *arg)
{
	const tp_run *fj = &c->run[ri];
	if (fj->fill_for == TP_NOT_FILL)
		return TP_LIMIT_KILL;
	if (fj->extensions >= p->opts.rbhar_max_ext) {
		if (fj->extensions == 0 || !p->opts.rbhar_requeue)
			return TP_LIMIT_KILL;
		/* Corrected estimate: the time it has shown it needs, scaled. */
		*arg = (int64_t)ceil(p->opts.rbhar_factor *
				     (double)(c->now - fj->start));
		return TP_LIMIT_RESUBMIT;
	}
	int64_t mintime = min_time(c, &p->opts);
	if (mintime == INT64_MAX || !har_extend_ok(c, fj, mintime)) {
		p->stats.ext_denied++;
		return TP_LIMIT_KILL;
	}
	p->stats.ext_granted++;
	*arg = mintime;
	return TP_LIMIT_EXTEND;
}

const tp_policy_ops tp_policy_rb_har = {
	.name = "rb-har",
	.summary = "EASY plus RB_HAR extension of overrunning fill jobs",
	.pass = tp_easy_pass, /* passes are EASY's */
	.at_limit = har_at_limit,
};
