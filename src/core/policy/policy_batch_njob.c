/*
 * policy_batch_njob.c - the fat-tree patent's batch scheduling
 * (doc/methods.md A).
 *
 * One batch:
 *  1. take the first Njob queued jobs (Njob = opts.njob); Pjob = their
 *     total node count;
 *  2. Nnode = tp_alloc_capacity(free) (Nunit x free MSUs on a fat tree,
 *     free nodes on a flat machine); if Pjob <= Nnode go on; else if
 *     Njob = 1 stop; else Njob -= 1 and back to 1;
 *  3. sort the batch by node count, largest first (stable: queue order
 *     among equals), and allocate each job in turn with the allocator.
 *
 * [reading] The patent describes one batch per trigger.  Here a pass goes
 * on with the next batch (Njob reset to opts.njob) until a batch of one
 * does not fit: with a single batch a pass could start at most Njob jobs
 * however many nodes are free, and the machine would idle until the next
 * arrival or end.  Capacity is recounted before each batch.
 *
 * [reading] If an allocation inside a batch fails (possible with
 * topology: capacity counts whole units, a job may need a particular
 * shape), that job stays queued in its place, the jobs of the batch not
 * yet allocated stay too, and the pass stops.
 *
 * With resources inside nodes (tp_cluster.res) Nnode counts the nodes
 * with a CPU free, and each job is placed on the nodes that can host it.
 *
 * The batch is always the head of the queue and nothing is started around
 * a waiting job, so every start is in order: fill_for = TP_NOT_FILL.
 */
#include <stdlib.h>

#include "policy/first_fit.h"
#include "policy/policy.h"

/* Step 1-2: the largest m <= njob such that the first m queued jobs fit in
 * `capacity` nodes by count; 0 when not even the head does. */
static size_t batch_size(const tp_cluster *c, int njob, long capacity)
{
	size_t m = (size_t)njob < c->nqueue ? (size_t)njob : c->nqueue;
	long pjob = 0;
	for (size_t i = 0; i < m; i++)
		pjob += c->queue[i]->nodes;
	while (m > 0 && pjob > capacity)
		pjob -= c->queue[--m]->nodes;
	return m;
}

/* Step 3 order: indices 0..m-1 by node count, largest first, stable
 * (insertion sort: a batch is a handful of jobs). */
static void sort_batch(const tp_cluster *c, size_t *ord, size_t m)
{
	for (size_t i = 0; i < m; i++) {
		size_t k = i;
		int n = c->queue[i]->nodes;
		while (k > 0 && c->queue[ord[k - 1]]->nodes < n) {
			ord[k] = ord[k - 1];
			k--;
		}
		ord[k] = i;
	}
}

/* Queue index of original batch entry `orig` after the batch entries in
 * started[] (flags) have left the queue. */
static size_t current_index(const char *started, size_t orig)
{
	size_t qi = orig;
	for (size_t i = 0; i < orig; i++)
		qi -= started[i] != 0;
	return qi;
}

/* Allocate batch entries 0..m-1 in step-3 order.  Returns 0 if all
 * started, -1 if one could not be placed (or ENOMEM). */
static int run_batch(tp_cluster *c, size_t m, size_t *ord, char *started,
		     tp_nodeset *where)
{
	sort_batch(c, ord, m);
	for (size_t i = 0; i < m; i++)
		started[i] = 0;
	for (size_t k = 0; k < m; k++) {
		size_t qi = current_index(started, ord[k]);
		if (!(c->res ? tp_place(c, c->queue[qi], where) :
		      tp_job_fits(c->alloc, &c->free, c->queue[qi], where)) ||
		    tp_cluster_start(c, qi, where, TP_NOT_FILL))
			return -1;
		started[ord[k]] = 1;
	}
	return 0;
}

static void batch_njob_pass(tp_policy *p, tp_cluster *c)
{
	c->resv_job = NULL;
	c->resv_time = 0;
	size_t njob = (size_t)p->opts.njob;
	size_t *ord = malloc(njob * sizeof(*ord));
	char *started = malloc(njob);
	tp_nodeset where = {0};
	if (ord && started && tp_nodeset_init(&where, c->nnodes) == 0) {
		for (;;) {
			long cap = tp_alloc_capacity(c->alloc, &c->free);
			/* Nodes shared by jobs: every node with a CPU free. */
			if (c->res)
				cap = tp_res_may_host(c->res,
					&(tp_res_ask){ .cpus = 1 });
			size_t m = batch_size(c, p->opts.njob, cap);
			if (m == 0 || run_batch(c, m, ord, started, &where))
				break;
		}
	}
	tp_nodeset_fini(&where);
	free(started);
	free(ord);
}

const tp_policy_ops tp_policy_batch_njob = {
	.name = "batch-njob",
	.summary = "fat-tree patent batches: the first Njob jobs if they fit "
		   "by capacity, largest first",
	.pass = batch_njob_pass,
	.at_limit = NULL,
};
