/* check_torus_mss_bound.c - torus-mss's pass 2 (alloc_torus_mss.c): the
 * facts about S's MSS walk its bounds rest on (tp_mss_eval_discovery,
 * tp_mss_eval_prefix against Find_MSS of S and of S minus a box), and
 * its choice against the full scan (every candidate evaluated in order)
 * on random fragmented 3-D, 4-D and 5-D states. */
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

/* A small torus of 3, 4 or 5 dimensions, each ring wrapped or not. */
static tp_torus *random_torus(int n)
{
	static const int most[6] = { 0, 0, 0, 7, 4, 3 };
	int dims[TP_TORUS_MAX_DIMS];
	bool wrap[TP_TORUS_MAX_DIMS];
	for (int i = 0; i < n; i++) {
		dims[i] = 2 + (int)rnd((unsigned)most[n] - 1);
		wrap[i] = rnd(4) != 0;
	}
	return gen(n, dims, wrap);
}

/* The MSS of S that discovers each free node: the first that covers it. */
static void discoverers(const tp_torus *t, const tp_box *b, int k, int *disc)
{
	int N = tp_torus_nnodes(t);
	for (int v = 0; v < N; v++)
		disc[v] = -1;
	for (int i = k - 1; i >= 0; i--)
		for (int v = 0; v < N; v++)
			if (tp_torus_box_contains(t, &b[i], v))
				disc[v] = i;
}

/* A random free box of S of at most 3 nodes per dimension, or false. */
static bool random_free_box(const tp_torus *t, const tp_nodeset *avail,
			    tp_box *box)
{
	int n = tp_torus_ndims(t), len[TP_TORUS_MAX_DIMS];
	for (int tries = 0; tries < 50; tries++) {
		for (int i = 0; i < n; i++) {
			int d = tp_torus_dims(t)[i];
			len[i] = 1 + (int)rnd((unsigned)(d < 3 ? d : 3));
		}
		tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), box);
		if (tp_torus_box_all_free(t, box, avail))
			return true;
	}
	return false;
}

/*
 * For a free box B with h the least discoverer over its nodes: Find_MSS
 * of S minus B starts with S's first h MSSs (same seeds, same boxes),
 * and each later MSS misses B and holds a node S discovers at h or
 * later.  The prefix statistics are those of S's first h MSSs; `last` is
 * the largest discoverer over B.
 */
START_TEST(test_walk_prefix)
{
	rnd_state = 8088;
	long boxes = 0, later = 0;
	for (int round = 0; round < 240; round++) {
		tp_torus *t = random_torus(3 + round % 3);
		int N = tp_torus_nnodes(t);
		tp_nodeset avail, rest, bn;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&rest, N);
		tp_nodeset_init(&bn, N);
		random_state_to(t, &avail, 80, 30);
		tp_box *mb, *mb2;
		int *ms, *ms2;
		int k = tp_torus_find_mss(t, &avail, &mb, &ms);
		ck_assert_int_ge(k, 0);
		int *disc = malloc((size_t)N * sizeof(int));
		discoverers(t, mb, k, disc);
		tp_mss_eval *e = tp_mss_eval_new(t, &avail, false);
		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(tp_mss_eval_nmss(e), k);
		for (int j = 0; j <= k; j++) {
			int max = 0, cnt = 0, pm, pc;
			for (int i = 0; i < j; i++) {
				int sz = tp_torus_box_size(t, &mb[i]);
				if (sz > max) {
					max = sz;
					cnt = 0;
				}
				cnt += sz == max;
			}
			tp_mss_eval_prefix(e, j, &pm, &pc);
			ck_assert_int_eq(pm, max);
			ck_assert_int_eq(pc, cnt);
		}
		for (int q = 0; q < 6; q++) {
			tp_box B;
			if (!random_free_box(t, &avail, &B))
				continue;
			boxes++;
			int h, last, lo = k, hi = -1;
			tp_mss_eval_discovery(e, &B, &h, &last);
			for (int v = 0; v < N; v++)
				if (tp_torus_box_contains(t, &B, v)) {
					lo = disc[v] < lo ? disc[v] : lo;
					hi = disc[v] > hi ? disc[v] : hi;
				}
			ck_assert_int_eq(h, lo);
			ck_assert_int_eq(last, hi);
			tp_nodeset_copy(&rest, &avail);
			tp_nodeset_zero(&bn);
			tp_torus_box_nodes(t, &B, &bn);
			tp_nodeset_andnot(&rest, &bn);
			int k2 = tp_torus_find_mss(t, &rest, &mb2, &ms2);
			ck_assert_int_ge(k2, h);
			for (int i = 0; i < h; i++) {
				ck_assert_int_eq(ms2[i], ms[i]);
				ck_assert(tp_torus_box_equal(t, &mb2[i], &mb[i]));
			}
			for (int i = h; i < k2; i++) {
				ck_assert(!tp_torus_box_intersects(t, &mb2[i], &B));
				bool reaches = false;
				for (int v = 0; v < N && !reaches; v++)
					reaches = tp_torus_box_contains(t, &mb2[i], v) &&
						  disc[v] >= h;
				ck_assert(reaches);
				later++;
			}
			free(mb2);
			free(ms2);
		}
		tp_mss_eval_free(e);
		free(disc);
		free(mb);
		free(ms);
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&rest);
		tp_nodeset_fini(&bn);
		tp_torus_free(t);
	}
	ck_assert_int_gt(boxes, 800);
	ck_assert_int_gt(later, 800);
}
END_TEST

/* Jobs in random free boxes to a load, some of them leaving again (the
 * fragmented states of bench_torus, small). */
static void fragmented_state(const tp_torus *t, tp_nodeset *avail)
{
	int N = tp_torus_nnodes(t), n = tp_torus_ndims(t), njobs = 0;
	tp_box *jobs = malloc((size_t)N * sizeof(*jobs));
	tp_nodeset bn;
	tp_nodeset_init(&bn, N);
	tp_nodeset_fill(avail);
	int target = 60 + (int)rnd(31);
	for (int fails = 0; fails < 100 && tp_nodeset_count(avail) * 100 > N * (100 - target);) {
		int len[TP_TORUS_MAX_DIMS];
		tp_box b;
		for (int i = 0; i < n; i++)
			len[i] = 1 + (int)rnd((unsigned)tp_torus_dims(t)[i]);
		tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), &b);
		if (!tp_torus_box_all_free(t, &b, avail)) {
			fails++;
			continue;
		}
		tp_nodeset_zero(&bn);
		tp_torus_box_nodes(t, &b, &bn);
		tp_nodeset_andnot(avail, &bn);
		jobs[njobs++] = b;
	}
	for (int leave = (int)rnd((unsigned)njobs / 2 + 1); leave > 0 && njobs; leave--) {
		int k = (int)rnd((unsigned)njobs);
		tp_torus_box_nodes(t, &jobs[k], avail);
		jobs[k] = jobs[--njobs];
	}
	tp_nodeset_fini(&bn);
	free(jobs);
}

/*
 * torus-mss with its bounds (with every free box of its levels listed,
 * and with only the maximal ones) chooses the box of the full scan (phi
 * of every candidate, first largest in enumeration order) and, on the
 * smaller tori, of the direct full scan; 3-D, 4-D and 5-D, rings and
 * lines, both FsOrder=, Ntransit 0..1.  Decisions whose phi stays below
 * N L* + P* (pass 2 decides) must occur.
 */
START_TEST(test_choice_equals_full_scan)
{
	rnd_state = 6502;
	int states = 0, decisions = 0, below = 0, direct = 0;
	for (int round = 0; round < 360; round++) {
		tp_torus *t = random_torus(3 + round % 3);
		tp_torus_opts o = *tp_torus_options(t);
		o.fs_order = rnd(2) ? TP_TORUS_FS_DIAMETER : TP_TORUS_FS_OFFSET;
		o.ntransit = rnd(4) == 0;
		ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
		int N = tp_torus_nnodes(t);
		tp_nodeset avail, rest, bn;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&rest, N);
		tp_nodeset_init(&bn, N);
		if (rnd(3))
			fragmented_state(t, &avail);
		else
			random_state_to(t, &avail, 90, 40);
		states++;
		tp_torus_erode *er = tp_torus_erode_new(t, &avail);
		int v;
		long c;
		ck_assert_int_eq(tp_torus_erode_largest(er, &v, &c), 0);
		int64_t bound = (int64_t)N * v + c;
		tp_torus_erode_free(er);
		for (int q = 0; q < 4; q++) {
			int w = 1 + (int)rnd(rnd(2) ? 4 : 12);
			tp_box bs, bm, bf, bd;
			int rs = tp_torus_place(t, TP_TORUS_MSS, &avail, w, 0, &bs);
			int rm = tp_torus_place(t, TP_TORUS_MSS, &avail, w,
						TP_TORUS_PLACE_MAXIMAL_LEVELS, &bm);
			int rf = tp_torus_place(t, TP_TORUS_MSS, &avail, w,
						TP_TORUS_PLACE_NO_BOUND, &bf);
			ck_assert_int_eq(rs, rf);
			ck_assert_int_eq(rm, rf);
			if (rs)
				continue;
			decisions++;
			ck_assert(tp_torus_box_equal(t, &bs, &bf));
			ck_assert(tp_torus_box_equal(t, &bm, &bf));
			if (N <= 200) {
				int rd = tp_torus_place(t, TP_TORUS_MSS, &avail, w,
							TP_TORUS_PLACE_DIRECT | TP_TORUS_PLACE_NO_BOUND,
							&bd);
				ck_assert_int_eq(rd, 0);
				ck_assert(tp_torus_box_equal(t, &bs, &bd));
				direct++;
			}
			tp_nodeset_copy(&rest, &avail);
			tp_nodeset_zero(&bn);
			tp_torus_box_nodes(t, &bs, &bn);
			tp_nodeset_andnot(&rest, &bn);
			below += tp_torus_mss_phi(t, &rest) < bound;
		}
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&rest);
		tp_nodeset_fini(&bn);
		tp_torus_free(t);
	}
	ck_assert_int_ge(states, 300);
	ck_assert_int_gt(decisions, 800);
	ck_assert_int_gt(below, 100);
	ck_assert_int_gt(direct, 100);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("torus_mss_bound");
	TCase *tc = tcase_create("property");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_walk_prefix);
	tcase_add_test(tc, test_choice_equals_full_scan);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
