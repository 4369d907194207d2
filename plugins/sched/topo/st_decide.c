/* st_decide.c - at-limit questions and one pass on a view; see st_decide.h. */
#include "st_decide.h"

#include <stdlib.h>

#include "driver/driver.h"

static int cmp_job_id(const void *a, const void *b)
{
	const tp_job *x = *(tp_job *const *)a, *y = *(tp_job *const *)b;
	return (x->id > y->id) - (x->id < y->id);
}

/* Jobs due for a question (and, with `mine`, this caller's to ask),
 * sorted by job id. */
static size_t collect_due(st_view *v, st_fills *f, int64_t horizon,
			  unsigned flags, st_mine_fn mine, void *arg,
			  tp_job **out)
{
	size_t n = 0;
	for (size_t i = 0; i < v->c.nrun; i++) {
		const tp_run *r = &v->c.run[i];
		if (r->job->id < 0)
			continue;
		st_fill *e = st_fills_find(f, (uint32_t)r->job->id);
		if (!e && !(flags & ST_ASK_ALL))
			continue; /* not a fill job: Slurm ends it */
		if (!tp_driver_limit_due(r, v->c.now, horizon,
					 e ? e->decided_end : -1))
			continue;
		if (mine && !mine(arg, r->job))
			continue;
		out[n++] = r->job;
	}
	if (n > 1)
		qsort(out, n, sizeof(*out), cmp_job_id);
	return n;
}

/* Ask about one due job (the driver applies an EXTEND to the view);
 * the table follows. */
static void ask(tp_policy *p, st_view *v, st_fill *e, st_limit_dec *d,
		int64_t unit)
{
	if (e)
		e->decided_end = v->c.run[d->run].limit;
	d->answer = tp_driver_at_limit(p, &v->c, (size_t)d->run, unit);
	if (!e)
		return;
	bool extended = d->answer.action == TP_LIMIT_EXTEND;
	if (extended)
		e->extensions = v->c.run[d->run].extensions;
	/* the driver applied the extension to the view's limit */
	e->granted_end = extended ? v->c.run[d->run].limit : 0;
}

long st_decide_limits(tp_policy *p, st_view *v, st_fills *f, int64_t horizon,
		      int64_t unit, unsigned flags, st_limit_fn apply,
		      void *arg)
{
	return st_decide_limits_of(p, v, f, horizon, unit, flags, NULL, apply,
				   arg);
}

long st_decide_limits_of(tp_policy *p, st_view *v, st_fills *f,
			 int64_t horizon, int64_t unit, unsigned flags,
			 st_mine_fn mine, st_limit_fn apply, void *arg)
{
	if (!v->c.nrun || (!f->jobs.n && !(flags & ST_ASK_ALL)))
		return 0;
	tp_job **due = malloc(v->c.nrun * sizeof(*due));
	if (!due)
		return -1;
	size_t n = collect_due(v, f, horizon, flags, mine, arg, due);
	for (size_t k = 0; k < n; k++) {
		st_limit_dec d = { .job = due[k],
				   .run = tp_cluster_find_run(&v->c, due[k]) };
		st_fill *e = st_fills_find(f, (uint32_t)due[k]->id);
		if (d.run < 0)
			continue; /* ended by an earlier callback */
		if (e)
			f->dirty = true;
		ask(p, v, e, &d, unit);
		if (apply)
			apply(arg, v, &d);
	}
	free(due);
	return (long)n;
}
