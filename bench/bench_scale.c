/*
 * bench_scale - the simulator's cost by machine size, policy and
 * allocator: the README's scale table, fcfs, easy and conservative on
 * every machine (conservative plans every queued job: on the 65,536-node
 * fat tree and the 5D torus it takes about a minute each).
 *
 * One job stream, the first JOBS jobs of SDSC-SP2 (128 nodes), is
 * replayed on every machine with each job's size multiplied by
 * nodes / 128, so every machine sees the same schedule shape and the same
 * work per job.  Machines: flat 128, 4,096 and 49,152 nodes (first-free);
 * generated fat trees of 4,096 and 65,536 nodes (fattree, the default,
 * and fattree-msu, the patent's units); tori 8x8x8x8
 * and the Blue Gene/Q-sized 8x12x16x16x2 (torus-base; a size no box has
 * is packed, Shapeless=pack).  Each (machine, policy) runs in its own
 * child process: its simulation CPU time, jobs/s and peak RSS are its
 * own.  The ratio is per job against the flat 128-node replay under the
 * same policy, measured in the same run.  A replay shorter than
 * REPEAT_S is repeated (each time with a fresh allocator and policy, and
 * the same schedule) until REPEAT_S or REPEAT_MAX runs, and its median is
 * reported: the flat base takes a few milliseconds, which one cold run in
 * a fresh process measures with 10-40 % noise.
 * Usage: bench_scale [JOBS] [TRACE] [MACHINE] [POLICY] (an empty TRACE:
 * the default) MACHINE runs only the machines whose label contains it
 * (the flat 128-node baseline always runs: every ratio is against it),
 * POLICY only that policy (a profile of one row).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "settings/settings.h"
#include "engine/engine.h"
#include "trace/swf.h"
#include "topology/fattree.h"
#include "topology/torus.h"
#include "alloc/alloc_memo.h"

#ifndef TP_DEFAULT_DATA_DIR
#define TP_DEFAULT_DATA_DIR "data"
#endif

typedef struct machine {
	const char *label, *alloc;
	int nodes;
	int npol;                  /* the first npol policies (all) */
	int ft_levels, ft_width;   /* fat tree */
	int ndims, dims[5];        /* torus */
} machine;

static const machine machines[] = {
	{ "flat", "first-free", 128, 3, 0, 0, 0, { 0 } },
	{ "flat", "first-free", 4096, 3, 0, 0, 0, { 0 } },
	{ "flat", "first-free", 49152, 3, 0, 0, 0, { 0 } },
	{ "fat tree 4^6", "fattree", 4096, 3, 6, 4, 0, { 0 } },
	{ "fat tree 16^4", "fattree", 65536, 3, 4, 16, 0, { 0 } },
	{ "fat tree 4^6", "fattree-msu", 4096, 3, 6, 4, 0, { 0 } },
	{ "fat tree 16^4", "fattree-msu", 65536, 3, 4, 16, 0, { 0 } },
	{ "torus 8x8x8x8", "torus-base", 4096, 3, 0, 0, 4, { 8, 8, 8, 8 } },
	{ "torus 8x12x16x16x2", "torus-base", 49152, 3, 0, 0, 5, { 8, 12, 16, 16, 2 } },
};
#define NMACH (sizeof(machines) / sizeof(*machines))

static const char *policies[] = { "fcfs", "easy", "conservative" };
#define NPOL (sizeof(policies) / sizeof(*policies))

/* Replays shorter than this are repeated; their median is reported. */
#define REPEAT_S 0.3
#define REPEAT_MAX 31

typedef struct result {
	double sim_s;
	int runs;
	size_t jobs;
	uint64_t digest; /* of every job's start and nodes: equal digests
			  * of two builds mean equal schedules */
	long maxrss_kb;
	int ok;
} result;

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The first njobs of src with sizes times scale, on nodes * scale. */
static int scaled_stream(const tp_workload *src, size_t njobs, int scale,
			 tp_workload *out)
{
	*out = (tp_workload){ .nodes = src->nodes * scale, .ppn = 1 };
	for (size_t k = 0; k < src->njobs && k < njobs; k++) {
		tp_wjob j = src->jobs[k];
		j.nodes *= scale;
		j.max_nodes *= scale;
		if (tp_workload_add(out, &j))
			return -1;
	}
	return 0;
}

/* FNV-1a over each record's id, start and node list. */
static uint64_t schedule_digest(const tp_sim_result *r)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < r->nrec; i++) {
		char line[64];
		snprintf(line, sizeof(line), "%lld %lld ", (long long)r->rec[i].id,
			 (long long)r->rec[i].start);
		for (const char *c = line; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		for (const char *c = r->rec[i].nodelist; c && *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		h = (h ^ '\n') * 1099511628211ull;
	}
	return h;
}

static int simulate(const machine *m, const char *policy,
		    const tp_workload *w, result *res, tp_error *err)
{
	tp_fattree *ft = NULL;
	tp_torus *tor = NULL;
	if (m->ft_levels && !(ft = tp_fattree_generate(m->ft_levels, m->ft_width, err)))
		return -1;
	if (m->ndims && !(tor = tp_torus_generate(m->ndims, m->dims, NULL, err)))
		return -1;
	tp_alloc_cfg cfg = { .nnodes = m->nodes, .fattree = ft, .torus = tor };
	tp_alloc *a = tp_alloc_create(m->alloc, &cfg, err);
	/* as the simulator has it (machine/topo.c): a topology allocator
	 * behind the failure memo */
	if (a && !tp_alloc_is_flat(a) && !(a = tp_alloc_memo_wrap(a)))
		tp_errorf(err, "out of memory");
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	tp_policy *p = a ? tp_policy_create(policy, &o, err) : NULL;
	tp_sim_result r;
	tp_engine_opts eo = { .keep_nodelists = true };
	int rc = -1;
	double t0 = cpu_now();
	if (p && !tp_simulate(w, p, a, &eo, &r, err)) {
		res->sim_s = cpu_now() - t0;
		res->jobs = r.nrec;
		res->digest = schedule_digest(&r);
		tp_sim_result_fini(&r);
		rc = 0;
	}
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
	/* a repeated replay builds its machine again: none may pile up in
	 * the peak RSS */
	tp_fattree_free(ft);
	tp_torus_free(tor);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Replay w, repeated while short: the median time into res; every run
 * must give the same schedule. */
static int simulate_median(const machine *m, const char *policy,
			   const tp_workload *w, result *res, tp_error *err)
{
	double t[REPEAT_MAX], total = 0;
	int n = 0;
	do {
		result one = { 0 };
		if (simulate(m, policy, w, &one, err))
			return -1;
		if (n > 0 && one.digest != res->digest) {
			tp_errorf(err, "run %d gave another schedule", n + 1);
			return -1;
		}
		*res = one;
		t[n++] = one.sim_s;
		total += one.sim_s;
	} while (total < REPEAT_S && n < REPEAT_MAX);
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	res->sim_s = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	res->runs = n;
	return 0;
}

/* In the child: build the stream and the machine, simulate, report. */
static void child(const tp_workload *src, size_t njobs, const machine *m,
		  const char *policy, int fd)
{
	result res = { 0 };
	tp_error err = { "" };
	tp_workload w;
	if (scaled_stream(src, njobs, m->nodes / src->nodes, &w) ||
	    simulate_median(m, policy, &w, &res, &err)) {
		fprintf(stderr, "bench_scale: %s %s: %s\n", m->label, policy,
			err.msg[0] ? err.msg : "out of memory");
		_exit(1);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	res.maxrss_kb = ru.ru_maxrss;
	res.ok = 1;
	if (write(fd, &res, sizeof(res)) != (ssize_t)sizeof(res))
		_exit(1);
	_exit(0);
}

static int run_one(const tp_workload *src, size_t njobs, const machine *m,
		   const char *policy, result *res)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(src, njobs, m, policy, fds[1]);
	}
	close(fds[1]);
	memset(res, 0, sizeof(*res));
	ssize_t n = pid > 0 ? read(fds[0], res, sizeof(*res)) : -1;
	close(fds[0]);
	int st = 0;
	if (pid > 0)
		waitpid(pid, &st, 0);
	return n == (ssize_t)sizeof(*res) && res->ok ? 0 : -1;
}

/* A MACHINE or POLICY argument that selects nothing is an error, not an
 * empty table. */
static bool known_filters(const char *only, const char *only_pol)
{
	bool mach = !only, pol = !only_pol;
	for (size_t m = 1; m < NMACH && !mach; m++)
		mach = strstr(machines[m].label, only) != NULL;
	for (size_t p = 0; p < NPOL && !pol; p++)
		pol = !strcmp(policies[p], only_pol);
	if (!mach)
		fprintf(stderr, "bench_scale: no machine label contains '%s'\n", only);
	if (!pol)
		fprintf(stderr, "bench_scale: no policy '%s' (fcfs, easy, conservative)\n",
			only_pol);
	return mach && pol;
}

int main(int argc, char **argv)
{
	size_t njobs = argc > 1 ? (size_t)atol(argv[1]) : 2000;
	const char *trace = argc > 2 && argv[2][0] ? argv[2]
		: TP_DEFAULT_DATA_DIR "/traces/SDSC-SP2-1998-4.2-cln.swf.gz";
	const char *only = argc > 3 ? argv[3] : NULL;
	const char *only_pol = argc > 4 && argv[4][0] ? argv[4] : NULL;
	if (!known_filters(only, only_pol))
		return 2;
	tp_error err = { "" };
	tp_workload src = { 0 };
	if (tp_swf_read(trace, NULL, &src, &err) || src.nodes != 128) {
		fprintf(stderr, "bench_scale: %s\n",
			err.msg[0] ? err.msg : "the stream must be a 128-node trace");
		return 1;
	}
	printf("bench_scale: the first %zu jobs of %s, sizes times nodes/128;\n"
	       "simulation CPU time (the median of `runs` replays when short),\n"
	       "peak RSS of the process; ratio per job\n"
	       "against flat 128 nodes under the same policy, this run;\n"
	       "schedule: a digest of every job's start and nodes\n",
	       njobs, trace);
	printf("%-20s %6s %-11s %-13s %8s %4s %10s %8s %9s  %s\n", "machine",
	       "nodes", "allocator", "policy", "sim_s", "runs", "jobs/s",
	       "peak_MiB", "vs_128", "schedule");
	double base[NPOL] = { 0 };
	int failed = 0;
	for (size_t m = 0; m < NMACH; m++) {
		if (m > 0 && only && !strstr(machines[m].label, only))
			continue;
		for (size_t p = 0; p < NPOL && (int)p < machines[m].npol; p++) {
			result r;
			if (only_pol && strcmp(policies[p], only_pol))
				continue;
			if (run_one(&src, njobs, &machines[m], policies[p], &r)) {
				failed = 1;
				continue;
			}
			double per = r.sim_s / (double)r.jobs;
			if (m == 0)
				base[p] = per;
			printf("%-20s %6d %-11s %-13s %8.4f %4d %10.0f %8.1f %8.2fx  %016llx\n",
			       machines[m].label, machines[m].nodes,
			       machines[m].alloc, policies[p], r.sim_s, r.runs,
			       r.jobs / (r.sim_s > 0 ? r.sim_s : 1e-9),
			       r.maxrss_kb / 1024.0,
			       base[p] > 0 ? per / base[p] : 0,
			       (unsigned long long)r.digest);
			fflush(stdout);
		}
	}
	tp_workload_fini(&src);
	return failed;
}
