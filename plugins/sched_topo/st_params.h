/*
 * st_params.h - sched/topo's settings, read from SchedulerParameters.
 *
 *     SchedulerParameters=sched_interval=-1,defer,topo_policy=easy,...
 *
 * Every key of ours starts with "topo_" and none contains one of Slurm's
 * own SchedulerParameters keys as a substring: Slurm looks its keys up
 * with xstrcasestr() anywhere in the string, so a key of ours that merely
 * contained e.g. "interval=" or "bf_window=" would silently switch a Slurm
 * feature.  test/check_sched_topo_params.c checks every key against the
 * list of Slurm 22.05's keys (plugins/sched_topo/slurm_sched_keys.txt).
 *
 * Unlike Slurm's look-ups we parse whole comma-separated entries, so
 * "topo_njob=4" is never mistaken for part of another key.  Free of Slurm,
 * so the unit tests exercise exactly the parser slurmctld runs.
 * Documented in sched_topo(5).
 */
#ifndef ST_PARAMS_H
#define ST_PARAMS_H

#include <stddef.h>

#include "policy/policy.h"

#define ST_POLICY_LEN 32

typedef struct st_params {
	char policy[ST_POLICY_LEN]; /* topo_policy=       default easy */
	tp_policy_opts opts;        /* topo_window=, topo_window_rule=,
				     * topo_njob=,
				     * topo_rbhar_max_ext=, topo_rbhar_max_time=,
				     * topo_rbhar_factor=, topo_requeue= */
	int period;                 /* topo_period=       s between cycles, 1 */
	int stats_every;            /* topo_stats_every=  cycles per stats log
				     * line, 0 = never; default 60 */
} st_params;

/* Limits of topo_period (seconds). */
#define ST_PERIOD_MIN 1
#define ST_PERIOD_MAX 3600

/* Defaults: policy easy, the core's tp_policy_opts_default() except
 * rbhar_resubmit = 0 (topo_requeue=no: requeueing a user's job is opt-in),
 * period 1 s, a stats line every 60 cycles. */
void st_params_default(st_params *p);

/* Called once per problem with a complete message naming key and value. */
typedef void (*st_params_report_fn)(void *arg, const char *msg);

/*
 * The settings `sched_params` (may be NULL) asks for, into *out: defaults,
 * then every topo_* entry in order (when a key is given twice the last
 * valid value wins).  An entry with a bad value is reported and that
 * setting keeps its value from `prev` (the settings in force before a
 * reconfigure; NULL at start-up: the default); an unknown topo_* key is
 * reported and ignored.  Entries without the topo_ prefix are Slurm's.
 * Returns the number of problems reported.
 */
int st_params_load(st_params *out, const st_params *prev,
		   const char *sched_params, st_params_report_fn report,
		   void *arg);

/* NULL-terminated list of our keys, each with its trailing '='. */
const char *const *st_params_keys(void);

/* "topo_policy=easy,topo_window=1,..." (every setting), for the log. */
void st_params_format(const st_params *p, char *buf, size_t len);

#endif
