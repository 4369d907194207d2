/*
 * tpl_compat_2411.h (Slurm 24.11) - the names of Slurm's types that changed
 * between releases, and what the release's own plugins do that ours
 * follow, for the code shared by every release; see
 * plugins/compat/tpl_compat_2205.h.
 */
#ifndef TPL_COMPAT_2411_H
#define TPL_COMPAT_2411_H

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/slurmctld/slurmctld.h"

#include "alloc/outside.h"

typedef job_details_t tpl_details_t;
typedef list_t *tpl_list_t;
typedef list_itr_t *tpl_list_iter_t;

/* Which jobs may use slurm.conf's nodes that the topology file lacks
 * (alloc/outside.h): none, as 24.11's topology/tree places every job
 * below one of its switches (_eval_nodes_topo). */
#define TPL_OUTSIDE_RULE TP_OUTSIDE_NEVER
#define tpl_warning(fmt, ...) warning(fmt, ##__VA_ARGS__)

#endif
