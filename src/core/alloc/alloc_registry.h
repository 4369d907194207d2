/*
 * alloc_registry.h - every allocator the core knows, by name.
 * An allocator module adds its entry declaration here and its line to
 * alloc_registry.c; nothing else needs to change to make it available to
 * the simulator and the plugins.
 */
#ifndef TP_ALLOC_REGISTRY_H
#define TP_ALLOC_REGISTRY_H

#include "alloc/alloc.h"

extern const tp_alloc_entry tp_alloc_entry_first_free;
extern const tp_alloc_entry tp_alloc_entry_cons_tres;
extern const tp_alloc_entry tp_alloc_entry_fattree_nodes, tp_alloc_entry_fattree, tp_alloc_entry_tree_greedy,
	tp_alloc_entry_tree_slurm, tp_alloc_entry_tree_slurm_2605;
extern const tp_alloc_entry tp_alloc_entry_torus_base;
extern const tp_alloc_entry tp_alloc_entry_torus_fs;
extern const tp_alloc_entry tp_alloc_entry_torus_mss;
extern const tp_alloc_entry tp_alloc_entry_torus_anchor;
extern const tp_alloc_entry tp_alloc_entry_torus_compact;

extern const tp_alloc_entry *const tp_alloc_registry[];

#endif
