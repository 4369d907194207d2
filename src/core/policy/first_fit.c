/* first_fit.c - in-order placement; see first_fit.h. */
#include "policy/first_fit.h"

#include <stdlib.h>

#include "alloc/alloc.h"
#include "alloc/completion.h"

bool tp_completion_on(const tp_cluster *c)
{
	return c->completion_share > 0 && tp_alloc_has_spread(c->alloc);
}

tp_release *tp_cluster_releases(const tp_cluster *c)
{
	tp_release *rel = malloc((c->nrun + 1) * sizeof(*rel));
	for (size_t i = 0; rel && i < c->nrun; i++)
		rel[i] = (tp_release){ .time = c->run[i].limit,
				       .nodes = &c->run[i].nodes };
	return rel;
}

/* A job that fits now: does it end first by starting now?  (ENOMEM:
 * yes, as without the choice.) */
static bool ends_first_now(tp_cluster *c, const tp_job *job, tp_nodeset *out)
{
	tp_release *rel = tp_cluster_releases(c);
	if (!rel)
		return true;
	tp_alloc_req req = tp_job_req(job);
	int64_t when;
	int k = tp_place_completion(c->alloc, c->completion_share, job->estimate,
				    c->now, &c->free, rel, c->nrun, NULL,
				    job->nodes,
				    tp_job_has_range(job) ? job->max_nodes : job->nodes,
				    &req, NULL, out, &when);
	free(rel);
	return k < 0 || when == c->now;
}

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
	if (!tp_job_fits_n(c->alloc, &c->free, c->nfree,
			   tp_cluster_free_lo(c), job, out))
		return false;
	return !tp_completion_on(c) || ends_first_now(c, job, out);
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
