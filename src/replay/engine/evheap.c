/* evheap.c - binary min-heap on (time, who); see evheap.h. */
#include "engine/evheap.h"
#include "base/grow.h"

#include <stdlib.h>

/* Order by time, then owner index, so equal-time events pop in a fixed
 * order and runs are reproducible. */
static int before(const tp_event *a, const tp_event *b)
{
	return a->time < b->time || (a->time == b->time && a->who < b->who);
}

int tp_evheap_push(tp_evheap *h, tp_event e)
{
	tp_event *p = tp_grow(h->ev, &h->cap, h->n, sizeof(*p), 256);
	if (!p)
		return -1;
	h->ev = p;
	size_t i = h->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!before(&e, &h->ev[parent]))
			break;
		h->ev[i] = h->ev[parent];
		i = parent;
	}
	h->ev[i] = e;
	return 0;
}

tp_event tp_evheap_pop(tp_evheap *h)
{
	tp_event top = h->ev[0], last = h->ev[--h->n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const tp_event *best = &last;
		if (l < h->n && before(&h->ev[l], best)) {
			m = l;
			best = &h->ev[l];
		}
		if (r < h->n && before(&h->ev[r], best))
			m = r;
		if (m == i)
			break;
		h->ev[i] = h->ev[m];
		i = m;
	}
	if (h->n)
		h->ev[i] = last;
	return top;
}

void tp_evheap_fini(tp_evheap *h)
{
	free(h->ev);
	h->ev = NULL;
	h->n = h->cap = 0;
}
