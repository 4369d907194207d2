/*
 * bench_fattree.c - decision time of the fat-tree allocators.
 *
 * For each machine (4,096 nodes in 1,024 MSUs of 4; 65,536 nodes with
 * 16-node and with 4-node leaves) and each job-size distribution, every
 * allocator runs its own churn from the same job sequence at about 85 %
 * occupancy (random jobs end while the machine is fuller than that or the
 * last placement failed), so the free sets it sees are the ones it
 * produces itself.  Every place() call is
 * timed with CLOCK_MONOTONIC; printed: median and p99 in microseconds,
 * ratios against first-free measured in the same run, the share of failed
 * decisions and the mean hop sum (patent metric, tp_fattree_hop_sum) of
 * the placements.  Nothing is asserted about time.
 *
 * Size distributions: "sdsc" = requested node counts of the SDSC-SP2 trace
 * (1..128) as they are; "sdsc-scaled" (4,096 nodes only) = the same times
 * nodes/128 (jobs up to the whole machine); "pow2" (used when the trace is
 * missing) = 2^i, i uniform in 0..log2(nodes/8).  Usage: bench_fattree
 * [FACTOR] scales the number of decisions (default 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "alloc/alloc.h"
#include "topology/fattree.h"

#ifndef TP_DEFAULT_DATA_DIR
#define TP_DEFAULT_DATA_DIR "data"
#endif

typedef struct sizes {
	int *v;
	int n;
} sizes;

/* Requested (else allocated) processor counts of an SWF trace. */
static int read_swf_sizes(const char *path, sizes *s)
{
	gzFile gz = gzopen(path, "r");
	if (!gz)
		return -1;
	char line[1024];
	int cap = 0;
	while (gzgets(gz, line, sizeof(line))) {
		if (line[0] == ';')
			continue;
		double f[18];   /* some fields (average CPU time) are decimals */
		int k = 0;
		char *p = line, *end;
		while (k < 18) {
			f[k] = strtod(p, &end);
			if (end == p)
				break;
			p = end;
			k++;
		}
		if (k < 8)
			continue;
		long n = (long)(f[7] > 0 ? f[7] : f[4]);
		if (n <= 0)
			continue;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 4096;
			s->v = realloc(s->v, (size_t)cap * sizeof(int));
		}
		s->v[s->n++] = (int)n;
	}
	gzclose(gz);
	return s->n ? 0 : -1;
}

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

typedef struct result {
	double median, p99, fail_share, mean_hops;
} result;

typedef struct churn_state {
	tp_nodeset free, out, *run;
	int n, nrun, occupied, next;
	double hops;
	long placed;
} churn_state;

static int place_next(churn_state *c, tp_alloc *a, const tp_fattree *t,
		      const int *jobs, int njobs, double *dt)
{
	int size = jobs[c->next % njobs];
	double t0 = now_us();
	int rc = tp_alloc_place(a, &c->free, size, &c->out);
	if (dt)
		*dt = now_us() - t0;
	if (rc)
		return rc;
	c->next++;
	c->placed++;
	c->hops += (double)tp_fattree_hop_sum(t, &c->out);
	tp_nodeset_init(&c->run[c->nrun], c->n);
	tp_nodeset_copy(&c->run[c->nrun++], &c->out);
	tp_nodeset_andnot(&c->free, &c->out);
	c->occupied += size;
	return 0;
}

static void end_random(churn_state *c)
{
	int k = (int)(rng() % (uint64_t)c->nrun);
	c->occupied -= tp_nodeset_count(&c->run[k]);
	tp_nodeset_or(&c->free, &c->run[k]);
	tp_nodeset_fini(&c->run[k]);
	c->run[k] = c->run[--c->nrun];
}

/* One allocator's churn over `jobs` at about TARGET occupancy: untimed
 * fill, then `decisions` timed placements; before each, random jobs end
 * while the machine is above the target or the last placement failed. */
#define TARGET 0.85

static result churn(tp_alloc *a, const tp_fattree *t, const int *jobs,
		    int njobs, int decisions)
{
	churn_state c = { .n = t->nnodes };
	c.run = calloc((size_t)c.n + 1, sizeof(tp_nodeset));
	double *dt = malloc((size_t)decisions * sizeof(double));
	tp_nodeset_init(&c.free, c.n);
	tp_nodeset_init(&c.out, c.n);
	tp_nodeset_fill(&c.free);
	rng_state = 88172645463325252ull;
	while (c.occupied < TARGET * c.n && !place_next(&c, a, t, jobs, njobs, NULL))
		;
	c.hops = 0;
	c.placed = 0;
	long fails = 0;
	int failed = 0;
	for (int d = 0; d < decisions; d++) {
		while (c.nrun && (failed || c.occupied >= TARGET * c.n)) {
			end_random(&c);
			failed = 0;
		}
		failed = place_next(&c, a, t, jobs, njobs, &dt[d]) != 0;
		fails += failed;
	}
	qsort(dt, (size_t)decisions, sizeof(double), cmp_double);
	result r = { dt[decisions / 2], dt[(int)(decisions * 0.99)],
		     (double)fails / decisions, c.placed ? c.hops / c.placed : 0 };
	while (c.nrun)
		end_random(&c);
	free(c.run);
	free(dt);
	tp_nodeset_fini(&c.free);
	tp_nodeset_fini(&c.out);
	return r;
}

static void bench_tree(tp_fattree *t, const char *label, const char *dist,
		       const int *jobs, int njobs, int decisions)
{
	static const char *names[] = { "first-free", "fattree", "tree-greedy" };
	result r[3];
	printf("\n%s: %d nodes, %d leaves, %d levels, Nunit %d, %d MSUs; sizes %s; %d decisions each\n",
	       label, t->nnodes, t->nleaf, t->levels, t->nunit, t->nmsu, dist,
	       decisions);
	printf("  %-12s %10s %10s %8s %14s\n", "allocator", "median_us",
	       "p99_us", "failed", "mean_hop_sum");
	for (int i = 0; i < 3; i++) {
		tp_error err = { "" };
		tp_alloc_cfg cfg = { .nnodes = t->nnodes, .fattree = t };
		tp_alloc *a = tp_alloc_create(names[i], &cfg, &err);
		if (!a) {
			fprintf(stderr, "%s\n", err.msg);
			exit(1);
		}
		r[i] = churn(a, t, jobs, njobs, decisions);
		tp_alloc_destroy(a);
		printf("  %-12s %10.2f %10.2f %7.1f%% %14.1f\n", names[i],
		       r[i].median, r[i].p99, 100 * r[i].fail_share, r[i].mean_hops);
	}
	printf("  ratios vs first-free (median, p99): fattree %.1fx %.1fx, tree-greedy %.1fx %.1fx; fattree/tree-greedy %.2fx %.2fx\n",
	       r[1].median / r[0].median, r[1].p99 / r[0].p99,
	       r[2].median / r[0].median, r[2].p99 / r[0].p99,
	       r[1].median / r[2].median, r[1].p99 / r[2].p99);
	fflush(stdout);
}

/* Job sequence: trace sizes (optionally scaled) in random order. */
static int *job_sequence(const sizes *trace, int nnodes, int scaled, int n)
{
	int *jobs = malloc((size_t)n * sizeof(int));
	int maxexp = 0;
	while ((2 << maxexp) <= nnodes / 8)
		maxexp++;
	for (int i = 0; i < n; i++) {
		if (!trace->n) {
			jobs[i] = 1 << (int)(rng() % (uint64_t)(maxexp + 1));
			continue;
		}
		long s = trace->v[rng() % (uint64_t)trace->n];
		if (scaled)
			s = s * nnodes / 128;
		jobs[i] = (int)(s < 1 ? 1 : s > nnodes ? nnodes : s);
	}
	return jobs;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("TP_SHARED_DATA");
	char path[1024];
	snprintf(path, sizeof(path), "%s/traces/SDSC-SP2-1998-4.2-cln.swf.gz",
		 dir ? dir : TP_DEFAULT_DATA_DIR);
	sizes trace = { 0 };
	if (read_swf_sizes(path, &trace))
		printf("(no trace at %s: power-of-two sizes)\n", path);
	else
		printf("job sizes from %s: %d jobs\n", path, trace.n);
	double scale = argc > 1 ? atof(argv[1]) : 1.0;   /* decisions factor */
	/* scaled sizes only at 4,096 nodes: at 65,536 the baseline needs
	 * seconds per decision for whole-machine jobs */
	static const struct {
		int levels, width, decisions, scaled;
		const char *label;
	} machines[] = {
		{ 6, 4, 20000, 1, "4,096 nodes (4-node leaves)" },
		{ 4, 16, 2000, 0, "65,536 nodes (16-node leaves)" },
		{ 8, 4, 2000, 0, "65,536 nodes (4-node leaves)" },
	};
	for (size_t m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		tp_error err = { "" };
		tp_fattree *t = tp_fattree_generate(machines[m].levels,
						    machines[m].width, &err);
		if (!t) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		int dec = (int)(machines[m].decisions * scale);
		if (dec < 100)
			dec = 100;
		for (int scaled = 0; scaled <= (trace.n ? machines[m].scaled : 0);
		     scaled++) {
			int n = scaled ? dec / 4 : dec;
			int *jobs = job_sequence(&trace, t->nnodes, scaled, n);
			bench_tree(t, machines[m].label,
				   !trace.n ? "pow2" : scaled ? "sdsc-scaled" : "sdsc",
				   jobs, n, n);
			free(jobs);
		}
		tp_fattree_free(t);
	}
	free(trace.v);
	return 0;
}
