/*
 * evheap.h - min-heap of timed events for the simulator.
 *
 * Entries are never removed from the middle: an event that became stale
 * (its job ended earlier or got a new limit) is recognised when popped by a
 * generation number the owner bumps, which keeps extensions O(log n).
 */
#ifndef TP_EVHEAP_H
#define TP_EVHEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tp_event {
	int64_t time;
	uint32_t who;  /* owner's index (job) */
	uint32_t gen;  /* owner's generation when pushed */
} tp_event;

typedef struct tp_evheap {
	tp_event *ev;
	size_t n, cap;
} tp_evheap;

int  tp_evheap_push(tp_evheap *h, tp_event e); /* -1 on ENOMEM */
tp_event tp_evheap_pop(tp_evheap *h);          /* h->n > 0 */
static inline const tp_event *tp_evheap_top(const tp_evheap *h)
{
	return h->n ? &h->ev[0] : NULL;
}
void tp_evheap_fini(tp_evheap *h);

#endif
