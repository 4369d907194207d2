/*
 * st_decide.h - the decisions of one cycle on a view, free of Slurm.
 *
 * Exactly the two questions the simulator's engine asks the core, in the
 * same order and through the same driver functions (driver/driver.h):
 * first what to do with jobs at their limit (tp_driver_at_limit), then
 * one scheduling pass (tp_driver_pass, called by st_part_cycle.c).  What is the
 * plugin's own is which jobs are asked and when (the fill table, the
 * horizon).  The
 * plugin carries the answers out in slurmctld; the unit tests carry them
 * out in a replay and compare with the engine.
 *
 * Differences forced by a live system, each a documented choice:
 *  - the at-limit question is asked for a fill job (one in the fill table)
 *    in the first cycle whose time is within `horizon` seconds of its
 *    limit (the agent's period), since Slurm ends a job soon after its
 *    end time and the plugin must have extended it by then; once per limit;
 *  - Slurm time limits are whole minutes: an extension of minTime seconds
 *    becomes ceil(minTime / unit) x unit seconds (unit 60 in the plugin,
 *    1 in a replay that mirrors the simulator), and likewise a corrected
 *    estimate for a requeue;
 *  - only fill jobs are asked about: every policy of the core kills any
 *    other job at its limit (rb-har answers KILL without counting it).
 */
#ifndef ST_DECIDE_H
#define ST_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "driver/driver.h"
#include "policy/policy.h"
#include "st_fills.h"
#include "st_view.h"

typedef struct st_limit_dec {
	tp_job *job;             /* the fill job (a job of the view) */
	long run;                /* its index in v->c.run, valid during the
				  * callback */
	tp_limit_answer answer;  /* the driver's (driver/driver.h) */
} st_limit_dec;

/* Carries one decision out before the next question is asked (the
 * simulator's engine frees a killed job's nodes at once; slurmctld only
 * when Slurm has ended the job, so the plugin leaves the view alone). */
typedef void (*st_limit_fn)(void *arg, st_view *v, const st_limit_dec *d);

/* st_decide_limits() flags. */
#define ST_ASK_FILL 0u  /* only fill jobs (the plugin) */
#define ST_ASK_ALL  1u  /* every run at its limit, as the engine does (a
			 * replay); runs outside the table are asked
			 * whenever due, without decided_end */

/*
 * Ask about every run of a tracked fill job (with ST_ASK_ALL: every run)
 * whose limit is at most now + horizon and was not decided yet, in job
 * id order, calling `apply` with each answer.  EXTEND is applied to the view (limit,
 * extensions) and to the table entry before the call, so later questions
 * and the pass see it; every question records decided_end.  Returns the
 * number of questions asked, or -1 on ENOMEM.
 */
long st_decide_limits(tp_policy *p, st_view *v, st_fills *f, int64_t horizon,
		      int64_t unit, unsigned flags, st_limit_fn apply,
		      void *arg);

/* Is the run of `job` (a job of the view) this caller's to ask about?
 * The plugin builds one view per partition, and a job holding nodes of
 * several partitions is a run in each view; it is asked about in its own
 * partition's only, where its reserved job queues. */
typedef bool (*st_mine_fn)(void *arg, const tp_job *job);

/* st_decide_limits() asking only about the runs `mine` accepts (NULL:
 * all); `arg` goes to both callbacks. */
long st_decide_limits_of(tp_policy *p, st_view *v, st_fills *f,
			 int64_t horizon, int64_t unit, unsigned flags,
			 st_mine_fn mine, st_limit_fn apply, void *arg);

#endif
