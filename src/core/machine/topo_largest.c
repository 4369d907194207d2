/* topo_largest.c - tp_topo_largest_free (topo.h): the largest free unit,
 * for fragmentation reports. */
#include "machine/topo.h"

/* Outside nodes take no part: they are no box's. */
static int torus_largest(const tp_topo *t, const tp_nodeset *free)
{
	tp_nodeset in;
	if (tp_topo_inside(t, free, &in))
		return -1;
	tp_torus_erode *e = tp_torus_erode_new(t->torus, &in);
	int volume = 0;
	long count = 0;
	int rc = e ? tp_torus_erode_largest(e, &volume, &count) : -1;
	tp_torus_erode_free(e);
	tp_nodeset_fini(&in);
	return rc ? -1 : volume;
}

int tp_topo_largest_free(const tp_topo *t, const tp_nodeset *free)
{
	if (t->tree)
		return tp_fattree_largest_free(t->tree, free);
	if (t->torus)
		return torus_largest(t, free);
	return tp_nodeset_count(free);
}
