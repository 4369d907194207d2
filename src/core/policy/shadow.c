/* shadow.c - reservation time of a queued job; see shadow.h. */
#include "policy/shadow.h"

#include <stdlib.h>

int tp_shadow_init(tp_shadow *s, int nnodes)
{
	s->time = INT64_MAX;
	if (tp_nodeset_init(&s->free, nnodes))
		return -1;
	if (tp_nodeset_init(&s->place, nnodes)) {
		tp_nodeset_fini(&s->free);
		return -1;
	}
	return 0;
}

void tp_shadow_fini(tp_shadow *s)
{
	tp_nodeset_fini(&s->free);
	tp_nodeset_fini(&s->place);
}

static int cmp_limit(const void *a, const void *b)
{
	const tp_run *x = *(const tp_run *const *)a, *y = *(const tp_run *const *)b;
	return (x->limit > y->limit) - (x->limit < y->limit);
}

static int fits(const tp_cluster *c, const tp_job *job, tp_shadow *s)
{
	return tp_nodeset_count(&s->free) >= job->nodes &&
	       !tp_alloc_place(c->alloc, &s->free, job->nodes, &s->place);
}

int tp_shadow_compute(const tp_cluster *c, const tp_job *job,
		      const tp_nodeset *hold, tp_shadow *s)
{
	tp_nodeset_copy(&s->free, &c->free);
	s->time = c->now;
	if (fits(c, job, s))
		return 0;
	const tp_run **by_end = malloc((c->nrun + 1) * sizeof(*by_end));
	if (!by_end)
		return -1;
	for (size_t i = 0; i < c->nrun; i++)
		by_end[i] = &c->run[i];
	qsort(by_end, c->nrun, sizeof(*by_end), cmp_limit);
	/* Release jobs in limit order; test once per distinct time. */
	s->time = INT64_MAX;
	for (size_t i = 0; i < c->nrun;) {
		int64_t t = by_end[i]->limit;
		for (; i < c->nrun && by_end[i]->limit == t; i++)
			tp_nodeset_or(&s->free, &by_end[i]->nodes);
		if (hold)
			tp_nodeset_andnot(&s->free, hold);
		if (fits(c, job, s)) {
			s->time = t > c->now ? t : c->now;
			break;
		}
	}
	free(by_end);
	return 0;
}
