/*
 * alloc_torus_anchor.c - "torus-anchor": the placement rule of Slurm
 * 26.05's topology/torus3d (eval_nodes_torus3d.c, torus3d_record.c),
 * re-implemented on this project's n-dimensional torus.
 *
 * torus3d's rule, for a job of s whole nodes on one torus with equal node
 * weights (what it reduces to here):
 *   1. The placement list is sorted by size (stably: glibc's qsort merges,
 *      torus_grid.c).  Only placements of exactly s nodes are tried; a size
 *      no placement has is refused.
 *   2. The placements of size s are tried in list order, each over all its
 *      anchors; an anchor is a candidate when every node of its box is
 *      free (and it holds every required node, -w).
 *   3. A candidate replaces the best so far only if it belongs to the same
 *      placement and has a lower fragmentation cost (the comparison of two
 *      different placements falls through to the torus's idle count, equal
 *      on one torus, and keeps the earlier).  So: the first placement of
 *      size s with a free anchor; among its free anchors the one of least
 *      cost, the first on a tie.
 *   4. The cost of a box is the number of anchors of the next placement -
 *      the first one after it in the list with a larger size - that meet
 *      the box and whose nodes are all free.
 *   5. Anchors are enumerated x outermost, z innermost, where x varies
 *      fastest in node order (topology.yaml's nodes: are x-major); along an
 *      axis in generation order seed, seed + q, seed + 2q, ... modulo the
 *      ring until it returns to the seed.  Here the last dimension varies
 *      fastest in node order (torus.conf(5)), so the last dimension is
 *      outermost and dimension 0 innermost: on a 3-D torus whose
 *      torus.conf lists the nodes as topology.yaml does, torus.conf's
 *      dimension i is torus3d's axis 2 - i.
 * What it weighs that is absent here: node weights (the lower highest
 * weight of a box wins first), several tori (the less idle torus wins
 * between placements of the same cost), --segment.  Outside this file: a
 * node range -N a-b gets a nodes from torus3d (MIN(min_nodes, req_nodes))
 * but the largest size that fits from tp_job_fits; a -w list of s or more
 * nodes is taken as it is by tp_alloc_place_req, where torus3d needs it
 * inside one anchor.
 *
 * The placements come from torus.conf's Placement= lines.  Without any,
 * they are derived from the torus: every size that has a box, every shape
 * of it (every orientation) in the shape order (tp_torus_shapes: mean
 * diameter, then lengths), each with torus3d's default grid (seed 0,
 * spacing = the shape's lengths); a size with no shape then follows
 * Shapeless= as the other torus allocators do.  A line dimension (Wrap=no,
 * which torus3d does not have) has anchors seed, seed + q, ... while the
 * box fits.  Ntransit is not used: torus3d matches sizes exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_registry.h"
#include "topology/torus.h"

/* ---- one placement's anchors ------------------------------------------- */

typedef struct grid {
	const tp_torus *t;
	tp_torus_grid g;
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

/* How many positions seed, seed + q, ... dimension i has: on a ring until
 * the cycle returns to the seed (d / gcd(q, d)); on a line while the box
 * still fits. */
static int positions_in_dim(const tp_torus *t, const tp_torus_grid *g, int i)
{
	int d = tp_torus_dims(t)[i], q = g->spacing[i];
	if (tp_torus_wrap(t)[i])
		return d / gcd(q, d);
	int room = d - g->seed[i] - g->len[i];
	return room < 0 ? 0 : room / q + 1;
}

/* Position j of dimension i (0 <= j < npos[i]), in generation order. */
static int position(const grid *g, int i, int j)
{
	long p = g->g.seed[i] + (long)j * g->g.spacing[i];
	return (int)(tp_torus_wrap(g->t)[i] ? p % tp_torus_dims(g->t)[i] : p);
}

static void grid_init(grid *g, const tp_torus *t, const tp_torus_grid *tg)
{
	g->t = t;
	g->g = *tg;
	g->nanchors = 1;
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		g->npos[i] = positions_in_dim(t, tg, i);
		g->nanchors *= g->npos[i];
	}
}

/* Anchor number of the positions j[] (torus3d's order: dimension 0
 * fastest, the last dimension outermost). */
static long anchor_number(const grid *g, const int *j)
{
	long k = 0;
	for (int i = tp_torus_ndims(g->t) - 1; i >= 0; i--)
		k = k * g->npos[i] + j[i];
	return k;
}

/* The box of anchor k.  A box spanning a ring gets offset 0 there (the
 * canonical form of tp_box; the same nodes). */
static void grid_box(const grid *g, long k, tp_box *box)
{
	memset(box, 0, sizeof(*box));
	for (int i = 0; i < tp_torus_ndims(g->t); i++) {
		int len = g->g.len[i];
		box->len[i] = len;
		box->off[i] = len == tp_torus_dims(g->t)[i]
				      ? 0 : position(g, i, (int)(k % g->npos[i]));
		k /= g->npos[i];
	}
}

/* ---- the placement list ------------------------------------------------- */

/* The placements of `nodes` nodes in list order into *out (malloc'd):
 * the declared ones of that size, else (none declared) the shapes of
 * that size with the default grid.  Count, 0 if none, -1 on ENOMEM. */
static int placements_of_size(const tp_torus *t, int nodes,
			      tp_torus_grid **out)
{
	const tp_torus_grid *decl;
	int ndecl = tp_torus_grids(t, &decl), n = 0;
	*out = NULL;
	if (ndecl > 0) {
		for (int k = 0; k < ndecl; k++)
			n += tp_torus_grid_size(t, &decl[k]) == nodes;
		if (!n)
			return 0;
		if (!(*out = malloc((size_t)n * sizeof(**out))))
			return -1;
		n = 0;
		for (int k = 0; k < ndecl; k++)
			if (tp_torus_grid_size(t, &decl[k]) == nodes)
				(*out)[n++] = decl[k];
		return n;
	}
	tp_torus_shape *sh;
	int nsh = tp_torus_shapes(t, nodes, 0, &sh);
	if (nsh <= 0)
		return nsh;
	if (!(*out = calloc((size_t)nsh, sizeof(**out)))) {
		free(sh);
		return -1;
	}
	for (int r = 0; r < nsh; r++)
		for (int i = 0; i < tp_torus_ndims(t); i++)
			(*out)[r].len[i] = (*out)[r].spacing[i] = sh[r].len[i];
	free(sh);
	return nsh;
}

/* The next placement after those of `nodes` nodes: the first in the list
 * of a larger size.  1 found, 0 none (the largest size), -1 on ENOMEM. */
static int next_placement(const tp_torus *t, int nodes, tp_torus_grid *next)
{
	const tp_torus_grid *decl;
	int ndecl = tp_torus_grids(t, &decl);
	if (ndecl > 0) {
		for (int k = 0; k < ndecl; k++)
			if (tp_torus_grid_size(t, &decl[k]) > nodes) {
				*next = decl[k];
				return 1;
			}
		return 0;
	}
	for (int s = nodes + 1; s <= tp_torus_nnodes(t); s++) {
		tp_torus_grid *g;
		int n = placements_of_size(t, s, &g);
		if (n > 0)
			*next = g[0];
		free(g);
		if (n)
			return n < 0 ? -1 : 1;
	}
	return 0;
}

/* ---- free anchors -------------------------------------------------------- */

/* What a placement decision reads: the free nodes (counts over boxes),
 * the positions that hold no node, and the required nodes. */
typedef struct view {
	const tp_torus *t;
	const tp_torus_counts *cnt;     /* locked = not free */
	const tp_torus_counts *present; /* locked = no node; NULL: all */
	const tp_nodeset *required;     /* NULL: none */
} view;

/* Every node of the box is free.  A box over a position with no node is
 * never free (torus3d skips anchors with an empty cell). */
static bool box_free(const view *v, const tp_box *b)
{
	return tp_torus_counts_locked(v->cnt, b) == 0;
}

/* Every node the box has is free: torus3d's test for the next
 * placement's anchors, whose empty cells are no node to test. */
static bool box_nodes_free(const view *v, const tp_box *b)
{
	int absent = v->present ? tp_torus_counts_locked(v->present, b) : 0;
	return tp_torus_counts_locked(v->cnt, b) == absent;
}

/* The box holds every required node. */
static bool box_holds_required(const view *v, const tp_box *b)
{
	if (!v->required)
		return true;
	for (int i = tp_nodeset_next(v->required, 0); i >= 0;
	     i = tp_nodeset_next(v->required, i + 1))
		if (!tp_torus_box_contains(v->t, b, i))
			return false;
	return true;
}

/* ---- fragmentation cost -------------------------------------------------- */

/* The next placement's anchors, which of them are free, and room for the
 * positions a candidate meets in each dimension. */
typedef struct next_grid {
	grid g;
	bool *free;  /* [g.nanchors]; NULL: no next placement (cost 0) */
	int *hit[TP_TORUS_MAX_DIMS]; /* [g.npos[i]], in one allocation */
} next_grid;

static void next_grid_fini(next_grid *n)
{
	free(n->free);
	free(n->hit[0]);
}

/* The next placement after size `nodes` and its anchors' freedom.
 * 0 (n->free NULL when there is none), -1 on ENOMEM. */
static int next_grid_init(const view *v, int nodes, next_grid *n)
{
	*n = (next_grid){ .free = NULL };
	tp_torus_grid tg;
	int rc = next_placement(v->t, nodes, &tg);
	if (rc <= 0)
		return rc;
	grid_init(&n->g, v->t, &tg);
	size_t room = 0;
	for (int i = 0; i < tp_torus_ndims(v->t); i++)
		room += (size_t)n->g.npos[i];
	n->free = malloc((size_t)n->g.nanchors * sizeof(bool));
	n->hit[0] = malloc((room ? room : 1) * sizeof(int));
	if (!n->free || !n->hit[0])
		return -1;
	for (int i = 1; i < tp_torus_ndims(v->t); i++)
		n->hit[i] = n->hit[i - 1] + n->g.npos[i - 1];
	for (long k = 0; k < n->g.nanchors; k++) {
		tp_box b;
		grid_box(&n->g, k, &b);
		n->free[k] = box_nodes_free(v, &b);
	}
	return 0;
}

/* Do [a, a+p) and [q, q+r) meet in dimension i (modulo a ring)? */
static bool spans_meet(const tp_torus *t, int i, int a, int p, int q, int r)
{
	int d = tp_torus_dims(t)[i];
	if (!tp_torus_wrap(t)[i])
		return q < a + p && a < q + r;
	return (q - a + d) % d < p || (a - q + d) % d < r;
}

/* Anchors of the next placement that meet `box` and are still free: per
 * dimension the positions whose span meets the box's, then every
 * combination of them (two boxes meet iff they meet in every dimension). */
static long frag_cost(const next_grid *n, const tp_box *box)
{
	if (!n->free)
		return 0;
	const grid *g = &n->g;
	int nd = tp_torus_ndims(g->t), nhit[TP_TORUS_MAX_DIMS];
	for (int i = 0; i < nd; i++) {
		nhit[i] = 0;
		for (int j = 0; j < g->npos[i]; j++)
			if (spans_meet(g->t, i, box->off[i], box->len[i],
				       position(g, i, j), g->g.len[i]))
				n->hit[i][nhit[i]++] = j;
		if (!nhit[i])
			return 0;
	}
	int pick[TP_TORUS_MAX_DIMS] = { 0 }, j[TP_TORUS_MAX_DIMS];
	long cost = 0;
	for (;;) {
		for (int i = 0; i < nd; i++)
			j[i] = n->hit[i][pick[i]];
		cost += n->free[anchor_number(g, j)];
		int i = 0;
		while (i < nd && ++pick[i] == nhit[i])
			pick[i++] = 0;
		if (i == nd)
			return cost;
	}
}

/* ---- the choice ----------------------------------------------------------- */

/* Within one placement: the candidate anchor of least cost, the first in
 * anchor order on a tie.  1 found, 0 no candidate. */
static int best_anchor(const grid *g, const view *v, const next_grid *n,
		       tp_box *best)
{
	long best_cost = -1;
	for (long k = 0; k < g->nanchors; k++) {
		tp_box b;
		grid_box(g, k, &b);
		if (!box_free(v, &b) || !box_holds_required(v, &b))
			continue;
		long cost = frag_cost(n, &b);
		if (best_cost < 0 || cost < best_cost) {
			best_cost = cost;
			*best = b;
			if (!cost)
				break; /* nothing can beat it; first stays */
		}
	}
	return best_cost >= 0;
}

/* Across placements: the first one of size `nodes`, in list order, with a
 * candidate anchor.  0 with *box set, -1 when none (or on ENOMEM). */
static int first_placement(const view *v, int nodes, tp_box *box)
{
	tp_torus_grid *pl;
	int npl = placements_of_size(v->t, nodes, &pl), rc = 0;
	if (npl <= 0)
		return -1;
	next_grid n;
	if (next_grid_init(v, nodes, &n))
		rc = -1;
	for (int r = 0; r < npl && !rc; r++) {
		grid g;
		grid_init(&g, v->t, &pl[r]);
		rc = best_anchor(&g, v, &n, box);
	}
	next_grid_fini(&n);
	free(pl);
	return rc == 1 ? 0 : -1;
}

static int place_anchor(const tp_torus *t, const tp_nodeset *avail,
			const tp_nodeset *required, int nodes, tp_box *box)
{
	if (nodes < 1 || tp_nodeset_count(avail) < nodes)
		return -1;
	tp_torus_counts *cnt = tp_torus_counts_new(t, avail);
	if (!cnt)
		return -1;
	view v = { .t = t, .cnt = cnt, .present = tp_torus_present_counts(t),
		   .required = required };
	int rc = first_placement(&v, nodes, box);
	tp_torus_counts_free(cnt);
	return rc;
}

/* ---- the allocator ------------------------------------------------------ */

static bool declared(const tp_torus *t)
{
	const tp_torus_grid *g;
	return tp_torus_grids(t, &g) > 0;
}

static int anchor_place(tp_alloc *a, const tp_nodeset *avail,
			const tp_alloc_req *req, tp_nodeset *out)
{
	const tp_torus *t = a->state;
	tp_box box;
	tp_nodeset_zero(out);
	if (req->max_nodes > 0 && req->nodes > req->max_nodes)
		return -1;
	if (!place_anchor(t, avail, req->required, req->nodes, &box)) {
		tp_torus_box_nodes(t, &box, out);
		return 0;
	}
	/* A declared list refuses the sizes it lacks, as torus3d does. */
	if (req->boxes_only || declared(t) ||
	    tp_torus_place_packed(t, TP_TORUS_SHAPES_ALL, avail, req->nodes, out))
		return -1;
	/* packed: only if that holds the required nodes */
	if (req->required && !tp_nodeset_subset(req->required, out)) {
		tp_nodeset_zero(out);
		return -1;
	}
	return 0;
}

static double anchor_cost(tp_alloc *a, const tp_nodeset *nodes)
{
	return tp_torus_set_mean_distance(a->state, nodes);
}

/* Monotone: a job is placed exactly when some anchor box of its size is
 * all free (and holds the required nodes), which stays so on every
 * superset; a packed placement as in alloc_torus.c (the one exception: a
 * shapeless size with required nodes, packed only where the packing
 * happens to hold them).  Required nodes: an anchor must hold them, as
 * in torus3d (TP_ALLOC_OWN_REQUIRED). */
static const tp_alloc_ops anchor_ops = {
	.name = "torus-anchor",
	.flags = TP_ALLOC_MONOTONE | TP_ALLOC_PACKS | TP_ALLOC_OWN_REQUIRED,
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
	if (!a) {
		tp_errorf(err, "allocator 'torus-anchor': out of memory");
		return NULL;
	}
	if (declared(cfg->torus))
		a->flags &= ~TP_ALLOC_PACKS; /* never packs: sizes are declared */
	return a;
}

const tp_alloc_entry tp_alloc_entry_torus_anchor = {
	.name = "torus-anchor", .create = create_anchor,
};
