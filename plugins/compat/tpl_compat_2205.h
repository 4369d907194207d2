/*
 * tpl_compat_2205.h (Slurm 22.05) - the names of Slurm's types that
 * changed between releases, and what the release's own plugins do that
 * ours follow, for the code shared by every release.  Its twin for 24.11
 * is plugins/compat/tpl_compat_2411.h; plugins/compat/tpl_compat.h
 * includes the one of the release it is compiled for.
 */
#ifndef TPL_COMPAT_2205_H
#define TPL_COMPAT_2205_H

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/slurmctld/slurmctld.h"

#include "alloc/outside.h"

typedef struct job_details tpl_details_t;
typedef List tpl_list_t;
typedef ListIterator tpl_list_iter_t;

/* Which jobs may use slurm.conf's nodes that the topology file lacks
 * (alloc/outside.h): none, as select/linear with topology/tree places
 * every job below a switch (_job_test_topo), also when our select plugin
 * hands it a job; 22.05 has no one-node shortcut. */
#define TPL_OUTSIDE_RULE TP_OUTSIDE_NEVER
/* 22.05's log has no warning(): its topology/tree writes "WARNING: " with
 * error(), and so do we. */
#define tpl_warning(fmt, ...) error("WARNING: " fmt, ##__VA_ARGS__)

#endif
