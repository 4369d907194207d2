/*
 * timeline.h - resources inside nodes (model/res.h) later on, if every
 * running job ends by its limit.
 *
 * The whole-node policies project free node sets (shadow.h, profile.h);
 * with nodes shared by jobs a node frees a few CPUs at a time, so a
 * projection is of allocations: the cluster's, less every run released
 * so far.  Runs are released in the order of their limits (a run past
 * its limit, possible under slurmctld, at now + 1), each exactly once,
 * as time moves forward; a pass that wants to look again from now
 * begins again.
 */
#ifndef TP_TIMELINE_H
#define TP_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/cluster.h"

typedef struct tp_timeline {
	const tp_cluster *c;
	tp_res *proj;     /* the allocations at `at` (c's projection) */
	size_t *heap;     /* runs not released yet, a min-heap by end */
	size_t n, cap;
	int64_t at;
	long hold;        /* a run that is never released, -1: none */
} tp_timeline;

/* Projection at c->now: c->res's allocations, every run to come.  Run
 * c->run[hold] (-1: none) keeps its resources for ever (RB_HAR's "what
 * if it kept running").  0, -1 on ENOMEM. */
int tp_timeline_begin(tp_timeline *t, tp_cluster *c, long hold);
/* The next time a run is released, INT64_MAX when none is left. */
int64_t tp_timeline_next(const tp_timeline *t);
/* Release every run that ends by `when` (>= the last time asked). */
void tp_timeline_advance(tp_timeline *t, int64_t when);
void tp_timeline_fini(tp_timeline *t);

/* The nodes that can host `job` on the projection (whole nodes: nothing
 * runs there), into out; returns how many. */
int tp_timeline_hosts(const tp_timeline *t, const tp_job *job,
		      tp_nodeset *out);

#endif
