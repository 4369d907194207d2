/* alloc_registry.c - the table behind tp_alloc_create(); see alloc_registry.h. */
#include "alloc/alloc_registry.h"

#include <stddef.h>

const tp_alloc_entry *const tp_alloc_registry[] = {
	&tp_alloc_entry_first_free,
	&tp_alloc_entry_cons_tres,
	&tp_alloc_entry_fattree_nodes, &tp_alloc_entry_fattree, &tp_alloc_entry_tree_greedy,
	&tp_alloc_entry_tree_slurm, &tp_alloc_entry_tree_slurm_2605,
	&tp_alloc_entry_torus_base,
	&tp_alloc_entry_torus_fs,
	&tp_alloc_entry_torus_mss,
	&tp_alloc_entry_torus_anchor,
	&tp_alloc_entry_torus_compact,
	NULL,
};
