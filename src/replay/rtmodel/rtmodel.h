/*
 * rtmodel.h - the simulator's placement-dependent run-time model
 * (toposim --runtime-model; toposim(1), doc/runtime-model.md).
 *
 * Off (the default), a job runs its trace run time wherever it is
 * placed.  Model "spread" with communication share s (0 <= s <= 1): a
 * run placed on nodes P of a job of k = |P| nodes lasts
 *
 *     run = trace_run * (1 + s * (spread - 1)),
 *     spread = cost(P) / best(k)  (>= 1; 1 for k < 2),
 *
 * rounded to the nearest second: the share s of the run that is
 * communication slows down in proportion to the placement's cost, the
 * rest does not.  cost and best are those of topology/spread.h: the node-level hop
 * sum on a fat tree, the mean pair distance on a torus; best(k) is the
 * least cost any placement of k nodes can have on the machine, so the
 * most compact placement runs its trace time.  A placement cheaper than
 * best (a torus shape that is no box) counts as spread 1.
 *
 * The model changes only the simulated run time: allocators and
 * policies decide as without it (they see estimates, never run times),
 * and a run that the dilation takes past its limit is ended there, as
 * Slurm ends it.  It lives in the replay library, never in libtopo's
 * decisions.
 */
#ifndef TP_RTMODEL_H
#define TP_RTMODEL_H

#include <stdint.h>

#include "base/error.h"
#include "base/nodeset.h"
#include "topology/fattree.h"
#include "topology/spread.h"
#include "topology/torus.h"

/* The communication share "spread" takes when none is given: an
 * assumption, not a measurement (doc/runtime-model.md). */
#define TP_RTMODEL_DEFAULT_SHARE 0.3

typedef struct tp_rtmodel {
	double share;              /* s, in [0, 1] */
	tp_spread spread;          /* the measure (topology/spread.h) */
} tp_rtmodel;

/* Parse --runtime-model's value: "none" (*on = 0) or "spread[:SHARE]"
 * (*on = 1, *share SHARE or the default).  0, or -1 with a reason in
 * why. */
int tp_rtmodel_parse(const char *spec, int *on, double *share, char *why,
		     size_t len);

/* A model over a fat tree or a torus (exactly one non-NULL).  0, or -1
 * with err. */
int tp_rtmodel_init(tp_rtmodel *m, const tp_fattree *tree,
		    const tp_torus *torus, double share, tp_error *err);
void tp_rtmodel_fini(tp_rtmodel *m);

/* spread of a placement (its members beyond the topology's nodes are
 * not counted): >= 1; 1 for fewer than two nodes or when out of
 * memory. */
double tp_rtmodel_spread(tp_rtmodel *m, const tp_nodeset *nodes);

/* trace_run * (1 + share * (spread - 1)), rounded to the nearest second;
 * exactly trace_run at spread 1. */
int64_t tp_rtmodel_dilate(int64_t trace_run, double share, double spread);

#endif
