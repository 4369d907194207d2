/* check_driver.c - unit tests for driver/driver.c: the steps every driver
 * (the simulator's engine, sched/topo) takes: a policy's answer for a job
 * at its limit, normalised, rounded to the driver's time unit and applied
 * to the cluster view (tp_driver_at_limit); one pass with the previous
 * decisions and reservation forgotten (tp_driver_pass); tp_round_up. */
#include "check_util.h"

#include <stdint.h>
#include <string.h>

#include "settings/settings.h"
#include "alloc/alloc.h"
#include "driver/admit.h"
#include "driver/driver.h"
#include "driver/switches.h"
#include "model/cluster.h"
#include "policy/policy.h"

/* ---- a stub policy ------------------------------------------------------- */

/* What the stub answers at a limit, and what it saw. */
static struct {
	tp_limit_action action;
	int64_t arg;
	bool deny;            /* count a denied extension */
	int asked;
	size_t ri;
	int64_t now;
	int64_t limit_seen;
	/* pass */
	int passes;
	size_t nstarts_seen;
	tp_job *resv_job_seen;
	int64_t resv_time_seen;
	bool start_head;      /* start queue[0] on the lowest free nodes */
	tp_job *resv_job;     /* reservation to leave */
	int64_t resv_time;
} stub;

static tp_limit_action stub_at_limit(tp_policy *p, tp_cluster *c, size_t ri,
				     int64_t *arg)
{
	stub.asked++;
	stub.ri = ri;
	stub.now = c->now;
	stub.limit_seen = c->run[ri].limit;
	if (stub.deny)
		p->stats.ext_denied++;
	*arg = stub.arg;
	return stub.action;
}

static void stub_pass(tp_policy *p, tp_cluster *c)
{
	stub.passes++;
	stub.nstarts_seen = c->nstarts;
	stub.resv_job_seen = c->resv_job;
	stub.resv_time_seen = c->resv_time;
	if (stub.start_head && c->nqueue) {
		tp_nodeset nodes;
		ck_assert_int_eq(tp_nodeset_init(&nodes, c->nnodes), 0);
		ck_assert_int_eq(tp_alloc_place(c->alloc, &c->free,
						c->queue[0]->nodes, &nodes), 0);
		ck_assert_int_eq(tp_cluster_start(c, 0, &nodes, TP_NOT_FILL), 0);
		tp_nodeset_fini(&nodes);
	}
	c->resv_job = stub.resv_job;
	c->resv_time = stub.resv_time;
}

static const tp_policy_ops stub_ops = {
	.name = "stub",
	.summary = "answers what the test says",
	.pass = stub_pass,
	.at_limit = stub_at_limit,
};

static const tp_policy_ops stub_ops_no_limit = {
	.name = "stub-no-limit",
	.pass = stub_pass,
};

/* ---- a small cluster --------------------------------------------------- */

enum { NNODES = 8 };

typedef struct world {
	tp_alloc *alloc;
	tp_cluster c;
	tp_policy p;
	tp_job jobs[4];
} world;

/* 8 nodes; job 1 runs on 0-1 since 0 with limit 100, job 2 on 2-4 since
 * 10 with limit 300; jobs 3 (2 nodes) and 4 (1 node) wait.  Now 100. */
static void world_init(world *w, const tp_policy_ops *ops)
{
	tp_error err;
	tp_alloc_cfg cfg = { .nnodes = NNODES };
	memset(w, 0, sizeof(*w));
	memset(&stub, 0, sizeof(stub));
	w->alloc = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(w->alloc, "%s", err.msg);
	ck_assert_int_eq(tp_cluster_init(&w->c, NNODES, w->alloc), 0);
	w->p.ops = ops;
	tp_policy_opts_default(&w->p.opts);
	for (int i = 0; i < 4; i++)
		w->jobs[i] = (tp_job){ .id = i + 1, .submit = 0,
				       .estimate = 100 * (i + 1),
				       .nodes = i == 0 ? 2 : i == 1 ? 3 : i == 2 ? 2 : 1,
				       .seq = i };
	tp_nodeset n;
	tp_nodeset_init(&n, NNODES);
	tp_nodeset_set_range(&n, 0, 2);
	ck_assert_int_eq(tp_cluster_add_run(&w->c, &w->jobs[0], 0, 100, &n,
					    TP_NOT_FILL), 0);
	tp_nodeset_zero(&n);
	tp_nodeset_set_range(&n, 2, 5);
	ck_assert_int_eq(tp_cluster_add_run(&w->c, &w->jobs[1], 10, 300, &n,
					    TP_NOT_FILL), 1);
	tp_nodeset_fini(&n);
	ck_assert_int_eq(tp_cluster_enqueue(&w->c, &w->jobs[2]), 0);
	ck_assert_int_eq(tp_cluster_enqueue(&w->c, &w->jobs[3]), 0);
	w->c.now = 100;
}

static void world_fini(world *w)
{
	tp_cluster_fini(&w->c);
	tp_alloc_destroy(w->alloc);
}

/* Run 1 (job 2) is as world_init left it. */
static void assert_other_run_untouched(const world *w)
{
	ck_assert_int_eq(w->c.run[1].limit, 300);
	ck_assert_int_eq(w->c.run[1].extensions, 0);
}

/* ---- tp_driver_at_limit ---------------------------------------------------- */

START_TEST(test_extend_rounded_up_and_applied)
{
	world w;
	world_init(&w, &stub_ops);
	stub.action = TP_LIMIT_EXTEND;
	stub.arg = 90;
	tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(stub.asked, 1);
	ck_assert_int_eq(stub.ri, 0);
	ck_assert_int_eq(stub.now, 100);
	ck_assert_int_eq(stub.limit_seen, 100);
	ck_assert_int_eq(a.action, TP_LIMIT_EXTEND);
	ck_assert_int_eq(a.arg, 120);
	ck_assert_int_eq(a.raw, 90);
	ck_assert(!a.denied);
	ck_assert_int_eq(w.c.run[0].limit, 220);
	ck_assert_int_eq(w.c.run[0].extensions, 1);
	ck_assert_int_eq(w.c.run[0].start, 0);
	assert_other_run_untouched(&w);
	/* nothing else changes: the nodes stay the job's, the queue stays */
	ck_assert_int_eq(tp_nodeset_count(&w.c.free), 3);
	ck_assert_int_eq((int)w.c.nqueue, 2);
	ck_assert_int_eq((int)w.c.nstarts, 0);

	/* a second extension adds to the first; the policy sees the new
	 * limit */
	w.c.now = 220;
	stub.arg = 120; /* a whole number of units: as is */
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(stub.limit_seen, 220);
	ck_assert_int_eq(a.action, TP_LIMIT_EXTEND);
	ck_assert_int_eq(a.arg, 120);
	ck_assert_int_eq(w.c.run[0].limit, 340);
	ck_assert_int_eq(w.c.run[0].extensions, 2);
	/* one second: a whole unit */
	stub.arg = 1;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.arg, 60);
	ck_assert_int_eq(a.raw, 1);
	ck_assert_int_eq(w.c.run[0].limit, 400);
	ck_assert_int_eq(w.c.run[0].extensions, 3);
	assert_other_run_untouched(&w);
	/* the other run */
	stub.arg = 30;
	a = tp_driver_at_limit(&w.p, &w.c, 1, 60);
	ck_assert_int_eq(stub.ri, 1);
	ck_assert_int_eq(w.c.run[1].limit, 360);
	ck_assert_int_eq(w.c.run[1].extensions, 1);
	ck_assert_int_eq(w.c.run[0].limit, 400);
	world_fini(&w);
}
END_TEST

/* An EXTEND by nothing is a KILL, and changes nothing. */
START_TEST(test_extend_by_nothing_is_kill)
{
	static const int64_t nothing[] = { 0, -1, -90, INT64_MIN };
	world w;
	world_init(&w, &stub_ops);
	stub.action = TP_LIMIT_EXTEND;
	for (size_t i = 0; i < sizeof(nothing) / sizeof(nothing[0]); i++) {
		stub.arg = nothing[i];
		tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
		ck_assert_int_eq(a.action, TP_LIMIT_KILL);
		ck_assert_int_eq(a.arg, 0);
		ck_assert(a.raw == nothing[i]);
		ck_assert(!a.denied);
		ck_assert_int_eq(w.c.run[0].limit, 100);
		ck_assert_int_eq(w.c.run[0].extensions, 0);
		/* unit 1 too */
		a = tp_driver_at_limit(&w.p, &w.c, 0, 1);
		ck_assert_int_eq(a.action, TP_LIMIT_KILL);
		ck_assert_int_eq(w.c.run[0].limit, 100);
		ck_assert_int_eq(w.c.run[0].extensions, 0);
	}
	assert_other_run_untouched(&w);
	ck_assert_int_eq(tp_nodeset_count(&w.c.free), 3);
	world_fini(&w);
}
END_TEST

/* KILL as such, and a policy without at_limit (always KILL, never
 * asked for a value). */
START_TEST(test_kill)
{
	world w;
	world_init(&w, &stub_ops);
	stub.action = TP_LIMIT_KILL;
	stub.arg = 500; /* ignored with a KILL */
	tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert_int_eq(a.arg, 0);
	ck_assert(!a.denied);
	ck_assert_int_eq(w.c.run[0].limit, 100);
	ck_assert_int_eq(w.c.run[0].extensions, 0);
	/* carrying a KILL out is the driver's: the run is still there */
	ck_assert_int_eq((int)w.c.nrun, 2);
	world_fini(&w);

	world_init(&w, &stub_ops_no_limit);
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert_int_eq(a.arg, 0);
	ck_assert_int_eq(a.raw, 0);
	ck_assert(!a.denied);
	ck_assert_int_eq(stub.asked, 0);
	ck_assert_int_eq(w.c.run[0].limit, 100);
	world_fini(&w);
}
END_TEST

/* RESUBMIT: the corrected estimate rounded up; the run is not changed
 * (the driver kills and requeues). */
START_TEST(test_resubmit_rounded_up)
{
	world w;
	world_init(&w, &stub_ops);
	stub.action = TP_LIMIT_RESUBMIT;
	stub.arg = 61;
	tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_RESUBMIT);
	ck_assert_int_eq(a.arg, 120);
	ck_assert_int_eq(a.raw, 61);
	ck_assert(!a.denied);
	ck_assert_int_eq(w.c.run[0].limit, 100);
	ck_assert_int_eq(w.c.run[0].extensions, 0);
	ck_assert_int_eq((int)w.c.nrun, 2);
	ck_assert_int_eq((int)w.c.nqueue, 2);
	stub.arg = 180;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.arg, 180);
	stub.arg = 181;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.arg, 240);
	assert_other_run_untouched(&w);
	world_fini(&w);
}
END_TEST

/* Unit 1 (the simulator's seconds) leaves every value as the policy gave
 * it; so does any unit <= 1. */
START_TEST(test_unit_one_leaves_values)
{
	world w;
	world_init(&w, &stub_ops);
	stub.action = TP_LIMIT_EXTEND;
	stub.arg = 90;
	tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 1);
	ck_assert_int_eq(a.arg, 90);
	ck_assert_int_eq(a.raw, 90);
	ck_assert_int_eq(w.c.run[0].limit, 190);
	ck_assert_int_eq(w.c.run[0].extensions, 1);
	stub.arg = 7;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 0);
	ck_assert_int_eq(a.arg, 7);
	ck_assert_int_eq(w.c.run[0].limit, 197);
	ck_assert_int_eq(w.c.run[0].extensions, 2);

	stub.action = TP_LIMIT_RESUBMIT;
	stub.arg = 61;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 1);
	ck_assert_int_eq(a.action, TP_LIMIT_RESUBMIT);
	ck_assert_int_eq(a.arg, 61);
	ck_assert_int_eq(a.raw, 61);
	ck_assert_int_eq(w.c.run[0].limit, 197);
	ck_assert_int_eq(w.c.run[0].extensions, 2);
	world_fini(&w);
}
END_TEST

/* `denied`: the policy refused an extension and counted it
 * (stats.ext_denied); false for any other answer. */
START_TEST(test_denied_follows_policy_stats)
{
	world w;
	world_init(&w, &stub_ops);
	stub.action = TP_LIMIT_KILL;
	stub.deny = true;
	tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert(a.denied);
	ck_assert_int_eq((int)w.p.stats.ext_denied, 1);
	/* a RESUBMIT after a refusal, too */
	stub.action = TP_LIMIT_RESUBMIT;
	stub.arg = 200;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert(a.denied);
	ck_assert_int_eq(a.arg, 240);
	ck_assert_int_eq((int)w.p.stats.ext_denied, 2);
	/* none counted: not denied ("none left" is a plain KILL) */
	stub.deny = false;
	stub.action = TP_LIMIT_KILL;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert(!a.denied);
	ck_assert_int_eq((int)w.p.stats.ext_denied, 2);
	/* counts from before the question do not make it denied */
	w.p.stats.ext_denied = 40;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert(!a.denied);
	stub.action = TP_LIMIT_EXTEND;
	stub.arg = 60;
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert(!a.denied);
	ck_assert_int_eq(a.action, TP_LIMIT_EXTEND);
	world_fini(&w);
}
END_TEST

/* A real policy answers through the same function: rb-har extends a fill
 * job by minTime (rounded up), then kills it or requeues it with a
 * corrected estimate (rounded up); a refusal is `denied`. */
START_TEST(test_rb_har_through_driver)
{
	tp_error err;
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	o.rbhar_max_ext = 1;
	o.rbhar_requeue = 0;
	o.rbhar_factor = 2;
	tp_policy *p = tp_policy_create("rb-har", &o, &err);
	ck_assert_msg(p, "%s", err.msg);
	world w;
	world_init(&w, &stub_ops);
	/* job 1 (nodes 0-1, limit 100) was backfilled around the head, job
	 * 3, which needs 6 nodes: 3 free + job 1's 2 are not enough, and at
	 * 300 (job 2's end) it fits without job 1's.  Job 4 (estimate 400)
	 * is longer than minTime = 300 - 100 = 200. */
	w.jobs[2].nodes = 6;
	w.c.run[0].fill_for = w.jobs[2].id;
	tp_limit_answer a = tp_driver_at_limit(p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_EXTEND);
	ck_assert_int_eq(a.raw, 200);
	ck_assert_int_eq(a.arg, 240);
	ck_assert(!a.denied);
	ck_assert_int_eq(w.c.run[0].extensions, 1);
	ck_assert_int_eq(w.c.run[0].limit, 340);
	ck_assert_int_eq((int)p->stats.ext_granted, 1);
	/* no extension left: killed, not denied */
	w.c.now = 340;
	a = tp_driver_at_limit(p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert(!a.denied);
	ck_assert_int_eq(w.c.run[0].limit, 340);
	/* or requeued with 2 x 340 s, rounded up to 720 */
	p->opts.rbhar_requeue = 1;
	a = tp_driver_at_limit(p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_RESUBMIT);
	ck_assert_int_eq(a.raw, 680);
	ck_assert_int_eq(a.arg, 720);
	ck_assert_int_eq(w.c.run[0].limit, 340);
	ck_assert_int_eq(w.c.run[0].extensions, 1);
	world_fini(&w);

	/* the head fits in the hole: refused, and counted */
	world_init(&w, &stub_ops);
	w.c.run[0].fill_for = w.jobs[2].id;
	a = tp_driver_at_limit(p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert(a.denied);
	ck_assert_int_eq((int)p->stats.ext_denied, 1);
	ck_assert_int_eq(w.c.run[0].limit, 100);
	ck_assert_int_eq(w.c.run[0].extensions, 0);
	/* not a fill job: killed without a refusal */
	w.c.run[0].fill_for = TP_NOT_FILL;
	a = tp_driver_at_limit(p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert(!a.denied);
	world_fini(&w);
	tp_policy_destroy(p);
}
END_TEST

/* ---- tp_driver_pass ----------------------------------------------------------- */

START_TEST(test_pass_forgets_previous_decisions)
{
	world w;
	world_init(&w, &stub_ops);
	/* what an earlier pass left behind */
	w.c.now = 120;
	w.c.resv_job = &w.jobs[1];
	w.c.resv_time = 999;
	stub.start_head = true;
	stub.resv_job = &w.jobs[3];
	stub.resv_time = 300;

	tp_driver_pass(&w.p, &w.c);
	ck_assert_int_eq(stub.passes, 1);
	ck_assert_int_eq((int)stub.nstarts_seen, 0);
	ck_assert_ptr_null(stub.resv_job_seen);
	ck_assert_int_eq(stub.resv_time_seen, 0);
	/* its own decisions are kept */
	ck_assert_int_eq((int)w.c.nstarts, 1);
	ck_assert_ptr_eq(w.c.starts[0].job, &w.jobs[2]);
	ck_assert_int_eq(tp_nodeset_count(&w.c.starts[0].nodes), 2);
	ck_assert_ptr_eq(w.c.resv_job, &w.jobs[3]);
	ck_assert_int_eq(w.c.resv_time, 300);
	ck_assert_int_eq((int)w.c.nrun, 3);
	ck_assert_int_eq((int)w.c.nqueue, 1);
	/* through tp_policy_pass: the counters */
	ck_assert_int_eq((int)w.p.stats.passes, 1);
	ck_assert_int_eq((int)w.p.stats.started, 1);

	/* the next pass starts from nothing again */
	stub.start_head = false;
	stub.resv_job = NULL;
	stub.resv_time = 0;
	w.c.now = 130;
	tp_driver_pass(&w.p, &w.c);
	ck_assert_int_eq(stub.passes, 2);
	ck_assert_int_eq((int)stub.nstarts_seen, 0);
	ck_assert_ptr_null(stub.resv_job_seen);
	ck_assert_int_eq(stub.resv_time_seen, 0);
	ck_assert_int_eq((int)w.c.nstarts, 0);
	ck_assert_ptr_null(w.c.resv_job);
	ck_assert_int_eq((int)w.p.stats.passes, 2);
	ck_assert_int_eq((int)w.p.stats.started, 1);
	/* the job started before still runs */
	ck_assert_int_ge(tp_cluster_find_run(&w.c, &w.jobs[2]), 0);

	/* two starts in one pass, then forgotten by the next */
	stub.start_head = true;
	tp_driver_pass(&w.p, &w.c);
	ck_assert_int_eq((int)w.c.nstarts, 1);
	ck_assert_ptr_eq(w.c.starts[0].job, &w.jobs[3]);
	ck_assert_int_eq((int)w.p.stats.started, 2);
	tp_driver_pass(&w.p, &w.c); /* empty queue */
	ck_assert_int_eq((int)stub.nstarts_seen, 0);
	ck_assert_int_eq((int)w.c.nstarts, 0);
	ck_assert_int_eq((int)w.p.stats.passes, 4);
	world_fini(&w);
}
END_TEST

/* An extension is seen by the pass that follows (the driver's order:
 * limits first, then the pass). */
START_TEST(test_pass_sees_extension)
{
	world w;
	world_init(&w, &stub_ops);
	stub.action = TP_LIMIT_EXTEND;
	stub.arg = 50;
	tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(w.c.run[0].limit, 160);
	/* where nodes will be at 160 */
	tp_nodeset at;
	tp_nodeset_init(&at, NNODES);
	tp_cluster_free_at(&w.c, 159, &at);
	ck_assert_int_eq(tp_nodeset_count(&at), 3);
	tp_cluster_free_at(&w.c, 160, &at);
	ck_assert_int_eq(tp_nodeset_count(&at), 5);
	tp_nodeset_fini(&at);
	tp_driver_pass(&w.p, &w.c);
	ck_assert_int_eq(w.c.run[0].limit, 160);
	world_fini(&w);
}
END_TEST

/* ---- tp_round_up ----------------------------------------------------------------- */

START_TEST(test_round_up)
{
	ck_assert_int_eq(tp_round_up(90, 60), 120);
	ck_assert_int_eq(tp_round_up(60, 60), 60);
	ck_assert_int_eq(tp_round_up(61, 60), 120);
	ck_assert_int_eq(tp_round_up(59, 60), 60);
	ck_assert_int_eq(tp_round_up(1, 60), 60);
	ck_assert_int_eq(tp_round_up(120, 60), 120);
	ck_assert_int_eq(tp_round_up(121, 60), 180);
	ck_assert_int_eq(tp_round_up(1, 2), 2);
	ck_assert_int_eq(tp_round_up(3, 2), 4);
	/* x <= 0: as is */
	ck_assert_int_eq(tp_round_up(0, 60), 0);
	ck_assert_int_eq(tp_round_up(-1, 60), -1);
	ck_assert_int_eq(tp_round_up(-61, 60), -61);
	ck_assert(tp_round_up(INT64_MIN, 60) == INT64_MIN);
	/* near the top: no overflow; saturates where the result would not fit */
	ck_assert(tp_round_up(INT64_MAX - 20, 60) == INT64_MAX - 7); /* MAX % 60 = 7 */
	ck_assert(tp_round_up(INT64_MAX, 60) == INT64_MAX);
	ck_assert(tp_round_up(INT64_MAX - 1, 4) == INT64_MAX); /* would be MAX + 1 */
	/* unit <= 1: as is */
	ck_assert_int_eq(tp_round_up(7, 1), 7);
	ck_assert_int_eq(tp_round_up(7, 0), 7);
	ck_assert_int_eq(tp_round_up(7, -60), 7);
	ck_assert_int_eq(tp_round_up(-7, 0), -7);
	ck_assert(tp_round_up(INT64_MAX, 1) == INT64_MAX);
	/* large values (a year, 1e15 s) */
	ck_assert_int_eq(tp_round_up(31536001, 60), 31536060);
	ck_assert(tp_round_up(1000000000000001LL, 60) == 1000000000000020LL);
	ck_assert(tp_round_up(1000000000000000LL, 1000000000000000LL) ==
		  1000000000000000LL);
	ck_assert(tp_round_up(1, 1000000000000000LL) == 1000000000000000LL);
	/* always a multiple, never smaller, less than a unit more */
	for (int64_t unit = 2; unit <= 120; unit += 7)
		for (int64_t x = 1; x <= 500; x++) {
			int64_t r = tp_round_up(x, unit);
			ck_assert(r % unit == 0 && r >= x && r - x < unit);
		}
}
END_TEST

/* An extension past the run's ceiling (the partition's MaxTime) is
 * refused in the core: a KILL counted as denied, the run untouched; one
 * up to the ceiling exactly is granted. */
START_TEST(test_ceiling_refuses_extension)
{
	world w;
	world_init(&w, &stub_ops);
	w.c.run[0].ceiling = 200;
	stub.action = TP_LIMIT_EXTEND;
	stub.arg = 90; /* 120 in minutes: 100 + 120 > 200 */
	tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert(a.denied);
	ck_assert(a.ceiling);
	ck_assert_int_eq(w.c.run[0].limit, 100);
	ck_assert_int_eq(w.c.run[0].extensions, 0);
	ck_assert_int_eq((int)w.p.stats.ext_denied, 1);
	ck_assert_int_eq((int)w.p.stats.ext_granted, 0);
	w.c.run[0].ceiling = 220; /* exactly reachable */
	a = tp_driver_at_limit(&w.p, &w.c, 0, 60);
	ck_assert_int_eq(a.action, TP_LIMIT_EXTEND);
	ck_assert(!a.denied && !a.ceiling);
	ck_assert_int_eq(w.c.run[0].limit, 220);
	/* a run without a ceiling: INT64_MAX from tp_cluster_add_run */
	ck_assert(w.c.run[1].ceiling == INT64_MAX);
	world_fini(&w);
}
END_TEST

/* rb-har through the driver: a granted extension the ceiling refuses
 * moves from granted to denied in the policy's counters. */
START_TEST(test_ceiling_corrects_policy_counts)
{
	world w;
	world_init(&w, &stub_ops);
	w.c.run[0].ceiling = 100;
	w.p.stats.ext_granted = 3; /* as if the policy had counted it */
	stub.action = TP_LIMIT_EXTEND;
	stub.arg = 1;
	tp_limit_answer a = tp_driver_at_limit(&w.p, &w.c, 0, 1);
	ck_assert_int_eq(a.action, TP_LIMIT_KILL);
	ck_assert_int_eq((int)w.p.stats.ext_granted, 2);
	ck_assert_int_eq((int)w.p.stats.ext_denied, 1);
	world_fini(&w);
}
END_TEST

/* Which runs get the at-limit question: within the horizon, once per
 * limit (an extension makes a new one). */
START_TEST(test_limit_due)
{
	tp_run r = { .start = 0, .limit = 100, .ceiling = INT64_MAX };
	ck_assert(tp_driver_limit_due(&r, 100, 0, -1));
	ck_assert(!tp_driver_limit_due(&r, 99, 0, -1));
	ck_assert(tp_driver_limit_due(&r, 99, 1, -1));
	ck_assert(tp_driver_limit_due(&r, 40, 60, -1));
	ck_assert(!tp_driver_limit_due(&r, 39, 60, -1));
	ck_assert(!tp_driver_limit_due(&r, 100, 0, 100)); /* asked already */
	r.limit = 220;                                    /* extended */
	ck_assert(!tp_driver_limit_due(&r, 100, 60, 100));
	ck_assert(tp_driver_limit_due(&r, 160, 60, 100));
}
END_TEST

/* Admission: per size on the whole set, or a constrained job on its own;
 * a range request on a set. */
START_TEST(test_admit)
{
	tp_error err;
	tp_alloc_cfg cfg = { .nnodes = NNODES };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	tp_placeable p;
	tp_nodeset all, two, scratch;
	ck_assert_int_eq(tp_placeable_init(&p, NNODES), 0);
	tp_nodeset_init(&all, NNODES);
	tp_nodeset_init(&two, NNODES);
	tp_nodeset_init(&scratch, NNODES);
	tp_nodeset_fill(&all);
	tp_nodeset_set_range(&two, 3, 5);
	tp_job j = { .id = 1, .nodes = NNODES };
	ck_assert(tp_driver_admit(&p, a, &all, &j));
	j.nodes = NNODES + 1;
	ck_assert(!tp_driver_admit(&p, a, &all, &j));
	j.nodes = 3;
	j.allowed = &two;
	ck_assert(!tp_driver_admit(&p, a, &all, &j)); /* 3 of 2 allowed */
	j.nodes = 2;
	ck_assert(tp_driver_admit(&p, a, &all, &j));
	tp_alloc_req req = { .max_nodes = 0, .max_groups = 1 };
	ck_assert(!tp_driver_admit_range(a, &two, 3, 5, &req, &scratch));
	ck_assert(tp_driver_admit_range(a, &two, 1, 5, &req, &scratch));
	ck_assert_int_eq(tp_nodeset_count(&scratch), 2); /* the most it can */
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&two);
	tp_nodeset_fini(&scratch);
	tp_placeable_fini(&p);
	tp_alloc_destroy(a);
}
END_TEST

/* --switches=N@wait: N while the wait lasts, none after, none without
 * node groups; a job with no limit never sits out. */
START_TEST(test_switch_limit)
{
	ck_assert_int_eq(tp_switch_limit(0, 30, 10, 20, true), 0);
	ck_assert_int_eq(tp_switch_limit(2, 30, 10, 20, false), 0);
	ck_assert_int_eq(tp_switch_limit(2, 30, 10, 39, true), 2);
	ck_assert_int_eq(tp_switch_limit(2, 30, 10, 40, true), 0);
	ck_assert_int_eq(tp_switch_limit(2, 0, 10, 10, true), 0);
	ck_assert_int_eq(tp_switch_limit(2, TP_SWITCH_WAIT_FOREVER, 10,
					 INT64_MAX / 2, true), 2);
	tp_error err;
	tp_alloc_cfg cfg = { .nnodes = NNODES };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	tp_nodeset free, scratch;
	tp_nodeset_init(&free, NNODES);
	tp_nodeset_init(&scratch, NNODES);
	tp_nodeset_set_range(&free, 0, 1);
	tp_job j = { .id = 1, .nodes = 2 };
	ck_assert(!tp_switch_sits_out(a, &free, &j, &scratch));
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&scratch);
	tp_alloc_destroy(a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver");
	TCase *tc = tcase_create("at_limit");
	tcase_add_test(tc, test_extend_rounded_up_and_applied);
	tcase_add_test(tc, test_extend_by_nothing_is_kill);
	tcase_add_test(tc, test_kill);
	tcase_add_test(tc, test_resubmit_rounded_up);
	tcase_add_test(tc, test_unit_one_leaves_values);
	tcase_add_test(tc, test_denied_follows_policy_stats);
	tcase_add_test(tc, test_rb_har_through_driver);
	suite_add_tcase(s, tc);
	tc = tcase_create("pass");
	tcase_add_test(tc, test_pass_forgets_previous_decisions);
	tcase_add_test(tc, test_pass_sees_extension);
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_add_test(tc, test_ceiling_refuses_extension);
	tcase_add_test(tc, test_ceiling_corrects_policy_counts);
	tcase_add_test(tc, test_limit_due);
	tcase_add_test(tc, test_admit);
	tcase_add_test(tc, test_switch_limit);
	suite_add_tcase(s, tc);
	tc = tcase_create("round_up");
	tcase_add_test(tc, test_round_up);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
