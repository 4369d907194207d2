/*
 * tpl_compat.h (Slurm 22.05) - the names of Slurm's types that changed
 * between releases, for the code shared by every release.  Its twin for
 * 24.11 is plugins/compat/24.11/tpl_compat.h; the build picks the one of
 * the release it builds for (-I plugins/compat/RELEASE).
 */
#ifndef TPL_COMPAT_H
#define TPL_COMPAT_H

#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

typedef struct job_details tpl_details_t;
typedef List tpl_list_t;
typedef ListIterator tpl_list_iter_t;

#endif
