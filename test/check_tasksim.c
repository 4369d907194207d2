/* check_tasksim.c - unit tests for tasks/tasksim.c and tasksim_read.c:
 * small runs worked out by hand, and the files' error messages. */
#include "check_util.h"
#include "tmpdir_util.h"
#include "tasks/tasksim.h"

#include <string.h>

#define NODE(nm, c, s) { .name = (char *)(nm), .cores = (c), .mem = 1024, \
			 .speed = (s), .fail = -1 }
#define JOB(i, sub, t, w) { .id = (i), .submit = (sub), .tasks = (t), \
			    .cores = 1, .mem = 100, .work = (w), .replicas = 1 }

static tp_ts_result res;

static void run(tp_ts_node *node, int nnodes, tp_ts_job *job, int njobs,
		tp_ll_pick_fn pick)
{
	tp_ts_input in = { .node = node, .nnodes = nnodes, .job = job,
			   .njobs = njobs };
	tp_error err = { { 0 } };
	ck_assert_msg(tp_ts_run(&in, pick, &res, &err) == 0, "%s", err.msg);
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Claims 7-8: one job of 6 tasks (12 s of work) on a speed-1 and a
 * speed-2 node of one core each.  task1 -> n0 (tie, lower index), task2
 * -> n1, the other four wait.  n1 frees its core at 6 (task3), at 12 both
 * do (n0 takes task4 until 24, n1 task5 until 18), at 18 n1 takes task6
 * until 24: the fast node produces 4 of the 6 results. */
START_TEST(test_delay_queue_faster_node)
{
	tp_ts_node node[] = { NODE("n0", 1, 1), NODE("n1", 1, 2) };
	tp_ts_job job[] = { JOB(1, 0, 6, 12) };
	run(node, N(node), job, N(job), NULL);
	ck_assert_int_eq(res.node_results[0], 2);
	ck_assert_int_eq(res.node_results[1], 4);
	ck_assert_double_eq(res.job[0].first_start, 0);
	ck_assert_double_eq(res.job[0].end, 24);
	ck_assert_int_eq(res.jobs_finished, 1);
	ck_assert_int_eq(res.tasks_delayed, 4);
	ck_assert_double_eq(res.makespan, 24);
	ck_assert_double_eq_tol(res.core_util, 1.0, 1e-12);
	ck_assert_int_eq(res.copies_cancelled, 0);
	ck_assert_int_eq(res.tasks_lost, 0);
	tp_ts_result_fini(&res);
}
END_TEST

/* Claim 7: no free core -> wait, even with memory free; the job's tasks
 * are placed on the least-loaded node first (n1 has 4 cores: 1/4 used
 * beats n0's 1/1). */
START_TEST(test_least_loaded_dispatch)
{
	tp_ts_node node[] = { NODE("n0", 1, 1), NODE("n1", 4, 1) };
	tp_ts_job job[] = { JOB(1, 0, 5, 10), JOB(2, 0, 2, 10) };
	/* job 1: n0, n1, n1, n1, n1: the cluster is full */
	run(node, N(node), job, N(job), NULL);
	ck_assert_int_eq(res.node_results[0], 2); /* job 1's and job 2's */
	ck_assert_int_eq(res.node_results[1], 5);
	ck_assert_int_eq(res.tasks_delayed, 2);  /* job 2: no core at 0 */
	ck_assert_double_eq(res.job[0].end, 10);
	ck_assert_double_eq(res.job[1].first_start, 10);
	ck_assert_double_eq(res.job[1].end, 20);
	ck_assert_double_eq(res.mean_job_time, 15);
	tp_ts_result_fini(&res);

	/* Two idle nodes of 4 cores: the rule spreads a job of 2 tasks, the
	 * baseline packs them on the first node. */
	tp_ts_node two[] = { NODE("n0", 4, 1), NODE("n1", 4, 2) };
	tp_ts_job one[] = { JOB(1, 0, 2, 8) };
	run(two, N(two), one, N(one), NULL);
	ck_assert_int_eq(res.node_results[0], 1);
	ck_assert_int_eq(res.node_results[1], 1);
	tp_ts_result_fini(&res);
	run(two, N(two), one, N(one), tp_ll_pick_first);
	ck_assert_int_eq(res.node_results[0], 2);
	ck_assert_int_eq(res.node_results[1], 0);
	ck_assert_double_eq(res.job[0].end, 8);
	tp_ts_result_fini(&res);
}
END_TEST

/* Claim 9: a freed core goes to the smallest job id, not the oldest job. */
START_TEST(test_smallest_job_id_wins)
{
	tp_ts_node node[] = { NODE("n0", 1, 1) };
	tp_ts_job job[] = { JOB(5, 0, 1, 10), JOB(9, 1, 1, 1), JOB(3, 2, 1, 1) };
	run(node, N(node), job, N(job), NULL);
	ck_assert_double_eq(res.job[0].end, 10);
	ck_assert_double_eq(res.job[2].first_start, 10); /* id 3 */
	ck_assert_double_eq(res.job[2].end, 11);
	ck_assert_double_eq(res.job[1].first_start, 11); /* id 9 */
	ck_assert_double_eq(res.job[1].end, 12);
	ck_assert_int_eq(res.tasks_delayed, 2);
	tp_ts_result_fini(&res);
}
END_TEST

/* Claim 10: the copies of a task never share a node, even with cores to
 * spare there; a waiting copy is cancelled when its sibling finishes. */
START_TEST(test_replicas_never_share)
{
	tp_ts_node node[] = { NODE("n0", 4, 1), NODE("n1", 1, 1) };
	tp_ts_job job[] = { JOB(1, 0, 2, 10), JOB(2, 1, 1, 4) };
	job[1].replicas = 2;
	/* job 1: n0 (tie), n1 (0/1 < 1/4).  Job 2's first copy: n0; its
	 * second may not join it on n0 and n1 is full: it waits, and is
	 * cancelled at 5 when the first copy's result is in. */
	run(node, N(node), job, N(job), NULL);
	ck_assert_double_eq(res.job[1].first_start, 1);
	ck_assert_double_eq(res.job[1].end, 5);
	ck_assert_int_eq(res.node_results[0], 2);
	ck_assert_int_eq(res.node_results[1], 1);
	ck_assert_int_eq(res.tasks_delayed, 1);
	ck_assert_int_eq(res.copies_cancelled, 1);
	tp_ts_result_fini(&res);
}
END_TEST

/* Claim 10: the fastest copy's finish is the result, the other copy is
 * cancelled and frees its core.  n0 (speed 4) runs job 1 until 2; job 2's
 * first copy goes to n1 (speed 1, would end at 8), its second waits for
 * n0, runs there from 2 and finishes at 4: job 2 ends at 4. */
START_TEST(test_fastest_copy_wins)
{
	tp_ts_node node[] = { NODE("n0", 1, 4), NODE("n1", 1, 1) };
	tp_ts_job job[] = { JOB(1, 0, 1, 8), JOB(2, 0, 1, 8) };
	job[1].replicas = 2;
	run(node, N(node), job, N(job), NULL);
	ck_assert_double_eq(res.job[0].end, 2);
	ck_assert_double_eq(res.job[1].first_start, 0);
	ck_assert_double_eq(res.job[1].end, 4);
	ck_assert_int_eq(res.node_results[0], 2);
	ck_assert_int_eq(res.node_results[1], 0);
	ck_assert_int_eq(res.copies_cancelled, 1);
	ck_assert_double_eq(res.makespan, 4);
	/* the cancelled copy held n1 from 0 to 4: both cores busy all along */
	ck_assert_double_eq_tol(res.core_util, 1.0, 1e-12);
	tp_ts_result_fini(&res);
}
END_TEST

/* A failure that leaves a copy running: the job ends at that copy's own
 * finish, nothing re-runs.  Copies on n0 (speed 1, ends at 8) and n1
 * (speed 2, ends at 4). */
START_TEST(test_failure_with_replica)
{
	tp_ts_node node[] = { NODE("n0", 1, 1), NODE("n1", 1, 2) };
	tp_ts_job job[] = { JOB(1, 0, 1, 8) };
	job[0].replicas = 2;
	node[1].fail = 1; /* the fast copy is lost: the slow one finishes */
	run(node, N(node), job, N(job), NULL);
	ck_assert_double_eq(res.job[0].end, 8);
	ck_assert_int_eq(res.job[0].reruns, 0);
	ck_assert_int_eq(res.tasks_lost, 0);
	ck_assert_int_eq(res.copies_cancelled, 0);
	ck_assert_int_eq(res.node_results[0], 1);
	tp_ts_result_fini(&res);

	node[1].fail = -1;
	node[0].fail = 1; /* the slow copy is lost: no change at all */
	run(node, N(node), job, N(job), NULL);
	ck_assert_double_eq(res.job[0].end, 4);
	ck_assert_int_eq(res.tasks_lost, 0);
	ck_assert_int_eq(res.node_results[1], 1);
	tp_ts_result_fini(&res);
}
END_TEST

/* No replica: the task lost at 4 with n0 re-runs from the start, first in
 * its job's queue; n1 takes it at 10, it ends at 20. */
START_TEST(test_failure_reruns)
{
	tp_ts_node node[] = { NODE("n0", 1, 1), NODE("n1", 1, 1) };
	tp_ts_job job[] = { JOB(1, 0, 2, 10) };
	node[0].fail = 4;
	run(node, N(node), job, N(job), NULL);
	ck_assert_double_eq(res.job[0].end, 20);
	ck_assert_int_eq(res.job[0].reruns, 1);
	ck_assert_int_eq(res.tasks_lost, 1);
	ck_assert_int_eq(res.tasks_delayed, 1);
	ck_assert_int_eq(res.node_results[0], 0);
	ck_assert_int_eq(res.node_results[1], 2);
	/* busy: n0 0-4, n1 0-20; up: n0 0-4, n1 0-20 */
	ck_assert_double_eq_tol(res.core_util, 1.0, 1e-12);
	tp_ts_result_fini(&res);

	/* A free core elsewhere takes the lost task at once. */
	tp_ts_node three[] = { NODE("n0", 1, 1), NODE("n1", 1, 1),
			       NODE("n2", 1, 1) };
	three[0].fail = 4;
	run(three, N(three), job, N(job), NULL);
	ck_assert_double_eq(res.job[0].end, 14);
	ck_assert_int_eq(res.node_results[2], 1);
	tp_ts_result_fini(&res);
}
END_TEST

/* Every copy lost (R = 2, both nodes fail) and no node left: the task
 * is queued to re-run, the job never ends and the run says so instead of
 * waiting forever. */
START_TEST(test_all_lost)
{
	tp_ts_node node[] = { NODE("n0", 1, 1), NODE("n1", 1, 1) };
	tp_ts_job job[] = { JOB(2, 0, 1, 1), JOB(1, 1, 1, 10) };
	job[1].replicas = 2;
	node[0].fail = 2;
	node[1].fail = 3;
	run(node, N(node), job, N(job), NULL);
	ck_assert_double_eq(res.job[0].end, 1);
	ck_assert_double_eq(res.job[1].first_start, 1);
	ck_assert_double_eq(res.job[1].end, -1);
	ck_assert_int_eq(res.job[1].reruns, 1);
	ck_assert_int_eq(res.tasks_lost, 1);
	ck_assert_int_eq(res.jobs_finished, 1);
	ck_assert_double_eq(res.makespan, 1);
	tp_ts_result_fini(&res);
}
END_TEST

START_TEST(test_input_errors)
{
	tp_ts_node node[] = { NODE("n0", 2, 1), NODE("n1", 1, 1) };
	tp_ts_job job[] = { JOB(1, 0, 1, 10), JOB(1, 0, 1, 10) };
	tp_ts_input in = { .node = node, .nnodes = 2, .job = job, .njobs = 1 };
	tp_error err = { { 0 } };
	job[0].replicas = 3;
	ck_assert_int_eq(tp_ts_run(&in, NULL, &res, &err), -1);
	ck_assert_str_eq(err.msg, "job 1: Replicas=3 but only 2 node(s): copies of a task never share a node");
	job[0].replicas = 1;
	job[0].cores = 3;
	ck_assert_int_eq(tp_ts_run(&in, NULL, &res, &err), -1);
	ck_assert_str_eq(err.msg, "job 1: no node has 3 CPUs and 100 MiB for one task");
	job[0].cores = 1;
	in.njobs = 2;
	ck_assert_int_eq(tp_ts_run(&in, NULL, &res, &err), -1);
	ck_assert_str_eq(err.msg, "job 1: duplicate job id");
	in.njobs = 1;
	node[1].speed = 1e-3;
	job[0].work = 1e7;
	ck_assert_int_eq(tp_ts_run(&in, NULL, &res, &err), -1);
	ck_assert_str_eq(err.msg, "job 1: Work 1e+07 on node n1 (speed 0.001) runs over 1e+09 s");
	in.nnodes = 0;
	ck_assert_int_eq(tp_ts_run(&in, NULL, &res, &err), -1);
	ck_assert_str_eq(err.msg, "no nodes");
}
END_TEST

/* The same input gives the same result. */
START_TEST(test_deterministic)
{
	tp_ts_node node[] = { NODE("a", 2, 1), NODE("b", 4, 2), NODE("c", 1, 4) };
	tp_ts_job job[] = { JOB(1, 0, 9, 7), JOB(2, 1.5, 5, 3), JOB(3, 2, 4, 11) };
	job[2].replicas = 2;
	node[1].fail = 5;
	run(node, N(node), job, N(job), NULL);
	tp_ts_result a = res;
	run(node, N(node), job, N(job), NULL);
	ck_assert_int_eq(memcmp(a.job, res.job, 3 * sizeof(*a.job)), 0);
	ck_assert_int_eq(memcmp(a.node_results, res.node_results, 3 * sizeof(int)), 0);
	ck_assert_double_eq(a.core_util, res.core_util);
	ck_assert_int_eq(a.tasks_delayed, res.tasks_delayed);
	ck_assert_int_eq(a.jobs_finished, 3);
	tp_ts_result_fini(&a);
	tp_ts_result_fini(&res);
}
END_TEST

/* A larger mix (replicas 1-3, tasks of 1-3 CPUs, two failures) under
 * both rules: every job ends after it started, every task's result is
 * counted once, cores are never over-used on average. */
START_TEST(test_invariants)
{
	tp_ts_node node[6];
	tp_ts_job job[40];
	static const double speed[] = { 1, 2, 4, 1, 2, 4 };
	int ntasks = 0;
	for (int k = 0; k < N(node); k++)
		node[k] = (tp_ts_node){ .name = (char *)"n", .cores = 2 + 2 * (k % 3),
					.mem = 4096, .speed = speed[k], .fail = -1 };
	node[2].fail = 33.3;
	node[4].fail = 90;
	for (int j = 0; j < N(job); j++) {
		job[j] = (tp_ts_job){ .id = (j * 7) % N(job), .submit = j * 2.5,
				      .tasks = 1 + (j * 5) % 13, .cores = 1 + j % 3,
				      .mem = 256.0 * (1 + j % 4), .work = 5 + (j * 3) % 17,
				      .replicas = 1 + (j % 5 == 0) + (j % 10 == 0) };
		ntasks += job[j].tasks;
	}
	for (int rule = 0; rule < 2; rule++) {
		run(node, N(node), job, N(job), rule ? tp_ll_pick_first : NULL);
		ck_assert_int_eq(res.jobs_finished, N(job));
		int results = 0;
		for (int k = 0; k < N(node); k++)
			results += res.node_results[k];
		ck_assert_int_eq(results, ntasks);
		for (int j = 0; j < N(job); j++) {
			ck_assert(res.job[j].first_start >= res.job[j].submit);
			ck_assert(res.job[j].end > res.job[j].first_start);
		}
		ck_assert(res.core_util > 0 && res.core_util <= 1.0 + 1e-12);
		ck_assert(res.tasks_lost > 0);
		ck_assert(res.copies_cancelled > 0);
		tp_ts_result_fini(&res);
	}
}
END_TEST

/* ---- files ------------------------------------------------------------ */

static void setup_tmp(void)
{
	ck_assert_int_eq(tmpdir_make("check_tasksim"), 0);
}

static void teardown_tmp(void)
{
	tmpdir_remove();
}

START_TEST(test_read_files)
{
	tp_ts_input in = { 0 };
	tp_error err = { { 0 } };
	const char *p = tmpdir_write("nodes", "# two nodes\n"
				     "NodeName=n1 CPUs=4 Memory=8192 Speed=2.5\n"
				     "\n"
				     "nodename=n2 cpus=2 RealMemory=1024 Fail=30\n");
	ck_assert_msg(tp_ts_read_nodes(&in, p, &err) == 0, "%s", err.msg);
	p = tmpdir_write("jobs", "JobId=7 Submit=1.5 Tasks=16 CPUs=2 Memory=512 Work=60 Replicas=2\n"
			 "JobId=3 Submit=0 Tasks=1 Memory=0 Work=0.5\n");
	ck_assert_msg(tp_ts_read_jobs(&in, p, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(in.nnodes, 2);
	ck_assert_str_eq(in.node[0].name, "n1");
	ck_assert_int_eq(in.node[0].cores, 4);
	ck_assert_double_eq(in.node[0].mem, 8192);
	ck_assert_double_eq(in.node[0].speed, 2.5);
	ck_assert_double_eq(in.node[0].fail, -1);
	ck_assert_double_eq(in.node[1].speed, 1);
	ck_assert_double_eq(in.node[1].fail, 30);
	ck_assert_int_eq(in.njobs, 2);
	ck_assert_int_eq(in.job[0].id, 7);
	ck_assert_double_eq(in.job[0].submit, 1.5);
	ck_assert_int_eq(in.job[0].tasks, 16);
	ck_assert_int_eq(in.job[0].cores, 2);
	ck_assert_int_eq(in.job[0].replicas, 2);
	ck_assert_int_eq(in.job[1].cores, 1);
	ck_assert_int_eq(in.job[1].replicas, 1);
	ck_assert_double_eq(in.job[1].work, 0.5);
	ck_assert_msg(tp_ts_run(&in, NULL, &res, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(res.jobs_finished, 2);
	tp_ts_result_fini(&res);
	tp_ts_input_fini(&in);
}
END_TEST

/* A bad line: the message names the file, the line and the value. */
static void expect_error(const char *what, const char *text, const char *msg)
{
	tp_ts_input in = { 0 };
	tp_error err = { { 0 } };
	const char *p = tmpdir_write(what, text);
	char want[1024];
	snprintf(want, sizeof(want), "%s:%s", p, msg);
	int rc = !strcmp(what, "nodes") ? tp_ts_read_nodes(&in, p, &err)
					: tp_ts_read_jobs(&in, p, &err);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(err.msg, want);
	tp_ts_input_fini(&in);
}

START_TEST(test_read_errors)
{
	expect_error("nodes", "NodeName=n1 CPUs=4 Memory=8\nNodeName=n2 CPUs=x Memory=8\n",
		     "2: CPUs: 'x' is not a whole number from 1 to 1048576");
	expect_error("nodes", "NodeName=n1 CPUs=4 Memory=8 Speed=0\n",
		     "1: Speed: '0' is not a number > 0 and <= 1e+09");
	expect_error("nodes", "NodeName=n1 CPUs=4 Memory=8 Fail=-3\n",
		     "1: Fail: '-3' is not a number >= 0 and <= 1e+09");
	expect_error("nodes", "NodeName=n1 CPUs=4 Memory=8 Color=red\n",
		     "1: unknown key 'Color' (known: NodeName, CPUs, Memory, Speed, Fail)");
	expect_error("nodes", "NodeName=n1 CPUs=4 Memory=8\n# c\nNodeName=n1 CPUs=4 Memory=8\n",
		     "3: NodeName: duplicate node 'n1'");
	expect_error("nodes", "NodeName=n1 CPUs=4\n", "1: node 'n1' has no Memory=");
	expect_error("nodes", "CPUs=4 Memory=1\n", "1: no NodeName= on the line");
	expect_error("jobs", "JobId=1 Submit=0 Tasks=4 Memory=1 Work=-1\n",
		     "1: Work: '-1' is not a number > 0 and <= 1e+09");
	expect_error("jobs", "JobId=1 Submit=0 Tasks=4 Memory=1 Work=1 Replicas=0\n",
		     "1: Replicas: '0' is not a whole number from 1 to 1024");
	expect_error("jobs", "JobId=1 Submit=0 Tasks=4 Memory=1 Work=1\n"
		     "JobId=1 Submit=0 Tasks=4 Memory=1 Work=1\n",
		     "2: JobId: duplicate job '1'");
	expect_error("jobs", "JobId=1 Submit=0 Tasks=4 Memory=1\n", "1: no Work= on the line");
	expect_error("jobs", "JobId=1 Submit=soon Tasks=4 Memory=1 Work=1\n",
		     "1: Submit: 'soon' is not a number >= 0 and <= 1e+09");
	expect_error("jobs", "JobId=1 Submit=1e10 Tasks=4 Memory=1 Work=1\n",
		     "1: Submit: '1e10' is not a number >= 0 and <= 1e+09");
	expect_error("jobs", "JobId=1 Submit=0 Tasks=4 Memory=nan Work=1\n",
		     "1: Memory: 'nan' is not a number >= 0 and <= 1e+09");
	/* a second value replaced the first without a word */
	expect_error("nodes", "NodeName=n1 CPUs=4 Memory=8 CPUs=8\n",
		     "1: key 'CPUs' given twice");
	expect_error("jobs", "JobId=1 Submit=0 Tasks=4 Memory=1 Work=1 Work=2\n",
		     "1: key 'Work' given twice");
}
END_TEST

START_TEST(test_read_missing_file)
{
	tp_ts_input in = { 0 };
	tp_error err = { { 0 } };
	ck_assert_int_eq(tp_ts_read_nodes(&in, "/nonexistent/nodes", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/nodes: cannot open"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tasksim");
	TCase *tc = tcase_create("runs");
	tcase_add_test(tc, test_delay_queue_faster_node);
	tcase_add_test(tc, test_least_loaded_dispatch);
	tcase_add_test(tc, test_smallest_job_id_wins);
	tcase_add_test(tc, test_replicas_never_share);
	tcase_add_test(tc, test_fastest_copy_wins);
	tcase_add_test(tc, test_failure_with_replica);
	tcase_add_test(tc, test_failure_reruns);
	tcase_add_test(tc, test_all_lost);
	tcase_add_test(tc, test_input_errors);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_invariants);
	suite_add_tcase(s, tc);
	TCase *tf = tcase_create("files");
	tcase_add_checked_fixture(tf, setup_tmp, teardown_tmp);
	tcase_add_test(tf, test_read_files);
	tcase_add_test(tf, test_read_errors);
	tcase_add_test(tf, test_read_missing_file);
	suite_add_tcase(s, tf);
	return s;
}

int main(void)
{
	return tp_check_run(suite());
}
