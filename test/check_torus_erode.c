/* check_torus_erode.c - unit tests for torus_erode.c: the corner sets
 * and free counts against placement-by-placement tests, L* and P* against a search over
 * every shape, and torus-mss's early stop at N L* + P* against the full
 * scan (the same box on random states). */
#include "check_util.h"
#include "topology/torus.h"
#include "torus_fixtures.h"

#include <stdlib.h>
#include <string.h>

static tp_torus *gen(int n, const int *dims, const bool *wrap)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(n, dims, wrap, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/* Free set from a string of '.' (free) and '#' (locked), index order. */
static void state_of(const char *s, tp_nodeset *avail)
{
	tp_nodeset_zero(avail);
	for (int i = 0; s[i]; i++)
		if (s[i] == '.')
			tp_nodeset_set(avail, i);
}

static void assert_largest(const tp_torus *t, const char *s, int volume,
			   long count)
{
	tp_nodeset avail;
	tp_nodeset_init(&avail, tp_torus_nnodes(t));
	state_of(s, &avail);
	tp_torus_erode *e = tp_torus_erode_new(t, &avail);
	ck_assert_ptr_nonnull(e);
	int v;
	long c;
	ck_assert_int_eq(tp_torus_erode_largest(e, &v, &c), 0);
	ck_assert_msg(v == volume && c == count, "%s: L*=%d P*=%ld, want %d %ld",
		      s, v, c, volume, count);
	tp_torus_erode_free(e);
	tp_nodeset_fini(&avail);
}

START_TEST(test_largest_hand_worked)
{
	int d5[] = { 5 }, d33[] = { 3, 3 }, d44[] = { 4, 4 };
	bool ring[] = { true, true }, line[] = { false, false };
	tp_torus *r5 = gen(1, d5, ring), *l5 = gen(1, d5, line);
	assert_largest(r5, ".....", 5, 1);  /* the ring, once */
	assert_largest(r5, "..#..", 4, 1);  /* 3,4,0,1 across the seam */
	assert_largest(l5, "..#..", 2, 2);  /* no seam on a line */
	assert_largest(r5, "#####", 0, 0);
	assert_largest(r5, "#.#.#", 1, 2);
	tp_torus *r33 = gen(2, d33, ring);
	/* a plus: the middle row and the middle column */
	assert_largest(r33, "#.#...#.#", 3, 2);
	tp_torus *r44 = gen(2, d44, ring);
	assert_largest(r44, "................", 16, 1);
	/* row 0 locked: 3x4 boxes (rows 1-3, any column offset is the same
	 * box: the ring is spanned) */
	assert_largest(r44, "####............", 12, 1);
	/* one node locked: 3x4 (rows), 4x3 (columns), each 1 canonical box */
	assert_largest(r44, "#...............", 12, 2);
	tp_torus_free(r5);
	tp_torus_free(l5);
	tp_torus_free(r33);
	tp_torus_free(r44);
}
END_TEST

/* ---- random states ---------------------------------------------------------- */


/* 1 to 5 dimensions of 1..5 positions, rings and lines at random. */
static tp_torus *random_torus(void)
{
	int n = 1 + (int)rnd(5), dims[5];
	bool wrap[5];
	for (int i = 0; i < n; i++) {
		dims[i] = 1 + (int)rnd(n > 3 ? 3 : 5);
		wrap[i] = rnd(2);
	}
	return gen(n, dims, wrap);
}

/* Nodes locked one by one, or boxes of locked nodes, to a random load. */
static void random_state(const tp_torus *t, tp_nodeset *avail)
{
	random_state_to(t, avail, 95, 50);
}

/* Next shape in odometer order (every length vector once); false at the
 * end. */
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

/* The free count at every placement's low corner is the number of free
 * nodes of its box. */
static void check_free_counts(const tp_torus *t, tp_torus_erode *e,
			      const tp_nodeset *avail, const int *len)
{
	const int *fc = tp_torus_erode_free_counts(e, len);
	ck_assert_ptr_nonnull(fc);
	tp_nodeset box;
	tp_nodeset_init(&box, tp_torus_nnodes(t));
	for (long k = 0; k < tp_torus_placements(t, len); k++) {
		tp_box b;
		tp_torus_placement(t, len, k, &b);
		tp_nodeset_zero(&box);
		tp_torus_box_nodes(t, &b, &box);
		tp_nodeset_and(&box, avail);
		ck_assert_int_eq(fc[tp_torus_box_corner(t, &b)],
				 tp_nodeset_count(&box));
	}
	tp_nodeset_fini(&box);
}

/* For every shape: the corner set is exactly the free placements' low
 * corners; and L*, P* are the largest volume with a free placement and
 * the number of its free placements. */
START_TEST(test_corners_and_largest_random)
{
	rnd_state = 4242;
	int states = 0, nonempty = 0;
	for (int round = 0; round < 150; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
		tp_nodeset avail;
		tp_nodeset_init(&avail, N);
		tp_torus_erode *e = tp_torus_erode_new(t, NULL);
		ck_assert_ptr_nonnull(e);
		for (int s = 0; s < 3; s++, states++) {
			random_state(t, &avail);
			tp_torus_erode_reset(e, &avail);
			int best = 0;
			long count = 0;
			int len[TP_TORUS_MAX_DIMS];
			for (int i = 0; i < n; i++)
				len[i] = 1;
			do {
				const uint64_t *cs = tp_torus_erode_corners(e, len);
				ck_assert_ptr_nonnull(cs);
				long np = tp_torus_placements(t, len), nfree = 0;
				int from = 0;
				check_free_counts(t, e, &avail, len);
				for (long k = 0; k < np; k++) {
					tp_box b;
					tp_torus_placement(t, len, k, &b);
					if (!tp_torus_box_all_free(t, &b, &avail))
						continue;
					int c = tp_torus_box_corner(t, &b);
					ck_assert_int_eq(tp_torus_erode_next(e, cs, from), c);
					from = c + 1;
					nfree++;
				}
				ck_assert_int_eq(tp_torus_erode_next(e, cs, from), -1);
				int vol = 1;
				for (int i = 0; i < n; i++)
					vol *= len[i];
				if (nfree && vol > best) {
					best = vol;
					count = 0;
				}
				if (nfree && vol == best)
					count += nfree;
			} while (next_shape(t, len));
			int v;
			long c;
			ck_assert_int_eq(tp_torus_erode_largest(e, &v, &c), 0);
			ck_assert_int_eq(v, best);
			ck_assert_int_eq(c, count);
			/* kept for the same free set, redone for the next */
			tp_torus_erode_reset(e, &avail);
			ck_assert_int_eq(tp_torus_erode_largest(e, &v, &c), 0);
			ck_assert_int_eq(v, best);
			ck_assert_int_eq(c, count);
			nonempty += best > 1;
		}
		tp_torus_erode_free(e);
		tp_nodeset_fini(&avail);
		tp_torus_free(t);
	}
	/* the states must exercise boxes larger than one node */
	ck_assert_int_gt(nonempty, states / 3);
}
END_TEST

/* phi of any subset is at most N L* + P*; torus-mss stopping at the bound
 * chooses the box the full scan chooses, under both FsOrder= values.
 * Counts how often the stop happened, which must be sometimes. */
START_TEST(test_early_stop_keeps_choice)
{
	rnd_state = 777;
	int decisions = 0, stopped = 0;
	int d3[] = { 6, 6, 4 }, d4[] = { 4, 4, 3, 3 }, d5[] = { 4, 3, 3, 2, 2 };
	bool wrap[5] = { true, true, false, true, true };
	for (int round = 0; round < 24; round++) {
		tp_torus *t = round % 3 == 0   ? gen(3, d3, wrap)
			      : round % 3 == 1 ? gen(4, d4, wrap)
					       : gen(5, d5, wrap);
		tp_torus_opts o = *tp_torus_options(t);
		o.fs_order = round & 1 ? TP_TORUS_FS_DIAMETER : TP_TORUS_FS_OFFSET;
		ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
		int N = tp_torus_nnodes(t);
		tp_nodeset avail, rest, box;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&rest, N);
		tp_nodeset_init(&box, N);
		random_state(t, &avail);
		tp_torus_erode *e = tp_torus_erode_new(t, &avail);
		int v;
		long c;
		ck_assert_int_eq(tp_torus_erode_largest(e, &v, &c), 0);
		int64_t bound = (int64_t)N * v + c;
		ck_assert(tp_torus_mss_phi(t, &avail) <= bound);
		for (int k = 0; k < 6; k++) {
			int w = 1 + (int)rnd(8);
			tp_box bs, bf;
			int rs = tp_torus_place(t, TP_TORUS_MSS, &avail, w, 0, &bs);
			int rf = tp_torus_place(t, TP_TORUS_MSS, &avail, w,
						TP_TORUS_PLACE_NO_BOUND, &bf);
			ck_assert_int_eq(rs, rf);
			if (rs)
				continue;
			decisions++;
			ck_assert(tp_torus_box_equal(t, &bs, &bf));
			tp_nodeset_copy(&rest, &avail);
			tp_nodeset_zero(&box);
			tp_torus_box_nodes(t, &bs, &box);
			tp_nodeset_andnot(&rest, &box);
			int64_t phi = tp_torus_mss_phi(t, &rest);
			ck_assert(phi <= bound);
			stopped += phi == bound;
		}
		tp_torus_erode_free(e);
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&rest);
		tp_nodeset_fini(&box);
		tp_torus_free(t);
	}
	ck_assert_int_gt(decisions, 40);
	ck_assert_int_gt(stopped, 0);
}
END_TEST

/* With every node free the largest free box is the torus, once. */
static void whole_is_largest(const tp_torus *t, const tp_nodeset *all)
{
	tp_torus_erode *e = tp_torus_erode_new(t, all);
	int v;
	long c;
	tp_box b[2], whole;
	memset(&whole, 0, sizeof(whole));
	ck_assert_int_eq(tp_torus_erode_largest(e, &v, &c), 0);
	ck_assert_int_eq(v, tp_torus_nnodes(t));
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(tp_torus_erode_largest_boxes(e, b, 2), 1);
	memcpy(whole.len, tp_torus_dims(t), (size_t)tp_torus_ndims(t) * sizeof(int));
	ck_assert(tp_torus_box_equal(t, &b[0], &whole));
	tp_torus_erode_free(e);
}

/* Every node free on a torus of rings (slurmctld's "could it ever run"
 * on the whole machine): torus-mss bounds each candidate by its shape
 * alone and stops at the largest such bound; it chooses the box of the
 * full scan under both FsOrder= values, and with Ntransit. */
START_TEST(test_whole_torus_keeps_choice)
{
	rnd_state = 4711;
	int decisions = 0;
	bool wrap[TP_TORUS_MAX_DIMS] = { true, true, true, true, true };
	for (int round = 0; round < 30; round++) {
		int n = 2 + (int)rnd(3), dims[TP_TORUS_MAX_DIMS];
		for (int i = 0; i < n; i++)
			dims[i] = 1 + (int)rnd(n == 2 ? 7 : n == 3 ? 5 : 3);
		tp_torus *t = gen(n, dims, wrap);
		tp_torus_opts o = *tp_torus_options(t);
		o.fs_order = round & 1 ? TP_TORUS_FS_DIAMETER : TP_TORUS_FS_OFFSET;
		o.ntransit = round % 3 == 2 ? 1 + (int)rnd(3) : 0;
		ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
		int N = tp_torus_nnodes(t);
		tp_nodeset all;
		tp_nodeset_init(&all, N);
		tp_nodeset_fill(&all);
		whole_is_largest(t, &all);
		for (int w = 1; w <= N && w <= 24; w++) {
			tp_box bs, bf;
			int rs = tp_torus_place(t, TP_TORUS_MSS, &all, w, 0, &bs);
			int rf = tp_torus_place(t, TP_TORUS_MSS, &all, w,
						TP_TORUS_PLACE_NO_BOUND, &bf);
			ck_assert_int_eq(rs, rf);
			if (rs)
				continue;
			decisions++;
			ck_assert(tp_torus_box_equal(t, &bs, &bf));
		}
		tp_nodeset_fini(&all);
		tp_torus_free(t);
	}
	ck_assert_int_gt(decisions, 200);
	/* and with lines */
	for (int round = 0; round < 20; round++) {
		tp_torus *t = random_torus();
		tp_nodeset all;
		tp_nodeset_init(&all, tp_torus_nnodes(t));
		tp_nodeset_fill(&all);
		whole_is_largest(t, &all);
		tp_nodeset_fini(&all);
		tp_torus_free(t);
	}
}
END_TEST

/* Free counts kept per prefix of the lengths (the packed search's
 * shapes share them): one workspace asked about shapes in random order
 * over free sets that change a node at a time, return to an earlier set,
 * or jump, answers as a fresh workspace on each set. */
START_TEST(test_free_counts_kept)
{
	rnd_state = 1999;
	long asked = 0;
	for (int round = 0; round < 60; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
		tp_nodeset avail, earlier;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&earlier, N);
		random_state(t, &avail);
		tp_nodeset_copy(&earlier, &avail);
		tp_torus_erode *kept = tp_torus_erode_new(t, NULL);
		ck_assert_ptr_nonnull(kept);
		for (int step = 0; step < 12; step++) {
			switch (rnd(4)) {
			case 0: random_state(t, &avail); break;
			case 1: tp_nodeset_copy(&avail, &earlier); break;
			default: {
				int v = (int)rnd((unsigned)N);
				if (tp_nodeset_test(&avail, v))
					tp_nodeset_clear(&avail, v);
				else
					tp_nodeset_set(&avail, v);
			}
			}
			if (rnd(3) == 0)
				tp_nodeset_copy(&earlier, &avail);
			tp_torus_erode_reset(kept, &avail);
			tp_torus_erode *fresh = tp_torus_erode_new(t, &avail);
			ck_assert_ptr_nonnull(fresh);
			for (int q = 0; q < 40; q++) {
				int len[TP_TORUS_MAX_DIMS];
				for (int i = 0; i < n; i++)
					len[i] = 1 + (int)rnd((unsigned)tp_torus_dims(t)[i]);
				/* the fresh one first: its own kept sums must not
				 * be what is compared against */
				tp_torus_erode_free(fresh);
				fresh = tp_torus_erode_new(t, &avail);
				ck_assert_ptr_nonnull(fresh);
				const int *want = tp_torus_erode_free_counts(fresh, len);
				const int *got = tp_torus_erode_free_counts(kept, len);
				ck_assert_ptr_nonnull(want);
				ck_assert_ptr_nonnull(got);
				ck_assert_int_eq(memcmp(want, got, (size_t)N * sizeof(int)), 0);
				asked++;
			}
			tp_torus_erode_free(fresh);
		}
		check_free_counts(t, kept, &avail, (int[TP_TORUS_MAX_DIMS]){ 1, 1, 1, 1, 1 });
		tp_torus_erode_free(kept);
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&earlier);
		tp_torus_free(t);
	}
	ck_assert_int_gt(asked, 10000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("torus_erode");
	TCase *tc = tcase_create("hand");
	tcase_add_test(tc, test_largest_hand_worked);
	suite_add_tcase(s, tc);
	tc = tcase_create("property");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_corners_and_largest_random);
	tcase_add_test(tc, test_early_stop_keeps_choice);
	tcase_add_test(tc, test_whole_torus_keeps_choice);
	tcase_add_test(tc, test_free_counts_kept);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
