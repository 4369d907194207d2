/*
 * fattree_nodecost.h - the node-level hop sum of a fat-tree placement and
 * the least one any placement of its size can have.
 *
 * The hop sum at node granularity: over unordered pairs of distinct
 * nodes, the routers a message between them traverses (same leaf 1;
 * tp_fattree_hop_sum with units of one node, `ftconf hopsum --msu-size
 * 1`).  Counted per link: a pair crosses the link above switch c when
 * exactly one of its nodes is under c, so
 *     hop sum = C(k,2) + sum over switches c below the top of x_c (k - x_c)
 * with x_c the placement's nodes under c (k in all).  The unit-level hop
 * sum (tp_fattree_hop_sum) is 0 for any job within one unit; the node
 * level one is C(k,2) there.  A placement's spread is its cost over the
 * least: the runtime model's (doc/runtime-model.md) and the completion
 * -aware choice's (alloc/completion.h) measure.
 */
#ifndef TP_FATTREE_NODECOST_H
#define TP_FATTREE_NODECOST_H

#include "base/nodeset.h"
#include "topology/fattree.h"

/* Node-level hop sum of the tree's nodes in s (members beyond the tree's
 * nodes are not counted); 0 for fewer than two nodes, -1 on ENOMEM. */
long long tp_fattree_node_cost(const tp_fattree *t, const tp_nodeset *s);

/* The least node-level hop sum of any k nodes within one fabric: the
 * exact minimum, by dynamic programming over the tree (for each switch
 * the least sum of its subtree's link terms for every count under it).
 * -1 when no fabric has k nodes or out of memory; 0 for k < 2.
 * O(switches + nodes * k). */
long long tp_fattree_node_best(const tp_fattree *t, int k);

#endif
