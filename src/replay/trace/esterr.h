/*
 * esterr.h - synthetic estimate errors, so that run times exceed estimates
 * and overrun handling (kill at the estimate, RB_HAR extension) can be
 * studied on any trace, including model traces without estimates.
 *
 * Specs (the --estimate-error option of toposim):
 *   none            keep the trace's estimates
 *   lognormal:SIGMA estimate = max(1, round(runtime * exp(SIGMA * Z))),
 *                   Z standard normal: the median estimate equals the run
 *                   time, so about half the jobs overrun
 *   uniform:LO-HI   estimate = max(1, round(runtime * U[LO,HI]))
 *   scale:LO-HI     estimate = max(1, round(estimate * U[LO,HI])): keeps
 *                   the trace's own estimates, shrunk or grown
 * Draws come from one tp_rng stream seeded by the seed, one job after the
 * other in workload order, so a seed gives the same estimates every run.
 */
#ifndef TP_ESTERR_H
#define TP_ESTERR_H

#include <stdint.h>

#include "base/error.h"
#include "trace/workload.h"

typedef enum tp_esterr_kind {
	TP_ESTERR_NONE,
	TP_ESTERR_LOGNORMAL,
	TP_ESTERR_UNIFORM,
	TP_ESTERR_SCALE,
} tp_esterr_kind;

typedef struct tp_esterr {
	tp_esterr_kind kind;
	double sigma;  /* lognormal */
	double lo, hi; /* uniform, scale: 0 <= lo <= hi */
} tp_esterr;

/* Parses spec into e; -1 with err naming the spec and the problem. */
int  tp_esterr_parse(const char *spec, tp_esterr *e, tp_error *err);
/* Replaces every job's estimate as the model says (no-op for none). */
void tp_esterr_apply(const tp_esterr *e, uint64_t seed, tp_workload *w);

#endif
