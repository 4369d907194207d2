/*
 * policy_window_ff.c - windowed First-Fit (doc/methods.md B): any of the
 * first W waiting jobs that fits starts, in queue order; time advances
 * only when no job in the window fits.  W = 1 is FCFS; larger windows
 * trade order for utilisation (the Angara study uses W = 1, 2, 4, ...,
 * 128).
 */
#include <stddef.h>
#include <stdint.h>

#include "policy/first_fit.h"
#include "policy/policy.h"

static int32_t oldest_seq(const tp_cluster *c)
{
	int32_t oldest = INT32_MAX;
	for (size_t i = 0; i < c->nqueue; i++)
		if (c->queue[i]->seq < oldest)
			oldest = c->queue[i]->seq;
	return oldest;
}

/* The paper's rule: the waiting jobs with arrival index below imin + w,
 * tried in queue order.  imin is the smallest index still waiting,
 * wherever it stands in the queue (under slurmctld the queue is in
 * priority order, not arrival order); when that job starts the window
 * moves on.  A start only shrinks the free nodes, so jobs passed over for
 * not fitting need no second look; jobs passed over for being outside the
 * window do once it moves (only possible out of arrival order). */
static void index_window(tp_cluster *c, int window)
{
	tp_nodeset nodes;
	if (tp_nodeset_init(&nodes, c->nnodes))
		return;
	int64_t limit = (int64_t)oldest_seq(c) + window;
	size_t outside = SIZE_MAX; /* first queue index passed as outside */
	for (size_t i = 0; i < c->nqueue;) {
		if (c->queue[i]->seq >= limit) {
			if (outside > i)
				outside = i;
			i++;
			continue;
		}
		if (!tp_place(c, c->queue[i], &nodes)) {
			i++;
			continue;
		}
		if (tp_cluster_start(c, i, &nodes, TP_NOT_FILL))
			break; /* out of memory: the next pass retries */
		int64_t moved = (int64_t)oldest_seq(c) + window;
		if (moved != limit) {
			if (outside < i)
				i = outside;
			outside = SIZE_MAX;
			limit = moved;
		}
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
	int32_t oldest = oldest_seq(c);
	for (size_t k = first; k < c->nstarts; k++)
		if (c->starts[k].job->seq > oldest)
			p->stats.backfilled++;
}

const tp_policy_ops tp_policy_window_ff = {
	.name = "window-ff",
	.summary = "first-fit within a window of the first W queued jobs",
	.pass = window_ff_pass,
};
