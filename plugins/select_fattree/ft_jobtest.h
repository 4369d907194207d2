/*
 * ft_jobtest.h - select_p_job_test of select/fattree: the core allocator
 * chooses the nodes, select/linear is handed exactly those and does the
 * bookkeeping.  See select_fattree(5) for the rules in prose.
 */
#ifndef FT_JOBTEST_H
#define FT_JOBTEST_H

#include "config.h"

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

#include "ft_state.h"
#include "tpl_linear.h"
#include "tpl_nodemap.h"

/* Everything job_test needs; owned by select_fattree.c. */
typedef struct ft_ctx {
	ft_state *st;          /* settings, tree, allocator */
	tpl_nodemap *map;      /* Slurm <-> tree indices */
	tpl_linear *linear;    /* the delegate */
	List *job_list;        /* slurmctld's job_list (dlsym), or NULL */
} ft_ctx;

int ft_job_test(ft_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
		uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes,
		uint16_t mode, List preemptee_candidates,
		List *preemptee_job_list, bitstr_t *exc_core_bitmap);

#endif
