/* eval_timer.c - LD_PRELOAD shim for slurmctld (Slurm 24.05+): times every
 * topology_g_eval_nodes() call, the one place where select/cons_tres asks
 * the topology plugin to choose a job's nodes, and (25.05+) every
 * topology_g_eval_node() call: for a job of at most one node, cons_tres
 * asks a plugin whose allow_one_node() is true (Slurm's tree and flat)
 * about one node at a time instead, until one fits.
 *
 * libslurmfull exports both and select_cons_tres.so calls them through its
 * PLT, so a definition in a preloaded library wins; the real one is found
 * with dlsym(RTLD_NEXT).  Only the call itself is timed (the topology
 * plugin's eval_nodes and Slurm's common_topo code it runs), not the RPC
 * or the rest of job_test.  A release without topology_g_eval_node (24.11)
 * never calls the shim's.
 *
 * One line per call, appended to $EVAL_TIMER_OUT, else to eval_timer.log
 * beside $SLURM_CONF (topo-cluster sets it for every daemon):
 *   SEQ TID THREAD CPU_NS WALL_NS RC KIND
 * CPU_NS is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which
 * other processes on a busy machine do not inflate; WALL_NS is
 * CLOCK_MONOTONIC.  RC is the call's return code (0: nodes chosen, or
 * the node fits).  KIND is "nodes" (eval_nodes) or "node" (eval_node).
 * THREAD is the thread's name, which tells who asked: slurmctld's RPC
 * workers ("worker[N]": job submission, sbatch --test-only), the main
 * scheduler ("sched_agent"), backfill ("bckfl") and so on.  The
 * line is written after the clocks are read, so writing costs nothing
 * measured; readers compute count, mean, median and max from the lines
 * (bench/bench_eval.sh).
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
#define EVAL_NODE_SYMBOL "topology_g_eval_node"
#define SLURM_ERROR (-1)

typedef int (*eval_fn)(void *topo_eval);
typedef int (*eval_node_fn)(void *topo_eval, int node_inx);

/* Exported with default visibility: these are the interposing definitions. */
int topology_g_eval_nodes(void *topo_eval);
int topology_g_eval_node(void *topo_eval, int node_inx);

static eval_fn real_eval;
static eval_node_fn real_eval_node;
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
 * process that really evaluates opens the file.  A missing real function
 * is reported when it is called, not here: 24.11 has no eval_node. */
static void shim_init(void)
{
	char path[PATH_MAX];

	real_eval = (eval_fn)dlsym(RTLD_NEXT, EVAL_SYMBOL);
	real_eval_node = (eval_node_fn)dlsym(RTLD_NEXT, EVAL_NODE_SYMBOL);
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
static void record(uint64_t cpu_ns, uint64_t wall_ns, int rc,
		   const char *kind)
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
	len = snprintf(line, sizeof(line), "%llu %ld %s %llu %llu %d %s\n",
		       (unsigned long long)n, (long)syscall(SYS_gettid), name,
		       (unsigned long long)cpu_ns, (unsigned long long)wall_ns,
		       rc, kind);
	if (len > 0 && write(out_fd, line, (size_t)len) != len)
		shim_warn("short write to the log file");
}

/* The clocks at a call's start; stamp_end() records the call.  The CPU
 * clock is read first and last, so its interval encloses the wall one. */
struct stamp {
	uint64_t cpu, wall;
};

static struct stamp stamp_begin(void)
{
	struct stamp s;

	s.cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	s.wall = clock_ns(CLOCK_MONOTONIC);
	return s;
}

static void stamp_end(struct stamp s, int rc, const char *kind)
{
	uint64_t wall = clock_ns(CLOCK_MONOTONIC);
	uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);

	record(cpu - s.cpu, wall - s.wall, rc, kind);
}

int topology_g_eval_nodes(void *topo_eval)
{
	struct stamp s;
	int rc;

	pthread_once(&init_once, shim_init);
	if (!real_eval) {
		shim_warn("dlsym(RTLD_NEXT, " EVAL_SYMBOL ") found nothing");
		return SLURM_ERROR;
	}
	s = stamp_begin();
	rc = real_eval(topo_eval);
	stamp_end(s, rc, "nodes");
	return rc;
}

int topology_g_eval_node(void *topo_eval, int node_inx)
{
	struct stamp s;
	int rc;

	pthread_once(&init_once, shim_init);
	if (!real_eval_node) {
		shim_warn("dlsym(RTLD_NEXT, " EVAL_NODE_SYMBOL ") found nothing");
		return SLURM_ERROR;
	}
	s = stamp_begin();
	rc = real_eval_node(topo_eval, node_inx);
	stamp_end(s, rc, "node");
	return rc;
}
