/*
 * torus_grid.c - anchor grids: the placements of Slurm 26.05's
 * topology/torus3d declared for a torus (torus.conf Placement= lines).
 *
 * torus3d validates a placement against its torus (torus3d_record.c):
 * non-zero lengths within the torus, a seed inside it, a spacing of at
 * most the torus's length (0 there means "the placement's length"); it
 * then sorts the list by size with qsort.  glibc's qsort is a merge sort
 * for lists of this size, so placements of equal size keep the order the
 * administrator wrote; that order decides between them (the first with a
 * free anchor wins), so the sort here is explicitly stable.  A line
 * dimension (Wrap=no, which torus3d does not have) additionally needs the
 * seed's box to fit before the line ends.
 */
#include <stdlib.h>
#include <string.h>

#include "topology/torus.h"

int tp_torus_grid_size(const tp_torus *t, const tp_torus_grid *g)
{
	int size = 1;
	for (int i = 0; i < tp_torus_ndims(t); i++)
		size *= g->len[i];
	return size;
}

int tp_torus_grid_check(const tp_torus *t, const tp_torus_grid *g,
			tp_error *err)
{
	const int *d = tp_torus_dims(t);
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		if (g->len[i] < 1 || g->len[i] > d[i])
			return tp_errorf(err, "length %d in dimension %d (need 1..%d)",
					 g->len[i], i, d[i]);
		if (g->seed[i] < 0 || g->seed[i] >= d[i])
			return tp_errorf(err, "anchor seed %d in dimension %d (need 0..%d)",
					 g->seed[i], i, d[i] - 1);
		if (g->spacing[i] < 1 || g->spacing[i] > d[i])
			return tp_errorf(err, "anchor spacing %d in dimension %d (need 1..%d)",
					 g->spacing[i], i, d[i]);
		if (!tp_torus_wrap(t)[i] && g->seed[i] + g->len[i] > d[i])
			return tp_errorf(err, "anchor seed %d and length %d pass the end of line dimension %d (%d positions)",
					 g->seed[i], g->len[i], i, d[i]);
	}
	return 0;
}

int tp_torus_grids(const tp_torus *t, const tp_torus_grid **out)
{
	tp_torus_grid_list *l = tp_torus_grids_slot((tp_torus *)t);
	*out = l->g;
	return l->n;
}

/* Insertion sort by size: stable, and lists are short. */
static void sort_by_size(const tp_torus *t, tp_torus_grid *g, int n)
{
	for (int i = 1; i < n; i++) {
		tp_torus_grid x = g[i];
		int s = tp_torus_grid_size(t, &x), j = i;
		while (j > 0 && tp_torus_grid_size(t, &g[j - 1]) > s) {
			g[j] = g[j - 1];
			j--;
		}
		g[j] = x;
	}
}

int tp_torus_set_grids(tp_torus *t, const tp_torus_grid *g, int n,
		       tp_error *err)
{
	tp_error e;
	for (int k = 0; k < n; k++)
		if (tp_torus_grid_check(t, &g[k], &e))
			return tp_errorf(err, "torus: placement %d: %s", k + 1,
					 e.msg);
	tp_torus_grid *copy = NULL;
	if (n > 0) {
		if (!(copy = malloc((size_t)n * sizeof(*copy))))
			return tp_errorf(err, "torus: out of memory");
		memcpy(copy, g, (size_t)n * sizeof(*copy));
		sort_by_size(t, copy, n);
	}
	tp_torus_grid_list *l = tp_torus_grids_slot(t);
	free(l->g);
	l->g = copy;
	l->n = n;
	return 0;
}
