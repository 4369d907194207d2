/*
 * bench_torus - decision time of the torus allocators on fragmented states.
 *
 * For each torus (144 = 4x4x3x3, 4096 = 8x8x8x8, 13824 = 24x24x24, and
 * a Blue Gene/Q-sized 49152 = 8x12x16x16x2, all rings) it builds random
 * fragmented states: jobs of power-of-two sizes (on the 5D torus three in
 * four of them 512 * 2^k nodes, up to 16384) in random free boxes up to
 * ~85 % load, then random jobs leave until the load is a random target in
 * 50..70 %.  It then times single placement
 * decisions of random power-of-two job sizes for torus-base (under the
 * --base-shapes reading, default all), torus-fs, torus-mss,
 * torus-anchor and torus-compact, the default (median, p99, mean), and
 * two references for torus-mss on
 * the same decisions within a time budget: the full scan (every
 * candidate evaluated, no stop at phi's bound) and the paper's direct
 * method (node-by-node Find_MSS per candidate, full scan) where it is
 * feasible, reporting each one's ratio to torus-mss and checking that it
 * chooses the same box.  Times
 * are CPU time of the deciding thread (wall-clock medians alongside).
 * Usage: bench_torus [--base-shapes canonical|all] [--case LABEL]
 *                    [--alloc NAME] [SEED]
 * --case and --alloc run one torus and one allocator (the references
 * with torus-mss); the states and decisions of a torus depend on the
 * cases run before it, so compare runs with the same --case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc/alloc.h"
#include "topology/torus.h"

static unsigned long long rng_state = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

/* Decisions are timed in thread CPU time: on a shared machine wall time
 * mostly measures the other processes; wall medians are printed too. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct bench_case {
	const char *label;
	int ndims, dims[5];
	int max_log2;        /* job sizes 1 .. 2^max_log2 */
	int unit;            /* > 0: 3 jobs in 4 are unit * 2^k nodes, k < 6 */
	int decisions;       /* per allocator */
	int direct_decisions;
	double direct_budget_s;
} bench_case;

static const bench_case cases[] = {
	{ "4x4x3x3", 4, { 4, 4, 3, 3 }, 5, 0, 400, 400, 60 },
	{ "8x8x8x8", 4, { 8, 8, 8, 8 }, 7, 0, 150, 12, 120 },
	{ "24x24x24", 3, { 24, 24, 24 }, 8, 0, 60, 2, 120 },
	/* a Blue Gene/Q-sized machine: jobs of 1..16,384 nodes, mostly in
	 * 512-node multiples (its midplanes) */
	{ "8x12x16x16x2", 5, { 8, 12, 16, 16, 2 }, 8, 512, 60, 0, 0 },
};

#define NSTATES 8

/* Sizes 2^k with k uniform, so small jobs dominate by count; with a
 * unit, three jobs in four are unit * 2^k nodes, k = 0..5, instead. */
static int job_size(const bench_case *bc)
{
	if (bc->unit && rnd(4))
		return bc->unit << rnd(6);
	return 1 << rnd((unsigned)bc->max_log2 + 1);
}

/* A random box of `w` nodes made only of free nodes, or -1. */
static int random_free_box(const tp_torus *t, const tp_nodeset *avail, int w,
			   tp_box *box)
{
	tp_torus_shape *sh;
	int nsh = tp_torus_shapes(t, w, 0, &sh);
	int rc = -1;
	for (int tries = 0; nsh > 0 && tries < 200 && rc; tries++) {
		const int *len = sh[rnd((unsigned)nsh)].len;
		tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), box);
		if (tp_torus_box_all_free(t, box, avail))
			rc = 0;
	}
	free(sh);
	return rc;
}

static void fragmented_state(const tp_torus *t, const bench_case *bc,
			     tp_nodeset *avail)
{
	int N = tp_torus_nnodes(t), njobs = 0;
	tp_box *jobs = malloc((size_t)N * sizeof(*jobs));
	tp_nodeset box_nodes;
	tp_nodeset_init(&box_nodes, N);
	tp_nodeset_fill(avail);
	for (int fails = 0; fails < 200 && tp_nodeset_count(avail) > N * 15 / 100;) {
		tp_box b;
		if (random_free_box(t, avail, job_size(bc), &b)) {
			fails++;
			continue;
		}
		tp_nodeset_zero(&box_nodes);
		tp_torus_box_nodes(t, &b, &box_nodes);
		tp_nodeset_andnot(avail, &box_nodes);
		jobs[njobs++] = b;
	}
	double target = 0.50 + rnd(21) / 100.0;
	while (njobs && tp_nodeset_count(avail) < N * (1 - target)) {
		int k = (int)rnd((unsigned)njobs);
		tp_torus_box_nodes(t, &jobs[k], avail);
		jobs[k] = jobs[--njobs];
	}
	tp_nodeset_fini(&box_nodes);
	free(jobs);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef struct stats {
	double median, p99, mean;
} stats;

static stats summarise(double *ms, int n)
{
	stats s = { 0, 0, 0 };
	if (!n)
		return s;
	double *v = malloc((size_t)n * sizeof(*v));
	memcpy(v, ms, (size_t)n * sizeof(*v));
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	int k = (99 * n + 99) / 100 - 1;
	s.p99 = v[k < 0 ? 0 : k];
	for (int i = 0; i < n; i++)
		s.mean += v[i] / n;
	free(v);
	return s;
}

/* torus-mss medians per job size (the candidate count drives the time),
 * in ascending size. */
static void print_by_size(const double *ms, const int *size, int nd)
{
	double *v = malloc((size_t)nd * sizeof(*v));
	printf("  %-12s", "  by size");
	for (int last = 0;;) {
		int next = 0, n = 0;
		for (int i = 0; i < nd; i++)
			if (size[i] > last && (!next || size[i] < next))
				next = size[i];
		if (!next)
			break;
		for (int i = 0; i < nd; i++)
			if (size[i] == next)
				v[n++] = ms[i];
		printf(" %d:%.2f", next, summarise(v, n).median);
		last = next;
	}
	printf("  (median ms)\n");
	free(v);
}

/* torus-mss under `flags` (a reference: the full scan, the direct
 * evaluation) on the first decisions within a budget: its times, their
 * ratio to torus-mss's on the same decisions, and that it chooses the
 * same box (the run fails if not). */
static void compare_reference(const tp_torus *t, const char *label,
			      const char *what, unsigned flags, int max,
			      double budget_s, const tp_nodeset *states,
			      const int *dstate, const int *dsize,
			      const double *fast_ms)
{
	int n = 0, mismatches = 0;
	double spent = 0;
	if (!max)
		return;
	double *ref_ms = malloc((size_t)max * sizeof(double));
	double *fast_same = malloc((size_t)max * sizeof(double));
	for (int i = 0; i < max && spent < budget_s; i++) {
		tp_box br, bf;
		double t0 = now();
		int rr = tp_torus_place(t, TP_TORUS_MSS, &states[dstate[i]],
					dsize[i], flags, &br);
		double dt = now() - t0;
		spent += dt;
		int rf = tp_torus_place(t, TP_TORUS_MSS, &states[dstate[i]],
					dsize[i], 0, &bf);
		if (rr != rf || (!rr && !tp_torus_box_equal(t, &br, &bf)))
			mismatches++;
		ref_ms[n] = dt * 1e3;
		fast_same[n++] = fast_ms[i];
	}
	stats sr = summarise(ref_ms, n), sf = summarise(fast_same, n);
	printf("  %-12s %9d %7s %10.3f %10.3f %10.3f %10s\n", label, n, "-",
	       sr.median, sr.p99, sr.mean, "-");
	printf("    %s on the same %d decisions: median %.1fx, mean %.1fx; "
	       "different choices: %d\n", what, n,
	       sf.median > 0 ? sr.median / sf.median : 0,
	       sf.mean > 0 ? sr.mean / sf.mean : 0, mismatches);
	free(ref_ms);
	free(fast_same);
	if (mismatches) {
		fprintf(stderr, "bench_torus: %s and torus-mss disagree\n", label);
		exit(1);
	}
}

static tp_torus_base_shapes base_shapes = TP_TORUS_SHAPES_ALL;
static const char *only_case;  /* --case LABEL */
static const char *only_alloc; /* --alloc NAME */

static tp_torus *make_torus(const bench_case *bc)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(bc->ndims, bc->dims, NULL, &err);
	tp_torus_opts o;
	if (t) {
		o = *tp_torus_options(t);
		o.base_shapes = base_shapes;
	}
	if (!t || tp_torus_set_options(t, &o, &err)) {
		fprintf(stderr, "bench_torus: %s\n", err.msg);
		exit(1);
	}
	return t;
}

static void run_case(const bench_case *bc)
{
	tp_error err;
	tp_torus *t = make_torus(bc);
	int N = tp_torus_nnodes(t);
	tp_nodeset states[NSTATES], out;
	double load = 0;
	for (int s = 0; s < NSTATES; s++) {
		tp_nodeset_init(&states[s], N);
		fragmented_state(t, bc, &states[s]);
		load += 1.0 - (double)tp_nodeset_count(&states[s]) / N;
	}
	load /= NSTATES;
	tp_nodeset_init(&out, N);
	printf("\ntorus %s (%d nodes, rings), %d states, mean load %.0f %%, job sizes 1..%d\n",
	       bc->label, N, NSTATES, 100 * load,
	       bc->unit ? bc->unit << 5 : 1 << bc->max_log2);
	printf("  %-12s %9s %7s %10s %10s %10s %10s\n", "allocator", "decisions",
	       "placed", "median_ms", "p99_ms", "mean_ms", "wall_med");

	/* the same decision list for every allocator */
	int nd = bc->decisions;
	int *dstate = malloc((size_t)nd * sizeof(int)), *dsize = malloc((size_t)nd * sizeof(int));
	for (int i = 0; i < nd; i++) {
		dstate[i] = (int)rnd(NSTATES);
		dsize[i] = job_size(bc);
	}
	double *ms = malloc((size_t)nd * sizeof(double));
	double *wall_ms = malloc((size_t)nd * sizeof(double));
	double *fast_ms = malloc((size_t)nd * sizeof(double));
	static const char *const names[] = { "torus-base", "torus-fs", "torus-mss",
					     "torus-anchor", "torus-compact" };
	tp_alloc_cfg cfg = { .nnodes = N, .torus = t };
	for (int m = 0; m < 5; m++) {
		if (only_alloc && strcmp(only_alloc, names[m]))
			continue;
		tp_alloc *a = tp_alloc_create(names[m], &cfg, &err);
		if (!a) {
			fprintf(stderr, "bench_torus: %s\n", err.msg);
			exit(1);
		}
		int placed = 0;
		for (int i = 0; i < nd; i++) {
			double w0 = wall(), t0 = now();
			int rc = tp_alloc_place(a, &states[dstate[i]], dsize[i], &out);
			ms[i] = (now() - t0) * 1e3;
			wall_ms[i] = (wall() - w0) * 1e3;
			placed += rc == 0;
		}
		stats s = summarise(ms, nd), sw = summarise(wall_ms, nd);
		printf("  %-12s %9d %7d %10.3f %10.3f %10.3f %10.3f\n", names[m],
		       nd, placed, s.median, s.p99, s.mean, sw.median);
		if (m == 2)
			memcpy(fast_ms, ms, (size_t)nd * sizeof(double));
		if (m == 2)
			print_by_size(ms, dsize, nd);
		tp_alloc_destroy(a);
	}

	/* the references, on the first decisions within a time budget */
	bool with_mss = !only_alloc || !strcmp(only_alloc, "torus-mss");
	compare_reference(t, "mss-full", "full scan/stop at bound",
			  TP_TORUS_PLACE_NO_BOUND, with_mss ? nd : 0, 60,
			  states, dstate, dsize, fast_ms);
	compare_reference(t, "mss-direct", "direct full scan/fast",
			  TP_TORUS_PLACE_DIRECT | TP_TORUS_PLACE_NO_BOUND,
			  with_mss ? bc->direct_decisions : 0,
			  bc->direct_budget_s, states, dstate, dsize, fast_ms);
	free(ms);
	free(wall_ms);
	free(fast_ms);
	free(dstate);
	free(dsize);
	for (int s = 0; s < NSTATES; s++)
		tp_nodeset_fini(&states[s]);
	tp_nodeset_fini(&out);
	tp_torus_free(t);
}

static bool known_case(const char *label)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(label, cases[i].label))
			return true;
	return false;
}

static void parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--case") && i + 1 < argc) {
			only_case = argv[++i];
			if (!known_case(only_case)) {
				fprintf(stderr, "bench_torus: --case: no torus '%s'; the cases:", only_case);
				for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
					fprintf(stderr, " %s", cases[k].label);
				fprintf(stderr, "\n");
				exit(2);
			}
		} else if (!strcmp(argv[i], "--alloc") && i + 1 < argc) {
			only_alloc = argv[++i];
			if (strcmp(only_alloc, "torus-base") && strcmp(only_alloc, "torus-fs") &&
			    strcmp(only_alloc, "torus-mss") && strcmp(only_alloc, "torus-anchor") &&
			    strcmp(only_alloc, "torus-compact")) {
				fprintf(stderr, "bench_torus: --alloc: expected torus-base, torus-fs, torus-mss, torus-anchor or torus-compact, got '%s'\n",
					only_alloc);
				exit(2);
			}
		} else if (!strcmp(argv[i], "--base-shapes") && i + 1 < argc) {
			if (tp_torus_base_shapes_parse(argv[++i], &base_shapes)) {
				fprintf(stderr, "bench_torus: --base-shapes: expected canonical or all, got '%s'\n",
					argv[i]);
				exit(2);
			}
		} else if (argv[i][0] != '-') {
			rng_state = strtoull(argv[i], NULL, 10) | 1;
		} else {
			fprintf(stderr, "usage: bench_torus [--base-shapes canonical|all] [--case LABEL] [--alloc NAME] [SEED]\n");
			exit(2);
		}
	}
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	printf("bench_torus: single placement decisions on fragmented states\n"
	       "(goals: torus-mss median <= 1 ms at 144 nodes; at 4096 median\n"
	       "<= 2 ms, p99 <= 10 ms; at 49152 (5D) torus-base median <= 1 ms,\n"
	       "torus-mss median <= 50 ms, p99 <= 1 s);\n"
	       "torus-base with BaseShapes=%s\n",
	       tp_torus_base_shapes_name(base_shapes));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!only_case || !strcmp(only_case, cases[i].label))
			run_case(&cases[i]);
	return 0;
}
