/*
 * alloc_torus_anchor.c - "torus-anchor": Slurm's anchored torus
 * placements, the method of topology/torus3d (Slurm 26.05), re-implemented
 * on this project's n-dimensional torus.
 *
 * The method (eval_nodes_torus3d.c and torus3d_record.c of Slurm 26.05):
 * the administrator lists placements, each a box shape with an anchor
 * grid: positions seed, seed + spacing, seed + 2 spacing, ... along each
 * axis (modulo the ring, until the cycle closes), spacing defaulting to
 * the shape's own lengths and seed to 0.  The list is sorted by size.  A
 * job of s nodes may only get the box of an anchor of a placement of
 * exactly s nodes whose nodes are all usable.  Among those candidates
 * Slurm prefers the lower node weight, then, between two anchors of the
 * same placement, the lower fragmentation cost: the number of anchors of
 * the next placement (the first one after it in the list with a larger
 * size) that the candidate overlaps and that are still entirely free;
 * then the less idle torus; otherwise the earlier candidate stays.  With
 * equal weights on one torus that reads: the first placement of size s,
 * in list order, that has a free anchor; among its free anchors the one
 * of least fragmentation cost, the first in anchor order on a tie.
 *
 * Our torus.conf(5) has no placement list, so it is derived from the
 * torus: the placements of size s are every box shape of s nodes (every
 * orientation, tp_torus_shapes) in the shape order (mean diameter, then
 * lengths: the compact shapes an administrator lists first), each with
 * torus3d's default grid (seed 0, spacing = the shape's lengths); the
 * sizes are every size that has a shape.  Axes are enumerated with
 * dimension 0 outermost and the last dimension fastest, as node indices
 * are.  Where the method has no counterpart: a line dimension (Wrap=no)
 * has anchors 0, p, 2p, ... while the box fits the line (an anchor off
 * its end has cells that are no node, which torus3d skips); Ntransit is
 * not used (torus3d matches sizes exactly); a size with no shape follows
 * Shapeless= as the other torus allocators do (torus3d refuses it, as
 * Shapeless=refuse does).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"
#include "topology/torus.h"

/* ---- anchor grids ------------------------------------------------------ */

/* One placement: a shape and its anchors (torus3d's default grid). */
typedef struct grid {
	const tp_torus *t;
	int len[TP_TORUS_MAX_DIMS];
	int npos[TP_TORUS_MAX_DIMS]; /* anchor positions per dimension */
	long nanchors;
} grid;

static int gcd(int a, int b)
{
	while (b) {
		int r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/* Positions p, 2p, ... from 0: on a ring until the cycle returns to 0
 * (d / gcd(p, d) of them); on a line while the box still fits. */
static int positions_in_dim(const tp_torus *t, int i, int p)
{
	int d = tp_torus_dims(t)[i];
	return tp_torus_wrap(t)[i] ? d / gcd(p, d) : (d - p) / p + 1;
}

/* Position j of dimension i (0 <= j < npos[i]). */
static int position(const grid *g, int i, int j)
{
	return (int)((long long)j * g->len[i] % tp_torus_dims(g->t)[i]);
}

static void grid_init(grid *g, const tp_torus *t, const int *len)
{
	g->t = t;
	g->nanchors = 1;
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		g->len[i] = len[i];
		g->npos[i] = positions_in_dim(t, i, len[i]);
		g->nanchors *= g->npos[i];
	}
}

/* The box of anchor k, dimension 0 outermost. */
static void grid_box(const grid *g, long k, tp_box *box)
{
	memset(box, 0, sizeof(*box));
	for (int i = tp_torus_ndims(g->t) - 1; i >= 0; i--) {
		box->off[i] = position(g, i, (int)(k % g->npos[i]));
		box->len[i] = g->len[i];
		k /= g->npos[i];
	}
}

/* Do [a, a+p) and [q, q+r) meet in dimension i (modulo a ring)? */
static bool spans_meet(const tp_torus *t, int i, int a, int p, int q, int r)
{
	int d = tp_torus_dims(t)[i];
	if (!tp_torus_wrap(t)[i])
		return q < a + p && a < q + r;
	return (q - a + d) % d < p || (a - q + d) % d < r;
}

/* ---- fragmentation cost ------------------------------------------------- */

/* The next placement's anchors, which of them are entirely free, and
 * room for the positions a candidate meets in each dimension. */
typedef struct next_grid {
	grid g;
	bool *free;  /* [g.nanchors]; NULL: no next placement (cost 0) */
	int *hit[TP_TORUS_MAX_DIMS]; /* [g.npos[i]], in one allocation */
} next_grid;

/* Anchors of the next placement that `box` overlaps and that are still
 * entirely free: per dimension the positions whose span meets the box's,
 * then every combination of them. */
static long frag_cost(const next_grid *n, const tp_box *box)
{
	const grid *g = &n->g;
	int nd = tp_torus_ndims(g->t), nhit[TP_TORUS_MAX_DIMS];
	for (int i = 0; i < nd; i++) {
		nhit[i] = 0;
		for (int j = 0; j < g->npos[i]; j++)
			if (spans_meet(g->t, i, box->off[i], box->len[i],
				       position(g, i, j), g->len[i]))
				n->hit[i][nhit[i]++] = j;
		if (!nhit[i])
			return 0;
	}
	int pick[TP_TORUS_MAX_DIMS] = { 0 };
	long cost = 0;
	for (;;) {
		long k = 0;
		for (int i = 0; i < nd; i++)
			k = k * g->npos[i] + n->hit[i][pick[i]];
		cost += n->free[k];
		int i = nd - 1;
		while (i >= 0 && ++pick[i] == nhit[i])
			pick[i--] = 0;
		if (i < 0)
			return cost;
	}
}

static void next_grid_fini(next_grid *n)
{
	free(n->free);
	free(n->hit[0]);
}

/* The next placement of the derived list, the first shape of the
 * smallest size above `nodes` that has one; its anchors' freedom.
 * 0 (n->free NULL if there is none), -1 on ENOMEM. */
static int next_placement(const tp_torus *t, int nodes,
			  const tp_torus_counts *cnt, next_grid *n)
{
	*n = (next_grid){ .free = NULL };
	for (int s = nodes + 1; s <= tp_torus_nnodes(t); s++) {
		tp_torus_shape *sh;
		int nsh = tp_torus_shapes(t, s, 0, &sh);
		if (nsh < 0)
			return -1;
		if (nsh == 0)
			continue;
		grid_init(&n->g, t, sh[0].len);
		free(sh);
		size_t room = 0;
		for (int i = 0; i < tp_torus_ndims(t); i++)
			room += (size_t)n->g.npos[i];
		n->free = malloc((size_t)n->g.nanchors * sizeof(bool));
		n->hit[0] = malloc(room * sizeof(int));
		if (!n->free || !n->hit[0])
			return -1;
		for (int i = 1; i < tp_torus_ndims(t); i++)
			n->hit[i] = n->hit[i - 1] + n->g.npos[i - 1];
		for (long k = 0; k < n->g.nanchors; k++) {
			tp_box b;
			grid_box(&n->g, k, &b);
			n->free[k] = tp_torus_counts_locked(cnt, &b) == 0;
		}
		return 0;
	}
	return 0;
}

/* ---- placement ---------------------------------------------------------- */

/* Among the free anchors of one placement, the one of least cost (the
 * first on a tie).  1 found, 0 none free. */
static int best_anchor(const grid *g, const tp_torus_counts *cnt,
		       const next_grid *n, tp_box *best)
{
	long best_cost = -1;
	for (long k = 0; k < g->nanchors; k++) {
		tp_box b;
		grid_box(g, k, &b);
		if (tp_torus_counts_locked(cnt, &b))
			continue;
		long cost = n->free ? frag_cost(n, &b) : 0;
		if (best_cost < 0 || cost < best_cost) {
			best_cost = cost;
			*best = b;
			if (!cost)
				break; /* nothing can beat it; first stays */
		}
	}
	return best_cost >= 0;
}

/* 0 with *box set, -1 when no anchor of size `nodes` is free (or on
 * ENOMEM). */
static int place_anchor(const tp_torus *t, const tp_nodeset *avail,
			  int nodes, tp_box *box)
{
	if (nodes < 1 || tp_nodeset_count(avail) < nodes)
		return -1;
	tp_torus_shape *sh;
	int nsh = tp_torus_shapes(t, nodes, 0, &sh), rc = 0;
	if (nsh <= 0)
		return -1;
	tp_torus_counts *cnt = tp_torus_counts_new(t, avail);
	next_grid n = { .free = NULL };
	if (!cnt || next_placement(t, nodes, cnt, &n))
		rc = -1;
	for (int r = 0; r < nsh && !rc; r++) {
		grid g;
		grid_init(&g, t, sh[r].len);
		rc = best_anchor(&g, cnt, &n, box);
	}
	next_grid_fini(&n);
	tp_torus_counts_free(cnt);
	free(sh);
	return rc == 1 ? 0 : -1;
}

/* ---- the allocator ------------------------------------------------------ */

static int anchor_place(tp_alloc *a, const tp_nodeset *avail,
			const tp_alloc_req *req, tp_nodeset *out)
{
	const tp_torus *t = a->state;
	tp_box box;
	tp_nodeset_zero(out);
	if (req->max_nodes > 0 && req->nodes > req->max_nodes)
		return -1;
	if (place_anchor(t, avail, req->nodes, &box))
		return req->boxes_only ? -1
				       : tp_torus_place_packed(t, TP_TORUS_SHAPES_ALL,
							       avail, req->nodes, out);
	tp_torus_box_nodes(t, &box, out);
	return 0;
}

static double anchor_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	return tp_torus_set_mean_distance(a->state, nodes);
}

/* Monotone: a job is placed exactly when some anchor box of its size is
 * all free, which stays so on every superset; a packed placement as in
 * alloc_torus.c. */
static const tp_alloc_ops anchor_ops = {
	.name = "torus-anchor",
	.flags = TP_ALLOC_MONOTONE | TP_ALLOC_PACKS,
	.place = anchor_place,
	.cost = anchor_cost,
};

static tp_alloc *create_anchor(const tp_alloc_cfg *cfg, tp_error *err)
{
	if (!cfg->torus) {
		tp_errorf(err, "allocator 'torus-anchor' needs a torus (--torus FILE)");
		return NULL;
	}
	int N = tp_torus_nnodes(cfg->torus);
	if (cfg->nnodes > 0 && cfg->nnodes != N) {
		tp_errorf(err, "allocator 'torus-anchor': cluster has %d nodes, the torus %d",
			  cfg->nnodes, N);
		return NULL;
	}
	/* the torus outlives its allocators (tp_topo, the benchmarks) */
	tp_alloc *a = tp_alloc_new(&anchor_ops, N, (void *)cfg->torus);
	if (!a)
		tp_errorf(err, "allocator 'torus-anchor': out of memory");
	return a;
}

const tp_alloc_entry tp_alloc_entry_torus_anchor = {
	.name = "torus-anchor", .create = create_anchor,
};
