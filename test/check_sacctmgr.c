/* check_sacctmgr.c - unit tests for sacctmgr.c and site_prio.c: both of
 * sacctmgr's forms read into the same tree, slurm.conf's priority keys,
 * and bad input named by file, line and value. */
#include "check_util.h"
#include "site/sacctmgr.h"
#include "site/site.h"
#include "tmpdir_util.h"

#include <stdbool.h>
#include <string.h>

static void setup(void)
{
	ck_assert_int_eq(tmpdir_make("check_sacctmgr"), 0);
}

static void teardown(void)
{
	tmpdir_remove();
}

/* root -> phys (50) -> {alice 1, bob parent}; root -> chem (30, prio 5)
 * -> sub (2) -> carol 3; with root_user, root -> root's own user (1). */
static void check_tree_root(const tp_assoc_tree *t, bool root_user)
{
	ck_assert_uint_eq(t->nusers, 3 + root_user);
	int phys = tp_assoc_find(t, "phys", NULL), sub = tp_assoc_find(t, "sub", NULL);
	int chem = tp_assoc_find(t, "chem", NULL);
	int alice = tp_assoc_find(t, "phys", "alice"), bob = tp_assoc_find(t, "phys", "bob");
	int carol = tp_assoc_find(t, "sub", "carol");
	ck_assert_int_gt(phys, 0);
	ck_assert_int_gt(carol, 0);
	ck_assert_int_eq(t->a[phys].parent, 0);
	ck_assert_int_eq(t->a[sub].parent, chem);
	ck_assert_int_eq(t->a[carol].parent, sub);
	ck_assert_int_eq(t->a[alice].parent, phys);
	ck_assert_uint_eq(t->a[phys].shares, 50);
	ck_assert_uint_eq(t->a[bob].shares, TP_SHARES_PARENT);
	ck_assert_uint_eq(t->a[carol].shares, 3);
	ck_assert_uint_eq(t->a[chem].priority, 5);
	ck_assert_int_eq(t->a[carol].fs_parent, sub);
	ck_assert_uint_eq(t->a[0].nkids, 2 + root_user);
	if (root_user)
		ck_assert_int_eq(t->a[tp_assoc_find(t, "root", "root")].parent, 0);
}

static void check_tree(const tp_assoc_tree *t)
{
	check_tree_root(t, false);
}

START_TEST(test_show_assoc)
{
	tp_assoc_tree t;
	tp_error err = { "" };
	const char *path = tmpdir_write("assoc.txt",
		"Cluster|Account|User|Partition|Share|Priority|Par Name\n"
		"c|root|||1||\n"
		"c|root|root||1||\n"
		"c|phys|||50||root\n"
		"c|phys|alice||1||\n"
		"c|phys|bob||parent||\n"
		"c|chem|||30|5|root\n"
		"c|sub|||2||chem\n"
		"c|sub|carol||3||\n");
	ck_assert_msg(tp_sacctmgr_read(path, &t, &err) == 0, "%s", err.msg);
	check_tree_root(&t, true); /* root's own user too */
	tp_assoc_fini(&t);
}
END_TEST

START_TEST(test_dump)
{
	tp_assoc_tree t;
	tp_error err = { "" };
	const char *path = tmpdir_write("dump.cfg",
		"# To edit this file start with a cluster line for the new cluster\n"
		"Cluster - 'c':Fairshare=1:QOS='normal'\n"
		/* QOS definitions, as 24.11's and 26.05's dumps have them */
		"QOS - 'normal':Description='Normal QOS default'\n"
		"QOS - 'high':Description='high':MaxJobsPU=2:Priority=100\n"
		"Parent - 'root'\n"
		"User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1\n"
		"Account - 'phys':Description='phys':Organization='phys':Fairshare=50\n"
		"Account - 'chem':Description='chem':Fairshare=30:Priority=5\n"
		"Parent - 'phys'\n"
		"User - 'alice':DefaultAccount='phys':Fairshare=1\n"
		"User - 'bob':DefaultAccount='phys':Fairshare=parent\n"
		"Parent - 'chem'\n"
		"Account - 'sub':Fairshare=2\n"
		"Parent - 'sub'\n"
		"User - 'carol':Fairshare=3\n");
	ck_assert_msg(tp_sacctmgr_read(path, &t, &err) == 0, "%s", err.msg);
	/* root's own user association is one of the users Fair Tree ranks
	 * (slurmctld's fairshare factors count it) */
	check_tree_root(&t, true);
	tp_assoc_fini(&t);
	/* the same tree from the table without root's user */
	path = tmpdir_write("assoc.txt",
		"Account|User|Share|Priority|ParentName\n"
		"phys||50||\n"
		"phys|alice|1||\n"
		"phys|bob|parent||\n"
		"chem||30|5|root\n"
		"sub||2||chem\n"
		"sub|carol|3||\n");
	ck_assert_msg(tp_sacctmgr_read(path, &t, &err) == 0, "%s", err.msg);
	check_tree(&t);
	tp_assoc_fini(&t);
}
END_TEST

static void expect_error(const char *text, const char *msg)
{
	tp_assoc_tree t;
	tp_error err = { "" };
	ck_assert_int_eq(tp_sacctmgr_read(tmpdir_write("bad.txt", text), &t, &err), -1);
	ck_assert_msg(strstr(err.msg, msg), "'%s' lacks '%s'", err.msg, msg);
	ck_assert_uint_eq(t.n, 0);
}

START_TEST(test_errors)
{
	expect_error("Account|User|Share\nphys||x\n", "bad.txt:2: bad Share 'x'");
	expect_error("Account|User\nphys|\n", "bad.txt:1: the header lacks Account or Share");
	expect_error("Account|User|Share\nphys|alice|1\n",
		     "bad.txt:2: user alice's account phys is not defined");
	expect_error("Account|User|Share|ParentName\nphys||1|nope\n",
		     "bad.txt:2: account phys's parent nope is not defined");
	expect_error("Account|User|Share\nphys||1\nphys||1\n", "bad.txt:3: account phys given twice");
	expect_error("Cluster|Account|User|Share\na|phys||1\nb|chem||1\n",
		     "bad.txt:3: a second cluster");
	expect_error("Account|User|Share|Partition\nphys||1|debug\n",
		     "bad.txt:2: a per-partition association (not modelled) 'debug'");
	expect_error("Account|User|Share\nphys||1\n", "bad.txt: no user association");
	expect_error("Account|User|Share\nphys||1|2\n", "bad.txt:2: another number of");
	expect_error("User - 'x':Fairshare=1\n", "bad.txt:1: an association before any Parent line");
	expect_error("Parent - 'root'\nAccount - 'a':Fairshare=-1\n", "bad.txt:2: bad Share '-1'");
	expect_error("Parent - root\n", "bad.txt:1: expected a quoted name");
	expect_error("Parent - 'root'\nNode - 'x'\n", "bad.txt:2: not a line of sacctmgr dump");
	expect_error("", "bad.txt: empty: no associations");
}
END_TEST

/* slurm.conf's priority keys and Slurm's defaults. */
START_TEST(test_priority_keys)
{
	tp_site s;
	tp_error err = { "" };
	const char *path = tmpdir_write("slurm.conf", "NodeName=n1 CPUs=4\n");
	ck_assert_msg(tp_site_read(path, &s, &err) == 0, "%s", err.msg);
	ck_assert(!s.prio.multifactor);
	ck_assert_int_eq(s.prio.calc_period, 300);
	ck_assert_int_eq(s.prio.decay_half_life, 7 * 86400);
	ck_assert_uint_eq(s.prio.conf.max_age, 7 * 86400);
	tp_site_fini(&s);
	path = tmpdir_write("slurm.conf",
		"PriorityType=priority/multifactor\n"
		"PriorityWeightAge=1000 PriorityWeightFairshare=10000\n"
		"PriorityWeightJobSize=500\nPriorityWeightPartition=2000\n"
		"PriorityWeightQOS=3000\nPriorityWeightAssoc=7\n"
		"PriorityWeightTRES=CPU=100,Mem=0.5,GRES/gpu=300,License/x=9\n"
		"PriorityMaxAge=2-0\nPriorityDecayHalfLife=14-0\nPriorityCalcPeriod=1\n"
		"PriorityFavorSmall=YES\n"
		"PriorityFlags=SMALL_RELATIVE_TO_TIME,NO_NORMAL_PART,CALCULATE_RUNNING\n"
		"SchedulerParameters=bf_interval=60,bf_window=1440\n"
		"NodeName=n1 CPUs=4\n");
	ck_assert_msg(tp_site_read(path, &s, &err) == 0, "%s", err.msg);
	const tp_prio_conf *c = &s.prio.conf;
	ck_assert(s.prio.multifactor);
	ck_assert_uint_eq(c->w_age, 1000);
	ck_assert_uint_eq(c->w_fs, 10000);
	ck_assert_uint_eq(c->w_js, 500);
	ck_assert_uint_eq(c->w_part, 2000);
	ck_assert_uint_eq(c->w_qos, 3000);
	ck_assert_uint_eq(c->w_assoc, 7);
	ck_assert(c->w_tres[TP_TRES_CPU] == 100);
	ck_assert(c->w_tres[TP_TRES_MEM] == 0.5);
	ck_assert(c->w_tres[TP_TRES_GPU] == 300);
	ck_assert_uint_eq(c->max_age, 2 * 86400);
	ck_assert_int_eq(s.prio.decay_half_life, 14 * 86400);
	ck_assert_int_eq(s.prio.calc_period, 60); /* minutes */
	ck_assert(c->favor_small);
	ck_assert_uint_eq(c->flags, TP_PRIO_SIZE_RELATIVE | TP_PRIO_NO_NORMAL_PART);
	ck_assert_str_eq(s.prio.unmodelled, "CALCULATE_RUNNING");
	ck_assert_str_eq(s.prio.sched_params, "bf_interval=60,bf_window=1440");
	tp_site_fini(&s);
	static const char *const bad[][2] = {
		{ "PriorityType=priority/fancy\n", "slurm.conf:1: bad PriorityType 'priority/fancy'" },
		{ "PriorityWeightAge=-1\n", "slurm.conf:1: bad PriorityWeightAge '-1'" },
		{ "PriorityWeightAge=4294967296\n", "bad PriorityWeightAge '4294967296'" },
		{ "PriorityMaxAge=soon\n", "bad PriorityMaxAge 'soon'" },
		{ "PriorityCalcPeriod=0\n", "bad PriorityCalcPeriod '0'" },
		{ "PriorityWeightTRES=CPU\n", "bad PriorityWeightTRES 'CPU'" },
		{ "PriorityFavorSmall=maybe\n", "bad PriorityFavorSmall 'maybe'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path = tmpdir_write("slurm.conf", bad[i][0]);
		ck_assert_int_eq(tp_site_read(path, &s, &err), -1);
		ck_assert_msg(strstr(err.msg, bad[i][1]), "'%s' lacks '%s'", err.msg, bad[i][1]);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sacctmgr");
	TCase *tc = tcase_create("associations");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_show_assoc);
	tcase_add_test(tc, test_dump);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_priority_keys);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
