/*
 * describe.h - how a topology plugin states a placement in its logs,
 * on every Slurm release.
 */
#ifndef TP_DESCRIBE_H
#define TP_DESCRIBE_H

#include <stddef.h>

#include "alloc/alloc.h"
#include "base/nodeset.h"

/* Topology facts of a placement for the log line, e.g. "units=2
 * hop_sum=12" (no NodeList: the caller adds it).  `requested` is the node
 * count asked of the allocator, 0 if unknown (a select/linear choice). */
typedef void (*tp_describe_fn)(const void *topo, tp_alloc *alloc,
				const tp_nodeset *nodes, int requested,
				char *buf, size_t len);

/* The fat tree's: "units=2 leaves=2 hop_sum=12" (units: MSUs touched;
 * hop_sum: the allocator's cost, else the tree's pairwise hop sum).
 * `topo` is a tp_topo with a tree. */
void tp_describe_fattree(const void *topo, tp_alloc *alloc,
			  const tp_nodeset *nodes, int requested, char *buf,
			  size_t len);

#endif
