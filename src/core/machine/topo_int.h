/*
 * topo_int.h - what topo.c and topo_outside.c share, and no one else:
 * the machine loader's own helpers.
 */
#ifndef TP_TOPO_INT_H
#define TP_TOPO_INT_H

#include "machine/topo.h"

/* (Re)build a fat tree's node groups over t->nnodes nodes: inner->groups
 * sees the leaf switches, t->alloc->groups and t->groups every node
 * (outside nodes one group more).  0, or -1 with err on ENOMEM. */
int tp_topo_leaf_groups(tp_topo *t, tp_alloc *inner, tp_error *err);

/* Index of outside node `name`, or -1. */
int tp_topo_outside_index(const tp_topo *t, const char *name);

#endif
