/* alloc_memo.c - failure memo around an allocator; see alloc_memo.h. */
#include "alloc/alloc_memo.h"

#include <stdlib.h>
#include <string.h>

#include "alloc/memo_answers.h"
#include "alloc/memo_whole.h"

/* Free sets whose failure marks are kept: a pass alternates between the
 * free set (shrinking as jobs start), the projected set at the head's
 * reservation and sets carved out of that one. */
#define MEMO_LANES 8

/* The sizes that failed on one free set. */
typedef struct lane {
	tp_nodeset free;   /* the free set the marks refer to */
	int count;         /* its nodes: a cheap first test of equality */
	/* failed[n] == gen: size n failed on `free`.  Bumping gen forgets
	 * every mark at once, so a new free set costs O(words), not
	 * O(nodes). */
	uint32_t *failed;
	uint32_t gen;
	uint64_t used;     /* when last useful, for replacement */
} lane;

typedef struct memo {
	tp_alloc_ops ops;   /* inner's, with our place/capacity/cost/destroy */
	tp_alloc *inner;
	bool monotone;      /* a failure on a set is one on its subsets */
	int nlanes;
	lane lanes[MEMO_LANES];
	uint64_t clock;
	/* whole answers: placements of every request, refusals of requests
	 * the marks cannot hold */
	tp_memo_answers answers;
	/* and on the whole machine, for the allocator's life */
	tp_memo_whole whole;
	uint64_t asked, answered;
} memo;

static void lane_forget(lane *l, int nnodes)
{
	if (++l->gen == 0) { /* wrapped: clear the stale stamps once */
		memset(l->failed, 0, ((size_t)nnodes + 1) * sizeof(*l->failed));
		l->gen = 1;
	}
}

/* A request with a node cap of its own, or for the allocator's own
 * shapes only: its whole answer, kept on the last few free sets, or for
 * good when every node is free. */
static int place_answered(memo *m, const tp_nodeset *free,
			  const tp_alloc_req *req, tp_nodeset *out)
{
	bool whole = tp_memo_whole_applies(&m->whole, free, req);
	int rc = whole ? tp_memo_whole_get(&m->whole, req, out)
		       : tp_memo_answers_get(&m->answers, free, req, out);
	if (rc != 1) {
		m->answered++;
		return rc;
	}
	rc = tp_alloc_place_req(m->inner, free, req, out);
	if (rc == 0 && req->probe) /* a probe's placement may be partial */
		return rc;
	if (whole)
		tp_memo_whole_put(&m->whole, req, rc, out);
	else
		tp_memo_answers_put(&m->answers, free, req, rc, out);
	return rc;
}

/* Is size `nodes` known to fail on `free` (count: its nodes)?  Marked on
 * that very set, or - for a monotone allocator and a request without
 * node constraints - on a superset of it.  *exact: the lane of `free`
 * itself, or NULL. */
static bool known_failure(memo *m, const tp_nodeset *free, int count,
			  int nodes, bool subsets, lane **exact)
{
	bool known = false;
	*exact = NULL;
	for (int i = 0; i < m->nlanes; i++) {
		lane *l = &m->lanes[i];
		bool marked = l->failed[nodes] == l->gen;
		if (!*exact && l->count == count && tp_nodeset_equal(&l->free, free)) {
			*exact = l;
			l->used = ++m->clock;
		} else if (!(marked && subsets && count <= l->count &&
			     tp_nodeset_subset(free, &l->free))) {
			continue;
		}
		if (marked) {
			l->used = ++m->clock;
			known = true;
		}
	}
	return known;
}

/* The lane of `free`: a new one while there is room, else the least
 * recently useful one, its marks forgotten. */
static lane *take_lane(memo *m, const tp_nodeset *free, int count, int nnodes)
{
	lane *l;
	if (m->nlanes < MEMO_LANES) {
		l = &m->lanes[m->nlanes++];
	} else {
		l = &m->lanes[0];
		for (int i = 1; i < m->nlanes; i++)
			if (m->lanes[i].used < l->used)
				l = &m->lanes[i];
	}
	tp_nodeset_copy(&l->free, free);
	l->count = count;
	l->used = ++m->clock;
	lane_forget(l, nnodes);
	return l;
}

/* Marks are per size: a request with a node cap of its own, or for the
 * allocator's own shapes only, goes to the answers instead.  Placements
 * go to the answers too: a pass asks again about a job that fits, at
 * every step that changes nothing for it. */
static int memo_place(tp_alloc *a, const tp_nodeset *free,
		      const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	memo *m = a->state;
	m->asked++;
	if (nodes < 1 || nodes > a->nnodes)
		return tp_alloc_place_req(m->inner, free, req, out);
	if (req->max_nodes || req->boxes_only)
		return place_answered(m, free, req, out);
	int rc = tp_memo_answers_get(&m->answers, free, req, out);
	if (rc != 1) {
		m->answered++;
		return rc;
	}
	int count = tp_nodeset_count(free);
	bool subsets = m->monotone && !tp_alloc_req_constrained(req);
	lane *l;
	if (known_failure(m, free, count, nodes, subsets, &l)) {
		m->answered++;
		tp_nodeset_zero(out);
		return -1;
	}
	rc = tp_alloc_place_req(m->inner, free, req, out);
	if (!rc) {
		if (!req->probe) /* a probe's placement may be partial */
			tp_memo_answers_put(&m->answers, free, req, rc, out);
		return 0;
	}
	if (!l)
		l = take_lane(m, free, count, a->nnodes);
	l->failed[nodes] = l->gen;
	return rc;
}

static int memo_capacity(tp_alloc *a, const tp_nodeset *free)
{
	return tp_alloc_capacity(((memo *)a->state)->inner, free);
}

static double memo_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	return tp_alloc_cost(((memo *)a->state)->inner, nodes);
}

static double memo_spread(tp_alloc *a, const tp_nodeset *nodes)
{
	return tp_alloc_spread(((memo *)a->state)->inner, nodes);
}

static void memo_free(memo *m)
{
	if (!m)
		return;
	tp_alloc_destroy(m->inner);
	for (int i = 0; i < MEMO_LANES; i++) {
		tp_nodeset_fini(&m->lanes[i].free);
		free(m->lanes[i].failed);
	}
	tp_memo_answers_fini(&m->answers);
	tp_memo_whole_fini(&m->whole);
	free(m);
}

static void memo_destroy(tp_alloc *a)
{
	memo_free(a->state);
}

static int lanes_init(memo *m, int nnodes)
{
	for (int i = 0; i < MEMO_LANES; i++) {
		lane *l = &m->lanes[i];
		if (tp_nodeset_init(&l->free, nnodes) ||
		    !(l->failed = calloc((size_t)nnodes + 1, sizeof(*l->failed))))
			return -1;
		l->gen = 1;
	}
	return 0;
}

tp_alloc *tp_alloc_memo_wrap(tp_alloc *inner)
{
	memo *m = calloc(1, sizeof(*m));
	if (!m) {
		tp_alloc_destroy(inner);
		return NULL;
	}
	m->inner = inner;
	m->monotone = tp_alloc_is_monotone(inner);
	tp_memo_answers_init(&m->answers, inner->nnodes);
	tp_memo_whole_init(&m->whole, inner->nnodes);
	m->ops = *inner->ops;
	m->ops.place = memo_place;
	m->ops.capacity = inner->ops->capacity ? memo_capacity : NULL;
	m->ops.cost = inner->ops->cost ? memo_cost : NULL;
	m->ops.spread = inner->ops->spread ? memo_spread : NULL;
	m->ops.destroy = memo_destroy;
	tp_alloc *a = NULL;
	if (!lanes_init(m, inner->nnodes) &&
	    (a = tp_alloc_new(&m->ops, inner->nnodes, m)))
		a->flags = inner->flags; /* create() may have adjusted them */
	if (!a)
		memo_free(m);
	return a;
}

void tp_alloc_memo_stats(const tp_alloc *a, uint64_t *asked,
			 uint64_t *answered)
{
	const memo *m = a->state;
	*asked = m->asked;
	*answered = m->answered;
}
