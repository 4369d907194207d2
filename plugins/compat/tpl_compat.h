/*
 * tpl_compat.h - the names that differ between Slurm releases, for the
 * code shared by every release: includes tpl_compat_RRMM.h of the release
 * whose headers it is compiled with (configure checked that they are the
 * release --with-slurm-version names).
 */
#ifndef TPL_COMPAT_H
#define TPL_COMPAT_H

#include "slurm/slurm_version.h"

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#include "tpl_compat_2605.h"
#elif SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#include "tpl_compat_2411.h"
#elif SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(22, 5, 0)
#include "tpl_compat_2205.h"
#else
#error "Slurm before 22.05: no plugins/compat/tpl_compat_RRMM.h for it"
#endif

#endif
