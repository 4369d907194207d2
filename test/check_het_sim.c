/* check_het_sim.c - the heterogeneous simulator on hand-worked runs:
 * online learning changes where a job class goes, a job reaching its
 * limit is killed there, parallel options, and two runs are identical. */
#include <math.h>
#include <string.h>

#include "check_util.h"
#include "hetsim/het_gen.h"
#include "hetsim/het_sim.h"
#include "tmpdir_util.h"

/* p and q: one node each; class a runs 100 s on p, 10 s on q. */
static const char *machine = "PartitionName=p Nodes=p1\n"
			     "PartitionName=q Nodes=q1 Class=qc\n"
			     "PartitionName=w Nodes=w[1-2]\n";

typedef struct run {
	tp_het_conf c;
	tp_het_workload w;
	tp_expdb *db, *truth;
	tp_het_sim_result r;
} run;

static void load(run *x, const char *jobs)
{
	tp_error err = { "" };
	memset(x, 0, sizeof(*x));
	ck_assert_msg(tp_het_conf_read(tmpdir_write("m.conf", machine), &x->c, &err) == 0,
		      "%s", err.msg);
	ck_assert_msg(tp_het_jobs_read(tmpdir_write("j.conf", jobs), &x->c, &x->w, &err) == 0,
		      "%s", err.msg);
	x->db = tp_expdb_new();
	x->truth = tp_expdb_new();
	int a = tp_expdb_jclass(x->truth, "a"), b = tp_expdb_jclass(x->truth, "b");
	int p = tp_expdb_mclass(x->truth, "p"), q = tp_expdb_mclass(x->truth, "qc");
	int w = tp_expdb_mclass(x->truth, "w");
	tp_expdb_add(x->truth, a, p, 1, 100);
	tp_expdb_add(x->truth, a, q, 1, 10);
	tp_expdb_add(x->truth, b, w, 1, 100);
	tp_expdb_add(x->truth, b, w, 2, 30);
}

static void simulate_cut(run *x, tp_het_algo algo, bool oracle, int max_jobs)
{
	tp_error err = { "" };
	tp_het_sim_opts o = { .algo = algo, .oracle = oracle,
			      .max_jobs = max_jobs };
	ck_assert_msg(tp_het_sim_run(&x->c, &x->w, x->db, x->truth, &o, &x->r, &err) == 0,
		      "%s", err.msg);
}

static void simulate(run *x, tp_het_algo algo, bool oracle)
{
	simulate_cut(x, algo, oracle, 0);
}

static void done(run *x)
{
	tp_het_sim_result_fini(&x->r);
	tp_het_workload_fini(&x->w);
	tp_het_conf_fini(&x->c);
	tp_expdb_free(x->db);
	tp_expdb_free(x->truth);
}

static const char *part_of(const run *x, size_t i)
{
	return x->c.part[x->r.job[i].part].name;
}

/*
 * The scheduling database starts wrong: a on p 5 s, on q 50 s.  Job 1
 * (t 0) goes to p, actually runs 100 s; learning makes p's mean 52.5, so
 * job 2 (t 150) goes to q and runs 10 s (q's mean 30), and job 3 (t 300)
 * to q again.  With the truth as predictions every job goes to q.
 */
START_TEST(test_learning)
{
	static const char *jobs =
		"JobId=1 Submit=0 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
		"JobId=2 Submit=150 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
		"JobId=3 Submit=300 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n";
	for (int algo = TP_HET_OLB; algo <= TP_HET_PJS; algo++) {
		run x;
		load(&x, jobs);
		int a = tp_expdb_jclass(x.db, "a");
		tp_expdb_add(x.db, a, tp_expdb_mclass(x.db, "p"), 1, 5);
		tp_expdb_add(x.db, a, tp_expdb_mclass(x.db, "qc"), 1, 50);
		simulate(&x, (tp_het_algo)algo, false);
		ck_assert_uint_eq(x.r.ran, 3);
		ck_assert_str_eq(part_of(&x, 0), "p");
		ck_assert_double_eq(x.r.job[0].end, 100);
		ck_assert_str_eq(part_of(&x, 1), "q");
		ck_assert_double_eq(x.r.job[1].start, 150);
		ck_assert_double_eq(x.r.job[1].end, 160);
		ck_assert_str_eq(part_of(&x, 2), "q");
		ck_assert_uint_eq(x.r.learned, 3);
		ck_assert_double_eq(x.r.total, 100 + 10 + 10);
		tp_expdb_stat st;
		ck_assert(tp_expdb_get(x.db, a, tp_expdb_mclass(x.db, "p"), 1, &st));
		ck_assert_double_eq_tol(st.mean, 52.5, 1e-9);
		ck_assert(tp_expdb_get(x.db, a, tp_expdb_mclass(x.db, "qc"), 1, &st));
		ck_assert_double_eq_tol(st.mean, 70.0 / 3, 1e-9); /* 50, 10, 10 */
		tp_het_sim_result_fini(&x.r);

		simulate(&x, (tp_het_algo)algo, true);
		for (size_t i = 0; i < 3; i++)
			ck_assert_str_eq(part_of(&x, i), "q");
		done(&x);
	}
}
END_TEST

/*
 * het_max_jobs: a pass plans only the first jobs of the queue.  Job 1 may
 * run only on p (100 s), job 2 on p or q (q: 10 s), both at 0, the truth
 * as predictions.  Planned together at 0: 1 on p, 2 on q at once.  Cut to
 * one job per pass: the pass at 0 plans (and starts) job 1 alone; job 2 is
 * first planned at the next event, job 1's end at 100, and goes to q then.
 */
START_TEST(test_max_jobs)
{
	run x;
	load(&x, "JobId=1 Submit=0 Class=a Partitions=p Nodes=1 TimeLimit=500\n"
		 "JobId=2 Submit=0 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n");
	simulate_cut(&x, TP_HET_SJS, true, 0);
	ck_assert_str_eq(part_of(&x, 1), "q");
	ck_assert_double_eq(x.r.job[1].start, 0);
	tp_het_sim_result_fini(&x.r);
	simulate_cut(&x, TP_HET_SJS, true, 1);
	ck_assert_str_eq(part_of(&x, 0), "p");
	ck_assert_double_eq(x.r.job[0].start, 0);
	ck_assert_str_eq(part_of(&x, 1), "q");
	ck_assert_double_eq(x.r.job[1].start, 100);
	done(&x);
	ck_assert_uint_eq(tp_het_planned(5, 0), 5);
	ck_assert_uint_eq(tp_het_planned(5, 2), 2);
	ck_assert_uint_eq(tp_het_planned(1, 2), 1);
}
END_TEST

/* Learning online from nothing: the first jobs are predicted at their
 * limit everywhere; once q's 10 s is known, class a goes there. */
START_TEST(test_learning_empty)
{
	run x;
	load(&x, "JobId=1 Submit=0 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
		 "JobId=2 Submit=0 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
		 "JobId=3 Submit=200 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n"
		 "JobId=4 Submit=200 Class=a Partitions=p,q Nodes=1 TimeLimit=500\n");
	simulate(&x, TP_HET_SJS, false);
	ck_assert_uint_eq(x.r.ran, 4);
	/* 1 and 2 share p and q at 0, either way round. */
	ck_assert_str_ne(part_of(&x, 0), part_of(&x, 1));
	ck_assert_double_eq(x.r.job[0].start, 0);
	ck_assert_double_eq(x.r.job[1].start, 0);
	/* At 200 both are known (p 100, q 10): 3 to q, 4 waits for q (ends
	 * 220) rather than take p (ends 300). */
	ck_assert_str_eq(part_of(&x, 2), "q");
	ck_assert_str_eq(part_of(&x, 3), "q");
	ck_assert_double_eq(x.r.job[3].start, 210);
	ck_assert_double_eq(x.r.job[3].end, 220);
	done(&x);
}
END_TEST

/* b truly runs 100 s on one node of w; its limit is 60: killed at 60. */
START_TEST(test_killed_at_limit)
{
	run x;
	load(&x, "JobId=5 Submit=7 Class=b Partitions=w Nodes=1 TimeLimit=60\n");
	simulate(&x, TP_HET_SJS, false);
	ck_assert_uint_eq(x.r.ran, 1);
	ck_assert(x.r.job[0].killed);
	ck_assert_uint_eq(x.r.killed, 1);
	ck_assert_double_eq(x.r.job[0].start, 7);
	ck_assert_double_eq(x.r.job[0].end, 67);
	/* A run killed at its limit is no sample of its work (it says
	 * only "more than 60 s"): nothing learned (tp_het_learn). */
	tp_expdb_stat st;
	ck_assert(!tp_expdb_get(x.db, tp_expdb_jclass(x.db, "b"), tp_expdb_mclass(x.db, "w"), 1, &st));
	ck_assert_uint_eq(x.r.learned, 0);
	done(&x);
}
END_TEST

/* b on both nodes of w takes 30 s, on one 100 s: PJS runs it in parallel,
 * SJS sequentially; a job the truth cannot run anywhere never runs. */
START_TEST(test_parallel_and_never)
{
	run x;
	load(&x, "JobId=1 Submit=0 Class=b Partitions=w Nodes=1-2 TimeLimit=500\n"
		 "JobId=2 Submit=0 Class=a Partitions=w Nodes=1 TimeLimit=500\n");
	simulate(&x, TP_HET_PJS, true);
	ck_assert(x.r.job[0].ran);
	ck_assert(x.r.job[0].parallel);
	ck_assert_int_eq(x.r.job[0].nodes, 2);
	ck_assert_double_eq(x.r.job[0].end, 30);
	ck_assert(!x.r.job[1].ran);
	ck_assert_uint_eq(x.r.ran, 1);
	ck_assert_double_eq(x.r.frac_parallel, 1);
	tp_het_sim_result_fini(&x.r);
	simulate(&x, TP_HET_SJS, true);
	ck_assert(!x.r.job[0].parallel);
	ck_assert_double_eq(x.r.job[0].end, 100);
	done(&x);
}
END_TEST

/* A generated workload, learning online, twice: the same schedule. */
START_TEST(test_deterministic)
{
	tp_hetgen_opts o;
	tp_hetgen_opts_default(&o);
	o.machine = TP_HETGEN_SMALL;
	o.njobs = 120;
	o.arrival_util = 0.9;
	o.prio[0] = 25, o.prio[1] = 25, o.prio[2] = 50;
	o.seed = 42;
	for (int algo = TP_HET_OLB; algo <= TP_HET_PJS; algo++) {
		tp_het_sim_result r[2];
		for (int k = 0; k < 2; k++) {
			tp_het_conf c;
			tp_het_workload w;
			tp_expdb *truth = tp_expdb_new();
			tp_error err = { "" };
			ck_assert_msg(tp_hetgen(&o, &c, &w, truth, &err) == 0, "%s", err.msg);
			tp_het_sim_opts so = { .algo = (tp_het_algo)algo };
			ck_assert_msg(tp_het_sim_run(&c, &w, NULL, truth, &so, &r[k], &err) == 0,
				      "%s", err.msg);
			ck_assert_uint_eq(r[k].ran, 120);
			tp_het_workload_fini(&w);
			tp_het_conf_fini(&c);
			tp_expdb_free(truth);
		}
		ck_assert_double_eq(r[0].total, r[1].total);
		for (size_t i = 0; i < r[0].n; i++) {
			ck_assert_int_eq(r[0].job[i].part, r[1].job[i].part);
			ck_assert_int_eq(r[0].job[i].nodes, r[1].job[i].nodes);
			ck_assert_double_eq(r[0].job[i].start, r[1].job[i].start);
			ck_assert_double_eq(r[0].job[i].end, r[1].job[i].end);
			ck_assert(r[0].job[i].end >= r[0].job[i].start);
			ck_assert(r[0].job[i].start >= (double)r[0].job[i].submit);
		}
		tp_het_sim_result_fini(&r[0]);
		tp_het_sim_result_fini(&r[1]);
	}
}
END_TEST

static void setup(void) { ck_assert_int_eq(tmpdir_make("hetsim"), 0); }
static void teardown(void) { tmpdir_remove(); }

int main(void)
{
	Suite *s = suite_create("het_sim");
	TCase *tc = tcase_create("runs");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_learning);
	tcase_add_test(tc, test_learning_empty);
	tcase_add_test(tc, test_max_jobs);
	tcase_add_test(tc, test_killed_at_limit);
	tcase_add_test(tc, test_parallel_and_never);
	tcase_add_test(tc, test_deterministic);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
