/*
 * tree_fit.h - the two comparisons Slurm's topology/tree makes between
 * leaf switches while it picks them, the same in every release we model
 * (tree-greedy: 22.05, alloc_tree_greedy.c; tree-slurm: 24.05 on,
 * alloc_tree_slurm.c): which of two leaves fits the rest of a job better,
 * and each leaf's summed switch distance to the leaves picked so far.
 * What the releases do with the answers differs, and stays in each model.
 */
#ifndef TP_ALLOC_TREE_FIT_H
#define TP_ALLOC_TREE_FIT_H

#include <stdbool.h>

#include "topology/fattree.h"

/* 1 if leaf i fits `rem` more nodes better than leaf j, -1 if j does, 0 if
 * neither, with free counts cnt[switch].  The two climb in lockstep: if
 * both hold the rest, fewer free nodes wins (equal: undecided, stop); if
 * one does, it wins; if neither, go to both parents unless they are the
 * same switch; undecided at the end: more free nodes wins, then the lower
 * level.  *i_fit: whether i's side held the rest where it was decided. */
int tp_tree_compare_fit(const tp_fattree *t, const int *cnt, int i, int j,
			int rem, bool *i_fit);

/* dist[leaf] += switch distance from `picked` to it, for every leaf. */
void tp_tree_add_dist(const tp_fattree *t, long *dist, int picked);

#endif
