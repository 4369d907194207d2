/*
 * alloc_fattree_nodes.h - what the default "fattree" allocator offers
 * beyond alloc.h, for its tests and for reports.
 */
#ifndef TP_ALLOC_FATTREE_NODES_H
#define TP_ALLOC_FATTREE_NODES_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/alloc.h"

/* On (the default): carry DP tables and answers between questions; off:
 * build every answer from the free set alone.  `a` must be a "fattree"
 * allocator as tp_alloc_create() returned it (not wrapped). */
void tp_fattree_nodes_carry(tp_alloc *a, bool on);
/* The placement of `nodes` nodes on `free` as place() makes it, and its
 * node-level hop sum (the runtime model's cost) in *cost: 0, or -1. */
int tp_fattree_nodes_place_cost(tp_alloc *a, const tp_nodeset *free, int nodes,
				tp_nodeset *out, int64_t *cost);

#endif
