/* check_torus_describe.c - unit tests of the torus placement description
 * (machine/torus_describe.c): the box a node set is, against brute
 * force on small tori, and the log text of a placement. */
#include "check_util.h"

#include <stdio.h>
#include <string.h>

#include "alloc/alloc.h"
#include "trace/rng.h"
#include "topology/torus.h"
#include "machine/torus_describe.h"

/* ---- helpers ---------------------------------------------------------- */

static tp_torus *gen(int ndims, const int *dims, const bool *wrap)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(ndims, dims, wrap, &err);
	ck_assert_msg(t, "%s", err.msg);
	return t;
}

/* Node set of the coordinates listed (ndims ints each). */
static void set_coords(const tp_torus *t, tp_nodeset *s, const int *c,
		       int count)
{
	int n = tp_torus_ndims(t);
	tp_nodeset_zero(s);
	for (int k = 0; k < count; k++) {
		int idx = tp_torus_index(t, c + k * n);
		ck_assert_int_ge(idx, 0);
		tp_nodeset_set(s, idx);
	}
}

/* ---- boxes --------------------------------------------------------------- */

START_TEST(test_box_hand_worked)
{
	int d2[] = { 4, 4 };
	bool rings[] = { true, true }, lines[] = { false, false };
	tp_torus *t = gen(2, d2, rings), *l = gen(2, d2, lines);
	tp_nodeset s;
	tp_box b;
	tp_nodeset_init(&s, 16);

	/* (0,3),(0,0): across the seam of ring 1 */
	set_coords(t, &s, (int[]){ 0, 3, 0, 0 }, 2);
	ck_assert_int_eq(tp_box_of(t, &s, &b), 0);
	ck_assert_int_eq(b.off[0], 0);
	ck_assert_int_eq(b.off[1], 3);
	ck_assert_int_eq(b.len[0], 1);
	ck_assert_int_eq(b.len[1], 2);
	/* the same nodes on lines are two pieces */
	set_coords(l, &s, (int[]){ 0, 3, 0, 0 }, 2);
	ck_assert_int_eq(tp_box_of(l, &s, &b), -1);

	/* rows 3 and 0 spanning ring 1: off (3,0), len (2,4) */
	tp_nodeset_zero(&s);
	for (int c = 0; c < 4; c++) {
		tp_nodeset_set(&s, tp_torus_index(t, (int[]){ 3, c }));
		tp_nodeset_set(&s, tp_torus_index(t, (int[]){ 0, c }));
	}
	ck_assert_int_eq(tp_box_of(t, &s, &b), 0);
	ck_assert_int_eq(b.off[0], 3);
	ck_assert_int_eq(b.off[1], 0);
	ck_assert_int_eq(b.len[0], 2);
	ck_assert_int_eq(b.len[1], 4);

	/* an L of three nodes: intervals 2x2 but only 3 nodes */
	set_coords(t, &s, (int[]){ 1, 1, 1, 2, 2, 1 }, 3);
	ck_assert_int_eq(tp_box_of(t, &s, &b), -1);
	/* two separate runs in one dimension */
	set_coords(t, &s, (int[]){ 0, 0, 0, 2 }, 2);
	ck_assert_int_eq(tp_box_of(t, &s, &b), -1);
	/* empty */
	tp_nodeset_zero(&s);
	ck_assert_int_eq(tp_box_of(t, &s, &b), -1);
	/* everything: offset 0 everywhere */
	tp_nodeset_set_range(&s, 0, 16);
	ck_assert_int_eq(tp_box_of(t, &s, &b), 0);
	ck_assert(b.off[0] == 0 && b.off[1] == 0 && b.len[0] == 4 &&
		  b.len[1] == 4);

	tp_nodeset_fini(&s);
	tp_torus_free(t);
	tp_torus_free(l);
}
END_TEST

/* Every placement of every shape is recognised as exactly itself. */
START_TEST(test_box_every_placement)
{
	int dims[] = { 4, 3, 2 };
	bool wrap[] = { true, false, true };
	tp_torus *t = gen(3, dims, wrap);
	tp_nodeset s;
	tp_nodeset_init(&s, 24);
	int checked = 0;

	for (int p0 = 1; p0 <= 4; p0++)
		for (int p1 = 1; p1 <= 3; p1++)
			for (int p2 = 1; p2 <= 2; p2++) {
				int len[TP_TORUS_MAX_DIMS] = { p0, p1, p2 };
				long np = tp_torus_placements(t, len);
				for (long k = 0; k < np; k++) {
					tp_box want, got;
					tp_torus_placement(t, len, k, &want);
					tp_nodeset_zero(&s);
					tp_torus_box_nodes(t, &want, &s);
					ck_assert_int_eq(tp_box_of(t, &s, &got), 0);
					ck_assert(tp_torus_box_equal(t, &want, &got));
					for (int i = 0; i < 3; i++) {
						ck_assert_int_eq(got.off[i], want.off[i]);
						ck_assert_int_eq(got.len[i], want.len[i]);
					}
					checked++;
				}
			}
	ck_assert_int_gt(checked, 100);
	tp_nodeset_fini(&s);
	tp_torus_free(t);
}
END_TEST

/* Brute force: is `s` the node set of some placement of some shape? */
static bool is_box_brute(const tp_torus *t, const tp_nodeset *s)
{
	int n = tp_torus_ndims(t), N = tp_torus_nnodes(t);
	const int *d = tp_torus_dims(t);
	int len[TP_TORUS_MAX_DIMS] = { 0 };
	tp_nodeset b;
	bool found = false;
	tp_nodeset_init(&b, N);
	for (int i = 0; i < n; i++)
		len[i] = 1;
	for (;;) {
		long np = tp_torus_placements(t, len);
		for (long k = 0; k < np && !found; k++) {
			tp_box box;
			tp_torus_placement(t, len, k, &box);
			tp_nodeset_zero(&b);
			tp_torus_box_nodes(t, &box, &b);
			found = tp_nodeset_equal(&b, s);
		}
		int i = 0;
		while (i < n && ++len[i] > d[i])
			len[i++] = 1;
		if (i == n || found)
			break;
	}
	tp_nodeset_fini(&b);
	return found;
}

/* Random sets (dense enough to be boxes now and then) on small tori of
 * mixed rings and lines agree with brute force. */
START_TEST(test_box_random_sets_match_brute_force)
{
	static const struct { int n; int d[3]; bool w[3]; } tori[] = {
		{ 2, { 3, 4 }, { true, false } },
		{ 3, { 2, 3, 3 }, { true, true, false } },
		{ 1, { 5 }, { true } },
		{ 2, { 4, 2 }, { false, false } },
	};
	tp_rng rng;
	tp_rng_seed(&rng, 20251122);
	int boxes = 0, others = 0;

	for (size_t ti = 0; ti < sizeof(tori) / sizeof(tori[0]); ti++) {
		tp_torus *t = gen(tori[ti].n, tori[ti].d, tori[ti].w);
		int N = tp_torus_nnodes(t);
		tp_nodeset s;
		tp_nodeset_init(&s, N);
		for (int round = 0; round < 400; round++) {
			tp_nodeset_zero(&s);
			/* half the rounds: a random box with a node toggled
			 * or not, so near-boxes are common */
			if (round % 2) {
				int len[TP_TORUS_MAX_DIMS] = { 0 };
				for (int i = 0; i < tori[ti].n; i++)
					len[i] = 1 + (int)tp_rng_below(&rng, (uint64_t)tori[ti].d[i]);
				tp_box box;
				tp_torus_placement(t, len, (long)tp_rng_below(&rng,
					(uint64_t)tp_torus_placements(t, len)), &box);
				tp_torus_box_nodes(t, &box, &s);
				if (tp_rng_below(&rng, 2)) {
					int j = (int)tp_rng_below(&rng, (uint64_t)N);
					if (tp_nodeset_test(&s, j))
						tp_nodeset_clear(&s, j);
					else
						tp_nodeset_set(&s, j);
				}
			} else {
				for (int j = 0; j < N; j++)
					if (tp_rng_below(&rng, 3) == 0)
						tp_nodeset_set(&s, j);
			}
			tp_box got;
			bool mine = tp_box_of(t, &s, &got) == 0;
			bool brute = tp_nodeset_count(&s) > 0 &&
				     is_box_brute(t, &s);
			ck_assert_msg(mine == brute, "torus %zu round %d", ti, round);
			if (mine) {
				tp_nodeset b;
				tp_nodeset_init(&b, N);
				tp_torus_box_nodes(t, &got, &b);
				ck_assert(tp_nodeset_equal(&b, &s));
				tp_nodeset_fini(&b);
				boxes++;
			} else {
				others++;
			}
		}
		tp_nodeset_fini(&s);
		tp_torus_free(t);
	}
	/* both outcomes were exercised */
	ck_assert_int_gt(boxes, 100);
	ck_assert_int_gt(others, 100);
}
END_TEST

/* What the core's torus allocators hand out is always a box, and
 * tp_describe_torus counts the transit nodes beyond the request. */
START_TEST(test_box_of_allocator_placements)
{
	int dims[] = { 4, 4, 2, 2 };
	tp_torus *t = gen(4, dims, NULL);
	tp_error err = { { 0 } };
	tp_torus_opts o = *tp_torus_options(t);
	o.ntransit = 1;
	o.shapeless = TP_TORUS_SHAPELESS_REFUSE; /* boxes only */
	ck_assert_msg(tp_torus_set_options(t, &o, &err) == 0, "%s", err.msg);
	tp_alloc_cfg cfg = { .nnodes = 64, .torus = t };
	static const char *const names[] = { "torus-base", "torus-fs",
					     "torus-mss", NULL };
	tp_nodeset avail, out, b;
	tp_nodeset_init(&avail, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_init(&b, 64);
	tp_rng rng;
	tp_rng_seed(&rng, 7);
	int placed = 0, transit = 0;
	char buf[256];

	for (int m = 0; names[m]; m++) {
		tp_alloc *a = tp_alloc_create(names[m], &cfg, &err);
		ck_assert_msg(a, "%s", err.msg);
		for (int round = 0; round < 20; round++) {
			tp_nodeset_zero(&avail);
			for (int j = 0; j < 64; j++)
				if (round == 0 || tp_rng_below(&rng, 3))
					tp_nodeset_set(&avail, j);
			for (int k = 1; k <= 9; k++) {
				if (tp_alloc_place(a, &avail, k, &out))
					continue;
				tp_box box;
				ck_assert_int_eq(tp_box_of(t, &out, &box), 0);
				tp_nodeset_zero(&b);
				tp_torus_box_nodes(t, &box, &b);
				ck_assert(tp_nodeset_equal(&b, &out));
				int got = tp_nodeset_count(&out);
				tp_describe_torus(t, &out, k, buf, sizeof(buf));
				ck_assert_ptr_nonnull(strstr(buf, "box_off="));
				if (got > k) {
					ck_assert_ptr_nonnull(strstr(buf, " transit=1"));
					transit++;
				} else {
					ck_assert_ptr_null(strstr(buf, "transit="));
				}
				placed++;
			}
		}
		tp_alloc_destroy(a);
	}
	ck_assert_int_gt(placed, 300);
	ck_assert_int_gt(transit, 0);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&b);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_describe)
{
	int dims[] = { 4, 4, 2, 2 };
	tp_torus *t = gen(4, dims, NULL);
	tp_nodeset s;
	char buf[256];
	tp_nodeset_init(&s, 64);

	/* (3,0,0,0) and (0,0,0,0): a 2-node box across ring 0's seam */
	set_coords(t, &s, (int[]){ 3, 0, 0, 0, 0, 0, 0, 0 }, 2);
	tp_describe_torus(t, &s, 2, buf, sizeof(buf));
	ck_assert_str_eq(buf, "box_off=3,0,0,0 box_len=2,1,1,1 mean_dist=1.000");
	/* asked for one node, got two: one transit node */
	tp_describe_torus(t, &s, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "box_off=3,0,0,0 box_len=2,1,1,1 mean_dist=1.000 transit=1");
	/* (0,0,0,0) and (0,2,0,0): no box */
	set_coords(t, &s, (int[]){ 0, 0, 0, 0, 0, 2, 0, 0 }, 2);
	tp_describe_torus(t, &s, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "box=none mean_dist=2.000");
	/* a short buffer is cut, not overrun */
	char small[12];
	memset(small, 'x', sizeof(small));
	set_coords(t, &s, (int[]){ 3, 0, 0, 0, 0, 0, 0, 0 }, 2);
	tp_describe_torus(t, &s, 2, small, 8);
	ck_assert_int_eq((int)strlen(small), 7);
	ck_assert_int_eq(small[9], 'x');
	tp_nodeset_fini(&s);
	tp_torus_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("torus_describe");
	TCase *tc = tcase_create("box");
	tcase_add_test(tc, test_box_hand_worked);
	tcase_add_test(tc, test_box_every_placement);
	tcase_add_test(tc, test_box_random_sets_match_brute_force);
	tcase_add_test(tc, test_box_of_allocator_placements);
	tcase_add_test(tc, test_describe);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
