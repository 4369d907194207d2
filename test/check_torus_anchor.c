/* check_torus_anchor.c - unit tests for alloc_torus_anchor.c: Slurm
 * 26.05 topology/torus3d's rule (anchored placements, the first placement
 * of the size with a free anchor, the least fragmentation cost within it,
 * torus3d's anchor order), hand-worked on 4x4x4 and against a node-set
 * reference that reads torus3d's candidate comparison literally. */
#include "check_util.h"
#include "alloc/alloc.h"
#include "trace/rng.h"
#include "topology/torus.h"

#include <string.h>

static tp_torus *gen(int n, const int *dims, const bool *wrap)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(n, dims, wrap, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static tp_alloc *make(tp_torus *t, const char *name)
{
	tp_alloc_cfg cfg = { .nnodes = tp_torus_nnodes(t), .torus = t };
	tp_error err;
	tp_alloc *a = tp_alloc_create(name, &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	return a;
}

static void refuse_shapeless(tp_torus *t)
{
	tp_torus_opts o = *tp_torus_options(t);
	o.shapeless = TP_TORUS_SHAPELESS_REFUSE;
	ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
}

/* "5,6,9,10" of a placement, or "-" when refused. */
static const char *place_str(tp_alloc *a, const tp_nodeset *avail, int w)
{
	static char buf[256];
	tp_nodeset out;
	tp_nodeset_init(&out, avail->n);
	if (tp_alloc_place(a, avail, w, &out)) {
		snprintf(buf, sizeof(buf), "-");
	} else {
		char *s = tp_nodeset_format(&out);
		snprintf(buf, sizeof(buf), "%s", s);
		free(s);
	}
	tp_nodeset_fini(&out);
	return buf;
}

/* ---- hand-worked ---------------------------------------------------------- */

/*
 * 4x4 rings, node (r, c) = 4r + c, node 8 = (2,0) busy, a job of 4.
 * Placements of 4 in list order: 2x2 (mean diameter 4/3), then 1x4 and
 * 4x1.  2x2's anchors (spacing 2): (0,0) (0,2) (2,0) (2,2); (2,0) holds
 * node 8.  The next size with a box is 6, its first shape 2x3: rows 0-1
 * or 2-3, columns from 0, 3, 2, 1 (spacing 3 cycles the 4-ring), eight
 * anchors; those in rows 2-3 except columns 1-3 hold node 8.
 *   (0,0) and (0,2) meet all four free row-0 anchors: cost 4;
 *   (2,2), columns 2-3, meets the one free row-2 anchor: cost 1.
 * torus-anchor takes (2,2) = 10,11,14,15; torus-base the first free
 * 2x2 box, (0,0) = 0,1,4,5.
 */
START_TEST(test_hand_worked_choice)
{
	int dims[] = { 4, 4 };
	tp_torus *t = gen(2, dims, NULL);
	tp_alloc *anchor = make(t, "torus-anchor"), *base = make(t, "torus-base");
	tp_nodeset avail;
	tp_nodeset_init(&avail, 16);
	tp_nodeset_fill(&avail);
	/* all free: every 2x2 anchor costs 4, the first stays */
	ck_assert_str_eq(place_str(anchor, &avail, 4), "0-1,4-5");
	tp_nodeset_clear(&avail, 8);
	ck_assert_str_eq(place_str(anchor, &avail, 4), "10-11,14-15");
	ck_assert_str_eq(place_str(base, &avail, 4), "0-1,4-5");
	/* 16 nodes: the largest size, no next placement, one anchor */
	ck_assert_str_eq(place_str(anchor, &avail, 16), "-");
	tp_nodeset_set(&avail, 8);
	ck_assert_str_eq(place_str(anchor, &avail, 16), "0-15");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(anchor);
	tp_alloc_destroy(base);
	tp_torus_free(t);
}
END_TEST

/* Only the box at (1,1) = 5,6,9,10 is free: torus-base places a job of
 * 4 there, torus-anchor refuses (no anchor of 2x2, 1x4 or 4x1 is all
 * free).  A size with no box: 5 under Shapeless=refuse, 17 always. */
START_TEST(test_refusals)
{
	int dims[] = { 4, 4 };
	tp_torus *t = gen(2, dims, NULL);
	tp_alloc *anchor = make(t, "torus-anchor"), *base = make(t, "torus-base");
	tp_nodeset avail;
	tp_nodeset_init(&avail, 16);
	tp_nodeset_set(&avail, 5);
	tp_nodeset_set(&avail, 6);
	tp_nodeset_set(&avail, 9);
	tp_nodeset_set(&avail, 10);
	ck_assert_str_eq(place_str(base, &avail, 4), "5-6,9-10");
	ck_assert_str_eq(place_str(anchor, &avail, 4), "-");
	/* 2 nodes: 1x2 anchors sit at even columns, (1,0)-(1,1) is not free,
	 * (1,2)-(1,3) neither; 2x1 at even rows: (0..1, c) no; so none */
	ck_assert_str_eq(place_str(anchor, &avail, 2), "-");
	/* 1 node: every node is an anchor */
	ck_assert_str_eq(place_str(anchor, &avail, 1), "5");
	tp_nodeset_fill(&avail);
	ck_assert_str_eq(place_str(anchor, &avail, 17), "-");
	/* 5 has no box: packed by default (Shapeless=pack: the lowest five of
	 * the first 2x3 box, 0-2 and 4-6), else refused */
	ck_assert_str_eq(place_str(anchor, &avail, 5), "0-2,4-5");
	refuse_shapeless(t);
	ck_assert_str_eq(place_str(anchor, &avail, 5), "-");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(anchor);
	tp_alloc_destroy(base);
	tp_torus_free(t);
}
END_TEST

/* A line (Wrap=no) has anchors 0, p, 2p, ... while the box fits: on a
 * line of 5, 2-node anchors are 0-1 and 2-3, never 4-0. */
START_TEST(test_line_anchors)
{
	int dims[] = { 5 };
	bool line[] = { false };
	tp_torus *t = gen(1, dims, line);
	tp_alloc *a = make(t, "torus-anchor");
	tp_nodeset avail;
	tp_nodeset_init(&avail, 5);
	tp_nodeset_set_range(&avail, 3, 5);
	ck_assert_str_eq(place_str(a, &avail, 2), "-");
	tp_nodeset_set(&avail, 2);
	ck_assert_str_eq(place_str(a, &avail, 2), "2-3");
	tp_alloc_destroy(a);
	tp_torus_free(t);
	/* the same ring: spacing 2 cycles 0, 2, 4, 1, 3; 4-0 is an anchor */
	t = gen(1, dims, NULL);
	a = make(t, "torus-anchor");
	tp_nodeset_zero(&avail);
	tp_nodeset_set(&avail, 4);
	tp_nodeset_set(&avail, 0);
	ck_assert_str_eq(place_str(a, &avail, 2), "0,4");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* ---- torus3d on 4x4x4: hand-worked ---------------------------------------
 * torus.conf Dimensions=4x4x4 with Nodes=n[1-64] names node i by index
 * 16 c0 + 4 c1 + c2, as topology.yaml's nodes: n[1-64] on dims 4x4x4 name
 * (x, y, z) by x + 4y + 16z: dimension 0 is z, 1 is y, 2 is x.  So
 * torus3d's placement {x: a, y: b, z: c} is Placement=c x b x a here, and
 * its anchor order (x outermost, z innermost) makes dimension 0 the
 * fastest. */

/* A placement of lengths (c0, c1, c2), default grid. */
static tp_torus_grid pl3(int c0, int c1, int c2)
{
	tp_torus_grid g = { .len = { c0, c1, c2 }, .spacing = { c0, c1, c2 } };
	return g;
}

static tp_torus *cube4(const tp_torus_grid *g, int n)
{
	int dims[] = { 4, 4, 4 };
	tp_torus *t = gen(3, dims, NULL);
	tp_error err;
	ck_assert_msg(tp_torus_set_grids(t, g, n, &err) == 0, "%s", err.msg);
	return t;
}

/* Every node free except the listed ones (-1 ends the list). */
static void all_but(tp_nodeset *s, const int *busy)
{
	tp_nodeset_fill(s);
	for (; *busy >= 0; busy++)
		tp_nodeset_clear(s, *busy);
}

/* x-pairs then 2x2x2 cubes.  All free: every pair meets one free cube
 * (cost 1), the first anchor (0,0,0) = nodes 0-1 stays.  With 0-1 busy,
 * the pairs in the cube at the origin cost 0; in torus3d's order (x, then
 * y, then z fastest) the first is (x0, y0, z1) = 16-17.  (Dimension 0
 * outermost would take (z0, y1, x0) = 4-5.) */
START_TEST(test_anchor_order)
{
	tp_torus_grid g[] = { pl3(1, 1, 2), pl3(2, 2, 2) };
	tp_torus *t = cube4(g, 2);
	tp_alloc *a = make(t, "torus-anchor");
	tp_nodeset avail;
	tp_nodeset_init(&avail, 64);
	tp_nodeset_fill(&avail);
	ck_assert_str_eq(place_str(a, &avail, 2), "0-1");
	all_but(&avail, (const int[]){ 0, 1, -1 });
	ck_assert_str_eq(place_str(a, &avail, 2), "16-17");
	/* the cubes' first free anchor: (x0, y0, z2) */
	ck_assert_str_eq(place_str(a, &avail, 8), "32-33,36-37,48-49,52-53");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* Costs are compared within a placement only.  List: x-pairs (A), y-pairs
 * (B), cubes.  Busy 0, 4, 17, 21 block every A anchor of the origin cube,
 * so A's free anchors lie in free cubes and cost 1; B's (x1, y0-1, z0) =
 * 1,5 is free and costs 0.  torus3d takes A's first free anchor,
 * (x0-1, y0, z2) = 32-33. */
START_TEST(test_first_placement_wins)
{
	tp_torus_grid g[] = { pl3(1, 1, 2), pl3(1, 2, 1), pl3(2, 2, 2) };
	tp_torus *t = cube4(g, 3);
	tp_alloc *a = make(t, "torus-anchor");
	tp_nodeset avail;
	tp_nodeset_init(&avail, 64);
	all_but(&avail, (const int[]){ 0, 4, 17, 21, -1 });
	ck_assert_str_eq(place_str(a, &avail, 2), "32-33");
	tp_alloc_destroy(a);
	tp_torus_free(t);
	/* B alone: its first cost-0 anchor, (x0, y0-1, z1) */
	tp_torus_grid h[] = { pl3(1, 2, 1), pl3(2, 2, 2) };
	t = cube4(h, 2);
	a = make(t, "torus-anchor");
	ck_assert_str_eq(place_str(a, &avail, 2), "16,20");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* The next placement is the first of the next size in list order.  Busy
 * 16 = (x0, y0, z1).  Next = 1x2x2 (z, y, x) squares: each x-pair meets
 * one, (z1, y1, x0-1) = 20-21 meets the busy one (cost 0).  Next = 2x2x1
 * squares: each pair meets two, one busy node never blocks both: all
 * cost 1, the first free anchor 0-1 stays.  The list is sorted by size
 * (the cubes declared first come last). */
START_TEST(test_next_in_list_order)
{
	tp_torus_grid g[] = { pl3(2, 2, 2), pl3(1, 1, 2), pl3(1, 2, 2), pl3(2, 2, 1) };
	tp_torus *t = cube4(g, 4);
	const tp_torus_grid *sorted;
	ck_assert_int_eq(tp_torus_grids(t, &sorted), 4);
	ck_assert_int_eq(sorted[0].len[2], 2);
	ck_assert_int_eq(sorted[1].len[0], 1); /* 1x2x2 before 2x2x1 */
	ck_assert_int_eq(sorted[2].len[0], 2);
	ck_assert_int_eq(sorted[3].len[2], 2);
	tp_alloc *a = make(t, "torus-anchor");
	tp_nodeset avail;
	tp_nodeset_init(&avail, 64);
	all_but(&avail, (const int[]){ 16, -1 });
	ck_assert_str_eq(place_str(a, &avail, 2), "20-21");
	tp_alloc_destroy(a);
	tp_torus_free(t);
	tp_torus_grid h[] = { pl3(1, 1, 2), pl3(2, 2, 1), pl3(1, 2, 2) };
	t = cube4(h, 3);
	a = make(t, "torus-anchor");
	ck_assert_str_eq(place_str(a, &avail, 2), "0-1");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* AnchorSeed shifts the grid (x at 1, 3: pairs 1-2 and 3-0 across the
 * seam); AnchorSpacing 1 makes every position an anchor. */
START_TEST(test_seed_and_spacing)
{
	tp_torus_grid g = pl3(1, 1, 2);
	g.seed[2] = 1;
	tp_torus *t = cube4(&g, 1);
	tp_alloc *a = make(t, "torus-anchor");
	tp_nodeset avail;
	tp_nodeset_init(&avail, 64);
	tp_nodeset_fill(&avail);
	ck_assert_str_eq(place_str(a, &avail, 2), "1-2");
	all_but(&avail, (const int[]){ 1, -1 });
	ck_assert_str_eq(place_str(a, &avail, 2), "17-18");
	tp_nodeset_zero(&avail);
	tp_nodeset_set(&avail, 0);
	tp_nodeset_set(&avail, 3);
	ck_assert_str_eq(place_str(a, &avail, 2), "0,3");
	tp_nodeset_zero(&avail);
	tp_nodeset_set_range(&avail, 0, 2);
	ck_assert_str_eq(place_str(a, &avail, 2), "-");
	tp_alloc_destroy(a);
	tp_torus_free(t);
	g = pl3(1, 1, 2);
	g.spacing[2] = 1;
	t = cube4(&g, 1);
	a = make(t, "torus-anchor");
	ck_assert_str_eq(place_str(a, &avail, 2), "0-1");
	tp_nodeset_zero(&avail);
	tp_nodeset_set_range(&avail, 1, 3);
	ck_assert_str_eq(place_str(a, &avail, 2), "1-2");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* A declared list refuses the sizes it lacks, even those with a box and
 * under Shapeless=pack; the derived list places them. */
START_TEST(test_declared_sizes_only)
{
	tp_torus_grid g[] = { pl3(1, 1, 2), pl3(2, 2, 2) };
	tp_torus *t = cube4(g, 2);
	ck_assert_int_eq(tp_torus_options(t)->shapeless, TP_TORUS_SHAPELESS_PACK);
	tp_alloc *a = make(t, "torus-anchor");
	ck_assert(!(a->flags & TP_ALLOC_PACKS));
	tp_nodeset avail;
	tp_nodeset_init(&avail, 64);
	tp_nodeset_fill(&avail);
	ck_assert_str_eq(place_str(a, &avail, 4), "-");
	ck_assert_str_eq(place_str(a, &avail, 3), "-");
	ck_assert_str_eq(place_str(a, &avail, 64), "-");
	ck_assert_str_eq(place_str(a, &avail, 8), "0-1,4-5,16-17,20-21");
	tp_alloc_destroy(a);
	ck_assert_int_eq(tp_torus_set_grids(t, NULL, 0, NULL), 0);
	a = make(t, "torus-anchor");
	ck_assert(a->flags & TP_ALLOC_PACKS);
	ck_assert_str_ne(place_str(a, &avail, 4), "-");
	ck_assert_str_ne(place_str(a, &avail, 3), "-");
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* -w: the anchor must hold the required nodes (torus3d tests
 * req_node_bitmap against each anchor). */
START_TEST(test_required_nodes)
{
	tp_torus_grid g[] = { pl3(1, 1, 2), pl3(2, 2, 2) };
	tp_torus *t = cube4(g, 2);
	tp_alloc *a = make(t, "torus-anchor");
	tp_nodeset avail, req, out;
	tp_nodeset_init(&avail, 64);
	tp_nodeset_init(&req, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_fill(&avail);
	tp_nodeset_set(&req, 5);
	tp_alloc_req r = { .nodes = 2, .required = &req };
	ck_assert_int_eq(tp_alloc_place_req(a, &avail, &r, &out), 0);
	char *s = tp_nodeset_format(&out);
	ck_assert_str_eq(s, "4-5");
	free(s);
	tp_nodeset_clear(&avail, 4);
	ck_assert_int_eq(tp_alloc_place_req(a, &avail, &r, &out), -1);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&req);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* A position with no node (torus.conf names it, slurm.conf lacks it):
 * no anchor over it is a candidate, but a next-placement anchor over it
 * counts in the cost when its other nodes are free (torus3d's anchor
 * bitmaps hold only the nodes it has).  Absent 18 = (x2, y0, z1): the
 * pair 2-3 meets the cube that holds it and costs 1, like every pair, so
 * the first, 0-1, stays (2-3, the first pair of cost 0, if that cube
 * counted as taken).  With the origin's cube taken too, the next free
 * cube and pair are at z2. */
START_TEST(test_absent_position)
{
	tp_torus_grid g[] = { pl3(1, 1, 2), pl3(2, 2, 2) };
	tp_torus *t = cube4(g, 2);
	tp_nodeset present, avail;
	tp_nodeset_init(&present, 64);
	tp_nodeset_init(&avail, 64);
	all_but(&present, (const int[]){ 18, -1 });
	ck_assert_int_eq(tp_torus_set_present(t, &present), 0);
	tp_alloc *a = make(t, "torus-anchor");
	tp_nodeset_copy(&avail, &present);
	ck_assert_str_eq(place_str(a, &avail, 2), "0-1");
	all_but(&avail, (const int[]){ 18, 0, 1, 4, 5, 16, 17, 20, 21, -1 });
	ck_assert_str_eq(place_str(a, &avail, 8), "32-33,36-37,48-49,52-53");
	ck_assert_str_eq(place_str(a, &avail, 2), "32-33");
	tp_nodeset_fini(&present);
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* ---- against a literal reading of torus3d -------------------------------- */

#define REF_MAX_GRIDS 256

/* The placement list as torus3d builds it: declared (in the order given,
 * then sorted stably by size), or derived (every shape of every size). */
typedef struct ref_list {
	tp_torus_grid g[REF_MAX_GRIDS];
	int size[REF_MAX_GRIDS];
	int n;
} ref_list;

static void ref_list_build(const tp_torus *t, const tp_torus_grid *decl,
			   int ndecl, ref_list *l)
{
	int N = tp_torus_nnodes(t), nd = tp_torus_ndims(t);
	l->n = 0;
	for (int s = 1; s <= N; s++) {
		if (ndecl) {
			for (int k = 0; k < ndecl; k++)
				if (tp_torus_grid_size(t, &decl[k]) == s) {
					l->g[l->n] = decl[k];
					l->size[l->n++] = s;
				}
			continue;
		}
		tp_torus_shape *sh;
		int nsh = tp_torus_shapes(t, s, 0, &sh);
		for (int r = 0; r < nsh && l->n < REF_MAX_GRIDS; r++) {
			tp_torus_grid g;
			memset(&g, 0, sizeof(g));
			for (int i = 0; i < nd; i++)
				g.len[i] = g.spacing[i] = sh[r].len[i];
			l->g[l->n] = g;
			l->size[l->n++] = s;
		}
		free(sh);
	}
	ck_assert_int_lt(l->n, REF_MAX_GRIDS);
}

/* Anchor positions of one dimension: from the seed in steps of q, on a
 * ring until back at the seed; on a line while the box fits. */
static int ref_positions(const tp_torus *t, const tp_torus_grid *g, int i,
			 int *pos)
{
	int d = tp_torus_dims(t)[i], p = g->len[i], q = g->spacing[i], n = 0;
	if (!tp_torus_wrap(t)[i]) {
		for (int x = g->seed[i]; x + p <= d; x += q)
			pos[n++] = x;
		return n;
	}
	int x = g->seed[i];
	do {
		pos[n++] = x;
		x = (x + q) % d;
	} while (x != g->seed[i]);
	return n;
}

/* The anchors' node sets in torus3d's order: the dimension that varies
 * fastest in node order (the last) outermost, dimension 0 innermost. */
static int ref_anchors(const tp_torus *t, const tp_torus_grid *g,
		       tp_nodeset **out)
{
	int nd = tp_torus_ndims(t), N = tp_torus_nnodes(t);
	int pos[TP_TORUS_MAX_DIMS][64], np[TP_TORUS_MAX_DIMS], j[TP_TORUS_MAX_DIMS];
	int n = 1;
	for (int i = 0; i < nd; i++) {
		np[i] = ref_positions(t, g, i, pos[i]);
		n *= np[i];
		j[i] = 0;
	}
	*out = calloc((size_t)(n ? n : 1), sizeof(**out));
	for (int k = 0; k < n; k++) {
		tp_nodeset_init(&(*out)[k], N);
		int c[TP_TORUS_MAX_DIMS];
		/* every cell of the box, node by node */
		int cells = tp_torus_grid_size(t, g);
		for (int m = 0; m < cells; m++) {
			for (int i = 0, r = m; i < nd; r /= g->len[i], i++)
				c[i] = (pos[i][j[i]] + r % g->len[i]) % tp_torus_dims(t)[i];
			tp_nodeset_set(&(*out)[k], tp_torus_index(t, c));
		}
		for (int i = 0; i < nd && ++j[i] == np[i]; i++)
			j[i] = 0; /* dimension 0 fastest */
	}
	return n;
}

static void ref_anchors_free(tp_nodeset *a, int n)
{
	for (int k = 0; k < n; k++)
		tp_nodeset_fini(&a[k]);
	free(a);
}

/* torus3d's choice read literally: every placement of size w, every
 * anchor; a free anchor holding the required nodes is a candidate; it
 * replaces the best only when it is of the same placement and of lower
 * cost (cost: the next placement's anchors meeting it that lie in avail). */
static int ref_place(const tp_torus *t, const ref_list *l,
		     const tp_nodeset *avail, const tp_nodeset *req, int w,
		     tp_nodeset *out)
{
	int best_pl = -1, best_cost = -1;
	for (int i = 0; i < l->n; i++) {
		if (l->size[i] != w)
			continue;
		int next = -1;
		for (int j = i + 1; j < l->n && next < 0; j++)
			if (l->size[j] > w)
				next = j;
		tp_nodeset *na = NULL, *a;
		int nn = next >= 0 ? ref_anchors(t, &l->g[next], &na) : 0;
		int n = ref_anchors(t, &l->g[i], &a);
		for (int k = 0; k < n; k++) {
			if (!tp_nodeset_subset(&a[k], avail) ||
			    (req && !tp_nodeset_subset(req, &a[k])))
				continue;
			int cost = 0;
			for (int m = 0; m < nn; m++)
				cost += tp_nodeset_intersects(&na[m], &a[k]) &&
					tp_nodeset_subset(&na[m], avail);
			if (best_pl < 0 || (best_pl == i && cost < best_cost)) {
				best_pl = i;
				best_cost = cost;
				tp_nodeset_copy(out, &a[k]);
			}
		}
		ref_anchors_free(a, n);
		if (na)
			ref_anchors_free(na, nn);
	}
	return best_pl >= 0 ? 0 : -1;
}

typedef struct torus_case {
	int ndims, dims[4];
	bool wrap[4];
} torus_case;

static const torus_case cases[] = {
	{ 3, { 4, 4, 4 }, { true, true, true } },
	{ 2, { 4, 4 }, { true, true } },
	{ 3, { 4, 3, 3 }, { true, true, true } },
	{ 4, { 3, 3, 2, 2 }, { true, true, true, true } },
	{ 3, { 4, 4, 2 }, { true, true, true } },
	{ 3, { 5, 3, 2 }, { false, true, false } },
	{ 2, { 6, 4 }, { true, false } },
};

/* A random valid grid: any lengths, seeds and spacings (overlapping
 * anchors too), a line's seed leaving room for the box. */
static tp_torus_grid random_grid(const tp_torus *t, tp_rng *rng)
{
	tp_torus_grid g;
	memset(&g, 0, sizeof(g));
	for (int i = 0; i < tp_torus_ndims(t); i++) {
		int d = tp_torus_dims(t)[i];
		g.len[i] = 1 + (int)tp_rng_below(rng, (uint64_t)d);
		int seeds = tp_torus_wrap(t)[i] ? d : d - g.len[i] + 1;
		g.seed[i] = (int)tp_rng_below(rng, (uint64_t)seeds);
		g.spacing[i] = tp_rng_below(rng, 2) ? g.len[i]
						    : 1 + (int)tp_rng_below(rng, (uint64_t)d);
	}
	return g;
}

/* One free set, every size and a few required nodes: the allocator
 * equals the reference. */
static void compare_all_sizes(const tp_torus *t, tp_alloc *a, const ref_list *l,
			      const tp_nodeset *avail, tp_rng *rng,
			      int *placed, int *refused)
{
	int N = tp_torus_nnodes(t);
	tp_nodeset got, want, req;
	tp_nodeset_init(&got, N);
	tp_nodeset_init(&want, N);
	tp_nodeset_init(&req, N);
	for (int w = 1; w <= N; w++) {
		tp_nodeset_zero(&req);
		if (w > 1 && tp_rng_below(rng, 4) == 0) {
			int i = tp_nodeset_next(avail, (int)tp_rng_below(rng, (uint64_t)N));
			if (i >= 0)
				tp_nodeset_set(&req, i);
		}
		bool has_req = tp_nodeset_count(&req) > 0;
		tp_nodeset_zero(&want);
		int rr = ref_place(t, l, avail, has_req ? &req : NULL, w, &want);
		tp_alloc_req r = { .nodes = w, .required = has_req ? &req : NULL };
		int ra = tp_alloc_place_req(a, avail, &r, &got);
		ck_assert_msg(ra == rr, "size %d: allocator %d, reference %d", w, ra, rr);
		if (ra) {
			(*refused)++;
			continue;
		}
		(*placed)++;
		ck_assert_msg(tp_nodeset_equal(&got, &want), "size %d differs", w);
		ck_assert_int_eq(tp_nodeset_count(&got), w);
		ck_assert(tp_nodeset_subset(&got, avail));
	}
	tp_nodeset_fini(&got);
	tp_nodeset_fini(&want);
	tp_nodeset_fini(&req);
}

/* Random free sets, the derived list (round 0 mod 3) or a random declared
 * one (2 to 7 placements, sizes repeating, out of order). */
START_TEST(test_matches_reference)
{
	const torus_case *c = &cases[_i];
	tp_torus *t = gen(c->ndims, c->dims, c->wrap);
	refuse_shapeless(t);
	int N = tp_torus_nnodes(t);
	tp_nodeset avail;
	tp_nodeset_init(&avail, N);
	tp_rng rng;
	tp_rng_seed(&rng, 11u + (uint64_t)_i);
	int placed = 0, refused = 0;
	static ref_list l;
	for (int round = 0; round < 45; round++) {
		tp_torus_grid decl[8];
		int ndecl = round % 3 ? 2 + (int)tp_rng_below(&rng, 6) : 0;
		for (int k = 0; k < ndecl; k++)
			decl[k] = random_grid(t, &rng);
		tp_error err;
		ck_assert_msg(tp_torus_set_grids(t, decl, ndecl, &err) == 0, "%s", err.msg);
		ref_list_build(t, decl, ndecl, &l);
		tp_alloc *a = make(t, "torus-anchor");
		int busy = (int)tp_rng_below(&rng, 70);
		tp_nodeset_zero(&avail);
		for (int i = 0; i < N; i++)
			if ((int)tp_rng_below(&rng, 100) >= busy)
				tp_nodeset_set(&avail, i);
		compare_all_sizes(t, a, &l, &avail, &rng, &placed, &refused);
		tp_alloc_destroy(a);
	}
	ck_assert_int_gt(placed, 0);
	ck_assert_int_gt(refused, 0);
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_needs_torus)
{
	tp_alloc_cfg cfg = { .nnodes = 8 };
	tp_error err;
	ck_assert_ptr_null(tp_alloc_create("torus-anchor", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'torus-anchor' needs a torus (--torus FILE)");
	bool listed = false;
	for (const char *const *n = tp_alloc_names(); *n; n++)
		listed |= !strcmp(*n, "torus-anchor");
	ck_assert(listed);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("torus_anchor");
	TCase *tc = tcase_create("hand-worked");
	tcase_add_test(tc, test_hand_worked_choice);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_line_anchors);
	tcase_add_test(tc, test_needs_torus);
	suite_add_tcase(s, tc);
	tc = tcase_create("torus3d");
	tcase_add_test(tc, test_anchor_order);
	tcase_add_test(tc, test_first_placement_wins);
	tcase_add_test(tc, test_next_in_list_order);
	tcase_add_test(tc, test_seed_and_spacing);
	tcase_add_test(tc, test_declared_sizes_only);
	tcase_add_test(tc, test_required_nodes);
	tcase_add_test(tc, test_absent_position);
	suite_add_tcase(s, tc);
	tc = tcase_create("reference");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_matches_reference, 0,
			    (int)(sizeof(cases) / sizeof(cases[0])));
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
