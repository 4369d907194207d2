/*
 * policy_least_loaded.c - the heterogeneous-cluster patent's scheduling
 * (CN105159769; doc/heterogeneous.md): jobs in FIFO order (submission,
 * then id), each placed at once on the nodes of the lowest CPU
 * utilisation that can take its ask (alloc/least_loaded.h); a job that
 * finds too few waits in its place (the patent's delay queue) and is
 * served again at the next pass, whenever a node gives resources back,
 * the lower ids first.  Jobs behind it are not held back: no
 * reservation.
 *
 * The topology allocator is not asked: the method places by load, not
 * by distance.  With whole nodes every free node is idle, and the
 * method is first fit by node index.
 */
#include <stdlib.h>

#include "alloc/least_loaded.h"
#include "policy/first_fit.h"
#include "policy/policy.h"

/* FIFO: submission, then id. */
static int by_arrival(const void *a, const void *b)
{
	const tp_job *x = *(tp_job *const *)a, *y = *(tp_job *const *)b;
	if (x->submit != y->submit)
		return (x->submit > y->submit) - (x->submit < y->submit);
	return (x->id > y->id) - (x->id < y->id);
}

/* Where job goes now (into out), or false: the nodes that can take its
 * ask, within its allowed nodes, the least loaded first. */
static bool place(tp_cluster *c, const tp_job *job, tp_nodeset *hosts,
		  tp_nodeset *out)
{
	int n;
	if (job->required || job->contiguous) /* nodes named: theirs */
		return tp_place(c, job, out);
	const tp_nodeset *h = tp_cluster_hosts(c, job, &n);
	if (!h || n < job->nodes)
		return false;
	tp_nodeset_copy(hosts, h);
	if (job->allowed)
		tp_nodeset_and(hosts, job->allowed);
	return tp_least_loaded_place(c->res, hosts, job->nodes, out) > 0;
}

static void least_loaded_pass(tp_policy *p, tp_cluster *c)
{
	(void)p;
	tp_nodeset hosts = { 0 }, out = { 0 };
	if (tp_nodeset_init(&hosts, c->nnodes) ||
	    tp_nodeset_init(&out, c->nnodes))
		goto done;
	qsort(c->queue, c->nqueue, sizeof(*c->queue), by_arrival);
	for (size_t i = 0; i < c->nqueue;) {
		if (!place(c, c->queue[i], &hosts, &out)) {
			i++; /* it waits in its delay queue */
			continue;
		}
		if (tp_cluster_start(c, i, &out, TP_NOT_FILL))
			break;
	}
done:
	tp_nodeset_fini(&hosts);
	tp_nodeset_fini(&out);
}

const tp_policy_ops tp_policy_least_loaded = {
	.name = "least-loaded",
	.summary = "the heterogeneous-cluster patent: FIFO, each job on the nodes of the lowest CPU utilisation that can take it; a job that does not fit waits without holding others back",
	.pass = least_loaded_pass,
	.needs_res = true,
};
