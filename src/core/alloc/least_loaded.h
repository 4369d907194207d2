/*
 * least_loaded.h - the placement of the heterogeneous-cluster patent
 * (CN105159769, claims 2-3 and 10; doc/heterogeneous.md): a task goes to
 * the node with the lowest CPU utilisation (CPUs allocated over CPUs)
 * among the nodes that can take it, equal utilisations to the lower
 * node index.  Utilisations are compared exactly (cross products of
 * integers), so equal loads really tie.
 *
 * tp_least_loaded_place is the decision toposim's and sched/topo's
 * least-loaded policy take (policy_least_loaded.c) on a cluster's
 * resources inside nodes (model/res.h); topotasks' task simulator
 * compares its nodes' loads with tp_load_less, the same rule.
 */
#ifndef TP_LEAST_LOADED_H_CORE
#define TP_LEAST_LOADED_H_CORE

#include <stdbool.h>
#include <stdint.h>

#include "base/nodeset.h"
#include "model/res.h"

/* Whether used_a/total_a < used_b/total_b, without rounding (totals
 * > 0). */
static inline bool tp_load_less(int64_t used_a, int64_t total_a,
				int64_t used_b, int64_t total_b)
{
	return used_a * total_b < used_b * total_a;
}

/* The k nodes of `hosts` (the nodes that can take the job's ask on each
 * of them, from tp_cluster_hosts) of the lowest utilisations under res
 * (ties: lower index) into out (initialised, of res's size); whole-node
 * clusters (res NULL) have every free node idle: the k lowest indices.
 * Returns k, or -1 when hosts has fewer than k nodes (or on ENOMEM). */
int tp_least_loaded_place(const tp_res *res, const tp_nodeset *hosts, int k,
			  tp_nodeset *out);

#endif
