/*
 * topology.h - the simulator's machine: flat, a fat tree (--topology, Slurm
 * topology.conf) or a torus (--torus, torus.conf).  Trace node i is the
 * topology's node index i.
 */
#ifndef TP_SIM_TOPOLOGY_H
#define TP_SIM_TOPOLOGY_H

#include "alloc/alloc.h"
#include "model/error.h"

typedef struct sim_topology {
	struct tp_fattree *fattree;
	struct tp_torus *torus;
	int nnodes;        /* 0 when flat (the trace decides) */
	char default_alloc[32];
} sim_topology;

/* Load whichever file is given (both NULL: flat).  With a topology,
 * *nodes (from --nodes, 0 if not given) must be 0 or match it, and is set
 * to the topology's node count. */
int sim_topology_load(sim_topology *t, const char *fattree_path,
		      const char *torus_path, int *nodes, tp_error *err);
const char *sim_topology_default_alloc(const sim_topology *t);
tp_alloc *sim_topology_alloc(const sim_topology *t, const char *name,
			     int nnodes, tp_error *err);
/* Name of node i ("n12"), or NULL when the machine is flat. */
const char *sim_topology_node_name(const sim_topology *t, int i);
void sim_topology_fini(sim_topology *t);

#endif
