/*
 * res.h - resources inside nodes: CPUs, memory and GPUs, as select/
 * cons_tres counts them.
 *
 * Without it a job holds whole nodes (the whole-node model every replay
 * of a trace uses).  With it (tp_cluster.res) each node has its CPUs,
 * memory and GPUs, and a job asks an amount of each per node
 * (tp_res_ask): a node can host the job while the amounts it has free
 * cover the ask, so several jobs run side by side on a node.  A job that
 * asks whole nodes (OverSubscribe=EXCLUSIVE, --exclusive, a whole-node
 * trace) only goes on a node that nothing runs on, and nothing joins it
 * there.  A node is free for whole-node purposes (tp_cluster.free) only
 * while nothing runs on it.
 *
 * The set of nodes that can host a job now (tp_res_hosts) is what the
 * topology allocators choose from, as they choose from the free nodes in
 * the whole-node model: nothing in an allocator knows about CPUs.
 *
 * What a least-loaded placement needs is here too: each node's CPUs,
 * CPUs allocated and memory free (tp_res_cpus, tp_res_cpus_used,
 * tp_res_mem_free).
 */
#ifndef TP_RES_H
#define TP_RES_H

#include <stdbool.h>
#include <stdint.h>

#include "base/nodeset.h"

/* One node's resources (its size, or amounts allocated on it). */
typedef struct tp_res_node {
	int32_t cpus;
	int32_t gpus;
	int64_t mem;      /* MB */
} tp_res_node;

/* What a job asks of each of its nodes. */
typedef struct tp_res_ask {
	int32_t cpus;     /* >= 1 */
	int32_t gpus;
	int64_t mem;      /* MB, 0: none */
	bool whole;       /* the nodes whole: alone on each, all of it */
} tp_res_ask;

typedef struct tp_res {
	int nnodes;
	tp_res_node *total;  /* [nnodes] each node's size */
	tp_res_node *used;   /* [nnodes] allocated */
	int32_t *jobs;       /* [nnodes] jobs on the node */
	int32_t max_cpus;    /* the largest node's CPUs */
	/* [max_cpus + 1]: nodes with that many CPUs free, so that a job
	 * no node could host is refused without looking at the nodes. */
	int32_t *by_free;
	int nidle;           /* nodes nothing runs on */
	uint64_t serial;     /* changes with every take and give (caches) */
} tp_res;

/* Nodes of the sizes `total` (copied), nothing allocated.  0, -1 on
 * ENOMEM or a node without a CPU. */
int  tp_res_init(tp_res *r, int nnodes, const tp_res_node *total);
void tp_res_fini(tp_res *r);
/* dst (initialised from the same sizes) = src's allocations: a
 * projection to take and give on without touching src. */
void tp_res_copy(tp_res *dst, const tp_res *src);

/* The amounts `ask` holds on node x: all of it for a whole-node ask. */
static inline tp_res_node tp_res_amount(const tp_res *r, int x,
					const tp_res_ask *ask)
{
	if (ask->whole)
		return r->total[x];
	return (tp_res_node){ ask->cpus, ask->gpus, ask->mem };
}

/* Can node x host `ask` now? */
static inline bool tp_res_fits(const tp_res *r, int x, const tp_res_ask *ask)
{
	if (ask->whole)
		return r->jobs[x] == 0;
	const tp_res_node *t = &r->total[x], *u = &r->used[x];
	return t->cpus - u->cpus >= ask->cpus &&
	       t->mem - u->mem >= ask->mem &&
	       t->gpus - u->gpus >= ask->gpus;
}

/* At most how many nodes could host `ask` (CPUs counted only): a job
 * that needs more is refused without a scan. */
int tp_res_may_host(const tp_res *r, const tp_res_ask *ask);

/* out = the members of `within` (NULL: every node) that can host `ask`
 * now; returns how many. */
int tp_res_hosts(const tp_res *r, const tp_res_ask *ask,
		 const tp_nodeset *within, tp_nodeset *out);

/* A job of `ask` starts on / leaves `nodes`.  tp_res_take does not
 * check that they can host it (tp_res_fits). */
void tp_res_take(tp_res *r, const tp_nodeset *nodes, const tp_res_ask *ask);
void tp_res_give(tp_res *r, const tp_nodeset *nodes, const tp_res_ask *ask);

/* The first node allocated past its size, or whole-held with another
 * job beside it; -1 if none (the simulator's invariant checks). */
int tp_res_overdrawn(const tp_res *r);

static inline bool tp_res_idle(const tp_res *r, int x)
{
	return r->jobs[x] == 0;
}
static inline int32_t tp_res_cpus(const tp_res *r, int x)
{
	return r->total[x].cpus;
}
static inline int32_t tp_res_cpus_used(const tp_res *r, int x)
{
	return r->used[x].cpus;
}
static inline int64_t tp_res_mem_free(const tp_res *r, int x)
{
	return r->total[x].mem - r->used[x].mem;
}

#endif
