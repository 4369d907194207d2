/* shadow.c - reservation time of a queued job; see shadow.h. */
#include "policy/shadow.h"

#include <stdlib.h>

#include "alloc/place.h"

int tp_shadow_init(tp_shadow *s, int nnodes)
{
	s->time = INT64_MAX;
	if (tp_nodeset_init(&s->free, nnodes))
		return -1;
	if (tp_nodeset_init(&s->place, nnodes)) {
		tp_nodeset_fini(&s->free);
		return -1;
	}
	return 0;
}

void tp_shadow_fini(tp_shadow *s)
{
	tp_nodeset_fini(&s->free);
	tp_nodeset_fini(&s->place);
}

int tp_shadow_compute(const tp_cluster *c, const tp_job *job,
		      const tp_nodeset *hold, tp_shadow *s)
{
	tp_release *rel = malloc((c->nrun + 1) * sizeof(*rel));
	if (!rel)
		return -1;
	for (size_t i = 0; i < c->nrun; i++)
		rel[i] = (tp_release){ .time = c->run[i].limit,
				       .nodes = &c->run[i].nodes };
	tp_alloc_req req = tp_job_req(job);
	int k = tp_place_earliest(c->alloc, c->now, &c->free, rel, c->nrun,
				  hold, job->nodes,
				  tp_job_has_range(job) ? job->max_nodes : job->nodes,
				  &req, &s->free,
				  &s->place, &s->time);
	free(rel);
	return k == -2 ? -1 : 0;
}
