/* check_het_plan.c - unit tests for het_plan.c, het_ws.c and het_pass.c:
 * the greedy schedules, priority levels and a pass's decision. */
#include "check_util.h"
#include "het_fixtures.h"

#include <string.h>

/* ---- one example, three greedies ----------------------------------------
 *
 * Nodes 0, 1, 2 all free at now = 0; partition A (0) = {0, 1}, partition
 * B (1) = {2}.  Three serial jobs on both partitions, expected times:
 *
 *          A    B
 *   J0     2    3
 *   J1     4    5
 *   J2     6   10
 *
 * min-min: best ends J0 2 (A), J1 4 (A), J2 6 (A) -> J0 on A, node 0
 *   [0,2].  Then J1: A node 1 -> 4, B -> 5; J2: A node 1 -> 6 -> J1 on A
 *   node 1 [0,4].  Then J2: A node 0 (ready 2) -> 8, B -> 10 -> A node 0
 *   [2,8].  Total 2 + 4 + 8 = 14.
 * min-max: the largest best end first: J2 on A node 0 [0,6].  Then J0:
 *   A node 1 -> 2; J1: A node 1 -> 4 -> J1 on A node 1 [0,4].  Then J0:
 *   A (ready 4) -> 6, B -> 3 -> B node 2 [0,3].  Total 6 + 4 + 3 = 13.
 * OLB: J0 starts at 0 on both, A ends first -> node 0 [0,2]; J1 the
 *   same -> node 1 [0,4]; J2: A starts at 2, B at 0 -> B [0,10] although
 *   A would end at 8.  Total 2 + 4 + 10 = 16.
 */
static const int ab[] = { 0, 1 };
static const int n_a[] = { 0, 1 }, n_b[] = { 2 };
static const tp_het_part parts_ab[] = {
	{ "A", 0, n_a, 2 },
	{ "B", 1, n_b, 1 },
};

static void three_jobs(tp_het_job *j, fx_etc *e)
{
	memset(e, 0, sizeof(*e));
	for (int i = 0; i < 3; i++)
		j[i] = fx_job(i, 1, 1, ab, 2);
	e->t[0][0][1] = 2;
	e->t[0][1][1] = 3;
	e->t[1][0][1] = 4;
	e->t[1][1][1] = 5;
	e->t[2][0][1] = 6;
	e->t[2][1][1] = 10;
}

START_TEST(test_min_min)
{
	double ready[3] = { 0, 0, 0 };
	tp_het_machine m = { 3, ready, parts_ab, 2 };
	tp_het_job j[3];
	fx_etc e;
	tp_het_plan p;
	three_jobs(j, &e);
	fx_plan(&m, 0, j, 3, TP_HET_MIN_MIN, &e, &p);
	ck_assert_uint_eq(p.n, 3);
	fx_assert_assign(&p, 0, 0, 0, 0, 2);
	ck_assert_int_eq(p.a[0].node[0], 0);
	fx_assert_assign(&p, 1, 1, 0, 0, 4);
	ck_assert_int_eq(p.a[1].node[0], 1);
	fx_assert_assign(&p, 2, 2, 0, 2, 8);
	ck_assert_int_eq(p.a[2].node[0], 0);
	ck_assert_double_eq_tol(p.total, 14, 1e-9);
	ck_assert_int_eq(p.used, TP_HET_MIN_MIN);
	ck_assert_uint_eq(p.unplaced, 0);
	ck_assert_uint_eq(p.parallel, 0);
	tp_het_plan_fini(&p);
}
END_TEST

START_TEST(test_min_max)
{
	double ready[3] = { 0, 0, 0 };
	tp_het_machine m = { 3, ready, parts_ab, 2 };
	tp_het_job j[3];
	fx_etc e;
	tp_het_plan p;
	three_jobs(j, &e);
	fx_plan(&m, 0, j, 3, TP_HET_MIN_MAX, &e, &p);
	ck_assert_uint_eq(p.n, 3);
	fx_assert_assign(&p, 0, 2, 0, 0, 6);
	ck_assert_int_eq(p.a[0].node[0], 0);
	fx_assert_assign(&p, 1, 1, 0, 0, 4);
	ck_assert_int_eq(p.a[1].node[0], 1);
	fx_assert_assign(&p, 2, 0, 1, 0, 3);
	ck_assert_int_eq(p.a[2].node[0], 2);
	ck_assert_double_eq_tol(p.total, 13, 1e-9);
	ck_assert_int_eq(p.used, TP_HET_MIN_MAX);
	tp_het_plan_fini(&p);
}
END_TEST

START_TEST(test_olb_earliest_start)
{
	double ready[3] = { 0, 0, 0 };
	tp_het_machine m = { 3, ready, parts_ab, 2 };
	tp_het_job j[3];
	fx_etc e;
	tp_het_plan p;
	three_jobs(j, &e);
	fx_plan(&m, 0, j, 3, TP_HET_OLB, &e, &p);
	ck_assert_uint_eq(p.n, 3);
	fx_assert_assign(&p, 0, 0, 0, 0, 2);
	fx_assert_assign(&p, 1, 1, 0, 0, 4);
	fx_assert_assign(&p, 2, 2, 1, 0, 10);
	ck_assert_double_eq_tol(p.total, 16, 1e-9);
	ck_assert_int_eq(p.used, TP_HET_OLB);
	tp_het_plan_fini(&p);
}
END_TEST

/* Fast partition F = {0} busy until 2, slow S = {1} free: a job taking 1
 * on F, 5 on S.  OLB starts it on S at 0 (end 5); min-min waits for F
 * (end 3). */
START_TEST(test_olb_not_fastest)
{
	static const int nf[] = { 0 }, ns[] = { 1 };
	const tp_het_part parts[] = { { "F", 0, nf, 1 }, { "S", 1, ns, 1 } };
	double ready[2] = { 2, 0 };
	tp_het_machine m = { 2, ready, parts, 2 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	e.t[0][0][1] = 1;
	e.t[0][1][1] = 5;
	tp_het_job j = fx_job(0, 1, 1, ab, 2);
	tp_het_plan p;
	fx_plan(&m, 0, &j, 1, TP_HET_OLB, &e, &p);
	fx_assert_assign(&p, 0, 0, 1, 0, 5);
	tp_het_plan_fini(&p);
	fx_plan(&m, 0, &j, 1, TP_HET_MIN_MIN, &e, &p);
	fx_assert_assign(&p, 0, 0, 0, 2, 3);
	tp_het_plan_fini(&p);
	/* Both start at 0: OLB takes the one that ends first (S at 3). */
	ready[0] = 0;
	e.t[0][0][1] = 4;
	e.t[0][1][1] = 3;
	fx_plan(&m, 0, &j, 1, TP_HET_OLB, &e, &p);
	fx_assert_assign(&p, 0, 0, 1, 0, 3);
	tp_het_plan_fini(&p);
	/* Same start and end: the job's first partition. */
	e.t[0][0][1] = 3;
	static const int ba[] = { 1, 0 };
	j.parts = ba;
	for (int a = TP_HET_OLB; a <= TP_HET_PJS; a++) {
		fx_plan(&m, 0, &j, 1, a, &e, &p);
		fx_assert_assign(&p, 0, 0, 1, 0, 3);
		tp_het_plan_fini(&p);
	}
}
END_TEST

/* One partition {0, 1, 2}, all free: two equal two-node jobs (5 s).
 * min-min's tie goes to J0, on the lower nodes {0, 1} [0,5]; J1 then
 * takes node 2 (ready 0) and node 0 (ready 5, lower than node 1's 5):
 * {0, 2} [5,10]. */
START_TEST(test_ties_lower_index)
{
	static const int n3[] = { 0, 1, 2 }, p0[] = { 0 };
	const tp_het_part parts[] = { { "P", 0, n3, 3 } };
	double ready[3] = { 0, 0, 0 };
	tp_het_machine m = { 3, ready, parts, 1 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	e.t[0][0][2] = 5;
	e.t[1][0][2] = 5;
	tp_het_job j[2] = { fx_job(0, 2, 2, p0, 1), fx_job(1, 2, 2, p0, 1) };
	tp_het_plan p;
	for (int a = TP_HET_MIN_MIN; a <= TP_HET_MIN_MAX; a++) {
		fx_plan(&m, 0, j, 2, a, &e, &p);
		fx_assert_assign(&p, 0, 0, 0, 0, 5);
		ck_assert_int_eq(p.a[0].nodes, 2);
		ck_assert_int_eq(p.a[0].node[0], 0);
		ck_assert_int_eq(p.a[0].node[1], 1);
		fx_assert_assign(&p, 1, 1, 0, 5, 10);
		ck_assert_int_eq(p.a[1].node[0], 0);
		ck_assert_int_eq(p.a[1].node[1], 2);
		tp_het_plan_fini(&p);
	}
}
END_TEST

/* Partition {0, 1, 2} free; J0 may use only node 2 (4 s), J1 only nodes
 * {1, 2} and needs both (4 s).  min-min: both end at 4 at best, J0 first
 * on node 2 [0,4]; J1 waits for node 2 although node 0 is free: [4,8] on
 * {1, 2}. */
START_TEST(test_allowed)
{
	static const int n3[] = { 0, 1, 2 }, p0[] = { 0 };
	const tp_het_part parts[] = { { "P", 0, n3, 3 } };
	double ready[3] = { 0, 0, 0 };
	tp_het_machine m = { 3, ready, parts, 1 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	e.t[0][0][1] = 4;
	e.t[1][0][2] = 4;
	tp_nodeset a0, a1;
	ck_assert_int_eq(tp_nodeset_init(&a0, 3), 0);
	ck_assert_int_eq(tp_nodeset_init(&a1, 3), 0);
	tp_nodeset_set(&a0, 2);
	tp_nodeset_set(&a1, 1);
	tp_nodeset_set(&a1, 2);
	tp_het_job j[2] = { fx_job(0, 1, 1, p0, 1), fx_job(1, 2, 2, p0, 1) };
	j[0].allowed = &a0;
	j[1].allowed = &a1;
	tp_het_plan p;
	fx_plan(&m, 0, j, 2, TP_HET_MIN_MIN, &e, &p);
	fx_assert_assign(&p, 0, 0, 0, 0, 4);
	ck_assert_int_eq(p.a[0].node[0], 2);
	fx_assert_assign(&p, 1, 1, 0, 4, 8);
	ck_assert_int_eq(p.a[1].node[0], 1);
	ck_assert_int_eq(p.a[1].node[1], 2);
	tp_het_plan_fini(&p);
	/* Node 1 down: J1 can never have two allowed nodes. */
	ready[1] = TP_HET_NEVER;
	fx_plan(&m, 0, j, 2, TP_HET_PJS, &e, &p);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_uint_eq(p.unplaced, 1);
	ck_assert_uint_eq(p.a[0].job, 0);
	tp_het_plan_fini(&p);
	tp_nodeset_fini(&a0);
	tp_nodeset_fini(&a1);
}
END_TEST

/* Partition 0 = {0, 1, 2}, partition 1 = {3} (down).  J0 wants 4 nodes of
 * partition 0, J1's time there is "cannot run", J2 may only use the down
 * node; only J3 (2 s) is placed, by every algorithm. */
START_TEST(test_unplaced)
{
	static const int n3[] = { 0, 1, 2 }, n1[] = { 3 };
	static const int p0[] = { 0 }, p1[] = { 1 };
	const tp_het_part parts[] = { { "P", 0, n3, 3 }, { "D", 1, n1, 1 } };
	double ready[4] = { 0, 0, 0, TP_HET_NEVER };
	tp_het_machine m = { 4, ready, parts, 2 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	e.t[0][0][4] = 1;
	e.t[2][1][1] = 1;
	e.t[3][0][1] = 2;
	tp_het_job j[4] = { fx_job(0, 4, 4, p0, 1), fx_job(1, 1, 1, p0, 1),
			    fx_job(2, 1, 1, p1, 1), fx_job(3, 1, 1, p0, 1) };
	for (int a = TP_HET_OLB; a <= TP_HET_PJS; a++) {
		tp_het_plan p;
		fx_plan(&m, 0, j, 4, a, &e, &p);
		ck_assert_uint_eq(p.n, 1);
		ck_assert_uint_eq(p.unplaced, 3);
		fx_assert_assign(&p, 0, 3, 0, 0, 2);
		ck_assert_double_eq_tol(p.total, 2, 1e-9);
		tp_het_plan_fini(&p);
	}
}
END_TEST

/* One node.  J0 (level 1) takes 1 s, J1 (level 0) 10 s.  min-min alone
 * runs J0 first ([0,1], then J1 [1,11]: 12); with the levels J1 goes
 * first, [0,10], and J0 waits: [10,11], total 10 + 11 = 21. */
START_TEST(test_priority_levels)
{
	static const int n1[] = { 0 }, p0[] = { 0 };
	const tp_het_part parts[] = { { "P", 0, n1, 1 } };
	double ready[1] = { 0 };
	tp_het_machine m = { 1, ready, parts, 1 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	e.t[0][0][1] = 1;
	e.t[1][0][1] = 10;
	tp_het_job j[2] = { fx_job(0, 1, 1, p0, 1), fx_job(1, 1, 1, p0, 1) };
	tp_het_plan p;
	fx_plan(&m, 0, j, 2, TP_HET_MIN_MIN, &e, &p);
	fx_assert_assign(&p, 0, 0, 0, 0, 1);
	fx_assert_assign(&p, 1, 1, 0, 1, 11);
	ck_assert_double_eq_tol(p.total, 12, 1e-9);
	tp_het_plan_fini(&p);
	j[0].prio = 1;
	for (int a = TP_HET_OLB; a <= TP_HET_PJS; a++) {
		fx_plan(&m, 0, j, 2, a, &e, &p);
		fx_assert_assign(&p, 0, 1, 0, 0, 10);
		fx_assert_assign(&p, 1, 0, 0, 10, 11);
		ck_assert_double_eq_tol(p.total, 21, 1e-9);
		tp_het_plan_fini(&p);
	}
}
END_TEST

START_TEST(test_expected_free)
{
	/* start + prediction */
	ck_assert_double_eq(tp_het_expected_free(120, 100, 50, 200), 150);
	/* no prediction: the limit */
	ck_assert_double_eq(tp_het_expected_free(120, 100, 0, 200), 200);
	ck_assert_double_eq(tp_het_expected_free(120, 100, -3, 200), 200);
	/* never past the limit */
	ck_assert_double_eq(tp_het_expected_free(120, 100, 500, 200), 200);
	/* outlived its prediction: any moment now */
	ck_assert_double_eq(tp_het_expected_free(300, 100, 50, 400), 301);
	/* ... even past its limit */
	ck_assert_double_eq(tp_het_expected_free(300, 100, 50, 250), 301);
	ck_assert_double_eq(tp_het_expected_free(300, 100, 0, 250), 301);
}
END_TEST

/* Partition {0, 1} at now = 100, node 0 free since 50, node 1 free at
 * 100; three 5 s jobs.  The plan: J0 on node 0 [100,105], J1 on node 1
 * [100,105], J2 on node 0 [105,110] (total 5 + 5 + 10 = 20); the pass
 * starts J0 and J1 only, and keeps the whole plan's total. */
START_TEST(test_pass)
{
	static const int n2[] = { 0, 1 }, p0[] = { 0 };
	const tp_het_part parts[] = { { "P", 0, n2, 2 } };
	double ready[2] = { 50, 100 };
	tp_het_machine m = { 2, ready, parts, 1 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	tp_het_job j[3];
	for (int i = 0; i < 3; i++) {
		e.t[i][0][1] = 5;
		j[i] = fx_job(i, 1, 1, p0, 1);
	}
	for (int a = TP_HET_OLB; a <= TP_HET_PJS; a++) {
		tp_het_plan p;
		tp_error err;
		tp_het_plan_init(&p);
		ck_assert_int_eq(tp_het_pass(&m, 100, j, 3, a, fx_etc_fn, &e,
					     &p, &err), 0);
		ck_assert_uint_eq(p.n, 2);
		fx_assert_assign(&p, 0, 0, 0, 100, 105);
		fx_assert_assign(&p, 1, 1, 0, 100, 105);
		for (size_t i = 0; i < p.n; i++)
			ck_assert_double_le(ready[p.a[i].node[0]], 100);
		ck_assert_int_ne(p.a[0].node[0], p.a[1].node[0]);
		ck_assert_double_eq_tol(p.total, 20, 1e-9);
		tp_het_plan_fini(&p);
	}
}
END_TEST

START_TEST(test_algo_names)
{
	for (int a = TP_HET_OLB; a <= TP_HET_PJS; a++)
		ck_assert_int_eq(tp_het_algo_parse(tp_het_algo_name(a)), a);
	ck_assert_str_eq(tp_het_algo_name(TP_HET_MIN_MAX), "min-max");
	ck_assert_int_eq(tp_het_algo_parse("pjs"), TP_HET_PJS);
	ck_assert_int_eq(tp_het_algo_parse("PJS"), -1);
	ck_assert_int_eq(tp_het_algo_parse("minmin"), -1);
	ck_assert_int_eq(tp_het_algo_parse(""), -1);
	ck_assert_int_eq(tp_het_algo_parse(NULL), -1);
}
END_TEST

START_TEST(test_errors)
{
	static const int n1[] = { 0 }, bad[] = { 0, 7 }, p0[] = { 0 };
	const tp_het_part parts[] = { { "P", 0, n1, 1 } };
	double ready[1] = { 0 };
	tp_het_machine m = { 1, ready, parts, 1 };
	fx_etc e;
	memset(&e, 0, sizeof(e));
	tp_het_job j = fx_job(3, 1, 1, bad, 2);
	tp_het_plan p;
	tp_error err = { "" };
	ck_assert_int_eq(tp_het_schedule(&m, 0, &j, 1, TP_HET_SJS, fx_etc_fn,
					 &e, &p, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "partition 7"));
	ck_assert_uint_eq(p.n, 0);
	j = fx_job(3, 0, 1, p0, 1);
	ck_assert_int_eq(tp_het_schedule(&m, 0, &j, 1, TP_HET_SJS, fx_etc_fn,
					 &e, &p, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "node count"));
	/* a partition naming a node the machine does not have */
	static const int n9[] = { 9 };
	const tp_het_part bad_parts[] = { { "Q", 0, n9, 1 } };
	tp_het_machine bm = { 1, ready, bad_parts, 1 };
	j = fx_job(3, 1, 1, p0, 1);
	ck_assert_int_eq(tp_het_schedule(&bm, 0, &j, 1, TP_HET_OLB, fx_etc_fn,
					 &e, &p, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "partition Q: node 9"));
	/* no jobs: an empty plan */
	fx_plan(&m, 0, NULL, 0, TP_HET_PJS, &e, &p);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_double_eq(p.total, 0);
	tp_het_plan_fini(&p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("het_plan");
	TCase *tc = tcase_create("greedy");
	tcase_add_test(tc, test_min_min);
	tcase_add_test(tc, test_min_max);
	tcase_add_test(tc, test_olb_earliest_start);
	tcase_add_test(tc, test_olb_not_fastest);
	tcase_add_test(tc, test_ties_lower_index);
	tcase_add_test(tc, test_allowed);
	tcase_add_test(tc, test_unplaced);
	tcase_add_test(tc, test_priority_levels);
	suite_add_tcase(s, tc);
	tc = tcase_create("pass");
	tcase_add_test(tc, test_expected_free);
	tcase_add_test(tc, test_pass);
	tcase_add_test(tc, test_algo_names);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
