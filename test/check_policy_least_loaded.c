/* check_policy_least_loaded.c - unit tests for alloc/least_loaded.c and
 * policy_least_loaded.c (the heterogeneous-cluster patent's method):
 * the lowest CPU utilisation with ties to the lower index, memory that
 * rules nodes out, FIFO by submission then id, a job that does not fit
 * waiting without holding later ones back; worked by hand on nodes of
 * 8, 4 and 2 CPUs. */
#include "check_util.h"

#include <string.h>

#include "alloc/alloc.h"
#include "alloc/least_loaded.h"
#include "engine/engine.h"
#include "policy/policy.h"
#include "settings/settings.h"
#include "trace/workload.h"

static void res3(tp_res *r, const int32_t *used)
{
	tp_res_node n[3] = { { .cpus = 8, .mem = 8000 },
			     { .cpus = 4, .mem = 4000 },
			     { .cpus = 2, .mem = 2000 } };
	ck_assert_int_eq(tp_res_init(r, 3, n), 0);
	tp_nodeset one;
	ck_assert_int_eq(tp_nodeset_init(&one, 3), 0);
	for (int x = 0; x < 3; x++) {
		if (!used[x])
			continue;
		tp_nodeset_zero(&one);
		tp_nodeset_set(&one, x);
		tp_res_take(r, &one, &(tp_res_ask){ .cpus = used[x] });
	}
	tp_nodeset_fini(&one);
}

static int first(const tp_nodeset *s)
{
	return tp_nodeset_next(s, 0);
}

START_TEST(test_place)
{
	tp_res r;
	tp_nodeset all, out;
	ck_assert_int_eq(tp_nodeset_init(&all, 3), 0);
	ck_assert_int_eq(tp_nodeset_init(&out, 3), 0);
	tp_nodeset_fill(&all);
	/* 1/8, 0/4, 0/2: the idle nodes tie, the lower index wins */
	res3(&r, (int32_t[]){ 1, 0, 0 });
	ck_assert_int_eq(tp_least_loaded_place(&r, &all, 1, &out), 1);
	ck_assert_int_eq(first(&out), 1);
	ck_assert_int_eq(tp_least_loaded_place(&r, &all, 2, &out), 2);
	ck_assert(tp_nodeset_test(&out, 1) && tp_nodeset_test(&out, 2));
	tp_res_fini(&r);
	/* 2/8 = 1/4 < 1/2: exactly equal, node 0 */
	res3(&r, (int32_t[]){ 2, 1, 1 });
	ck_assert_int_eq(tp_least_loaded_place(&r, &all, 1, &out), 1);
	ck_assert_int_eq(first(&out), 0);
	/* only the nodes given count */
	tp_nodeset_clear(&all, 0);
	ck_assert_int_eq(tp_least_loaded_place(&r, &all, 1, &out), 1);
	ck_assert_int_eq(first(&out), 1);
	ck_assert_int_eq(tp_least_loaded_place(&r, &all, 3, &out), -1);
	tp_res_fini(&r);
	/* whole nodes: the lowest indices */
	ck_assert_int_eq(tp_least_loaded_place(NULL, &all, 2, &out), 2);
	ck_assert(tp_nodeset_test(&out, 1) && tp_nodeset_test(&out, 2));
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&out);
}
END_TEST

typedef struct ll_job {
	int64_t id, submit, run;
	int32_t cpus;
	int64_t mem;
} ll_job;

typedef struct ll_run {
	tp_workload w;
	tp_res_node nodes[3];
	tp_res_ask asks[16];
	tp_sim_result r;
} ll_run;

/* Replay jobs (1 node each, estimate = run) on nodes of the given CPUs
 * and memory under least-loaded, invariants checked. */
static void replay(ll_run *x, const tp_res_node *nodes, int n,
		   const ll_job *jobs, size_t k)
{
	memset(x, 0, sizeof(*x));
	x->w.nodes = n;
	x->w.ppn = 1;
	memcpy(x->nodes, nodes, (size_t)n * sizeof(*nodes));
	x->w.node_res = x->nodes;
	for (size_t i = 0; i < k; i++) {
		x->asks[i] = (tp_res_ask){ .cpus = jobs[i].cpus, .mem = jobs[i].mem };
		tp_wjob wj = { .id = jobs[i].id, .submit = jobs[i].submit,
			       .runtime = jobs[i].run, .estimate = jobs[i].run,
			       .nodes = 1, .ask = &x->asks[i] };
		ck_assert_int_eq(tp_workload_add(&x->w, &wj), 0);
	}
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = n };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	tp_policy *p = tp_policy_create("least-loaded", &o, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	tp_engine_opts eo = { .check = true, .keep_nodelists = true };
	ck_assert_msg(tp_simulate(&x->w, p, a, &eo, &x->r, &err) == 0, "%s", err.msg);
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}

static const tp_record *rec(const ll_run *x, int64_t id)
{
	for (size_t i = 0; i < x->r.nrec; i++)
		if (x->r.rec[i].id == id)
			return &x->r.rec[i];
	ck_abort_msg("job %ld has no record", (long)id);
	return NULL;
}

static void fini(ll_run *x)
{
	tp_sim_result_fini(&x->r);
	tp_workload_fini(&x->w);
}

static const tp_res_node three[] = { { .cpus = 8, .mem = 8000 },
				     { .cpus = 4, .mem = 4000 },
				     { .cpus = 2, .mem = 2000 } };

/* Seven 1-CPU tasks at once: 0 (1/8), 1 (1/4), 2 (1/2), 0 (2/8 < 1/4),
 * 0 (3/8: 2/8 ties 1/4, the lower index), 1 (2/4: 3/8 > 1/4), 0. */
START_TEST(test_order_of_nodes)
{
	ll_job jobs[7];
	for (int i = 0; i < 7; i++)
		jobs[i] = (ll_job){ i + 1, 0, 100, 1, 500 };
	ll_run x;
	replay(&x, three, 3, jobs, 7);
	static const char *const want[] = { "0", "1", "2", "0", "0", "1", "0" };
	for (int i = 0; i < 7; i++) {
		ck_assert_str_eq(rec(&x, i + 1)->nodelist, want[i]);
		ck_assert_int_eq(rec(&x, i + 1)->start, 0);
	}
	fini(&x);
}
END_TEST

/* Memory rules nodes out: a task of 3000 MB never goes to the 2000 MB
 * node, however idle; one of 5000 MB only to the 8000 MB node. */
START_TEST(test_memory)
{
	ll_job jobs[] = { { 1, 0, 100, 1, 100 }, { 2, 0, 100, 1, 100 },
			  { 3, 0, 100, 1, 3000 }, { 4, 0, 100, 1, 5000 } };
	ll_run x;
	replay(&x, three, 3, jobs, 4);
	ck_assert_str_eq(rec(&x, 1)->nodelist, "0");
	ck_assert_str_eq(rec(&x, 2)->nodelist, "1");
	ck_assert_str_eq(rec(&x, 3)->nodelist, "0"); /* 1/8 < 1/4; 2 lacks memory */
	ck_assert_str_eq(rec(&x, 4)->nodelist, "0"); /* only 8000 MB, 4900 free */
	fini(&x);
}
END_TEST

/* FIFO by submission, then id: of two jobs submitted together, id 3
 * goes first whatever the file's order; a job that does not fit (B, 2
 * CPUs beside A's 3 of 4) waits and C (1 CPU) starts beside A at once:
 * no reservation holds it back. */
START_TEST(test_fifo_and_delay)
{
	static const tp_res_node two[] = { { .cpus = 1, .mem = 100 },
					   { .cpus = 1, .mem = 100 } };
	ll_job tie[] = { { 5, 0, 10, 1, 0 }, { 3, 0, 10, 1, 0 } };
	ll_run x;
	replay(&x, two, 2, tie, 2);
	ck_assert_str_eq(rec(&x, 3)->nodelist, "0");
	ck_assert_str_eq(rec(&x, 5)->nodelist, "1");
	fini(&x);
	static const tp_res_node four[] = { { .cpus = 4, .mem = 1000 } };
	ll_job jobs[] = { { 1, 0, 100, 3, 0 }, { 2, 1, 50, 2, 0 },
			  { 3, 2, 50, 1, 0 } };
	replay(&x, four, 1, jobs, 3);
	ck_assert_int_eq(rec(&x, 2)->start, 100);
	ck_assert_int_eq(rec(&x, 3)->start, 2);
	fini(&x);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("least-loaded");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_place);
	tcase_add_test(tc, test_order_of_nodes);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_fifo_and_delay);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
