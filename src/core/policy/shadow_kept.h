/*
 * shadow_kept.h - the head's shadow carried from pass to pass.
 *
 * EASY computes its head's shadow at every pass (policy_easy.c), and many
 * passes follow an event that changed nothing the shadow depends on: a job
 * queued behind the head, or a pass that started nothing.  The shadow
 * (shadow.h) depends on the allocator, the head's request, the free nodes
 * and the running jobs' nodes and limits; on the time only as max(its
 * time, now): its first try is on the free nodes, whenever it is made,
 * and every later one at a running job's limit.  So a shadow kept with
 * all of those is the shadow: one comparison of sets instead of one
 * placement per distinct limit, the dearest part of a pass on a topology.
 * A few are kept (sched/topo runs one policy over each partition in turn),
 * the least recently used replaced.  A head that can never be placed is
 * kept as such too: an allocator answers the same on the same set
 * (alloc.h), as the failure memo assumes.
 */
#ifndef TP_SHADOW_KEPT_H
#define TP_SHADOW_KEPT_H

#include "model/cluster.h"
#include "policy/shadow.h"

typedef struct tp_shadow_kept tp_shadow_kept;

tp_shadow_kept *tp_shadow_kept_new(void); /* NULL on ENOMEM */
void tp_shadow_kept_free(tp_shadow_kept *k);

/*
 * tp_shadow_compute(c, job, NULL, s), from k when k holds the shadow of
 * the same request (a job's node count or range) on the same allocator,
 * free nodes and running jobs (limits and nodes, in the same order),
 * computed no later than now; otherwise computed and kept in k.  A job
 * with node constraints is computed every time (its constraints are the
 * caller's sets, not compared).  k may be NULL: computed.  Returns 0, -1
 * on ENOMEM.
 */
int tp_shadow_compute_kept(tp_shadow_kept *k, const tp_cluster *c,
			   const tp_job *job, tp_shadow *s);
/* Calls answered from k so far (for the tests). */
unsigned long tp_shadow_kept_hits(const tp_shadow_kept *k);

#endif
