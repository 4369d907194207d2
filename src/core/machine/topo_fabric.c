/*
 * topo_fabric.c - which fabric of a machine's fat tree may hold a job,
 * for callers that place outside the allocator (the Slurm plugins' hand
 * over to Slurm's own node choice).  See topo.h and topology/fattree.h.
 */
#include "machine/topo.h"

/* Fabric of node v, -1 outside the tree. */
static int fabric_of(const tp_topo *t, int v)
{
	return v < t->ninside ? tp_fattree_node_fabric(t->tree, v) : -1;
}

int tp_topo_nfabric(const tp_topo *t)
{
	return t->tree ? t->tree->nfabric : 1;
}

int tp_topo_fabric_for(const tp_topo *t, const tp_nodeset *s, int nodes,
		       const tp_nodeset *required)
{
	int nf = tp_topo_nfabric(t), best = -1, most = 0, need = -1;
	if (!t->tree)
		return tp_nodeset_count(s) >= nodes ? 0 : -1;
	if (required && tp_nodeset_count(required)) {
		need = tp_fattree_set_fabric(t->tree, required, NULL);
		if (need < 0)
			return -1; /* outside the tree, or across fabrics */
	}
	for (int f = 0; f < nf; f++) {
		int c = 0;
		if (need >= 0 && f != need)
			continue;
		for (int v = tp_nodeset_next(s, 0); v >= 0; v = tp_nodeset_next(s, v + 1))
			c += fabric_of(t, v) == f;
		if (c >= nodes && c > most) {
			best = f;
			most = c;
		}
	}
	return best;
}

void tp_topo_fabric_nodes(const tp_topo *t, int f, tp_nodeset *out)
{
	tp_nodeset_zero(out);
	for (int v = 0; v < t->nnodes && v < out->n; v++)
		if (!t->tree || fabric_of(t, v) == f)
			tp_nodeset_set(out, v);
}
