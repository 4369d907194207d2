/*
 * alloc_fattree.h - what the "fattree" allocator offers beyond alloc.h,
 * for its tests: answering without the state it carries between
 * questions (whole answers on the last free sets, DP tables per switch),
 * so that both can be compared answer for answer.
 */
#ifndef TP_ALLOC_FATTREE_H
#define TP_ALLOC_FATTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/alloc.h"

/* On (the default): carry answers and DP tables between questions; off:
 * build every answer from the free set alone.  `a` must be a "fattree"
 * allocator as tp_alloc_create() returned it (not wrapped). */
void tp_fattree_alloc_carry(tp_alloc *a, bool on);
/* Switch tables rebuilt and kept by the carried DP so far. */
void tp_fattree_alloc_stats(const tp_alloc *a, uint64_t *built,
			    uint64_t *reused);
/* The root's merges made on part of their table (its band) so far. */
uint64_t tp_fattree_alloc_banded(const tp_alloc *a);

#endif
