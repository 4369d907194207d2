/* alloc_memo.c - failure memo around an allocator; see alloc_memo.h. */
#include "alloc/alloc_memo.h"

#include <stdlib.h>
#include <string.h>

#include "alloc/memo_answers.h"

typedef struct memo {
	tp_alloc_ops ops;   /* inner's, with our place/capacity/cost/destroy */
	tp_alloc *inner;
	tp_nodeset free;    /* the free set the marks refer to */
	/* failed[n] == gen: size n failed on `free`.  Bumping gen forgets
	 * every mark at once, so a new free set costs O(words), not O(nodes)
	 * (EASY alternates between the free set and projected ones). */
	uint32_t *failed;
	uint32_t gen;
	/* whole answers to the requests the marks cannot hold */
	tp_memo_answers answers;
	uint64_t asked, answered;
} memo;

static void memo_forget(memo *m, int nnodes)
{
	if (++m->gen == 0) { /* wrapped: clear the stale stamps once */
		memset(m->failed, 0, ((size_t)nnodes + 1) * sizeof(*m->failed));
		m->gen = 1;
	}
}

/* A request with a node cap of its own, or for the allocator's own
 * shapes only: its whole answer, kept on the last few free sets. */
static int place_answered(memo *m, const tp_nodeset *free,
			  const tp_alloc_req *req, tp_nodeset *out)
{
	int rc = tp_memo_answers_get(&m->answers, free, req, out);
	if (rc != 1) {
		m->answered++;
		return rc;
	}
	rc = tp_alloc_place_req(m->inner, free, req, out);
	tp_memo_answers_put(&m->answers, free, req, rc, out);
	return rc;
}

/* Marks are per size: a request with a node cap of its own, or for the
 * allocator's own shapes only, goes to the answers instead. */
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
	if (!tp_nodeset_equal(free, &m->free)) {
		tp_nodeset_copy(&m->free, free);
		memo_forget(m, a->nnodes);
	}
	if (m->failed[nodes] == m->gen) {
		m->answered++;
		tp_nodeset_zero(out);
		return -1;
	}
	int rc = tp_alloc_place_req(m->inner, free, req, out);
	if (rc)
		m->failed[nodes] = m->gen;
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

static void memo_free(memo *m)
{
	if (!m)
		return;
	tp_alloc_destroy(m->inner);
	tp_nodeset_fini(&m->free);
	tp_memo_answers_fini(&m->answers);
	free(m->failed);
	free(m);
}

static void memo_destroy(tp_alloc *a)
{
	memo_free(a->state);
}

tp_alloc *tp_alloc_memo_wrap(tp_alloc *inner)
{
	memo *m = calloc(1, sizeof(*m));
	if (!m) {
		tp_alloc_destroy(inner);
		return NULL;
	}
	m->inner = inner;
	m->gen = 1;
	tp_memo_answers_init(&m->answers, inner->nnodes);
	m->ops = *inner->ops;
	m->ops.place = memo_place;
	m->ops.capacity = inner->ops->capacity ? memo_capacity : NULL;
	m->ops.cost = inner->ops->cost ? memo_cost : NULL;
	m->ops.destroy = memo_destroy;
	tp_alloc *a = NULL;
	if (!tp_nodeset_init(&m->free, inner->nnodes) &&
	    (m->failed = calloc((size_t)inner->nnodes + 1, sizeof(*m->failed))) &&
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
