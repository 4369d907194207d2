/*
 * bench_het - George & Collins' experiments (section 5) on the core's
 * heterogeneous schedules (doc/methods.md D1; method and readings in
 * doc/heterogeneous.md).  Workloads come from hetsim/het_gen.h.
 *
 *   (a) case study 1: decision time (CPU, one tp_het_schedule() of every
 *       job at time 0, median of repeats) of SJS and PJS against the
 *       number of jobs, 5 to 1,000, on the 40-machine set, by % of
 *       possibly-parallel jobs, and PJS/SJS (paper: 2-3x);
 *   (b) case study 2: total job time of PJS and SJS on the 142-machine
 *       site, all jobs presented at time 0 (5 and 15 jobs: the light end
 *       of the paper's figure 5; then 0.25x, 1x, 4x the machines):
 *       expected (the static plan at 0) and simulated (hetsim/het_sim.h, re-planning at every event,
 *       predictions = the truth), by % possibly parallel and load, with
 *       PJS's saving (paper: up to ~50 % at light load, never worse);
 *       OLB, min-min and min-max for context;
 *   (c) case study 3: per-priority-level total job time, priority mixes
 *       10/10/80, 25/25/50, 50/25/25 (levels 0/1/2) and none;
 *   (d) online: Poisson arrivals at 30/60/90 % of capacity, every
 *       algorithm learning online from an empty database against the
 *       oracle.
 *
 * Every number is a mean over --seeds seeds (default 5).  Built with
 * -DTP_HET_SMOKE (het_smoke, a `make check` test) it runs tiny sizes and
 * fails unless PJS's expected total is never above SJS's and every job
 * of every simulated run ends.  Exit status 0, 1 if a check failed, 2 on
 * bad usage.  (With priority levels only level 0 is bound: each level's
 * PJS improves its own sum on the ready times the levels before it left.)
 *
 * Usage: bench_het [--seeds N] [--quick]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetsim/het_gen.h"
#include "hetsim/het_sim.h"

static int failures;

#define CHECK(cond, ...)                                              \
	do {                                                          \
		if (!(cond)) {                                        \
			fprintf(stderr, "bench_het: check failed: "); \
			fprintf(stderr, __VA_ARGS__);                 \
			fputc('\n', stderr);                          \
			failures++;                                   \
		}                                                     \
	} while (0)

/* One generated instance and the truth as a fixed etc table. */
typedef struct inst {
	tp_het_conf c;
	tp_het_workload w;
	tp_expdb *truth;
	int *jc, *mc;          /* workload class / partition -> truth index */
	double *ready;
} inst;

static double truth_etc(void *arg, const tp_het_job *j, int p, int n)
{
	const inst *x = arg;
	tp_expdb_stat st;
	if (!tp_expdb_get(x->truth, x->jc[j->jclass], x->mc[p], n, &st))
		return TP_HET_NO_RUN;
	return st.mean > 0 ? st.mean : 1e-6;
}

static void inst_make(inst *x, const tp_hetgen_opts *o)
{
	tp_error err = { "" };
	memset(x, 0, sizeof(*x));
	x->truth = tp_expdb_new();
	if (!x->truth || tp_hetgen(o, &x->c, &x->w, x->truth, &err)) {
		fprintf(stderr, "bench_het: %s\n", err.msg);
		exit(1);
	}
	x->jc = malloc(sizeof(int) * (size_t)x->w.njclass);
	x->mc = malloc(sizeof(int) * (size_t)x->c.nparts);
	x->ready = calloc((size_t)x->c.nnodes, sizeof(double));
	for (int k = 0; k < x->w.njclass; k++)
		x->jc[k] = tp_expdb_jclass(x->truth, x->w.jclass_name[k]);
	for (int p = 0; p < x->c.nparts; p++)
		x->mc[p] = tp_expdb_mclass(x->truth, x->c.mclass_name[x->c.part[p].mclass]);
}

static void inst_free(inst *x)
{
	tp_het_workload_fini(&x->w);
	tp_het_conf_fini(&x->c);
	tp_expdb_free(x->truth);
	free(x->jc);
	free(x->mc);
	free(x->ready);
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The static plan at 0: total, and per level into lv[] (may be NULL). */
static double plan_total(inst *x, tp_het_algo a, double *lv, double *cpu)
{
	tp_het_machine m = tp_het_conf_machine(&x->c, x->ready);
	tp_het_plan p;
	tp_error err = { "" };
	double t0 = cpu_now();
	if (tp_het_schedule(&m, 0, x->w.job, x->w.n, a, truth_etc, x, &p, &err)) {
		fprintf(stderr, "bench_het: %s\n", err.msg);
		exit(1);
	}
	if (cpu)
		*cpu = cpu_now() - t0;
	CHECK(p.n == x->w.n, "%s placed %zu of %zu jobs", tp_het_algo_name(a), p.n, x->w.n);
	for (size_t i = 0; lv && i < p.n; i++) {
		int l = x->w.job[p.a[i].job].prio;
		lv[l < 3 ? l : 2] += p.a[i].end;
	}
	double total = p.total;
	tp_het_plan_fini(&p);
	return total;
}

static void simulate_as(inst *x, tp_het_algo a, bool oracle,
			tp_het_sim_result *r)
{
	tp_het_sim_opts o = { .algo = a, .oracle = oracle };
	tp_error err = { "" };
	if (tp_het_sim_run(&x->c, &x->w, NULL, x->truth, &o, r, &err)) {
		fprintf(stderr, "bench_het: %s\n", err.msg);
		exit(1);
	}
	CHECK(r->ran == x->w.n, "%s simulated: %zu of %zu jobs ended",
	      tp_het_algo_name(a), r->ran, x->w.n);
	for (size_t i = 0; i < r->n; i++)
		CHECK(!r->job[i].ran || r->job[i].end >= r->job[i].start,
		      "job %lld ends before it starts", (long long)r->job[i].id);
}

static void simulate(inst *x, tp_het_algo a, tp_het_sim_result *r)
{
	simulate_as(x, a, true, r);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* ---- (a) decision time ---------------------------------------------- */

static double median_cpu(inst *x, tp_het_algo a, int reps)
{
	double t[16];
	for (int r = 0; r < reps; r++)
		plan_total(x, a, NULL, &t[r]);
	qsort(t, (size_t)reps, sizeof(double), cmp_dbl);
	return t[reps / 2];
}

static void study1(int seeds, const size_t *sizes, size_t nsizes,
		   const int *pcts, size_t npcts)
{
	printf("\n(a) case study 1: decision time, one tp_het_schedule() of every job at time 0,\n"
	       "    40 machines (5 clusters of 4, 20 loose), CPU ms, median of repeats, mean over %d seed(s)\n",
	       seeds);
	printf("%6s %5s %10s %10s %8s %8s\n", "jobs", "%par", "SJS ms", "PJS ms",
	       "PJS/SJS", "%par run");
	for (size_t s = 0; s < nsizes; s++)
		for (size_t q = 0; q < npcts; q++) {
			double sjs = 0, pjs = 0, par = 0;
			int reps = sizes[s] <= 100 ? 7 : sizes[s] <= 250 ? 5 : 3;
			for (int seed = 1; seed <= seeds; seed++) {
				tp_hetgen_opts o;
				inst x;
				tp_hetgen_opts_default(&o);
				o.machine = TP_HETGEN_SMALL;
				o.njobs = sizes[s];
				o.pct_parallel = pcts[q];
				o.seed = (uint64_t)seed;
				inst_make(&x, &o);
				sjs += median_cpu(&x, TP_HET_SJS, reps);
				pjs += median_cpu(&x, TP_HET_PJS, reps);
				tp_het_machine m = tp_het_conf_machine(&x.c, x.ready);
				tp_het_plan p;
				tp_error err;
				if (!tp_het_schedule(&m, 0, x.w.job, x.w.n, TP_HET_PJS,
						     truth_etc, &x, &p, &err)) {
					par += p.n ? (double)p.parallel / (double)p.n : 0;
					tp_het_plan_fini(&p);
				}
				inst_free(&x);
			}
			printf("%6zu %5d %10.3f %10.3f %8.2f %7.1f%%\n", sizes[s], pcts[q],
			       1e3 * sjs / seeds, 1e3 * pjs / seeds,
			       sjs > 0 ? pjs / sjs : 0, 100 * par / seeds);
			fflush(stdout);
		}
}

/* ---- (b) total job time --------------------------------------------- */

/* The paper's figure 5 counts jobs (5 to 100 on its 142 machines): the
 * first two rows are its light end, fewer jobs than clusters; then
 * 0.25x, 1x and 4x the machines. */
static const struct { const char *name; double load; size_t njobs; } loads[] = {
	{ "5 jobs", 0, 5 }, { "15 jobs", 0, 15 }, { "light", 0.25, 0 },
	{ "moderate", 1, 0 }, { "heavy", 4, 0 },
};
#define NLOADS (sizeof(loads) / sizeof(loads[0]))

typedef struct totals {
	double exp[5], sim[5], lexp[5][3], lsim[5][3];
} totals;

/* Expected and simulated totals of the algorithms in algos[], summed over
 * seeds into t. */
static void run_algos(const tp_hetgen_opts *base, int seeds,
		      const tp_het_algo *algos, int nalgo, totals *t)
{
	memset(t, 0, sizeof(*t));
	for (int seed = 1; seed <= seeds; seed++) {
		tp_hetgen_opts o = *base;
		inst x;
		o.seed = (uint64_t)seed;
		inst_make(&x, &o);
		for (int a = 0; a < nalgo; a++) {
			tp_het_sim_result r;
			t->exp[a] += plan_total(&x, algos[a], t->lexp[a], NULL);
			simulate(&x, algos[a], &r);
			t->sim[a] += r.total;
			for (int l = 0; l < 3 && l < r.nlevels; l++)
				t->lsim[a][l] += r.level_total[l];
			tp_het_sim_result_fini(&r);
		}
		inst_free(&x);
	}
}

static void study2(int seeds, const int *pcts, size_t npcts, size_t nloads,
		   tp_hetgen_machine mach)
{
	static const tp_het_algo two[] = { TP_HET_SJS, TP_HET_PJS };
	printf("\n(b) case study 2: total job time sum(end - submit), all jobs at time 0 (N jobs, or load x machines),\n"
	       "    %s, predictions = truth, 10^3 s, mean over %d seed(s);\n"
	       "    expected = the static plan at 0, simulated = het_sim re-planning at every event\n",
	       mach == TP_HETGEN_SITE ? "142 machines (17 clusters of 8, one of 6)" : "40 machines",
	       seeds);
	printf("%-9s %5s %5s %10s %10s %7s %10s %10s %7s\n", "load", "jobs", "%par",
	       "SJS exp", "PJS exp", "saving", "SJS sim", "PJS sim", "saving");
	for (size_t l = 0; l < nloads; l++)
		for (size_t q = 0; q < npcts; q++) {
			tp_hetgen_opts o;
			totals t;
			tp_hetgen_opts_default(&o);
			o.machine = mach;
			o.load = loads[l].load;
			o.njobs = loads[l].njobs;
			o.pct_parallel = pcts[q];
			run_algos(&o, seeds, two, 2, &t);
			CHECK(t.exp[1] <= t.exp[0] * (1 + 1e-9),
			      "PJS expected %.1f > SJS %.1f (load %s, %d%%)", t.exp[1],
			      t.exp[0], loads[l].name, pcts[q]);
			int nm = mach == TP_HETGEN_SITE ? 142 : 40;
			printf("%-9s %5ld %5d %10.1f %10.1f %6.1f%% %10.1f %10.1f %6.1f%%\n",
			       loads[l].name, loads[l].njobs ? (long)loads[l].njobs
			       : lround(loads[l].load * nm), pcts[q],
			       t.exp[0] / seeds / 1e3, t.exp[1] / seeds / 1e3,
			       100 * (1 - t.exp[1] / t.exp[0]), t.sim[0] / seeds / 1e3,
			       t.sim[1] / seeds / 1e3, 100 * (1 - t.sim[1] / t.sim[0]));
			fflush(stdout);
		}
}

static const tp_het_algo all5[] = { TP_HET_OLB, TP_HET_MIN_MIN, TP_HET_MIN_MAX,
				     TP_HET_SJS, TP_HET_PJS };

static void context(int seeds, size_t nloads, tp_hetgen_machine mach)
{
	printf("\n(b') every algorithm, 50 %% possibly parallel, 10^3 s, mean over %d seed(s)\n",
	       seeds);
	printf("%-9s %-8s %10s %10s\n", "load", "algo", "expected", "simulated");
	for (size_t l = 0; l < nloads; l++) {
		tp_hetgen_opts o;
		totals t;
		tp_hetgen_opts_default(&o);
		o.machine = mach;
		o.load = loads[l].load;
		o.njobs = loads[l].njobs;
		run_algos(&o, seeds, all5, 5, &t);
		for (int a = 0; a < 5; a++)
			printf("%-9s %-8s %10.1f %10.1f\n", loads[l].name,
			       tp_het_algo_name(all5[a]), t.exp[a] / seeds / 1e3,
			       t.sim[a] / seeds / 1e3);
		fflush(stdout);
	}
}

/* ---- (c) priorities --------------------------------------------------- */

static void study3(int seeds, double load, tp_hetgen_machine mach)
{
	static const int mixes[4][3] = { { 10, 10, 80 }, { 25, 25, 50 },
					 { 50, 25, 25 }, { 0, 0, 0 } };
	printf("\n(c) case study 3: total job time per priority level (0 first), load %.2fx machines,\n"
	       "    50 %% possibly parallel, 10^3 s, mean over %d seed(s); simulated (expected)\n",
	       load, seeds);
	printf("%-9s %-8s %18s %18s %18s %18s\n", "mix", "algo", "level 0", "level 1",
	       "level 2", "all");
	for (int k = 0; k < 4; k++) {
		tp_hetgen_opts o;
		totals t;
		char mix[16];
		tp_hetgen_opts_default(&o);
		o.machine = mach;
		o.load = load;
		memcpy(o.prio, mixes[k], sizeof(o.prio));
		run_algos(&o, seeds, all5, 5, &t);
		if (mixes[k][0])
			snprintf(mix, sizeof(mix), "%d/%d/%d", mixes[k][0], mixes[k][1], mixes[k][2]);
		else
			snprintf(mix, sizeof(mix), "none");
		for (int a = 0; a < 5; a++) {
			printf("%-9s %-8s", mix, tp_het_algo_name(all5[a]));
			for (int l = 0; l < 3; l++)
				printf(" %8.1f (%7.1f)", t.lsim[a][l] / seeds / 1e3,
				       t.lexp[a][l] / seeds / 1e3);
			printf(" %8.1f (%7.1f)\n", t.sim[a] / seeds / 1e3, t.exp[a] / seeds / 1e3);
		}
		/* Levels are planned in turn, each PJS improving its own sum
		 * on what the levels before it left: only level 0 (the whole
		 * queue without priorities) is bound to gain. */
		CHECK(t.lexp[4][0] <= t.lexp[3][0] * (1 + 1e-9),
		      "mix %s: PJS level 0 expected above SJS", mix);
		fflush(stdout);
	}
}

/* ---- (d) online: Poisson arrivals, learning against the oracle ------ */

static void study4(int seeds, size_t njobs, const double *utils, size_t nutil,
		   tp_hetgen_machine mach)
{
	printf("\n(d) online: %zu jobs, Poisson arrivals offering 30/60/90 %% of capacity, 50 %% possibly\n"
	       "    parallel, %s; the scheduling database empty and learning online\n"
	       "    (learn) or the truth (oracle); total job time 10^3 s, mean wait s, %% run in parallel,\n"
	       "    mean over %d seed(s)\n", njobs,
	       mach == TP_HETGEN_SITE ? "142 machines" : "40 machines", seeds);
	printf("%5s %-8s %10s %10s %7s %10s %10s %7s\n", "util", "algo", "learn",
	       "wait", "%par", "oracle", "wait", "%par");
	for (size_t u = 0; u < nutil; u++)
		for (int a = 0; a < 5; a++) {
			double tot[2] = { 0 }, wait[2] = { 0 }, par[2] = { 0 };
			for (int seed = 1; seed <= seeds; seed++) {
				tp_hetgen_opts o;
				inst x;
				tp_hetgen_opts_default(&o);
				o.machine = mach;
				o.njobs = njobs;
				o.arrival_util = utils[u];
				o.seed = (uint64_t)seed;
				inst_make(&x, &o);
				for (int k = 0; k < 2; k++) {
					tp_het_sim_result r;
					simulate_as(&x, all5[a], k == 1, &r);
					tot[k] += r.total;
					wait[k] += r.mean_wait;
					par[k] += r.frac_parallel;
					tp_het_sim_result_fini(&r);
				}
				inst_free(&x);
			}
			printf("%4.0f%% %-8s %10.1f %10.0f %6.1f%% %10.1f %10.0f %6.1f%%\n",
			       100 * utils[u], tp_het_algo_name(all5[a]),
			       tot[0] / seeds / 1e3, wait[0] / seeds, 100 * par[0] / seeds,
			       tot[1] / seeds / 1e3, wait[1] / seeds, 100 * par[1] / seeds);
			fflush(stdout);
		}
}

int main(int argc, char **argv)
{
	int seeds = 5;
	bool quick = false;
#ifdef TP_HET_SMOKE
	quick = true;
	seeds = 2;
#endif
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
			seeds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else {
			fprintf(stderr, "usage: bench_het [--seeds N] [--quick]\n");
			return 2;
		}
	}
	if (seeds < 1 || seeds > 100) {
		fprintf(stderr, "bench_het: --seeds: expected 1 to 100\n");
		return 2;
	}
	static const int pcts[] = { 0, 10, 50, 75, 90, 100 };
	static const size_t sizes[] = { 5, 10, 25, 50, 100, 250, 500, 1000 };
	static const size_t small_sizes[] = { 5, 20 };
	static const int small_pcts[] = { 0, 50, 100 };
	printf("bench_het: George & Collins' experiments (doc/methods.md D1), "
	       "%d seed(s)%s\n", seeds, quick ? ", quick sizes" : "");
	if (quick) {
		study1(seeds, small_sizes, 2, small_pcts, 3);
		study2(seeds, small_pcts, 3, 4, TP_HETGEN_SMALL);
		context(seeds, 1, TP_HETGEN_SMALL);
		study3(seeds, 1, TP_HETGEN_SMALL);
		study4(seeds, 60, (const double[]){ 0.6 }, 1, TP_HETGEN_SMALL);
	} else {
		study1(seeds, sizes, 8, pcts, 6);
		study2(seeds, pcts, 6, NLOADS, TP_HETGEN_SITE);
		context(seeds, NLOADS, TP_HETGEN_SITE);
		study3(seeds, 1, TP_HETGEN_SITE);
		study4(seeds, 500, (const double[]){ 0.3, 0.6, 0.9 }, 3, TP_HETGEN_SITE);
	}
	if (failures)
		fprintf(stderr, "bench_het: %d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
