/*
 * ft_state.h - what select/fattree decides with: its settings, the tree
 * (Slurm's own topology.conf), the core allocator built on it, and the
 * Slurm <-> tree node map.  Loading is free of Slurm, so the unit tests
 * load real topology files the same way slurmctld does.
 */
#ifndef FT_STATE_H
#define FT_STATE_H

#include <stdbool.h>

#include "alloc/alloc.h"
#include "model/error.h"
#include "topology/fattree.h"
#include "ft_config.h"

typedef struct ft_state {
	ft_config cfg;
	tp_fattree *tree;
	tp_alloc *alloc;
} ft_state;

/*
 * Read `conf_path` (fattree.conf; optional), then the topology file it
 * names (default: topology.conf in `confdir`), apply the MSU options and
 * create the allocator.  Returns 0, or -1 with err naming file, line and
 * value; `s` is then empty.
 */
int ft_state_load(ft_state *s, const char *conf_path, const char *confdir,
		  tp_error *err);
void ft_state_fini(ft_state *s);

/* tpl_topo_index_fn over a tp_fattree (for tpl_nodemap_build). */
int ft_state_node_index(const void *tree, const char *name);

/* MSUs touched by `nodes` (for placement logs). */
int ft_state_units(const ft_state *s, const tp_nodeset *nodes);

#endif
