/*
 * policy_easy.c - textbook EASY backfilling (Lifka 1995; Mu'alem and
 * Feitelson 2001), with the extra-nodes rule generalised to topology
 * allocators: instead of counting nodes, a long backfill candidate is
 * admitted if the head job can still be placed at its shadow time on the
 * projected free nodes minus the candidate's.
 */
#include "policy/backfill.h"
#include "alloc/alloc.h"

#include "policy/first_fit.h"
#include "policy/shadow.h"
#include "policy/shadow_kept.h"

typedef struct easy_ctx {
	tp_cluster *c;
	const tp_job *head;
	tp_shadow shadow;
	int64_t until; /* a job ending by then leaves the head's nodes in
			* time: the shadow, at its slot's start (c->slot) */
	tp_nodeset cand, rest, scratch;
	/* the most nodes a placement now can leave free at the shadow
	 * time: |shadow.free| plus the free nodes outside it */
	int shadow_room;
} easy_ctx;

static int ctx_init(easy_ctx *x, tp_cluster *c)
{
	x->c = c;
	x->head = c->queue[0];
	int n = c->nnodes;
	if (tp_shadow_init(&x->shadow, n))
		return -1;
	if (tp_nodeset_init(&x->cand, n) || tp_nodeset_init(&x->rest, n) ||
	    tp_nodeset_init(&x->scratch, n))
		return -1;
	return 0;
}

static void ctx_fini(easy_ctx *x)
{
	tp_shadow_fini(&x->shadow);
	tp_nodeset_fini(&x->cand);
	tp_nodeset_fini(&x->rest);
	tp_nodeset_fini(&x->scratch);
}

/* shadow_room for the current free and shadow sets. */
static void count_room(easy_ctx *x)
{
	tp_nodeset_copy(&x->rest, &x->c->free);
	tp_nodeset_andnot(&x->rest, &x->shadow.free);
	x->shadow_room = tp_nodeset_count(&x->shadow.free) +
			 tp_nodeset_count(&x->rest);
}

/* Would the head still fit at the shadow time if `cand` stayed busy? */
static int head_still_fits(easy_ctx *x)
{
	tp_nodeset_copy(&x->rest, &x->shadow.free);
	tp_nodeset_andnot(&x->rest, &x->cand);
	return tp_job_can_fit(x->c->alloc, &x->rest, x->head, &x->scratch);
}

/* Try queue entry i as a backfill job; 1 if it started. */
static int try_backfill(tp_policy *p, easy_ctx *x, size_t i)
{
	tp_cluster *c = x->c;
	const tp_job *job = c->queue[i];
	int ends_in_time = c->now + job->estimate <= x->until;
	/* Any placement (at least job->nodes of the free nodes) would leave
	 * the head fewer nodes than it needs: refused without placing. */
	if (!ends_in_time && x->shadow_room - job->nodes < x->head->nodes)
		return 0;
	if (!tp_place(c, job, &x->cand))
		return 0;
	if (!ends_in_time && !head_still_fits(x))
		return 0;
	if (tp_cluster_start(c, i, &x->cand, x->head->id))
		return 0;
	/* A job that outlives the shadow time keeps its nodes then. */
	if (!ends_in_time)
		tp_nodeset_andnot(&x->shadow.free, &x->cand);
	count_room(x);
	p->stats.backfilled++;
	return 1;
}

/* Backfilling judged on node sets: any allocator, any head. */
static void easy_by_sets(tp_policy *p, tp_cluster *c)
{
	easy_ctx x = { 0 };
	/* without it (ENOMEM) every pass computes the shadow */
	if (!p->shadow_kept)
		p->shadow_kept = tp_shadow_kept_new();
	if (ctx_init(&x, c) ||
	    tp_shadow_compute_kept(p->shadow_kept, c, x.head, &x.shadow))
		goto out;
	if (x.shadow.time == INT64_MAX)
		goto out; /* never placeable: no reservation, no backfill */
	c->resv_job = c->queue[0];
	c->resv_time = x.shadow.time;
	x.until = tp_slot_floor(c, x.shadow.time);
	count_room(&x);
	for (size_t i = 1; i < c->nqueue && c->nfree > 0;) {
		if (try_backfill(p, &x, i))
			continue;
		i++;
	}
out:
	ctx_fini(&x);
}

/* Nodes job would get on c->free now, -1 if it does not fit.  Without
 * node constraints a flat allocator's answer is a count (its placement
 * waits until the job starts: *placed false); with them, `cand` holds
 * the placement. */
static int fit_count(tp_cluster *c, const tp_job *job, tp_nodeset *cand,
		     bool *placed)
{
	tp_alloc_req req = tp_job_req(job);
	*placed = tp_alloc_req_constrained(&req);
	if (*placed)
		return tp_place(c, job, cand) ? tp_nodeset_count(cand) : -1;
	if (job->nodes < 1 || c->nfree < job->nodes)
		return -1;
	if (!tp_job_has_range(job))
		return job->nodes;
	/* A range gets as many nodes as are free, up to its maximum. */
	return job->max_nodes < c->nfree ? job->max_nodes : c->nfree;
}

/* try_backfill() by counting: `avail` nodes are free at the shadow time
 * and the head needs `need` of them. */
static int try_backfill_count(tp_policy *p, easy_ctx *x, size_t i, int need,
			      int *avail)
{
	tp_cluster *c = x->c;
	const tp_job *job = c->queue[i];
	bool placed;
	tp_nodeset *cand;
	if (job->nodes > c->nfree || !(cand = tp_cluster_scratch(c)))
		return 0;
	int k = fit_count(c, job, cand, &placed);
	if (k < 0)
		return 0;
	int ends_in_time = c->now + job->estimate <= x->until;
	if (!ends_in_time && *avail - k < need)
		return 0;
	if (!placed && !tp_place(c, job, cand))
		return 0;
	if (tp_cluster_start(c, i, cand, x->head->id))
		return 0;
	if (!ends_in_time)
		*avail -= k;
	p->stats.backfilled++;
	return 1;
}

/*
 * Textbook EASY, for a flat allocator and a head without node
 * constraints: the same decisions as easy_by_sets(), taken on node counts
 * (the head fits wherever enough nodes are free, and every candidate's
 * nodes are free at the shadow time too), so a pass costs what its queue
 * and running jobs cost, whatever the machine's size.
 */
static void easy_by_counts(tp_policy *p, tp_cluster *c)
{
	easy_ctx x = { .c = c, .head = c->queue[0] };
	int need = x.head->nodes, avail;
	if (tp_shadow_count(c, need, &x.shadow.time, &avail) ||
	    x.shadow.time == INT64_MAX)
		return;
	c->resv_job = c->queue[0];
	c->resv_time = x.shadow.time;
	x.until = tp_slot_floor(c, x.shadow.time);
	for (size_t i = 1; i < c->nqueue && c->nfree > 0;) {
		if (try_backfill_count(p, &x, i, need, &avail))
			continue;
		i++;
	}
}

/* Try queue entry i around the head with resources inside nodes: placed
 * now on the nodes that can host it; a job that outlives the shadow
 * time takes its ask at that time too (tl's projection), and must leave
 * the head placeable there.  1 if it started. */
static int try_backfill_res(tp_policy *p, tp_cluster *c, size_t i,
			    tp_timeline *tl, int64_t shadow,
			    tp_nodeset *cand, tp_nodeset *hosts,
			    tp_nodeset *scratch)
{
	const tp_job *head = c->queue[0], *job = c->queue[i];
	if (!tp_place(c, job, cand))
		return 0;
	const tp_res_ask *ask = tp_cluster_ask(job);
	bool outlives = c->now + job->estimate > tp_slot_floor(c, shadow);
	if (outlives) {
		tp_res_take(tl->proj, cand, ask);
		if (!tp_shadow_res_fits(c, tl->proj, head, hosts, scratch)) {
			tp_res_give(tl->proj, cand, ask);
			return 0;
		}
	}
	if (tp_cluster_start(c, i, cand, head->id)) {
		if (outlives)
			tp_res_give(tl->proj, cand, ask);
		return 0;
	}
	p->stats.backfilled++;
	return 1;
}

/*
 * EASY with resources inside nodes (c->res): the head's shadow is when
 * the runs' releases first let it be placed on nodes that can host its
 * ask (tp_shadow_res), and a later job may start now if it ends by then
 * or if the head still fits then with the job's ask taken too.  Jobs
 * that share nodes are judged by what they take of each node, not by
 * the nodes they touch.
 */
static void easy_by_res(tp_policy *p, tp_cluster *c)
{
	tp_timeline tl = { 0 };
	tp_nodeset hosts = { 0 }, scratch = { 0 };
	tp_nodeset *cand = tp_cluster_scratch(c);
	int64_t shadow;
	if (!cand || tp_nodeset_init(&hosts, c->nnodes) ||
	    tp_nodeset_init(&scratch, c->nnodes) ||
	    tp_shadow_res(c, c->queue[0], -1, &tl, &hosts, &scratch, &shadow) ||
	    shadow == INT64_MAX)
		goto out;
	c->resv_job = c->queue[0];
	c->resv_time = shadow;
	for (size_t i = 1; i < c->nqueue;)
		if (!try_backfill_res(p, c, i, &tl, shadow, cand, &hosts,
				      &scratch))
			i++;
out:
	tp_timeline_fini(&tl);
	tp_nodeset_fini(&hosts);
	tp_nodeset_fini(&scratch);
}

/* Are counts enough to judge this pass (see easy_by_counts)? */
static bool counts_suffice(const tp_cluster *c)
{
	const tp_job *head = c->queue[0];
	tp_alloc_req req = tp_job_req(head);
	return tp_alloc_is_flat(c->alloc) && !c->nodes_shared &&
	       head->nodes >= 1 && !tp_alloc_req_constrained(&req) &&
	       !tp_completion_on(c);
}

void tp_easy_pass(tp_policy *p, tp_cluster *c)
{
	if (tp_first_fit(c, 1) < 0 || c->nqueue == 0)
		return;
	if (c->res)
		easy_by_res(p, c);
	else if (counts_suffice(c))
		easy_by_counts(p, c);
	else
		easy_by_sets(p, c);
}

const tp_policy_ops tp_policy_easy = {
	.name = "easy",
	.summary = "EASY backfilling: head job reserved at its shadow time",
	.pass = tp_easy_pass,
};
