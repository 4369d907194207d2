/* check_res.c - unit tests for model/res.c (resources inside nodes), the
 * cons-tres allocator and the policies' passes with shared nodes. */
#include "check_util.h"
#include "sim_util.h"
#include "alloc/alloc.h"
#include "model/cluster.h"
#include "model/res.h"
#include "engine/metrics.h"
#include "settings/settings.h"

#include <string.h>

/* ---- the resource model ------------------------------------------------ */

static void four_nodes(tp_res *r, int32_t cpus)
{
	tp_res_node n[4];
	for (int i = 0; i < 4; i++)
		n[i] = (tp_res_node){ .cpus = cpus, .mem = 1000, .gpus = 2 };
	ck_assert_int_eq(tp_res_init(r, 4, n), 0);
}

static void set_of(tp_nodeset *s, int n, const int *x, int k)
{
	ck_assert_int_eq(tp_nodeset_init(s, n), 0);
	for (int i = 0; i < k; i++)
		tp_nodeset_set(s, x[i]);
}

START_TEST(take_give_hosts)
{
	tp_res r;
	four_nodes(&r, 32);
	tp_nodeset n0, out;
	set_of(&n0, 4, (int[]){ 0 }, 1);
	ck_assert_int_eq(tp_nodeset_init(&out, 4), 0);
	tp_res_ask eight = { .cpus = 8, .mem = 100 };
	for (int i = 0; i < 4; i++)
		tp_res_take(&r, &n0, &eight);
	ck_assert_int_eq(tp_res_cpus_used(&r, 0), 32);
	ck_assert_int_eq(tp_res_mem_free(&r, 0), 600);
	ck_assert_int_eq(r.jobs[0], 4);
	ck_assert_int_eq(r.nidle, 3);
	/* node 0 is full: one CPU hosts on the three others only */
	tp_res_ask one = { .cpus = 1 };
	ck_assert_int_eq(tp_res_hosts(&r, &one, NULL, &out), 3);
	ck_assert(!tp_nodeset_test(&out, 0));
	ck_assert_int_eq(tp_res_may_host(&r, &one), 3);
	tp_res_give(&r, &n0, &eight);
	ck_assert_int_eq(tp_res_hosts(&r, &eight, NULL, &out), 4);
	/* a whole-node ask wants a node nothing runs on */
	tp_res_ask whole = { .cpus = 1, .whole = true };
	ck_assert_int_eq(tp_res_hosts(&r, &whole, NULL, &out), 3);
	ck_assert(!tp_nodeset_test(&out, 0));
	/* memory and GPUs count as CPUs do */
	tp_res_ask mem = { .cpus = 1, .mem = 800 };
	ck_assert_int_eq(tp_res_hosts(&r, &mem, NULL, &out), 3);
	tp_res_ask gpus = { .cpus = 1, .gpus = 3 };
	ck_assert_int_eq(tp_res_hosts(&r, &gpus, NULL, &out), 0);
	ck_assert_int_eq(tp_res_overdrawn(&r), -1);
	tp_res_take(&r, &n0, &eight);
	tp_res_take(&r, &n0, &eight); /* 40 of 32 CPUs */
	ck_assert_int_eq(tp_res_overdrawn(&r), 0);
	tp_nodeset_fini(&n0);
	tp_nodeset_fini(&out);
	tp_res_fini(&r);
}
END_TEST

START_TEST(whole_holds_all)
{
	tp_res r;
	four_nodes(&r, 32);
	tp_nodeset n1;
	set_of(&n1, 4, (int[]){ 1 }, 1);
	tp_res_ask whole = { .cpus = 1, .whole = true };
	tp_res_take(&r, &n1, &whole);
	ck_assert_int_eq(tp_res_cpus_used(&r, 1), 32);
	ck_assert(!tp_res_fits(&r, 1, &(tp_res_ask){ .cpus = 1 }));
	tp_res_give(&r, &n1, &whole);
	ck_assert(tp_res_idle(&r, 1));
	ck_assert_int_eq(tp_res_cpus_used(&r, 1), 0);
	/* a projection changes without touching its source */
	tp_res p;
	four_nodes(&p, 32);
	tp_res_take(&r, &n1, &whole);
	tp_res_copy(&p, &r);
	tp_res_give(&p, &n1, &whole);
	ck_assert(tp_res_idle(&p, 1));
	ck_assert(!tp_res_idle(&r, 1));
	tp_nodeset_fini(&n1);
	tp_res_fini(&p);
	tp_res_fini(&r);
}
END_TEST

/* ---- cons-tres ---------------------------------------------------------- */

static tp_alloc *cons_tres(int n)
{
	tp_error err;
	tp_alloc_cfg cfg = { .nnodes = n };
	tp_alloc *a = tp_alloc_create("cons-tres", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	return a;
}

START_TEST(cons_tres_best_fit)
{
	/* 8 nodes of 32 CPUs; free CPUs 32 32 8 32 x 4 24 32: nodes 4 is
	 * full, so the usable blocks (for 4 CPUs) are 0-3 and 5-7. */
	tp_res_node n[8];
	for (int i = 0; i < 8; i++)
		n[i] = (tp_res_node){ .cpus = 32, .mem = 1000 };
	tp_res r;
	ck_assert_int_eq(tp_res_init(&r, 8, n), 0);
	tp_nodeset one, hosts, out;
	ck_assert_int_eq(tp_nodeset_init(&one, 8), 0);
	ck_assert_int_eq(tp_nodeset_init(&hosts, 8), 0);
	ck_assert_int_eq(tp_nodeset_init(&out, 8), 0);
	int32_t used[8] = { 0, 0, 24, 0, 32, 0, 8, 0 };
	for (int x = 0; x < 8; x++) {
		if (!used[x])
			continue;
		tp_nodeset_zero(&one);
		tp_nodeset_set(&one, x);
		tp_res_take(&r, &one, &(tp_res_ask){ .cpus = used[x] });
	}
	tp_alloc *a = cons_tres(8);
	tp_res_ask four = { .cpus = 4 };
	ck_assert_int_eq(tp_res_hosts(&r, &four, NULL, &hosts), 7);
	/* one node: the tighter block (5-7: 88 CPUs against 104), and in it
	 * the node with the fewest CPUs that still hold 4 (node 6, 24) */
	tp_alloc_req req = { .nodes = 1, .res = &r, .ask = &four };
	ck_assert_int_eq(tp_alloc_place_req(a, &hosts, &req, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 1);
	ck_assert(tp_nodeset_test(&out, 6));
	/* four nodes: only block 0-3 holds them, taken from its start */
	req.nodes = 4;
	ck_assert_int_eq(tp_alloc_place_req(a, &hosts, &req, &out), 0);
	for (int x = 0; x < 4; x++)
		ck_assert(tp_nodeset_test(&out, x));
	/* six: the block with more CPUs first (0-3), then the rest */
	req.nodes = 6;
	ck_assert_int_eq(tp_alloc_place_req(a, &hosts, &req, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 6);
	req.nodes = 8;
	ck_assert_int_ne(tp_alloc_place_req(a, &hosts, &req, &out), 0);
	tp_alloc_destroy(a);
	tp_nodeset_fini(&one);
	tp_nodeset_fini(&hosts);
	tp_nodeset_fini(&out);
	tp_res_fini(&r);
}
END_TEST

/* ---- replays with shared nodes ----------------------------------------- */

typedef struct res_job {
	int64_t id, submit, run;
	int32_t nodes, cpus;
	int64_t mem;
	int32_t gpus;
	bool whole;
} res_job;

typedef struct res_run {
	tp_workload w;
	tp_res_node nodes[8];
	tp_res_ask asks[16];
	tp_sim_result r;
} res_run;

/* Replay `jobs` (estimate = run) on n nodes of `cpus` CPUs, 1000 MB and
 * 4 GPUs under `policy` with allocator `alloc`, invariants checked. */
static void replay(res_run *x, int n, int32_t cpus, const res_job *jobs,
		   size_t k, const char *policy, const char *alloc)
{
	memset(x, 0, sizeof(*x));
	x->w.nodes = n;
	x->w.ppn = 1;
	for (int i = 0; i < n; i++)
		x->nodes[i] = (tp_res_node){ .cpus = cpus, .mem = 1000,
					     .gpus = 4 };
	x->w.node_res = x->nodes;
	for (size_t i = 0; i < k; i++) {
		const res_job *j = &jobs[i];
		x->asks[i] = (tp_res_ask){ .cpus = j->cpus ? j->cpus : 1,
					   .mem = j->mem, .gpus = j->gpus,
					   .whole = j->whole };
		tp_wjob wj = { .id = j->id, .submit = j->submit,
			       .runtime = j->run, .estimate = j->run,
			       .nodes = j->nodes, .ask = &x->asks[i] };
		ck_assert_int_eq(tp_workload_add(&x->w, &wj), 0);
	}
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = n };
	tp_alloc *a = tp_alloc_create(alloc, &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	tp_policy *p = tp_policy_create(policy, &o, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	tp_engine_opts eo = { .check = true, .keep_nodelists = true };
	ck_assert_msg(tp_simulate(&x->w, p, a, &eo, &x->r, &err) == 0, "%s: %s",
		      policy, err.msg);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}

static void replay_fini(res_run *x)
{
	tp_sim_result_fini(&x->r);
	tp_workload_fini(&x->w);
}

static const tp_record *rec(const res_run *x, int64_t id)
{
	for (size_t i = 0; i < x->r.nrec; i++)
		if (x->r.rec[i].id == id)
			return &x->r.rec[i];
	ck_abort_msg("job %ld has no record", (long)id);
	return NULL;
}

static const char *const policies[] = {
	"fcfs", "easy", "conservative", "window-ff", "batch-njob", "rb-har",
};

/* Four 8-CPU jobs that fit one 32-CPU node run there together, beside a
 * 32-CPU job on another node: the shared-node site's acceptance case. */
START_TEST(four_share_a_node)
{
	static const res_job jobs[] = {
		{ 1, 0, 3600, 1, 8 }, { 2, 0, 3600, 1, 8 },
		{ 3, 0, 3600, 1, 8 }, { 4, 0, 3600, 1, 8 },
		{ 5, 0, 3600, 1, 32 },
	};
	const char *pol = policies[_i % 6];
	const char *alloc = _i < 6 ? "cons-tres" : "first-free";
	res_run x;
	replay(&x, 4, 32, jobs, 5, pol, alloc);
	for (int id = 1; id <= 5; id++)
		ck_assert_int_eq(rec(&x, id)->start, 0);
	for (int id = 2; id <= 4; id++)
		ck_assert_str_eq(rec(&x, id)->nodelist, rec(&x, 1)->nodelist);
	ck_assert_str_ne(rec(&x, 5)->nodelist, rec(&x, 1)->nodelist);
	/* a node counts once: 2 of 4 nodes busy the whole time */
	tp_summary s;
	tp_summarize(&x.r, &s);
	ck_assert_msg(s.utilisation > 0.4999 && s.utilisation < 0.5001,
		      "%s: utilisation %f", pol, s.utilisation);
	ck_assert_msg(s.cpu_utilisation > 0.4999 && s.cpu_utilisation < 0.5001,
		      "%s: CPU utilisation %f", pol, s.cpu_utilisation);
	replay_fini(&x);
}
END_TEST

/* A job of whole nodes waits for nodes nothing runs on, though CPUs are
 * free on every node. */
START_TEST(whole_waits_for_idle)
{
	static const res_job jobs[] = {
		{ 1, 0, 100, 1, 16 }, { 2, 0, 100, 1, 16 },
		{ 3, 0, 100, 1, 16 }, { 4, 0, 200, 1, 16 },
		{ 5, 1, 50, 3, 1, 0, 0, true },
	};
	const char *pol = policies[_i];
	res_run x;
	replay(&x, 4, 32, jobs, 5, pol, "cons-tres");
	/* packed two a node on nodes 0 and 1: 2 and 3 idle, one short */
	ck_assert_str_eq(rec(&x, 1)->nodelist, rec(&x, 2)->nodelist);
	ck_assert_str_eq(rec(&x, 3)->nodelist, rec(&x, 4)->nodelist);
	ck_assert_int_eq(rec(&x, 5)->start, 100);
	replay_fini(&x);
}
END_TEST

/* Backfilling with shared nodes: node 0 has 2 of 4 CPUs busy until 100,
 * node 1 is full until 200; the head wants a whole node (node 0 at 100).
 * A 1-CPU job ending by then starts now beside job 1; a long one would
 * keep node 0 busy past 100 and waits for the head (until 150). */
START_TEST(backfill_around_whole_head)
{
	static const res_job jobs[] = {
		{ 1, 0, 100, 1, 2 }, { 2, 0, 200, 1, 4 },
		{ 3, 1, 50, 1, 1, 0, 0, true },
		{ 4, 2, 50, 1, 1 }, { 5, 3, 500, 1, 1 },
	};
	const char *pol = _i ? "conservative" : "easy";
	res_run x;
	replay(&x, 2, 4, jobs, 5, pol, "cons-tres");
	ck_assert_int_eq(rec(&x, 3)->start, 100);
	ck_assert_int_eq(rec(&x, 4)->start, 2);
	ck_assert_str_eq(rec(&x, 4)->nodelist, rec(&x, 1)->nodelist);
	ck_assert_int_eq(rec(&x, 5)->start, 150);
	ck_assert(rec(&x, 4)->fill);
	replay_fini(&x);
}
END_TEST

/* GPUs and memory are counted as CPUs are: two 3-GPU jobs cannot share
 * a 4-GPU node, two 600 MB jobs cannot share a 1000 MB node; a 1-GPU job
 * joins a 3-GPU one. */
START_TEST(gpus_and_memory)
{
	static const res_job jobs[] = {
		{ 1, 0, 100, 1, 1, 0, 3 }, { 2, 0, 100, 1, 1, 0, 3 },
		{ 3, 0, 100, 1, 1, 0, 1 },
		{ 4, 500, 100, 1, 1, 600 }, { 5, 500, 100, 1, 1, 600 },
	};
	res_run x;
	replay(&x, 1, 32, jobs, 5, "fcfs", "cons-tres");
	ck_assert_int_eq(rec(&x, 1)->start, 0);
	ck_assert_int_eq(rec(&x, 2)->start, 100);
	ck_assert_int_eq(rec(&x, 3)->start, 100);
	ck_assert_int_eq(rec(&x, 4)->start, 500);
	ck_assert_int_eq(rec(&x, 5)->start, 600);
	replay_fini(&x);
}
END_TEST

/* A job asking more of a node than any node has is refused at arrival. */
START_TEST(too_big_rejected)
{
	static const res_job jobs[] = {
		{ 1, 0, 100, 1, 64 }, { 2, 0, 100, 1, 8 },
	};
	res_run x;
	replay(&x, 2, 32, jobs, 2, "easy", "cons-tres");
	ck_assert_int_eq(x.r.rejected, 1);
	ck_assert_int_eq(x.r.nrec, 1);
	replay_fini(&x);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("res");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, take_give_hosts);
	tcase_add_test(tc, whole_holds_all);
	tcase_add_test(tc, cons_tres_best_fit);
	tcase_add_loop_test(tc, four_share_a_node, 0, 12);
	tcase_add_loop_test(tc, whole_waits_for_idle, 0, 6);
	tcase_add_loop_test(tc, backfill_around_whole_head, 0, 2);
	tcase_add_test(tc, gpus_and_memory);
	tcase_add_test(tc, too_big_rejected);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
