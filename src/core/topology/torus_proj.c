/*
 * torus_proj.c - bounds on the free nodes of a box shape from the free
 * set's projections on pairs of dimensions.
 *
 * A box of lengths len lies in the "pillar" that keeps its extents along
 * two dimensions i and j and spans every other one, so it holds no more
 * free nodes than the fullest window of len_i x len_j positions of the
 * free set's projection on (i, j) (free nodes counted per pair of
 * coordinates).  The smallest of these over every pair bounds the most
 * free nodes any box of the shape holds; it is exact for a box that spans
 * all but two dimensions, the common case for large boxes.  Windows are
 * taken around each ring and past a line's end too: more windows only
 * loosen a bound.  Building costs O(N P) for P pairs; a bound O(P d_i d_j)
 * against O(n N) for the shape's exact counts (torus_erode.c).
 */
#include "topology/torus.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct tp_torus_proj {
	int n, npair;
	int dims[TP_TORUS_MAX_DIMS];
	int pi[TP_TORUS_MAX_DIMS * TP_TORUS_MAX_DIMS / 2];
	int pj[TP_TORUS_MAX_DIMS * TP_TORUS_MAX_DIMS / 2];
	int *grid[TP_TORUS_MAX_DIMS * TP_TORUS_MAX_DIMS / 2]; /* d_i x d_j */
	int *rows, *win; /* scratch: d_i x d_j each */
};

void tp_torus_proj_free(tp_torus_proj *p)
{
	if (!p)
		return;
	for (int k = 0; k < p->npair; k++)
		free(p->grid[k]);
	free(p->rows);
	free(p->win);
	free(p);
}

tp_torus_proj *tp_torus_proj_new(const tp_torus *t, const tp_nodeset *free)
{
	tp_torus_proj *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->n = tp_torus_ndims(t);
	memcpy(p->dims, tp_torus_dims(t), (size_t)p->n * sizeof(int));
	int most = 1;
	for (int i = 0; i < p->n; i++)
		for (int j = i + 1; j < p->n; j++) {
			int k = p->npair++;
			p->pi[k] = i;
			p->pj[k] = j;
			int cells = p->dims[i] * p->dims[j];
			if (cells > most)
				most = cells;
			if (!(p->grid[k] = calloc((size_t)cells, sizeof(int)))) {
				tp_torus_proj_free(p);
				return NULL;
			}
		}
	p->rows = malloc((size_t)most * sizeof(int));
	p->win = malloc((size_t)most * sizeof(int));
	if (!p->rows || !p->win) {
		tp_torus_proj_free(p);
		return NULL;
	}
	int c[TP_TORUS_MAX_DIMS];
	for (int x = tp_nodeset_next(free, 0); x >= 0;
	     x = tp_nodeset_next(free, x + 1)) {
		tp_torus_coord(t, x, c);
		for (int k = 0; k < p->npair; k++)
			p->grid[k][c[p->pi[k]] * p->dims[p->pj[k]] +
				   c[p->pj[k]]]++;
	}
	return p;
}

/* out[x] = sum of in[x .. x + len) around a ring of d, for each of the
 * `lines` lines of d values at stride `step` apart (element stride es). */
static void ring_windows(const int *in, int *out, int d, int len, int lines,
			 int line_step, int es)
{
	for (int l = 0; l < lines; l++) {
		const int *a = in + l * line_step;
		int *o = out + l * line_step;
		int sum = 0;
		for (int k = 0; k < len; k++)
			sum += a[k * es];
		for (int x = 0; x < d; x++) {
			o[x * es] = sum;
			sum += a[((x + len) % d) * es] - a[x * es];
		}
	}
}

/* The fullest len_i x len_j window of pair k's projection. */
static int pair_most(tp_torus_proj *p, int k, int li, int lj)
{
	int di = p->dims[p->pi[k]], dj = p->dims[p->pj[k]];
	/* along j within each row i, then along i within each column */
	ring_windows(p->grid[k], p->rows, dj, lj, di, dj, 1);
	ring_windows(p->rows, p->win, di, li, dj, 1, dj);
	int best = 0;
	for (int x = 0; x < di * dj; x++)
		if (p->win[x] > best)
			best = p->win[x];
	return best;
}

int tp_torus_proj_bound(tp_torus_proj *p, const int *len, int below)
{
	int bound = INT_MAX;
	for (int k = 0; k < p->npair; k++) {
		int b = pair_most(p, k, len[p->pi[k]], len[p->pj[k]]);
		if (b < bound)
			bound = b;
		if (bound < below)
			break;
	}
	return bound;
}
