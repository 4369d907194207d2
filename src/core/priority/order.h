/*
 * order.h - the order of Slurm's job queue (its sort_job_queue2): higher
 * partition PriorityTier first, then higher priority, then earlier
 * submission, then the lower job id.  The one rule: the simulator sorts
 * its queue with it and sched/topo orders Slurm's queue with it.
 */
#ifndef TP_PRIO_ORDER_H
#define TP_PRIO_ORDER_H

#include <stdint.h>

typedef struct tp_prio_key {
	uint32_t tier;       /* the partition's PriorityTier */
	uint32_t priority;
	int64_t submit;
	int64_t id;          /* an array task: its array's id */
} tp_prio_key;

/* < 0 when a goes before b, > 0 after, 0 equal. */
static inline int tp_prio_order(const tp_prio_key *a, const tp_prio_key *b)
{
	if (a->tier != b->tier)
		return a->tier > b->tier ? -1 : 1;
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

#endif
