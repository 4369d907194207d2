/* check_place.c - unit tests for alloc/place.c (tp_place_range,
 * tp_place_earliest: the placement questions every driver asks) and
 * alloc/placeable.c (could a size ever be placed, cached per size). */
#include "check_util.h"

#include <stdint.h>
#include <string.h>

#include "alloc/alloc.h"
#include "alloc/place.h"
#include "alloc/placeable.h"
#include "trace/rng.h"
#include "topology/fattree.h"
#include "topology/torus.h"

/* ---- helpers ------------------------------------------------------------ */

static tp_alloc *first_free(int n)
{
	tp_alloc_cfg cfg = { .nnodes = n };
	tp_error err;
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	return a;
}

static void set_list(tp_nodeset *s, const int *idx, int n)
{
	tp_nodeset_zero(s);
	for (int i = 0; i < n; i++)
		tp_nodeset_set(s, idx[i]);
}

static void assert_set(const tp_nodeset *s, const char *want)
{
	char *txt = tp_nodeset_format(s);
	ck_assert_str_eq(txt, want);
	free(txt);
}

/* A test allocator: the lowest free nodes, for the sizes it accepts
 * (refuse[n] set: never), recording every request it is asked. */
enum { REC_MAX = 64, REC_CALLS = 256 };
typedef struct rec_alloc {
	bool refuse[REC_MAX + 1];
	int asked[REC_MAX + 1];     /* calls per size */
	int ncalls;
	tp_alloc_req calls[REC_CALLS];
} rec_alloc;

static int rec_place(tp_alloc *a, const tp_nodeset *free,
		     const tp_alloc_req *req, tp_nodeset *out)
{
	rec_alloc *r = a->state;
	ck_assert(req->nodes >= 1 && req->nodes <= REC_MAX);
	r->asked[req->nodes]++;
	if (r->ncalls < REC_CALLS)
		r->calls[r->ncalls] = *req;
	r->ncalls++;
	tp_nodeset_zero(out);
	if (r->refuse[req->nodes] || tp_nodeset_count(free) < req->nodes)
		return -1;
	int left = req->nodes;
	for (int i = tp_nodeset_next(free, 0); i >= 0 && left;
	     i = tp_nodeset_next(free, i + 1), left--)
		tp_nodeset_set(out, i);
	return 0;
}

static const tp_alloc_ops rec_ops = { .name = "recording", .place = rec_place };

static tp_alloc *recording(int n, rec_alloc *r)
{
	memset(r, 0, sizeof(*r));
	tp_alloc *a = tp_alloc_new(&rec_ops, n, r);
	ck_assert_ptr_nonnull(a);
	return a;
}

/* ---- tp_place_range ------------------------------------------------------- */

START_TEST(test_range_prefers_largest_count)
{
	tp_alloc *a = first_free(8);
	tp_nodeset usable, out;
	tp_nodeset_init(&usable, 8);
	tp_nodeset_init(&out, 8);
	set_list(&usable, (int[]){ 1, 3, 4, 7 }, 4);

	/* hi fits: the largest count wins, lowest nodes (first-free). */
	ck_assert_int_eq(tp_place_range(a, &usable, 2, 3, 0, &out), 3);
	assert_set(&out, "1,3-4");
	/* hi beyond the usable nodes is clamped, not a failure. */
	ck_assert_int_eq(tp_place_range(a, &usable, 2, 10, 0, &out), 4);
	assert_set(&out, "1,3-4,7");
	/* lo beyond them is a failure with an empty result. */
	ck_assert_int_eq(tp_place_range(a, &usable, 5, 6, 0, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	/* lo < 1 means 1. */
	ck_assert_int_eq(tp_place_range(a, &usable, 0, 1, 0, &out), 1);
	assert_set(&out, "1");
	ck_assert_int_eq(tp_place_range(a, &usable, -5, 2, 0, &out), 2);
	/* an empty range, or nothing usable */
	ck_assert_int_eq(tp_place_range(a, &usable, 3, 2, 0, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	tp_nodeset_zero(&usable);
	ck_assert_int_eq(tp_place_range(a, &usable, 1, 4, 0, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);

	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
}
END_TEST

/* hi first, then fewer, one allocator call each, with the caller's
 * max_nodes in every request; counts above the usable nodes are never
 * asked. */
START_TEST(test_range_asks_hi_then_fewer)
{
	rec_alloc r;
	tp_alloc *a = recording(8, &r);
	tp_nodeset usable, out;
	tp_nodeset_init(&usable, 8);
	tp_nodeset_init(&out, 8);
	tp_nodeset_set_range(&usable, 0, 6);
	r.refuse[6] = r.refuse[5] = true;

	ck_assert_int_eq(tp_place_range(a, &usable, 2, 7, &(tp_alloc_req){ .max_nodes = 7 }, &out), 4);
	assert_set(&out, "0-3");
	ck_assert_int_eq(r.ncalls, 3);
	ck_assert_int_eq(r.calls[0].nodes, 6);
	ck_assert_int_eq(r.calls[1].nodes, 5);
	ck_assert_int_eq(r.calls[2].nodes, 4);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(r.calls[i].max_nodes, 7);
	ck_assert_int_eq(r.asked[7], 0);

	/* nothing in range: every count asked once, then -1 */
	memset(r.asked, 0, sizeof(r.asked));
	r.ncalls = 0;
	r.refuse[4] = r.refuse[3] = true;
	ck_assert_int_eq(tp_place_range(a, &usable, 3, 6, 0, &out), -1);
	ck_assert_int_eq(r.ncalls, 4);
	for (int k = 3; k <= 6; k++)
		ck_assert_int_eq(r.asked[k], 1);
	ck_assert_int_eq(r.calls[0].max_nodes, 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);

	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
}
END_TEST

/* With the fat-tree allocator: a 4-node job on a 16-node tree of 4-node
 * leaves goes to one completely free leaf, never across leaves, even when
 * the lowest free nodes would split it. */
START_TEST(test_range_on_fattree)
{
	tp_error err;
	tp_fattree *t = tp_fattree_generate(2, 4, &err);
	ck_assert_msg(t, "%s", err.msg);
	tp_alloc_cfg cfg = { .nnodes = tp_fattree_nnodes(t), .fattree = t };
	tp_alloc *a = tp_alloc_create("fattree", &cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	tp_nodeset usable, out;
	tp_nodeset_init(&usable, 16);
	tp_nodeset_init(&out, 16);
	/* leaf 0: nodes 2,3 free; leaf 2: all free; leaf 3: 12 free. */
	set_list(&usable, (int[]){ 2, 3, 8, 9, 10, 11, 12 }, 7);
	ck_assert_int_eq(tp_place_range(a, &usable, 4, 4, 0, &out), 4);
	assert_set(&out, "8-11");
	ck_assert_int_eq(tp_alloc_cost(a, &out) >= 0, 1);
	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

/* Is there a box of n nodes on a 4x4 torus?  n = x * y, x, y <= 4. */
static bool box_4x4(int n)
{
	for (int x = 1; x <= 4; x++)
		if (n % x == 0 && n / x <= 4)
			return true;
	return false;
}

/* max_nodes reaches the torus allocator: with Ntransit=1 a job may get a
 * box one node larger than asked, never beyond max_nodes.  The count
 * returned is the one asked of the allocator. */
START_TEST(test_range_max_nodes_on_torus)
{
	tp_error err;
	int dims[] = { 4, 4 };
	tp_torus *t = tp_torus_generate(2, dims, NULL, &err);
	ck_assert_msg(t, "%s", err.msg);
	tp_torus_opts o = *tp_torus_options(t);
	o.shapeless = TP_TORUS_SHAPELESS_REFUSE; /* boxes only, then pack */
	o.ntransit = 1;
	ck_assert_msg(tp_torus_set_options(t, &o, &err) == 0, "%s", err.msg);
	tp_alloc_cfg cfg = { .nnodes = 16, .torus = t };
	tp_alloc *a = tp_alloc_create("torus-base", &cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	tp_nodeset usable, out;
	tp_nodeset_init(&usable, 16);
	tp_nodeset_init(&out, 16);
	tp_nodeset_fill(&usable);
	for (int k = 1; k <= 16; k++) {
		if (box_4x4(k)) {
			ck_assert_int_eq(tp_place_range(a, &usable, k, k, &(tp_alloc_req){ .max_nodes = k }, &out), k);
			ck_assert_int_eq(tp_nodeset_count(&out), k);
			ck_assert_int_eq(tp_place_range(a, &usable, k, k, 0, &out), k);
			ck_assert_int_ge(tp_nodeset_count(&out), k);
			ck_assert_int_le(tp_nodeset_count(&out), k + 1);
			continue;
		}
		/* no box of k nodes: only with a transit node */
		ck_assert_msg(tp_place_range(a, &usable, k, k, &(tp_alloc_req){ .max_nodes = k }, &out) == -1,
			      "size %d", k);
		ck_assert_int_eq(tp_nodeset_count(&out), 0);
		if (box_4x4(k + 1)) {
			ck_assert_int_eq(tp_place_range(a, &usable, k, k, 0, &out), k);
			ck_assert_int_eq(tp_nodeset_count(&out), k + 1);
			ck_assert_int_eq(tp_place_range(a, &usable, k, k, &(tp_alloc_req){ .max_nodes = k + 1 }, &out), k);
			ck_assert_int_eq(tp_nodeset_count(&out), k + 1);
		} else {
			ck_assert_int_eq(tp_place_range(a, &usable, k, k, 0, &out), -1);
		}
	}
	/* a range: 7 nodes cannot be a box, 6 can (max_nodes 7) */
	ck_assert_int_eq(tp_place_range(a, &usable, 5, 7, &(tp_alloc_req){ .max_nodes = 7 }, &out), 6);
	ck_assert_int_eq(tp_nodeset_count(&out), 6);
	/* without a cap, 7 is asked and gets 8 */
	ck_assert_int_eq(tp_place_range(a, &usable, 5, 7, 0, &out), 7);
	ck_assert_int_eq(tp_nodeset_count(&out), 8);
	/* Shapeless=pack: a range still takes a box of a size in it first;
	 * a size without one gets its own count, packed in a box. */
	o.shapeless = TP_TORUS_SHAPELESS_PACK;
	ck_assert_msg(tp_torus_set_options(t, &o, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(tp_place_range(a, &usable, 5, 7, &(tp_alloc_req){ .max_nodes = 7 }, &out), 6);
	ck_assert_int_eq(tp_nodeset_count(&out), 6);
	ck_assert_int_eq(tp_place_range(a, &usable, 5, 5, &(tp_alloc_req){ .max_nodes = 5 }, &out), 5);
	ck_assert_int_eq(tp_nodeset_count(&out), 5);
	ck_assert_int_eq(tp_place_range(a, &usable, 10, 10, 0, &out), 10);
	ck_assert_int_eq(tp_nodeset_count(&out), 10);
	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

/* ---- tp_place_earliest ---------------------------------------------------- */

START_TEST(test_earliest_by_release_time)
{
	tp_alloc *a = first_free(8);
	tp_nodeset now, out, avail, n0, n1, n2;
	int64_t when = -7;

	tp_nodeset_init(&now, 8);
	tp_nodeset_init(&out, 8);
	tp_nodeset_init(&avail, 8);
	tp_nodeset_init(&n0, 8);
	tp_nodeset_init(&n1, 8);
	tp_nodeset_init(&n2, 8);
	tp_nodeset_set(&now, 0);
	/* Unsorted on purpose; two jobs end together at 20. */
	set_list(&n0, (int[]){ 1, 2 }, 2);
	set_list(&n1, (int[]){ 3 }, 1);
	set_list(&n2, (int[]){ 4 }, 1);
	tp_release rel[3] = { { 50, &n0 }, { 20, &n1 }, { 20, &n2 } };

	/* Fits now: *when is now. */
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, rel, 3, NULL, 1, 1, 0,
					   &avail, &out, &when), 1);
	ck_assert_int_eq(when, 10);
	assert_set(&out, "0");
	ck_assert(tp_nodeset_equal(&avail, &now));
	/* 3 nodes: both jobs ending at 20 count together -> {0,3,4} at 20. */
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, rel, 3, NULL, 3, 3, 0,
					   &avail, &out, &when), 3);
	ck_assert_int_eq(when, 20);
	assert_set(&out, "0,3-4");
	assert_set(&avail, "0,3-4");
	/* 5 nodes: only after the job ending at 50. */
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, rel, 3, NULL, 5, 5, 0,
					   &avail, &out, &when), 5);
	ck_assert_int_eq(when, 50);
	assert_set(&avail, "0-4");
	/* A range: the earliest time first, then as many nodes as fit then. */
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, rel, 3, NULL, 2, 8, 0,
					   &avail, &out, &when), 3);
	ck_assert_int_eq(when, 20);
	/* 6 nodes: never. */
	when = 0;
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, rel, 3, NULL, 6, 6, 0,
					   &avail, &out, &when), -1);
	ck_assert(when == INT64_MAX);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	/* without an `avail` of the caller's: the same answers */
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, rel, 3, NULL, 3, 3, 0,
					   NULL, &out, &when), 3);
	ck_assert_int_eq(when, 20);
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, rel, 3, NULL, 6, 6, 0,
					   NULL, &out, &when), -1);
	ck_assert(when == INT64_MAX);
	/* no releases at all */
	ck_assert_int_eq(tp_place_earliest(a, 10, &now, NULL, 0, NULL, 2, 2, 0,
					   NULL, &out, &when), -1);
	ck_assert(when == INT64_MAX);
	/* The caller's array is not reordered. */
	ck_assert_int_eq(rel[0].time, 50);
	ck_assert_ptr_eq(rel[0].nodes, &n0);
	ck_assert_int_eq(rel[1].time, 20);
	ck_assert_ptr_eq(rel[1].nodes, &n1);
	ck_assert_int_eq(rel[2].time, 20);
	/* nor its sets */
	assert_set(&n0, "1-2");
	assert_set(&now, "0");

	tp_nodeset_fini(&n0);
	tp_nodeset_fini(&n1);
	tp_nodeset_fini(&n2);
	tp_nodeset_fini(&now);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&avail);
	tp_alloc_destroy(a);
}
END_TEST

/* A release already due (a job past its limit, still running) never makes
 * the answer earlier than now. */
START_TEST(test_earliest_never_before_now)
{
	tp_alloc *a = first_free(4);
	tp_nodeset now, out, n0, n1;
	int64_t when;
	tp_nodeset_init(&now, 4);
	tp_nodeset_init(&out, 4);
	tp_nodeset_init(&n0, 4);
	tp_nodeset_init(&n1, 4);
	set_list(&now, (int[]){ 0 }, 1);
	set_list(&n0, (int[]){ 1 }, 1);
	set_list(&n1, (int[]){ 2, 3 }, 2);
	tp_release rel[2] = { { 100, &n1 }, { 40, &n0 } };

	ck_assert_int_eq(tp_place_earliest(a, 60, &now, rel, 2, NULL, 2, 2, 0,
					   NULL, &out, &when), 2);
	ck_assert_int_eq(when, 60);
	assert_set(&out, "0-1");
	ck_assert_int_eq(tp_place_earliest(a, 60, &now, rel, 2, NULL, 3, 3, 0,
					   NULL, &out, &when), 3);
	ck_assert_int_eq(when, 100);
	/* every release in the past */
	ck_assert_int_eq(tp_place_earliest(a, 200, &now, rel, 2, NULL, 4, 4, 0,
					   NULL, &out, &when), 4);
	ck_assert_int_eq(when, 200);
	tp_nodeset_fini(&now);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&n0);
	tp_nodeset_fini(&n1);
	tp_alloc_destroy(a);
}
END_TEST

/* `hold`: nodes that never count as free after a release ("what if this
 * job kept its nodes?"). */
START_TEST(test_earliest_hold)
{
	tp_alloc *a = first_free(8);
	tp_nodeset now, out, avail, hold, n0, n1, n2;
	int64_t when;
	tp_nodeset_init(&now, 8);
	tp_nodeset_init(&out, 8);
	tp_nodeset_init(&avail, 8);
	tp_nodeset_init(&hold, 8);
	tp_nodeset_init(&n0, 8);
	tp_nodeset_init(&n1, 8);
	tp_nodeset_init(&n2, 8);
	set_list(&now, (int[]){ 0 }, 1);
	set_list(&n0, (int[]){ 3, 4 }, 2);  /* ends at 20 */
	set_list(&n1, (int[]){ 1, 2 }, 2);  /* ends at 50 */
	set_list(&n2, (int[]){ 5, 6, 7 }, 3); /* ends at 90 */
	tp_release rel[3] = { { 50, &n1 }, { 20, &n0 }, { 90, &n2 } };

	/* without hold: 3 nodes at 20 */
	ck_assert_int_eq(tp_place_earliest(a, 0, &now, rel, 3, NULL, 3, 3, 0,
					   &avail, &out, &when), 3);
	ck_assert_int_eq(when, 20);
	assert_set(&out, "0,3-4");
	/* node 4 held: at 20 only {0,3}; at 50 {0-3} */
	set_list(&hold, (int[]){ 4 }, 1);
	ck_assert_int_eq(tp_place_earliest(a, 0, &now, rel, 3, &hold, 3, 3, 0,
					   &avail, &out, &when), 3);
	ck_assert_int_eq(when, 50);
	assert_set(&out, "0-2");
	assert_set(&avail, "0-3");
	ck_assert(!tp_nodeset_intersects(&out, &hold));
	/* the whole job ending at 20 held: the same */
	ck_assert_int_eq(tp_place_earliest(a, 0, &now, rel, 3, &n0, 3, 3, 0,
					   &avail, &out, &when), 3);
	ck_assert_int_eq(when, 50);
	assert_set(&avail, "0-2");
	/* 8 nodes: with node 4 held, never */
	ck_assert_int_eq(tp_place_earliest(a, 0, &now, rel, 3, &hold, 8, 8, 0,
					   &avail, &out, &when), -1);
	ck_assert(when == INT64_MAX);
	ck_assert_int_eq(tp_place_earliest(a, 0, &now, rel, 3, &hold, 7, 7, 0,
					   &avail, &out, &when), 7);
	ck_assert_int_eq(when, 90);
	assert_set(&avail, "0-3,5-7");
	ck_assert(!tp_nodeset_test(&out, 4));
	/* a range under hold: as many as fit at the earliest time */
	ck_assert_int_eq(tp_place_earliest(a, 0, &now, rel, 3, &hold, 2, 8, 0,
					   &avail, &out, &when), 2);
	ck_assert_int_eq(when, 20);
	assert_set(&out, "0,3");
	/* the hold set is not changed */
	assert_set(&hold, "4");

	tp_nodeset_fini(&now);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&hold);
	tp_nodeset_fini(&n0);
	tp_nodeset_fini(&n1);
	tp_nodeset_fini(&n2);
	tp_alloc_destroy(a);
}
END_TEST

/* max_nodes reaches every allocator call of an earliest search. */
START_TEST(test_earliest_passes_max_nodes)
{
	rec_alloc r;
	tp_alloc *a = recording(8, &r);
	tp_nodeset now, out, n0;
	int64_t when;
	tp_nodeset_init(&now, 8);
	tp_nodeset_init(&out, 8);
	tp_nodeset_init(&n0, 8);
	set_list(&now, (int[]){ 0, 1 }, 2);
	set_list(&n0, (int[]){ 2, 3, 4 }, 3);
	tp_release rel[1] = { { 30, &n0 } };
	ck_assert_int_eq(tp_place_earliest(a, 0, &now, rel, 1, NULL, 4, 4, &(tp_alloc_req){ .max_nodes = 6 },
					   NULL, &out, &when), 4);
	ck_assert_int_eq(when, 30);
	ck_assert_int_ge(r.ncalls, 1);
	for (int i = 0; i < r.ncalls && i < REC_CALLS; i++) {
		ck_assert_int_eq(r.calls[i].max_nodes, 6);
		ck_assert_int_eq(r.calls[i].nodes, 4);
	}
	tp_nodeset_fini(&now);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&n0);
	tp_alloc_destroy(a);
}
END_TEST

/* Property: the time returned is the first at which a placement exists
 * (never before now), `avail` is the projected free set then (less hold),
 * and the placement lies within it. */
START_TEST(test_earliest_property)
{
	enum { N = 70, R = 12 };
	tp_rng rng;
	tp_rng_seed(&rng, 20240611u);
	tp_alloc *a = first_free(N);
	tp_nodeset now, out, avail, want_avail, hold, nodes[R];
	tp_release rel[R];
	tp_nodeset_init(&now, N);
	tp_nodeset_init(&out, N);
	tp_nodeset_init(&avail, N);
	tp_nodeset_init(&want_avail, N);
	tp_nodeset_init(&hold, N);
	for (int r = 0; r < R; r++) {
		tp_nodeset_init(&nodes[r], N);
		rel[r].nodes = &nodes[r];
	}
	int found = 0, never = 0, later = 0;

	for (int round = 0; round < 400; round++) {
		/* Each node: free now, or held by one of the R jobs. */
		tp_nodeset_zero(&now);
		tp_nodeset_zero(&hold);
		for (int r = 0; r < R; r++) {
			tp_nodeset_zero(&nodes[r]);
			rel[r].time = 1 + (int64_t)tp_rng_below(&rng, 6);
		}
		for (int i = 0; i < N; i++) {
			int owner = (int)tp_rng_below(&rng, R + 3) - 3;
			if (owner < 0)
				tp_nodeset_set(&now, i);
			else
				tp_nodeset_set(&nodes[owner], i);
		}
		/* half the rounds: one job keeps its nodes */
		const tp_nodeset *h = NULL;
		if (round % 2) {
			tp_nodeset_copy(&hold, &nodes[tp_rng_below(&rng, R)]);
			h = &hold;
		}
		int64_t t_now = (int64_t)tp_rng_below(&rng, 4);
		int want = 1 + (int)tp_rng_below(&rng, N);
		int64_t when;
		int k = tp_place_earliest(a, t_now, &now, rel, R, h, want, want,
					  0, &avail, &out, &when);
		/* Brute force: now, then the times 1..6 in order. */
		int64_t first = -1;
		if (tp_nodeset_count(&now) >= want) {
			first = t_now;
			tp_nodeset_copy(&want_avail, &now);
		}
		for (int64_t t = 1; t <= 6 && first < 0; t++) {
			tp_nodeset_copy(&want_avail, &now);
			bool any = false;
			for (int r = 0; r < R; r++)
				if (rel[r].time <= t) {
					tp_nodeset_or(&want_avail, &nodes[r]);
					any = true;
				}
			if (h)
				tp_nodeset_andnot(&want_avail, h);
			if (any && tp_nodeset_count(&want_avail) >= want)
				first = t > t_now ? t : t_now;
		}
		if (first < 0) {
			ck_assert_int_eq(k, -1);
			ck_assert(when == INT64_MAX);
			never++;
			continue;
		}
		ck_assert_int_eq(k, want);
		ck_assert_int_eq(when, first);
		ck_assert(tp_nodeset_equal(&avail, &want_avail));
		ck_assert(tp_nodeset_subset(&out, &avail));
		ck_assert_int_eq(tp_nodeset_count(&out), want);
		if (h) /* a job's nodes: never free now either */
			ck_assert(!tp_nodeset_intersects(&out, h));
		found++;
		later += when > t_now;
	}
	ck_assert_int_gt(found, 50);
	ck_assert_int_gt(never, 10);
	ck_assert_int_gt(later, 50);
	for (int r = 0; r < R; r++)
		tp_nodeset_fini(&nodes[r]);
	tp_nodeset_fini(&now);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&want_avail);
	tp_nodeset_fini(&hold);
	tp_alloc_destroy(a);
}
END_TEST

/* ---- tp_placeable ------------------------------------------------------------ */

/* Sizes 0, negative and above the set's count never are; the allocator is
 * asked once per size until tp_placeable_forget. */
START_TEST(test_placeable_cached_per_size)
{
	enum { N = 10 };
	rec_alloc r;
	tp_alloc *a = recording(N, &r);
	tp_placeable p;
	tp_nodeset all;
	ck_assert_int_eq(tp_placeable_init(&p, N), 0);
	tp_nodeset_init(&all, N);
	tp_nodeset_fill(&all);
	r.refuse[3] = true;

	ck_assert(!tp_placeable_test(&p, a, &all, 0));
	ck_assert(!tp_placeable_test(&p, a, &all, -1));
	ck_assert(!tp_placeable_test(&p, a, &all, N + 1));
	ck_assert(!tp_placeable_test(&p, a, &all, 1 << 30));
	ck_assert_int_eq(r.ncalls, 0);

	for (int pass = 0; pass < 3; pass++)
		for (int n = 1; n <= N; n++)
			ck_assert_int_eq(tp_placeable_test(&p, a, &all, n), n != 3);
	for (int n = 1; n <= N; n++)
		ck_assert_msg(r.asked[n] == 1, "size %d asked %d times", n,
			      r.asked[n]);
	ck_assert_int_eq(r.ncalls, N);
	/* every question was the plain request */
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(r.calls[i].max_nodes, 0);

	/* The set changed: forget, and the allocator is asked again. */
	tp_placeable_forget(&p);
	r.refuse[3] = false;
	r.refuse[4] = true;
	ck_assert(tp_placeable_test(&p, a, &all, 3));
	ck_assert(!tp_placeable_test(&p, a, &all, 4));
	ck_assert(!tp_placeable_test(&p, a, &all, 4));
	ck_assert_int_eq(r.asked[3], 2);
	ck_assert_int_eq(r.asked[4], 2);
	ck_assert_int_eq(r.asked[5], 1);

	/* A smaller set: sizes above its count never are, unasked. */
	tp_placeable_forget(&p);
	tp_nodeset_zero(&all);
	tp_nodeset_set_range(&all, 0, 6);
	int before = r.ncalls;
	for (int n = 7; n <= N; n++)
		ck_assert(!tp_placeable_test(&p, a, &all, n));
	ck_assert_int_eq(r.ncalls, before);
	ck_assert(tp_placeable_test(&p, a, &all, 6));
	ck_assert_int_eq(r.ncalls, before + 1);

	tp_nodeset_fini(&all);
	tp_placeable_fini(&p);
	tp_alloc_destroy(a);
}
END_TEST

/* The case it exists for: on a 4x4 torus no box holds 7 nodes (nor 5,
 * 11, 13...), so a 7-node job would wait for ever. */
START_TEST(test_placeable_torus_sizes)
{
	tp_error err;
	int dims[] = { 4, 4 };
	tp_torus *t = tp_torus_generate(2, dims, NULL, &err);
	ck_assert_msg(t, "%s", err.msg);
	tp_torus_opts so = *tp_torus_options(t);
	so.shapeless = TP_TORUS_SHAPELESS_REFUSE;
	tp_torus_set_options(t, &so, NULL);
	tp_alloc_cfg cfg = { .nnodes = 16, .torus = t };
	tp_alloc *a = tp_alloc_create("torus-fs", &cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	tp_placeable p;
	tp_nodeset all;
	ck_assert_int_eq(tp_placeable_init(&p, 16), 0);
	tp_nodeset_init(&all, 16);
	tp_nodeset_fill(&all);
	for (int n = 1; n <= 16; n++)
		ck_assert_msg(tp_placeable_test(&p, a, &all, n) == box_4x4(n),
			      "size %d", n);
	ck_assert(!tp_placeable_test(&p, a, &all, 17));
	/* with one transit node a 7-node job gets a 2x4 box */
	tp_torus_opts o = *tp_torus_options(t);
	o.ntransit = 1;
	ck_assert_msg(tp_torus_set_options(t, &o, &err) == 0, "%s", err.msg);
	ck_assert(!tp_placeable_test(&p, a, &all, 7)); /* still the cached no */
	tp_placeable_forget(&p);
	ck_assert(tp_placeable_test(&p, a, &all, 7));
	ck_assert(!tp_placeable_test(&p, a, &all, 13)); /* 13, 14: no box */
	/* Shapeless=pack (the default): every size up to 16 runs */
	o.shapeless = TP_TORUS_SHAPELESS_PACK;
	ck_assert_msg(tp_torus_set_options(t, &o, &err) == 0, "%s", err.msg);
	tp_placeable_forget(&p);
	for (int n = 1; n <= 16; n++)
		ck_assert_msg(tp_placeable_test(&p, a, &all, n), "size %d", n);
	tp_nodeset_fini(&all);
	tp_placeable_fini(&p);
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

static bool have_allocator(const char *name)
{
	for (const char *const *n = tp_alloc_names(); *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

int main(void)
{
	Suite *s = suite_create("place");
	TCase *tc = tcase_create("range");
	tcase_add_test(tc, test_range_prefers_largest_count);
	tcase_add_test(tc, test_range_asks_hi_then_fewer);
	if (have_allocator("fattree"))
		tcase_add_test(tc, test_range_on_fattree);
	tcase_add_test(tc, test_range_max_nodes_on_torus);
	suite_add_tcase(s, tc);
	tc = tcase_create("earliest");
	tcase_add_test(tc, test_earliest_by_release_time);
	tcase_add_test(tc, test_earliest_never_before_now);
	tcase_add_test(tc, test_earliest_hold);
	tcase_add_test(tc, test_earliest_passes_max_nodes);
	tcase_add_test(tc, test_earliest_property);
	suite_add_tcase(s, tc);
	tc = tcase_create("placeable");
	tcase_add_test(tc, test_placeable_cached_per_size);
	tcase_add_test(tc, test_placeable_torus_sizes);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
