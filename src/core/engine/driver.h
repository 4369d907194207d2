/*
 * driver.h - one scheduling step, the same for every driver.
 *
 * Two programs drive the policies: the simulator's engine (engine.h),
 * which owns time and replays a trace, and sched/topo, which rebuilds a
 * tp_cluster from slurmctld's tables every cycle.  Both take the same
 * steps through these functions, in the same order:
 *   1. for each running job at its limit, tp_driver_at_limit(): the
 *      policy's answer, normalised and applied to the cluster view;
 *   2. tp_driver_pass(): forget the last pass's decisions and
 *      reservation, run one pass; the starts are in c->starts.
 * Each driver then carries the answers out in its world.  Arrival-time
 * checks ("could this size ever be placed") are alloc/placeable.h, and
 * earliest placements (WILL_RUN, shadow times) alloc/place.h.
 */
#ifndef TP_DRIVER_H
#define TP_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cluster.h"
#include "policy/policy.h"

/* A policy's answer for a job at its limit, as the driver carries it out. */
typedef struct tp_limit_answer {
	tp_limit_action action;
	/* EXTEND: seconds added to the limit; RESUBMIT: the corrected
	 * estimate, s.  Both rounded up to the driver's time unit. */
	int64_t arg;
	int64_t raw;  /* the policy's own value, before rounding */
	bool denied;  /* the policy refused an extension (and counted it);
		       * false for "none left" */
} tp_limit_answer;

/*
 * Ask the policy about c->run[ri], which reached its limit at c->now.
 * An EXTEND by nothing (arg <= 0) is a KILL.  Values are rounded up to
 * `unit` seconds (1: none; Slurm's time limits are whole minutes, 60).
 * An EXTEND is applied to the run at once (limit, extensions), so later
 * questions and the pass see it; carrying out a KILL or RESUBMIT is the
 * driver's (the engine frees the nodes at once, slurmctld only once the
 * job has ended).
 */
tp_limit_answer tp_driver_at_limit(tp_policy *p, tp_cluster *c, size_t ri,
				   int64_t unit);

/* One pass at c->now: forget the previous starts and reservation, run
 * the policy.  Its starts are in c->starts, its reservation in
 * c->resv_job/resv_time. */
void tp_driver_pass(tp_policy *p, tp_cluster *c);

/* ceil(x / unit) * unit for x > 0 and unit > 1 (INT64_MAX if that does
 * not fit); x otherwise. */
int64_t tp_round_up(int64_t x, int64_t unit);

#endif
