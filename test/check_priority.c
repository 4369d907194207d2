/* check_priority.c - unit tests for src/core/priority: multifactor
 * factors, the sum and its rounding, Fair Tree and decayed usage, each
 * against values worked out by hand from Slurm's documented formulas
 * (the working is in the comments). */
#include "check_util.h"
#include "priority/assoc.h"
#include "priority/fairtree.h"
#include "priority/prio.h"

#include <math.h>

/* A 10-node, 320-CPU machine; PriorityMaxAge 1 day. */
static tp_prio_conf conf(void)
{
	tp_prio_conf c;
	tp_prio_conf_default(&c);
	c.max_age = 86400;
	c.nodes = 10;
	c.cpus = 320;
	return c;
}

START_TEST(test_age)
{
	tp_prio_conf c = conf();
	ck_assert(tp_prio_age(&c, 1000 + 43200, 1000) == 0.5);
	ck_assert(tp_prio_age(&c, 500, 1000) == 0);        /* not eligible yet */
	ck_assert(tp_prio_age(&c, 500, 0) == 0);           /* no accrue time */
	ck_assert(tp_prio_age(&c, 1000 + 86400, 1000) == 1.0);
	ck_assert(tp_prio_age(&c, 1000 + 999999, 1000) == 1.0);
	c.max_age = 7 * 86400; /* Slurm's default */
	ck_assert(tp_prio_age(&c, 86400, 1) == (double)86399 / (7 * 86400));
}
END_TEST

START_TEST(test_job_size)
{
	tp_prio_conf c = conf();
	/* favouring large: (2/10 + 64/320) / 2 = 0.2 */
	ck_assert(fabs(tp_prio_job_size(&c, 2, 64, 0) - 0.2) < 1e-15);
	/* no CPU count: the node term alone, not halved */
	ck_assert(fabs(tp_prio_job_size(&c, 2, 0, 0) - 0.2) < 1e-15);
	/* the whole machine: 1 */
	ck_assert(tp_prio_job_size(&c, 10, 320, 0) == 1.0);
	/* favouring small: ((10-2)/10 + (320-64)/320) / 2 = 0.8 */
	c.favor_small = true;
	ck_assert(fabs(tp_prio_job_size(&c, 2, 64, 0) - 0.8) < 1e-15);
	/* more nodes than the machine: the node term is 0; (0 + 0) / 2 */
	ck_assert(tp_prio_job_size(&c, 12, 320, 0) == 0);
	/* SMALL_RELATIVE_TO_TIME: max(2 x 320/10, 16) = 64 CPUs, / 60 min,
	 * / 320 = 1/300; favouring small 1 - 1/300 */
	c.flags = TP_PRIO_SIZE_RELATIVE;
	ck_assert(fabs(tp_prio_job_size(&c, 2, 16, 60) - (1 - 1.0 / 300)) < 1e-15);
	c.favor_small = false;
	/* 100 CPUs beat 2 nodes' 64: 100 / 1 min / 320 */
	ck_assert(fabs(tp_prio_job_size(&c, 2, 100, 1) - 100.0 / 320) < 1e-15);
	/* an unknown machine: 0 */
	c.nodes = 0;
	ck_assert(tp_prio_job_size(&c, 2, 16, 60) == 0);
}
END_TEST

/* The whole sum, by hand:
 *  age 28800/86400 = 1/3, x 1000   =  333.33...
 *  fairshare 0.75 x 10000          = 7500
 *  job size 0.2 x 500              =  100
 *  partition 2/4 x 2000            = 1000
 *  QOS 10/40 x 3000                =  750
 *  nice 100                        = -100
 *  = 9583.33..., truncated: 9583. */
START_TEST(test_sum_and_rounding)
{
	tp_prio_conf c = conf();
	c.w_age = 1000;
	c.w_fs = 10000;
	c.w_js = 500;
	c.w_part = 2000;
	c.w_qos = 3000;
	tp_prio_in in = {
		.now = 1000 + 28800, .eligible = 1000, .nodes = 2, .cpus = 64,
		.part_factor = 2, .part_factor_max = 4, .qos_prio = 10,
		.qos_prio_max = 40, .fairshare = 0.75, .nice = 100,
	};
	tp_prio_factors f;
	tp_prio_compute(&c, &in, &f);
	ck_assert(fabs(f.age - 1.0 / 3) < 1e-15);
	ck_assert(f.fs == 0.75);
	ck_assert(f.part == 0.5);
	ck_assert(f.qos == 0.25);
	ck_assert_uint_eq(f.priority, 9583);
	/* a site factor adds, PriorityFlags=NO_NORMAL_PART takes the
	 * factor as it is: 9583.33 + 5 + (2 - 0.5) x 2000 = 12588.33 */
	in.site = 5;
	c.flags = TP_PRIO_NO_NORMAL_PART;
	tp_prio_compute(&c, &in, &f);
	ck_assert_uint_eq(f.priority, 12588);
	/* a weight of 0 leaves its factor 0 */
	c.w_qos = 0;
	tp_prio_compute(&c, &in, &f);
	ck_assert(f.qos == 0);
	ck_assert_uint_eq(f.priority, 12588 - 750);
	/* below 1: 1 (0 is for held jobs) */
	in.nice = 1000000;
	tp_prio_compute(&c, &in, &f);
	ck_assert_uint_eq(f.priority, 1);
	/* above 2^32 - 1: 2^32 - 1 */
	in.nice = 0;
	c.w_fs = 4000000000u;
	in.fairshare = 1;
	c.w_age = 4000000000u;
	tp_prio_compute(&c, &in, &f);
	ck_assert_uint_eq(f.priority, UINT32_MAX);
}
END_TEST

/* TRES: CPU weight 1000 x 64/320, GPU weight 400 x 2/8: 200 + 100 */
START_TEST(test_tres)
{
	tp_prio_conf c = conf();
	c.w_tres[TP_TRES_CPU] = 1000;
	c.w_tres[TP_TRES_GPU] = 400;
	tp_prio_in in = { .nodes = 2, .cpus = 64 };
	in.tres[TP_TRES_CPU] = 64;
	in.tres[TP_TRES_GPU] = 2;
	in.part_tres[TP_TRES_CPU] = 320;
	in.part_tres[TP_TRES_GPU] = 8;
	tp_prio_factors f;
	tp_prio_compute(&c, &in, &f);
	ck_assert(fabs(f.tres - 300) < 1e-12);
	ck_assert_uint_eq(f.priority, 300);
	/* NO_NORMAL_TRES: the counts: 64 x 1000 + 2 x 400 */
	c.flags = TP_PRIO_NO_NORMAL_TRES;
	tp_prio_compute(&c, &in, &f);
	ck_assert_uint_eq(f.priority, 64800);
}
END_TEST

static int add(tp_assoc_tree *t, const char *acct, const char *user,
	       const char *parent, uint32_t shares)
{
	tp_error err = { "" };
	int i = tp_assoc_add(t, acct, user, parent, shares, 0, &err);
	ck_assert_msg(i > 0, "%s", err.msg);
	return i;
}

/* root: A (60 shares), B (40); A: u1, u2 (1 each); B: u3 (3), u4 (1).
 * Usage (no decay): u1 80, u2 20, u3 300, u4 0: A 100, B 300, root 400.
 * Root's level: A S = 60/100 = 0.6, U = 100/400 = 0.25, LF 2.4;
 *               B S = 0.4, U = 0.75, LF 0.533: A first.
 * A's level: u2 S 0.5 U 0.2 LF 2.5, u1 S 0.5 U 0.8 LF 0.625: u2, u1.
 * B's level: u4 S 0.25 U 0 LF infinite, u3 S 0.75 U 1 LF 0.75: u4, u3.
 * Four users ranked 4, 3, 2, 1: u2 1.0, u1 0.75, u4 0.5, u3 0.25. */
START_TEST(test_fair_tree)
{
	tp_assoc_tree t;
	tp_error err = { "" };
	ck_assert_int_eq(tp_assoc_init(&t, &err), 0);
	add(&t, "A", NULL, NULL, 60);
	add(&t, "B", NULL, "root", 40);
	int u1 = add(&t, "A", "u1", NULL, 1), u2 = add(&t, "A", "u2", NULL, 1);
	int u3 = add(&t, "B", "u3", NULL, 3), u4 = add(&t, "B", "u4", NULL, 1);
	ck_assert_int_eq(tp_assoc_link(&t, &err), 0);
	tp_assoc_charge(&t, u1, 1, 80, 1);
	tp_assoc_charge(&t, u2, 1, 20, 1);
	tp_assoc_charge(&t, u3, 1, 100, 3);
	ck_assert(t.a[0].usage == 400);
	ck_assert_int_eq(tp_fairtree(&t, &err), 0);
	ck_assert(fabsl(t.a[tp_assoc_find(&t, "A", NULL)].level_fs - 2.4L) < 1e-12L);
	ck_assert(fabsl(t.a[u2].level_fs - 2.5L) < 1e-12L);
	ck_assert(isinf(t.a[u4].level_fs));
	ck_assert(t.a[u2].fs == 1.0);
	ck_assert(t.a[u1].fs == 0.75);
	ck_assert(t.a[u4].fs == 0.5);
	ck_assert(t.a[u3].fs == 0.25);
	/* bad trees named */
	ck_assert_int_eq(tp_assoc_add(&t, "C", "u9", NULL, 1, 0, &err), -1);
	ck_assert_str_eq(err.msg, "user u9's account C is not defined");
	ck_assert_int_eq(tp_assoc_add(&t, "A", "u1", NULL, 1, 0, &err), -1);
	ck_assert_str_eq(err.msg, "user u1 in account A given twice");
	ck_assert_int_eq(tp_assoc_add(&t, "D", NULL, "E", 1, 0, &err), -1);
	ck_assert_str_eq(err.msg, "account D's parent E is not defined");
	tp_assoc_fini(&t);
}
END_TEST

/* Ties: two accounts without usage (both infinite) are tied, and the
 * tie passes to the second one's first user: both users rank 2 of 2
 * (1.0).  A user of 0 shares has LF 0 and ranks last; a user of
 * FairShare=parent ranks first (infinite). */
START_TEST(test_fair_tree_ties)
{
	tp_assoc_tree t;
	tp_error err = { "" };
	ck_assert_int_eq(tp_assoc_init(&t, &err), 0);
	add(&t, "C", NULL, NULL, 1);
	add(&t, "D", NULL, NULL, 1);
	int x = add(&t, "C", "x", NULL, 1), y = add(&t, "D", "y", NULL, 1);
	ck_assert_int_eq(tp_assoc_link(&t, &err), 0);
	ck_assert_int_eq(tp_fairtree(&t, &err), 0);
	ck_assert(t.a[x].fs == 1.0);
	ck_assert(t.a[y].fs == 1.0);
	tp_assoc_fini(&t);

	/* E: z0 (0 shares, no usage), zp (parent), z1 (1 share, usage 10):
	 * LF z0 0, zp infinite, z1 1/10: zp 3/3, z1 2/3, z0 1/3 */
	ck_assert_int_eq(tp_assoc_init(&t, &err), 0);
	add(&t, "E", NULL, NULL, 1);
	int z0 = add(&t, "E", "z0", NULL, 0);
	int zp = add(&t, "E", "zp", NULL, TP_SHARES_PARENT);
	int z1 = add(&t, "E", "z1", NULL, 1);
	ck_assert_int_eq(tp_assoc_link(&t, &err), 0);
	tp_assoc_charge(&t, z1, 1, 10, 1);
	ck_assert_int_eq(tp_fairtree(&t, &err), 0);
	ck_assert(t.a[z1].level_fs == 1.0L / 1.0L * 1.0L); /* S 1 (z0 0, zp -), U 1 */
	ck_assert(t.a[zp].fs == 1.0);
	ck_assert(fabs(t.a[z1].fs - 2.0 / 3) < 1e-15);
	ck_assert(fabs(t.a[z0].fs - 1.0 / 3) < 1e-15);
	tp_assoc_fini(&t);
}
END_TEST

/* Decay: df = 1 - 0.693/half-life per second; a half-life of decay takes
 * usage to (1 - 0.693/h)^h ~ e^-0.693 = 0.50007 of itself. */
START_TEST(test_decay)
{
	double h = 7 * 86400.0;
	double df = tp_assoc_decay_factor(h);
	ck_assert(df == 1 - 0.693 / h);
	ck_assert(tp_assoc_decay_factor(0) == 1);
	tp_assoc_tree t;
	tp_error err = { "" };
	ck_assert_int_eq(tp_assoc_init(&t, &err), 0);
	add(&t, "A", NULL, NULL, 1);
	int u = add(&t, "A", "u", NULL, 1);
	ck_assert_int_eq(tp_assoc_link(&t, &err), 0);
	/* one step of 300 s of a 4-CPU job: 300 x df^300 x 4 */
	tp_assoc_charge(&t, u, df, 300, 4);
	long double one = (long double)(300 * pow(df, 300) * 4);
	ck_assert(t.a[u].usage == one);
	ck_assert(t.a[0].usage == one);
	tp_assoc_decay(&t, df, h);
	ck_assert(fabsl(t.a[u].usage / one - 0.50007L) < 1e-4L);
	tp_assoc_fini(&t);
}
END_TEST

/* Usage across a history boundary: a job that ran 3600 s on 4 CPUs in
 * the history, charged in steps of 300 s (each step decays what was there
 * and adds 300 x df^300 x 4), then 86400 s of decay up to the window,
 * equals the closed form sum_{k=0}^{11} 1200 df^300 (df^300)^(11-k) x
 * df^86400, whichever steps the window's start falls between. */
START_TEST(test_history_boundary)
{
	double df = tp_assoc_decay_factor(86400);
	tp_assoc_tree t;
	tp_error err = { "" };
	ck_assert_int_eq(tp_assoc_init(&t, &err), 0);
	add(&t, "A", NULL, NULL, 1);
	int u = add(&t, "A", "u", NULL, 1);
	ck_assert_int_eq(tp_assoc_link(&t, &err), 0);
	for (int k = 0; k < 12; k++) {
		tp_assoc_decay(&t, df, 300);
		tp_assoc_charge(&t, u, df, 300, 4);
	}
	tp_assoc_decay(&t, df, 43200); /* the history ends */
	tp_assoc_decay(&t, df, 43200); /* the window's first step */
	double step = 1200 * pow(df, 300), sum = 0;
	for (int k = 0; k < 12; k++)
		sum += step * pow(pow(df, 300), 11 - k);
	sum *= pow(df, 86400);
	ck_assert(fabsl(t.a[u].usage - (long double)sum) / sum < 1e-12);
	tp_assoc_fini(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("priority");
	TCase *tc = tcase_create("multifactor");
	tcase_add_test(tc, test_age);
	tcase_add_test(tc, test_job_size);
	tcase_add_test(tc, test_sum_and_rounding);
	tcase_add_test(tc, test_tres);
	tcase_add_test(tc, test_fair_tree);
	tcase_add_test(tc, test_fair_tree_ties);
	tcase_add_test(tc, test_decay);
	tcase_add_test(tc, test_history_boundary);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
