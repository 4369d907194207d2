/* check_metrics.c - unit tests for metrics.c. */
#include "check_util.h"
#include "engine/metrics.h"
#include "engine/metrics_dist.h"

#include <math.h>

/* Two jobs on 8 nodes over 15 s: A asks for 2 nodes and is given 3 (one
 * transit node) for 0-10; B asks for and gets 4, waits 5 s of its 20 s
 * limit and runs 5-15.  Utilisation counts the nodes given, useful
 * utilisation the nodes asked for. */
START_TEST(test_useful_counts_requested_nodes)
{
	tp_record rec[] = {
		{ .id = 1, .submit = 0, .start = 0, .end = 10, .nodes_req = 2,
		  .nodes_alloc = 3, .estimate = 10, .status = TP_COMPLETED,
		  .attempt = 1, .cost = -1 },
		{ .id = 2, .submit = 0, .start = 5, .end = 15, .nodes_req = 4,
		  .nodes_alloc = 4, .estimate = 20, .status = TP_COMPLETED,
		  .attempt = 1, .cost = -1 },
	};
	tp_sim_result r = { .rec = rec, .nrec = 2, .nodes = 8,
			    .first_submit = 0, .last_end = 15 };
	tp_summary s;
	tp_summarize(&r, &s);
	ck_assert_int_eq(s.makespan, 15);
	ck_assert(fabs(s.utilisation - 70.0 / 120.0) < 1e-12);
	ck_assert(fabs(s.useful_utilisation - 60.0 / 120.0) < 1e-12);
	/* Q/Wtime: (0/10 + 5/20) / 2 */
	ck_assert(fabs(s.mean_wait_over_estimate - 0.125) < 1e-12);
}
END_TEST

/* Without transit nodes the two utilisations are the same number. */
START_TEST(test_useful_equals_utilisation_without_transit)
{
	tp_record rec[] = {
		{ .id = 1, .submit = 0, .start = 2, .end = 9, .nodes_req = 5,
		  .nodes_alloc = 5, .estimate = 9, .status = TP_COMPLETED,
		  .attempt = 1, .cost = -1 },
	};
	tp_sim_result r = { .rec = rec, .nrec = 1, .nodes = 6,
			    .first_submit = 0, .last_end = 9 };
	tp_summary s;
	tp_summarize(&r, &s);
	ck_assert(s.useful_utilisation == s.utilisation);
	ck_assert(fabs(s.utilisation - 35.0 / 54.0) < 1e-12);
}
END_TEST

/* Nearest rank: rank ceil(p n / 100), always one of the values. */
START_TEST(test_nearest_rank)
{
	double v[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
	ck_assert(tp_nearest_rank(v, 10, 50) == 50);  /* rank 5 */
	ck_assert(tp_nearest_rank(v, 10, 90) == 90);  /* rank 9 */
	ck_assert(tp_nearest_rank(v, 10, 91) == 100); /* rank ceil(9.1) */
	ck_assert(tp_nearest_rank(v, 10, 99) == 100);
	ck_assert(tp_nearest_rank(v, 10, 100) == 100);
	ck_assert(tp_nearest_rank(v, 10, 1) == 10);
	ck_assert(tp_nearest_rank(v, 1, 50) == 10);
	/* 4 values: the median is the 2nd (no interpolation to 25) */
	ck_assert(tp_nearest_rank(v, 4, 50) == 20);
	ck_assert(tp_nearest_rank(v, 4, 51) == 30);
}
END_TEST

START_TEST(test_quantiles_sort_and_mean)
{
	double v[200];
	for (int i = 0; i < 200; i++)
		v[i] = (double)(199 - i); /* 199 .. 0, unsorted */
	tp_quantiles q;
	tp_quantiles_of(v, 200, &q);
	ck_assert(fabs(q.mean - 99.5) < 1e-12);
	ck_assert(q.median == 99); /* rank 100 */
	ck_assert(q.p90 == 179);   /* rank 180 */
	ck_assert(q.p95 == 189);   /* rank 190 */
	ck_assert(q.p99 == 197);   /* rank 198 */
	ck_assert(q.max == 199);
	tp_quantiles_of(v, 0, &q);
	ck_assert(q.mean == 0 && q.median == 0 && q.max == 0);
}
END_TEST

START_TEST(test_size_classes)
{
	static const int edge[][2] = { { 1, 0 }, { 2, 1 }, { 4, 1 }, { 5, 2 },
				       { 16, 2 }, { 17, 3 }, { 64, 3 },
				       { 65, 4 }, { 256, 4 }, { 257, 5 },
				       { 1024, 5 }, { 1025, 6 }, { 1 << 20, 6 } };
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		ck_assert_msg(tp_size_class(edge[i][0]) == edge[i][1],
			      "%d nodes: class %d", edge[i][0],
			      tp_size_class(edge[i][0]));
	int lo, hi;
	tp_size_class_bounds(0, &lo, &hi);
	ck_assert(lo == 1 && hi == 1);
	tp_size_class_bounds(2, &lo, &hi);
	ck_assert(lo == 5 && hi == 16);
	tp_size_class_bounds(TP_SIZE_CLASSES - 1, &lo, &hi);
	ck_assert(lo == 1025 && hi == -1);
	/* the bounds and the class agree everywhere below 5000 */
	for (int n = 1; n < 5000; n++) {
		tp_size_class_bounds(tp_size_class(n), &lo, &hi);
		ck_assert(n >= lo && (hi < 0 || n <= hi));
	}
}
END_TEST

static tp_record run(int64_t submit, int64_t start, int64_t end, int nodes)
{
	return (tp_record){ .submit = submit, .start = start, .end = end,
			    .nodes_req = nodes, .nodes_alloc = nodes,
			    .estimate = end - start, .status = TP_COMPLETED,
			    .attempt = 1, .cost = -1 };
}

/* Five runs by hand: three of one node waiting 0, 10, 100 s; two of 20
 * nodes waiting 50 and 1000 s.  Runs last 100 s, except the third of one
 * node, 5 s (bounded slowdown (100 + 5) / 10). */
START_TEST(test_dist_by_hand)
{
	tp_record rec[] = {
		run(0, 0, 100, 1), run(0, 50, 150, 20), run(0, 10, 110, 1),
		run(0, 100, 105, 1), run(0, 1000, 1100, 20),
	};
	tp_sim_result r = { .rec = rec, .nrec = 5, .nodes = 64,
			    .first_submit = 0, .last_end = 1100 };
	tp_dist d;
	ck_assert_int_eq(tp_summarize_dist(&r, &d), 0);
	ck_assert_uint_eq(d.all.runs, 5);
	/* waits 0 10 50 100 1000: median rank 3 */
	ck_assert(d.all.wait.median == 50);
	ck_assert(d.all.wait.p90 == 1000 && d.all.wait.max == 1000);
	ck_assert(fabs(d.all.wait.mean - 232) < 1e-12);
	/* response times 100 105 110 150 1100 */
	ck_assert(d.all.response.median == 110);
	ck_assert(d.all.response.max == 1100);
	/* bounded slowdowns 1, 1.1, 10.5, 1.5, 11 */
	ck_assert(fabs(d.all.bsld.median - 1.5) < 1e-12);
	ck_assert(fabs(d.all.bsld.max - 11) < 1e-12);
	/* classes: 1 node (3 runs), 17-64 (2 runs), the rest empty */
	ck_assert_uint_eq(d.cls[0].runs, 3);
	ck_assert_uint_eq(d.cls[3].runs, 2);
	size_t total = 0;
	for (int c = 0; c < TP_SIZE_CLASSES; c++)
		total += d.cls[c].runs;
	ck_assert_uint_eq(total, 5);
	ck_assert(d.cls[0].wait.median == 10 && d.cls[0].wait.max == 100);
	ck_assert(fabs(d.cls[0].bsld.max - 10.5) < 1e-12);
	ck_assert(d.cls[3].wait.median == 50 && d.cls[3].wait.max == 1000);
	ck_assert(d.cls[3].response.median == 150);
	ck_assert(d.cls[1].wait.max == 0 && d.cls[1].runs == 0);
	/* the means agree with tp_summarize's */
	tp_summary s;
	tp_summarize(&r, &s);
	ck_assert(fabs(s.mean_wait - d.all.wait.mean) < 1e-9);
	ck_assert(fabs(s.mean_bsld - d.all.bsld.mean) < 1e-9);
}
END_TEST

START_TEST(test_dist_empty)
{
	tp_sim_result r = { .nodes = 4 };
	tp_dist d;
	ck_assert_int_eq(tp_summarize_dist(&r, &d), 0);
	ck_assert_uint_eq(d.all.runs, 0);
	ck_assert(d.all.wait.max == 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("summary");
	tcase_add_test(tc, test_useful_counts_requested_nodes);
	tcase_add_test(tc, test_useful_equals_utilisation_without_transit);
	suite_add_tcase(s, tc);
	tc = tcase_create("distributions");
	tcase_add_test(tc, test_nearest_rank);
	tcase_add_test(tc, test_quantiles_sort_and_mean);
	tcase_add_test(tc, test_size_classes);
	tcase_add_test(tc, test_dist_by_hand);
	tcase_add_test(tc, test_dist_empty);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
