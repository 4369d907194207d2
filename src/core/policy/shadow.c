/* shadow.c - reservation time of a queued job; see shadow.h. */
#include "policy/shadow.h"

#include <stdlib.h>

#include "alloc/completion.h"
#include "alloc/place.h"
#include "policy/first_fit.h"

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
	tp_release *rel = tp_cluster_releases(c);
	if (!rel)
		return -1;
	tp_alloc_req req = tp_job_req(job);
	int hi = tp_job_has_range(job) ? job->max_nodes : job->nodes, k;
	if (tp_completion_on(c)) {
		/* the start the job would choose, not its earliest fit */
		k = tp_place_completion(c->alloc, c->completion_share,
					job->estimate, c->now, &c->free, rel,
					c->nrun, hold, job->nodes, hi, &req,
					&s->free, &s->place, &s->time);
	} else {
		req.probe = true; /* when, not where: s->place is scratch */
		k = tp_place_earliest(c->alloc, c->now, &c->free, rel, c->nrun,
				      hold, job->nodes, hi, &req, &s->free,
				      &s->place, &s->time);
	}
	free(rel);
	return k == -2 ? -1 : 0;
}

typedef struct count_release {
	int64_t time;
	int count;
} count_release;

static int cmp_count_release(const void *x, const void *y)
{
	const count_release *a = x, *b = y;

	return (a->time > b->time) - (a->time < b->time);
}

int tp_shadow_count(const tp_cluster *c, int need, int64_t *time, int *avail)
{
	*avail = c->nfree;
	*time = c->now;
	if (c->nfree >= need)
		return 0;
	*time = INT64_MAX;
	count_release *rel = malloc((c->nrun + 1) * sizeof(*rel));
	if (!rel)
		return -1;
	for (size_t i = 0; i < c->nrun; i++)
		rel[i] = (count_release){ c->run[i].limit, c->run[i].count };
	qsort(rel, c->nrun, sizeof(*rel), cmp_count_release);
	/* Runs ending at the same time free their nodes together. */
	for (size_t i = 0; i < c->nrun && *time == INT64_MAX;) {
		int64_t t = rel[i].time;
		for (; i < c->nrun && rel[i].time == t; i++)
			*avail += rel[i].count;
		if (*avail >= need)
			*time = t > c->now ? t : c->now;
	}
	free(rel);
	return 0;
}

bool tp_shadow_res_fits(tp_cluster *c, const tp_res *res, const tp_job *job,
			tp_nodeset *hosts, tp_nodeset *scratch)
{
	int n = tp_res_hosts(res, tp_cluster_ask(job), NULL, hosts);
	return n >= job->nodes &&
	       tp_job_fits_res(c->alloc, hosts, n, 0, res, true, job, scratch);
}

int tp_shadow_res(tp_cluster *c, const tp_job *job, long hold,
		  tp_timeline *tl, tp_nodeset *hosts, tp_nodeset *scratch,
		  int64_t *time)
{
	*time = INT64_MAX;
	if (tp_timeline_begin(tl, c, hold))
		return -1;
	if (tp_shadow_res_fits(c, tl->proj, job, hosts, scratch)) {
		*time = c->now;
		return 0;
	}
	/* Runs ending at the same time give their resources back together. */
	for (int64_t t; (t = tp_timeline_next(tl)) != INT64_MAX;) {
		tp_timeline_advance(tl, t);
		if (tp_shadow_res_fits(c, tl->proj, job, hosts, scratch)) {
			*time = t;
			return 0;
		}
	}
	return 0;
}
