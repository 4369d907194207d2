/*
 * metrics_dist.h - distributions of a simulated schedule: percentiles of
 * wait, bounded slowdown and response time, over all runs and per job-size
 * class.  Means hide the tail that users feel (one job waiting a day among
 * a thousand that start at once), so the summary gives both.
 *
 * Definitions (also in toposim(1)):
 *   response time   end − submit (per run, like wait)
 *   percentile p    nearest rank: the value of rank ceil(p/100 · n) in the
 *                   n values sorted ascending (rank 1 the smallest); always
 *                   one of the values, never an interpolation; median = p50
 *   size class      of the nodes a run asked for: 1, 2-4, 5-16, 17-64,
 *                   65-256, 257-1024, 1025+ (powers of 4: each class holds
 *                   jobs of about the same shape on a fat tree of 4-port
 *                   levels, and few enough classes to read)
 * Every run (attempt) is one value, as in the means of metrics.h.
 */
#ifndef TP_METRICS_DIST_H
#define TP_METRICS_DIST_H

#include <stddef.h>

#include "engine/engine.h"

#define TP_SIZE_CLASSES 7

typedef struct tp_quantiles {
	double mean, median, p90, p95, p99, max; /* all 0 without values */
} tp_quantiles;

typedef struct tp_dist_part {
	size_t runs;
	tp_quantiles wait, bsld, response;
} tp_dist_part;

typedef struct tp_dist {
	tp_dist_part all;
	tp_dist_part cls[TP_SIZE_CLASSES];
} tp_dist;

/* The percentile p (0 < p <= 100) of n >= 1 values sorted ascending, by
 * nearest rank. */
double tp_nearest_rank(const double *sorted, size_t n, int p);
/* Mean, median, p90, p95, p99 and max of n values (sorted here, in
 * place); all 0 when n is 0. */
void tp_quantiles_of(double *v, size_t n, tp_quantiles *q);

/* The size class of a request of `nodes` nodes (>= 1): 0..TP_SIZE_CLASSES-1. */
int tp_size_class(int nodes);
/* Its bounds: lowest and highest node count, highest -1 for "and more". */
void tp_size_class_bounds(int cls, int *lo, int *hi);

/* The distributions of r's runs.  0, or -1 when out of memory (d is then
 * zeroed). */
int tp_summarize_dist(const tp_sim_result *r, tp_dist *d);

#endif
