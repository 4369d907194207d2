/* check_torus_anchor.c - unit tests for alloc_torus_anchor.c: Slurm
 * torus3d's anchored placements with the fragmentation cost, hand-worked
 * and against a node-set reference. */
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

/* ---- against a reference built from node sets --------------------------- */

/* Anchor positions of one dimension, as torus3d builds them: from 0 in
 * steps of p, modulo a ring until back at 0; on a line while p fits. */
static int ref_positions(const tp_torus *t, int i, int p, int *pos)
{
	int d = tp_torus_dims(t)[i], n = 0;
	if (!tp_torus_wrap(t)[i]) {
		for (int x = 0; x + p <= d; x += p)
			pos[n++] = x;
		return n;
	}
	int x = 0;
	do {
		pos[n++] = x;
		x = (x + p) % d;
	} while (x != 0);
	return n;
}

typedef struct ref_grid {
	int n;            /* anchors */
	tp_nodeset *nodes;
} ref_grid;

static void ref_grid_build(const tp_torus *t, const int *len, ref_grid *g)
{
	int nd = tp_torus_ndims(t), N = tp_torus_nnodes(t);
	int pos[TP_TORUS_MAX_DIMS][64], np[TP_TORUS_MAX_DIMS];
	g->n = 1;
	for (int i = 0; i < nd; i++) {
		np[i] = ref_positions(t, i, len[i], pos[i]);
		g->n *= np[i];
	}
	g->nodes = calloc((size_t)g->n, sizeof(*g->nodes));
	for (int k = 0; k < g->n; k++) {
		tp_box b = { { 0 }, { 0 } };
		for (int i = nd - 1, r = k; i >= 0; r /= np[i], i--) {
			b.off[i] = pos[i][r % np[i]];
			b.len[i] = len[i];
		}
		tp_nodeset_init(&g->nodes[k], N);
		tp_torus_box_nodes(t, &b, &g->nodes[k]);
	}
}

static void ref_grid_free(ref_grid *g)
{
	for (int k = 0; k < g->n; k++)
		tp_nodeset_fini(&g->nodes[k]);
	free(g->nodes);
}

/* The method read literally: the first placement of size w with a free
 * anchor; among its free anchors the first of least cost, cost = the
 * next placement's anchors that meet it and lie inside avail. */
static int ref_place(const tp_torus *t, const tp_nodeset *avail, int w,
		     tp_nodeset *out)
{
	tp_torus_shape *sh;
	int nsh = tp_torus_shapes(t, w, 0, &sh), found = -1;
	ref_grid next = { 0, NULL };
	for (int s = w + 1; s <= tp_torus_nnodes(t) && !next.n; s++) {
		tp_torus_shape *ns;
		if (tp_torus_shapes(t, s, 0, &ns) > 0)
			ref_grid_build(t, ns[0].len, &next);
		free(ns);
	}
	for (int r = 0; r < nsh && found < 0; r++) {
		ref_grid g;
		ref_grid_build(t, sh[r].len, &g);
		int best_cost = -1;
		for (int k = 0; k < g.n; k++) {
			if (!tp_nodeset_subset(&g.nodes[k], avail))
				continue;
			int cost = 0;
			for (int j = 0; j < next.n; j++)
				cost += tp_nodeset_intersects(&next.nodes[j], &g.nodes[k]) &&
					tp_nodeset_subset(&next.nodes[j], avail);
			if (best_cost < 0 || cost < best_cost) {
				best_cost = cost;
				tp_nodeset_copy(out, &g.nodes[k]);
				found = 0;
			}
		}
		ref_grid_free(&g);
	}
	ref_grid_free(&next);
	free(sh);
	return found;
}

typedef struct torus_case {
	int ndims, dims[4];
	bool wrap[4];
} torus_case;

static const torus_case cases[] = {
	{ 2, { 4, 4 }, { true, true } },
	{ 3, { 4, 3, 3 }, { true, true, true } },
	{ 4, { 3, 3, 2, 2 }, { true, true, true, true } },
	{ 3, { 4, 4, 2 }, { true, true, true } },
	{ 3, { 5, 3, 2 }, { false, true, false } },
	{ 2, { 6, 4 }, { true, false } },
};

/* Random free sets (kept only as boxes leave: every size a real state
 * could show), every job size: the allocator equals the reference, and
 * a second allocator on the same input agrees (no hidden state). */
START_TEST(test_matches_reference)
{
	const torus_case *c = &cases[_i];
	tp_torus *t = gen(c->ndims, c->dims, c->wrap);
	refuse_shapeless(t);
	int N = tp_torus_nnodes(t);
	tp_alloc *a = make(t, "torus-anchor"), *again = make(t, "torus-anchor");
	tp_nodeset avail, got, want, got2;
	tp_nodeset_init(&avail, N);
	tp_nodeset_init(&got, N);
	tp_nodeset_init(&want, N);
	tp_nodeset_init(&got2, N);
	tp_rng rng;
	tp_rng_seed(&rng, 11u + (uint64_t)_i);
	int placed = 0, refused = 0;
	for (int round = 0; round < 60; round++) {
		int busy = (int)tp_rng_below(&rng, 70);
		tp_nodeset_zero(&avail);
		for (int i = 0; i < N; i++)
			if ((int)tp_rng_below(&rng, 100) >= busy)
				tp_nodeset_set(&avail, i);
		for (int w = 1; w <= N; w++) {
			tp_nodeset_zero(&want);
			int rr = ref_place(t, &avail, w, &want);
			int ra = tp_alloc_place(a, &avail, w, &got);
			int rb = tp_alloc_place(again, &avail, w, &got2);
			ck_assert_int_eq(ra, rr);
			ck_assert_int_eq(rb, ra);
			if (ra)
				refused++;
			else
				placed++;
			if (!ra) {
				ck_assert(tp_nodeset_equal(&got, &want));
				ck_assert(tp_nodeset_equal(&got, &got2));
				ck_assert_int_eq(tp_nodeset_count(&got), w);
				ck_assert(tp_nodeset_subset(&got, &avail));
			}
		}
	}
	ck_assert_int_gt(placed, 0);
	ck_assert_int_gt(refused, 0);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&got);
	tp_nodeset_fini(&want);
	tp_nodeset_fini(&got2);
	tp_alloc_destroy(a);
	tp_alloc_destroy(again);
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
	tc = tcase_create("reference");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_matches_reference, 0,
			    (int)(sizeof(cases) / sizeof(cases[0])));
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
