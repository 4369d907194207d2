/*
 * sched_topo.c - Slurm 22.05 scheduler plugin: the core library's
 * policies (easy, rb-har, window-ff, batch-njob, fcfs, conservative)
 * deciding inside slurmctld.
 *
 * SchedulerType=sched/topo.  Slurm 22.05 gives a scheduler plugin only
 * init(), fini() and sched_p_reconfig(); like sched/backfill, init()
 * starts an agent thread that wakes every topo_period seconds, takes
 * slurmctld's locks and runs one cycle (st_cycle.c): the same
 * tp_policy_at_limit()/tp_policy_pass() calls the simulator makes, on a
 * tp_cluster built from slurmctld's job and node tables.
 *
 * slurmctld's own FIFO scheduler (schedule()) keeps running beside any
 * scheduler plugin; SchedulerParameters=sched_interval=-1 turns its
 * starting of jobs off (the plugin logs an error without it).  srun and
 * salloc jobs are still tried at submission, as on stock Slurm: only the
 * partition's top-priority job, only when it fits now (what every policy
 * does with its queue head), placed by the select plugin; each such start
 * is counted and logged (st_seen.h).  `defer` would make every
 * --immediate job fail.
 * Settings, files and logs: sched_topo(5).
 */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "settings/settings.h"
#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/state_save.h"

#include "st_ctx.h"
#include "st_cycle.h"
#include "st_refuse.h"
#include "st_slurm.h"

const char plugin_name[] = "Topology-aware scheduling with the topo core policies";
const char plugin_type[] = "sched/topo";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define ST_FILLS_FILE "sched_topo.fills"
#define ST_STATS_FILE "sched_topo.stats"
#define ST_EXPDB_FILE "sched_topo.expdb"

static pthread_t agent_tid;
static pthread_mutex_t thread_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t term_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t term_cond = PTHREAD_COND_INITIALIZER;
static bool stop_agent;
static pthread_mutex_t reconf_lock = PTHREAD_MUTEX_INITIALIZER;
static bool reconf_pending;

/* Owned by the agent thread while it runs (init() before, fini() after):
 * nothing else touches it, so it is read and written without locks. */
static st_ctx ctx;
static char *fills_path, *stats_path, *expdb_path;
static int topo_nodes = -1; /* node_record_count at the last load_topo() */

/* ---- settings ------------------------------------------------------- */

static void report_param(void *arg, const char *msg)
{
	error("%s: %s", plugin_type, msg);
}

/* Slurm's own reading of one of its keys (first match, atoi). */
static bool slurm_key_is(const char *key, int value)
{
	char *p = xstrcasestr(slurm_conf.sched_params, key);
	return p && atoi(p + strlen(key)) == value;
}

static void warn_main_scheduler(void)
{
	if (!slurm_key_is("sched_interval=", -1))
		error("%s: slurmctld's main scheduler still starts jobs (SchedulerParameters has no sched_interval=-1): jobs may start out of %s's order",
		      plugin_type, plugin_type);
	if (xstrcasestr(slurm_conf.sched_params, "defer"))
		info("%s: SchedulerParameters has 'defer': srun/salloc jobs wait for a cycle, and every --immediate job fails at submission",
		     plugin_type);
}

/* (Re)read SchedulerParameters; a bad value keeps that setting as it
 * was.  Needs the config read lock (or start-up). */
static void load_params(const tp_settings *prev)
{
	tp_settings p;
	tp_error err = { { 0 } };
	char text[1024];

	tp_settings_parse_params(&p, prev, slurm_conf.sched_params,
				 TP_SCOPE_SCHED, report_param, NULL);
	tp_policy *pol = tp_policy_create(p.policy, &p.popts, &err);
	if (!pol) {
		error("%s: %s; keeping the previous settings", plugin_type,
		      err.msg);
		return;
	}
	tp_policy_destroy(ctx.policy);
	ctx.policy = pol;
	ctx.params = p;
	tp_settings_report_unread(slurm_conf.sched_params, TP_SCOPE_SCHED,
				  p.policy, report_param, NULL);
	snprintf(ctx.stats.policy, sizeof(ctx.stats.policy), "%s", p.policy);
	st_refuse_set_period(&ctx, p.period);
	tp_settings_format(&p, TP_SCOPE_SCHED, text, sizeof(text));
	info("%s: %s", plugin_type, text);
	warn_main_scheduler();
}

static void set_paths(void)
{
	xfree(fills_path);
	xfree(stats_path);
	xfree(expdb_path);
	expdb_path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
				    ST_EXPDB_FILE);
	fills_path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
				    ST_FILLS_FILE);
	stats_path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
				    ST_STATS_FILE);
}

/* The allocator for SelectType; rebuilt at reconfigure and whenever the
 * node table changes size.  A machine that does not load keeps the one
 * in use, as the select plugins do, unless the node table changed under
 * it.  Needs the node and config locks. */
static void load_topo(void)
{
	st_topo fresh;
	bool same_nodes = topo_nodes == node_record_count;

	topo_nodes = node_record_count;
	if (st_topo_load(&fresh, st_slurm_machine_plugin())) {
		if (ctx.topo_ok && same_nodes) {
			error("%s: keeping the previous topology", plugin_type);
			return;
		}
		if (ctx.topo_ok)
			st_topo_fini(&ctx.topo);
		ctx.topo_ok = false;
		error("%s: no usable topology for %s: no job is started until it is fixed (scontrol reconfigure)",
		      plugin_type, st_slurm_machine_plugin());
		return;
	}
	if (ctx.topo_ok)
		st_topo_fini(&ctx.topo);
	ctx.topo = fresh;
	ctx.topo_ok = true;
	st_view_fini(&ctx.view);
	st_view_init(&ctx.view, ctx.topo.topo.alloc);
	info("%s: %s", plugin_type, ctx.topo.topo.describe);
}

/* ---- state files at start ------------------------------------------ */

/* The fill table of before the restart: a bad file is logged (path, line)
 * and ignored, or its good lines kept; the file stays as it is until the
 * table next changes. */
static void load_fills(void)
{
	tp_error err = { { 0 } };
	int rc = st_fills_load(&ctx.fills, fills_path, &err);
	if (rc < 0)
		error("%s: %s: file ignored; fill jobs of before the restart are treated as ordinary jobs",
		      plugin_type, err.msg);
	else if (rc > 0)
		error("%s: %s; the jobs of the bad lines are treated as ordinary jobs",
		      plugin_type, err.msg);
	if (rc >= 0 && ctx.fills.jobs.n)
		info("%s: %zu fill job(s) restored from %s", plugin_type,
		     ctx.fills.jobs.n, fills_path);
}

/* The statistics start at zero at every start (sched_topo(5)); the file
 * of before is replaced after the first cycle.  Say so, with what it
 * held, or what is wrong with it. */
static void check_stats_file(void)
{
	tp_error err = { { 0 } };
	st_stats prev;
	int rc = st_stats_read(&prev, stats_path, &err);
	if (rc < 0)
		error("%s: %s: not read; replaced after the first cycle",
		      plugin_type, err.msg);
	else if (rc > 0)
		info("%s: statistics of before the restart in %s (%" PRIu64 " cycles, %" PRIu64 " starts) are replaced after the first cycle: the counters start at zero",
		     plugin_type, stats_path, prev.cycles, prev.started);
}

/* ---- the agent ------------------------------------------------------ */

/* Sleep `sec` seconds unless told to stop. */
static void agent_sleep(int sec)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += sec;
	slurm_mutex_lock(&term_lock);
	if (!stop_agent)
		slurm_cond_timedwait(&term_cond, &term_lock, &ts);
	slurm_mutex_unlock(&term_lock);
}

static bool take_reconf(void)
{
	slurm_mutex_lock(&reconf_lock);
	bool r = reconf_pending;
	reconf_pending = false;
	slurm_mutex_unlock(&reconf_lock);
	return r;
}

static uint64_t usec_between(const struct timeval *a, const struct timeval *b)
{
	return (uint64_t)((b->tv_sec - a->tv_sec) * 1000000L +
			  (b->tv_usec - a->tv_usec));
}

/* What is written after a cycle, outside slurmctld's locks. */
static void save_files(void)
{
	tp_error err = { { 0 } };
	static bool fills_failed, stats_failed, expdb_failed; /* log once */

	if (ctx.fills.dirty) {
		if (st_fills_save(&ctx.fills, fills_path, &err)) {
			if (!fills_failed)
				error("%s: %s", plugin_type, err.msg);
			fills_failed = true;
		} else {
			fills_failed = false;
		}
	}
	if (st_expdb_save(&ctx.het, expdb_path, &err)) {
		if (!expdb_failed)
			error("%s: %s", plugin_type, err.msg);
		expdb_failed = true;
	} else {
		expdb_failed = false;
	}
	if (st_stats_write(&ctx.stats, stats_path, &err)) {
		if (!stats_failed)
			error("%s: %s", plugin_type, err.msg);
		stats_failed = true;
	} else {
		stats_failed = false;
	}
}

static void log_stats(void)
{
	char line[512];
	if (!ctx.params.stats_every ||
	    ctx.stats.cycles % (uint64_t)ctx.params.stats_every)
		return;
	st_stats_line(&ctx.stats, line, sizeof(line));
	info("%s: stats: %s", plugin_type, line);
}

/* One cycle under the locks sched/backfill takes (st_slurm.h: the lock
 * set differs between releases). */
static uint32_t locked_cycle(uint64_t *us)
{
	struct timeval t0, t1;
	uint32_t started = 0;

	st_slurm_lock_cycle();
	gettimeofday(&t0, NULL);
	if (take_reconf()) {
		tp_settings prev = ctx.params;
		load_params(&prev);
		set_paths();
		load_topo();
	} else if (topo_nodes != node_record_count) {
		load_topo();
	}
	if (ctx.topo_ok)
		started = st_cycle_run(&ctx, time(NULL));
	gettimeofday(&t1, NULL);
	st_slurm_unlock_cycle();
	*us = usec_between(&t0, &t1);
	return started;
}

static void *agent(void *arg)
{
	while (!stop_agent) {
		agent_sleep(ctx.params.period);
		if (stop_agent)
			break;
		if (slurmctld_config.scheduling_disabled)
			continue;
		uint64_t us;
		uint32_t started = locked_cycle(&us);
		if (!ctx.topo_ok)
			continue;
		st_stats_cycle(&ctx.stats, us, (int64_t)time(NULL));
		if (started) {
			/* As slurmctld's own scheduler does after starts. */
			schedule_node_save();
			schedule_job_save();
		}
		save_files();
		log_stats();
	}
	return NULL;
}

/* ---- plugin operations ---------------------------------------------- */

extern int init(void)
{
	if (slurmctld_config.scheduling_disabled)
		return SLURM_SUCCESS;
	slurm_mutex_lock(&thread_lock);
	if (agent_tid) {
		slurm_mutex_unlock(&thread_lock);
		return SLURM_ERROR;
	}
	memset(&ctx, 0, sizeof(ctx));
	tp_settings_default(&ctx.params, true);
	st_stats_init(&ctx.stats, (int64_t)time(NULL));
	st_fills_init(&ctx.fills);
	st_seen_init(&ctx.seen, (int64_t)time(NULL));
	tp_refusals_init(&ctx.refused, 1, 1);
	load_params(NULL);
	if (!ctx.policy) { /* cannot happen with the defaults */
		slurm_mutex_unlock(&thread_lock);
		return SLURM_ERROR;
	}
	set_paths();
	load_fills();
	check_stats_file();
	if (st_expdb_init(&ctx.het, expdb_path)) {
		slurm_mutex_unlock(&thread_lock);
		return SLURM_ERROR;
	}
	stop_agent = false;
	topo_nodes = -1;
	st_slurm_thread_create(&agent_tid, "schedtopo", agent);
	slurm_mutex_unlock(&thread_lock);
	return SLURM_SUCCESS;
}

extern void fini(void)
{
	slurm_mutex_lock(&thread_lock);
	if (agent_tid) {
		slurm_mutex_lock(&term_lock);
		stop_agent = true;
		slurm_cond_signal(&term_cond);
		slurm_mutex_unlock(&term_lock);
		pthread_join(agent_tid, NULL);
		agent_tid = 0;
		if (fills_path)
			save_files();
		st_view_fini(&ctx.view);
		if (ctx.topo_ok)
			st_topo_fini(&ctx.topo);
		st_fills_fini(&ctx.fills);
		st_expdb_fini(&ctx.het);
		st_seen_fini(&ctx.seen);
		tp_refusals_fini(&ctx.refused);
		tp_policy_destroy(ctx.policy);
		memset(&ctx, 0, sizeof(ctx));
		xfree(fills_path);
		xfree(stats_path);
		xfree(expdb_path);
	}
	slurm_mutex_unlock(&thread_lock);
}

/* scontrol reconfigure: re-read SchedulerParameters and the topology at
 * the start of the next cycle, under the locks. */
extern int sched_p_reconfig(void)
{
	slurm_mutex_lock(&reconf_lock);
	reconf_pending = true;
	slurm_mutex_unlock(&reconf_lock);
	return SLURM_SUCCESS;
}
