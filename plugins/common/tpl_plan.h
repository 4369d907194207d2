/*
 * tpl_plan.h - the placement questions a select plugin asks its core
 * allocator, free of Slurm types so they can be unit-tested.
 *
 * slurmctld asks three questions (select_p_job_test modes): can the job
 * start now (RUN_NOW), could it ever run on these nodes (TEST_ONLY), and
 * when and where will it start (WILL_RUN, used by sched/backfill to plan).
 * All three reduce to "place between lo and hi nodes out of a set", the
 * last one repeated over the future free sets obtained by releasing the
 * running jobs' nodes in order of their end times.
 */
#ifndef TPL_PLAN_H
#define TPL_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "model/nodeset.h"

/* Nodes a running job gives back at `time` (its end by time limit). */
typedef struct tpl_release {
	int64_t time;
	tp_nodeset nodes;
} tpl_release;

/*
 * Place a job that accepts any node count in [lo, hi]: try hi first, then
 * fewer, as Slurm's own selection prefers the requested (largest) count.
 * `out` (initialised, same size as `usable`) receives the placement.
 * Returns the node count placed, or -1 when no count in range fits.
 */
int tpl_place_range(tp_alloc *a, const tp_nodeset *usable, int lo, int hi,
		    tp_nodeset *out);

/*
 * Earliest placement: first on `free_now`, then after each release time
 * (all releases with the same time together, in ascending time order; `rel`
 * need not be sorted) on free_now plus every node released so far.
 * On success returns the node count, sets *when to 0 for "now" or to the
 * release time that made the placement possible, and fills `out`.
 * Returns -1 when even after all releases nothing fits; -2 on ENOMEM.
 */
int tpl_place_earliest(tp_alloc *a, const tp_nodeset *free_now,
		       const tpl_release *rel, size_t nrel, int lo, int hi,
		       tp_nodeset *out, int64_t *when);

#endif
