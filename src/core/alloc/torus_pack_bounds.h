/*
 * torus_pack_bounds.h - bounds on the free nodes of each box shape,
 * carried by a torus allocator from one Shapeless=pack search to the next.
 *
 * A packed search (alloc_torus.c) asks, shape after shape, whether some
 * placement of the shape holds `nodes` free nodes; most shapes of a
 * fragmented machine hold fewer, and proving it (a projection bound, or
 * the shape's free counts at every corner) is the search's whole cost.
 * What it learns is a number per shape: the most free nodes any placement
 * holds.  On a subset of the free set that number can only fall, and on a
 * set with `a` nodes more it rises by `a` at most.  slurmctld's calls go
 * from one free set to the next by a job's nodes (taken at a start,
 * given back at an end), so the numbers of earlier searches, of any job
 * size, stay upper bounds: a shape whose bound is below the job's size is
 * skipped without looking at the torus.  Skipping a shape that cannot
 * hold the job changes no answer: the search still takes the first shape
 * (and corner) that does.
 *
 * A table holds one number per shape (every shape of the torus: a
 * mixed-radix index over its lengths, N entries), valid for the set given
 * to tp_pack_bounds_begin() with it.  That set moves with every search:
 * to a subset, the numbers stand; to a set with nodes the last one lacked,
 * every number grows by their count (O(N) once).  TP_PACK_LANES tables
 * follow different sets (the free nodes, and every node: slurmctld asks
 * about both in turn); a set far from all of them (more than an eighth of
 * the machine added) takes over the least recently used one, forgotten.
 */
#ifndef TP_TORUS_PACK_BOUNDS_H
#define TP_TORUS_PACK_BOUNDS_H

#include <stdbool.h>

#include "base/nodeset.h"
#include "topology/torus.h"

#define TP_PACK_LANES 2

typedef struct tp_pack_bounds tp_pack_bounds;

/* NULL on ENOMEM (the searches then carry nothing). */
tp_pack_bounds *tp_pack_bounds_new(const tp_torus *t);
void tp_pack_bounds_free(tp_pack_bounds *b);
/* The numbers are to hold on `free` from now on (the set a search is
 * about to run on).  b may be NULL (nothing carried) here and below. */
void tp_pack_bounds_begin(tp_pack_bounds *b, const tp_nodeset *free);
/* Is it known that no placement of shape len holds `nodes` free nodes? */
bool tp_pack_bounds_below(const tp_pack_bounds *b, const int *len, int nodes);
/* No placement of shape len holds more than `most` free nodes on the
 * set of the last begin (a projection bound, or the exact count). */
void tp_pack_bounds_note(tp_pack_bounds *b, const int *len, int most);

#endif
