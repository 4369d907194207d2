/* check_sched_topo_seen.c - sched/topo's record of the running jobs it has
 * seen: which jobs slurmctld started between two cycles. */
#include <check.h>
#include <stdint.h>

#include "check_util.h"
#include "st_seen.h"

/* One cycle that sees `ids`; returns how many were new. */
static int cycle(st_seen *s, const uint32_t *ids, size_t n)
{
	int fresh = 0;
	for (size_t i = 0; i < n; i++) {
		int r = st_seen_note(s, ids[i]);
		ck_assert_int_ge(r, 0);
		fresh += r;
	}
	st_seen_end(s, 0);
	return fresh;
}

START_TEST(first_cycle_after_reset_only_records)
{
	st_seen s;
	st_seen_init(&s, 100);
	ck_assert_int_eq(s.since, 100);
	/* Start-up is an empty cycle: every job is new to it (the caller
	 * drops those that started before `since`). */
	ck_assert_int_eq(st_seen_note(&s, 1), 1);
	st_seen_reset(&s);
	ck_assert_int_eq(cycle(&s, (uint32_t[]){ 7, 3, 9 }, 3), 0);
	/* The same jobs again: nothing new; one more: new. */
	ck_assert_int_eq(cycle(&s, (uint32_t[]){ 9, 3, 7 }, 3), 0);
	ck_assert_int_eq(cycle(&s, (uint32_t[]){ 3, 12, 7, 9 }, 4), 1);
	st_seen_fini(&s);
}
END_TEST

START_TEST(ended_jobs_are_forgotten)
{
	st_seen s;
	st_seen_init(&s, 0);
	st_seen_reset(&s);
	cycle(&s, (uint32_t[]){ 1, 2 }, 2);
	cycle(&s, (uint32_t[]){ 2 }, 1);      /* 1 ended */
	/* Job ids are not reused while slurmctld runs, but a record that
	 * left and came back (a requeued job restarted) is a new start. */
	ck_assert_int_eq(cycle(&s, (uint32_t[]){ 1, 2 }, 2), 1);
	st_seen_fini(&s);
}
END_TEST

START_TEST(duplicates_in_a_cycle)
{
	/* A job on nodes of two partitions may be noted twice. */
	st_seen s;
	st_seen_init(&s, 0);
	st_seen_reset(&s);
	cycle(&s, (uint32_t[]){ 5 }, 1);
	ck_assert_int_eq(cycle(&s, (uint32_t[]){ 5, 5, 6 }, 3), 1);
	ck_assert_uint_eq(s.nprev, 2);
	ck_assert_int_eq(cycle(&s, (uint32_t[]){ 6, 5 }, 2), 0);
	st_seen_fini(&s);
}
END_TEST

START_TEST(reset_and_many)
{
	st_seen s;
	st_seen_init(&s, 0);
	st_seen_reset(&s);
	for (uint32_t i = 0; i < 1000; i++)
		ck_assert_int_eq(st_seen_note(&s, 1000 - i), 0);
	st_seen_end(&s, 0);
	int fresh = 0;
	for (uint32_t i = 1; i <= 1100; i++)
		fresh += st_seen_note(&s, i);
	st_seen_end(&s, 0);
	ck_assert_int_eq(fresh, 100);
	st_seen_reset(&s);
	ck_assert_int_eq(cycle(&s, (uint32_t[]){ 4000 }, 1), 0);
	st_seen_end(&s, 1234);
	ck_assert_int_eq(s.since, 1234);
	ck_assert_uint_eq(s.nprev, 0); /* nothing noted in that cycle */
	st_seen_fini(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sched_topo_seen");
	TCase *tc = tcase_create("seen");
	tcase_add_test(tc, first_cycle_after_reset_only_records);
	tcase_add_test(tc, ended_jobs_are_forgotten);
	tcase_add_test(tc, duplicates_in_a_cycle);
	tcase_add_test(tc, reset_and_many);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
