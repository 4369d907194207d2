/* check_policy_conservative.c - unit tests for profile.c and
 * policy_conservative.c. */
#include "alloc_fixtures.h"
#include "check_util.h"
#include "sim_util.h"
#include "settings/settings.h"
#include "model/cluster.h"
#include "engine/engine.h"
#include "topology/fattree.h"
#include "policy/policy.h"
#include "policy/profile.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- fixtures ---------------------------------------------------------- */

static tp_alloc *contig(int n)
{
	tp_alloc *a = tp_alloc_new(&contig_ops, n, NULL);
	ck_assert_ptr_nonnull(a);
	return a;
}

static tp_policy *conservative(void)
{
	tp_error err;
	tp_policy *p = tp_policy_create("conservative", NULL, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	return p;
}

static tp_job job(int64_t id, int nodes, int64_t est)
{
	return (tp_job){ .id = id, .nodes = nodes, .estimate = est,
			 .seq = (int32_t)id };
}

/* Running job on nodes [lo, hi) until `limit`. */
static void run_on(tp_cluster *c, tp_job *j, int lo, int hi, int64_t limit)
{
	tp_nodeset s;
	ck_assert_int_eq(tp_nodeset_init(&s, c->nnodes), 0);
	tp_nodeset_set_range(&s, lo, hi);
	ck_assert_int_ge(tp_cluster_add_run(c, j, c->now, limit, &s,
					    TP_NOT_FILL), 0);
	tp_nodeset_fini(&s);
}

/* Start k was `j` on node list `nodes` ("0-1,3") with fill_for. */
static void assert_start(const tp_cluster *c, size_t k, const tp_job *j,
			 const char *nodes, int64_t fill_for)
{
	ck_assert_uint_gt(c->nstarts, k);
	const tp_start *s = &c->starts[k];
	ck_assert_msg(s->job == j, "start %zu: job %" PRId64 ", expected %"
		      PRId64, k, s->job->id, j->id);
	char *txt = tp_nodeset_format(&s->nodes);
	ck_assert_str_eq(txt, nodes);
	free(txt);
	ck_assert_int_eq(s->fill_for, fill_for);
}

/* ---- profile ----------------------------------------------------------- */

/* 4 nodes, {0,1} busy until 10, {2} until 20, {3} free.  Counts:
 * [0,10) 1, [10,20) 3, [20,inf) 4. */
START_TEST(test_profile_counts)
{
	tp_alloc *a = first_free(4);
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job r1 = job(1, 2, 10), r2 = job(2, 1, 20);
	run_on(&c, &r1, 0, 2, 10);
	run_on(&c, &r2, 2, 3, 20);
	tp_profile p;
	ck_assert_int_eq(tp_profile_init(&p, 4, TP_PROFILE_COUNTS), 0);
	ck_assert_int_eq(tp_profile_build(&p, &c), 0);
	ck_assert_uint_eq(p.n, 3);
	ck_assert_int_eq(p.t[1], 10);
	ck_assert_int_eq(p.free[0], 1);
	ck_assert_int_eq(p.free[1], 3);
	ck_assert_int_eq(p.free[2], 4);
	/* 1 node for 100 s fits now; 2 nodes wait for 10; 4 for 20. */
	ck_assert_int_eq(tp_profile_earliest(&p, a, 1, 100, NULL), 0);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 2, 5, NULL), 10);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 4, 1, NULL), 20);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 5, 1, NULL),
			 TP_PROFILE_NEVER);
	/* Reserve 3 nodes over [10,15): [0,10) 1, [10,15) 0, [15,20) 3,
	 * [20,inf) 4.  2 nodes for 10 s: not at 0 (1), nor 10 (0): at 15. */
	ck_assert_int_eq(tp_profile_reserve(&p, 10, 5, 3, NULL), 0);
	ck_assert_uint_eq(p.n, 4);
	ck_assert_int_eq(p.t[2], 15);
	ck_assert_int_eq(p.free[1], 0);
	ck_assert_int_eq(p.free[2], 3);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 2, 10, NULL), 15);
	/* A 1-node job of 12 s: now [0,10) 1 but [10,12) 0: no; 15. */
	ck_assert_int_eq(tp_profile_earliest(&p, a, 1, 12, NULL), 15);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 1, 10, NULL), 0);
	ck_assert_int_eq(tp_profile_free_for(&p, 1), 10);
	ck_assert_int_eq(tp_profile_free_for(&p, 2), 0);
	ck_assert_int_eq(tp_profile_free_for(&p, 3), 0);
	/* A reservation "for ever" must not overflow time. */
	ck_assert_int_eq(tp_profile_reserve(&p, 20, INT64_MAX, 4, NULL), 0);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 1, 1, NULL), 0);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 1, 11, NULL),
			 TP_PROFILE_NEVER);
	tp_profile_fini(&p);
	tp_cluster_fini(&c);
	tp_alloc_destroy(a);
}
END_TEST

/* Set mode, contiguous allocator, 4 nodes: {1} busy until 10, {3} until
 * 20; free {0,2}.  2 contiguous nodes: not now ({0,2} not adjacent), at 10
 * on {0,1}. */
START_TEST(test_profile_sets)
{
	tp_alloc *a = contig(4);
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job r1 = job(1, 1, 10), r2 = job(2, 1, 20);
	run_on(&c, &r1, 1, 2, 10);
	run_on(&c, &r2, 3, 4, 20);
	tp_profile p;
	tp_nodeset w;
	tp_nodeset_init(&w, 4);
	ck_assert_int_eq(tp_profile_init(&p, 4, TP_PROFILE_SETS), 0);
	ck_assert(tp_profile_has_sets(&p));
	ck_assert_int_eq(tp_profile_build(&p, &c), 0);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 2, 5, &w), 10);
	char *txt = tp_nodeset_format(&w);
	ck_assert_str_eq(txt, "0-1");
	free(txt);
	ck_assert_int_eq(tp_profile_reserve(&p, 10, 5, 2, &w), 0);
	/* 1 node for 100 s: {0} is pinned during [10,15), {2} is free
	 * throughout: now on {2}. */
	ck_assert_int_eq(tp_profile_earliest(&p, a, 1, 100, &w), 0);
	txt = tp_nodeset_format(&w);
	ck_assert_str_eq(txt, "2");
	free(txt);
	/* 3 contiguous for 1 s: [15,20) has {0,1,2}. */
	ck_assert_int_eq(tp_profile_earliest(&p, a, 3, 1, &w), 15);
	tp_nodeset_fini(&w);
	tp_profile_fini(&p);
	tp_cluster_fini(&c);
	tp_alloc_destroy(a);
}
END_TEST

/* A job past its limit still holds its nodes now; assumed gone at now+1. */
START_TEST(test_profile_overdue_job)
{
	tp_alloc *a = first_free(2);
	tp_cluster c;
	tp_cluster_init(&c, 2, a);
	c.now = 50;
	tp_job r = job(1, 2, 10);
	run_on(&c, &r, 0, 2, 40);
	tp_profile p;
	tp_profile_init(&p, 2, TP_PROFILE_COUNTS);
	tp_profile_build(&p, &c);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 1, 1, NULL), 51);
	tp_profile_fini(&p);
	tp_cluster_fini(&c);
	tp_alloc_destroy(a);
}
END_TEST

/* ---- passes, hand-worked ----------------------------------------------- */

/* 4 nodes, R on {0,1} until 10, now 0; queue A(4 n, 5 s), B(2, 20),
 * C(2, 5).  Profile [0,10) 2 free, [10,inf) 4.
 *  A: 4 nodes first at 10 -> reserved [10,15), 0 free then.
 *  B: at 0 its [0,20) crosses [10,15) (0 free); at 10 none; at 15 -> [15,35).
 *  C: at 0 [0,5) lies in [0,10) with 2 free -> starts now on {2,3},
 *     backfilled around A (the first waiting job).
 * Only C starts; A is the reserved head at 10. */
START_TEST(test_pass_brief_example)
{
	tp_alloc *a = first_free(4);
	tp_policy *p = conservative();
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job r = job(9, 2, 10), ja = job(1, 4, 5), jb = job(2, 2, 20),
	       jc = job(3, 2, 5);
	run_on(&c, &r, 0, 2, 10);
	tp_cluster_enqueue(&c, &ja);
	tp_cluster_enqueue(&c, &jb);
	tp_cluster_enqueue(&c, &jc);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 1);
	assert_start(&c, 0, &jc, "2-3", ja.id);
	ck_assert_ptr_eq(c.resv_job, &ja);
	ck_assert_int_eq(c.resv_time, 10);
	ck_assert_uint_eq(c.nqueue, 2);
	ck_assert_ptr_eq(c.queue[0], &ja);
	ck_assert_ptr_eq(c.queue[1], &jb);
	ck_assert_uint_eq(p->stats.backfilled, 1);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* Conservative protects every reservation, EASY only the head's.
 * 4 nodes, R on {0,1} until 10; queue A(3, 10), B(4, 10), D(1, 30),
 * E(1, 5).
 *  A: at 10 -> [10,20), 1 free then.
 *  B: 4 nodes: at 20 -> [20,30), 0 free then.
 *  D: at 0 its [0,30) crosses [20,30) with 0 free -> not now (EASY would
 *     start it: 1 node <= the head's 1 extra node), reserved at 30.
 *  E: at 0 [0,5) has 2 free -> starts now on node 2 (first free).
 * Started: E only, fill_for A. */
START_TEST(test_pass_protects_later_reservations)
{
	tp_alloc *a = first_free(4);
	tp_policy *p = conservative();
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job r = job(9, 2, 10), ja = job(1, 3, 10), jb = job(2, 4, 10),
	       jd = job(3, 1, 30), je = job(4, 1, 5);
	run_on(&c, &r, 0, 2, 10);
	tp_cluster_enqueue(&c, &ja);
	tp_cluster_enqueue(&c, &jb);
	tp_cluster_enqueue(&c, &jd);
	tp_cluster_enqueue(&c, &je);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 1);
	assert_start(&c, 0, &je, "2", ja.id);
	ck_assert_ptr_eq(c.resv_job, &ja);
	ck_assert_int_eq(c.resv_time, 10);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* In-order starts are not backfills; the reserved job is the first that
 * waits, and a later start is a fill for it (not for the old head).
 * 4 idle nodes; queue P(2, 10), Q(4, 10), S(2, 5), T(1, 20).
 *  P: now on {0,1} (in order).
 *  Q: at 10 (after P) -> [10,20).
 *  S: [0,5) has 2 free -> now on {2,3}, fill for Q.
 *  T: [0,20) crosses [10,20) with 0 free -> reserved at 20. */
START_TEST(test_pass_fill_for_first_waiting)
{
	tp_alloc *a = first_free(4);
	tp_policy *p = conservative();
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job jp = job(1, 2, 10), jq = job(2, 4, 10), js = job(3, 2, 5),
	       jt = job(4, 1, 20);
	tp_cluster_enqueue(&c, &jp);
	tp_cluster_enqueue(&c, &jq);
	tp_cluster_enqueue(&c, &js);
	tp_cluster_enqueue(&c, &jt);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 2);
	assert_start(&c, 0, &jp, "0-1", TP_NOT_FILL);
	assert_start(&c, 1, &js, "2-3", jq.id);
	ck_assert_ptr_eq(c.resv_job, &jq);
	ck_assert_int_eq(c.resv_time, 10);
	ck_assert_uint_eq(p->stats.backfilled, 1);
	ck_assert_uint_eq(p->stats.started, 2);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* A job larger than the machine gets no reservation and blocks nobody;
 * with nothing waiting, the start behind it is not a backfill. */
START_TEST(test_pass_never_fits)
{
	tp_alloc *a = first_free(4);
	tp_policy *p = conservative();
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job big = job(1, 8, 10), small = job(2, 1, 10);
	tp_cluster_enqueue(&c, &big);
	tp_cluster_enqueue(&c, &small);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 1);
	assert_start(&c, 0, &small, "0", TP_NOT_FILL);
	ck_assert_ptr_null(c.resv_job);
	ck_assert_uint_eq(c.nqueue, 1);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* Topology: plan with node sets.  Contiguous allocator, 4 nodes, {1} busy
 * until 10, {3} until 20, free {0,2}; queue A(2, 5), B(1, 100), C(1, 100),
 * D(1, 5).
 *  A: no 2 adjacent free nodes now (counts alone would say yes); at 10
 *     {0,1,2} -> {0,1} pinned over [10,15).
 *  B: free throughout [0,100): {0,2} minus pinned {0} -> {2}: now on {2}
 *     (first-free on c->free would have taken the reserved node 0).
 *  C: now: {0} is pinned at 10; at 10 nothing is left; at 15 [15,20)
 *     has {0,1}, [20,...) {0,1,3} -> reserved at 15 on {0}.
 *  D: [0,5) ends before A's pin: now on {0}.
 * Started: B on 2, D on 0, both fills for A. */
START_TEST(test_pass_sets)
{
	tp_alloc *a = contig(4);
	tp_policy *p = conservative();
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job r1 = job(8, 1, 10), r2 = job(9, 1, 20), ja = job(1, 2, 5),
	       jb = job(2, 1, 100), jc = job(3, 1, 100), jd = job(4, 1, 5);
	run_on(&c, &r1, 1, 2, 10);
	run_on(&c, &r2, 3, 4, 20);
	tp_cluster_enqueue(&c, &ja);
	tp_cluster_enqueue(&c, &jb);
	tp_cluster_enqueue(&c, &jc);
	tp_cluster_enqueue(&c, &jd);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 2);
	assert_start(&c, 0, &jb, "2", ja.id);
	assert_start(&c, 1, &jd, "0", ja.id);
	ck_assert_ptr_eq(c.resv_job, &ja);
	ck_assert_int_eq(c.resv_time, 10);
	ck_assert_uint_eq(c.nqueue, 2);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

START_TEST(test_pass_empty_queue)
{
	tp_alloc *a = first_free(4);
	tp_policy *p = conservative();
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job dummy = job(1, 1, 1);
	c.resv_job = &dummy; /* stale from an earlier pass */
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 0);
	ck_assert_ptr_null(c.resv_job);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* ---- schedules through the engine -------------------------------------- */

/* Simulate with the engine's checks on (r is that run).  With checks on,
 * tp_simulate fails at the first job started after its reservation, so
 * r->resv_violations is always 0 here; the same workload is replayed with
 * checks off, where the engine counts such starts instead of stopping, and
 * that count must be 0. */
static void simulate(const tp_workload *w, tp_alloc *a, tp_sim_result *r)
{
	tp_policy *p = conservative();
	tp_engine_opts o = { .check = true };
	tp_error err;
	ck_assert_msg(tp_simulate(w, p, a, &o, r, &err) == 0, "%s", err.msg);
	tp_policy_destroy(p);

	tp_sim_result u;
	p = conservative();
	o.check = false;
	ck_assert_msg(tp_simulate(w, p, a, &o, &u, &err) == 0, "%s", err.msg);
	ck_assert_msg(u.resv_violations == 0,
		      "%" PRIu64 " job(s) started after their reservation",
		      u.resv_violations);
	ck_assert_uint_eq(u.nrec, r->nrec);
	tp_sim_result_fini(&u);
	tp_policy_destroy(p);
}

/* 4 nodes.  J1(2 n, 10 s), J2(4, 5), J3(2, 20) at 0; J4(2, 5) at 1.
 *  t=0: J1 now on {0,1}; J2 at 10; J3 at 15 ([0,20) crosses J2's).
 *  t=1: J4 [1,6) fits beside J1 -> starts, a fill for J2.
 *  t=10: J1 ends, J2 starts; t=15: J2 ends, J3 starts (ends 35).
 * With J1 running only 4 s (estimate 10) the plan compresses:
 *  t=4: J1 ends; J4 holds {2,3} until 6 -> J2 at 6, J3 at 11. */
START_TEST(test_engine_schedule)
{
	for (int early = 0; early <= 1; early++) {
		tp_workload w = { .nodes = 4, .ppn = 1 };
		sim_add(&w, 1, 0, early ? 4 : 10, 10, 2);
		sim_add(&w, 2, 0, 5, 5, 4);
		sim_add(&w, 3, 0, 20, 20, 2);
		sim_add(&w, 4, 1, 5, 5, 2);
		tp_alloc *a = first_free(4);
		tp_sim_result r;
		simulate(&w, a, &r);
		ck_assert_uint_eq(r.nrec, 4);
		ck_assert_int_eq(sim_rec(&r, 1, 1)->start, 0);
		ck_assert_int_eq(sim_rec(&r, 4, 1)->start, 1);
		ck_assert(sim_rec(&r, 4, 1)->fill);
		ck_assert(!sim_rec(&r, 1, 1)->fill);
		ck_assert_int_eq(sim_rec(&r, 2, 1)->start, early ? 6 : 10);
		ck_assert_int_eq(sim_rec(&r, 3, 1)->start, early ? 11 : 15);
		ck_assert_int_eq(r.last_end, early ? 31 : 35);
		tp_sim_result_fini(&r);
		tp_alloc_destroy(a);
		tp_workload_fini(&w);
	}
}
END_TEST

/* ---- randomised invariants --------------------------------------------- */

static uint64_t rng_state;
static uint64_t rnd(void) /* xorshift64*: seeded, reproducible */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}
static int64_t rnd_in(int64_t lo, int64_t hi) /* [lo, hi] */
{
	return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

/* A random busy state: running jobs on random disjoint node sets, a
 * random queue; then one pass.  Starts must use free nodes, none twice,
 * enough of them; the plan's start-now decisions must be exactly those of
 * a full plan (the early stop must not change decisions). */
static void random_pass(tp_alloc *a, int nnodes)
{
	tp_cluster c;
	tp_cluster_init(&c, nnodes, a);
	c.now = rnd_in(0, 1000);
	enum { MAXJ = 64 };
	tp_job runs[MAXJ], queue[MAXJ];
	tp_nodeset s, before, used;
	tp_nodeset_init(&s, nnodes);
	tp_nodeset_init(&before, nnodes);
	tp_nodeset_init(&used, nnodes);
	int nrun = (int)rnd_in(0, MAXJ - 1);
	for (int i = 0; i < nrun; i++) {
		tp_nodeset_zero(&s);
		for (int k = (int)rnd_in(1, 8); k > 0; k--) {
			int n = (int)rnd_in(0, nnodes - 1);
			if (tp_nodeset_test(&c.free, n))
				tp_nodeset_set(&s, n);
		}
		if (!tp_nodeset_count(&s))
			continue;
		runs[i] = job(1000 + i, tp_nodeset_count(&s), 100);
		ck_assert_int_ge(tp_cluster_add_run(&c, &runs[i], c.now - 1,
						    c.now + rnd_in(-5, 200), &s,
						    TP_NOT_FILL), 0);
	}
	int nq = (int)rnd_in(1, MAXJ);
	for (int i = 0; i < nq; i++) {
		queue[i] = job(i, (int)rnd_in(1, nnodes / 2), rnd_in(1, 150));
		tp_cluster_enqueue(&c, &queue[i]);
	}

	/* Full plan, no early stop: which jobs get "now"? */
	char want[MAXJ] = {0};
	tp_profile prof;
	tp_profile_init(&prof, nnodes, tp_alloc_is_flat(a) ? TP_PROFILE_COUNTS
							    : TP_PROFILE_SETS);
	tp_profile_build(&prof, &c);
	for (int i = 0; i < nq; i++) {
		int64_t t = tp_profile_earliest(&prof, a, queue[i].nodes,
						queue[i].estimate, &s);
		if (t == TP_PROFILE_NEVER)
			continue;
		tp_profile_reserve(&prof, t, queue[i].estimate,
				   queue[i].nodes, &s);
		want[i] = t == c.now;
	}
	tp_profile_fini(&prof);

	tp_policy *p = conservative();
	tp_nodeset_copy(&before, &c.free);
	tp_nodeset_zero(&used);
	tp_policy_pass(p, &c);
	char got[MAXJ] = {0};
	for (size_t k = 0; k < c.nstarts; k++) {
		const tp_start *st = &c.starts[k];
		ck_assert(tp_nodeset_subset(&st->nodes, &before));
		ck_assert(!tp_nodeset_intersects(&st->nodes, &used));
		ck_assert_int_ge(tp_nodeset_count(&st->nodes), st->job->nodes);
		tp_nodeset_or(&used, &st->nodes);
		got[st->job->id] = 1;
	}
	for (int i = 0; i < nq; i++)
		ck_assert_msg(got[i] == want[i], "job %d: started %d, plan %d",
			      i, got[i], want[i]);
	tp_policy_destroy(p);
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&before);
	tp_nodeset_fini(&used);
	tp_cluster_fini(&c);
}

START_TEST(test_random_passes)
{
	rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
	int nnodes = (int)rnd_in(4, 130);
	tp_alloc *flat = first_free(nnodes), *sets = contig(nnodes);
	for (int k = 0; k < 50; k++) {
		random_pass(flat, nnodes);
		random_pass(sets, nnodes);
	}
	tp_alloc_destroy(flat);
	tp_alloc_destroy(sets);
}
END_TEST

/* A monotone allocator that can never place some sizes (multiples of 5),
 * as a torus cannot place sizes with no box shape; counts its calls. */
static long g_calls;
static int gappy_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	g_calls++;
	if (nodes % 5 == 0) {
		tp_nodeset_zero(out);
		return -1;
	}
	return contig_place(a, free, req, out);
}

static const tp_alloc_ops gappy_ops = {
	.name = "gappy", .flags = 0, .place = gappy_place,
};

/* An allocator that is NOT monotone, in the simplest way: it places (on
 * the lowest nodes) only when an even number of nodes is free.  The
 * patent's fat-tree rule is not monotone either (an exact fit in a partly
 * used unit disappears when one more node of it is free). */
static int even_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	(void)a;
	int n = tp_nodeset_count(free);
	tp_nodeset_zero(out);
	if (n % 2 || n < nodes)
		return -1;
	for (int i = tp_nodeset_next(free, 0), got = 0; got < nodes;
	     i = tp_nodeset_next(free, i + 1), got++)
		tp_nodeset_set(out, i);
	return 0;
}

static const tp_alloc_ops even_ops = {
	.name = "even", .flags = 0, .place = even_place,
};

/* The oracle: intervals during which nodes are taken (running jobs until
 * their limit, reservations), free sets computed from scratch. */
typedef struct taken {
	int64_t s, e;
	int n;
	tp_nodeset nodes; /* count mode: unused */
} taken;

static int64_t sat_end(int64_t s, int64_t d)
{
	return s > INT64_MAX - d ? INT64_MAX : s + d;
}

/* Free count and (set mode) set at time t. */
static int oracle_free_at(const tp_nodeset *usable, const taken *tk, int ntk,
			  int64_t t, bool sets, tp_nodeset *out)
{
	int n = tp_nodeset_count(usable);
	tp_nodeset_copy(out, usable);
	for (int k = 0; k < ntk; k++)
		if (tk[k].s <= t && t < tk[k].e) {
			n -= tk[k].n;
			if (sets)
				tp_nodeset_andnot(out, &tk[k].nodes);
		}
	return sets ? tp_nodeset_count(out) : n;
}

/* Earliest start >= from among now and every interval boundary (what the
 * profile's segment starts are) where the job fits: by counts, or by the
 * allocator's placement on the nodes free throughout the window. */
static int64_t oracle_earliest(tp_alloc *a, const tp_nodeset *usable,
			       const taken *tk, int ntk, int64_t now,
			       int64_t from, int nodes, int64_t dur, bool sets,
			       tp_nodeset *where)
{
	tp_nodeset w, f;
	tp_nodeset_init(&w, usable->n);
	tp_nodeset_init(&f, usable->n);
	int64_t best = TP_PROFILE_NEVER;
	for (int c = -1; c < 2 * ntk; c++) {
		int64_t s = c < 0 ? now : c % 2 ? tk[c / 2].e : tk[c / 2].s;
		if (s < from || s >= best || s == INT64_MAX)
			continue;
		int64_t e = sat_end(s, dur);
		int ok = 1;
		tp_nodeset_copy(&w, usable);
		for (int b = -1; b < 2 * ntk && ok; b++) {
			int64_t bt = b < 0 ? s : b % 2 ? tk[b / 2].e : tk[b / 2].s;
			if (bt < s || bt >= e)
				continue;
			int cnt = oracle_free_at(usable, tk, ntk, bt, sets, &f);
			ok = cnt >= nodes;
			if (sets)
				tp_nodeset_and(&w, &f);
		}
		if (ok && sets)
			ok = tp_alloc_place(a, &w, nodes, &f) == 0;
		if (ok) {
			best = s;
			if (sets)
				tp_nodeset_copy(where, &f);
		}
	}
	tp_nodeset_fini(&w);
	tp_nodeset_fini(&f);
	return best;
}

/* Random running jobs, then a sequence of earliest + reserve on the
 * profile and on the oracle: same times, same placements. */
static void random_profile(tp_alloc *a, int nnodes, tp_profile_mode mode)
{
	bool sets = mode != TP_PROFILE_COUNTS;
	tp_cluster c;
	tp_cluster_init(&c, nnodes, a);
	c.now = rnd_in(0, 100);
	enum { MAXT = 80 };
	taken tk[MAXT];
	tp_job runs[MAXT];
	int ntk = 0;
	tp_nodeset s, usable, w1, w2;
	tp_nodeset_init(&s, nnodes);
	tp_nodeset_init(&usable, nnodes);
	tp_nodeset_init(&w1, nnodes);
	tp_nodeset_init(&w2, nnodes);
	for (int i = (int)rnd_in(0, 20); i > 0; i--) {
		tp_nodeset_zero(&s);
		int lo = (int)rnd_in(0, nnodes - 1);
		for (int k = lo; k < nnodes && k < lo + rnd_in(1, 6); k++)
			if (tp_nodeset_test(&c.free, k))
				tp_nodeset_set(&s, k);
		if (!tp_nodeset_count(&s))
			continue;
		int64_t lim = c.now + rnd_in(-3, 60);
		runs[ntk] = job(500 + ntk, tp_nodeset_count(&s), 10);
		tp_cluster_add_run(&c, &runs[ntk], c.now - 1, lim, &s, TP_NOT_FILL);
		tk[ntk] = (taken){ c.now, lim > c.now ? lim : c.now + 1,
				   tp_nodeset_count(&s), s };
		tp_nodeset_init(&tk[ntk].nodes, nnodes);
		tp_nodeset_copy(&tk[ntk].nodes, &s);
		ntk++;
	}
	tp_nodeset_copy(&usable, &c.free);
	for (size_t i = 0; i < c.nrun; i++)
		tp_nodeset_or(&usable, &c.run[i].nodes);

	tp_profile p;
	ck_assert_int_eq(tp_profile_init(&p, nnodes, mode), 0);
	ck_assert_int_eq(tp_profile_build(&p, &c), 0);
	for (int q = 0; q < 60 && ntk < MAXT; q++) {
		int nodes = (int)rnd_in(1, nnodes);
		int64_t dur = rnd() % 16 ? rnd_in(1, 80) : INT64_MAX;
		/* Sometimes only after a random time (a boundary or not). */
		int64_t after = rnd() % 4 ? INT64_MIN : c.now + rnd_in(0, 40);
		int64_t t1 = after == INT64_MIN
			     ? tp_profile_earliest(&p, a, nodes, dur, &w1)
			     : tp_profile_earliest_after(&p, a, nodes, dur,
							 after, &w1);
		int64_t t2 = oracle_earliest(a, &usable, tk, ntk, c.now,
					     after == INT64_MIN ? c.now
								: after + 1,
					     nodes, dur, sets, &w2);
		ck_assert_int_eq(t1, t2);
		if (t1 == TP_PROFILE_NEVER)
			continue;
		if (sets)
			ck_assert(tp_nodeset_equal(&w1, &w2));
		ck_assert_int_eq(tp_profile_reserve(&p, t1, dur, nodes, &w1), 0);
		tk[ntk] = (taken){ t1, sat_end(t1, dur), nodes, s };
		tp_nodeset_init(&tk[ntk].nodes, nnodes);
		tp_nodeset_copy(&tk[ntk].nodes, &w1);
		ntk++;
	}
	for (int k = 0; k < ntk; k++)
		tp_nodeset_fini(&tk[k].nodes);
	tp_profile_fini(&p);
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&usable);
	tp_nodeset_fini(&w1);
	tp_nodeset_fini(&w2);
	tp_cluster_fini(&c);
}

START_TEST(test_random_profile)
{
	rng_state = 0x6a09e667f3bcc909ull + (uint64_t)_i;
	int nnodes = (int)rnd_in(1, 70);
	tp_alloc *flat = first_free(nnodes), *sets = contig(nnodes),
		 *gappy = tp_alloc_new(&gappy_ops, nnodes, NULL),
		 *even = tp_alloc_new(&even_ops, nnodes, NULL);
	for (int k = 0; k < 10; k++) {
		random_profile(flat, nnodes, TP_PROFILE_COUNTS);
		random_profile(sets, nnodes, TP_PROFILE_SETS);
		random_profile(sets, nnodes, TP_PROFILE_SETS_MONOTONE);
		random_profile(gappy, nnodes, TP_PROFILE_SETS);
		random_profile(gappy, nnodes, TP_PROFILE_SETS_MONOTONE);
		random_profile(even, nnodes, TP_PROFILE_SETS);
	}
	tp_alloc_destroy(flat);
	tp_alloc_destroy(sets);
	tp_alloc_destroy(gappy);
	tp_alloc_destroy(even);
}
END_TEST

/* A size the allocator can never place costs at most two calls per
 * build, however long the profile; later jobs are not held up by it. */
START_TEST(test_never_placeable_is_cheap)
{
	enum { N = 16 };
	tp_alloc *a = tp_alloc_new(&gappy_ops, N, NULL);
	tp_cluster c;
	tp_cluster_init(&c, N, a);
	tp_job runs[N];
	for (int i = 0; i < N - 1; i++) { /* 15 different ends */
		runs[i] = job(100 + i, 1, 10);
		run_on(&c, &runs[i], i, i + 1, 10 * (i + 1));
	}
	tp_profile p;
	tp_nodeset w;
	tp_nodeset_init(&w, N);
	tp_profile_init(&p, N, TP_PROFILE_SETS_MONOTONE);
	tp_profile_build(&p, &c);
	g_calls = 0;
	ck_assert_int_eq(tp_profile_earliest(&p, a, 5, 1, &w), TP_PROFILE_NEVER);
	ck_assert_int_le(g_calls, 2);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 10, 1, &w), TP_PROFILE_NEVER);
	ck_assert_int_eq(tp_profile_earliest(&p, a, 5, 7, &w), TP_PROFILE_NEVER);
	ck_assert_int_le(g_calls, 4);
	tp_profile_fini(&p);
	tp_nodeset_fini(&w);

	/* Queue: 5 nodes (never), then 1 node: starts now on 15, no fill. */
	tp_policy *pol = conservative();
	tp_job never = job(1, 5, 10), one = job(2, 1, 10);
	tp_cluster_enqueue(&c, &never);
	tp_cluster_enqueue(&c, &one);
	tp_policy_pass(pol, &c);
	ck_assert_uint_eq(c.nstarts, 1);
	assert_start(&c, 0, &one, "15", TP_NOT_FILL);
	tp_policy_destroy(pol);
	tp_cluster_fini(&c);
	tp_alloc_destroy(a);
}
END_TEST

/* Not monotone: a job must not start around the head if that makes the
 * head unplaceable on its window, even off the head's pinned nodes.
 * "even" allocator, 8 nodes, 0-3 busy until 10; queue H(6 n, 10 s),
 * J(1, 50), K(1, 5).
 *  H: 4 free now; at 10 all 8 (even) -> 0-5 pinned over [10,20); the
 *     head's window is all 8 nodes.
 *  J: free throughout [0,50): {6,7} (even) -> node 6, now.  But then H's
 *     window would be 7 nodes (odd): H could not be placed at 10 in the
 *     next pass.  So J gets its next slot: at 10 ({6,7} again) -> later.
 *  K: ends at 5, before H's window: now on 4 (of {4..7}), a fill for H. */
START_TEST(test_pass_not_monotone_guard)
{
	tp_alloc *a = tp_alloc_new(&even_ops, 8, NULL);
	tp_policy *p = conservative();
	tp_cluster c;
	tp_cluster_init(&c, 8, a);
	tp_job r = job(9, 4, 10), jh = job(1, 6, 10), jj = job(2, 1, 50),
	       jk = job(3, 1, 5);
	run_on(&c, &r, 0, 4, 10);
	tp_cluster_enqueue(&c, &jh);
	tp_cluster_enqueue(&c, &jj);
	tp_cluster_enqueue(&c, &jk);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 1);
	assert_start(&c, 0, &jk, "4", jh.id);
	ck_assert_ptr_eq(c.resv_job, &jh);
	ck_assert_int_eq(c.resv_time, 10);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

static void random_workload(tp_workload *w, int nodes, int n, bool exact);

/* Random workloads with allocators that are not monotone: the even one
 * and the fat-tree patent's (64-node tree, 4-node units), exact
 * estimates.  The engine's checks (free nodes, head never later than its
 * reservation) hold. */
START_TEST(test_random_not_monotone)
{
	rng_state = 0xbb67ae8584caa73bull + (uint64_t)_i;
	tp_error err;
	tp_fattree *ft = tp_fattree_generate(3, 4, &err);
	ck_assert_msg(ft != NULL, "%s", err.msg);
	tp_alloc_cfg cfg = { .nnodes = 64, .fattree = ft };
	tp_alloc *fat = tp_alloc_create("fattree-msu", &cfg, &err);
	ck_assert_msg(fat != NULL, "%s", err.msg);
	tp_alloc *even = tp_alloc_new(&even_ops, 64, NULL);
	tp_alloc *allocs[] = { fat, even };
	for (int k = 0; k < 2; k++) {
		tp_workload w;
		random_workload(&w, 64, 300, true);
		for (size_t i = 0; i < w.njobs; i++) /* mostly small jobs */
			if (rnd() % 4)
				w.jobs[i].nodes = (int32_t)rnd_in(1, 8);
		tp_sim_result r;
		simulate(&w, allocs[k], &r);
		ck_assert_uint_eq(r.nrec, w.njobs);
		tp_sim_result_fini(&r);
		tp_workload_fini(&w);
	}
	tp_alloc_destroy(fat);
	tp_alloc_destroy(even);
	tp_fattree_free(ft);
}
END_TEST

/* Every job's first reservation, recorded by a wrapper around the policy
 * that plans the whole queue before each pass (the same plan the policy
 * makes, without its early stop). */
typedef struct first_resv {
	int64_t *t;    /* by job id; INT64_MAX = none yet */
} first_resv;
static first_resv g_first;

static void recording_pass(tp_policy *p, tp_cluster *c)
{
	tp_profile prof;
	tp_nodeset where;
	tp_nodeset_init(&where, c->nnodes);
	tp_profile_init(&prof, c->nnodes, tp_alloc_is_flat(c->alloc)
					  ? TP_PROFILE_COUNTS : TP_PROFILE_SETS);
	tp_profile_build(&prof, c);
	for (size_t i = 0; i < c->nqueue; i++) {
		const tp_job *j = c->queue[i];
		int64_t t = tp_profile_earliest(&prof, c->alloc, j->nodes,
						j->estimate, &where);
		if (t == TP_PROFILE_NEVER)
			continue;
		tp_profile_reserve(&prof, t, j->estimate, j->nodes, &where);
		if (g_first.t[j->id] == INT64_MAX)
			g_first.t[j->id] = t;
	}
	tp_profile_fini(&prof);
	tp_nodeset_fini(&where);
	tp_policy_conservative.pass(p, c);
}

static const tp_policy_ops recording_ops = {
	.name = "conservative-recorded", .summary = "",
	.pass = recording_pass,
};

/* Random workload of n jobs on `nodes` nodes; run time = estimate when
 * exact, else uniform in [1, estimate]. */
static void random_workload(tp_workload *w, int nodes, int n, bool exact)
{
	*w = (tp_workload){ .nodes = nodes, .ppn = 1 };
	int64_t t = 0;
	for (int i = 0; i < n; i++) {
		t += rnd_in(0, 30);
		int64_t est = rnd_in(1, 300);
		sim_add(w, i, t, exact ? est : rnd_in(1, est), est,
			 (int)rnd_in(1, nodes));
	}
}

/* With exact estimates no job starts later than its first reservation,
 * flat or with node sets; the engine's own checks (no busy node, head
 * never later than its reservation) hold with run time <= estimate. */
START_TEST(test_random_schedules)
{
	rng_state = 0xdeadbeefcafef00dull + (uint64_t)_i;
	int nodes = (int)rnd_in(4, 40), n = 300;
	for (int sets = 0; sets <= 1; sets++) {
		tp_alloc *a = sets ? contig(nodes) : first_free(nodes);
		tp_workload w;
		random_workload(&w, nodes, n, true);
		int64_t first[300];
		for (int i = 0; i < n; i++)
			first[i] = INT64_MAX;
		g_first = (first_resv){ first };
		tp_policy pol = { .ops = &recording_ops };
		tp_policy_opts_default(&pol.opts);
		tp_engine_opts o = { .check = true };
		tp_sim_result r;
		tp_error err;
		ck_assert_msg(tp_simulate(&w, &pol, a, &o, &r, &err) == 0,
			      "%s", err.msg);
		ck_assert_uint_eq(r.nrec, (size_t)n);
		for (size_t i = 0; i < r.nrec; i++) {
			const tp_record *rc = &r.rec[i];
			ck_assert_int_ne(first[rc->id], INT64_MAX);
			ck_assert_msg(rc->start <= first[rc->id],
				      "sets=%d job %" PRId64 " reserved at %"
				      PRId64 ", started %" PRId64, sets,
				      rc->id, first[rc->id], rc->start);
		}
		tp_sim_result_fini(&r);
		tp_workload_fini(&w);

		random_workload(&w, nodes, n, false);
		simulate(&w, a, &r);
		ck_assert_uint_eq(r.nrec, (size_t)n);
		tp_sim_result_fini(&r);
		tp_workload_fini(&w);
		tp_alloc_destroy(a);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("policy_conservative");
	TCase *tc = tcase_create("profile");
	tcase_add_test(tc, test_profile_counts);
	tcase_add_test(tc, test_profile_sets);
	tcase_add_test(tc, test_profile_overdue_job);
	tcase_add_test(tc, test_never_placeable_is_cheap);
	suite_add_tcase(s, tc);
	tc = tcase_create("pass");
	tcase_add_test(tc, test_pass_brief_example);
	tcase_add_test(tc, test_pass_protects_later_reservations);
	tcase_add_test(tc, test_pass_fill_for_first_waiting);
	tcase_add_test(tc, test_pass_never_fits);
	tcase_add_test(tc, test_pass_sets);
	tcase_add_test(tc, test_pass_empty_queue);
	tcase_add_test(tc, test_pass_not_monotone_guard);
	suite_add_tcase(s, tc);
	tc = tcase_create("engine");
	tcase_add_test(tc, test_engine_schedule);
	suite_add_tcase(s, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_random_not_monotone, 0, 10);
	tcase_add_loop_test(tc, test_random_profile, 0, 20);
	tcase_add_loop_test(tc, test_random_passes, 0, 20);
	tcase_add_loop_test(tc, test_random_schedules, 0, 10);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
