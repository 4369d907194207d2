/*
 * torus_fixtures.h - random free sets of a torus for the torus tests: the
 * tests' own seeded generator (each test file has its own state) and
 * nodes taken one by one, or in boxes, to a random load; and one churn
 * step (jobs starting and ending) from a free set to the next.
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

/* Next free set of a churn as slurmctld's calls make it: a job starts (a
 * box or a few nodes taken), one ends (a box or a few nodes given back),
 * now and then every node free (the "could it ever run" question) or a
 * jump to an unrelated state (random_state_to with max_load and rounds).
 * box is scratch of t's size. */
static inline void churn_state(const tp_torus *t, tp_nodeset *avail,
			       tp_nodeset *box, unsigned max_load, int rounds)
{
	int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
	unsigned what = rnd(8);
	switch (what) {
	case 0:
		tp_nodeset_fill(avail);
		return;
	case 1:
		random_state_to(t, avail, max_load, rounds);
		return;
	case 2: /* an end of single nodes */
		for (int k = 1 + (int)rnd(4); k > 0; k--)
			tp_nodeset_set(avail, (int)rnd((unsigned)N));
		return;
	case 3: /* a start of single nodes */
		for (int k = 1 + (int)rnd(4); k > 0; k--)
			tp_nodeset_clear(avail, (int)rnd((unsigned)N));
		return;
	}
	/* a box: one end (case 4), or a start (more often) */
	int len[TP_TORUS_MAX_DIMS];
	for (int i = 0; i < n; i++)
		len[i] = 1 + (int)rnd((unsigned)(tp_torus_dims(t)[i] + 1) / 2);
	tp_box b;
	tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), &b);
	tp_nodeset_zero(box);
	tp_torus_box_nodes(t, &b, box);
	if (what == 4)
		tp_nodeset_or(avail, box);
	else
		tp_nodeset_andnot(avail, box);
}

#endif
