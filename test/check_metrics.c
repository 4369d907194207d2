/* check_metrics.c - unit tests for metrics.c. */
#include "check_util.h"
#include "engine/metrics.h"

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

int main(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("summary");
	tcase_add_test(tc, test_useful_counts_requested_nodes);
	tcase_add_test(tc, test_useful_equals_utilisation_without_transit);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
