/*
 * completion.h - the completion-aware choice: start a job now on the
 * placement its allocator gives it, or wait for a more compact one, by
 * which the running jobs' limits say ends first.
 *
 * A site that attributes a share s of its jobs' run time to communication
 * expects a job of time limit E placed with spread p (topology/spread.h)
 * to run E (1 + s (p - 1)).  Started at time t on the allocator's
 * placement on the nodes free then, it ends at
 *
 *     end(t) = t + E (1 + s (p_t - 1)).
 *
 * The candidate starts are now and each release time (running jobs'
 * limits), with the nodes released by then added to those free now, as
 * tp_place_earliest() projects them; the least end wins, ties to the
 * earlier start.  No start later than the best end less E can end sooner,
 * so the scan stops there: it looks only as far ahead as the spread of
 * the best start so far could cost.  s = 0, or an allocator without a
 * spread (flat), is the earliest fit: a job never waits for compactness.
 * Every policy asks through tp_place_choose() (policy/first_fit.h) and
 * EASY's reservation through the shadow (policy/shadow.h), so a start and
 * a reservation are decided alike.
 */
#ifndef TP_COMPLETION_H
#define TP_COMPLETION_H

#include <stddef.h>
#include <stdint.h>

#include "alloc/place.h"

/* As tp_place_earliest() (place.h), choosing the start by its expected
 * end for a job of time limit `est` > 0 under share s in (0, 1]: the node
 * count placed, *when (now or a release time), `out` and `avail` (the
 * nodes free at *when) of the chosen start; -1 when nothing ever fits
 * (*when = INT64_MAX), -2 on ENOMEM. */
int tp_place_completion(tp_alloc *a, double share, int64_t est, int64_t now,
			const tp_nodeset *free_now, const tp_release *rel,
			size_t nrel, const tp_nodeset *hold, int lo, int hi,
			const tp_alloc_req *proto, tp_nodeset *avail,
			tp_nodeset *out, int64_t *when);

/* The expected end of a start at t with spread p (see above). */
double tp_completion_end(int64_t t, int64_t est, double share, double p);

#endif
