/* check_policy_batch_njob.c - unit tests for policy_batch_njob.c. */
#include "alloc_fixtures.h"
#include "check_util.h"
#include "sim_util.h"
#include "settings/settings.h"
#include "model/cluster.h"
#include "engine/engine.h"
#include "policy/policy.h"

#include <inttypes.h>
#include <string.h>

/* ---- fixtures ---------------------------------------------------------- */

/* First free nodes, but capacity counts only wholly free aligned pairs
 * (units of 2 nodes), like the fat tree's Nunit x free MSUs. */
static int ff_place(tp_alloc *a, const tp_nodeset *free,
		const tp_alloc_req *req, tp_nodeset *out)
{
	int nodes = req->nodes;
	(void)a;
	tp_nodeset_zero(out);
	if (tp_nodeset_count(free) < nodes)
		return -1;
	for (int i = tp_nodeset_next(free, 0), got = 0; i >= 0 && got < nodes;
	     i = tp_nodeset_next(free, i + 1), got++)
		tp_nodeset_set(out, i);
	return 0;
}

static int pairs_capacity(tp_alloc *a, const tp_nodeset *free)
{
	int cap = 0;
	for (int i = 0; i + 1 < a->nnodes; i += 2)
		cap += tp_nodeset_test(free, i) && tp_nodeset_test(free, i + 1)
		       ? 2 : 0;
	return cap;
}

static const tp_alloc_ops pairs_ops = {
	.name = "pairs", .flags = 0, .place = ff_place,
	.capacity = pairs_capacity,
};

static tp_alloc *custom(const tp_alloc_ops *ops, int n)
{
	tp_alloc *a = tp_alloc_new(ops, n, NULL);
	ck_assert_ptr_nonnull(a);
	return a;
}

static tp_policy *batch(int njob)
{
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	o.njob = njob;
	tp_error err;
	tp_policy *p = tp_policy_create("batch-njob", &o, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	return p;
}

static tp_job job(int64_t id, int nodes)
{
	return (tp_job){ .id = id, .nodes = nodes, .estimate = 100,
			 .seq = (int32_t)id };
}

static void run_on(tp_cluster *c, tp_job *j, int lo, int hi)
{
	tp_nodeset s;
	ck_assert_int_eq(tp_nodeset_init(&s, c->nnodes), 0);
	tp_nodeset_set_range(&s, lo, hi);
	ck_assert_int_ge(tp_cluster_add_run(c, j, c->now, c->now + 100, &s,
					    TP_NOT_FILL), 0);
	tp_nodeset_fini(&s);
}

static void enqueue_all(tp_cluster *c, tp_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(tp_cluster_enqueue(c, &jobs[i]), 0);
}

static void assert_start(const tp_cluster *c, size_t k, const tp_job *j,
			 const char *nodes)
{
	ck_assert_uint_gt(c->nstarts, k);
	const tp_start *s = &c->starts[k];
	ck_assert_msg(s->job == j, "start %zu: job %" PRId64 ", expected %"
		      PRId64, k, s->job->id, j->id);
	char *txt = tp_nodeset_format(&s->nodes);
	ck_assert_str_eq(txt, nodes);
	free(txt);
	ck_assert_int_eq(s->fill_for, TP_NOT_FILL);
}

/* ---- passes, hand-worked ----------------------------------------------- */

/* doc/methods.md A on 8 idle nodes, Njob = 4; queue J1(2) J2(3) J3(1)
 * J4(4) J5(1).
 *  batch 1: Pjob = 2+3+1+4 = 10 > 8 -> Njob 3: 6 <= 8; largest first:
 *           J2 on 0-2, J1 on 3-4, J3 on 5;
 *  batch 2: Nnode = 2; J4+J5 = 5 > 2 -> J4 alone: 4 > 2 -> stop.
 * J5 (1 node) stays: batch-njob never backfills. */
START_TEST(test_pass_spec_example)
{
	tp_alloc *a = first_free(8);
	tp_policy *p = batch(4);
	tp_cluster c;
	tp_cluster_init(&c, 8, a);
	tp_job j[] = { job(1, 2), job(2, 3), job(3, 1), job(4, 4), job(5, 1) };
	enqueue_all(&c, j, 5);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 3);
	assert_start(&c, 0, &j[1], "0-2");
	assert_start(&c, 1, &j[0], "3-4");
	assert_start(&c, 2, &j[2], "5");
	ck_assert_uint_eq(c.nqueue, 2);
	ck_assert_ptr_eq(c.queue[0], &j[3]);
	ck_assert_ptr_eq(c.queue[1], &j[4]);
	ck_assert_ptr_null(c.resv_job);
	ck_assert_uint_eq(p->stats.backfilled, 0);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* [reading] the pass goes on batch after batch.  Njob = 2, 8 idle nodes;
 * queue a..e (1 node each), then F(8).
 *  [a,b] -> 0, 1; [c,d] -> 2, 3; [e,F]: 9 > 4 -> [e] -> 4;
 *  [F]: 8 > 3 -> stop.  Five jobs start in one pass, more than Njob. */
START_TEST(test_pass_batches_continue)
{
	tp_alloc *a = first_free(8);
	tp_policy *p = batch(2);
	tp_cluster c;
	tp_cluster_init(&c, 8, a);
	tp_job j[] = { job(1, 1), job(2, 1), job(3, 1), job(4, 1), job(5, 1),
		       job(6, 8) };
	enqueue_all(&c, j, 6);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 5);
	const char *where[] = { "0", "1", "2", "3", "4" };
	for (int k = 0; k < 5; k++)
		assert_start(&c, (size_t)k, &j[k], where[k]);
	ck_assert_uint_eq(c.nqueue, 1);
	ck_assert_ptr_eq(c.queue[0], &j[5]);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* Largest first, queue order among equals: A(2) B(3) C(2) on 8 nodes ->
 * B on 0-2, A on 3-4, C on 5-6. */
START_TEST(test_pass_stable_sort)
{
	tp_alloc *a = first_free(8);
	tp_policy *p = batch(4);
	tp_cluster c;
	tp_cluster_init(&c, 8, a);
	tp_job j[] = { job(1, 2), job(2, 3), job(3, 2) };
	enqueue_all(&c, j, 3);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 3);
	assert_start(&c, 0, &j[1], "0-2");
	assert_start(&c, 1, &j[0], "3-4");
	assert_start(&c, 2, &j[2], "5-6");
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* Njob = 1 is FCFS: 4 nodes, X(2) starts, Y(3) does not fit the 2 left,
 * and Z(1) behind it waits. */
START_TEST(test_pass_njob_one)
{
	tp_alloc *a = first_free(4);
	tp_policy *p = batch(1);
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_job j[] = { job(1, 2), job(2, 3), job(3, 1) };
	enqueue_all(&c, j, 3);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 1);
	assert_start(&c, 0, &j[0], "0-1");
	ck_assert_uint_eq(c.nqueue, 2);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* [reading] a failed allocation inside a batch stops the pass.
 * Contiguous allocator, 8 nodes, 2 and 4 busy: free {0,1,3,5,6,7}.
 * Njob = 2; queue Q(3) P(3) T(1).
 *  batch [Q,P]: 6 <= 6; Q on 5-7; P: no 3 adjacent nodes in {0,1,3} ->
 *  fails, stays queued in its place; T is not tried although node 0 is
 *  free. */
START_TEST(test_pass_failed_allocation_stops)
{
	tp_alloc *a = custom(&contig_ops, 8);
	tp_policy *p = batch(2);
	tp_cluster c;
	tp_cluster_init(&c, 8, a);
	tp_job r1 = job(8, 1), r2 = job(9, 1);
	run_on(&c, &r1, 2, 3);
	run_on(&c, &r2, 4, 5);
	tp_job j[] = { job(1, 3), job(2, 3), job(3, 1) };
	enqueue_all(&c, j, 3);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 1);
	assert_start(&c, 0, &j[0], "5-7");
	ck_assert_uint_eq(c.nqueue, 2);
	ck_assert_ptr_eq(c.queue[0], &j[1]);
	ck_assert_ptr_eq(c.queue[1], &j[2]);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* Step 2 uses the allocator's capacity, not the free count.  4 nodes in
 * units {0,1} {2,3}; node 1 busy: 3 free nodes but capacity 2.
 *  queue Y(3) X(1): [Y,X] 4 > 2 -> [Y] 3 > 2 -> stop (first-free could
 *  have placed Y);
 *  queue X(1) Y(3): [X,Y] 4 > 2 -> [X] -> X on node 0; then capacity 2
 *  ({2,3}), Y 3 > 2 -> stop. */
START_TEST(test_pass_capacity)
{
	for (int order = 0; order <= 1; order++) {
		tp_alloc *a = custom(&pairs_ops, 4);
		tp_policy *p = batch(4);
		tp_cluster c;
		tp_cluster_init(&c, 4, a);
		tp_job r = job(9, 1);
		run_on(&c, &r, 1, 2);
		tp_job x = job(1, 1), y = job(2, 3);
		tp_cluster_enqueue(&c, order ? &x : &y);
		tp_cluster_enqueue(&c, order ? &y : &x);
		tp_policy_pass(p, &c);
		if (order) {
			ck_assert_uint_eq(c.nstarts, 1);
			assert_start(&c, 0, &x, "0");
		} else {
			ck_assert_uint_eq(c.nstarts, 0);
		}
		tp_cluster_fini(&c);
		tp_policy_destroy(p);
		tp_alloc_destroy(a);
	}
}
END_TEST

START_TEST(test_pass_empty_queue)
{
	tp_alloc *a = first_free(4);
	tp_policy *p = batch(4);
	tp_cluster c;
	tp_cluster_init(&c, 4, a);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, 0);
	tp_cluster_fini(&c);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}
END_TEST

/* ---- schedules through the engine -------------------------------------- */

static void simulate(const tp_workload *w, tp_policy *p, tp_alloc *a,
		     tp_sim_result *r)
{
	tp_engine_opts o = { .check = true, .keep_nodelists = true };
	tp_error err;
	ck_assert_msg(tp_simulate(w, p, a, &o, r, &err) == 0, "%s", err.msg);
}

/* 4 nodes, Njob = 4.  J1(1 n, 10 s) and J2(2, 5) at 0; J3(3, 5) at 1;
 * J4(1, 5) at 2.
 *  t=0: [J1,J2] 3 <= 4: J2 on 0-1, J1 on 2.
 *  t=1: [J3] 3 > 1: wait.  t=2: [J3,J4] 4 > 1, [J3] > 1: wait (J4 would
 *       fit, but nothing passes the head).
 *  t=5: J2 ends, 3 free: [J3,J4] 4 > 3, [J3] -> 0,1,3.
 *  t=10: J1 and J3 end: [J4] -> 0; it ends at 15. */
START_TEST(test_engine_schedule)
{
	tp_workload w = { .nodes = 4, .ppn = 1 };
	sim_add(&w, 1, 0, 10, 10, 1);
	sim_add(&w, 2, 0, 5, 5, 2);
	sim_add(&w, 3, 1, 5, 5, 3);
	sim_add(&w, 4, 2, 5, 5, 1);
	tp_alloc *a = first_free(4);
	tp_policy *p = batch(4);
	tp_sim_result r;
	simulate(&w, p, a, &r);
	ck_assert_uint_eq(r.nrec, 4);
	ck_assert_int_eq(sim_rec(&r, 1, 1)->start, 0);
	ck_assert_str_eq(sim_rec(&r, 1, 1)->nodelist, "2");
	ck_assert_int_eq(sim_rec(&r, 2, 1)->start, 0);
	ck_assert_str_eq(sim_rec(&r, 2, 1)->nodelist, "0-1");
	ck_assert_int_eq(sim_rec(&r, 3, 1)->start, 5);
	ck_assert_str_eq(sim_rec(&r, 3, 1)->nodelist, "0-1,3");
	ck_assert_int_eq(sim_rec(&r, 4, 1)->start, 10);
	ck_assert_str_eq(sim_rec(&r, 4, 1)->nodelist, "0");
	ck_assert_int_eq(r.last_end, 15);
	for (size_t i = 0; i < r.nrec; i++)
		ck_assert(!r.rec[i].fill);
	tp_sim_result_fini(&r);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
	tp_workload_fini(&w);
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

/* One pass on a random state with a flat allocator: starts on free nodes,
 * none shared; the jobs started are exactly the longest queue prefix that
 * fits the free nodes in order (batches only reorder placement); each
 * batch is placed largest first. */
static void random_pass(int nnodes, int njob)
{
	tp_alloc *a = first_free(nnodes);
	tp_cluster c;
	tp_cluster_init(&c, nnodes, a);
	enum { MAXJ = 64, MAXN = 130 };
	tp_job runs[MAXN], queue[MAXJ];
	ck_assert_int_le(nnodes, MAXN);
	for (int i = 0, n = (int)rnd_in(0, nnodes - 1); i < n; i++) {
		int k = (int)rnd_in(0, nnodes - 1);
		if (!tp_nodeset_test(&c.free, k))
			continue;
		runs[i] = job(1000 + i, 1);
		run_on(&c, &runs[i], k, k + 1);
	}
	int nq = (int)rnd_in(1, MAXJ);
	for (int i = 0; i < nq; i++) {
		queue[i] = job(i, (int)rnd_in(1, nnodes / 2));
		tp_cluster_enqueue(&c, &queue[i]);
	}
	int free0 = tp_nodeset_count(&c.free), prefix = 0, sum = 0;
	while (prefix < nq && sum + queue[prefix].nodes <= free0)
		sum += queue[prefix++].nodes;

	tp_nodeset before, used;
	tp_nodeset_init(&before, nnodes);
	tp_nodeset_init(&used, nnodes);
	tp_nodeset_copy(&before, &c.free);
	tp_policy *p = batch(njob);
	tp_policy_pass(p, &c);
	ck_assert_uint_eq(c.nstarts, (size_t)prefix);
	char got[MAXJ] = {0};
	for (size_t k = 0; k < c.nstarts; k++) {
		const tp_start *s = &c.starts[k];
		ck_assert(tp_nodeset_subset(&s->nodes, &before));
		ck_assert(!tp_nodeset_intersects(&s->nodes, &used));
		ck_assert_int_eq(tp_nodeset_count(&s->nodes), s->job->nodes);
		ck_assert_int_eq(s->fill_for, TP_NOT_FILL);
		tp_nodeset_or(&used, &s->nodes);
		got[s->job->id] = 1;
	}
	/* Batches are consecutive stretches of the queue, each placed
	 * largest first: where the size grows a new batch began, so every
	 * job placed before comes earlier in the queue than every job
	 * placed after. */
	for (size_t k = 1; k < c.nstarts; k++) {
		if (c.starts[k].job->nodes <= c.starts[k - 1].job->nodes)
			continue;
		int64_t max_before = -1, min_after = INT64_MAX;
		for (size_t i = 0; i < c.nstarts; i++) {
			int64_t id = c.starts[i].job->id;
			if (i < k && id > max_before)
				max_before = id;
			if (i >= k && id < min_after)
				min_after = id;
		}
		ck_assert_int_lt(max_before, min_after);
	}
	for (int i = 0; i < prefix; i++)
		ck_assert(got[i]);
	tp_policy_destroy(p);
	tp_nodeset_fini(&before);
	tp_nodeset_fini(&used);
	tp_cluster_fini(&c);
	tp_alloc_destroy(a);
}

START_TEST(test_random_passes)
{
	rng_state = 0x2545f4914f6cdd1dull + (uint64_t)_i;
	for (int k = 0; k < 100; k++)
		random_pass((int)rnd_in(2, 130), (int)rnd_in(1, 8));
}
END_TEST

/* On a flat machine, batches change where jobs go, never when: the start
 * time of every job equals FCFS's.  With the contiguous allocator the
 * engine's checks (free, unshared nodes) hold and every job runs. */
START_TEST(test_random_schedules)
{
	rng_state = 0x853c49e6748fea9bull + (uint64_t)_i;
	int nodes = (int)rnd_in(2, 40), n = 300;
	tp_workload w = { .nodes = nodes, .ppn = 1 };
	int64_t t = 0;
	for (int i = 0; i < n; i++) {
		t += rnd_in(0, 30);
		int64_t est = rnd_in(1, 300);
		sim_add(&w, i, t, rnd_in(1, est), est, (int)rnd_in(1, nodes));
	}
	tp_error err;
	tp_policy *fcfs = tp_policy_create("fcfs", NULL, &err);
	ck_assert_msg(fcfs != NULL, "%s", err.msg);
	tp_policy *p = batch((int)rnd_in(1, 8));
	tp_alloc *a = first_free(nodes), *ct = custom(&contig_ops, nodes);
	tp_sim_result rb, rf;
	simulate(&w, p, a, &rb);
	simulate(&w, fcfs, a, &rf);
	ck_assert_uint_eq(rb.nrec, (size_t)n);
	ck_assert_uint_eq(rf.nrec, (size_t)n);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(sim_rec(&rb, i, 1)->start, sim_rec(&rf, i, 1)->start);
	tp_sim_result_fini(&rb);
	simulate(&w, p, ct, &rb);
	ck_assert_uint_eq(rb.nrec, (size_t)n);
	tp_sim_result_fini(&rb);
	tp_sim_result_fini(&rf);
	tp_alloc_destroy(a);
	tp_alloc_destroy(ct);
	tp_policy_destroy(p);
	tp_policy_destroy(fcfs);
	tp_workload_fini(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("policy_batch_njob");
	TCase *tc = tcase_create("pass");
	tcase_add_test(tc, test_pass_spec_example);
	tcase_add_test(tc, test_pass_batches_continue);
	tcase_add_test(tc, test_pass_stable_sort);
	tcase_add_test(tc, test_pass_njob_one);
	tcase_add_test(tc, test_pass_failed_allocation_stops);
	tcase_add_test(tc, test_pass_capacity);
	tcase_add_test(tc, test_pass_empty_queue);
	suite_add_tcase(s, tc);
	tc = tcase_create("engine");
	tcase_add_test(tc, test_engine_schedule);
	suite_add_tcase(s, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_random_passes, 0, 10);
	tcase_add_loop_test(tc, test_random_schedules, 0, 10);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
