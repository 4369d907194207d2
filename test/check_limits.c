/* check_limits.c - unit tests for policy/limits.c: QOS limits per user
 * and per QOS (jobs, CPUs, nodes) against running usage and what a pass
 * has passed already, worked by hand. */
#include "check_util.h"

#include "policy/limits.h"

/* QOS 0: MaxJobsPU=1; QOS 1: MaxTRESPU cpu=8,node=2; QOS 2: GrpJobs=2,
 * GrpTRES cpu=10; QOS 3: none.  Users 0..2. */
static const tp_qos_limits table[] = {
	{ .max_jobs_pu = 1, .max_cpus_pu = -1, .max_nodes_pu = -1,
	  .grp_jobs = -1, .grp_cpus = -1, .grp_nodes = -1 },
	{ .max_jobs_pu = -1, .max_cpus_pu = 8, .max_nodes_pu = 2,
	  .grp_jobs = -1, .grp_cpus = -1, .grp_nodes = -1 },
	{ .max_jobs_pu = -1, .max_cpus_pu = -1, .max_nodes_pu = -1,
	  .grp_jobs = 2, .grp_cpus = 10, .grp_nodes = -1 },
	{ -1, -1, -1, -1, -1, -1 },
};

static void limits(tp_limits *l)
{
	ck_assert_int_eq(tp_limits_init(l, table, 4, 3), 0);
	tp_limits_pass_begin(l);
}

START_TEST(test_any)
{
	ck_assert(tp_limits_any(table, 4));
	ck_assert(!tp_limits_any(&table[3], 1));
	ck_assert(!tp_limits_any(table, 0));
}
END_TEST

/* MaxJobsPU=1: one job of a user per pass and while one runs; another
 * user is not held; the end gives the room back. */
START_TEST(test_max_jobs_per_user)
{
	tp_limits l;
	limits(&l);
	ck_assert(tp_limits_pass(&l, 0, 0, 4, 1));
	ck_assert(!tp_limits_pass(&l, 0, 0, 4, 1)); /* the same pass */
	ck_assert(tp_limits_pass(&l, 0, 1, 4, 1));  /* another user */
	tp_limits_charge(&l, 0, 0, 4, 1, 1);         /* user 0's job starts */
	tp_limits_pass_begin(&l);
	ck_assert(!tp_limits_pass(&l, 0, 0, 1, 1));
	tp_limits_charge(&l, 0, 0, 4, 1, -1);        /* and ends */
	tp_limits_pass_begin(&l);
	ck_assert(tp_limits_pass(&l, 0, 0, 1, 1));
	tp_limits_fini(&l);
}
END_TEST

/* MaxTRESPU cpu=8,node=2: 6 CPUs run; 2 more fit, 3 do not; nodes:
 * 1 runs, a 2-node job does not fit, a 1-node job does. */
START_TEST(test_max_tres_per_user)
{
	tp_limits l;
	limits(&l);
	tp_limits_charge(&l, 1, 2, 6, 1, 1);
	tp_limits_pass_begin(&l);
	ck_assert(!tp_limits_pass(&l, 1, 2, 3, 1));
	ck_assert(!tp_limits_pass(&l, 1, 2, 2, 2));
	ck_assert(tp_limits_pass(&l, 1, 2, 2, 1));
	ck_assert(!tp_limits_pass(&l, 1, 2, 1, 1)); /* 8 CPUs, 2 nodes held */
	ck_assert(tp_limits_pass(&l, 1, 0, 8, 2));  /* user 0 has none */
	tp_limits_fini(&l);
}
END_TEST

/* GrpJobs=2, GrpTRES cpu=10 over every user of the QOS. */
START_TEST(test_group_limits)
{
	tp_limits l;
	limits(&l);
	ck_assert(tp_limits_pass(&l, 2, 0, 6, 1));
	ck_assert(!tp_limits_pass(&l, 2, 1, 5, 1)); /* 11 CPUs */
	ck_assert(tp_limits_pass(&l, 2, 1, 4, 1));  /* 10 CPUs, 2 jobs */
	ck_assert(!tp_limits_pass(&l, 2, 2, 0, 1)); /* a third job */
	tp_limits_fini(&l);
}
END_TEST

/* No QOS, a QOS or user out of the table, a QOS without limits: never
 * held, never charged. */
START_TEST(test_unknown_never_held)
{
	tp_limits l;
	limits(&l);
	for (int k = 0; k < 3; k++) {
		ck_assert(tp_limits_pass(&l, -1, 0, 100, 100));
		ck_assert(tp_limits_pass(&l, 9, 0, 100, 100));
		ck_assert(tp_limits_pass(&l, 0, 7, 100, 100));
		ck_assert(tp_limits_pass(&l, 3, 0, 100, 100));
		tp_limits_charge(&l, -1, 0, 100, 100, 1);
	}
	tp_limits_reset(&l);
	ck_assert(tp_limits_pass(&l, 0, 0, 1, 1));
	tp_limits_fini(&l);
}
END_TEST

/* A reset forgets running usage (a new replay). */
START_TEST(test_reset)
{
	tp_limits l;
	limits(&l);
	tp_limits_charge(&l, 0, 0, 1, 1, 1);
	tp_limits_pass_begin(&l);
	ck_assert(!tp_limits_pass(&l, 0, 0, 1, 1));
	tp_limits_reset(&l);
	ck_assert(tp_limits_pass(&l, 0, 0, 1, 1));
	tp_limits_fini(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("qos");
	tcase_add_test(tc, test_any);
	tcase_add_test(tc, test_max_jobs_per_user);
	tcase_add_test(tc, test_max_tres_per_user);
	tcase_add_test(tc, test_group_limits);
	tcase_add_test(tc, test_unknown_never_held);
	tcase_add_test(tc, test_reset);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
