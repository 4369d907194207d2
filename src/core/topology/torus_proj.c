/*
 * torus_proj.c - bounds on the free nodes of a box shape from the free
 * set's projections on pairs and triples of dimensions.
 *
 * A box of lengths len lies in the "pillar" that keeps its extents along
 * the dimensions of a group (two or three of them) and spans every other
 * one, so it holds no more free nodes than the fullest window of its
 * lengths in the free set's projection on the group (free nodes counted
 * per tuple of the group's coordinates).  The smallest of these over
 * every group bounds the most free nodes any box of the shape holds; it
 * is exact for a box that spans every dimension outside some group, the
 * common case for large boxes.  Windows are taken around each ring and
 * past a line's end too: more windows only loosen a bound.  Pairs are
 * tried first (their grids are small); triples, on tori of four or more
 * dimensions, only while the bound stays at or above the caller's mark.
 * Building costs O(N G) for G groups; a bound O(G cells) against O(n N)
 * for the shape's exact counts (torus_erode.c).  A group's fullest window
 * depends only on the shape's lengths along the group's dimensions, which
 * many shapes of a search share (on 16x16x16, 256 pairs of lengths per
 * group against the 700-odd shapes of a packed search): each is kept once
 * computed, so most bounds are a few lookups.
 */
#include "topology/torus.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* groups: C(5,2) pairs + C(5,3) triples at most */
#define MAX_GROUPS 20

typedef struct group {
	int m;                      /* 2 or 3 dimensions */
	int dim[3];
	int size[3];                /* their lengths on the torus */
	int cells;
	int *grid;                  /* free nodes per tuple, last fastest */
	/* [tuple of lengths - 1, as grid]: fullest window + 1, 0 unknown */
	int *most;
} group;

struct tp_torus_proj {
	int ngroups;
	group g[MAX_GROUPS];
	int *a, *b;                 /* scratch: the largest grid each */
};

void tp_torus_proj_free(tp_torus_proj *p)
{
	if (!p)
		return;
	for (int k = 0; k < p->ngroups; k++) {
		free(p->g[k].grid);
		free(p->g[k].most);
	}
	free(p->a);
	free(p->b);
	free(p);
}

static int add_group(tp_torus_proj *p, const int *dims, int m, const int *dim)
{
	group *g = &p->g[p->ngroups++];
	g->m = m;
	g->cells = 1;
	for (int j = 0; j < m; j++) {
		g->dim[j] = dim[j];
		g->size[j] = dims[dim[j]];
		g->cells *= g->size[j];
	}
	g->grid = calloc((size_t)g->cells, sizeof(int));
	g->most = calloc((size_t)g->cells, sizeof(int));
	return g->grid && g->most ? 0 : -1;
}

static int add_groups(tp_torus_proj *p, const tp_torus *t)
{
	int n = tp_torus_ndims(t);
	const int *dims = tp_torus_dims(t);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (add_group(p, dims, 2, (int[]){ i, j }))
				return -1;
	for (int i = 0; n >= 4 && i < n; i++)
		for (int j = i + 1; j < n; j++)
			for (int k = j + 1; k < n; k++)
				if (add_group(p, dims, 3, (int[]){ i, j, k }))
					return -1;
	return 0;
}

tp_torus_proj *tp_torus_proj_new(const tp_torus *t, const tp_nodeset *free)
{
	tp_torus_proj *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	if (add_groups(p, t)) {
		tp_torus_proj_free(p);
		return NULL;
	}
	int most = 1;
	for (int k = 0; k < p->ngroups; k++)
		if (p->g[k].cells > most)
			most = p->g[k].cells;
	p->a = malloc((size_t)most * sizeof(int));
	p->b = malloc((size_t)most * sizeof(int));
	if (!p->a || !p->b) {
		tp_torus_proj_free(p);
		return NULL;
	}
	int c[TP_TORUS_MAX_DIMS], n = tp_torus_ndims(t), prev = -2;
	const int *dims = tp_torus_dims(t);
	for (int x = tp_nodeset_next(free, 0); x >= 0;
	     x = tp_nodeset_next(free, x + 1)) {
		/* an odometer from one node to the next; a gap recomputes */
		if (x == prev + 1) {
			for (int i = n - 1; i >= 0 && ++c[i] == dims[i]; i--)
				c[i] = 0;
		} else {
			tp_torus_coord(t, x, c);
		}
		prev = x;
		for (int k = 0; k < p->ngroups; k++) {
			group *g = &p->g[k];
			int cell = 0;
			for (int j = 0; j < g->m; j++)
				cell = cell * g->size[j] + c[g->dim[j]];
			g->grid[cell]++;
		}
	}
	return p;
}

/* out = in summed over windows of len positions (around the ring) along
 * one axis of a grid: `outer` blocks of d positions of `inner` cells. */
static void window_axis(const int *in, int *out, int outer, int d, int inner,
			int len)
{
	for (int o = 0; o < outer; o++)
		for (int i = 0; i < inner; i++) {
			const int *a = in + o * d * inner + i;
			int *w = out + o * d * inner + i;
			int sum = 0;
			for (int k = 0; k < len; k++)
				sum += a[k * inner];
			for (int x = 0; x < d; x++) {
				w[x * inner] = sum;
				sum += a[((x + len) % d) * inner] - a[x * inner];
			}
		}
}

/* The fullest window of the shape's lengths in group g's projection. */
static int window_most(tp_torus_proj *p, const group *g, const int *len)
{
	const int *src = g->grid;
	int *dst = p->a, *other = p->b;
	for (int j = 0, outer = 1; j < g->m; j++) {
		int inner = g->cells / outer / g->size[j];
		window_axis(src, dst, outer, g->size[j], inner, len[g->dim[j]]);
		src = dst;
		dst = other;
		other = (int *)src;
		outer *= g->size[j];
	}
	int best = 0;
	for (int x = 0; x < g->cells; x++)
		if (src[x] > best)
			best = src[x];
	return best;
}

/* window_most, kept per tuple of the group's lengths. */
static int group_most(tp_torus_proj *p, const group *g, const int *len)
{
	int key = 0;
	for (int j = 0; j < g->m; j++)
		key = key * g->size[j] + len[g->dim[j]] - 1;
	if (!g->most[key])
		g->most[key] = window_most(p, g, len) + 1;
	return g->most[key] - 1;
}

int tp_torus_proj_bound(tp_torus_proj *p, const int *len, int below)
{
	int bound = INT_MAX;
	for (int k = 0; k < p->ngroups && bound >= below; k++) {
		int b = group_most(p, &p->g[k], len);
		if (b < bound)
			bound = b;
	}
	return bound;
}
