/* timeline.c - resources inside nodes later on; see timeline.h. */
#include "policy/timeline.h"

#include <stdlib.h>

#include "base/grow.h"

/* When run i gives its resources back. */
static int64_t end_of(const tp_timeline *t, size_t i)
{
	int64_t lim = t->c->run[i].limit;
	return lim > t->c->now ? lim : t->c->now + 1;
}

static void sift_down(tp_timeline *t, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < t->n && end_of(t, t->heap[l]) < end_of(t, t->heap[m]))
			m = l;
		if (l + 1 < t->n &&
		    end_of(t, t->heap[l + 1]) < end_of(t, t->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t x = t->heap[i];
		t->heap[i] = t->heap[m];
		t->heap[m] = x;
		i = m;
	}
}

int tp_timeline_begin(tp_timeline *t, tp_cluster *c, long hold)
{
	t->c = c;
	t->hold = hold;
	t->at = c->now;
	t->n = 0;
	if (!(t->proj = tp_cluster_projection(c)) ||
	    tp_grow_to((void **)&t->heap, &t->cap, c->nrun + 1,
		       sizeof(*t->heap)))
		return -1;
	tp_res_copy(t->proj, c->res);
	for (size_t i = 0; i < c->nrun; i++)
		if ((long)i != hold)
			t->heap[t->n++] = i;
	for (size_t i = t->n / 2; i-- > 0;)
		sift_down(t, i);
	return 0;
}

int64_t tp_timeline_next(const tp_timeline *t)
{
	return t->n ? end_of(t, t->heap[0]) : INT64_MAX;
}

void tp_timeline_advance(tp_timeline *t, int64_t when)
{
	while (t->n && end_of(t, t->heap[0]) <= when) {
		const tp_run *r = &t->c->run[t->heap[0]];
		tp_res_give(t->proj, &r->nodes, tp_cluster_ask(r->job));
		t->heap[0] = t->heap[--t->n];
		sift_down(t, 0);
	}
	if (when > t->at)
		t->at = when;
}

void tp_timeline_fini(tp_timeline *t)
{
	free(t->heap);
	t->heap = NULL;
	t->n = t->cap = 0;
}

int tp_timeline_hosts(const tp_timeline *t, const tp_job *job,
		      tp_nodeset *out)
{
	return tp_res_hosts(t->proj, tp_cluster_ask(job), NULL, out);
}
