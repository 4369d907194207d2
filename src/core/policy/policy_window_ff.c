/*
 * policy_window_ff.c - windowed First-Fit (spec B): any of the first W
 * waiting jobs that fits starts, in queue order; time advances only when no
 * job in the window fits.  W = 1 is FCFS; larger windows trade order for
 * utilisation (the Angara study uses W = 1, 2, 4, ..., 128).
 */
#include <stdint.h>

#include "policy/first_fit.h"
#include "policy/policy.h"

/* The paper's rule: walk the waiting jobs with arrival index below
 * imin + w.  Waiting jobs keep arrival order, so queue[0] holds imin, and
 * a pass only removes free nodes, so one walk is enough. */
static void index_window(tp_cluster *c, int window)
{
	tp_nodeset nodes;
	if (tp_nodeset_init(&nodes, c->nnodes))
		return;
	int free_nodes = tp_nodeset_count(&c->free);
	for (size_t i = 0; i < c->nqueue &&
			   c->queue[i]->seq - c->queue[0]->seq < window;) {
		if (c->queue[i]->nodes > free_nodes || tp_place(c, c->queue[i], &nodes)) {
			i++;
			continue;
		}
		if (tp_cluster_start(c, i, &nodes, TP_NOT_FILL))
			break; /* out of memory: the next pass retries */
		free_nodes = tp_nodeset_count(&c->free);
	}
	tp_nodeset_fini(&nodes);
}

static void window_ff_pass(tp_policy *p, tp_cluster *c)
{
	size_t first = c->nstarts;
	if (p->opts.window_rule == TP_WINDOW_INDEX)
		index_window(c, p->opts.window);
	else
		tp_first_fit(c, p->opts.window);
	/* Out of order: started while an earlier job keeps waiting. */
	int32_t oldest = INT32_MAX;
	for (size_t i = 0; i < c->nqueue; i++)
		if (c->queue[i]->seq < oldest)
			oldest = c->queue[i]->seq;
	for (size_t k = first; k < c->nstarts; k++)
		if (c->starts[k].job->seq > oldest)
			p->stats.backfilled++;
}

const tp_policy_ops tp_policy_window_ff = {
	.name = "window-ff",
	.summary = "first-fit within a window of the first W queued jobs",
	.pass = window_ff_pass,
};
