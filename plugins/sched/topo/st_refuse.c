/* st_refuse.c - refused starts; see st_refuse.h. */
#include "config.h"

#include <inttypes.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "st_refuse.h"
#include "st_slurm.h"

#define ST_TYPE "sched/topo"
#define ST_SIT_OUT_PERIODS 16 /* the longest sit-out, in cycles */

/* Slurm's return codes as schedule() (job_scheduler.c) treats them: the
 * ones it does not hold a job for are waits; every other one is "never"
 * (it holds the job). */
static tp_refusal_cause cause_of(int rc)
{
	switch (rc) {
	case ESLURM_NODES_BUSY:
	case ESLURM_NODE_NOT_AVAIL:
	case ESLURM_RESERVATION_BUSY:
	case ESLURM_RESERVATION_NOT_USABLE:
	case ESLURM_RESERVATION_MAINT:
	case ESLURM_BURST_BUFFER_WAIT:
	case ESLURM_INVALID_BURST_BUFFER_REQUEST:
	case ESLURM_FED_JOB_LOCK:
	case ESLURM_JOB_HELD:
		return TP_REFUSED_BUSY;
	case ESLURM_ACCOUNTING_POLICY:
		return TP_REFUSED_LIMIT;
	case ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE:
		return TP_REFUSED_PARTITION;
	}
	return st_slurm_rc_waits(rc) ? TP_REFUSED_BUSY : TP_REFUSED_NEVER;
}

/* What schedule() does to a job it finds non-runnable. */
static void hold(job_record_t *j, time_t now)
{
	j->state_reason = FAIL_BAD_CONSTRAINTS;
	xfree(j->state_desc);
	j->start_time = j->end_time = now;
	j->priority = 0;
	last_job_update = now;
}

static tp_refusal_facts facts_of(job_record_t *j, int rc)
{
	tp_refusal_facts f = { .placed = cause_of(rc) };
	if (f.placed == TP_REFUSED_NEVER) {
		/* The policy's nodes only: ask Slurm about every node the
		 * job may use, as its own scheduler would have. */
		int any = st_slurm_test_start(j);
		f.asked_anywhere = true;
		f.anywhere_ok = any == SLURM_SUCCESS;
		f.anywhere = cause_of(any);
	}
	f.may_change = st_slurm_may_change(j);
	return f;
}

void st_refuse_start(st_ctx *x, job_record_t *j, part_record_t *p,
		     bitstr_t *want, int rc, time_t now)
{
	tp_refusal_facts f = facts_of(j, rc);
	char *names = bitmap2node_name(want);
	if (tp_refusal_judge(&f) == TP_REFUSAL_NEVER) {
		hold(j, now);
		tp_refusals_forget(&x->refused, j->job_id);
		x->stats.held_never++;
		info("%s: %s decided %pJ on %s in partition %s, but slurmctld did not start it: %s; it cannot run on any node it may use: held (Reason=BadConstraints) until it is changed",
		     ST_TYPE, x->params.policy, j, names, p->name,
		     slurm_strerror(rc));
		xfree(names);
		return;
	}
	/* A "never" of the policy's nodes alone is not the job's: the
	 * reason Slurm set for those nodes goes. */
	if (j->state_reason == FAIL_BAD_CONSTRAINTS) {
		j->state_reason = WAIT_RESOURCES;
		xfree(j->state_desc);
		last_job_update = now;
	}
	int report = tp_refusals_note(&x->refused, j->job_id, rc, now);
	if (report)
		info("%s: %s decided %pJ on %s in partition %s, but slurmctld did not start it: %s%s; it sits out the next passes (%" PRId64 " s, longer if refused again; logged once)",
		     ST_TYPE, x->params.policy, j, names, p->name,
		     slurm_strerror(rc),
		     f.anywhere_ok ? " (it fits other nodes it may use)" : "",
		     tp_refusals_delay(&x->refused, 1));
	else
		debug("%s: %pJ refused again on %s: %s", ST_TYPE, j, names,
		      slurm_strerror(rc));
	xfree(names);
}

bool st_refuse_sits_out(st_ctx *x, job_record_t *j, time_t now)
{
	return tp_refusals_sits_out(&x->refused, j->job_id, (int64_t)now);
}

void st_refuse_set_period(st_ctx *x, int period)
{
	x->refused.base = period < 1 ? 1 : period;
	x->refused.max = x->refused.base * ST_SIT_OUT_PERIODS;
}
