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
 * for the shape's exact counts (torus_erode.c).  An allocator carries
 * one from decision to decision: moving it to another set costs the
 * nodes that changed (the sets of a pass differ by a job or two), and
 * for one set each group's fullest window is kept per tuple of lengths,
 * with the windows along its leading axes per leading lengths, since the
 * shapes of a packed search share most of them.
 */
#include "topology/torus.h"

#include "base/bitops.h"
#include "base/vectorise.h"

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
	/* group_most by the group's lengths (cells entries, lengths - 1 as
	 * a tuple): valid where stamp == the projection's gen.  The shapes
	 * a search bounds share most of their pairs and triples of
	 * lengths. */
	int *most;
	uint32_t *stamp;
	/* The windows along the group's first axis (part[0], one grid per
	 * length) and its first two (part[1], per pair of lengths, triples
	 * only, within PART_BUDGET), kept for the set as most is: tuples
	 * that share their leading lengths share these passes. */
	int *part[2];
	uint32_t *part_stamp[2];
} group;

/* Ints of partial windows a group keeps at one level at most. */
#define PART_BUDGET (1 << 16)

struct tp_torus_proj {
	const tp_torus *t;
	int ngroups;
	group g[MAX_GROUPS];
	int *a, *b;                 /* scratch: the largest grid each */
	uint32_t gen;               /* bumped when the set projected changes */
	tp_nodeset free;            /* the set projected */
	uint64_t *diff;             /* tp_torus_proj_reset's changed nodes */
};

void tp_torus_proj_free(tp_torus_proj *p)
{
	if (!p)
		return;
	for (int k = 0; k < p->ngroups; k++) {
		free(p->g[k].grid);
		free(p->g[k].most);
		free(p->g[k].stamp);
		for (int j = 0; j < 2; j++) {
			free(p->g[k].part[j]);
			free(p->g[k].part_stamp[j]);
		}
	}
	free(p->a);
	free(p->b);
	free(p->diff);
	tp_nodeset_fini(&p->free);
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
	g->most = malloc((size_t)g->cells * sizeof(int));
	g->stamp = calloc((size_t)g->cells, sizeof(uint32_t));
	if (!g->grid || !g->most || !g->stamp)
		return -1;
	/* a level keeps one grid per tuple of its leading lengths */
	for (int j = 0, slots = 1; j + 1 < m; j++) {
		slots *= g->size[j];
		if ((long)slots * g->cells > PART_BUDGET)
			break;
		g->part[j] = malloc((size_t)slots * g->cells * sizeof(int));
		g->part_stamp[j] = calloc((size_t)slots, sizeof(uint32_t));
		if (!g->part[j] || !g->part_stamp[j])
			return -1;
	}
	return 0;
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

/* The first bit at or after `from` of the W words w that is `set`
 * (1) or clear (0); W * 64 when there is none. */
static int next_bit(const uint64_t *w, int W, int from, int set)
{
	int k = from >> 6;
	if (k >= W)
		return W * 64;
	uint64_t flip = set ? 0 : ~(uint64_t)0;
	uint64_t word = (w[k] ^ flip) & (~(uint64_t)0 << (from & 63));
	while (!word) {
		if (++k == W)
			return W * 64;
		word = w[k] ^ flip;
	}
	return k * 64 + tp_ctz64(word);
}

/* Add `by` to the cells of `len` consecutive nodes from v, all on one
 * line of the last dimension (only the last coordinate moves), in every
 * group's grid: a group without the last dimension has them in one cell,
 * one with it in consecutive cells (its last and fastest axis). */
static void add_piece(tp_torus_proj *p, int v, int len, int by)
{
	int c[TP_TORUS_MAX_DIMS], last = tp_torus_ndims(p->t) - 1;
	tp_torus_coord(p->t, v, c);
	for (int g = 0; g < p->ngroups; g++) {
		group *gr = &p->g[g];
		int cell = 0;
		for (int j = 0; j < gr->m; j++)
			cell = cell * gr->size[j] + c[gr->dim[j]];
		if (gr->dim[gr->m - 1] != last) {
			gr->grid[cell] += by * len;
			continue;
		}
		for (int x = 0; x < len; x++)
			gr->grid[cell + x] += by;
	}
}

/* Add `by` to the cell of each node of the set `nodes` (words w of W)
 * in every group's grid, by runs of consecutive nodes cut at the ends of
 * the last dimension's lines. */
static void add_nodes(tp_torus_proj *p, const uint64_t *w, int W, int by)
{
	int N = tp_torus_nnodes(p->t);
	int d = tp_torus_dims(p->t)[tp_torus_ndims(p->t) - 1];
	for (int v = next_bit(w, W, 0, 1); v < N; v = next_bit(w, W, v, 1)) {
		int end = next_bit(w, W, v, 0);
		if (end > N)
			end = N;
		while (v < end) {
			int piece = d - v % d < end - v ? d - v % d : end - v;
			add_piece(p, v, piece, by);
			v += piece;
		}
	}
}

tp_torus_proj *tp_torus_proj_new(const tp_torus *t, const tp_nodeset *free)
{
	tp_torus_proj *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->t = t;
	p->gen = 1;
	if (add_groups(p, t) || tp_nodeset_init(&p->free, free->n)) {
		tp_torus_proj_free(p);
		return NULL;
	}
	int most = 1;
	for (int k = 0; k < p->ngroups; k++)
		if (p->g[k].cells > most)
			most = p->g[k].cells;
	int W = tp_nodeset_words(free);
	p->a = malloc((size_t)most * sizeof(int));
	p->b = malloc((size_t)most * sizeof(int));
	p->diff = malloc((size_t)(W ? W : 1) * sizeof(uint64_t));
	if (!p->a || !p->b || !p->diff) {
		tp_torus_proj_free(p);
		return NULL;
	}
	tp_nodeset_copy(&p->free, free);
	add_nodes(p, free->w, W, 1);
	return p;
}

/* Forget every kept group_most (the set changed). */
static void forget_most(tp_torus_proj *p)
{
	if (++p->gen)
		return;
	/* wrapped: clear the stale stamps once */
	for (int k = 0; k < p->ngroups; k++) {
		group *g = &p->g[k];
		memset(g->stamp, 0, (size_t)g->cells * sizeof(uint32_t));
		for (int j = 0, slots = 1; j < 2 && g->part[j]; j++) {
			slots *= g->size[j];
			memset(g->part_stamp[j], 0,
			       (size_t)slots * sizeof(uint32_t));
		}
	}
	p->gen = 1;
}

void tp_torus_proj_reset(tp_torus_proj *p, const tp_nodeset *free)
{
	int W = tp_nodeset_words(free);
	uint64_t *old = p->free.w, *now = free->w;
	if (!memcmp(old, now, (size_t)W * sizeof(uint64_t)))
		return;
	forget_most(p);
	/* nodes no longer free, then nodes newly free */
	for (int k = 0; k < W; k++)
		p->diff[k] = old[k] & ~now[k];
	add_nodes(p, p->diff, W, -1);
	for (int k = 0; k < W; k++)
		p->diff[k] = now[k] & ~old[k];
	add_nodes(p, p->diff, W, 1);
	tp_nodeset_copy(&p->free, free);
}

/* dst = a - b + c over n ints. */
TP_VECTORISE
static void row_step(int *dst, const int *a, const int *b, const int *c, int n)
{
	for (int i = 0; i < n; i++)
		dst[i] = a[i] - b[i] + c[i];
}

/* out = in summed over windows of len positions (around the ring) along
 * one axis of a grid: `outer` blocks of d positions of `inner` cells.  A
 * running sum over whole rows of `inner` cells (loops the compiler
 * vectorises), no division. */
TP_VECTORISE
static void window_axis(const int *in, int *out, int outer, int d, int inner,
			int len)
{
	size_t row = (size_t)inner;
	for (int o = 0; o < outer; o++) {
		const int *a = in + (size_t)o * d * row;
		int *w = out + (size_t)o * d * row;
		memcpy(w, a, row * sizeof(int));
		for (int k = 1; k < len; k++)
			for (int i = 0; i < inner; i++)
				w[i] += a[k * row + i];
		for (int x = 0, q = len; x + 1 < d; x++, q++) {
			if (q >= d)
				q -= d;
			row_step(w + (x + 1) * row, w + x * row, a + x * row,
				 a + q * row, inner);
		}
	}
}

/* The largest sum over windows of len positions (around the ring) along
 * the last axis of a grid, lines of d cells.  The windows that wrap
 * around the ring take their own loop, so neither loop tests for the
 * wrap (the bounds of a packed search take most of their time here). */
static int most_along_last(const int *in, int lines, int d, int len)
{
	int best = 0;
	for (int o = 0; o < lines; o++) {
		const int *a = in + (size_t)o * d;
		int sum = 0;
		for (int k = 0; k < len; k++)
			sum += a[k];
		int x = 0;
		for (; x + len < d; x++) {
			best = sum > best ? sum : best;
			sum += a[x + len] - a[x];
		}
		for (; x < d; x++) {
			best = sum > best ? sum : best;
			sum += a[x + len - d] - a[x];
		}
	}
	return best;
}

/* The windows along axes 0..j of group g for the lengths len, from
 * those along axes 0..j-1 (src; the grid for j = 0): kept in g->part[j]
 * by the leading lengths when it has room, else built in `scratch`. */
static const int *windows_to(tp_torus_proj *p, group *g, int j, const int *len,
			     const int *src, int *scratch)
{
	int outer = 1, slot = 0;
	for (int i = 0; i < j; i++)
		outer *= g->size[i];
	for (int i = 0; i <= j; i++)
		slot = slot * g->size[i] + len[g->dim[i]] - 1;
	int inner = g->cells / outer / g->size[j];
	int *dst = g->part[j] ? g->part[j] + (size_t)slot * g->cells : scratch;
	if (g->part[j] && g->part_stamp[j][slot] == p->gen)
		return dst;
	window_axis(src, dst, outer, g->size[j], inner, len[g->dim[j]]);
	if (g->part[j])
		g->part_stamp[j][slot] = p->gen;
	return dst;
}

/* The fullest window of the shape's lengths in group g's projection. */
static int group_most_of(tp_torus_proj *p, group *g, const int *len)
{
	const int *src = g->grid;
	int last = g->m - 1;
	for (int j = 0; j < last; j++)
		src = windows_to(p, g, j, len, src, src == p->a ? p->b : p->a);
	return most_along_last(src, g->cells / g->size[last], g->size[last],
			       len[g->dim[last]]);
}

/* group_most_of, kept for the set by the group's lengths. */
static int group_most(tp_torus_proj *p, group *g, const int *len)
{
	int cell = 0;
	for (int j = 0; j < g->m; j++)
		cell = cell * g->size[j] + len[g->dim[j]] - 1;
	if (g->stamp[cell] != p->gen) {
		g->most[cell] = group_most_of(p, g, len);
		g->stamp[cell] = p->gen;
	}
	return g->most[cell];
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
