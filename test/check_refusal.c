/* check_refusal.c - a start the executor refused: "never" against "not
 * now" (Slurm's main scheduler's rule), the sit-outs and reporting each
 * job's refusal once (driver/refusal.h). */
#include <check.h>
#include <stdint.h>

#include "check_util.h"
#include "driver/refusal.h"

static tp_refusal_facts never_both(void)
{
	return (tp_refusal_facts){ .placed = TP_REFUSED_NEVER,
				   .asked_anywhere = true,
				   .anywhere = TP_REFUSED_NEVER };
}

START_TEST(never_needs_never_everywhere)
{
	tp_refusal_facts f = never_both();
	ck_assert_int_eq(tp_refusal_judge(&f), TP_REFUSAL_NEVER);
	/* Not asked on every node: the policy's choice may be at fault. */
	f.asked_anywhere = false;
	ck_assert_int_eq(tp_refusal_judge(&f), TP_REFUSAL_NOT_NOW);
	/* Accepted anywhere: the policy's nodes were wrong for it. */
	f = never_both();
	f.anywhere_ok = true;
	ck_assert_int_eq(tp_refusal_judge(&f), TP_REFUSAL_NOT_NOW);
	/* Anywhere only busy now. */
	f = never_both();
	f.anywhere = TP_REFUSED_BUSY;
	ck_assert_int_eq(tp_refusal_judge(&f), TP_REFUSAL_NOT_NOW);
	/* A reservation, several partitions, later constraints: Slurm
	 * never holds those. */
	f = never_both();
	f.may_change = true;
	ck_assert_int_eq(tp_refusal_judge(&f), TP_REFUSAL_NOT_NOW);
}
END_TEST

START_TEST(waits_are_never_never)
{
	tp_refusal_cause c[] = { TP_REFUSED_BUSY, TP_REFUSED_LIMIT,
				 TP_REFUSED_PARTITION };
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		tp_refusal_facts f = never_both();
		f.placed = c[i];
		ck_assert_int_eq(tp_refusal_judge(&f), TP_REFUSAL_NOT_NOW);
	}
}
END_TEST

START_TEST(sit_outs_double_up_to_the_cap)
{
	tp_refusals t;
	tp_refusals_init(&t, 5, 30);
	ck_assert_int_eq(tp_refusals_delay(&t, 1), 5);
	ck_assert_int_eq(tp_refusals_delay(&t, 2), 10);
	ck_assert_int_eq(tp_refusals_delay(&t, 3), 20);
	ck_assert_int_eq(tp_refusals_delay(&t, 4), 30);
	ck_assert_int_eq(tp_refusals_delay(&t, 60), 30);
	/* Refused at 100: out until 105, back at 105. */
	ck_assert_int_eq(tp_refusals_note(&t, 7, 2, 100), 1);
	ck_assert(!tp_refusals_sits_out(&t, 8, 100));
	ck_assert(tp_refusals_sits_out(&t, 7, 100));
	ck_assert(tp_refusals_sits_out(&t, 7, 104));
	ck_assert(!tp_refusals_sits_out(&t, 7, 105));
	/* Refused again: a repeat (not reported), out twice as long. */
	ck_assert_int_eq(tp_refusals_note(&t, 7, 2, 105), 0);
	ck_assert(tp_refusals_sits_out(&t, 7, 114));
	ck_assert(!tp_refusals_sits_out(&t, 7, 115));
	tp_refusals_fini(&t);
}
END_TEST

START_TEST(reported_once_per_cause)
{
	tp_refusals t;
	tp_refusals_init(&t, 1, 8);
	int reports = 0;
	for (int64_t now = 0; now < 100; now++)
		if (!tp_refusals_sits_out(&t, 3, now))
			reports += tp_refusals_note(&t, 3, 11, now);
	ck_assert_int_eq(reports, 1);
	/* Another code: told again, and the sit-outs start over. */
	ck_assert_int_eq(tp_refusals_note(&t, 3, 12, 100), 1);
	ck_assert(!tp_refusals_sits_out(&t, 3, 101));
	/* Started: forgotten; a later refusal is a new one. */
	tp_refusals_forget(&t, 3);
	ck_assert_uint_eq(t.jobs.n, 0);
	ck_assert_int_eq(tp_refusals_note(&t, 3, 12, 200), 1);
	tp_refusals_fini(&t);
}
END_TEST

START_TEST(jobs_not_queued_are_dropped)
{
	tp_refusals t;
	tp_refusals_init(&t, 2, 2);
	for (int64_t j = 20; j > 0; j--)
		ck_assert_int_eq(tp_refusals_note(&t, j, 1, 0), 1);
	ck_assert_uint_eq(t.jobs.n, 20);
	for (size_t i = 1; i < t.jobs.n; i++)
		ck_assert_int_lt(((tp_refusal *)tp_id_table_at(&t.jobs, i - 1))->job,
				  ((tp_refusal *)tp_id_table_at(&t.jobs, i))->job);
	tp_refusals_unsee(&t);
	/* Only the even jobs are still queued (asked) this cycle. */
	for (int64_t j = 2; j <= 20; j += 2)
		(void)tp_refusals_sits_out(&t, j, 1);
	ck_assert_uint_eq(tp_refusals_drop_unseen(&t), 10);
	ck_assert_uint_eq(t.jobs.n, 10);
	for (size_t i = 0; i < t.jobs.n; i++)
		ck_assert_int_eq(((tp_refusal *)tp_id_table_at(&t.jobs, i))->job % 2, 0);
	/* A dropped job that comes back (released after a change) is
	 * reported again when refused. */
	ck_assert_int_eq(tp_refusals_note(&t, 5, 1, 3), 1);
	ck_assert_int_eq(tp_refusals_note(&t, 6, 1, 3), 0);
	tp_refusals_fini(&t);
}
END_TEST

START_TEST(bad_bounds_are_made_sane)
{
	tp_refusals t;
	tp_refusals_init(&t, 0, -4);
	ck_assert_int_eq(t.base, 1);
	ck_assert_int_eq(t.max, 1);
	ck_assert_int_eq(tp_refusals_delay(&t, 5), 1);
	tp_refusals_fini(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("refusal");
	TCase *tc = tcase_create("refusal");
	tcase_add_test(tc, never_needs_never_everywhere);
	tcase_add_test(tc, waits_are_never_never);
	tcase_add_test(tc, sit_outs_double_up_to_the_cap);
	tcase_add_test(tc, reported_once_per_cause);
	tcase_add_test(tc, jobs_not_queued_are_dropped);
	tcase_add_test(tc, bad_bounds_are_made_sane);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
