/* sim_util.h - build small workloads by hand and run them through the engine. */
#ifndef TP_SIM_UTIL_H
#define TP_SIM_UTIL_H

#include <stdbool.h>
#include <check.h>
#include <string.h>

#include "settings/settings.h"
#include "engine/engine.h"
#include "policy/policy.h"
#include "trace/workload.h"

/* One row of a hand-written trace. */
typedef struct sim_row {
	int64_t id, submit;
	int32_t nodes;
	int64_t estimate, runtime;
} sim_row;

static inline void sim_build(tp_workload *w, int nodes, const sim_row *rows,
			     size_t n)
{
	memset(w, 0, sizeof(*w));
	w->nodes = nodes;
	w->ppn = 1;
	for (size_t i = 0; i < n; i++) {
		tp_wjob j = { .id = rows[i].id, .submit = rows[i].submit,
			      .runtime = rows[i].runtime,
			      .estimate = rows[i].estimate,
			      .nodes = rows[i].nodes };
		ck_assert_int_eq(tp_workload_add(w, &j), 0);
	}
}

/* Append one job to a workload built by hand. */
static inline void sim_add(tp_workload *w, int64_t id, int64_t submit,
			   int64_t runtime, int64_t est, int nodes)
{
	tp_wjob j = { .id = id, .submit = submit, .runtime = runtime,
		      .estimate = est, .nodes = nodes };
	ck_assert_int_eq(tp_workload_add(w, &j), 0);
}

/* Simulate with the named policy on first-free, the engine's invariant
 * checks on or off.  With checks on, tp_simulate fails at the first job
 * started after its reservation, so resv_violations is always 0 after a
 * successful checked run; with checks off the engine counts those starts
 * instead (start_job in engine.c), so only an unchecked run's count can
 * show a breach. */
static inline void sim_run_checked(const tp_workload *w, const char *policy,
				   const tp_policy_opts *opts, bool check,
				   tp_sim_result *r, tp_policy_stats *stats)
{
	tp_error err = { "" };
	tp_alloc_cfg cfg = { .nnodes = w->nodes };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	tp_policy *p = tp_policy_create(policy, opts, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	tp_engine_opts eo = { .check = check, .keep_nodelists = true };
	int rc = tp_simulate(w, p, a, &eo, r, &err);
	ck_assert_msg(rc == 0, "simulate: %s", err.msg);
	if (stats)
		*stats = p->stats;
	tp_policy_destroy(p);
	tp_alloc_destroy(a);
}

/* Invariant checks on. */
static inline void sim_run(const tp_workload *w, const char *policy,
			   const tp_policy_opts *opts, tp_sim_result *r,
			   tp_policy_stats *stats)
{
	sim_run_checked(w, policy, opts, true, r, stats);
}

/* Invariant checks off: the run whose resv_violations count means
 * something. */
static inline void sim_run_unchecked(const tp_workload *w, const char *policy,
				     const tp_policy_opts *opts,
				     tp_sim_result *r, tp_policy_stats *stats)
{
	sim_run_checked(w, policy, opts, false, r, stats);
}

/* The record of job `id`'s attempt `attempt`; fails the test if absent. */
static inline const tp_record *sim_rec(const tp_sim_result *r, int64_t id,
				       int attempt)
{
	for (size_t i = 0; i < r->nrec; i++)
		if (r->rec[i].id == id && r->rec[i].attempt == attempt)
			return &r->rec[i];
	ck_abort_msg("no record for job %lld attempt %d", (long long)id, attempt);
	return NULL;
}

#define ck_assert_run(r, id, start_, end_, nodes_)                           \
	do {                                                                 \
		const tp_record *x_ = sim_rec((r), (id), 1);                 \
		ck_assert_msg(x_->start == (start_) && x_->end == (end_),    \
			      "job %d ran [%lld,%lld), expected [%lld,%lld)", \
			      (int)(id), (long long)x_->start,               \
			      (long long)x_->end, (long long)(start_),       \
			      (long long)(end_));                            \
		ck_assert_str_eq(x_->nodelist, (nodes_));                    \
	} while (0)

#endif
