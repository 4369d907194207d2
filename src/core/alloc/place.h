/*
 * place.h - the placement questions every driver asks an allocator.
 *
 * A scheduler asks three things of an allocator: where would a job go on
 * these nodes (for a node range: the most nodes that fit), could it ever
 * go there, and when and where is the earliest it can start if the
 * running jobs end by their limits.  EASY's shadow time (shadow.h), the
 * select plugins' RUN_NOW/TEST_ONLY/WILL_RUN answers and sched/topo all
 * ask through these, so a projection is made in one way only.
 */
#ifndef TP_PLACE_H
#define TP_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "base/nodeset.h"

/* Nodes a running job gives back at `time` (its end by time limit). */
typedef struct tp_release {
	int64_t time;
	const tp_nodeset *nodes;
} tp_release;

/*
 * Place a job that accepts any node count in [lo, hi] on `usable`: hi
 * first, then fewer (Slurm gives a node range as many nodes as it can).
 * `proto` (NULL: none) gives the rest of the request: max_nodes caps
 * what a placement may hold (transit nodes), and the node constraints
 * (allowed, required, contiguous); its `nodes` is ignored.  `out`
 * (initialised, same size) receives the placement.  Returns the node
 * count asked of the allocator, or -1 when no count in range fits.
 */
int tp_place_range(tp_alloc *a, const tp_nodeset *usable, int lo, int hi,
		   const tp_alloc_req *proto, tp_nodeset *out);

/*
 * Earliest placement of [lo, hi] nodes: on `free_now` at `now` first,
 * then after each release time, in ascending order (releases with the same
 * time together; `rel` need not be sorted and is not changed), on
 * free_now plus every node released so far, less `hold` (may be NULL:
 * nodes of a running job that would then never become free, e.g. "what
 * if this job kept its nodes?"; being a running job's, they are not in
 * free_now).
 * On success returns the node count, sets *when to `now` or to the
 * release time (never earlier than now) and fills `out` and, if not NULL,
 * `avail` with the nodes free at *when.  Returns -1 when even after every
 * release nothing fits (*when = INT64_MAX), -2 on ENOMEM.
 */
int tp_place_earliest(tp_alloc *a, int64_t now, const tp_nodeset *free_now,
		      const tp_release *rel, size_t nrel,
		      const tp_nodeset *hold, int lo, int hi,
		      const tp_alloc_req *proto,
		      tp_nodeset *avail, tp_nodeset *out, int64_t *when);

#endif
