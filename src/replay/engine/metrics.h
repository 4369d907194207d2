/*
 * metrics.h - summary statistics of a simulated schedule.
 *
 * Definitions (also in toposim(1)):
 *   utilisation     Σ nodes_alloc·(end−start) / (nodes · (last end − first submit));
 *                   with resources inside nodes (tp_sim_result.shared)
 *                   the node-seconds during which a node held any job,
 *                   a node counted once however many jobs it held
 *   CPU util.       resources inside nodes only: CPU-seconds allocated /
 *                   (the machine's CPUs · makespan)
 *   useful util.    the same with nodes_req: the time nodes work for the
 *                   job that asked for them, not as transit nodes (the
 *                   Angara paper's "useful time"; equal without transit)
 *   wait            start − submit (per run; a resubmitted run waits from
 *                   its resubmission)
 *   bounded slowdown max(1, (wait + run) / max(run, τ)), τ = 10 s
 *   response ratio  (end − submit) / run, run = max(end − start, 1)
 *   wait/estimate   wait / requested time (the Angara study's Q/Wtime)
 *   makespan        last end − first submit
 *   fill completion fill runs that finished on their first attempt (status
 *                   completed or extended) / all first-attempt fill runs
 *   mean run        mean of end - start over runs (the simulated occupancy:
 *                   a run ended by its limit counts to the limit)
 * Under a run-time model (rtmodel.h) also:
 *   mean trace run  mean of the trace's run time over runs
 *   mean spread     mean spread of multi-node runs
 *   dilation kills  runs ended by their limit that the trace's run time
 *                   would have let finish (runtime <= limit < dilated run)
 */
#ifndef TP_METRICS_H
#define TP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

#define TP_BSLD_TAU 10.0

typedef struct tp_summary {
	size_t runs;             /* records (attempts) */
	size_t jobs;             /* distinct jobs (first attempts) */
	int nodes;
	double utilisation;
	double useful_utilisation; /* on requested nodes */
	double cpu_utilisation;    /* resources inside nodes only, else 0 */
	double mean_wait;
	double mean_bsld;
	double mean_response_ratio;
	double mean_wait_over_estimate;
	int64_t makespan;
	size_t fill_jobs;
	double fill_completion_rate; /* NaN-free: 0 when there are no fill jobs */
	size_t killed, extended, resubmitted;
	double mean_cost;        /* mean allocator cost of multi-node runs
				  * with a cost, -1 if none */
	double mean_run;
	/* Run-time model (tp_sim_result.dilated); zero without one. */
	bool dilated;
	double mean_trace_run, mean_spread_multi;
	size_t dilation_kills;
} tp_summary;

void tp_summarize(const tp_sim_result *r, tp_summary *s);
/* One run's bounded slowdown (the definition above). */
double tp_bounded_slowdown(const tp_record *x);

#endif
