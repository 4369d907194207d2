/*
 * spread.h - how spread out a placement is: its communication cost next
 * to the least any placement of its size can have on the same machine,
 *
 *     spread(P) = cost(P) / best(|P|)   (>= 1; 1 below two nodes).
 *
 * Fat tree: the node-level hop sum (fattree_nodecost.h).  Torus: the mean
 * distance over pairs of the placement's nodes (tp_torus_set_mean_distance,
 * the torus allocators' cost); best(k) is the mean diameter of the most
 * compact box of k nodes (every orientation), or, for a size no box has,
 * of Shapeless=pack's placement on the idle torus.  A placement cheaper
 * than best (a torus shape that is no box) counts as 1.
 *
 * The one measure of compactness: the simulator's run-time model dilates
 * run times by it (doc/runtime-model.md), the completion-aware choice
 * weighs a start now against a more compact one later by it
 * (alloc/completion.h).
 */
#ifndef TP_SPREAD_H
#define TP_SPREAD_H

#include "base/nodeset.h"
#include "topology/fattree.h"
#include "topology/fattree_nodecost.h"
#include "topology/torus.h"

typedef struct tp_spread {
	const tp_fattree *tree;    /* one of these two */
	const tp_torus *torus;
	int nnodes;                /* the topology's nodes */
	double *best;              /* [nnodes + 1]: best(k), computed on
				    * first use; -2 not yet, -1 none */
} tp_spread;

/* A measure over a fat tree or a torus (exactly one non-NULL): 0, or -1
 * (both or neither given, or ENOMEM). */
int tp_spread_init(tp_spread *s, const tp_fattree *tree, const tp_torus *torus);
void tp_spread_fini(tp_spread *s);

/* spread of a placement (its members beyond the topology's nodes are not
 * counted): >= 1; 1 for fewer than two nodes or when out of memory. */
double tp_spread_of(tp_spread *s, const tp_nodeset *nodes);

/* best(k) on the torus (see above); -1 when k exceeds the torus or out of
 * memory, 0 for k < 2. */
double tp_spread_torus_best(const tp_torus *t, int k);

#endif
