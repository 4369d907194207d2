/*
 * least_loaded.h - task placement on heterogeneous nodes by the lowest CPU
 * utilisation (patent CN105159769, claims 2-3 and 10).
 *
 * Nodes announce cores and memory and have a speed factor (work per
 * second relative to a speed-1 node).  A task needs a number of cores
 * (usually 1) and an amount of memory, in the unit the nodes announce.
 * tp_ll_pick() is the one placement decision: among the up nodes with
 * enough free memory and enough free cores, not in an exclusion list
 * (the nodes already holding a copy of the same task: replicas never
 * share a node), the one whose used/announced cores is lowest; ties go
 * to the lower node index.  Utilisations are compared exactly (cross
 * products of integers), so equal loads really tie.
 *
 * Memory is compared exactly too: give it in whole units (MiB in the
 * simulator's files) so sums of takes and releases stay exact.
 *
 * The delay queues, FIFO order and replicas' outcomes are the
 * simulator's (tasks/tasksim.h); this file only knows resources.  Loads
 * compare by the core's tp_load_less (alloc/least_loaded.h), the rule of
 * the least-loaded policy sched/topo and toposim run on Slurm's nodes.
 */
#ifndef TP_LEAST_LOADED_H
#define TP_LEAST_LOADED_H

#include <stdbool.h>

typedef struct tp_ll_nodes {
	int n;
	int *cores;        /* announced */
	double *mem;       /* announced */
	double *speed;     /* > 0 */
	int *used_cores;
	double *used_mem;
	bool *up;          /* false: failed, never picked */
} tp_ll_nodes;

/* A placement rule: node index or -1; tp_ll_pick or tp_ll_pick_first. */
typedef int (*tp_ll_pick_fn)(const tp_ll_nodes *n, int cores, double mem,
			     const int *exclude, int nexclude);

/* count nodes, all up, speed 1, nothing announced or used; 0 or -1
 * (ENOMEM, count < 0). */
int tp_ll_init(tp_ll_nodes *n, int count);
void tp_ll_fini(tp_ll_nodes *n);

/* Could node k take a task of (cores, mem) now? (up, free cores, free
 * memory; exclusion is the caller's.) */
bool tp_ll_fits(const tp_ll_nodes *n, int k, int cores, double mem);

/* The least-loaded node for a task of (cores, mem), skipping the nodes
 * in exclude[0..nexclude) (NULL when 0); -1 when none fits. */
int tp_ll_pick(const tp_ll_nodes *n, int cores, double mem,
	       const int *exclude, int nexclude);

/* The baseline: the first node in index order that fits. */
int tp_ll_pick_first(const tp_ll_nodes *n, int cores, double mem,
		     const int *exclude, int nexclude);

/* Book a task on node k / give its resources back. */
void tp_ll_take(tp_ll_nodes *n, int k, int cores, double mem);
void tp_ll_release(tp_ll_nodes *n, int k, int cores, double mem);

static inline int tp_ll_free_cores(const tp_ll_nodes *n, int k)
{
	return n->cores[k] - n->used_cores[k];
}

static inline double tp_ll_free_mem(const tp_ll_nodes *n, int k)
{
	return n->mem[k] - n->used_mem[k];
}

#endif
