/*
 * profile.h - node availability over time, for planning reservations.
 *
 * A profile is a step function from now to infinity: segment i covers
 * [t[i], t[i+1]) (the last one never ends) and says how many nodes are free
 * then and, in set mode, which.  It starts as "running jobs end at their
 * limits" and then every reservation subtracts its nodes from the segments
 * it covers.  Conservative backfilling plans the whole queue on one; EASY
 * style policies can plan only the head.
 *
 * Modes, chosen at init:
 *  - counts (flat allocators, where any n free nodes will do): only
 *    counts are kept; a job fits at t if at least n nodes are free
 *    throughout [t, t + duration);
 *  - sets (topology allocators): each segment also keeps its free node
 *    set; a job fits at t if the allocator can place it on the nodes free
 *    throughout [t, t + duration), and the reservation pins exactly that
 *    placement's nodes.  This is how Slurm's backfill plans with topology.
 *  - sets, monotone allocator: the same answers, fewer allocator calls.
 *    An allocator is monotone if placing on F succeeding implies placing
 *    on any superset of F succeeds (first-free, tree-greedy and the torus
 *    box methods are; the patent's fat-tree rule is not: a job that fits
 *    a partly used unit exactly may find no exact fit once more nodes are
 *    free).  Then a window inside one already refused for the same size
 *    (since the last build) is refused without a call, and after a first
 *    refusal a size that cannot be placed even on every node free or
 *    running is "never" at once (some sizes cannot be placed at all on a
 *    torus; such a job would otherwise cost a failed search over the whole
 *    profile in every pass).  Allocator calls dominate the cost of
 *    planning with a topology allocator.
 *
 * Candidate start times are segment starts only.  With a monotone
 * allocator nothing is lost: moving a start later inside a segment can
 * only shrink the set of nodes free throughout the window.  With another
 * allocator the earliest fit is the earliest among segment starts.
 */
#ifndef TP_PROFILE_H
#define TP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "alloc/placeable.h"
#include "model/cluster.h"
#include "base/nodeset.h"

typedef enum tp_profile_mode {
	TP_PROFILE_COUNTS,
	TP_PROFILE_SETS,
	TP_PROFILE_SETS_MONOTONE,
} tp_profile_mode;

/* "Never": a job that cannot fit even when every running job has ended. */
#define TP_PROFILE_NEVER INT64_MAX
/* Refused placements remembered per build (set mode). */
#define TP_PROFILE_FAILS 16

typedef struct tp_profile {
	int64_t *t;       /* segment starts, strictly increasing; t[0] = now */
	int *free;        /* free node count per segment */
	tp_nodeset *set;  /* set mode: free nodes per segment; NULL otherwise */
	size_t n, cap;    /* segments in use / allocated */
	size_t nset_init; /* set[0..nset_init) own their word arrays (pool) */
	int nnodes;
	bool monotone;    /* TP_PROFILE_SETS_MONOTONE */
	/* Set modes only. */
	tp_nodeset win;   /* scratch: free throughout a window */
	tp_nodeset all;   /* every node free or running at build time: no
			   * window is ever larger */
	tp_placeable fits_all; /* by job size, since the build: placeable
				* on `all`? */
	/* Recent refusals since the build (size, window), a ring: a window
	 * inside a refused one of the same size needs no allocator call. */
	tp_nodeset fail[TP_PROFILE_FAILS];
	int fail_nodes[TP_PROFILE_FAILS];
	size_t nfail, fail_next;
	/* Optional (set modes): narrows the nodes free throughout a window
	 * starting at `start` to those that can host the job searched for
	 * then (resources inside nodes: the profile's sets hold only
	 * reservations, tp_profile_build_all).  Called in time order within
	 * one search. */
	void (*narrow)(void *arg, int64_t start, tp_nodeset *win);
	void *narrow_arg;
} tp_profile;

/* Returns 0, -1 on ENOMEM. */
int  tp_profile_init(tp_profile *p, int nnodes, tp_profile_mode mode);
void tp_profile_fini(tp_profile *p);
static inline bool tp_profile_has_sets(const tp_profile *p)
{
	return p->set != NULL;
}

/* Reset p to cluster c at c->now: c->free now, plus each running job's
 * nodes from its limit on.  A job already past its limit (possible under
 * slurmctld, where ending takes a while) is taken to end at now + 1: its
 * nodes are not free now, but nothing is known beyond that.
 * Returns 0, -1 on ENOMEM. */
int tp_profile_build(tp_profile *p, const tp_cluster *c);

/* Set modes: reset p to c at c->now with every node free at every time
 * (only reservations will take nodes away), one segment boundary at each
 * running job's limit: the profile of reservations beside resources
 * inside nodes, whose releases `narrow` applies.  0, -1 on ENOMEM. */
int tp_profile_build_all(tp_profile *p, const tp_cluster *c);

/* Earliest start >= now at which a job of `nodes` nodes and `dur` > 0
 * seconds fits, as the profile's mode defines it (see above).  In set mode
 * the allocator `a` is asked for a placement and its nodes are written to
 * `where` (initialised, p->nnodes nodes); in count mode `a` and `where` are
 * not used (may be NULL).  Use one allocator between two builds: its
 * refusals are remembered.  Returns the start time (a segment start), or
 * TP_PROFILE_NEVER.  Allocates nothing, so it cannot fail otherwise. */
int64_t tp_profile_earliest(tp_profile *p, tp_alloc *a, int nodes,
			    int64_t dur, tp_nodeset *where);
/* The same, among starts strictly after `after`. */
int64_t tp_profile_earliest_after(tp_profile *p, tp_alloc *a, int nodes,
				  int64_t dur, int64_t after,
				  tp_nodeset *where);
/* The same for a request with node constraints (tp_alloc_req): in set
 * mode the allocator places the request; count mode counts only, so a
 * constrained job's start found there may still be refused at placing. */
int64_t tp_profile_earliest_req(tp_profile *p, tp_alloc *a,
				const tp_alloc_req *req, int64_t dur,
				tp_nodeset *where);
int64_t tp_profile_earliest_after_req(tp_profile *p, tp_alloc *a,
				      const tp_alloc_req *req, int64_t dur,
				      int64_t after, tp_nodeset *where);
/* Set modes, after an earliest-fit search that found a start: the nodes
 * free throughout the chosen window (the allocator placed on these). */
static inline const tp_nodeset *tp_profile_window(const tp_profile *p)
{
	return &p->win;
}

/* Take `nodes` nodes (set mode: exactly the nodes of `where`) out of
 * [start, start + dur), splitting segments where needed.  The caller
 * checked that they are free (tp_profile_earliest); counts are not
 * clamped.  Returns 0, -1 on ENOMEM. */
int tp_profile_reserve(tp_profile *p, int64_t start, int64_t dur, int nodes,
		       const tp_nodeset *where);

/* How long from now at least `nodes` nodes stay free (INT64_MAX if for
 * ever): an upper bound on the duration of any job of that size that could
 * still start now.  Used to stop planning early. */
int64_t tp_profile_free_for(const tp_profile *p, int nodes);

#endif
