/*
 * progress.h - how far a replay has come, on stderr.  On a terminal a bar
 * redrawn in place, with the rate and the time left; otherwise (nohup, a
 * batch job, a pipe) a line every TOPOSIM_PROGRESS_SECONDS seconds of wall
 * clock (default 10; 0: at every report of the engine, about every 0.1%
 * of the jobs), and a last line when the replay ends if any was printed.
 * A replay shorter than the interval prints nothing.  --quiet: none.
 */
#ifndef TP_SIM_PROGRESS_H
#define TP_SIM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define SIM_PROGRESS_SECONDS 10.0

typedef struct sim_progress_state {
	const char *label;   /* the policy */
	bool tty;            /* stderr is a terminal: the bar */
	double interval;     /* seconds between lines (not a terminal) */
	double t0, last;     /* wall clock: start, last line */
	int64_t first;       /* simulated time of the first submit */
	int shown_pct;       /* the bar's last percentage, -1: none yet */
	size_t lines;        /* lines printed (not a terminal) */
} sim_progress_state;

/* Ready for one replay whose first job is submitted at first_submit.  0,
 * or -1 with err naming a bad TOPOSIM_PROGRESS_SECONDS. */
int sim_progress_init(sim_progress_state *p, const char *label,
		      int64_t first_submit, tp_error *err);
/* The engine's callback (engine.h), arg a sim_progress_state. */
void sim_progress(void *arg, size_t done, size_t total, int64_t now);

#endif
