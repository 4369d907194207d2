/* first_fit.c - in-order placement; see first_fit.h. */
#include "policy/first_fit.h"

#include "alloc/alloc.h"

bool tp_place(tp_cluster *c, const tp_job *job, tp_nodeset *out)
{
	if (c->res) {
		int n;
		const tp_nodeset *hosts = tp_cluster_hosts(c, job, &n);
		return hosts && job->nodes <= n &&
		       tp_job_fits_res(c->alloc, hosts, n,
				       hosts == &c->free ? tp_cluster_free_lo(c) : 0,
				       c->res, false, job, out);
	}
	/* No allocator places a job on fewer nodes than it asks for. */
	if (job->nodes > c->nfree)
		return false;
	return tp_job_fits_n(c->alloc, &c->free, c->nfree,
			     tp_cluster_free_lo(c), job, out);
}

long tp_first_fit(tp_cluster *c, int window)
{
	tp_nodeset *nodes = NULL;
	long started = 0;
	int skipped = 0;
	/* Started jobs leave the queue, so the window slides over the jobs
	 * still waiting: stop once `window` of them did not fit. */
	for (size_t i = 0; i < c->nqueue && skipped < window;) {
		const tp_job *job = c->queue[i];
		if ((c->res || job->nodes <= c->nfree) && !nodes &&
		    !(nodes = tp_cluster_scratch(c))) {
			started = -1;
			break;
		}
		if (!tp_place(c, job, nodes)) {
			skipped++;
			i++;
			continue;
		}
		if (tp_cluster_start(c, i, nodes, TP_NOT_FILL)) {
			started = -1;
			break;
		}
		started++;
	}
	return started;
}
