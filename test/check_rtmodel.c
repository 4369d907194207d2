/* check_rtmodel.c - unit tests for the placement-dependent run-time model
 * (src/replay/rtmodel): spreads and dilated run times worked by hand on a
 * small fat tree and a small torus, the least costs against brute force,
 * and the engine ending a dilated run at its limit. */
#include "check_util.h"
#include "tmpdir_util.h"

#include <math.h>

#include "alloc/alloc.h"
#include "engine/engine.h"
#include "engine/metrics.h"
#include "policy/policy.h"
#include "rtmodel/rtmodel.h"
#include "topology/spread.h"
#include "settings/settings.h"
#include "topology/fattree.h"
#include "topology/torus.h"
#include "trace/rng.h"
#include "trace/workload.h"

static void set_of(tp_nodeset *s, int n, const int *idx, int k)
{
	ck_assert_int_eq(tp_nodeset_init(s, n), 0);
	for (int i = 0; i < k; i++)
		tp_nodeset_set(s, idx[i]);
}

static tp_fattree *tree(int levels, int width)
{
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_generate(levels, width, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/* spread of nodes idx[0..k-1] under model m. */
static double spread_of(tp_rtmodel *m, int n, const int *idx, int k)
{
	tp_nodeset s;
	set_of(&s, n, idx, k);
	double v = tp_rtmodel_spread(m, &s);
	tp_nodeset_fini(&s);
	return v;
}

/*
 * The 16-node two-level tree (4 leaves of 4 under one root): a pair in one
 * leaf crosses 1 router, a pair in two leaves 3 (leaf, root, leaf).
 *   best(4) = one leaf, 6 pairs x 1 = 6
 *   {0,1,4,5}: 2 leaves x 2 nodes: 2 pairs x 1 + 4 pairs x 3 = 14;
 *     spread 14/6 = 7/3; share 0.3, trace 1000 s:
 *     1000 (1 + 0.3 x 4/3) = 1400 s
 *   {0,4,8,12}: one node a leaf, 6 pairs x 3 = 18; spread 3;
 *     1000 (1 + 0.3 x 2) = 1600 s
 *   best(5) = 4 + 1: 6 x 1 + 4 x 3 = 18 (3 + 2 gives 4 x 1 + 6 x 3 = 22)
 *   {0,1,2,4,5}: 3 + 2, 22; spread 22/18 = 11/9;
 *     1000 (1 + 0.3 x 2/9) = 1066.67 -> 1067 s
 *   {3}: one node, spread 1, 1000 s.
 */
START_TEST(test_fattree_two_levels)
{
	tp_fattree *t = tree(2, 4);
	tp_error err = { "" };
	tp_rtmodel m;
	ck_assert_int_eq(tp_rtmodel_init(&m, t, NULL, 0.3, &err), 0);
	ck_assert_int_eq(tp_fattree_node_best(t, 4), 6);
	ck_assert_int_eq(tp_fattree_node_best(t, 5), 18);
	ck_assert_int_eq(tp_fattree_node_best(t, 1), 0);
	ck_assert_int_eq(tp_fattree_node_best(t, 17), -1);

	double s = spread_of(&m, 16, (int[]){ 0, 1, 4, 5 }, 4);
	ck_assert(fabs(s - 14.0 / 6.0) < 1e-12);
	ck_assert_int_eq(tp_rtmodel_dilate(1000, m.share, s), 1400);
	s = spread_of(&m, 16, (int[]){ 0, 4, 8, 12 }, 4);
	ck_assert(fabs(s - 3.0) < 1e-12);
	ck_assert_int_eq(tp_rtmodel_dilate(1000, m.share, s), 1600);
	s = spread_of(&m, 16, (int[]){ 0, 1, 2, 4, 5 }, 5);
	ck_assert(fabs(s - 22.0 / 18.0) < 1e-12);
	ck_assert_int_eq(tp_rtmodel_dilate(1000, m.share, s), 1067);
	/* the most compact placements run their trace time */
	s = spread_of(&m, 16, (int[]){ 8, 9, 10, 11 }, 4);
	ck_assert(s == 1.0);
	ck_assert_int_eq(tp_rtmodel_dilate(1000, m.share, s), 1000);
	s = spread_of(&m, 16, (int[]){ 3 }, 1);
	ck_assert(s == 1.0);
	ck_assert_int_eq(tp_rtmodel_dilate(1000, m.share, s), 1000);
	tp_rtmodel_fini(&m);
	tp_fattree_free(t);
}
END_TEST

/*
 * The 8-node three-level tree (leaves of 2, two middle switches of 2
 * leaves, a root): same leaf 1 router, same middle switch 3, across the
 * root 5.  best(4) = two leaves under one middle switch: 2 x 1 + 4 x 3 =
 * 14.  {0,2,4,6} (one node a leaf): (0,2) and (4,6) 3 each, 4 pairs across
 * the root 5 each: 26; spread 26/14 = 13/7; share 0.5, trace 700 s:
 * 700 (1 + 0.5 x 6/7) = 1000 s.
 */
START_TEST(test_fattree_three_levels)
{
	tp_fattree *t = tree(3, 2);
	tp_error err = { "" };
	tp_rtmodel m;
	ck_assert_int_eq(tp_rtmodel_init(&m, t, NULL, 0.5, &err), 0);
	ck_assert_int_eq(tp_fattree_node_best(t, 4), 14);
	double s = spread_of(&m, 8, (int[]){ 0, 2, 4, 6 }, 4);
	ck_assert(fabs(s - 26.0 / 14.0) < 1e-12);
	ck_assert_int_eq(tp_rtmodel_dilate(700, m.share, s), 1000);
	tp_rtmodel_fini(&m);
	tp_fattree_free(t);
}
END_TEST

/* Node-level hop sum by its definition: routers between every pair. */
static long long pair_hops(const tp_fattree *t, const tp_nodeset *s)
{
	long long sum = 0;
	for (int a = 0; a < t->nnodes; a++)
		for (int b = a + 1; b < t->nnodes; b++)
			if (tp_nodeset_test(s, a) && tp_nodeset_test(s, b))
				sum += tp_fattree_hops(t, a, b);
	return sum;
}

/* The per-link formula equals the pairwise definition, and equals the
 * allocators' hop sum with units of one node (ftconf hopsum --msu-size
 * 1), on random sets of the 64-node tree. */
START_TEST(test_fattree_cost_is_node_hop_sum)
{
	tp_fattree *t = tree(3, 4);
	tp_error err = { "" };
	tp_fattree_opts o;
	tp_fattree_opts_default(&o);
	o.msu_size = 1;
	ck_assert_int_eq(tp_fattree_set_opts(t, &o, &err), 0);
	tp_rng r;
	tp_rng_seed(&r, 7);
	tp_nodeset s;
	ck_assert_int_eq(tp_nodeset_init(&s, 64), 0);
	for (int round = 0; round < 200; round++) {
		tp_nodeset_zero(&s);
		int p = 1 + (int)tp_rng_below(&r, 7);
		for (int i = 0; i < 64; i++)
			if ((int)tp_rng_below(&r, 8) < p)
				tp_nodeset_set(&s, i);
		long long c = tp_fattree_node_cost(t, &s);
		ck_assert_int_eq(c, pair_hops(t, &s));
		ck_assert_int_eq(c, tp_fattree_hop_sum(t, &s));
	}
	tp_nodeset_fini(&s);
	tp_fattree_free(t);
}
END_TEST

/* best(k) is the least cost over every k-subset within one fabric:
 * brute force over all 2^n subsets. */
static void check_best_brute(const tp_fattree *t)
{
	int n = t->nnodes;
	long long least[33];
	for (int k = 0; k <= n; k++)
		least[k] = -1;
	tp_nodeset s;
	ck_assert_int_eq(tp_nodeset_init(&s, n), 0);
	for (uint32_t bits = 1; bits < (1u << n); bits++) {
		tp_nodeset_zero(&s);
		for (int i = 0; i < n; i++)
			if (bits >> i & 1)
				tp_nodeset_set(&s, i);
		if (tp_fattree_set_fabric(t, &s, NULL) < 0)
			continue;
		int k = tp_nodeset_count(&s);
		long long c = tp_fattree_node_cost(t, &s);
		if (least[k] < 0 || c < least[k])
			least[k] = c;
	}
	tp_nodeset_fini(&s);
	for (int k = 2; k <= n; k++)
		ck_assert_msg(tp_fattree_node_best(t, k) == least[k],
			      "k=%d: best %lld, brute force %lld", k,
			      tp_fattree_node_best(t, k), least[k]);
}

START_TEST(test_fattree_best_brute_force)
{
	tp_fattree *t = tree(2, 4); /* 16 nodes */
	check_best_brute(t);
	tp_fattree_free(t);
}
END_TEST

/* An irregular tree: leaves of 3, 1 and 2 nodes at different depths, and
 * a second fabric of one 4-node leaf.  best(4) = that leaf alone (6);
 * best(6) must stay within the first fabric (6 nodes). */
START_TEST(test_fattree_best_irregular)
{
	ck_assert_int_eq(tmpdir_make("check_rtmodel"), 0);
	const char *p = tmpdir_write("topology.conf",
		"SwitchName=l1 Nodes=n[1-3]\n"
		"SwitchName=l2 Nodes=n4\n"
		"SwitchName=l3 Nodes=n[5-6]\n"
		"SwitchName=m1 Switches=l[1-2]\n"
		"SwitchName=top Switches=m1,l3\n"
		"SwitchName=l4 Nodes=n[7-10]\n"
		"SwitchName=other Switches=l4\n");
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_load(p, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(t->nfabric, 2);
	ck_assert_int_eq(tp_fattree_node_best(t, 4), 6);
	ck_assert(tp_fattree_node_best(t, 6) > 0);
	ck_assert_int_eq(tp_fattree_node_best(t, 7), -1);
	check_best_brute(t);
	tp_fattree_free(t);
	tmpdir_remove();
}
END_TEST

static tp_torus *torus4x4(void)
{
	tp_error err = { "" };
	static const int dims[] = { 4, 4 };
	tp_torus *t = tp_torus_generate(2, dims, NULL, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/*
 * The 4x4 torus (rings, Distance=manhattan; node (r, c) has index 4r + c).
 *   best(4) = the 2x2 box: 4 pairs at 1, 2 at 2: mean 8/6 = 4/3
 *     (the 4x1 line: 3 x 1 + 2 x 2 + 1 x 3 = 10, mean 10/6)
 *   {0,1,2,3} (a row): spread (10/6)/(8/6) = 1.25; share 0.5, trace
 *     1000 s: 1000 (1 + 0.5 x 0.25) = 1125 s
 *   {0,2,8,10} ((0,0),(0,2),(2,0),(2,2)): 4 pairs at 2, 2 at 4: mean
 *     16/6; spread 2; 1000 (1 + 0.5) = 1500 s
 *   best(5): no box of 5 on 4x4; Shapeless=pack takes the lowest 5 nodes
 *     of a 2x3 box: distances 1,2,1,2,1,2,1,3,2,1 = 16 over 10 pairs: 1.6
 */
START_TEST(test_torus)
{
	tp_torus *t = torus4x4();
	tp_error err = { "" };
	tp_rtmodel m;
	ck_assert_int_eq(tp_rtmodel_init(&m, NULL, t, 0.5, &err), 0);
	ck_assert(fabs(tp_spread_torus_best(t, 4) - 8.0 / 6.0) < 1e-12);
	ck_assert(fabs(tp_spread_torus_best(t, 5) - 1.6) < 1e-12);
	ck_assert(tp_spread_torus_best(t, 1) == 0);
	ck_assert(tp_spread_torus_best(t, 17) == -1);
	double s = spread_of(&m, 16, (int[]){ 0, 1, 2, 3 }, 4);
	ck_assert(fabs(s - 1.25) < 1e-12);
	ck_assert_int_eq(tp_rtmodel_dilate(1000, m.share, s), 1125);
	s = spread_of(&m, 16, (int[]){ 0, 2, 8, 10 }, 4);
	ck_assert(fabs(s - 2.0) < 1e-12);
	ck_assert_int_eq(tp_rtmodel_dilate(1000, m.share, s), 1500);
	/* a 2x2 box across both seams is as compact as any */
	s = spread_of(&m, 16, (int[]){ 0, 3, 12, 15 }, 4);
	ck_assert(fabs(s - 1.0) < 1e-12);
	s = spread_of(&m, 16, (int[]){ 6 }, 1);
	ck_assert(s == 1.0);
	tp_rtmodel_fini(&m);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_parse_and_dilate)
{
	int on;
	double share;
	char why[128];
	ck_assert_int_eq(tp_rtmodel_parse("none", &on, &share, why, sizeof(why)), 0);
	ck_assert_int_eq(on, 0);
	ck_assert_int_eq(tp_rtmodel_parse("spread", &on, &share, why, sizeof(why)), 0);
	ck_assert_int_eq(on, 1);
	ck_assert(share == TP_RTMODEL_DEFAULT_SHARE);
	ck_assert_int_eq(tp_rtmodel_parse("spread:0.2", &on, &share, why, sizeof(why)), 0);
	ck_assert(share == 0.2);
	ck_assert_int_eq(tp_rtmodel_parse("spread:1.5", &on, &share, why, sizeof(why)), -1);
	ck_assert_int_eq(tp_rtmodel_parse("spread:", &on, &share, why, sizeof(why)), -1);
	ck_assert_int_eq(tp_rtmodel_parse("spreadx", &on, &share, why, sizeof(why)), -1);
	ck_assert_int_eq(tp_rtmodel_parse("hops", &on, &share, why, sizeof(why)), -1);
	/* share 0 or spread 1: the trace's run time exactly */
	ck_assert_int_eq(tp_rtmodel_dilate(12345, 0.0, 3.0), 12345);
	ck_assert_int_eq(tp_rtmodel_dilate(12345, 0.7, 1.0), 12345);
	/* 3 s x (1 + 0.5 x 0.5) = 3.75 -> 4 */
	ck_assert_int_eq(tp_rtmodel_dilate(3, 0.5, 1.5), 4);
}
END_TEST

/*
 * The engine: FCFS with first-free on the 16-node tree of
 * test_fattree_two_levels, everything submitted at 0.  A (1 node) gets
 * node 0; B (4 nodes, trace 1000 s, limit 1200 s) nodes 1-4: 3 in leaf 0
 * and 1 in leaf 1, 3 x 1 + 3 x 3 = 12, spread 12/6 = 2, with share 0.5
 * 1500 s, so it is ended at its limit 1200; C (4 nodes, trace 1000 s,
 * limit 2000 s) nodes 5-8: 3 + 1 again, runs 1500 s.  Without the model
 * both end at 1000.
 */
static void replay_abc(tp_rtmodel *m, tp_sim_result *r)
{
	tp_workload w;
	memset(&w, 0, sizeof(w));
	w.nodes = 16;
	w.ppn = 1;
	tp_wjob jobs[] = {
		{ .id = 1, .submit = 0, .runtime = 100, .estimate = 200, .nodes = 1 },
		{ .id = 2, .submit = 0, .runtime = 1000, .estimate = 1200, .nodes = 4 },
		{ .id = 3, .submit = 0, .runtime = 1000, .estimate = 2000, .nodes = 4 },
	};
	for (size_t i = 0; i < 3; i++)
		ck_assert_int_eq(tp_workload_add(&w, &jobs[i]), 0);
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = 16 };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	tp_settings set;
	tp_settings_default(&set, false);
	tp_policy *p = tp_policy_create("fcfs", &set.popts, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	tp_engine_opts eo = { .check = true, .runtime_model = m };
	ck_assert_msg(tp_simulate(&w, p, a, &eo, r, &err) == 0, "%s", err.msg);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
	tp_workload_fini(&w);
}

static const tp_record *rec_of(const tp_sim_result *r, int64_t id)
{
	for (size_t i = 0; i < r->nrec; i++)
		if (r->rec[i].id == id)
			return &r->rec[i];
	ck_abort_msg("no record of job %lld", (long long)id);
	return NULL;
}

START_TEST(test_engine_kills_at_limit)
{
	tp_fattree *t = tree(2, 4);
	tp_error err = { "" };
	tp_rtmodel m;
	ck_assert_int_eq(tp_rtmodel_init(&m, t, NULL, 0.5, &err), 0);
	tp_sim_result r;
	replay_abc(&m, &r);
	ck_assert(r.dilated);
	ck_assert_int_eq(rec_of(&r, 1)->end, 100);
	ck_assert(rec_of(&r, 1)->spread == 1.0);
	const tp_record *b = rec_of(&r, 2), *c = rec_of(&r, 3);
	ck_assert(fabs(b->spread - 2.0) < 1e-12);
	ck_assert_int_eq(b->run, 1500);
	ck_assert_int_eq(b->end, 1200);
	ck_assert_int_eq(b->status, TP_KILLED);
	ck_assert_int_eq(c->end, 1500);
	ck_assert_int_eq(c->status, TP_COMPLETED);
	tp_summary s;
	tp_summarize(&r, &s);
	ck_assert(s.dilated);
	ck_assert_int_eq(s.dilation_kills, 1);
	ck_assert(fabs(s.mean_run - (100 + 1200 + 1500) / 3.0) < 1e-9);
	ck_assert(fabs(s.mean_trace_run - 2100 / 3.0) < 1e-9);
	ck_assert(fabs(s.mean_spread_multi - 2.0) < 1e-12);
	tp_sim_result_fini(&r);

	replay_abc(NULL, &r); /* off: the trace's run times */
	ck_assert(!r.dilated);
	ck_assert_int_eq(rec_of(&r, 2)->end, 1000);
	ck_assert_int_eq(rec_of(&r, 2)->status, TP_COMPLETED);
	ck_assert_int_eq(rec_of(&r, 3)->end, 1000);
	tp_summarize(&r, &s);
	ck_assert(!s.dilated);
	ck_assert_int_eq(s.dilation_kills, 0);
	tp_sim_result_fini(&r);
	tp_rtmodel_fini(&m);
	tp_fattree_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rtmodel");
	TCase *tc = tcase_create("spread");
	tcase_add_test(tc, test_fattree_two_levels);
	tcase_add_test(tc, test_fattree_three_levels);
	tcase_add_test(tc, test_fattree_cost_is_node_hop_sum);
	tcase_add_test(tc, test_fattree_best_brute_force);
	tcase_add_test(tc, test_fattree_best_irregular);
	tcase_add_test(tc, test_torus);
	tcase_add_test(tc, test_parse_and_dilate);
	tcase_add_test(tc, test_engine_kills_at_limit);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
