/*
 * spread.h - how spread out a placement is, for the simulator's
 * placement-dependent run-time model (rtmodel.h): a placement's
 * communication cost next to the least cost any placement of its size
 * can have on the same machine.  Pure measurements of node sets; no
 * allocator or policy calls them.
 *
 * Fat tree: the hop sum at node granularity, i.e. tp_fattree_hop_sum
 * with units of one node (ftconf hopsum --msu-size 1): the sum over
 * unordered pairs of distinct nodes of the routers a message between
 * them traverses (same leaf 1).  Counted per link: a pair crosses the
 * link above switch c when exactly one of its nodes is under c, so
 *     hop sum = C(k,2) + sum over switches c below the top of x_c (k - x_c)
 * with x_c the placement's nodes under c (k in all).  The unit-level hop
 * sum the allocators report is 0 for any job within one unit, which
 * leaves no ratio to take; the node-level one is C(k,2) there.
 *
 * Torus: the mean distance over pairs of the placement's nodes
 * (tp_torus_set_mean_distance, the torus allocators' cost).
 */
#ifndef TP_RT_SPREAD_H
#define TP_RT_SPREAD_H

#include "base/nodeset.h"
#include "topology/fattree.h"
#include "topology/torus.h"

/* Node-level hop sum of the tree's nodes in s (members beyond the tree's
 * nodes are not counted); 0 for fewer than two nodes. */
long long tp_spread_fattree_cost(const tp_fattree *t, const tp_nodeset *s);

/* The least node-level hop sum of any k nodes within one fabric: the
 * exact minimum, by dynamic programming over the tree (for each switch
 * the least sum of its subtree's link terms for every count under it).
 * -1 when no fabric has k nodes or out of memory; 0 for k < 2.
 * O(switches + nodes * k). */
long long tp_spread_fattree_best(const tp_fattree *t, int k);

/* The least torus cost of a placement of k nodes the torus allocators
 * can make on the idle torus: the mean diameter of the most compact box
 * of k nodes (every orientation), or, for a size no box has, the mean
 * distance of Shapeless=pack's placement on the idle torus (the lowest k
 * nodes of the smallest box holding k).  -1 when k exceeds the torus or
 * out of memory; 0 for k < 2. */
double tp_spread_torus_best(const tp_torus *t, int k);

#endif
