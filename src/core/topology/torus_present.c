/*
 * torus_present.c - the positions of a torus that hold a node.
 *
 * torus.conf describes the whole machine; slurm.conf may lack some of its
 * positions (nodes not installed yet, or a test suite adding nodes one by
 * one).  A job never gets such a position, so a size whose every box
 * touches one would wait forever for a box.  Knowing the present
 * positions lets the allocator call that size shapeless on this machine
 * (tp_torus_place_packed): Shapeless= then decides, as for 3 on 2x2x2.
 */
#include <stdlib.h>

#include "topology/torus.h"

int tp_torus_set_present(tp_torus *t, const tp_nodeset *present)
{
	tp_torus_counts **slot = tp_torus_present_slot(t);
	tp_torus_counts_free(*slot);
	*slot = NULL;
	/* Every position present: keep the fast path (no counting). */
	if (!present || tp_nodeset_count(present) == tp_torus_nnodes(t))
		return 0;
	*slot = tp_torus_counts_new(t, present);
	return *slot ? 0 : -1;
}

/* A box of some shape `sh` with every position present. */
static bool shape_has_box(const tp_torus *t, const tp_torus_counts *present,
			  const tp_torus_shape *sh)
{
	long np = tp_torus_placements(t, sh->len);
	tp_box box;
	for (long k = 0; k < np; k++) {
		tp_torus_placement(t, sh->len, k, &box);
		if (tp_torus_counts_locked(present, &box) == 0)
			return true;
	}
	return false;
}

bool tp_torus_size_has_box(const tp_torus *t, tp_torus_base_shapes reading,
			   int nodes)
{
	tp_torus_shape *sh = NULL;
	int nsh = tp_torus_shapes_read(t, nodes, 0, reading, &sh);
	const tp_torus_counts *present = tp_torus_present_counts(t);
	bool found = nsh > 0 && !present;
	for (int r = 0; r < nsh && !found; r++)
		found = shape_has_box(t, present, &sh[r]);
	free(sh);
	return found;
}
