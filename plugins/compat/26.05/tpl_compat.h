/*
 * tpl_compat.h (Slurm 26.05) - the names of Slurm's types that changed
 * between releases, for the code shared by every release; see
 * plugins/compat/22.05/tpl_compat.h.
 */
#ifndef TPL_COMPAT_H
#define TPL_COMPAT_H

#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

typedef job_details_t tpl_details_t;
typedef list_t *tpl_list_t;
typedef list_itr_t *tpl_list_iter_t;

#endif
