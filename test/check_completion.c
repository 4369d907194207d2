/* check_completion.c - the completion-aware choice (alloc/completion.c)
 * through tp_place() and EASY's reservation, worked by hand. */
#include "check_util.h"
#include "alloc/alloc.h"
#include "alloc/completion.h"
#include "model/cluster.h"
#include "policy/first_fit.h"
#include "policy/policy.h"
#include "settings/settings.h"
#include "topology/fattree.h"

#include <math.h>

/* A 16-node tree of 4 leaves of 4 (one switch above them).  Running:
 * nodes 0-1 and 4-5 until 1000, 8-11 (leaf 2) until 10, 12-15 until
 * 2000; free: 2-3 and 6-7, two in each of two leaves.  A 4-node job of
 * limit 100 fits now on the free nodes: node-level hop sum 6 pairs + 2 x 2
 * + 2 x 2 = 14 against a leaf's 6, spread 7/3.  At 10 leaf 2 is free:
 * spread 1. */
typedef struct world {
	tp_fattree *t;
	tp_alloc *a;
	tp_cluster c;
	tp_job runs[4], job;
} world;

static void run_on(world *w, int i, int lo, int hi, int64_t limit)
{
	tp_nodeset s;
	tp_nodeset_init(&s, 16);
	tp_nodeset_set_range(&s, lo, hi);
	w->runs[i] = (tp_job){ .id = 100 + i, .nodes = hi - lo, .estimate = limit };
	ck_assert_int_ge(tp_cluster_add_run(&w->c, &w->runs[i], 0, limit, &s,
					    TP_NOT_FILL), 0);
	tp_nodeset_fini(&s);
}

static void world_init(world *w, const char *alloc, double share)
{
	tp_error err = { { 0 } };
	w->t = tp_fattree_generate(2, 4, &err);
	ck_assert_msg(w->t, "%s", err.msg);
	tp_alloc_cfg cfg = { .nnodes = 16, .fattree = w->t };
	w->a = tp_alloc_create(alloc, &cfg, &err);
	ck_assert_msg(w->a, "%s", err.msg);
	tp_cluster_init(&w->c, 16, w->a);
	tp_nodeset_fill(&w->c.free);
	tp_cluster_recount_free(&w->c);
	run_on(w, 0, 0, 2, 1000);
	run_on(w, 1, 4, 6, 1000);
	run_on(w, 2, 8, 12, 10);
	run_on(w, 3, 12, 16, 2000);
	tp_nodeset_andnot(&w->c.free, &w->c.run[0].nodes);
	for (size_t i = 0; i < w->c.nrun; i++)
		tp_nodeset_andnot(&w->c.free, &w->c.run[i].nodes);
	tp_cluster_recount_free(&w->c);
	w->job = (tp_job){ .id = 1, .nodes = 4, .estimate = 100, .seq = 1 };
	w->c.completion_share = share;
}

static void world_fini(world *w)
{
	tp_cluster_fini(&w->c);
	tp_alloc_destroy(w->a);
	tp_fattree_free(w->t);
}

static bool starts_now(world *w)
{
	tp_nodeset out;
	tp_nodeset_init(&out, 16);
	bool now = tp_place(&w->c, &w->job, &out);
	tp_nodeset_fini(&out);
	return now;
}

START_TEST(test_end_formula)
{
	/* 10 + 100 (1 + 0.5 (7/3 - 1)) = 176.67; spread below 1 counts 1 */
	ck_assert(fabs(tp_completion_end(10, 100, 0.5, 7.0 / 3) - (110 + 200.0 / 3)) < 1e-9);
	ck_assert(fabs(tp_completion_end(10, 100, 0.5, 0.8) - 110) < 1e-9);
}
END_TEST

START_TEST(test_waits_when_it_ends_sooner)
{
	world w;
	/* off: the earliest fit, now */
	world_init(&w, "fattree", 0);
	ck_assert_int_eq(w.c.nfree, 4);
	ck_assert(starts_now(&w));
	world_fini(&w);
	/* share 0.5: now ends at 100 (1 + 0.5 x 4/3) = 166.7, at 10 on a
	 * whole leaf at 110: it waits */
	world_init(&w, "fattree", 0.5);
	ck_assert(!starts_now(&w));
	world_fini(&w);
	/* share 0.05: now ends at 106.7, before 110: it starts */
	world_init(&w, "fattree", 0.05);
	ck_assert(starts_now(&w));
	world_fini(&w);
	/* an allocator without a spread (flat) never waits */
	world_init(&w, "first-free", 0.5);
	ck_assert(starts_now(&w));
	world_fini(&w);
}
END_TEST

/* EASY's reservation is the start the choice makes: the head waits for
 * leaf 2 at 10, and a 1-node job of limit 5 behind it is backfilled now
 * (it ends by 10). */
START_TEST(test_easy_reserves_the_chosen_start)
{
	world w;
	world_init(&w, "fattree", 0.5);
	tp_error err = { { 0 } };
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	o.completion_share = 0.5;
	tp_policy *p = tp_policy_create("easy", &o, &err);
	ck_assert_msg(p, "%s", err.msg);
	tp_job small = { .id = 2, .nodes = 1, .estimate = 5, .seq = 2 };
	ck_assert_int_eq(tp_cluster_enqueue(&w.c, &w.job), 0);
	ck_assert_int_eq(tp_cluster_enqueue(&w.c, &small), 0);
	tp_policy_pass(p, &w.c);
	ck_assert_ptr_eq(w.c.resv_job, &w.job);
	ck_assert_int_eq(w.c.resv_time, 10);
	ck_assert_uint_eq(w.c.nstarts, 1);
	ck_assert_ptr_eq(w.c.starts[0].job, &small);
	tp_policy_destroy(p);
	world_fini(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("completion");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_end_formula);
	tcase_add_test(tc, test_waits_when_it_ends_sooner);
	tcase_add_test(tc, test_easy_reserves_the_chosen_start);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
