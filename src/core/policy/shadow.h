/*
 * shadow.h - when could a queued job start, judging by running jobs' limits?
 *
 * The "shadow time" of EASY backfilling, generalised to any allocator: the
 * earliest time t (now or a running job's limit) at which the allocator can
 * place the job on the nodes free at t.  With a flat allocator this is the
 * textbook count-based shadow time.
 */
#ifndef TP_SHADOW_H
#define TP_SHADOW_H

#include <stdint.h>

#include "model/cluster.h"
#include "policy/timeline.h"

typedef struct tp_shadow {
	int64_t time;         /* INT64_MAX if the job can never be placed */
	tp_nodeset free;      /* nodes free at `time` (projected) */
	tp_nodeset place;     /* scratch: where the job would go is not
			       * asked (tp_alloc_req.probe) */
} tp_shadow;

int  tp_shadow_init(tp_shadow *s, int nnodes);
void tp_shadow_fini(tp_shadow *s);

/* Compute job's shadow in c; nodes in `hold` (may be NULL) are treated as
 * never freeing (used by RB_HAR to ask "without this job's nodes?").
 * Returns 0, -1 on ENOMEM. */
int tp_shadow_compute(const tp_cluster *c, const tp_job *job,
		      const tp_nodeset *hold, tp_shadow *s);

/*
 * The shadow time by counting nodes, as textbook EASY does: the earliest
 * time (now, or a running job's limit) when c->nfree plus the nodes of the
 * runs ended by then reach `need`; *avail gets that sum.  Equal to
 * tp_shadow_compute() with no hold for a flat allocator and a job without
 * node constraints that needs at least `need` nodes, while no two runs
 * share a node (!c->nodes_shared); it costs no node-set operation, so
 * nothing that grows with the machine.  *time is INT64_MAX when even
 * every release is not enough.  Returns 0, -1 on ENOMEM.
 */
int tp_shadow_count(const tp_cluster *c, int need, int64_t *time, int *avail);

/*
 * The shadow with resources inside nodes (c->res): the earliest time
 * (now, or when a run is released: timeline.h) at which the allocator
 * can place `job` on the nodes that can host its ask then; run
 * c->run[hold] (-1: none) never ends.  tl (begun here, the caller ends
 * it) is left at that time: its projection holds the allocations then.
 * *time is INT64_MAX when even every release is not enough.  hosts and
 * scratch: sets of c->nnodes.  Returns 0, -1 on ENOMEM.
 */
int tp_shadow_res(tp_cluster *c, const tp_job *job, long hold,
		  tp_timeline *tl, tp_nodeset *hosts, tp_nodeset *scratch,
		  int64_t *time);
/* Can `job` be placed under the allocations `res` (a projection), on
 * the nodes that can host its ask there?  hosts, scratch: sets. */
bool tp_shadow_res_fits(tp_cluster *c, const tp_res *res, const tp_job *job,
			tp_nodeset *hosts, tp_nodeset *scratch);

#endif
