/*
 * tpl_compat_2605.h (Slurm 26.05) - the names of Slurm's types that changed
 * between releases, and what the release's own plugins do that ours
 * follow, for the code shared by every release; see
 * plugins/compat/tpl_compat_2205.h.
 */
#ifndef TPL_COMPAT_2605_H
#define TPL_COMPAT_2605_H

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/slurmctld/slurmctld.h"

#include "alloc/outside.h"

typedef job_details_t tpl_details_t;
typedef list_t *tpl_list_t;
typedef list_itr_t *tpl_list_iter_t;

/* Which jobs may use slurm.conf's nodes that the topology file lacks
 * (alloc/outside.h): a job of one node, as 26.05's topology/tree lets
 * cons_tres place such a job on any node (topology_p_allow_one_node). */
#define TPL_OUTSIDE_RULE TP_OUTSIDE_ONE_NODE
#define tpl_warning(fmt, ...) warning(fmt, ##__VA_ARGS__)

#endif
