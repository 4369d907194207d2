/* check_limits.c - unit tests for policy/limits.c: QOS limits per user
 * and per QOS (jobs, CPUs, nodes), association limits along the tree,
 * submit limits, against running usage and what a pass has passed
 * already, worked by hand. */
#include "check_util.h"

#include "policy/limits.h"

/* QOS 0: MaxJobsPU=1; QOS 1: MaxTRESPU cpu=8,node=2; QOS 2: GrpJobs=2,
 * GrpTRES cpu=10; QOS 3: none.  Users 0..2. */
static const tp_qos_limits table[] = {
	{ .max_jobs_pu = 1, .max_cpus_pu = -1, .max_nodes_pu = -1,
	  .grp_jobs = -1, .grp_cpus = -1, .grp_nodes = -1,
	  .max_submit_pu = -1, .grp_submit = -1 },
	{ .max_jobs_pu = -1, .max_cpus_pu = 8, .max_nodes_pu = 2,
	  .grp_jobs = -1, .grp_cpus = -1, .grp_nodes = -1,
	  .max_submit_pu = -1, .grp_submit = -1 },
	{ .max_jobs_pu = -1, .max_cpus_pu = -1, .max_nodes_pu = -1,
	  .grp_jobs = 2, .grp_cpus = 10, .grp_nodes = -1,
	  .max_submit_pu = -1, .grp_submit = -1 },
	TP_QOS_NO_LIMITS,
};

/* A job of QOS q and user u, of no association. */
#define W(q, u) ((tp_limits_who){ .qos = (q), .user = (u), .assoc = -1 })

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
	ck_assert(tp_limits_pass(&l, W(0, 0), 4, 1));
	ck_assert(!tp_limits_pass(&l, W(0, 0), 4, 1)); /* the same pass */
	ck_assert(tp_limits_pass(&l, W(0, 1), 4, 1));  /* another user */
	tp_limits_charge(&l, W(0, 0), 4, 1, 1);         /* user 0's job starts */
	tp_limits_pass_begin(&l);
	ck_assert(!tp_limits_pass(&l, W(0, 0), 1, 1));
	tp_limits_charge(&l, W(0, 0), 4, 1, -1);        /* and ends */
	tp_limits_pass_begin(&l);
	ck_assert(tp_limits_pass(&l, W(0, 0), 1, 1));
	tp_limits_fini(&l);
}
END_TEST

/* MaxTRESPU cpu=8,node=2: 6 CPUs run; 2 more fit, 3 do not; nodes:
 * 1 runs, a 2-node job does not fit, a 1-node job does. */
START_TEST(test_max_tres_per_user)
{
	tp_limits l;
	limits(&l);
	tp_limits_charge(&l, W(1, 2), 6, 1, 1);
	tp_limits_pass_begin(&l);
	ck_assert(!tp_limits_pass(&l, W(1, 2), 3, 1));
	ck_assert(!tp_limits_pass(&l, W(1, 2), 2, 2));
	ck_assert(tp_limits_pass(&l, W(1, 2), 2, 1));
	ck_assert(!tp_limits_pass(&l, W(1, 2), 1, 1)); /* 8 CPUs, 2 nodes held */
	ck_assert(tp_limits_pass(&l, W(1, 0), 8, 2));  /* user 0 has none */
	tp_limits_fini(&l);
}
END_TEST

/* GrpJobs=2, GrpTRES cpu=10 over every user of the QOS. */
START_TEST(test_group_limits)
{
	tp_limits l;
	limits(&l);
	ck_assert(tp_limits_pass(&l, W(2, 0), 6, 1));
	ck_assert(!tp_limits_pass(&l, W(2, 1), 5, 1)); /* 11 CPUs */
	ck_assert(tp_limits_pass(&l, W(2, 1), 4, 1));  /* 10 CPUs, 2 jobs */
	ck_assert(!tp_limits_pass(&l, W(2, 2), 0, 1)); /* a third job */
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
		ck_assert(tp_limits_pass(&l, W(-1, 0), 100, 100));
		ck_assert(tp_limits_pass(&l, W(9, 0), 100, 100));
		ck_assert(tp_limits_pass(&l, W(0, 7), 100, 100));
		ck_assert(tp_limits_pass(&l, W(3, 0), 100, 100));
		tp_limits_charge(&l, W(-1, 0), 100, 100, 1);
	}
	tp_limits_reset(&l);
	ck_assert(tp_limits_pass(&l, W(0, 0), 1, 1));
	tp_limits_fini(&l);
}
END_TEST

/* A reset forgets running usage (a new replay). */
START_TEST(test_reset)
{
	tp_limits l;
	limits(&l);
	tp_limits_charge(&l, W(0, 0), 1, 1, 1);
	tp_limits_pass_begin(&l);
	ck_assert(!tp_limits_pass(&l, W(0, 0), 1, 1));
	tp_limits_reset(&l);
	ck_assert(tp_limits_pass(&l, W(0, 0), 1, 1));
	tp_limits_fini(&l);
}
END_TEST

/* Associations: 0 root (GrpSubmitJobs=5); 1 account A (GrpJobs=2,
 * MaxSubmitJobs=3), 2 account B (GrpTRES cpu=8); users 3 a1 (MaxJobs=1)
 * and 4 a2 of A, 5 b1 and 6 b2 (MaxSubmitJobs=1) of B. */
static const int32_t parent[] = { -1, 0, 0, 1, 1, 2, 2 };

static void assoc_table(tp_assoc_limits *a)
{
	for (int i = 0; i < 7; i++)
		a[i] = TP_ASSOC_NO_LIMITS;
	a[0].grp_submit = 5;
	a[1].grp_jobs = 2;
	a[1].max_submit = 3;
	a[2].grp_cpus = 8;
	a[3].max_jobs = 1;
	a[6].max_submit = 1;
}

static void assoc_limits(tp_limits *l, tp_assoc_limits *a)
{
	assoc_table(a);
	tp_limits_propagate(a, parent, 7);
	limits(l);
	ck_assert_int_eq(tp_limits_init_assoc(l, a, parent, 7), 0);
}

/* A job of QOS q (-1: none), user 0, association x. */
#define A(q, x) ((tp_limits_who){ .qos = (q), .user = 0, .assoc = (x) })

/* Max limits come down to the users that set none; Grp limits stay. */
START_TEST(test_assoc_propagate)
{
	tp_assoc_limits a[7];
	assoc_table(a);
	ck_assert(tp_limits_any_assoc(a, 7));
	ck_assert(!tp_limits_any_assoc(a + 4, 1));
	tp_limits_propagate(a, parent, 7);
	ck_assert_int_eq(a[3].max_jobs, 1);     /* its own */
	ck_assert_int_eq(a[3].max_submit, 3);   /* A's */
	ck_assert_int_eq(a[4].max_submit, 3);
	ck_assert_int_eq(a[4].max_jobs, -1);
	ck_assert_int_eq(a[6].max_submit, 1);   /* its own over none */
	ck_assert_int_eq(a[4].grp_jobs, -1);    /* A's GrpJobs is A's */
}
END_TEST

/* MaxJobs=1 on a1; GrpJobs=2 over A's subtree; B untouched. */
START_TEST(test_assoc_jobs)
{
	tp_limits l;
	tp_assoc_limits a[7];
	assoc_limits(&l, a);
	ck_assert(tp_limits_pass(&l, A(-1, 3), 1, 1));
	ck_assert(!tp_limits_pass(&l, A(-1, 3), 1, 1)); /* a1's MaxJobs */
	ck_assert(tp_limits_pass(&l, A(-1, 4), 1, 1));
	ck_assert(!tp_limits_pass(&l, A(-1, 4), 1, 1)); /* A's GrpJobs */
	ck_assert(tp_limits_pass(&l, A(-1, 5), 1, 1));
	tp_limits_charge(&l, A(-1, 4), 1, 1, 1);   /* a2 runs one */
	tp_limits_charge(&l, A(-1, 4), 1, 1, 1);   /* and another */
	tp_limits_pass_begin(&l);
	ck_assert(!tp_limits_pass(&l, A(-1, 3), 1, 1)); /* A is full */
	tp_limits_charge(&l, A(-1, 4), 1, 1, -1);
	tp_limits_pass_begin(&l);
	ck_assert(tp_limits_pass(&l, A(-1, 3), 1, 1));
	tp_limits_fini(&l);
}
END_TEST

/* GrpTRES cpu=8 on B over b1 and b2; QOS 2's GrpTRES cpu=10 takes its
 * place for a job of QOS 2 (a QOS limit wins over the association's). */
START_TEST(test_assoc_tres_and_qos_first)
{
	tp_limits l;
	tp_assoc_limits a[7];
	assoc_limits(&l, a);
	ck_assert(tp_limits_pass(&l, A(-1, 5), 6, 1));
	ck_assert(!tp_limits_pass(&l, A(-1, 6), 3, 1));
	ck_assert(tp_limits_pass(&l, A(-1, 6), 2, 1));
	tp_limits_pass_begin(&l);
	ck_assert(tp_limits_pass(&l, A(2, 5), 9, 1));   /* 9 > 8, <= 10 */
	ck_assert(!tp_limits_pass(&l, A(2, 6), 2, 1));  /* QOS 2: 11 > 10 */
	/* QOS 0 sets MaxJobsPU=1, not a CPU limit: B's cpu=8 holds. */
	ck_assert(!tp_limits_pass(&l, A(0, 6), 9, 1));
	tp_limits_fini(&l);
}
END_TEST

/* MaxSubmitJobs=1 on b2, 3 on A's users (inherited), GrpSubmitJobs=5
 * at the root; a job that leaves gives its place back. */
START_TEST(test_submit_limits)
{
	tp_limits l;
	tp_assoc_limits a[7];
	assoc_limits(&l, a);
	ck_assert(tp_limits_submit(&l, A(-1, 6)));
	ck_assert(!tp_limits_submit(&l, A(-1, 6)));
	tp_limits_leave(&l, A(-1, 6));
	ck_assert(tp_limits_submit(&l, A(-1, 6)));
	for (int k = 0; k < 3; k++)
		ck_assert(tp_limits_submit(&l, A(-1, 3)));
	ck_assert(!tp_limits_submit(&l, A(-1, 3)));    /* a1: 3 */
	ck_assert(tp_limits_submit(&l, A(-1, 5)));     /* 5 in all */
	ck_assert(!tp_limits_submit(&l, A(-1, 5)));    /* root's 5 */
	tp_limits_reset(&l);
	ck_assert(tp_limits_submit(&l, A(-1, 5)));
	tp_limits_fini(&l);
}
END_TEST

/* QOS MaxSubmitPU=1 and GrpSubmit=2, and the QOS's MaxSubmitPU before
 * the association's MaxSubmitJobs. */
START_TEST(test_qos_submit)
{
	tp_qos_limits q[1] = { TP_QOS_NO_LIMITS };
	q[0].max_submit_pu = 1;
	q[0].grp_submit = 2;
	tp_assoc_limits a[7];
	assoc_table(a);
	tp_limits_propagate(a, parent, 7);
	tp_limits l;
	ck_assert_int_eq(tp_limits_init(&l, q, 1, 3), 0);
	ck_assert_int_eq(tp_limits_init_assoc(&l, a, parent, 7), 0);
	tp_limits_who u0 = { 0, 0, 3 }, u1 = { 0, 1, 3 }, u2 = { 0, 2, 3 };
	ck_assert(tp_limits_submit(&l, u0));
	ck_assert(!tp_limits_submit(&l, u0));   /* MaxSubmitPU */
	ck_assert(tp_limits_submit(&l, u1));
	ck_assert(!tp_limits_submit(&l, u2));   /* GrpSubmit */
	ck_assert(tp_limits_submit(&l, (tp_limits_who){ -1, 2, 3 })); /* a1: 3 */
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
	TCase *ta = tcase_create("assoc");
	tcase_add_test(ta, test_assoc_propagate);
	tcase_add_test(ta, test_assoc_jobs);
	tcase_add_test(ta, test_assoc_tres_and_qos_first);
	tcase_add_test(ta, test_submit_limits);
	tcase_add_test(ta, test_qos_submit);
	suite_add_tcase(s, ta);
	return tp_check_run(s);
}
