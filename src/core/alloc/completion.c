/* completion.c - the completion-aware choice of a start; see completion.h. */
#include "alloc/completion.h"

#include <stdlib.h>

double tp_completion_end(int64_t t, int64_t est, double share, double p)
{
	return (double)t + (double)est * (1.0 + share * (p > 1.0 ? p - 1.0 : 0.0));
}

static int cmp_release_time(const void *x, const void *y)
{
	const tp_release *a = *(const tp_release *const *)x;
	const tp_release *b = *(const tp_release *const *)y;

	return (a->time > b->time) - (a->time < b->time);
}

/* The scan's state: the best start so far. */
typedef struct choice {
	double end;          /* its expected end; INFINITY-like when none */
	int64_t when;
	int k;
	tp_nodeset *out;     /* its placement */
	tp_nodeset *avail;   /* its free nodes */
	tp_nodeset cand;     /* the candidate being weighed */
} choice;

/* Weigh a start at t on `usable`: kept when it ends first. */
static void weigh(tp_alloc *a, double share, int64_t est, int64_t t,
		  const tp_nodeset *usable, int lo, int hi,
		  const tp_alloc_req *proto, choice *c)
{
	int k = tp_place_range(a, usable, lo, hi, proto, &c->cand);
	if (k < 0)
		return;
	double end = tp_completion_end(t, est, share, tp_alloc_spread(a, &c->cand));
	if (c->k >= 0 && !(end < c->end))
		return;
	c->end = end;
	c->when = t;
	c->k = k;
	tp_nodeset_copy(c->out, &c->cand);
	if (c->avail)
		tp_nodeset_copy(c->avail, usable);
}

/* Nothing starting at t or later ends before the best end so far. */
static int too_late(const choice *c, int64_t t, int64_t est)
{
	return c->k >= 0 && (double)t + (double)est >= c->end;
}

static int scan(tp_alloc *a, double share, int64_t est, int64_t now,
		const tp_nodeset *free_now, const tp_release **order,
		size_t nrel, const tp_nodeset *hold, int lo, int hi,
		const tp_alloc_req *proto, tp_nodeset *work, choice *c)
{
	tp_nodeset_copy(work, free_now);
	weigh(a, share, est, now, work, lo, hi, proto, c);
	for (size_t i = 0; i < nrel;) {
		int64_t t = order[i]->time > now ? order[i]->time : now;
		if (too_late(c, t, est))
			break;
		int64_t same = order[i]->time;
		for (; i < nrel && order[i]->time == same; i++)
			tp_nodeset_or(work, order[i]->nodes);
		if (hold)
			tp_nodeset_andnot(work, hold);
		weigh(a, share, est, t, work, lo, hi, proto, c);
	}
	return c->k;
}

int tp_place_completion(tp_alloc *a, double share, int64_t est, int64_t now,
			const tp_nodeset *free_now, const tp_release *rel,
			size_t nrel, const tp_nodeset *hold, int lo, int hi,
			const tp_alloc_req *proto, tp_nodeset *avail,
			tp_nodeset *out, int64_t *when)
{
	choice c = { .k = -1, .when = INT64_MAX, .out = out, .avail = avail };
	tp_nodeset work;
	const tp_release **order = malloc((nrel + 1) * sizeof(*order));
	if (!order || tp_nodeset_init(&work, free_now->n)) {
		free(order);
		return -2;
	}
	if (tp_nodeset_init(&c.cand, free_now->n)) {
		tp_nodeset_fini(&work);
		free(order);
		return -2;
	}
	for (size_t i = 0; i < nrel; i++)
		order[i] = &rel[i];
	qsort(order, nrel, sizeof(*order), cmp_release_time);
	int k = scan(a, share, est, now, free_now, order, nrel, hold, lo, hi,
		     proto, &work, &c);
	*when = c.when;
	if (k < 0)
		tp_nodeset_zero(out);
	tp_nodeset_fini(&c.cand);
	tp_nodeset_fini(&work);
	free(order);
	return k;
}
