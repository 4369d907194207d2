/*
 * torus_fixtures.h - random free sets of a torus for the torus tests: the
 * tests' own seeded generator (each test file has its own state) and
 * nodes taken one by one, or in boxes, to a random load.
 */
#ifndef TP_TORUS_FIXTURES_H
#define TP_TORUS_FIXTURES_H

#include "topology/torus.h"

static unsigned rnd_state;
static inline unsigned rnd(unsigned n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/* avail: every node, less single nodes (one time in three) or boxes
 * (otherwise, at most `rounds` of them) to a load drawn below max_load %. */
static inline void random_state_to(const tp_torus *t, tp_nodeset *avail,
				   unsigned max_load, int rounds)
{
	int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
	const int *dims = tp_torus_dims(t);
	int load = (int)rnd(max_load);
	tp_nodeset_fill(avail);
	if (rnd(3) == 0) {
		for (int v = 0; v < N; v++)
			if ((int)rnd(100) < load)
				tp_nodeset_clear(avail, v);
		return;
	}
	tp_nodeset box;
	tp_nodeset_init(&box, N);
	for (int k = 0; k < rounds && tp_nodeset_count(avail) * 100 > N * (100 - load); k++) {
		int len[TP_TORUS_MAX_DIMS];
		for (int i = 0; i < n; i++)
			len[i] = 1 + (int)rnd((unsigned)dims[i]);
		tp_box b;
		tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), &b);
		tp_nodeset_zero(&box);
		tp_torus_box_nodes(t, &b, &box);
		tp_nodeset_andnot(avail, &box);
	}
	tp_nodeset_fini(&box);
}

#endif
