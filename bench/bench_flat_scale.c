/*
 * bench_flat_scale - does flat allocation cost depend on machine size?
 *
 * The same job stream is replayed under EASY with first-free on 128 nodes
 * and on 49,152 nodes (a Blue Gene/Q-sized machine) with every job's size
 * multiplied by 384 = 49,152 / 128, so both machines see the same schedule
 * shape and the same work per job; only the node count differs.  The
 * stream is SDSC-SP2 (128 nodes) repeated back to back until it holds
 * STREAM_JOBS jobs: no real trace in data/ has that many.
 * Costs are thread CPU time per job, best of REPEATS runs taken in turns,
 * and the ratio is against the 128-node replay of the same run (goal:
 * at most 2x).  The plain SDSC-SP2 EASY replay is printed against the same
 * baseline so a change of either shows.
 * Usage: bench_flat_scale [TRACE] [REPEATS] [STREAM_JOBS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "settings/settings.h"
#include "engine/engine.h"
#include "trace/swf.h"

#ifndef TP_DEFAULT_DATA_DIR
#define TP_DEFAULT_DATA_DIR "data"
#endif

#define BIG_NODES 49152

typedef struct replay {
	const char *name;
	tp_workload w;
	double best_s;
} replay;

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* `src` back to back, each copy after the previous one's last submit,
 * until `njobs` jobs, sizes times `scale` on nodes * scale nodes. */
static int make_stream(const tp_workload *src, size_t njobs, int scale,
		       tp_workload *out)
{
	*out = (tp_workload){ .nodes = src->nodes * scale, .ppn = 1 };
	int64_t span = src->jobs[src->njobs - 1].submit + 1, shift = 0;
	for (size_t k = 0; out->njobs < njobs; k++) {
		if (k == src->njobs) {
			k = 0;
			shift += span;
		}
		tp_wjob j = src->jobs[k];
		j.id = (int64_t)out->njobs + 1;
		j.submit += shift;
		j.nodes *= scale;
		j.max_nodes *= scale;
		if (tp_workload_add(out, &j))
			return -1;
	}
	return 0;
}

/* One EASY replay with first-free; its thread CPU time, or -1. */
static double replay_once(const tp_workload *w)
{
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = w->nodes };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	tp_policy *p = tp_policy_create("easy", &o, &err);
	tp_sim_result r;
	double t0 = cpu_now(), dt = -1;
	if (a && p && !tp_simulate(w, p, a, NULL, &r, &err)) {
		dt = cpu_now() - t0;
		tp_sim_result_fini(&r);
	} else {
		fprintf(stderr, "bench_flat_scale: %s\n", err.msg);
	}
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
	return dt;
}

int main(int argc, char **argv)
{
	const char *trace = argc > 1 ? argv[1]
		: TP_DEFAULT_DATA_DIR "/traces/SDSC-SP2-1998-4.2-cln.swf.gz";
	int repeats = argc > 2 ? atoi(argv[2]) : 3;
	size_t njobs = argc > 3 ? (size_t)atol(argv[3]) : 100000;
	tp_error err = { "" };
	replay r[3] = { { .name = "stream-128" }, { .name = "stream-49152" },
			{ .name = "sdsc-sp2" } };
	if (tp_swf_read(trace, NULL, &r[2].w, &err)) {
		fprintf(stderr, "bench_flat_scale: %s\n", err.msg);
		return 1;
	}
	if (!r[2].w.njobs || BIG_NODES % r[2].w.nodes ||
	    make_stream(&r[2].w, njobs, 1, &r[0].w) ||
	    make_stream(&r[2].w, njobs, BIG_NODES / r[2].w.nodes, &r[1].w)) {
		fprintf(stderr, "bench_flat_scale: cannot build the job stream\n");
		return 1;
	}
	for (int i = 0; i < 3; i++)
		r[i].best_s = 1e30;
	for (int k = 0; k < repeats; k++)
		for (int i = 0; i < 3; i++) {
			double dt = replay_once(&r[i].w);
			if (dt < 0)
				return 1;
			if (dt < r[i].best_s)
				r[i].best_s = dt;
		}
	printf("trace: %s; easy + first-free, thread CPU time, best of %d\n",
	       trace, repeats);
	printf("%-13s %7s %8s %9s %10s %12s\n", "replay", "nodes", "jobs",
	       "cpu_s", "us/job", "vs_128/job");
	double base = r[0].best_s / (double)r[0].w.njobs;
	for (int i = 0; i < 3; i++) {
		double per = r[i].best_s / (double)r[i].w.njobs;
		printf("%-13s %7d %8zu %9.3f %10.2f %11.2fx\n", r[i].name,
		       r[i].w.nodes, r[i].w.njobs, r[i].best_s, per * 1e6,
		       per / base);
	}
	printf("goal: stream-49152 at most 2.00x stream-128 per job\n");
	for (int i = 0; i < 3; i++)
		tp_workload_fini(&r[i].w);
	return 0;
}
