/* eval_timer.c - LD_PRELOAD shim for slurmctld (Slurm 24.05+): times every
 * topology_g_eval_nodes() call, the one place where select/cons_tres asks
 * the topology plugin to choose a job's nodes.
 *
 * libslurmfull exports topology_g_eval_nodes() and select_cons_tres.so
 * calls it through its PLT, so a definition in a preloaded library wins;
 * the real one is found with dlsym(RTLD_NEXT).  Only the call itself is
 * timed (the topology plugin's eval_nodes and Slurm's common_topo code it
 * runs), not the RPC or the rest of job_test.
 *
 * One line per call, appended to $EVAL_TIMER_OUT, else to eval_timer.log
 * beside $SLURM_CONF (topo-cluster sets it for every daemon):
 *   SEQ TID THREAD CPU_NS WALL_NS RC
 * CPU_NS is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which
 * other processes on a busy machine do not inflate; WALL_NS is
 * CLOCK_MONOTONIC.  RC is the call's return code (0: nodes chosen).
 * THREAD is the thread's name, which tells who asked: slurmctld's RPC
 * workers ("worker[N]": job submission, sbatch --test-only), the main
 * scheduler ("sched_agent"), backfill ("bckfl") and so on.  The
 * line is written after the clocks are read, so writing costs nothing
 * measured; readers compute count, mean, median and max from the lines
 * (bench/bench_eval_2411.sh).
 *
 * Uses only libc (and libdl), no Slurm header: the argument is passed
 * through untouched, so the shim does not depend on the struct's layout.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define EVAL_SYMBOL "topology_g_eval_nodes"
#define SLURM_ERROR (-1)

typedef int (*eval_fn)(void *topo_eval);

/* Exported with default visibility: this is the interposing definition. */
int topology_g_eval_nodes(void *topo_eval);

static eval_fn real_eval;
static int out_fd = -1;
static uint64_t seq;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void shim_warn(const char *what)
{
	fprintf(stderr, "eval_timer: %s\n", what);
}

/* The log file: $EVAL_TIMER_OUT, else eval_timer.log beside slurm.conf
 * (the benchmark reads it from the cluster directory). */
static void log_path(char *buf, size_t len)
{
	const char *out = getenv("EVAL_TIMER_OUT");
	const char *conf = getenv("SLURM_CONF");
	char dir[PATH_MAX];

	if (out && *out) {
		snprintf(buf, len, "%s", out);
		return;
	}
	snprintf(dir, sizeof(dir), "%s", conf && *conf ? conf : "/tmp/x");
	snprintf(buf, len, "%s/eval_timer.log", dirname(dir));
}

/* Lazily, at the first call: by then slurmctld is fully up and only the
 * process that really evaluates opens the file. */
static void shim_init(void)
{
	char path[PATH_MAX];

	real_eval = (eval_fn)dlsym(RTLD_NEXT, EVAL_SYMBOL);
	if (!real_eval)
		shim_warn("dlsym(RTLD_NEXT, " EVAL_SYMBOL ") found nothing");
	log_path(path, sizeof(path));
	out_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out_fd < 0)
		shim_warn("cannot open the log file; calls are not recorded");
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One write() of one line to an O_APPEND file: lines of concurrent
 * callers never interleave. */
static void record(uint64_t cpu_ns, uint64_t wall_ns, int rc)
{
	char line[160], name[16] = "?";
	uint64_t n = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
	int len;

	if (out_fd < 0)
		return;
	pthread_getname_np(pthread_self(), name, sizeof(name));
	for (char *c = name; *c; c++) /* one field per name */
		if (*c == ' ')
			*c = '_';
	len = snprintf(line, sizeof(line), "%llu %ld %s %llu %llu %d\n",
		       (unsigned long long)n, (long)syscall(SYS_gettid), name,
		       (unsigned long long)cpu_ns, (unsigned long long)wall_ns,
		       rc);
	if (len > 0 && write(out_fd, line, (size_t)len) != len)
		shim_warn("short write to the log file");
}

int topology_g_eval_nodes(void *topo_eval)
{
	uint64_t c0, w0, c1, w1;
	int rc;

	pthread_once(&init_once, shim_init);
	if (!real_eval)
		return SLURM_ERROR;
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	w0 = clock_ns(CLOCK_MONOTONIC);
	rc = real_eval(topo_eval);
	w1 = clock_ns(CLOCK_MONOTONIC);
	c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	record(c1 - c0, w1 - w0, rc);
	return rc;
}
