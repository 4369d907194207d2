/*
 * tps_linear.h - Slurm's select/linear as the bookkeeping delegate.
 *
 * A topology select plugin only decides WHICH nodes a job gets; everything
 * else a select plugin does (per-node usage records, node/job info packing
 * for clients, reservations, job expansion) is select/linear's, reached
 * through its own symbols in its own .so.  Whole nodes are linear's unit,
 * which is also the unit of the core allocators.
 */
#ifndef TPS_LINEAR_H
#define TPS_LINEAR_H

#include "config.h"

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/plugin.h"
#include "src/common/select.h"

typedef struct tps_linear {
	plugin_context_t *ctx;
	slurm_select_ops_t ops;
} tps_linear;

/* Load select/linear from PluginDir (its init() runs; loading it twice in
 * one process is harmless: dlopen returns the same object).  0 or -1. */
int tps_linear_load(tps_linear *l);
void tps_linear_unload(tps_linear *l);

#endif
