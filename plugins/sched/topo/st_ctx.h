/*
 * st_ctx.h - what sched/topo keeps between cycles: its settings, the
 * policy, the machine, the fill table, the run-time database, the jobs
 * seen running, the jobs whose start slurmctld refused, the statistics and the view a partition cycle builds.
 * Types only; every cycle (st_cycle.h) and the job layer (st_job.h) work
 * on one st_ctx.
 */
#ifndef ST_CTX_H
#define ST_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "driver/refusal.h"
#include "policy/policy.h"
#include "settings/settings.h"
#include "st_expdb.h"
#include "st_fills.h"
#include "st_seen.h"
#include "st_stats.h"
#include "st_topo.h"
#include "st_view.h"

typedef struct st_ctx {
	tp_settings params;  /* topo_ SchedulerParameters */
	tp_policy *policy;
	st_topo topo;
	bool topo_ok;
	st_fills fills;
	st_expdb het;        /* heterogeneous policies: run-time database */
	st_seen seen;        /* running jobs of the last cycle */
	tp_refusals refused; /* jobs refused "not now" (st_refuse.h) */
	st_stats stats;
	st_view view;
	uint32_t started_now; /* starts of the current cycle */
} st_ctx;

#endif
