/* st_view.c - a partition's tp_cluster rebuilt per cycle; see st_view.h. */
#include "st_view.h"

#include "priority/order.h"

#include <stdlib.h>
#include <string.h>

void st_view_init(st_view *v, tp_alloc *alloc)
{
	memset(v, 0, sizeof(*v));
	v->alloc = alloc;
}

void st_view_fini(st_view *v)
{
	tp_cluster_fini(&v->c);
	tp_placeable_fini(&v->placeable);
	for (size_t i = 0; i < v->capsets; i++) {
		tp_nodeset_fini(v->sets[i]);
		free(v->sets[i]);
	}
	free(v->sets);
	free(v->jobs);
	tp_res_fini(&v->res);
	tp_nodeset_fini(&v->one);
	memset(v, 0, sizeof(*v));
}

int st_view_begin(st_view *v, int64_t now, size_t maxjobs)
{
	tp_cluster_fini(&v->c);
	if (tp_cluster_init(&v->c, v->alloc->nnodes, v->alloc))
		return -1;
	tp_nodeset_zero(&v->c.free);
	tp_cluster_recount_free(&v->c);
	v->c.now = now;
	if (!v->placeable.known &&
	    tp_placeable_init(&v->placeable, v->alloc->nnodes))
		return -1;
	tp_placeable_forget(&v->placeable);
	if (maxjobs > v->capjobs) {
		st_vjob *p = realloc(v->jobs, maxjobs * sizeof(*p));
		if (!p)
			return -1;
		v->jobs = p;
		v->capjobs = maxjobs;
	}
	v->njobs = 0;
	v->nending = 0;
	v->nsets = 0;
	return 0;
}

tp_nodeset *st_view_set(st_view *v)
{
	if (v->nsets == v->capsets) {
		tp_nodeset **p = realloc(v->sets, (v->capsets + 1) * sizeof(*p));
		if (!p)
			return NULL;
		v->sets = p;
		tp_nodeset *s = calloc(1, sizeof(*s));
		if (!s || tp_nodeset_init(s, v->alloc->nnodes)) {
			free(s);
			return NULL;
		}
		v->sets[v->capsets++] = s;
	}
	tp_nodeset *s = v->sets[v->nsets++];
	tp_nodeset_zero(s);
	return s;
}

static tp_job *new_job(st_view *v, const st_jobdesc *d)
{
	if (v->njobs == v->capjobs)
		return NULL;
	st_vjob *j = &v->jobs[v->njobs++];
	*j = (st_vjob){
		.job = { .id = d->id, .submit = d->submit,
			 .estimate = d->estimate > 0 ? d->estimate : 1,
			 .nodes = d->nodes > 0 ? d->nodes : 1,
			 .max_nodes = d->max_nodes,
			 .seq = d->seq, .owner = j, .allowed = d->allowed,
			 .required = d->required,
			 .contiguous = d->contiguous,
			 .max_groups = d->max_groups },
		.priority = d->priority,
		.ref = d->ref,
		.ask = d->ask,
	};
	if (d->has_ask)
		j->job.ask = &j->ask;
	return &j->job;
}

long st_view_add_running(st_view *v, const st_jobdesc *d, int64_t start,
			 int64_t end, const tp_nodeset *nodes,
			 int64_t fill_for, int extensions)
{
	tp_job *j = new_job(v, d);
	if (!j)
		return -1;
	long ri = tp_cluster_add_run(&v->c, j, start, end, nodes, fill_for);
	if (ri >= 0)
		v->c.run[ri].extensions = extensions;
	return ri;
}

int st_view_add_ending(st_view *v, const tp_nodeset *nodes)
{
	st_jobdesc d = { .id = -1, .submit = v->c.now, .estimate = 1,
			 .nodes = tp_nodeset_count(nodes) };
	if (d.nodes == 0)
		return 0;
	tp_job *j = new_job(v, &d);
	if (!j)
		return -1;
	if (tp_cluster_add_run(&v->c, j, v->c.now, v->c.now, nodes,
			       TP_NOT_FILL) < 0)
		return -1;
	v->nending++;
	return 0;
}

int st_view_add_pending(st_view *v, const st_jobdesc *d)
{
	tp_job *j = new_job(v, d);
	if (!j)
		return -1;
	return tp_cluster_enqueue(&v->c, j);
}

int st_view_attach_res(st_view *v, const tp_res_node *total)
{
	int n = v->alloc->nnodes;
	tp_res_fini(&v->res);
	if (tp_res_init(&v->res, n, total))
		return -1;
	if (v->one.n != n) {
		tp_nodeset_fini(&v->one);
		if (tp_nodeset_init(&v->one, n))
			return -1;
	}
	v->c.res = &v->res;
	return 0;
}

void st_view_res_take(st_view *v, int x, const tp_res_node *amount)
{
	tp_res_ask ask = { .cpus = amount->cpus, .gpus = amount->gpus,
			   .mem = amount->mem };
	tp_nodeset_zero(&v->one);
	tp_nodeset_set(&v->one, x);
	tp_res_take(&v->res, &v->one, &ask);
}

void st_view_res_done(st_view *v)
{
	for (int x = tp_nodeset_next(&v->c.free, 0); x >= 0;
	     x = tp_nodeset_next(&v->c.free, x + 1))
		if (!tp_res_idle(&v->res, x))
			tp_nodeset_clear(&v->c.free, x);
	tp_cluster_recount_free(&v->c);
}

int st_view_order(uint32_t pa, int64_t sa, int64_t ida, uint32_t pb,
		  int64_t sb, int64_t idb)
{
	/* one partition's queue: one PriorityTier */
	tp_prio_key a = { 0, pa, sa, ida }, b = { 0, pb, sb, idb };
	return tp_prio_order(&a, &b);
}

static int queue_cmp(const void *a, const void *b)
{
	const st_vjob *x = (const st_vjob *)*(tp_job *const *)a;
	const st_vjob *y = (const st_vjob *)*(tp_job *const *)b;
	return st_view_order(x->priority, x->job.submit, x->job.id,
			     y->priority, y->job.submit, y->job.id);
}

void st_view_sort_queue(st_view *v)
{
	if (v->c.nqueue > 1)
		qsort(v->c.queue, v->c.nqueue, sizeof(*v->c.queue), queue_cmp);
}
