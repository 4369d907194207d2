/*
 * shadow_kept.h - the head's shadow carried from pass to pass.
 *
 * EASY computes its head's shadow at every pass (policy_easy.c), and most
 * passes follow an event that changed nothing the shadow depends on: a job
 * queued behind the head, or a pass that started nothing.  The shadow
 * (shadow.h) depends on the allocator, the head's request, the free nodes
 * and the running jobs' nodes and limits; on the time only as max(its
 * time, now), since every try it makes but the first is at a running
 * job's limit and the first, at now, failed (the head did not start).  So
 * a shadow kept with all of those is the shadow: one comparison of sets
 * instead of one placement per distinct limit, the dearest part of a pass
 * on a topology.
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
/* Calls answered from k so far. */
unsigned long tp_shadow_kept_hits(const tp_shadow_kept *k);

#endif
