/*
 * bench_sim - whole-trace replay speed and memory of every policy.
 *
 * Each policy runs in a child process that loads the trace and simulates,
 * so its peak RSS is its own; wall time covers the simulation only (load
 * time printed separately).  Ratios are against fcfs measured in the same
 * run: absolute times on a shared machine are noise, ratios less so.
 * Usage: bench_sim [TRACE] [REPEATS]   (default: SDSC-SP2 from data/)
 */
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

#ifndef TP_DEFAULT_DATA_DIR
#define TP_DEFAULT_DATA_DIR "data"
#endif

static const char *policies[] = { "fcfs", "easy", "conservative", "window-ff",
				  "batch-njob", "rb-har" };
#define NPOL (sizeof(policies) / sizeof(*policies))

typedef struct result {
	double load_s, sim_s;
	size_t jobs;
	long maxrss_kb;
	int ok;
} result;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In the child: load, simulate `repeats` times, report the best time. */
static void child(const char *trace, const char *policy, int repeats, int fd)
{
	result res = { 0 };
	tp_error err = { "" };
	tp_workload w = { 0 };
	tp_swf_opts so = { 0 };
	double t0 = now();
	if (tp_swf_read(trace, &so, &w, &err)) {
		fprintf(stderr, "bench_sim: %s\n", err.msg);
		_exit(1);
	}
	res.load_s = now() - t0;
	res.sim_s = 1e30;
	for (int k = 0; k < repeats; k++) {
		tp_alloc_cfg cfg = { .nnodes = w.nodes };
		tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
		tp_policy_opts o;
		tp_policy_opts_default(&o);
		o.window = 4;
		tp_policy *p = tp_policy_create(policy, &o, &err);
		tp_sim_result r;
		t0 = now();
		if (!a || !p || tp_simulate(&w, p, a, NULL, &r, &err)) {
			fprintf(stderr, "bench_sim: %s: %s\n", policy, err.msg);
			_exit(1);
		}
		double dt = now() - t0;
		if (dt < res.sim_s)
			res.sim_s = dt;
		res.jobs = w.njobs;
		tp_sim_result_fini(&r);
		tp_policy_destroy(p);
		tp_alloc_destroy(a);
	}
	res.ok = 1;
	if (write(fd, &res, sizeof(res)) != sizeof(res))
		_exit(1);
	_exit(0);
}

static int run_one(const char *trace, const char *policy, int repeats,
		   result *res)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(trace, policy, repeats, fds[1]);
	}
	close(fds[1]);
	memset(res, 0, sizeof(*res));
	ssize_t n = read(fds[0], res, sizeof(*res));
	close(fds[0]);
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || n != sizeof(*res) ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	res->maxrss_kb = ru.ru_maxrss;
	return 0;
}

int main(int argc, char **argv)
{
	const char *trace = argc > 1 ? argv[1]
		: TP_DEFAULT_DATA_DIR "/traces/SDSC-SP2-1998-4.2-cln.swf.gz";
	int repeats = argc > 2 ? atoi(argv[2]) : 3;
	result res[NPOL];
	printf("trace: %s (best of %d runs per policy, window-ff W=4)\n", trace,
	       repeats);
	printf("%-13s %8s %10s %12s %10s %11s %9s\n", "policy", "jobs",
	       "sim_s", "jobs/s", "vs_fcfs", "peak_MiB", "load_s");
	for (size_t i = 0; i < NPOL; i++) {
		if (run_one(trace, policies[i], repeats, &res[i])) {
			fprintf(stderr, "bench_sim: %s failed\n", policies[i]);
			return 1;
		}
		printf("%-13s %8zu %10.3f %12.0f %9.2fx %11.1f %9.3f\n", policies[i],
		       res[i].jobs, res[i].sim_s, res[i].jobs / res[i].sim_s,
		       res[i].sim_s / res[0].sim_s, res[i].maxrss_kb / 1024.0,
		       res[i].load_s);
	}
	return 0;
}
