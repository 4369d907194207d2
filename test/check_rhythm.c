/* check_rhythm.c - unit tests for policy/rhythm.c: Slurm's scheduler
 * rhythm read from SchedulerParameters, its periods, the main scheduler's
 * depth and blocked partitions, the backfill pass's tested jobs (how
 * many, per user, per partition) and its window, on small hand-worked
 * clusters, and tp_driver_rhythm_pass. */
#include "check_util.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "alloc/alloc.h"
#include "driver/driver.h"
#include "model/cluster.h"
#include "policy/rhythm.h"
#include "settings/settings.h"

/* ---- SchedulerParameters -------------------------------------------------- */

START_TEST(test_defaults_are_slurms)
{
	tp_rhythm r = tp_rhythm_defaults();
	ck_assert_int_eq(r.sched_interval, 60);
	ck_assert_int_eq(r.default_queue_depth, 100);
	ck_assert_int_eq(r.bf_interval, 30);
	ck_assert_int_eq(r.bf_max_job_test, 500);
	ck_assert_int_eq(r.bf_max_job_user, 0);
	ck_assert_int_eq(r.bf_max_job_part, 0);
	ck_assert_int_eq(r.bf_window, 86400);
}
END_TEST

START_TEST(test_parse_keys)
{
	tp_rhythm r = tp_rhythm_defaults();
	tp_error err;
	ck_assert_int_eq(tp_rhythm_parse(&r, "bf_continue,BF_Interval=120,bf_window=30,"
					 "default_queue_depth=2,bf_max_job_test=3,"
					 "bf_max_job_user=1,bf_max_job_part=4,"
					 "topo_policy=easy,sched_interval=-1", &err), 0);
	ck_assert_int_eq(r.bf_interval, 120);
	ck_assert_int_eq(r.bf_window, 30 * 60); /* minutes */
	ck_assert_int_eq(r.default_queue_depth, 2);
	ck_assert_int_eq(r.bf_max_job_test, 3);
	ck_assert_int_eq(r.bf_max_job_user, 1);
	ck_assert_int_eq(r.bf_max_job_part, 4);
	ck_assert_int_eq(r.sched_interval, -1);
	/* a key is the whole name: bf_max_job_user_part is another key */
	r = tp_rhythm_defaults();
	ck_assert_int_eq(tp_rhythm_parse(&r, "bf_max_job_user_part=7", &err), 0);
	ck_assert_int_eq(r.bf_max_job_user, 0);
	ck_assert_int_eq(tp_rhythm_parse(&r, NULL, &err), 0);
	ck_assert_int_eq(tp_rhythm_parse(&r, "bf_interval=-1", &err), 0);
	ck_assert_int_eq(r.bf_interval, -1);
}
END_TEST

START_TEST(test_parse_refuses_out_of_range)
{
	static const char *const bad[] = {
		"bf_interval=0", "bf_interval=10801", "bf_window=abc",
		"bf_window=-1", "bf_max_job_test=0", "default_queue_depth=-3",
		"sched_interval=", "bf_max_job_user=1x", NULL,
	};
	for (const char *const *b = bad; *b; b++) {
		tp_rhythm r = tp_rhythm_defaults();
		tp_error err = { { 0 } };
		ck_assert_msg(tp_rhythm_parse(&r, *b, &err) == -1, "%s accepted", *b);
		ck_assert_msg(strstr(err.msg, *b), "'%s' not named in '%s'", *b, err.msg);
	}
}
END_TEST

START_TEST(test_next_multiple)
{
	ck_assert_int_eq(tp_rhythm_next(0, 30), 30);
	ck_assert_int_eq(tp_rhythm_next(29, 30), 30);
	ck_assert_int_eq(tp_rhythm_next(30, 30), 60);
	ck_assert_int_eq(tp_rhythm_next(-1, 30), 0);
	ck_assert(tp_rhythm_next(5, -1) == INT64_MAX);
}
END_TEST

START_TEST(test_scheduler_types)
{
	tp_error err = { { 0 } };
	tp_rhythm r = tp_rhythm_defaults();
	ck_assert_int_eq(tp_rhythm_scheduler(&r, "sched/backfill", 0, &err), 0);
	ck_assert_int_eq(r.bf_interval, 30);
	ck_assert_int_eq(tp_rhythm_scheduler(&r, "SCHED/BUILTIN", 0, &err), 0);
	ck_assert_int_eq(r.bf_interval, -1);
	r = tp_rhythm_defaults();
	r.sched_interval = -1;
	ck_assert_int_eq(tp_rhythm_scheduler(&r, "sched/topo", 5, &err), 0);
	ck_assert_int_eq(r.bf_interval, 5);
	ck_assert_int_eq(r.bf_max_job_test, INT_MAX);
	ck_assert_int_eq(r.bf_max_job_user, 0);
	ck_assert(r.bf_window == INT64_MAX);
	r = tp_rhythm_defaults();
	r.sched_interval = -1;
	ck_assert_int_eq(tp_rhythm_scheduler(&r, "sched/builtin", 0, &err), -1);
	ck_assert_msg(strstr(err.msg, "no scheduler would start a job"), "%s", err.msg);
	ck_assert_int_eq(tp_rhythm_scheduler(&r, "sched/other", 0, &err), -1);
	ck_assert_msg(strstr(err.msg, "sched/other"), "%s", err.msg);
}
END_TEST

/* ---- a small cluster ----------------------------------------------------- */

enum { NNODES = 8, NJOBS = 8 };

typedef struct world {
	tp_alloc *alloc;
	tp_cluster c;
	tp_job run, jobs[NJOBS];
} world;

/* 8 nodes at now 0; a run on nodes 0-5 (limit 100) when `busy`. */
static void world_init(world *w, bool busy)
{
	tp_error err;
	tp_alloc_cfg cfg = { .nnodes = NNODES };
	memset(w, 0, sizeof(*w));
	w->alloc = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(w->alloc, "%s", err.msg);
	ck_assert_int_eq(tp_cluster_init(&w->c, NNODES, w->alloc), 0);
	if (!busy)
		return;
	w->run = (tp_job){ .id = 100, .estimate = 100, .nodes = 6, .seq = 99 };
	tp_nodeset n;
	tp_nodeset_init(&n, NNODES);
	tp_nodeset_set_range(&n, 0, 6);
	ck_assert_int_eq(tp_cluster_add_run(&w->c, &w->run, 0, 100, &n,
					    TP_NOT_FILL), 0);
	tp_nodeset_fini(&n);
}

/* Queue job i: `nodes` nodes for `estimate` s, of partition and user. */
static void queue(world *w, int i, int nodes, int64_t estimate, int part,
		  int user)
{
	w->jobs[i] = (tp_job){ .id = i + 1, .estimate = estimate,
			       .nodes = nodes, .seq = i, .part = part,
			       .user = user };
	ck_assert_int_eq(tp_cluster_enqueue(&w->c, &w->jobs[i]), 0);
}

static void world_fini(world *w)
{
	tp_cluster_fini(&w->c);
	tp_alloc_destroy(w->alloc);
}

/* The queue's job ids, as "1,3". */
static const char *ids(const tp_cluster *c)
{
	static char buf[64];
	buf[0] = '\0';
	for (size_t i = 0; i < c->nqueue; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%lld",
			 i ? "," : "", (long long)c->queue[i]->id);
	return buf;
}

/* ---- the main scheduler -------------------------------------------------- */

/* Four one-node jobs on an idle machine: an event's pass starts the
 * first default_queue_depth of them, the periodic pass all. */
START_TEST(test_main_depth)
{
	world w;
	world_init(&w, false);
	for (int i = 0; i < 4; i++)
		queue(&w, i, 1, 10, 0, 0);
	tp_rhythm r = tp_rhythm_defaults();
	r.default_queue_depth = 2;
	ck_assert_int_eq(tp_rhythm_main(&w.c, &r, false), 2);
	ck_assert_str_eq(ids(&w.c), "3,4");
	ck_assert_int_eq(tp_rhythm_main(&w.c, &r, true), 2);
	ck_assert_int_eq(w.c.nqueue, 0);
	world_fini(&w);
}
END_TEST

/* Two nodes free (6 and 7); partition 1 is nodes 0-6, partition 2 nodes
 * 6-7.  Job 1 (partition 1, 3 nodes) cannot start: job 2 (partition 1,
 * 1 node) is passed over although it fits, and nodes 0-6 are closed, so
 * job 3 (partition 2) starts on node 7 and job 4 (partition 2) finds no
 * node (node 6 waits for job 1). */
static void partition_world(world *w, tp_nodeset *p1, tp_nodeset *p2)
{
	world_init(w, true);
	tp_nodeset_init(p1, NNODES);
	tp_nodeset_set_range(p1, 0, 7);
	tp_nodeset_init(p2, NNODES);
	tp_nodeset_set_range(p2, 6, 8);
	queue(w, 0, 3, 10, 1, 0);
	queue(w, 1, 1, 10, 1, 0);
	queue(w, 2, 1, 10, 2, 0);
	queue(w, 3, 1, 10, 2, 0);
	w->jobs[0].allowed = w->jobs[1].allowed = p1;
	w->jobs[2].allowed = w->jobs[3].allowed = p2;
}

START_TEST(test_main_blocks_partition)
{
	world w;
	tp_nodeset p1, p2;
	partition_world(&w, &p1, &p2);
	tp_rhythm r = tp_rhythm_defaults();
	ck_assert_int_eq(tp_rhythm_main(&w.c, &r, false), 1);
	ck_assert_int_eq(tp_nodeset_next(&w.c.starts[0].nodes, 0), 7);
	ck_assert_str_eq(ids(&w.c), "1,2,4");
	ck_assert_int_eq(w.c.nfree, 1);
	world_fini(&w);
	tp_nodeset_fini(&p1);
	tp_nodeset_fini(&p2);
}
END_TEST

/* Without node sets a job that cannot start closes every node: the
 * pass stops there (FIFO), whatever the later jobs' partitions. */
START_TEST(test_main_stops_without_node_sets)
{
	world w;
	world_init(&w, true);
	queue(&w, 0, 3, 10, 1, 0);
	queue(&w, 1, 1, 10, 2, 0);
	tp_rhythm r = tp_rhythm_defaults();
	ck_assert_int_eq(tp_rhythm_main(&w.c, &r, true), 0);
	ck_assert_str_eq(ids(&w.c), "1,2");
	world_fini(&w);
}
END_TEST

/* A passed-over job counts towards the depth: with depth 2 the pass
 * looks at jobs 1 and 2 only and starts nothing; with depth 3 job 3
 * starts. */
START_TEST(test_main_depth_counts_blocked)
{
	for (int depth = 2; depth <= 3; depth++) {
		world w;
		tp_nodeset p1, p2;
		partition_world(&w, &p1, &p2);
		tp_rhythm r = tp_rhythm_defaults();
		r.default_queue_depth = depth;
		ck_assert_int_eq(tp_rhythm_main(&w.c, &r, false), depth - 2);
		ck_assert_str_eq(ids(&w.c), depth == 2 ? "1,2,3,4" : "1,2,4");
		world_fini(&w);
		tp_nodeset_fini(&p1);
		tp_nodeset_fini(&p2);
	}
}
END_TEST

/* ---- the backfill pass (EASY's) ----------------------------------------- */

/* Two nodes free until 100.  Job 1 needs 4 nodes: it waits, reserved at
 * 100.  Jobs 2 and 3 (1 node, 50 s) end before then: EASY backfills
 * both, but backfill tests only the first bf_max_job_test jobs. */
static void backfill_world(world *w, int user2, int part2)
{
	world_init(w, true);
	queue(w, 0, 4, 100, 1, 1);
	queue(w, 1, 1, 50, 1, 1);
	queue(w, 2, 1, 50, part2, user2);
}

static tp_policy *easy(void)
{
	tp_error err;
	tp_policy *p = tp_policy_create("easy", NULL, &err);
	ck_assert_msg(p, "%s", err.msg);
	return p;
}

START_TEST(test_backfill_max_job_test)
{
	for (int max = 1; max <= 3; max++) {
		world w;
		tp_policy *p = easy();
		backfill_world(&w, 1, 1);
		tp_rhythm r = tp_rhythm_defaults();
		r.bf_max_job_test = max;
		ck_assert_int_eq(tp_rhythm_backfill(p, &w.c, &r), 0);
		/* 1: only the head, nothing backfilled; 2: job 2; 3: both */
		ck_assert_int_eq(w.c.nstarts, (size_t)(max - 1));
		ck_assert_str_eq(ids(&w.c), max == 1 ? "1,2,3" : max == 2 ? "1,3" : "1");
		ck_assert_ptr_eq(w.c.resv_job, &w.jobs[0]);
		ck_assert_int_eq(w.c.resv_time, 100);
		tp_policy_destroy(p);
		world_fini(&w);
	}
}
END_TEST

/* bf_max_job_user=1: job 2 is job 1's user's second, not tested; job 3
 * (another user) is, and starts; job 2 keeps its place. */
START_TEST(test_backfill_max_job_user)
{
	world w;
	tp_policy *p = easy();
	backfill_world(&w, 2, 1);
	tp_rhythm r = tp_rhythm_defaults();
	r.bf_max_job_user = 1;
	ck_assert_int_eq(tp_rhythm_backfill(p, &w.c, &r), 0);
	ck_assert_int_eq(w.c.nstarts, 1);
	ck_assert_ptr_eq(w.c.starts[0].job, &w.jobs[2]);
	ck_assert_str_eq(ids(&w.c), "1,2");
	tp_policy_destroy(p);
	world_fini(&w);
}
END_TEST

/* bf_max_job_part=1 likewise, by partition. */
START_TEST(test_backfill_max_job_part)
{
	world w;
	tp_policy *p = easy();
	backfill_world(&w, 1, 2);
	tp_rhythm r = tp_rhythm_defaults();
	r.bf_max_job_part = 1;
	ck_assert_int_eq(tp_rhythm_backfill(p, &w.c, &r), 0);
	ck_assert_int_eq(w.c.nstarts, 1);
	ck_assert_ptr_eq(w.c.starts[0].job, &w.jobs[2]);
	ck_assert_str_eq(ids(&w.c), "1,2");
	tp_policy_destroy(p);
	world_fini(&w);
}
END_TEST

/* Job 1 needs all 8 nodes, reserved at 100; job 2 (1 node, 1000 s)
 * would delay it, so EASY does not start it within a window of 100 s or
 * more.  Within a window of 99 s the reservation is not made and job 2
 * starts. */
START_TEST(test_backfill_window)
{
	for (int64_t window = 99; window <= 100; window++) {
		world w;
		tp_policy *p = easy();
		world_init(&w, true);
		queue(&w, 0, 8, 100, 0, 0);
		queue(&w, 1, 1, 1000, 0, 0);
		tp_rhythm r = tp_rhythm_defaults();
		r.bf_window = window;
		ck_assert_int_eq(tp_rhythm_backfill(p, &w.c, &r), 0);
		if (window == 99) {
			ck_assert_int_eq(w.c.nstarts, 1);
			ck_assert_ptr_null(w.c.resv_job);
			ck_assert_str_eq(ids(&w.c), "1");
		} else {
			ck_assert_int_eq(w.c.nstarts, 0);
			ck_assert_ptr_eq(w.c.resv_job, &w.jobs[0]);
			ck_assert_str_eq(ids(&w.c), "1,2");
		}
		tp_policy_destroy(p);
		world_fini(&w);
	}
}
END_TEST

/* ---- tp_driver_rhythm_pass ------------------------------------------------ */

/* The main pass alone stops at job 1 (same partition): nothing starts;
 * with the backfill pass due, jobs 2 and 3 start around job 1's
 * reservation, and the policy counts both. */
START_TEST(test_driver_rhythm_pass)
{
	for (int bf = 0; bf <= 1; bf++) {
		world w;
		tp_policy *p = easy();
		backfill_world(&w, 1, 1);
		tp_rhythm r = tp_rhythm_defaults();
		ck_assert_int_eq(tp_driver_rhythm_pass(p, &w.c, &r, true, bf), 0);
		ck_assert_int_eq(w.c.nstarts, bf ? 2 : 0);
		ck_assert_int_eq(p->stats.started, bf ? 2 : 0);
		ck_assert_str_eq(ids(&w.c), bf ? "1" : "1,2,3");
		if (!bf)
			ck_assert_ptr_null(w.c.resv_job);
		tp_policy_destroy(p);
		world_fini(&w);
	}
}
END_TEST

/* sched_interval=-1: no main pass at all, even for a job that fits now
 * (slurmctld's schedule() returns at once); the backfill pass starts it. */
START_TEST(test_driver_main_off)
{
	for (int off = 0; off <= 1; off++) {
		world w;
		tp_policy *p = easy();
		world_init(&w, false);
		queue(&w, 0, 2, 10, 0, 0);
		tp_rhythm r = tp_rhythm_defaults();
		if (off)
			r.sched_interval = -1;
		ck_assert_int_eq(tp_driver_rhythm_pass(p, &w.c, &r, true, false), 0);
		ck_assert_int_eq(w.c.nstarts, off ? 0 : 1);
		ck_assert_int_eq(tp_driver_rhythm_pass(p, &w.c, &r, false, true), 0);
		ck_assert_int_eq(w.c.nstarts, off ? 1 : 0);
		tp_policy_destroy(p);
		world_fini(&w);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rhythm");
	TCase *tc = tcase_create("params");
	tcase_add_test(tc, test_defaults_are_slurms);
	tcase_add_test(tc, test_parse_keys);
	tcase_add_test(tc, test_parse_refuses_out_of_range);
	tcase_add_test(tc, test_next_multiple);
	tcase_add_test(tc, test_scheduler_types);
	suite_add_tcase(s, tc);
	tc = tcase_create("main");
	tcase_add_test(tc, test_main_depth);
	tcase_add_test(tc, test_main_blocks_partition);
	tcase_add_test(tc, test_main_stops_without_node_sets);
	tcase_add_test(tc, test_main_depth_counts_blocked);
	suite_add_tcase(s, tc);
	tc = tcase_create("backfill");
	tcase_add_test(tc, test_backfill_max_job_test);
	tcase_add_test(tc, test_backfill_max_job_user);
	tcase_add_test(tc, test_backfill_max_job_part);
	tcase_add_test(tc, test_backfill_window);
	tcase_add_test(tc, test_driver_rhythm_pass);
	tcase_add_test(tc, test_driver_main_off);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
