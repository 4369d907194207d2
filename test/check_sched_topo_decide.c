/*
 * check_sched_topo_decide.c - sched/topo's view and decisions.
 *
 * What is the plugin's own; the driver steps it shares with the engine
 * (driver/driver.h) are tested in check_driver.c.
 *
 * The plugin rebuilds a tp_cluster from a snapshot at every cycle instead
 * of keeping one up to date as the simulator's engine does.  The replay
 * test below drives st_view/st_decide exactly that way (a fresh view per
 * question, queue sorted by priority, fill jobs known only through the
 * st_fills table) and demands the engine's schedule, run for run, for
 * every policy: the plugin's half of "same code, same decisions".
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "settings/settings.h"
#include "engine/engine.h"
#include "trace/rng.h"
#include "st_decide.h"
#include "st_fills.h"
#include "st_view.h"

/* ---- hand-worked cases ----------------------------------------------- */

static tp_alloc *first_free(int n)
{
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = n };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	return a;
}

static tp_policy *policy(const char *name, int max_ext, int resubmit)
{
	tp_error err = { "" };
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	o.rbhar_max_ext = max_ext;
	o.rbhar_requeue = resubmit;
	tp_policy *p = tp_policy_create(name, &o, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	return p;
}

static void set_range(tp_nodeset *s, int lo, int hi)
{
	tp_nodeset_zero(s);
	tp_nodeset_set_range(s, lo, hi);
}

START_TEST(queue_order)
{
	tp_alloc *a = first_free(4);
	st_view v;
	st_view_init(&v, a);
	ck_assert_int_eq(st_view_begin(&v, 100, 8), 0);
	/* id, priority, submit */
	static const int64_t rows[][3] = {
		{ 5, 10, 50 }, { 3, 20, 60 }, { 4, 10, 40 }, { 2, 10, 40 },
		{ 9, 30, 90 },
	};
	for (size_t i = 0; i < 5; i++) {
		st_jobdesc d = { .id = rows[i][0], .priority = (uint32_t)rows[i][1],
				 .submit = rows[i][2], .estimate = 10, .nodes = 1,
				 .seq = (int32_t)rows[i][0] };
		ck_assert_int_eq(st_view_add_pending(&v, &d), 0);
	}
	st_view_sort_queue(&v);
	static const int64_t want[] = { 9, 3, 2, 4, 5 };
	for (size_t i = 0; i < 5; i++) {
		ck_assert_int_eq(v.c.queue[i]->id, want[i]);
		/* The arrival index stays the job's own (window-ff's index
		 * rule counts holes by it), not its rank in the queue. */
		ck_assert_int_eq(v.c.queue[i]->seq, (int)want[i]);
	}
	/* The view's storage is bounded: no silent reallocation that would
	 * move tp_jobs under the queue's pointers. */
	st_jobdesc d = { .id = 1, .estimate = 1, .nodes = 1 };
	for (int i = 0; i < 3; i++)
		st_view_add_pending(&v, &d);
	ck_assert_int_eq(st_view_add_pending(&v, &d), -1);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* Completing nodes are a run ending now: a pass may count on them. */
START_TEST(completing_nodes_end_now)
{
	tp_alloc *a = first_free(4);
	st_view v;
	st_view_init(&v, a);
	ck_assert_int_eq(st_view_begin(&v, 100, 4), 0);
	tp_nodeset s, at;
	tp_nodeset_init(&s, 4);
	tp_nodeset_init(&at, 4);
	set_range(&s, 0, 2);
	ck_assert_int_eq(st_view_add_ending(&v, &s), 0);
	set_range(&v.c.free, 3, 4);
	tp_cluster_recount_free(&v.c);
	tp_cluster_free_at(&v.c, 100, &at);
	ck_assert_int_eq(tp_nodeset_count(&at), 3);
	/* An EASY pass reserves the 3-node head at "now" and starts nothing
	 * around it that would outlive that. */
	st_jobdesc h = { .id = 1, .priority = 9, .estimate = 50, .nodes = 3 };
	st_jobdesc x = { .id = 2, .priority = 8, .estimate = 50, .nodes = 1 };
	st_view_add_pending(&v, &h);
	st_view_add_pending(&v, &x);
	st_view_sort_queue(&v);
	tp_policy *p = policy("easy", 1, 0);
	tp_driver_pass(p, &v.c);
	ck_assert_int_eq(v.c.nstarts, 0);
	ck_assert_ptr_eq(v.c.resv_job, v.c.queue[0]);
	ck_assert_int_eq(v.c.resv_time, 100);
	tp_policy_destroy(p);
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&at);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* least-loaded in the plugin's view: nodes of 8, 4 and 2 CPUs, node 0
 * holding 3 CPUs of a running job and node 2 outside the partition (one
 * CPU, taken); a pending 2-CPU job goes to node 1 (0/4 < 3/8), the next
 * to node 0 (3/8 < 2/4), and a 6-CPU one waits: node 0 has 3 free. */
START_TEST(least_loaded_in_the_view)
{
	tp_alloc *a = first_free(3);
	st_view v;
	st_view_init(&v, a);
	ck_assert_int_eq(st_view_begin(&v, 100, 4), 0);
	tp_nodeset_fill(&v.c.free);
	tp_cluster_recount_free(&v.c);
	tp_res_node total[3] = { { .cpus = 8, .mem = 8000 },
				 { .cpus = 4, .mem = 4000 },
				 { .cpus = 1 } };
	ck_assert_int_eq(st_view_attach_res(&v, total), 0);
	st_view_res_take(&v, 0, &(tp_res_node){ .cpus = 3, .mem = 300 });
	st_view_res_take(&v, 2, &(tp_res_node){ .cpus = 1 });
	st_view_res_done(&v);
	ck_assert_int_eq(v.c.nfree, 1); /* node 1 alone is idle */
	st_jobdesc j[3];
	for (int i = 0; i < 3; i++)
		j[i] = (st_jobdesc){ .id = i + 1, .priority = 9, .estimate = 50,
				     .nodes = 1, .has_ask = true,
				     .ask = { .cpus = i < 2 ? 2 : 6, .mem = 100 } };
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(st_view_add_pending(&v, &j[i]), 0);
	st_view_sort_queue(&v);
	tp_policy *p = policy("least-loaded", 1, 0);
	tp_driver_pass(p, &v.c);
	ck_assert_int_eq(v.c.nstarts, 2);
	ck_assert_int_eq(v.c.starts[0].job->id, 1);
	ck_assert_int_eq(tp_nodeset_next(&v.c.starts[0].nodes, 0), 1);
	ck_assert_int_eq(v.c.starts[1].job->id, 2);
	ck_assert_int_eq(tp_nodeset_next(&v.c.starts[1].nodes, 0), 0);
	ck_assert_int_eq(v.c.nqueue, 1); /* the 6-CPU job waits */
	tp_policy_destroy(p);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* window-ff's index rule under slurmctld's priority order: the window is
 * the arrival indices below the oldest waiting job's + W, wherever that
 * job stands in the queue; it moves on when that job starts. */
static void index_window_case(const int (*rows)[3], size_t n, int free_nodes,
			      int window, const int64_t *want, size_t nwant)
{
	tp_alloc *a = first_free(8);
	st_view v;
	st_view_init(&v, a);
	ck_assert_int_eq(st_view_begin(&v, 100, n + 1), 0);
	set_range(&v.c.free, 0, free_nodes);
	tp_cluster_recount_free(&v.c);
	for (size_t i = 0; i < n; i++) {
		/* id = arrival index; priority; nodes */
		st_jobdesc d = { .id = rows[i][0], .priority = (uint32_t)rows[i][1],
				 .submit = 10, .estimate = 50, .nodes = rows[i][2],
				 .seq = rows[i][0] };
		ck_assert_int_eq(st_view_add_pending(&v, &d), 0);
	}
	st_view_sort_queue(&v);
	tp_error err = { "" };
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	o.window = window;
	o.window_rule = TP_WINDOW_INDEX;
	tp_policy *p = tp_policy_create("window-ff", &o, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	tp_driver_pass(p, &v.c);
	ck_assert_uint_eq(v.c.nstarts, nwant);
	for (size_t k = 0; k < nwant; k++)
		ck_assert_int_eq(v.c.starts[k].job->id, want[k]);
	tp_policy_destroy(p);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}

START_TEST(index_window_in_priority_order)
{
	/* Priority reverses arrival: queue 5, 4, 3, 2, 1.  The oldest
	 * waiting job (1) is last in the queue but fixes the window: with
	 * W = 2 only jobs 1 and 2 may start, 2 first (higher priority).
	 * Taking queue[0] (job 5) as the oldest would start 5 and 4 on the
	 * two free nodes. */
	static const int rows[][3] = {
		{ 1, 1, 1 }, { 2, 2, 1 }, { 3, 3, 1 }, { 4, 4, 1 }, { 5, 5, 1 },
	};
	static const int64_t want[] = { 2, 1 };
	index_window_case(rows, 5, 2, 2, want, 2);
}
END_TEST

START_TEST(index_window_moves_when_the_oldest_starts)
{
	/* Queue 3, 1, 2 (priority).  W = 2: window {1, 2}.  Job 3 is
	 * passed over (outside); job 1 starts, the window becomes {2, 3}:
	 * job 3, passed over before, is now inside and starts (1 node
	 * left after it), then job 2 (2 nodes) no longer fits. */
	static const int rows[][3] = { { 3, 9, 1 }, { 1, 5, 1 }, { 2, 1, 2 } };
	static const int64_t want[] = { 1, 3 };
	index_window_case(rows, 3, 3, 2, want, 2);
}
END_TEST

typedef struct seen {
	int n;
	st_limit_dec d[8];
} seen;

static void record(void *arg, st_view *v, const st_limit_dec *d)
{
	seen *s = arg;
	s->d[s->n++] = *d;
}

/*
 * 6 nodes at t = 1000.  A (non-fill) holds 0-3 until 1250; F, a fill job
 * for head H, holds node 4 and reaches its limit now; node 5 is free.
 * H needs 5 nodes: not now even in F's hole ({4,5}), at 1250 yes and
 * without node 4 too (condition 1 holds).  X (1 node, 600 s) would fit the
 * hole but asks more than minTime = 250 s (condition 2 holds).  RB_HAR
 * extends F by minTime, which Slurm's minutes turn into 300 s.
 */
static void rbhar_case(st_view *v, tp_alloc *a, int64_t now, int64_t x_est)
{
	tp_nodeset s;
	tp_nodeset_init(&s, 6);
	ck_assert_int_eq(st_view_begin(v, now, 8), 0);
	set_range(&v->c.free, 5, 6);
	tp_cluster_recount_free(&v->c);
	st_jobdesc ja = { .id = 10, .estimate = 500, .nodes = 4 };
	set_range(&s, 0, 4);
	ck_assert_int_ge(st_view_add_running(v, &ja, 750, 1250, &s, TP_NOT_FILL, 0), 0);
	st_jobdesc jf = { .id = 11, .estimate = 100, .nodes = 1 };
	set_range(&s, 4, 5);
	ck_assert_int_ge(st_view_add_running(v, &jf, 900, 1000, &s, 12, 0), 0);
	st_jobdesc h = { .id = 12, .priority = 9, .submit = 800, .estimate = 900, .nodes = 5 };
	st_jobdesc x = { .id = 13, .priority = 8, .submit = 850, .estimate = x_est, .nodes = 1 };
	st_view_add_pending(v, &h);
	st_view_add_pending(v, &x);
	st_view_sort_queue(v);
	tp_nodeset_fini(&s);
	(void)a;
}

START_TEST(rbhar_extends_rounded_once)
{
	tp_alloc *a = first_free(6);
	tp_policy *p = policy("rb-har", 1, 0);
	st_view v;
	st_fills f;
	seen s = { 0 };
	st_view_init(&v, a);
	st_fills_init(&f);
	st_fills_add(&f, 11, 12);

	rbhar_case(&v, a, 1000, 600);
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 0, 60, ST_ASK_FILL, record, &s), 1);
	ck_assert_int_eq(s.d[0].answer.action, TP_LIMIT_EXTEND);
	ck_assert_int_eq(s.d[0].answer.raw, 250);
	ck_assert_int_eq(s.d[0].answer.arg, 300);
	ck_assert(!s.d[0].answer.denied);
	long ri = tp_cluster_find_run(&v.c, s.d[0].job);
	ck_assert_int_eq(v.c.run[ri].limit, 1300);
	ck_assert_int_eq(v.c.run[ri].extensions, 1);
	ck_assert_int_eq(st_fills_find(&f, 11)->extensions, 1);
	ck_assert_int_eq(st_fills_find(&f, 11)->decided_end, 1000);
	/* the end it granted, for a restart that loses it */
	ck_assert_int_eq(st_fills_find(&f, 11)->granted_end, 1300);
	ck_assert_int_eq(st_fill_lost_extension(st_fills_find(&f, 11), 1000), 300);
	ck_assert_int_eq(p->stats.ext_granted, 1);

	/* The next cycle's view (Slurm's end_time now 1300): not due. */
	s.n = 0;
	rbhar_case(&v, a, 1001, 600);
	v.c.run[1].limit = 1300;
	v.c.run[1].extensions = 1;
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 1, 60, ST_ASK_FILL, record, &s), 0);
	/* At 1300, its one extension used: killed (not a denial). */
	rbhar_case(&v, a, 1299, 600);
	v.c.run[1].limit = 1300;
	v.c.run[1].extensions = 1;
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 1, 60, ST_ASK_FILL, record, &s), 1);
	ck_assert_int_eq(s.d[0].answer.action, TP_LIMIT_KILL);
	ck_assert(!s.d[0].answer.denied);
	ck_assert_int_eq(st_fills_find(&f, 11)->granted_end, 0);
	/* Asked once per limit: the cycle after does not ask again. */
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 1, 60, ST_ASK_FILL, record, &s), 0);
	ck_assert_int_eq(p->stats.ext_denied, 0);

	tp_policy_destroy(p);
	st_fills_fini(&f);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* X asking no more than minTime fits the hole instead: denied. */
START_TEST(rbhar_denies_when_hole_is_wanted)
{
	tp_alloc *a = first_free(6);
	tp_policy *p = policy("rb-har", 1, 0);
	st_view v;
	st_fills f;
	seen s = { 0 };
	st_view_init(&v, a);
	st_fills_init(&f);
	st_fills_add(&f, 11, 12);
	rbhar_case(&v, a, 1000, 200);
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 0, 60, ST_ASK_FILL, record, &s), 1);
	ck_assert_int_eq(s.d[0].answer.action, TP_LIMIT_KILL);
	ck_assert(s.d[0].answer.denied);
	ck_assert_int_eq(v.c.run[1].limit, 1000);
	ck_assert_int_eq(st_fills_find(&f, 11)->granted_end, 0);
	ck_assert_int_eq(p->stats.ext_denied, 1);
	tp_policy_destroy(p);
	st_fills_fini(&f);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* Asked one horizon ahead, not earlier; and never about untracked jobs
 * unless ST_ASK_ALL. */
START_TEST(horizon_and_untracked)
{
	tp_alloc *a = first_free(6);
	tp_policy *p = policy("rb-har", 1, 0);
	st_view v;
	st_fills f;
	seen s = { 0 };
	st_view_init(&v, a);
	st_fills_init(&f);
	st_fills_add(&f, 11, 12);
	rbhar_case(&v, a, 995, 600);
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 4, 60, ST_ASK_FILL, record, &s), 0);
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 5, 60, ST_ASK_FILL, record, &s), 1);
	/* Job 10 (not a fill job) at its limit: only ST_ASK_ALL asks. */
	s.n = 0;
	st_fills_remove(&f, 11);
	rbhar_case(&v, a, 1250, 600);
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 0, 1, ST_ASK_FILL, record, &s), 0);
	ck_assert_int_eq(st_decide_limits(p, &v, &f, 0, 1, ST_ASK_ALL, record, &s), 2);
	ck_assert_int_eq(s.d[0].job->id, 10);  /* job id order */
	ck_assert_int_eq(s.d[0].answer.action, TP_LIMIT_KILL);
	tp_policy_destroy(p);
	st_fills_fini(&f);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* The `mine` filter: a run the caller does not own (the plugin: a fill
 * job of another partition sharing these nodes) is not asked about,
 * and stays due for its owner. */
static bool only_job_10(void *arg, const tp_job *job)
{
	(void)arg;
	return job->id == 10;
}
static bool mine_and_record_n;
static bool any_job(void *arg, const tp_job *job)
{
	(void)arg;
	(void)job;
	mine_and_record_n = true;
	return true;
}

START_TEST(asked_only_by_its_owner)
{
	tp_alloc *a = first_free(6);
	tp_policy *p = policy("rb-har", 1, 0);
	st_view v;
	st_fills f;
	seen s = { 0 };
	st_view_init(&v, a);
	st_fills_init(&f);
	st_fills_add(&f, 11, 12);
	rbhar_case(&v, a, 1000, 600);
	ck_assert_int_eq(st_decide_limits_of(p, &v, &f, 0, 60, ST_ASK_FILL,
					     only_job_10, record, &s), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(st_fills_find(&f, 11)->decided_end, 0);
	ck_assert_int_eq(st_decide_limits_of(p, &v, &f, 0, 60, ST_ASK_FILL,
					     any_job, record, &s), 1);
	ck_assert(mine_and_record_n);
	ck_assert_int_eq(s.d[0].job->id, 11);
	ck_assert_int_eq(s.d[0].answer.action, TP_LIMIT_EXTEND);
	tp_policy_destroy(p);
	st_fills_fini(&f);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* An allocator that places only even sizes (a shape rule, as a torus's
 * boxes or a tree's units make some sizes impossible). */
static int even_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	if (nodes % 2)
		return -1;
	tp_nodeset_zero(out);
	for (int i = tp_nodeset_next(free, 0); i >= 0 && nodes > 0;
	     i = tp_nodeset_next(free, i + 1), nodes--)
		tp_nodeset_set(out, i);
	return nodes ? -1 : 0;
}

static const tp_alloc_ops even_ops = { .name = "even", .place = even_place };

START_TEST(never_placeable_sizes)
{
	tp_alloc *a = tp_alloc_new(&even_ops, 8, NULL);
	ck_assert_ptr_nonnull(a);
	st_view v;
	st_view_init(&v, a);
	ck_assert_int_eq(st_view_begin(&v, 0, 4), 0);
	tp_nodeset all;
	tp_nodeset_init(&all, 8);
	set_range(&all, 0, 6);  /* a partition of 6 of the 8 nodes */
	ck_assert(tp_placeable_test(&v.placeable, v.alloc, &all, 2));
	ck_assert(tp_placeable_test(&v.placeable, v.alloc, &all, 6));
	ck_assert(!tp_placeable_test(&v.placeable, v.alloc, &all, 3));
	ck_assert(!tp_placeable_test(&v.placeable, v.alloc, &all, 8)); /* more than the partition */
	ck_assert(!tp_placeable_test(&v.placeable, v.alloc, &all, 0));
	ck_assert(!tp_placeable_test(&v.placeable, v.alloc, &all, 9));
	/* The answer is remembered per view: a new view asks again. */
	ck_assert_int_eq(v.placeable.known[3], -1);
	ck_assert_int_eq(st_view_begin(&v, 0, 4), 0);
	ck_assert_int_eq(v.placeable.known[3], 0);
	tp_nodeset_fini(&all);
	st_view_fini(&v);
	tp_alloc_destroy(a);
}
END_TEST

/* ---- replay against the engine --------------------------------------- */

typedef struct rjob {
	const tp_wjob *w;
	int state;             /* 0 not arrived, 1 pending, 2 running, 3 done */
	int64_t submit, estimate, start, limit;
	uint32_t prio;
	int attempt, extensions;
	bool fill;
	tp_nodeset nodes;
} rjob;

typedef struct rrec {
	int64_t id, start, end;
	int attempt, extensions;
	tp_status status;
	bool fill;
	char *nodelist;
} rrec;

typedef struct replay {
	const tp_workload *w;
	tp_policy *p;
	tp_alloc *a;
	rjob *j;
	size_t next_arrival;
	uint32_t next_prio;
	st_fills fills;
	st_view v;
	rrec rec[4096];
	size_t nrec, rejected;
	int64_t now;
} replay;

static void add_rec(replay *r, rjob *j, tp_status st)
{
	ck_assert_uint_lt(r->nrec, 4096);
	r->rec[r->nrec++] = (rrec){
		.id = j->w->id, .start = j->start, .end = r->now,
		.attempt = j->attempt, .extensions = j->extensions,
		.status = st, .fill = j->fill,
		.nodelist = tp_nodeset_format(&j->nodes),
	};
}

/* A fresh view of the replay's state, as the plugin builds one. */
static void build(replay *r)
{
	size_t n = r->w->njobs;
	ck_assert_int_eq(st_view_begin(&r->v, r->now, n + 1), 0);
	tp_nodeset_fill(&r->v.c.free);
	tp_cluster_recount_free(&r->v.c);
	for (size_t i = 0; i < n; i++) {
		rjob *j = &r->j[i];
		st_jobdesc d = { .id = j->w->id, .priority = j->prio,
				 .submit = j->submit, .estimate = j->estimate,
				 .nodes = j->w->nodes, .seq = (int32_t)i,
				 .ref = j };
		if (j->state == 2) {
			st_fill *f = st_fills_find(&r->fills, (uint32_t)d.id);
			ck_assert_int_ge(st_view_add_running(&r->v, &d, j->start,
				j->limit, &j->nodes, f ? f->fill_for : TP_NOT_FILL,
				f ? f->extensions : 0), 0);
		} else if (j->state == 1) {
			ck_assert_int_eq(st_view_add_pending(&r->v, &d), 0);
		}
	}
	st_view_sort_queue(&r->v);
}

static void enqueue(replay *r, rjob *j)
{
	j->state = 1;
	j->prio = r->next_prio--;
}

static void apply(void *arg, st_view *v, const st_limit_dec *d)
{
	replay *r = arg;
	rjob *j = st_view_ref(d->job);
	switch (d->answer.action) {
	case TP_LIMIT_EXTEND:
		j->limit = v->c.run[d->run].limit;
		j->extensions++;
		return;
	case TP_LIMIT_KILL:
	case TP_LIMIT_RESUBMIT:
		add_rec(r, j, TP_KILLED);
		tp_cluster_end_run(&v->c, (size_t)d->run, 1);
		st_fills_remove(&r->fills, (uint32_t)j->w->id);
		j->state = 3;
		if (d->answer.action == TP_LIMIT_RESUBMIT) {
			j->attempt++;
			j->extensions = 0;
			j->fill = false;
			j->submit = r->now;
			j->estimate = d->answer.arg > 0 ? d->answer.arg : 1;
			enqueue(r, j);
		}
		return;
	}
}

static int64_t next_time(replay *r)
{
	int64_t t = INT64_MAX;
	if (r->next_arrival < r->w->njobs)
		t = r->w->jobs[r->next_arrival].submit;
	for (size_t i = 0; i < r->w->njobs; i++) {
		rjob *j = &r->j[i];
		if (j->state != 2)
			continue;
		int64_t e = j->start + j->w->runtime;
		if (j->limit < e)
			e = j->limit;
		if (e < t)
			t = e;
	}
	return t;
}

static void step(replay *r)
{
	/* 1. completions, in job order */
	for (size_t i = 0; i < r->w->njobs; i++) {
		rjob *j = &r->j[i];
		if (j->state == 2 && j->start + j->w->runtime <= r->now) {
			add_rec(r, j, j->extensions ? TP_EXTENDED : TP_COMPLETED);
			st_fills_remove(&r->fills, (uint32_t)j->w->id);
			j->state = 3;
		}
	}
	/* 2. limits: the policy decides, every run in job order */
	build(r);
	ck_assert_int_ge(st_decide_limits(r->p, &r->v, &r->fills, 0, 1,
					  ST_ASK_ALL, apply, r), 0);
	/* 3. arrivals; a size no placement can hold is rejected, as the
	 * plugin leaves such a job out of its view */
	tp_nodeset all;
	ck_assert_int_eq(tp_nodeset_init(&all, r->w->nodes), 0);
	tp_nodeset_fill(&all);
	while (r->next_arrival < r->w->njobs &&
	       r->w->jobs[r->next_arrival].submit <= r->now) {
		rjob *j = &r->j[r->next_arrival++];
		j->submit = j->w->submit;
		if (tp_placeable_test(&r->v.placeable, r->v.alloc, &all, j->w->nodes)) {
			enqueue(r, j);
		} else {
			j->state = 3;
			r->rejected++;
		}
	}
	tp_nodeset_fini(&all);
	/* 4. one pass on a fresh view */
	build(r);
	tp_driver_pass(r->p, &r->v.c);
	for (size_t k = 0; k < r->v.c.nstarts; k++) {
		const tp_start *s = &r->v.c.starts[k];
		rjob *j = st_view_ref(s->job);
		j->state = 2;
		j->start = r->now;
		j->limit = r->now + j->estimate;
		j->fill = s->fill_for != TP_NOT_FILL;
		tp_nodeset_copy(&j->nodes, &s->nodes);
		if (j->fill)
			ck_assert_ptr_nonnull(st_fills_add(&r->fills,
				(uint32_t)j->w->id, s->fill_for));
	}
}

static void run_replay(replay *r)
{
	size_t n = r->w->njobs;
	r->j = calloc(n, sizeof(*r->j));
	r->next_prio = UINT32_MAX - 1;
	st_fills_init(&r->fills);
	st_view_init(&r->v, r->a);
	for (size_t i = 0; i < n; i++) {
		r->j[i].w = &r->w->jobs[i];
		r->j[i].estimate = r->w->jobs[i].estimate;
		r->j[i].attempt = 1;
		tp_nodeset_init(&r->j[i].nodes, r->w->nodes);
	}
	for (;;) {
		int64_t t = next_time(r);
		if (t == INT64_MAX)
			break;
		r->now = t;
		step(r);
	}
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(r->j[i].state == 3, "job %" PRId64 " never ended",
			      r->w->jobs[i].id);
		tp_nodeset_fini(&r->j[i].nodes);
	}
	st_view_fini(&r->v);
	st_fills_fini(&r->fills);
	free(r->j);
}

/* Seeded random workload: bursts of equal submit times, sizes 1..nodes,
 * estimates from half to twice the run time (many overruns). */
static void gen(tp_workload *w, uint64_t seed, int nodes, size_t njobs)
{
	tp_rng g;
	tp_rng_seed(&g, seed);
	memset(w, 0, sizeof(*w));
	w->nodes = nodes;
	w->ppn = 1;
	int64_t t = 0;
	for (size_t i = 0; i < njobs; i++) {
		t += tp_rng_below(&g, 3) ? (int64_t)tp_rng_below(&g, 40) : 0;
		int32_t sz = 1 + (int32_t)tp_rng_below(&g, (uint64_t)nodes);
		if (tp_rng_below(&g, 2))
			sz = 1 + sz / 3;
		int64_t run = 1 + (int64_t)tp_rng_below(&g, 120);
		int64_t est = (int64_t)(run * tp_rng_range(&g, 0.5, 2.0));
		tp_wjob j = { .id = (int64_t)i + 1, .submit = t, .runtime = run,
			      .estimate = est > 0 ? est : 1, .nodes = sz };
		ck_assert_int_eq(tp_workload_add(w, &j), 0);
	}
}

static int cmp_rec(const void *a, const void *b)
{
	const tp_record *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->attempt - y->attempt;
}

static int cmp_rrec(const void *a, const void *b)
{
	const rrec *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->attempt - y->attempt;
}

static void compare(const char *name, uint64_t seed, tp_sim_result *sim,
		    replay *r)
{
	qsort(sim->rec, sim->nrec, sizeof(*sim->rec), cmp_rec);
	qsort(r->rec, r->nrec, sizeof(*r->rec), cmp_rrec);
	ck_assert_msg(sim->nrec == r->nrec, "%s seed %" PRIu64 ": %zu runs vs %zu",
		      name, seed, sim->nrec, r->nrec);
	for (size_t i = 0; i < r->nrec; i++) {
		const tp_record *s = &sim->rec[i];
		const rrec *x = &r->rec[i];
		ck_assert_msg(s->id == x->id && s->attempt == x->attempt &&
			      s->start == x->start && s->end == x->end &&
			      s->status == x->status &&
			      s->extensions == x->extensions &&
			      s->fill == x->fill &&
			      !strcmp(s->nodelist, x->nodelist),
			      "%s seed %" PRIu64 ": job %" PRId64 "/%d: engine "
			      "[%" PRId64 ",%" PRId64 ") %s %s ext %d fill %d, "
			      "replay [%" PRId64 ",%" PRId64 ") %s %s ext %d fill %d",
			      name, seed, s->id, s->attempt, s->start, s->end,
			      s->nodelist, tp_status_name(s->status),
			      s->extensions, s->fill, x->start, x->end,
			      x->nodelist, tp_status_name(x->status),
			      x->extensions, x->fill);
	}
}

typedef struct pcase {
	const char *name;
	int window, njob, max_ext, resubmit;
	int64_t max_time;
	tp_window_rule rule;
	int even;          /* the even-sizes allocator: some jobs rejected */
} pcase;

static const pcase cases[] = {
	{ "fcfs", 1, 4, 1, 1, 0, TP_WINDOW_QUEUE, 0 },
	{ "easy", 1, 4, 1, 1, 0, TP_WINDOW_QUEUE, 0 },
	{ "conservative", 1, 4, 1, 1, 0, TP_WINDOW_QUEUE, 0 },
	{ "window-ff", 3, 4, 1, 1, 0, TP_WINDOW_QUEUE, 0 },
	{ "window-ff", 3, 4, 1, 1, 0, TP_WINDOW_INDEX, 0 },
	{ "batch-njob", 1, 3, 1, 1, 0, TP_WINDOW_QUEUE, 0 },
	{ "rb-har", 1, 4, 1, 1, 0, TP_WINDOW_QUEUE, 0 },
	{ "rb-har", 1, 4, 2, 0, 50, TP_WINDOW_QUEUE, 0 },
	{ "easy", 1, 4, 1, 1, 0, TP_WINDOW_QUEUE, 1 },
};

START_TEST(replay_matches_engine)
{
	const pcase *pc = &cases[_i];
	for (uint64_t seed = 1; seed <= 25; seed++) {
		tp_workload w;
		gen(&w, seed * 7919 + (uint64_t)_i, 8, 40);
		tp_error err = { "" };
		tp_policy_opts o;
		tp_policy_opts_default(&o);
		o.window = pc->window;
		o.njob = pc->njob;
		o.rbhar_max_ext = pc->max_ext;
		o.rbhar_requeue = pc->resubmit;
		o.rbhar_max_time = pc->max_time;
		o.window_rule = pc->rule;
		tp_alloc *a = pc->even ? tp_alloc_new(&even_ops, w.nodes, NULL)
				       : first_free(w.nodes);
		tp_policy *ps = tp_policy_create(pc->name, &o, &err);
		tp_policy *pr = tp_policy_create(pc->name, &o, &err);
		ck_assert_ptr_nonnull(ps);
		ck_assert_ptr_nonnull(pr);
		tp_engine_opts eo = { .check = true, .keep_nodelists = true };
		tp_sim_result sim;
		ck_assert_msg(tp_simulate(&w, ps, a, &eo, &sim, &err) == 0, "%s", err.msg);
		static replay r;
		memset(&r, 0, sizeof(r));
		r.w = &w;
		r.p = pr;
		r.a = a;
		run_replay(&r);
		compare(pc->name, seed, &sim, &r);
		ck_assert_uint_eq(sim.rejected, r.rejected);
		if (pc->even)
			ck_assert_uint_gt(r.rejected, 0);
		ck_assert_uint_eq(ps->stats.ext_granted, pr->stats.ext_granted);
		ck_assert_uint_eq(ps->stats.ext_denied, pr->stats.ext_denied);
		for (size_t i = 0; i < r.nrec; i++)
			free(r.rec[i].nodelist);
		tp_sim_result_fini(&sim);
		tp_policy_destroy(ps);
		tp_policy_destroy(pr);
		tp_alloc_destroy(a);
		tp_workload_fini(&w);
	}
}
END_TEST

/* The replay is not vacuous: RB_HAR extended and resubmitted some jobs. */
START_TEST(replay_exercises_rbhar)
{
	uint64_t granted = 0, resubmitted = 0;
	for (uint64_t seed = 1; seed <= 25; seed++) {
		tp_workload w;
		gen(&w, seed * 7919 + 5, 8, 40);
		tp_alloc *a = first_free(8);
		tp_policy *p = policy("rb-har", 1, 1);
		static replay r;
		memset(&r, 0, sizeof(r));
		r.w = &w;
		r.p = p;
		r.a = a;
		run_replay(&r);
		granted += p->stats.ext_granted;
		for (size_t i = 0; i < r.nrec; i++) {
			resubmitted += r.rec[i].attempt > 1;
			free(r.rec[i].nodelist);
		}
		tp_policy_destroy(p);
		tp_alloc_destroy(a);
		tp_workload_fini(&w);
	}
	ck_assert_uint_gt(granted, 0);
	ck_assert_uint_gt(resubmitted, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sched_topo_decide");
	TCase *tc = tcase_create("view");
	tcase_add_test(tc, queue_order);
	tcase_add_test(tc, index_window_in_priority_order);
	tcase_add_test(tc, index_window_moves_when_the_oldest_starts);
	tcase_add_test(tc, completing_nodes_end_now);
	tcase_add_test(tc, rbhar_extends_rounded_once);
	tcase_add_test(tc, rbhar_denies_when_hole_is_wanted);
	tcase_add_test(tc, horizon_and_untracked);
	tcase_add_test(tc, asked_only_by_its_owner);
	tcase_add_test(tc, never_placeable_sizes);
	tcase_add_test(tc, least_loaded_in_the_view);
	suite_add_tcase(s, tc);
	TCase *tr = tcase_create("replay");
	tcase_set_timeout(tr, 120);
	tcase_add_loop_test(tr, replay_matches_engine, 0,
			    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tr, replay_exercises_rbhar);
	suite_add_tcase(s, tr);
	return tp_check_run(s);
}
