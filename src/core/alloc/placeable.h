/*
 * placeable.h - could a job of n nodes ever be placed on a fixed set?
 *
 * A job that no placement can hold (no box of that size fits the torus,
 * or more nodes than the partition has) would block every job behind it
 * for ever.  The simulator rejects such a job at arrival, sched/topo
 * leaves it out of its queue with a reason, and availability profiles
 * stop searching for it: all three ask here, once per size for as long
 * as the set stays the same.
 */
#ifndef TP_PLACEABLE_H
#define TP_PLACEABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "base/nodeset.h"

typedef struct tp_placeable {
	int8_t *known;      /* by size: 0 not asked, 1 placeable, -1 never */
	tp_nodeset scratch;
	int nnodes;
} tp_placeable;

int  tp_placeable_init(tp_placeable *p, int nnodes); /* 0, -1 on ENOMEM */
void tp_placeable_fini(tp_placeable *p);
/* The set changed: forget every answer. */
void tp_placeable_forget(tp_placeable *p);
/* Can `a` place `nodes` nodes on `all`?  Sizes outside 1..count(all)
 * never can.  Use one `all` (and one allocator) between two forgets. */
bool tp_placeable_test(tp_placeable *p, tp_alloc *a, const tp_nodeset *all,
		       int nodes);

#endif
