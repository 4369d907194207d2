/* check_torus_pack.c - unit tests for Shapeless=pack (alloc_torus.c) and
 * the projection bounds it prunes with (torus_proj.c): on random tori and
 * states, the packed placement equals a plain search written from its
 * definition (every shape of every size, every placement, counted node by
 * node), both one-off and through allocators that keep shapes and a
 * workspace from one decision to the next; that allocators carrying
 * per-shape bounds between searches answer as the one-off search on
 * chains of free sets; the carried bounds' rules; and no box of a shape
 * holds more free nodes than the bound, whether the projections are built
 * for the set or carried to it from another. */
#include "check_util.h"
#include "alloc/alloc.h"
#include "alloc/alloc_memo.h"
#include "alloc/torus_pack_bounds.h"
#include "topology/torus.h"
#include "torus_fixtures.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>


/* 2 to 4 dimensions of 1..7 positions (primes above 3 leave sizes
 * without a box), rings and lines at random. */
static tp_torus *random_torus(void)
{
	int n = 2 + (int)rnd(3), dims[4];
	bool wrap[4];
	for (int i = 0; i < n; i++) {
		dims[i] = 1 + (int)rnd(n > 3 ? 4 : 7);
		wrap[i] = rnd(4) != 0;
	}
	tp_error err;
	tp_torus *t = tp_torus_generate(n, dims, wrap, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/* Nodes taken one by one, or in boxes, to a random load. */
static void random_state(const tp_torus *t, tp_nodeset *avail)
{
	random_state_to(t, avail, 80, 30);
}

/* Free nodes of placement k of shape len, into box_free. */
static int placement_free(const tp_torus *t, const int *len, long k,
			  const tp_nodeset *avail, tp_nodeset *box_free)
{
	tp_box b;
	tp_torus_placement(t, len, k, &b);
	tp_nodeset_zero(box_free);
	tp_torus_box_nodes(t, &b, box_free);
	tp_nodeset_and(box_free, avail);
	return tp_nodeset_count(box_free);
}

/* Shapeless=pack from its definition: sizes nodes+1 .. min(N, 2 nodes),
 * the reading's shapes in order, placements in order; the first box with
 * `nodes` free gives its lowest `nodes` free nodes. */
static int reference_pack(const tp_torus *t, tp_torus_base_shapes reading,
			  const tp_nodeset *avail, int nodes, tp_nodeset *out)
{
	int N = tp_torus_nnodes(t), most = N < 2 * nodes ? N : 2 * nodes;
	tp_nodeset_zero(out);
	if (tp_nodeset_count(avail) < nodes || tp_torus_size_has_box(t, reading, nodes))
		return -1;
	tp_nodeset box_free;
	tp_nodeset_init(&box_free, N);
	int rc = -1;
	for (int m = nodes + 1; m <= most && rc; m++) {
		tp_torus_shape *sh;
		int nsh = tp_torus_shapes_read(t, m, 0, reading, &sh);
		for (int r = 0; r < nsh && rc; r++)
			for (long k = 0; k < tp_torus_placements(t, sh[r].len) && rc; k++)
				if (placement_free(t, sh[r].len, k, avail, &box_free) >= nodes)
					rc = 0;
		free(sh);
	}
	if (!rc) {
		int kept = 0;
		for (int v = tp_nodeset_next(&box_free, 0); v >= 0;
		     v = tp_nodeset_next(&box_free, v + 1))
			if (kept++ < nodes)
				tp_nodeset_set(out, v);
	}
	tp_nodeset_fini(&box_free);
	return rc;
}

static tp_alloc *make(const char *name, const tp_torus *t)
{
	tp_alloc_cfg cfg = { .nnodes = tp_torus_nnodes(t), .torus = t };
	tp_error err;
	tp_alloc *a = tp_alloc_create(name, &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	return a;
}

/* Every size without a box, on many states, one-off and through torus-base
 * and torus-fs allocators kept across the states (both readings). */
START_TEST(test_packed_matches_reference)
{
	rnd_state = 2718;
	long placed = 0, refused = 0;
	for (int round = 0; round < 120; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t);
		tp_torus_base_shapes reading = rnd(2) ? TP_TORUS_SHAPES_ALL
						      : TP_TORUS_SHAPES_CANONICAL;
		tp_torus_opts o = *tp_torus_options(t);
		o.base_shapes = reading;
		ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
		tp_alloc *base = make("torus-base", t);
		tp_alloc *fs = make("torus-fs", t);
		tp_nodeset avail, want, got;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&want, N);
		tp_nodeset_init(&got, N);
		for (int s = 0; s < 6; s++) {
			random_state(t, &avail);
			for (int nodes = 1; nodes <= N; nodes++) {
				if (tp_torus_size_has_box(t, reading, nodes))
					continue;
				int w = reference_pack(t, reading, &avail, nodes, &want);
				int g = tp_torus_place_packed(t, reading, &avail, nodes, &got);
				ck_assert_int_eq(g, w);
				ck_assert(tp_nodeset_equal(&got, &want));
				tp_alloc_req req = { .nodes = nodes };
				ck_assert_int_eq(tp_alloc_place_req(base, &avail, &req, &got), w);
				ck_assert(tp_nodeset_equal(&got, &want));
				/* fs searches every shape: its packing reads all */
				int wa = reference_pack(t, TP_TORUS_SHAPES_ALL, &avail,
							nodes, &want);
				if (tp_torus_size_has_box(t, TP_TORUS_SHAPES_ALL, nodes))
					continue;
				ck_assert_int_eq(tp_alloc_place_req(fs, &avail, &req, &got), wa);
				ck_assert(tp_nodeset_equal(&got, &want));
				placed += !w;
				refused += !!w;
			}
		}
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&want);
		tp_nodeset_fini(&got);
		tp_alloc_destroy(base);
		tp_alloc_destroy(fs);
		tp_torus_free(t);
	}
	/* both answers must be exercised */
	ck_assert_int_gt(placed, 200);
	ck_assert_int_gt(refused, 200);
}
END_TEST

/* Next shape in odometer order; false at the end. */
static bool next_shape(const tp_torus *t, int *len)
{
	for (int i = tp_torus_ndims(t) - 1; i >= 0; i--) {
		if (len[i] < tp_torus_dims(t)[i]) {
			len[i]++;
			return true;
		}
		len[i] = 1;
	}
	return false;
}

/* The bound is at least the free nodes of every placement of the shape,
 * and on rings equal to the fullest one when the shape spans every
 * dimension but two. */
START_TEST(test_projection_bound)
{
	rnd_state = 31337;
	long exact = 0;
	for (int round = 0; round < 80; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
		bool rings = true;
		for (int i = 0; i < n; i++)
			rings &= tp_torus_wrap(t)[i];
		tp_nodeset avail, box_free;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&box_free, N);
		for (int s = 0; s < 3; s++) {
			random_state(t, &avail);
			tp_torus_proj *p = tp_torus_proj_new(t, &avail);
			ck_assert_ptr_nonnull(p);
			int len[TP_TORUS_MAX_DIMS];
			for (int i = 0; i < n; i++)
				len[i] = 1;
			do {
				int most = 0, spans = 0;
				for (long k = 0; k < tp_torus_placements(t, len); k++) {
					int f = placement_free(t, len, k, &avail, &box_free);
					if (f > most)
						most = f;
				}
				for (int i = 0; i < n; i++)
					spans += len[i] == tp_torus_dims(t)[i];
				int b = tp_torus_proj_bound(p, len, 0);
				ck_assert_int_ge(b, most);
				/* stopping early still answers "below" right */
				int below = most + 1;
				ck_assert_int_ge(tp_torus_proj_bound(p, len, below), most);
				if (rings && spans >= n - 2) {
					ck_assert_int_eq(b, most);
					exact++;
				}
			} while (next_shape(t, len));
			tp_torus_proj_free(p);
		}
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&box_free);
		tp_torus_free(t);
	}
	ck_assert_int_gt(exact, 100);
}
END_TEST

/* The bounds a kept allocator carries from one packed search to the next
 * (torus_pack_bounds.h), over chains of free sets that shrink, grow and
 * jump, with every size asked about in turn: each answer is the one-off
 * search's (which carries nothing), placement and refusal, for torus-base,
 * torus-fs and torus-mss, plain and through the failure memo. */
START_TEST(test_carried_bounds_match_fresh)
{
	rnd_state = 8086;
	static const char *names[] = { "torus-base", "torus-fs", "torus-mss" };
	long placed = 0, refused = 0;
	for (int round = 0; round < 60; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t);
		tp_torus_opts o = *tp_torus_options(t);
		o.base_shapes = TP_TORUS_SHAPES_ALL;
		ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
		int sizes[TP_TORUS_MAX_DIMS * 64 + 512], nsizes = 0;
		for (int nodes = 1; nodes <= N && nsizes < 512; nodes++)
			if (!tp_torus_size_has_box(t, TP_TORUS_SHAPES_ALL, nodes))
				sizes[nsizes++] = nodes;
		if (!nsizes) {
			tp_torus_free(t);
			continue;
		}
		tp_alloc *a[6];
		for (int k = 0; k < 3; k++) {
			a[k] = make(names[k], t);
			a[3 + k] = tp_alloc_memo_wrap(make(names[k], t));
			ck_assert_ptr_nonnull(a[3 + k]);
		}
		tp_nodeset avail, want, got, box;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&want, N);
		tp_nodeset_init(&got, N);
		tp_nodeset_init(&box, N);
		random_state(t, &avail);
		for (int step = 0; step < 40; step++) {
			churn_state(t, &avail, &box, 80, 30);
			for (int q = 0; q < 4; q++) {
				int nodes = sizes[rnd((unsigned)nsizes)];
				int w = tp_torus_place_packed(t, TP_TORUS_SHAPES_ALL,
							      &avail, nodes, &want);
				tp_alloc_req req = { .nodes = nodes,
						     .max_nodes = rnd(2) ? nodes : 0 };
				for (int k = 0; k < 6; k++) {
					tp_nodeset_fill(&got);
					ck_assert_int_eq(tp_alloc_place_req(a[k], &avail, &req, &got), w);
					ck_assert(tp_nodeset_equal(&got, &want));
				}
				placed += !w;
				refused += !!w;
			}
		}
		for (int k = 0; k < 6; k++)
			tp_alloc_destroy(a[k]);
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&want);
		tp_nodeset_fini(&got);
		tp_nodeset_fini(&box);
		tp_torus_free(t);
	}
	ck_assert_int_gt(placed, 300);
	ck_assert_int_gt(refused, 300);
}
END_TEST

/* The carried bounds' own rules, by hand on 4x4: a number holds on a
 * subset, grows by the nodes a set adds, is forgotten on a set far from
 * it, and each of two sets (the free nodes, every node) keeps its own. */
START_TEST(test_pack_bounds_rules)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(2, (int[]){ 4, 4 }, (bool[]){ true, true }, &err);
	ck_assert_ptr_nonnull(t);
	tp_pack_bounds *b = tp_pack_bounds_new(t);
	ck_assert_ptr_nonnull(b);
	tp_nodeset s, all;
	tp_nodeset_init(&s, 16);
	tp_nodeset_init(&all, 16);
	tp_nodeset_fill(&all);
	tp_nodeset_set_range(&s, 0, 8);
	const int len[] = { 2, 4 }, other[] = { 4, 2 };
	ck_assert(!tp_pack_bounds_below(b, len, 1)); /* nothing begun */
	tp_pack_bounds_begin(b, &s);
	ck_assert(!tp_pack_bounds_below(b, len, 100)); /* nothing noted */
	tp_pack_bounds_note(b, len, 5);
	tp_pack_bounds_note(b, len, 7); /* a looser bound changes nothing */
	ck_assert(tp_pack_bounds_below(b, len, 6));
	ck_assert(!tp_pack_bounds_below(b, len, 5));
	ck_assert(!tp_pack_bounds_below(b, other, 6));
	/* a subset: the number stands */
	tp_nodeset_clear(&s, 3);
	tp_pack_bounds_begin(b, &s);
	ck_assert(tp_pack_bounds_below(b, len, 6));
	/* every node: too far (8 nodes added), the other lane, fresh */
	tp_pack_bounds_begin(b, &all);
	ck_assert(!tp_pack_bounds_below(b, len, 6));
	tp_pack_bounds_note(b, other, 8);
	/* back to the free nodes with one more (node 3 again): 5 + 1 */
	tp_nodeset_set(&s, 3);
	tp_pack_bounds_begin(b, &s);
	ck_assert(tp_pack_bounds_below(b, len, 7));
	ck_assert(!tp_pack_bounds_below(b, len, 6));
	ck_assert(!tp_pack_bounds_below(b, other, 9));
	/* and every node kept its own */
	tp_pack_bounds_begin(b, &all);
	ck_assert(tp_pack_bounds_below(b, other, 9));
	ck_assert(!tp_pack_bounds_below(b, len, 7));
	/* out-of-range lengths are never known */
	ck_assert(!tp_pack_bounds_below(b, (int[]){ 5, 1 }, 100));
	tp_pack_bounds_free(b);
	ck_assert(!tp_pack_bounds_below(NULL, len, 100));
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&all);
	tp_torus_free(t);
}
END_TEST

/* Projections carried from set to set (tp_torus_proj_reset) bound every
 * shape as projections built afresh on each set do, along a churn of
 * boxes taken and given back, single nodes, and jumps to unrelated
 * states. */
START_TEST(test_projection_carried)
{
	rnd_state = 4242;
	long compared = 0;
	for (int round = 0; round < 60; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
		tp_nodeset avail, box;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&box, N);
		random_state(t, &avail);
		tp_torus_proj *kept = tp_torus_proj_new(t, &avail);
		ck_assert_ptr_nonnull(kept);
		for (int step = 0; step < 40; step++) {
			churn_state(t, &avail, &box, 80, 30);
			tp_torus_proj_reset(kept, &avail);
			tp_torus_proj *fresh = tp_torus_proj_new(t, &avail);
			ck_assert_ptr_nonnull(fresh);
			int len[TP_TORUS_MAX_DIMS];
			for (int i = 0; i < n; i++)
				len[i] = 1;
			do {
				ck_assert_int_eq(tp_torus_proj_bound(kept, len, 0),
						 tp_torus_proj_bound(fresh, len, 0));
				compared++;
			} while (next_shape(t, len));
			tp_torus_proj_free(fresh);
		}
		tp_torus_proj_free(kept);
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&box);
		tp_torus_free(t);
	}
	ck_assert_int_gt(compared, 10000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("torus_pack");
	TCase *tc = tcase_create("property");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_packed_matches_reference);
	tcase_add_test(tc, test_projection_bound);
	tcase_add_test(tc, test_carried_bounds_match_fresh);
	tcase_add_test(tc, test_pack_bounds_rules);
	tcase_add_test(tc, test_projection_carried);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
