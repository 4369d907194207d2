/*
 * alloc_memo.h - remember which job sizes an allocator could not place on
 * recent free sets, and its recent answers.
 *
 * Allocators are pure functions of (free set, size) (alloc.h), and a pass
 * asks again and again with the same free set: every waiting job that
 * does not fit is retried, and sizes repeat.  For topology allocators a
 * failed placement is the expensive case (every shape, every offset), so
 * answering repeats from memory saves most of a torus pass without
 * changing any decision.  Failures are kept per size on the last few free
 * sets (a pass alternates between the free set and projected ones), and
 * for a monotone allocator (TP_ALLOC_MONOTONE) a failure on a set answers
 * for every subset of it too: a backfill pass only takes nodes away from
 * the free set, so what did not fit before the last start still does not.
 * Placements, and the whole answers to requests with a node cap of their
 * own or for boxes only (every question slurmctld asks), are kept on the
 * last few free sets (memo_answers.h).  Flat allocators decide failure
 * by counting and gain nothing.
 */
#ifndef TP_ALLOC_MEMO_H
#define TP_ALLOC_MEMO_H

#include <stdint.h>

#include "alloc/alloc.h"

/* Wrap `inner`, which the wrapper takes over (destroyed with it, or at
 * once on failure).  The wrapper has inner's name, flags, capacity and
 * cost.  NULL on ENOMEM. */
tp_alloc *tp_alloc_memo_wrap(tp_alloc *inner);

/* Placement calls seen and answered from memory (a from the wrapper). */
void tp_alloc_memo_stats(const tp_alloc *a, uint64_t *asked,
			 uint64_t *answered);

#endif
