/*
 * admit.h - admission: could a job ever run on these nodes?
 *
 * A job that no placement can hold (a size no box of the torus has, more
 * nodes than it may use, constraints no allocator meets) would block
 * every job behind it for ever.  Each driver asks here and acts in its
 * world: the simulator rejects the job at arrival; sched/topo leaves it
 * out of its queue with a reason and asks again every cycle; the
 * select/topology plugins hand it to Slurm's own node selection.  A
 * --switches limit counts only when it is for ever (the simulator's
 * Switches=N without a wait): a limit with a wait is a wait, not a
 * refusal, and its caller passes max_groups 0.
 */
#ifndef TP_ADMIT_H
#define TP_ADMIT_H

#include <stdbool.h>

#include "alloc/alloc.h"
#include "alloc/placeable.h"
#include "base/nodeset.h"
#include "model/job.h"
#include "model/res.h"

/*
 * Could `job` ever be placed on `all` (every node it could use, busy or
 * not)?  A job without node constraints or a node range is answered per
 * size and remembered in p (one `all` and one allocator between two
 * tp_placeable_forget); any other is asked on its own.
 */
bool tp_driver_admit(tp_placeable *p, tp_alloc *a, const tp_nodeset *all,
		     const tp_job *job);

/*
 * With resources inside nodes: could `job` ever be placed on the nodes
 * of `all` whose size can host its ask (`idle`: the machine with nothing
 * allocated)?  A job of whole nodes is asked as tp_driver_admit() asks.
 * hosts: a set of the allocator's size.
 */
bool tp_driver_admit_res(tp_placeable *p, tp_alloc *a, const tp_res *idle,
			 const tp_nodeset *all, const tp_job *job,
			 tp_nodeset *hosts);

/*
 * The same for a request of lo..hi nodes (hi = lo: exact) shaped like
 * `req` (its max_groups is ignored), on `ever`; `scratch` is a set of
 * the allocator's size.
 */
bool tp_driver_admit_range(tp_alloc *a, const tp_nodeset *ever, int lo,
			   int hi, const tp_alloc_req *req,
			   tp_nodeset *scratch);

#endif
