/*
 * windows.h - toposim --windows: replay K windows of LEN consecutive jobs
 * of a trace, each on its own (an idle machine at its first submission),
 * and report each window's metrics and their mean: the form in which
 * published results on long traces are usually given.
 *
 * Spec: "K:LEN:SEED" (K window starts drawn uniformly from the positions
 * where a whole window fits, with the core's generator seeded SEED; the
 * same seed gives the same windows) or "LEN@I1,I2,..." (the given start
 * positions).  Positions are those of --jobs: after the skips, in submit
 * order.
 */
#ifndef TP_SIM_WINDOWS_H
#define TP_SIM_WINDOWS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/metrics.h"
#include "base/error.h"

typedef struct sim_windows {
	size_t k, len;
	uint64_t seed;
	int drawn;       /* 1: starts are drawn at resolve time */
	size_t *starts;  /* k of them once resolved */
} sim_windows;

/* Parse spec into *w (starts allocated for LEN@list); 0, or -1 with why. */
int  sim_windows_parse(const char *spec, sim_windows *w, char *why, size_t n);
/* Draw or check the starts for a trace of njobs jobs; 0, or -1 with err. */
int  sim_windows_resolve(sim_windows *w, size_t njobs, tp_error *err);
void sim_windows_fini(sim_windows *w);

/* The arithmetic mean of k summaries' metrics (counts summed). */
void sim_summary_mean(const tp_summary *s, size_t k, tp_summary *mean);

#endif
