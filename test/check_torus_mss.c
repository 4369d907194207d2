/* check_torus_mss.c - unit tests for torus_mss.c (Find_MSS, phi, the fast
 * evaluation) and the torus-mss allocator. */
#include "check_util.h"
#include "alloc/alloc.h"
#include "topology/torus.h"

#include <string.h>

static tp_torus *gen(int n, const int *dims, const bool *wrap)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(n, dims, wrap, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/* free = all nodes except the listed ones */
static void lock_nodes(tp_nodeset *avail, const int *locked, int n)
{
	tp_nodeset_fill(avail);
	for (int i = 0; i < n; i++)
		tp_nodeset_clear(avail, locked[i]);
}

static void assert_box(const tp_torus *t, const tp_box *b, const int *off,
		       const int *len)
{
	char buf[128];
	for (int i = 0; i < tp_torus_ndims(t); i++)
		ck_assert_msg(b->off[i] == off[i] && b->len[i] == len[i],
			      "box %s", tp_torus_box_format(t, b, buf, sizeof(buf)));
}

/*
 * 4x4 without wraparound, index = 4x + y, locked # at (0,2), (2,0), (3,3):
 *
 *        y=0 1 2 3
 *   x=0    . . # .       seed 0  (0,0): +x to x=1 ((2,0) locked), +y to
 *   x=1    . . . .                y=1 ((0,2) locked)     -> [0,1]x[0,1]  4
 *   x=2    # . . .       seed 3  (0,3): +x to x=2, -y blocked by (0,2)
 *   x=3    . . . #                                       -> [0,2]x[3]    3
 *                        seed 6  (1,2): +x to 3, +y blocked by (3,3),
 *                                -y to y=1 ((2,0) below) -> [1,3]x[1,2]  6
 *                        seed 12 (3,0): +y to y=2        -> [3]x[0,2]    3
 * phi = 16 * 6 + 1 = 97.
 */
START_TEST(test_find_mss_2d_line)
{
	int dims[] = { 4, 4 }, locked[] = { 2, 8, 15 };
	bool nowrap[] = { false, false };
	tp_torus *t = gen(2, dims, nowrap);
	tp_nodeset avail;
	tp_nodeset_init(&avail, 16);
	lock_nodes(&avail, locked, 3);
	tp_box *b;
	int *seeds;
	ck_assert_int_eq(tp_torus_find_mss(t, &avail, &b, &seeds), 4);
	ck_assert_int_eq(seeds[0], 0);
	ck_assert_int_eq(seeds[1], 3);
	ck_assert_int_eq(seeds[2], 6);
	ck_assert_int_eq(seeds[3], 12);
	assert_box(t, &b[0], (int[]){ 0, 0 }, (int[]){ 2, 2 });
	assert_box(t, &b[1], (int[]){ 0, 3 }, (int[]){ 3, 1 });
	assert_box(t, &b[2], (int[]){ 1, 1 }, (int[]){ 3, 2 });
	assert_box(t, &b[3], (int[]){ 3, 0 }, (int[]){ 1, 3 });
	ck_assert_int_eq(tp_torus_mss_phi(t, &avail), 97);
	free(b);
	free(seeds);
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

/*
 * The same state on the 4x4 torus (both rings):
 *   seed 0 (0,0): +x to x=1, -x wraps to x=3 ((2,0) stops it),
 *                 +y to y=1, -y blocked by (3,3)   -> x{3,0,1} y{0,1}  6
 *   seed 3 (0,3): +x to x=2, -x blocked by (3,3), +y wraps to y=0 but
 *                 (2,0) is locked                  -> x{0,1,2} y{3}    3
 *   seed 6 (1,2): +x to x=3, +x/-x then hit (0,2), -y to y=1
 *                                                  -> x{1,2,3} y{1,2}  6
 * Every other free node is covered: phi = 16 * 6 + 2 = 98.
 */
START_TEST(test_find_mss_2d_torus)
{
	int dims[] = { 4, 4 }, locked[] = { 2, 8, 15 };
	tp_torus *t = gen(2, dims, NULL);
	tp_nodeset avail;
	tp_nodeset_init(&avail, 16);
	lock_nodes(&avail, locked, 3);
	tp_box *b;
	ck_assert_int_eq(tp_torus_find_mss(t, &avail, &b, NULL), 3);
	assert_box(t, &b[0], (int[]){ 3, 0 }, (int[]){ 3, 2 });
	assert_box(t, &b[1], (int[]){ 0, 3 }, (int[]){ 3, 1 });
	assert_box(t, &b[2], (int[]){ 1, 1 }, (int[]){ 3, 2 });
	ck_assert_int_eq(tp_torus_mss_phi(t, &avail), 98);
	free(b);
	/* one free ring: x spans (offset 0), phi = 16 * 4 + 1 */
	tp_nodeset_zero(&avail);
	for (int x = 0; x < 4; x++)
		tp_nodeset_set(&avail, 4 * x + 1);
	ck_assert_int_eq(tp_torus_find_mss(t, &avail, &b, NULL), 1);
	assert_box(t, &b[0], (int[]){ 0, 1 }, (int[]){ 4, 1 });
	free(b);
	ck_assert_int_eq(tp_torus_mss_phi(t, &avail), 65);
	/* nothing free */
	tp_nodeset_zero(&avail);
	ck_assert_int_eq(tp_torus_mss_phi(t, &avail), 0);
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

/*
 * 2x2x2 lines, index = 4x + 2y + z, node 7 = (1,1,1) locked:
 *   seed 0: +x, +y, then +z meets 7            -> x{0,1} y{0,1} z{0}  4
 *   seed 1 (0,0,1): +x to (1,0,1); +y meets 7; -z back to z=0
 *                                              -> x{0,1} y{0} z{0,1}  4
 *   seed 3 (0,1,1): +x meets 7; -y and -z open -> x{0} y{0,1} z{0,1}  4
 * Three distinct largest MSSs: phi = 8 * 4 + 3 = 35.
 */
START_TEST(test_find_mss_3d)
{
	int dims[] = { 2, 2, 2 }, locked[] = { 7 };
	bool nowrap[] = { false, false, false };
	tp_torus *t = gen(3, dims, nowrap);
	tp_nodeset avail;
	tp_nodeset_init(&avail, 8);
	lock_nodes(&avail, locked, 1);
	tp_box *b;
	int *seeds;
	ck_assert_int_eq(tp_torus_find_mss(t, &avail, &b, &seeds), 3);
	ck_assert_int_eq(seeds[2], 3);
	assert_box(t, &b[0], (int[]){ 0, 0, 0 }, (int[]){ 2, 2, 1 });
	assert_box(t, &b[1], (int[]){ 0, 0, 0 }, (int[]){ 2, 1, 2 });
	assert_box(t, &b[2], (int[]){ 0, 0, 0 }, (int[]){ 1, 2, 2 });
	ck_assert_int_eq(tp_torus_mss_phi(t, &avail), 35);
	free(b);
	free(seeds);
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

/*
 * torus-mss against base/fs on a line of 6 (1-D, no wrap) with node 4
 * locked, job of 1 node:
 *   at 0: free {1-3},{5}   -> MSS sizes 3, 1  -> phi = 6*3 + 1 = 19
 *   at 1: free {0},{2,3},{5} -> 2 largest      -> phi = 6*2 + 1 = 13
 *   at 5: free {0-3}        -> one MSS of 4    -> phi = 6*4 + 1 = 25
 * so torus-mss takes node 5, base and fs take node 0.
 */
START_TEST(test_mss_allocator_hand_worked)
{
	int dims[] = { 6 }, locked[] = { 4 };
	bool nowrap[] = { false };
	tp_torus *t = gen(1, dims, nowrap);
	tp_nodeset avail, out;
	tp_nodeset_init(&avail, 6);
	tp_nodeset_init(&out, 6);
	lock_nodes(&avail, locked, 1);
	tp_mss_eval *e = tp_mss_eval_new(t, &avail, false);
	tp_box b0 = { .off = { 0 }, .len = { 1 } };
	tp_box b1 = { .off = { 1 }, .len = { 1 } };
	tp_box b5 = { .off = { 5 }, .len = { 1 } };
	ck_assert_int_eq(tp_mss_eval_phi(e, &b0), 19);
	ck_assert_int_eq(tp_mss_eval_phi(e, &b1), 13);
	ck_assert_int_eq(tp_mss_eval_phi(e, &b5), 25);
	tp_mss_eval_free(e);

	tp_alloc_cfg cfg = { .nnodes = 6, .torus = t };
	tp_error err;
	tp_alloc *mss = tp_alloc_create("torus-mss", &cfg, &err);
	tp_alloc *base = tp_alloc_create("torus-base", &cfg, &err);
	ck_assert_int_eq(tp_alloc_place(mss, &avail, 1, &out), 0);
	ck_assert_int_eq(tp_nodeset_next(&out, 0), 5);
	ck_assert_int_eq(tp_nodeset_count(&out), 1);
	ck_assert_int_eq(tp_alloc_place(base, &avail, 1, &out), 0);
	ck_assert_int_eq(tp_nodeset_next(&out, 0), 0);
	/* two nodes: {0,1} leaves {2,3},{5} (13), {1,2} leaves {0},{3},{5}
	 * (6*1+3 = 9), {2,3} leaves {0,1},{5} (13): the first of the ties */
	ck_assert_int_eq(tp_alloc_place(mss, &avail, 2, &out), 0);
	char *s = tp_nodeset_format(&out);
	ck_assert_str_eq(s, "0-1");
	free(s);
	tp_alloc_destroy(mss);
	tp_alloc_destroy(base);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&out);
	tp_torus_free(t);
}
END_TEST

/* ---- properties on random states ---------------------------------------- */

static unsigned rnd_state;
static unsigned rnd(unsigned n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/* Jobs' boxes up to `load` plus a few flipped nodes, or (one time in
 * four) nodes locked independently at random. */
static void random_state(const tp_torus *t, tp_nodeset *avail, double load)
{
	int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
	const int *dims = tp_torus_dims(t);
	if (rnd(4) == 0) {
		tp_nodeset_zero(avail);
		for (int v = 0; v < N; v++)
			if (rnd(100) >= load * 100)
				tp_nodeset_set(avail, v);
		return;
	}
	tp_nodeset lock;
	tp_nodeset_init(&lock, N);
	tp_nodeset_fill(avail);
	for (int tries = 0; tries < 400 && tp_nodeset_count(avail) > N * (1 - load);
	     tries++) {
		int len[TP_TORUS_MAX_DIMS];
		for (int i = 0; i < n; i++)
			len[i] = 1 + (int)rnd((unsigned)(dims[i] + 1) / 2);
		tp_box b;
		tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), &b);
		if (!tp_torus_box_all_free(t, &b, avail))
			continue;
		tp_nodeset_zero(&lock);
		tp_torus_box_nodes(t, &b, &lock);
		tp_nodeset_andnot(avail, &lock);
	}
	int flips = (int)rnd(3) * N / 30;
	for (int k = 0; k < flips; k++) {
		int v = (int)rnd((unsigned)N);
		if (tp_nodeset_test(avail, v))
			tp_nodeset_clear(avail, v);
		else
			tp_nodeset_set(avail, v);
	}
	tp_nodeset_fini(&lock);
}

/* 3-D and 4-D, each ring wrapped or not at random. */
static tp_torus *random_torus(int n)
{
	int dims[4];
	bool wrap[4];
	for (int i = 0; i < n; i++) {
		dims[i] = 1 + (int)rnd(n == 3 ? 6 : 4);
		if (dims[i] == 1 && rnd(2))
			dims[i] = 2;
		wrap[i] = rnd(2);
	}
	tp_torus *t = gen(n, dims, wrap);
	tp_torus_opts o = *tp_torus_options(t);
	o.ntransit = (int)rnd(2);
	o.fs_order = rnd(2) ? TP_TORUS_FS_DIAMETER : TP_TORUS_FS_OFFSET;
	tp_torus_set_options(t, &o, NULL);
	return t;
}

/* Find_MSS output: boxes of free nodes, pairwise distinct, none can be
 * extended by one slab in any direction, together covering every free
 * node; each seed lies in its own box and in no earlier one. */
START_TEST(test_find_mss_properties)
{
	rnd_state = 99;
	for (int round = 0; round < 200; round++) {
		tp_torus *t = random_torus(3 + round % 2);
		int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
		const int *dims = tp_torus_dims(t);
		const bool *wrap = tp_torus_wrap(t);
		tp_nodeset avail, cover;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&cover, N);
		random_state(t, &avail, rnd(90) / 100.0);
		tp_box *b;
		int *seeds;
		int k = tp_torus_find_mss(t, &avail, &b, &seeds);
		ck_assert_int_ge(k, 0);
		for (int i = 0; i < k; i++) {
			ck_assert(tp_torus_box_all_free(t, &b[i], &avail));
			ck_assert(tp_torus_box_contains(t, &b[i], seeds[i]));
			ck_assert(!tp_nodeset_test(&cover, seeds[i]));
			for (int j = 0; j < i; j++)
				ck_assert(!tp_torus_box_equal(t, &b[i], &b[j]));
			tp_torus_box_nodes(t, &b[i], &cover);
			for (int d = 0; d < n; d++) {
				if (b[i].len[d] == dims[d]) {
					ck_assert_int_eq(b[i].off[d], 0);
					continue;
				}
				for (int dir = 0; dir < 2; dir++) {
					tp_box s = b[i];
					s.len[d] = 1;
					if (dir == 0) {
						if (!wrap[d] && b[i].off[d] + b[i].len[d] == dims[d])
							continue;
						s.off[d] = (b[i].off[d] + b[i].len[d]) % dims[d];
					} else {
						if (!wrap[d] && b[i].off[d] == 0)
							continue;
						s.off[d] = (b[i].off[d] + dims[d] - 1) % dims[d];
					}
					ck_assert(!tp_torus_box_all_free(t, &s, &avail));
				}
			}
		}
		ck_assert(tp_nodeset_equal(&cover, &avail));
		free(b);
		free(seeds);
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&cover);
		tp_torus_free(t);
	}
}
END_TEST

/* The fast evaluation gives the direct phi for every free candidate, and
 * hence torus-mss chooses the same box either way (3-D and 4-D, rings and
 * lines, loads 0..90 %, Ntransit 0/1, both FsOrder). */
START_TEST(test_fast_mss_equals_direct)
{
	rnd_state = 2024;
	long candidates = 0, chosen = 0;
	for (int round = 0; round < 300; round++) {
		tp_torus *t = random_torus(3 + round % 2);
		int N = tp_torus_nnodes(t);
		tp_nodeset avail;
		tp_nodeset_init(&avail, N);
		random_state(t, &avail, rnd(91) / 100.0);
		tp_mss_eval *fast = tp_mss_eval_new(t, &avail, false);
		tp_mss_eval *direct = tp_mss_eval_new(t, &avail, true);
		ck_assert(fast && direct);
		for (int w = 1; w <= 8; w++) {
			tp_torus_shape *sh;
			int nsh = tp_torus_shapes(t, w, 0, &sh);
			for (int r = 0; r < nsh; r++) {
				long np = tp_torus_placements(t, sh[r].len);
				for (long p = 0; p < np; p++) {
					tp_box b;
					tp_torus_placement(t, sh[r].len, p, &b);
					if (!tp_torus_box_all_free(t, &b, &avail))
						continue;
					int64_t pf = tp_mss_eval_phi(fast, &b);
					int64_t pd = tp_mss_eval_phi(direct, &b);
					ck_assert_int_eq(pf, pd);
					candidates++;
				}
			}
			free(sh);
			tp_box bf, bd;
			int rf = tp_torus_place(t, TP_TORUS_MSS, &avail, w, 0, &bf);
			int rd = tp_torus_place(t, TP_TORUS_MSS, &avail, w,
						TP_TORUS_PLACE_DIRECT, &bd);
			ck_assert_int_eq(rf, rd);
			if (!rf) {
				ck_assert(tp_torus_box_equal(t, &bf, &bd));
				chosen++;
			}
		}
		tp_mss_eval_free(fast);
		tp_mss_eval_free(direct);
		tp_nodeset_fini(&avail);
		tp_torus_free(t);
	}
	/* the random states must actually exercise the comparison */
	ck_assert_int_gt(candidates, 10000);
	ck_assert_int_gt(chosen, 1000);
}
END_TEST

/* Larger tori (8x8x8, 6x6x4x4) at realistic loads: chosen boxes agree. */
START_TEST(test_fast_mss_equals_direct_large)
{
	rnd_state = 31337;
	int d3[] = { 8, 8, 8 }, d4[] = { 6, 6, 4, 4 };
	for (int round = 0; round < 8; round++) {
		bool wrap[4] = { true, round & 1, true, !(round & 2) };
		tp_torus *t = round < 4 ? gen(3, d3, wrap) : gen(4, d4, wrap);
		int N = tp_torus_nnodes(t);
		tp_nodeset avail;
		tp_nodeset_init(&avail, N);
		random_state(t, &avail, 0.5 + rnd(21) / 100.0);
		for (int k = 0; k < 4; k++) {
			int w = 1 << rnd(5);
			tp_box bf, bd;
			int rf = tp_torus_place(t, TP_TORUS_MSS, &avail, w, 0, &bf);
			int rd = tp_torus_place(t, TP_TORUS_MSS, &avail, w,
						TP_TORUS_PLACE_DIRECT, &bd);
			ck_assert_int_eq(rf, rd);
			if (!rf)
				ck_assert(tp_torus_box_equal(t, &bf, &bd));
		}
		tp_nodeset_fini(&avail);
		tp_torus_free(t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("torus_mss");
	TCase *tc = tcase_create("hand");
	tcase_add_test(tc, test_find_mss_2d_line);
	tcase_add_test(tc, test_find_mss_2d_torus);
	tcase_add_test(tc, test_find_mss_3d);
	tcase_add_test(tc, test_mss_allocator_hand_worked);
	suite_add_tcase(s, tc);
	tc = tcase_create("property");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_find_mss_properties);
	tcase_add_test(tc, test_fast_mss_equals_direct);
	tcase_add_test(tc, test_fast_mss_equals_direct_large);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
