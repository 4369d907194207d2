/*
 * first_fit.h - placing queued jobs in queue order.
 *
 * Shared by fcfs (window 1), window-ff (doc/methods.md B) and the
 * in-order part of the backfilling policies, so "start what fits, in
 * order" is written once.
 */
#ifndef TP_FIRST_FIT_H
#define TP_FIRST_FIT_H

#include <stdbool.h>

#include "model/cluster.h"

/* Does `job` fit on c->free now?  Its placement goes into out
 * (initialised, c->nnodes). */
bool tp_place(tp_cluster *c, const tp_job *job, tp_nodeset *out);

/* Windowed First-Fit: walk the queue, starting every job that can be
 * placed; stop after `window` jobs could not (the window is the first
 * `window` jobs still waiting).  window = 1 is FCFS.  Returns the number
 * of jobs started, -1 on ENOMEM. */
long tp_first_fit(tp_cluster *c, int window);

#endif
