/*
 * tpt_route.h - message fan-out along a fat tree for
 * TopologyParam=RouteTree (26.05's split_hostlist), as Slurm's
 * topology/tree does it: the nodes of a message under one leaf switch go
 * out by TreeWidth; otherwise the list splits at the lowest switch that
 * holds all of them, one sublist per child switch holding some (each
 * relayed by one of its nodes), and a sublist per node outside the tree.
 * The depth returned is the TreeWidth depth below the fullest leaf plus
 * the level of that switch.  Without a fat tree, TreeWidth alone.
 */
#ifndef TPT_ROUTE_H
#define TPT_ROUTE_H

#include "tpt_ops.h"

#include "src/common/hostlist.h"

int tpt_route_split(const tpt_state *s, hostlist_t *hl, hostlist_t ***sp_hl,
		    int *count, uint16_t tree_width);

#endif
