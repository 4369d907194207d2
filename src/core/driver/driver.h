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
 * Each driver then carries the answers out in its world.  Around them,
 * one function for each rule both drivers need: which runs get the
 * at-limit question (tp_driver_limit_due), the ceiling on an extension
 * (tp_run.ceiling, applied in tp_driver_at_limit), admission ("could
 * this job ever run here", driver/admit.h), the --switches wait
 * (driver/switches.h) and whether a policy plans a heterogeneous machine
 * (tp_driver_scope_of).  Earliest placements (WILL_RUN, shadow times)
 * are alloc/place.h.
 */
#ifndef TP_DRIVER_H
#define TP_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cluster.h"
#include "policy/policy.h"
#include "policy/rhythm.h"

/* A policy's answer for a job at its limit, as the driver carries it out. */
typedef struct tp_limit_answer {
	tp_limit_action action;
	/* EXTEND: seconds added to the limit; RESUBMIT: the corrected
	 * estimate, s.  Both rounded up to the driver's time unit. */
	int64_t arg;
	int64_t raw;  /* the policy's own value, before rounding */
	bool denied;  /* the policy refused an extension (and counted it);
		       * false for "none left" */
	bool ceiling; /* denied because it would pass the run's ceiling */
} tp_limit_answer;

/*
 * Is the at-limit question due for run r at `now`?  Its limit is within
 * `horizon` seconds (the simulator: 0, it asks when the limit comes;
 * sched/topo: its period, since Slurm ends a job at its first check
 * after end_time, so the answer must be carried out before), and this
 * limit was not asked about yet (`decided_end`: the limit of the last
 * question, -1 for none).  Once per limit: an extension makes a new one.
 */
bool tp_driver_limit_due(const tp_run *r, int64_t now, int64_t horizon,
			 int64_t decided_end);

/*
 * Ask the policy about c->run[ri], which reached its limit at c->now.
 * An EXTEND by nothing (arg <= 0) is a KILL.  Values are rounded up to
 * `unit` seconds (1: none; Slurm's time limits are whole minutes, 60).
 * An EXTEND that would take the limit past the run's ceiling (the
 * partition's MaxTime in slurmctld) is refused: a KILL, counted as a
 * denied extension.
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

/* One moment of Slurm's scheduler rhythm (policy/rhythm.h) at c->now,
 * instead of tp_driver_pass: forget the previous starts and reservation,
 * run the main scheduler's pass unless sched_interval is -1 (over the
 * whole queue when `full`: its periodic pass is due), then, when the driver says the backfill
 * scheduler is due, the backfill pass (policy p's, over the jobs it
 * tests); the starts of both are in c->starts.  0, or -1 on ENOMEM. */
int tp_driver_rhythm_pass(tp_policy *p, tp_cluster *c, const tp_rhythm *r,
			  bool full, bool backfill);

/* How a driver runs a policy: one pass over one cluster at a time (the
 * whole machine in the simulator, each partition in slurmctld), or one
 * plan over every partition of a heterogeneous machine at once
 * (hetero/het.h: olb, min-min, min-max, sjs, pjs).  Both drivers branch
 * on this, and only on this. */
typedef enum tp_driver_scope {
	TP_DRIVE_CLUSTER = 0,
	TP_DRIVE_MACHINE,
} tp_driver_scope;
tp_driver_scope tp_driver_scope_of(const tp_policy *p);

/* ceil(x / unit) * unit for x > 0 and unit > 1 (INT64_MAX if that does
 * not fit); x otherwise. */
int64_t tp_round_up(int64_t x, int64_t unit);

#endif
