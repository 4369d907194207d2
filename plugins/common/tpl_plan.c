/* tpl_plan.c - placement questions over a core allocator; see tpl_plan.h. */
#include "tpl_plan.h"

#include <stdlib.h>

int tpl_place_range(tp_alloc *a, const tp_nodeset *usable, int lo, int hi,
		    tp_nodeset *out)
{
	int have = tp_nodeset_count(usable);

	if (lo < 1)
		lo = 1;
	if (hi > have)
		hi = have;
	for (int k = hi; k >= lo; k--)
		if (tp_alloc_place(a, usable, k, out) == 0)
			return k;
	tp_nodeset_zero(out);
	return -1;
}

static int cmp_release_time(const void *x, const void *y)
{
	const tpl_release *a = *(const tpl_release *const *)x;
	const tpl_release *b = *(const tpl_release *const *)y;

	return (a->time > b->time) - (a->time < b->time);
}

int tpl_place_earliest(tp_alloc *a, const tp_nodeset *free_now,
		       const tpl_release *rel, size_t nrel, int lo, int hi,
		       tp_nodeset *out, int64_t *when)
{
	int k = tpl_place_range(a, free_now, lo, hi, out);

	*when = 0;
	if (k >= 0 || nrel == 0)
		return k;

	/* Sort pointers, not the caller's array: it stays untouched. */
	const tpl_release **order = malloc(nrel * sizeof(*order));
	tp_nodeset avail;
	if (!order || tp_nodeset_init(&avail, free_now->n)) {
		free(order);
		return -2;
	}
	for (size_t i = 0; i < nrel; i++)
		order[i] = &rel[i];
	qsort(order, nrel, sizeof(*order), cmp_release_time);

	tp_nodeset_copy(&avail, free_now);
	k = -1;
	for (size_t i = 0; i < nrel && k < 0;) {
		int64_t t = order[i]->time;
		/* Jobs ending at the same time free their nodes together. */
		for (; i < nrel && order[i]->time == t; i++)
			tp_nodeset_or(&avail, &order[i]->nodes);
		k = tpl_place_range(a, &avail, lo, hi, out);
		if (k >= 0)
			*when = t;
	}
	tp_nodeset_fini(&avail);
	free(order);
	return k;
}
