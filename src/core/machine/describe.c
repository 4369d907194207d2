/* describe.c - placement facts for the logs; see describe.h. */
#include "machine/describe.h"

#include <stdio.h>

#include "machine/topo.h"

/* MSUs touched (node order follows MSU order, so each shows up once). */
static int units(const tp_fattree *tree, const tp_nodeset *nodes)
{
	int n = 0, last = -1;
	for (int i = tp_nodeset_next(nodes, 0); i >= 0;
	     i = tp_nodeset_next(nodes, i + 1)) {
		if (tree->node_msu[i] != last)
			n++;
		last = tree->node_msu[i];
	}
	return n;
}

/* A placement on outside nodes (alloc/outside.h) has no place in the
 * tree: said as such; any topology nodes are described as usual. */
void tp_describe_fattree(const void *topo, tp_alloc *alloc,
			  const tp_nodeset *nodes, int requested, char *buf,
			  size_t len)
{
	const tp_topo *t = topo;
	tp_nodeset in;
	if (tp_topo_inside(t, nodes, &in)) {
		snprintf(buf, len, "(out of memory)");
		return;
	}
	int outside = tp_nodeset_count(nodes) - tp_nodeset_count(&in);
	if (outside && !tp_nodeset_count(&in)) {
		snprintf(buf, len, "outside the tree");
		tp_nodeset_fini(&in);
		return;
	}
	double hops = tp_alloc_cost(alloc, nodes);
	if (hops < 0)
		hops = (double)tp_fattree_hop_sum(t->tree, &in);
	int leaves = t->groups ? tp_groups_touched(t->groups, nodes) - (outside > 0)
			       : -1;
	int used = snprintf(buf, len, "units=%d leaves=%d hop_sum=%.0f",
			    units(t->tree, &in), leaves, hops);
	if (outside && used >= 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, " outside=%d", outside);
	tp_nodeset_fini(&in);
}
