/* check_esterr.c - unit tests for esterr.c. */
#include "check_util.h"
#include "trace/esterr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* n jobs with run time runtime[i % nr] and estimate 2 x run time. */
static void make_workload(tp_workload *w, size_t n, const int64_t *runtime, size_t nr)
{
	memset(w, 0, sizeof(*w));
	w->nodes = 8;
	w->ppn = 1;
	for (size_t i = 0; i < n; i++) {
		tp_wjob j = {.id = (int64_t)i + 1, .submit = (int64_t)i,
			     .runtime = runtime[i % nr], .estimate = 2 * runtime[i % nr],
			     .nodes = 1};
		ck_assert_int_eq(tp_workload_add(w, &j), 0);
	}
}

START_TEST(test_parse_valid)
{
	tp_esterr e;
	tp_error err;
	ck_assert_int_eq(tp_esterr_parse("none", &e, &err), 0);
	ck_assert_int_eq(e.kind, TP_ESTERR_NONE);
	ck_assert_int_eq(tp_esterr_parse("lognormal:0.5", &e, &err), 0);
	ck_assert_int_eq(e.kind, TP_ESTERR_LOGNORMAL);
	ck_assert(e.sigma == 0.5);
	ck_assert_int_eq(tp_esterr_parse("uniform:0.5-2", &e, &err), 0);
	ck_assert_int_eq(e.kind, TP_ESTERR_UNIFORM);
	ck_assert(e.lo == 0.5 && e.hi == 2.0);
	ck_assert_int_eq(tp_esterr_parse("scale:0.8-1.2", &e, &err), 0);
	ck_assert_int_eq(e.kind, TP_ESTERR_SCALE);
	ck_assert(e.lo == 0.8 && e.hi == 1.2);
	ck_assert_int_eq(tp_esterr_parse("uniform:1e-3-2", &e, &err), 0);
	ck_assert(e.lo == 1e-3 && e.hi == 2.0);
	ck_assert_int_eq(tp_esterr_parse("uniform:1-1", &e, &err), 0);
	ck_assert(e.lo == 1.0 && e.hi == 1.0);
}
END_TEST

START_TEST(test_parse_errors_name_spec)
{
	static const struct { const char *spec, *says; } bad[] = {
		{"", "empty"},
		{"gauss:1", "unknown model 'gauss'"},
		{"lognormal", "SIGMA"},
		{"lognormal:", "SIGMA ''"},
		{"lognormal:-1", "SIGMA '-1'"},
		{"lognormal:abc", "SIGMA 'abc'"},
		{"lognormal:inf", "SIGMA 'inf'"},
		{"uniform", "LO-HI"},
		{"uniform:", "LO-HI"},
		{"uniform:1", "LO-HI"},
		{"uniform:2-1", "LO 2 is larger than HI 1"},
		{"uniform:-1-2", "LO '-1'"},
		{"scale:a-2", "LO 'a'"},
		{"scale:1-b", "HI 'b'"},
		{"scale:1-", "HI ''"},
		{"uniform:nan-1", "LO 'nan'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tp_esterr e;
		tp_error err = {{0}};
		ck_assert_msg(tp_esterr_parse(bad[i].spec, &e, &err) == -1, "%s accepted",
			      bad[i].spec);
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "'%s'", bad[i].spec);
		ck_assert_msg(strstr(err.msg, quoted), "'%s' not named in: %s", bad[i].spec,
			      err.msg);
		ck_assert_msg(strstr(err.msg, bad[i].says), "'%s' missing in: %s",
			      bad[i].says, err.msg);
	}
}
END_TEST

START_TEST(test_none_keeps_estimates)
{
	static const int64_t rt[] = {10, 300, 7};
	tp_workload w;
	make_workload(&w, 30, rt, 3);
	tp_esterr e;
	ck_assert_int_eq(tp_esterr_parse("none", &e, NULL), 0);
	tp_esterr_apply(&e, 1, &w);
	for (size_t i = 0; i < w.njobs; i++)
		ck_assert_int_eq(w.jobs[i].estimate, 2 * w.jobs[i].runtime);
	tp_workload_fini(&w);
}
END_TEST

static int64_t *estimates_after(const char *spec, uint64_t seed, size_t n)
{
	static const int64_t rt[] = {1000, 50, 3600, 1};
	tp_workload w;
	make_workload(&w, n, rt, 4);
	tp_esterr e;
	ck_assert_int_eq(tp_esterr_parse(spec, &e, NULL), 0);
	tp_esterr_apply(&e, seed, &w);
	int64_t *est = malloc(n * sizeof(*est));
	for (size_t i = 0; i < n; i++)
		est[i] = w.jobs[i].estimate;
	tp_workload_fini(&w);
	return est;
}

START_TEST(test_deterministic_per_seed)
{
	static const char *specs[] = {"lognormal:0.7", "uniform:0.5-2", "scale:0.3-1.1"};
	for (size_t k = 0; k < 3; k++) {
		int64_t *a = estimates_after(specs[k], 77, 500);
		int64_t *b = estimates_after(specs[k], 77, 500);
		int64_t *c = estimates_after(specs[k], 78, 500);
		ck_assert(memcmp(a, b, 500 * sizeof(*a)) == 0);
		ck_assert(memcmp(a, c, 500 * sizeof(*a)) != 0);
		/* The first jobs' draws do not depend on how many follow. */
		int64_t *d = estimates_after(specs[k], 77, 100);
		ck_assert(memcmp(a, d, 100 * sizeof(*a)) == 0);
		free(a), free(b), free(c), free(d);
	}
}
END_TEST

START_TEST(test_lognormal_median_is_runtime)
{
	static const int64_t rt[] = {1000};
	tp_workload w;
	make_workload(&w, 20000, rt, 1);
	tp_esterr e;
	ck_assert_int_eq(tp_esterr_parse("lognormal:0.5", &e, NULL), 0);
	tp_esterr_apply(&e, 3, &w);
	size_t over = 0, under = 0;
	double logsum = 0;
	for (size_t i = 0; i < w.njobs; i++) {
		over += w.jobs[i].runtime > w.jobs[i].estimate;
		under += w.jobs[i].runtime < w.jobs[i].estimate;
		logsum += log((double)w.jobs[i].estimate / 1000.0);
	}
	/* about half overrun (sd of the share ~ 0.0035) */
	ck_assert_double_eq_tol((double)over / w.njobs, 0.5, 0.02);
	ck_assert_double_eq_tol((double)under / w.njobs, 0.5, 0.02);
	/* log(estimate/run) ~ N(0, 0.5^2) */
	ck_assert_double_eq_tol(logsum / w.njobs, 0.0, 0.02);
	tp_workload_fini(&w);

	/* sigma 0: estimate = run time exactly */
	make_workload(&w, 100, (const int64_t[]){37, 1, 86400}, 3);
	ck_assert_int_eq(tp_esterr_parse("lognormal:0", &e, NULL), 0);
	tp_esterr_apply(&e, 3, &w);
	for (size_t i = 0; i < w.njobs; i++)
		ck_assert_int_eq(w.jobs[i].estimate, w.jobs[i].runtime);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_uniform_bounds_runtime)
{
	static const int64_t rt[] = {1000, 3, 77};
	tp_workload w;
	make_workload(&w, 3000, rt, 3);
	tp_esterr e;
	ck_assert_int_eq(tp_esterr_parse("uniform:0.5-2", &e, NULL), 0);
	tp_esterr_apply(&e, 11, &w);
	double ratio = 0;
	size_t n1000 = 0;
	for (size_t i = 0; i < w.njobs; i++) {
		const tp_wjob *j = &w.jobs[i];
		ck_assert_int_ge(j->estimate, llround(0.5 * j->runtime));
		ck_assert_int_le(j->estimate, llround(2.0 * j->runtime));
		if (j->runtime == 1000) {
			ratio += j->estimate / 1000.0;
			n1000++;
		}
	}
	ck_assert_double_eq_tol(ratio / n1000, 1.25, 0.03);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_scale_uses_trace_estimate)
{
	static const int64_t rt[] = {100};
	tp_workload w;
	make_workload(&w, 1000, rt, 1); /* estimates 200 */
	tp_esterr e;
	ck_assert_int_eq(tp_esterr_parse("scale:0.25-0.5", &e, NULL), 0);
	tp_esterr_apply(&e, 5, &w);
	for (size_t i = 0; i < w.njobs; i++) {
		ck_assert_int_ge(w.jobs[i].estimate, 50);
		ck_assert_int_le(w.jobs[i].estimate, 100);
	}
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_estimates_stay_positive)
{
	static const int64_t rt[] = {1, 2, 1000000};
	tp_workload w;
	make_workload(&w, 300, rt, 3);
	tp_esterr e;
	ck_assert_int_eq(tp_esterr_parse("uniform:0-0.1", &e, NULL), 0);
	tp_esterr_apply(&e, 9, &w);
	for (size_t i = 0; i < w.njobs; i++)
		ck_assert_int_ge(w.jobs[i].estimate, 1);
	/* absurd sigma: clamped, never overflowing or below 1 */
	ck_assert_int_eq(tp_esterr_parse("lognormal:1000", &e, NULL), 0);
	tp_esterr_apply(&e, 9, &w);
	for (size_t i = 0; i < w.njobs; i++) {
		ck_assert_int_ge(w.jobs[i].estimate, 1);
		ck_assert_int_le(w.jobs[i].estimate, (int64_t)1e15);
	}
	tp_workload_fini(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("esterr");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_parse_valid);
	tcase_add_test(tc, test_parse_errors_name_spec);
	tcase_add_test(tc, test_none_keeps_estimates);
	tcase_add_test(tc, test_deterministic_per_seed);
	tcase_add_test(tc, test_lognormal_median_is_runtime);
	tcase_add_test(tc, test_uniform_bounds_runtime);
	tcase_add_test(tc, test_scale_uses_trace_estimate);
	tcase_add_test(tc, test_estimates_stay_positive);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
