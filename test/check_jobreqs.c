/*
 * check_jobreqs.c - per-job node requests (trace/jobreqs.h): every key read
 * into the request and onto the trace's job, every error naming
 * FILE:LINE and the value, and a replay that honours them (the engine's
 * checks on).
 */
#include "check_util.h"
#include "tmpdir_util.h"

#include "settings/settings.h"
#include "alloc/alloc.h"
#include "engine/engine.h"
#include "trace/jobreqs.h"
#include "policy/policy.h"

#define NN 16

/* Nodes n1..n16 are indices 0..15. */
static int index_of(const void *ctx, const char *name)
{
	(void)ctx;
	char *end;
	if (name[0] != 'n')
		return -1;
	long k = strtol(name + 1, &end, 10);
	return *end || k < 1 || k > NN ? -1 : (int)k - 1;
}

static void workload(tp_workload *w)
{
	*w = (tp_workload){ .nodes = NN, .ppn = 1 };
	for (int i = 1; i <= 4; i++) {
		tp_wjob j = { .id = 10 * i, .submit = i, .runtime = 50,
			      .estimate = 60, .nodes = 2 };
		ck_assert_int_eq(tp_workload_add(w, &j), 0);
	}
}

static void assert_set(const tp_nodeset *s, const char *want)
{
	char *got = tp_nodeset_format(s);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(every_key)
{
	ck_assert_int_eq(tmpdir_make("check_jobreqs"), 0);
	const char *p = tmpdir_write("r.conf",
		"# requests\n"
		"JobId=10 NodeList=n3 Exclude=n[1-2]\n"
		"JobId=20 Nodes=n[9-16] Exclude=n16 MaxNodes=6 \\\n"
		"  Contiguous=yes Switches=1\n"
		"JobId=30 Contiguous=no\n");
	tp_jobreqs q;
	tp_error err = { "" };
	ck_assert_msg(tp_jobreqs_read(&q, p, NN, index_of, NULL, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_eq(q.n, 3);
	ck_assert(q.r[0].has_allowed);
	assert_set(&q.r[0].required, "2");
	assert_set(&q.r[0].allowed, "2-15");
	assert_set(&q.r[1].allowed, "8-14");
	ck_assert_int_eq(q.r[1].max_nodes, 6);
	ck_assert_int_eq(q.r[1].max_groups, 1);
	ck_assert(q.r[1].contiguous);
	ck_assert_int_eq(q.r[1].line, 3);
	ck_assert(!q.r[2].has_allowed);

	tp_workload w;
	workload(&w);
	ck_assert_msg(tp_jobreqs_apply(&q, &w, &err) == 0, "%s", err.msg);
	ck_assert_ptr_eq(w.jobs[0].allowed, &q.r[0].allowed);
	ck_assert_ptr_eq(w.jobs[0].required, &q.r[0].required);
	ck_assert_int_eq(w.jobs[1].max_nodes, 6);
	ck_assert_int_eq(w.jobs[1].max_groups, 1);
	ck_assert(w.jobs[1].contiguous);
	ck_assert_ptr_null(w.jobs[1].required);   /* none named */
	ck_assert_ptr_null(w.jobs[2].allowed);    /* every node */
	ck_assert_ptr_null(w.jobs[3].allowed);    /* not listed */
	tp_workload_fini(&w);
	tp_jobreqs_fini(&q);
	tmpdir_remove();
}
END_TEST

/* Each bad file: the error names the file's line and the value. */
START_TEST(errors_name_line_and_value)
{
	static const struct { const char *text, *line, *what; } cases[] = {
		{ "JobId=10 Foo=1\n", ":1:", "'Foo'" },
		{ "\nJobId=x\n", ":2:", "'x'" },
		{ "JobId=10 NodeList=n99\n", ":1:", "'n99'" },
		{ "JobId=10 NodeList=n[3-\n", ":1:", "n[3-" },
		{ "JobId=10 MaxNodes=0\n", ":1:", "'0'" },
		{ "JobId=10 Switches=two\n", ":1:", "'two'" },
		{ "JobId=10 Contiguous=maybe\n", ":1:", "'maybe'" },
		{ "NodeList=n1\n", ":1:", "JobId" },
		{ "JobId=10\n\nJobId=10\n", ":3:", "line 1" },
		{ "JobId=10 NodeList=n1 Exclude=n1\n", ":1:", "excluded" },
		{ "JobId=10 NodeList=n1 Nodes=n[2-4]\n", ":1:", "outside" },
		/* a second value replaced the first without a word */
		{ "JobId=10 MaxNodes=4 maxnodes=6\n", ":1:", "key 'maxnodes' given twice" },
	};
	ck_assert_int_eq(tmpdir_make("check_jobreqs"), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = tmpdir_write("bad.conf", cases[i].text);
		tp_jobreqs q;
		tp_error err = { "" };
		ck_assert_int_eq(tp_jobreqs_read(&q, p, NN, index_of, NULL, &err), -1);
		ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, cases[i].line) &&
			      strstr(err.msg, cases[i].what),
			      "case %zu: '%s'", i, err.msg);
		ck_assert_uint_eq(q.n, 0);
	}
	tp_jobreqs q;
	tp_error err = { "" };
	ck_assert_int_eq(tp_jobreqs_read(&q, "/nonexistent/r.conf", NN, index_of,
					 NULL, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/r.conf"));
	tmpdir_remove();
}
END_TEST

/* Errors only the trace can show: a job not in it, MaxNodes below its
 * count, more -w nodes than it may get. */
START_TEST(errors_against_the_trace)
{
	static const struct { const char *text, *what; } cases[] = {
		{ "JobId=10\nJobId=99\n", "no job 99" },
		{ "JobId=20 MaxNodes=1\n", "MaxNodes=1" },
		{ "JobId=30 NodeList=n[1-3]\n", "names 3" },
		{ "JobId=30 NodeList=n[1-5] MaxNodes=4\n", "at most 4" },
	};
	ck_assert_int_eq(tmpdir_make("check_jobreqs"), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = tmpdir_write("t.conf", cases[i].text);
		tp_jobreqs q;
		tp_error err = { "" };
		ck_assert_msg(tp_jobreqs_read(&q, p, NN, index_of, NULL, &err) == 0,
			      "%s", err.msg);
		tp_workload w;
		workload(&w);
		ck_assert_int_eq(tp_jobreqs_apply(&q, &w, &err), -1);
		ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, cases[i].what),
			      "case %zu: '%s'", i, err.msg);
		tp_workload_fini(&w);
		tp_jobreqs_fini(&q);
	}
	tmpdir_remove();
}
END_TEST

/* A replay with the requests: the engine (checks on) refuses any start
 * against them; -w and the range are also looked at directly. */
START_TEST(replay_honours_them)
{
	ck_assert_int_eq(tmpdir_make("check_jobreqs"), 0);
	const char *p = tmpdir_write("r.conf",
		"JobId=10 NodeList=n16\n"
		"JobId=20 Exclude=n[1-14]\n"
		"JobId=30 MaxNodes=5 Nodes=n[1-8]\n"
		"JobId=40 Contiguous=yes\n");
	tp_jobreqs q;
	tp_error err = { "" };
	ck_assert_msg(tp_jobreqs_read(&q, p, NN, index_of, NULL, &err) == 0,
		      "%s", err.msg);
	tp_workload w;
	workload(&w);
	ck_assert_int_eq(tp_jobreqs_apply(&q, &w, &err), 0);
	tp_policy_opts po;
	tp_policy_opts_default(&po);
	tp_policy *pol = tp_policy_create("easy", &po, &err);
	tp_alloc_cfg cfg = { .nnodes = NN };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_ptr_nonnull(pol);
	ck_assert_ptr_nonnull(a);
	tp_engine_opts eo = { .check = true, .keep_nodelists = true };
	tp_sim_result r;
	ck_assert_msg(tp_simulate(&w, pol, a, &eo, &r, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(r.nrec, 4);
	for (size_t i = 0; i < r.nrec; i++) {
		const tp_record *rec = &r.rec[i];
		if (rec->id == 10)
			ck_assert_ptr_nonnull(strstr(rec->nodelist, "15"));
		if (rec->id == 20)
			ck_assert_str_eq(rec->nodelist, "14-15");
		if (rec->id == 30) /* 5 of the 6 free among n1..n8 */
			ck_assert_int_eq(rec->nodes_alloc, 5);
	}
	tp_sim_result_fini(&r);
	tp_alloc_destroy(a);
	tp_policy_destroy(pol);
	tp_workload_fini(&w);
	tp_jobreqs_fini(&q);
	tmpdir_remove();
}
END_TEST

/* A request for a job the reader dropped (too big, no size) is counted
 * by reason, the first one kept, and not an error; an id the trace never
 * had still is. */
START_TEST(requests_for_dropped_jobs)
{
	ck_assert_int_eq(tmpdir_make("check_jobreqs"), 0);
	const char *p = tmpdir_write("r.conf",
		"JobId=10 Exclude=n1\n"
		"JobId=77 Exclude=n1\n"
		"JobId=88 Exclude=n1\n"
		"JobId=78 Exclude=n1\n");
	tp_jobreqs q;
	tp_error err = { "" };
	ck_assert_msg(tp_jobreqs_read(&q, p, NN, index_of, NULL, &err) == 0,
		      "%s", err.msg);
	tp_workload w;
	workload(&w);
	ck_assert_int_eq(tp_workload_drop(&w, 77, TP_DROP_TOO_BIG), 0);
	ck_assert_int_eq(tp_workload_drop(&w, 78, TP_DROP_TOO_BIG), 0);
	ck_assert_int_eq(tp_workload_drop(&w, 88, TP_DROP_SIZE), 0);
	ck_assert_uint_eq(w.skipped.too_big, 2);
	ck_assert_uint_eq(w.skipped.size, 1);
	ck_assert_int_eq(tp_workload_dropped(&w, 88), TP_DROP_SIZE);
	ck_assert_int_eq(tp_workload_dropped(&w, 10), -1);
	ck_assert_msg(tp_jobreqs_apply(&q, &w, &err) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(w.jobs[0].allowed);
	ck_assert_uint_eq(q.unused.n[TP_DROP_TOO_BIG], 2);
	ck_assert_int_eq(q.unused.first_id[TP_DROP_TOO_BIG], 77);
	ck_assert_int_eq(q.unused.first_line[TP_DROP_TOO_BIG], 2);
	ck_assert_uint_eq(q.unused.n[TP_DROP_SIZE], 1);
	ck_assert_int_eq(q.unused.first_line[TP_DROP_SIZE], 3);
	tp_jobreqs_fini(&q);
	p = tmpdir_write("r2.conf", "JobId=99 Exclude=n1\n");
	ck_assert_int_eq(tp_jobreqs_read(&q, p, NN, index_of, NULL, &err), 0);
	ck_assert_int_eq(tp_jobreqs_apply(&q, &w, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "r2.conf:1: no job 99 in the workload"));
	tp_workload_fini(&w);
	tp_jobreqs_fini(&q);
	tmpdir_remove();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jobreqs");
	TCase *tc = tcase_create("read");
	tcase_add_test(tc, every_key);
	tcase_add_test(tc, errors_name_line_and_value);
	tcase_add_test(tc, errors_against_the_trace);
	tcase_add_test(tc, replay_honours_them);
	tcase_add_test(tc, requests_for_dropped_jobs);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
