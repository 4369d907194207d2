/*
 * tps_jobtest.h - select_p_job_test of a topology select plugin: a core
 * allocator chooses the nodes, select/linear is handed exactly those and
 * does the bookkeeping.  The rules in prose: select_fattree(5),
 * select_torus(5).
 *
 * The three modes slurmctld uses, and what the allocator answers:
 *   RUN_NOW    place on the candidate nodes that are free now;
 *   TEST_ONLY  place on all candidate nodes (could it ever run?);
 *   WILL_RUN   place on the free candidates, else after the running jobs
 *              holding candidates end (in order of their end times), so
 *              sched/backfill plans the job on the allocator's choice.
 * A placement of k nodes becomes the only candidates select/linear sees,
 * with k as the job's node count (an allocator may give more nodes than
 * asked, e.g. a torus box with transit nodes: the job gets all of them).
 */
#ifndef TPS_JOBTEST_H
#define TPS_JOBTEST_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

#include "alloc/alloc.h"
#include "base/nodeset.h"
#include "machine/describe.h"
#include "tps_linear.h"
#include "tpl_nodemap.h"


/* Everything job_test needs; owned by the plugin. */
typedef struct tps_ctx {
	const char *plugin_type;  /* log tag, "select/NAME" */
	const char *kind;         /* "tree", "torus": "the tree allocator" */
	tp_alloc *alloc;          /* the core allocator deciding placements */
	const char *alloc_name;   /* for logs */
	const void *topo;         /* handed to describe */
	tp_describe_fn describe;
	tpl_nodemap *map;         /* Slurm <-> topology indices */
	tps_linear *linear;       /* the delegate */
	List *job_list;           /* slurmctld's job_list (dlsym), or NULL */
	/*
	 * false: when the allocator cannot place a job even on every node it
	 * may use, when preemption candidates exist without a free placement,
	 * or when select/linear refuses a placement, select/linear chooses
	 * the nodes itself (no job starves for lack of a topology answer).
	 * true: a job the allocator decides only ever gets an allocator
	 * placement; otherwise it waits (RUN_NOW, WILL_RUN) or is refused
	 * (TEST_ONLY on all its nodes: slurmctld rejects it at submission).
	 * For topologies whose placements are a hard constraint (torus boxes).
	 */
	bool strict;
	/* Optional: after select/linear chose nodes itself with success
	 * (e.g. to log whether they still form a box).  NULL: nothing. */
	void (*linear_chose)(const struct tps_ctx *c, job_record_t *job_ptr,
			     uint16_t mode, bitstr_t *bitmap);
} tps_ctx;

int tps_job_test(tps_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
		 uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes,
		 uint16_t mode, List preemptee_candidates,
		 List *preemptee_job_list, bitstr_t *exc_core_bitmap);

/* "RUN_NOW", "TEST_ONLY", "WILL_RUN" or "other" (for logs). */
const char *tps_mode_name(uint16_t mode);

#endif
