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

/* Does `job` start now on c->free?  Its placement goes into out
 * (initialised, c->nnodes).  With the completion-aware choice on
 * (c->completion_share, an allocator with a spread) a job that fits now
 * starts only where waiting for a more compact placement would not end
 * it sooner (alloc/completion.h). */
bool tp_place(tp_cluster *c, const tp_job *job, tp_nodeset *out);

/* Is the completion-aware choice in force for this pass? */
bool tp_completion_on(const tp_cluster *c);

/* The running jobs' releases (limits and nodes), malloc'd; NULL on
 * ENOMEM. */
struct tp_release *tp_cluster_releases(const tp_cluster *c);

/* Windowed First-Fit: walk the queue, starting every job that can be
 * placed; stop after `window` jobs could not (the window is the first
 * `window` jobs still waiting).  window = 1 is FCFS.  Returns the number
 * of jobs started, -1 on ENOMEM. */
long tp_first_fit(tp_cluster *c, int window);

#endif
