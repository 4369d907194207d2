/*
 * fattree_largest.c - the largest free unit of a fat tree (fattree.h): a
 * read-only view of the free set for fragmentation reports; it takes part
 * in no decision.
 */
#include "topology/fattree.h"

#include <stdlib.h>

/* Every allocator of the tree keeps a small job on one leaf switch and a
 * large one on the fewest subtrees, so what a job can get "in one piece"
 * is the free nodes of one leaf, or a subtree whose every node is free.
 * A subtree never spans fabrics: the virtual root does not count. */
int tp_fattree_largest_free(const tp_fattree *t, const tp_nodeset *idle)
{
	int *nfree = calloc((size_t)t->nswitch, sizeof(*nfree));
	int *size = calloc((size_t)t->nswitch, sizeof(*size));
	int best = 0;
	if (!nfree || !size) {
		free(nfree);
		free(size);
		return -1;
	}
	for (int k = 0; k < t->nswitch; k++) {
		int s = t->postorder[k]; /* children first */
		const tp_fattree_switch *w = &t->sw[s];
		if (w->nchild == 0) {
			size[s] = w->node_hi - w->node_lo;
			nfree[s] = tp_nodeset_count_range(idle, w->node_lo, w->node_hi);
			if (nfree[s] > best)
				best = nfree[s];
		}
		if (w->parent >= 0) {
			size[w->parent] += size[s];
			nfree[w->parent] += nfree[s];
		}
		if (!w->is_virtual && nfree[s] == size[s] && size[s] > best)
			best = size[s];
	}
	free(nfree);
	free(size);
	return best;
}
