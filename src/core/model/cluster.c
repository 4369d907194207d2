/* cluster.c - the scheduling state a pass works on; see cluster.h. */
#include "model/cluster.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

/* dst = a copy of src, whose members are all in words [lo, hi), on the
 * words of a set released earlier when there is one: on a large machine
 * a job's nodes fill few words, and a run or start then costs those, not
 * the whole machine's. */
static int set_copy(tp_cluster *c, tp_nodeset *dst, const tp_nodeset *src,
		    int lo, int hi)
{
	if (c->nspare) {
		dst->w = c->spare[--c->nspare];
		dst->n = src->n;
	} else if (tp_nodeset_init(dst, src->n)) {
		return -1;
	}
	tp_nodeset_copy_words(dst, src, lo, hi);
	return 0;
}

/* Spare sets are kept empty, so clearing words [lo, hi) is enough. */
static void set_release(tp_cluster *c, tp_nodeset *s, int lo, int hi)
{
	if (s->w && !tp_grow_to((void **)&c->spare, &c->capspare, c->nspare + 1,
			  sizeof(*c->spare))) {
		tp_nodeset_clear_range(s, lo * 64, hi * 64 < s->n ? hi * 64 : s->n);
		c->spare[c->nspare++] = s->w;
		s->w = NULL;
	}
	tp_nodeset_fini(s);
}

int tp_cluster_init(tp_cluster *c, int nnodes, tp_alloc *alloc)
{
	memset(c, 0, sizeof(*c));
	c->nnodes = nnodes;
	c->alloc = alloc;
	if (tp_nodeset_init(&c->free, nnodes))
		return -1;
	tp_nodeset_fill(&c->free);
	c->nfree = nnodes;
	return 0;
}

void tp_cluster_recount_free(tp_cluster *c)
{
	c->nfree = tp_nodeset_count(&c->free);
	c->free_lo = 0;
	for (size_t i = 0; i < c->nrun && !c->nodes_shared; i++)
		if (tp_nodeset_intersects(&c->free, &c->run[i].nodes))
			c->nodes_shared = true;
}

int tp_cluster_free_lo(tp_cluster *c)
{
	int m = tp_nodeset_words(&c->free);
	while (c->free_lo < m && !c->free.w[c->free_lo])
		c->free_lo++;
	return c->free_lo;
}

tp_nodeset *tp_cluster_scratch(tp_cluster *c)
{
	if (!c->place.w && tp_nodeset_init(&c->place, c->nnodes))
		return NULL;
	return &c->place;
}

void tp_cluster_clear_starts(tp_cluster *c)
{
	for (size_t i = 0; i < c->nstarts; i++)
		set_release(c, &c->starts[i].nodes, c->starts[i].wlo,
			    c->starts[i].whi);
	c->nstarts = 0;
}

/* tp_cluster_hosts' answers for a few asks at a time (a backfilling
 * pass tries jobs of a handful of kinds in turn), each kept until res
 * changes. */
#define HOSTS_KEPT 8
typedef struct tp_hosts_kept {
	tp_res_ask ask[HOSTS_KEPT];
	uint64_t serial[HOSTS_KEPT];
	int count[HOSTS_KEPT];
	tp_nodeset set[HOSTS_KEPT];
	int n, next;
} tp_hosts_kept;

static void hosts_kept_free(tp_hosts_kept *k)
{
	if (!k)
		return;
	for (int i = 0; i < HOSTS_KEPT; i++)
		tp_nodeset_fini(&k->set[i]);
	free(k);
}

void tp_cluster_fini(tp_cluster *c)
{
	tp_cluster_clear_starts(c);
	hosts_kept_free(c->hosts_kept);
	if (c->proj) {
		tp_res_fini(c->proj);
		free(c->proj);
	}
	for (size_t i = 0; i < c->nrun; i++)
		tp_nodeset_fini(&c->run[i].nodes);
	for (size_t i = 0; i < c->nspare; i++)
		free(c->spare[i]);
	free(c->spare);
	free(c->run);
	free(c->queue);
	free(c->starts);
	tp_nodeset_fini(&c->free);
	tp_nodeset_fini(&c->busy);
	tp_nodeset_fini(&c->place);
	memset(c, 0, sizeof(*c));
}

int tp_cluster_enqueue(tp_cluster *c, tp_job *job)
{
	if (tp_grow_to((void **)&c->queue, &c->capqueue, c->nqueue + 1,
		 sizeof(*c->queue)))
		return -1;
	c->queue[c->nqueue++] = job;
	return 0;
}

/* A run entry for `job` on a copy of `nodes`, members in words [lo, hi)
 * (free is left alone). */
static tp_run *push_run(tp_cluster *c, tp_job *job, int64_t start,
			int64_t limit, const tp_nodeset *nodes, int64_t fill_for,
			int lo, int hi)
{
	if (tp_grow_to((void **)&c->run, &c->caprun, c->nrun + 1, sizeof(*c->run)))
		return NULL;
	tp_run *r = &c->run[c->nrun];
	memset(r, 0, sizeof(*r));
	if (set_copy(c, &r->nodes, nodes, lo, hi))
		return NULL;
	r->wlo = lo;
	r->whi = hi;
	r->job = job;
	r->start = start;
	r->limit = limit;
	r->ceiling = INT64_MAX;
	r->fill_for = fill_for;
	c->nrun++;
	return r;
}

/* Nodes from outside may already be a run's: keep the union of the runs
 * from the first such node set on, to notice. */
static int watch_shared(tp_cluster *c, const tp_nodeset *nodes)
{
	if (c->nodes_shared)
		return 0;
	if (!c->busy.w) {
		if (tp_nodeset_init(&c->busy, c->nnodes))
			return -1;
		for (size_t i = 0; i < c->nrun && !c->nodes_shared; i++)
			if (tp_nodeset_or_counted(&c->busy, &c->run[i].nodes) <
			    c->run[i].count)
				c->nodes_shared = true;
	}
	if (tp_nodeset_intersects(&c->busy, nodes))
		c->nodes_shared = true;
	return 0;
}

/* With resources: the run's job takes its ask on `nodes`, which are no
 * longer free (nothing else runs there). */
static void res_take(tp_cluster *c, tp_run *r, const tp_nodeset *nodes)
{
	tp_res_take(c->res, nodes, tp_cluster_ask(r->job));
	r->count = tp_nodeset_count(nodes);
	c->nfree -= tp_nodeset_andnot_counted_words(&c->free, nodes, r->wlo,
						    r->whi);
}

long tp_cluster_add_run(tp_cluster *c, tp_job *job, int64_t start,
			int64_t limit, const tp_nodeset *nodes, int64_t fill_for)
{
	int lo, hi;
	tp_nodeset_span(nodes, &lo, &hi);
	if (c->res) {
		tp_run *r = push_run(c, job, start, limit, nodes, fill_for,
				     lo, hi);
		if (!r)
			return -1;
		res_take(c, r, nodes);
		return (long)c->nrun - 1;
	}
	if (watch_shared(c, nodes))
		return -1;
	tp_run *r = push_run(c, job, start, limit, nodes, fill_for, lo, hi);
	if (!r)
		return -1;
	r->count = tp_nodeset_count(nodes);
	if (!c->nodes_shared)
		tp_nodeset_or(&c->busy, nodes);
	c->nfree -= tp_nodeset_andnot_counted_words(&c->free, nodes, lo, hi);
	return (long)c->nrun - 1;
}

/* With resources: the run's job gives its ask back; the nodes nothing
 * runs on any more are free. */
static void res_give(tp_cluster *c, tp_run *r)
{
	tp_res_give(c->res, &r->nodes, tp_cluster_ask(r->job));
	for (int x = tp_nodeset_next(&r->nodes, r->wlo * 64); x >= 0;
	     x = tp_nodeset_next(&r->nodes, x + 1))
		if (tp_res_idle(c->res, x) && !tp_nodeset_test(&c->free, x)) {
			tp_nodeset_set(&c->free, x);
			c->nfree++;
		}
	if (r->wlo < c->free_lo)
		c->free_lo = r->wlo;
}

void tp_cluster_end_run(tp_cluster *c, size_t i, int free_nodes)
{
	tp_run *r = &c->run[i];
	if (c->res) {
		/* Resources are given back with the run (free_nodes is for
		 * whole nodes). */
		res_give(c, r);
	} else if (free_nodes) {
		/* Unshared, none of the run's nodes is free now: all of them
		 * come back, and r->count says how many. */
		if (c->nodes_shared) {
			c->nfree += tp_nodeset_or_counted_words(&c->free,
					&r->nodes, r->wlo, r->whi);
		} else {
			tp_nodeset_or_words(&c->free, &r->nodes, r->wlo,
					    r->whi);
			c->nfree += r->count;
		}
		if (r->wlo < c->free_lo)
			c->free_lo = r->wlo;
	}
	if (c->busy.w && !c->nodes_shared)
		tp_nodeset_andnot(&c->busy, &r->nodes);
	set_release(c, &r->nodes, r->wlo, r->whi);
	*r = c->run[--c->nrun];
}

long tp_cluster_find_run(const tp_cluster *c, const tp_job *job)
{
	for (size_t i = 0; i < c->nrun; i++)
		if (c->run[i].job == job)
			return (long)i;
	return -1;
}

int tp_cluster_start(tp_cluster *c, size_t qi, const tp_nodeset *nodes,
		     int64_t fill_for)
{
	tp_job *job = c->queue[qi];
	if (tp_grow_to((void **)&c->starts, &c->capstarts, c->nstarts + 1,
		 sizeof(*c->starts)))
		return -1;
	tp_start *s = &c->starts[c->nstarts];
	int lo, hi;
	/* The nodes are free: none is in a word below free_lo (shared
	 * nodes need not be free). */
	if (c->res)
		tp_nodeset_span(nodes, &lo, &hi);
	else
		tp_nodeset_span_from(nodes, c->free_lo, &lo, &hi);
	if (set_copy(c, &s->nodes, nodes, lo, hi))
		return -1;
	s->wlo = lo;
	s->whi = hi;
	tp_run *r = push_run(c, job, c->now, c->now + job->estimate, nodes,
			     fill_for, lo, hi);
	if (!r) {
		set_release(c, &s->nodes, lo, hi);
		return -1;
	}
	if (c->res) {
		res_take(c, r, nodes);
	} else {
		/* The nodes are free, so none of them is a run's already. */
		r->count = tp_nodeset_andnot_counted_words(&c->free, nodes,
							   lo, hi);
		c->nfree -= r->count;
		if (c->busy.w && !c->nodes_shared)
			tp_nodeset_or(&c->busy, nodes);
	}
	s->job = job;
	s->fill_for = fill_for;
	c->nstarts++;
	memmove(c->queue + qi, c->queue + qi + 1,
		(c->nqueue - qi - 1) * sizeof(*c->queue));
	c->nqueue--;
	return 0;
}

void tp_cluster_free_at(const tp_cluster *c, int64_t t, tp_nodeset *out)
{
	tp_nodeset_copy(out, &c->free);
	for (size_t i = 0; i < c->nrun; i++)
		if (c->run[i].limit <= t)
			tp_nodeset_or(out, &c->run[i].nodes);
}


const tp_res_ask *tp_cluster_ask(const tp_job *job)
{
	static const tp_res_ask whole = { .cpus = 1, .whole = true };
	return job->ask ? job->ask : &whole;
}

static bool same_ask(const tp_res_ask *a, const tp_res_ask *b)
{
	return a->cpus == b->cpus && a->gpus == b->gpus && a->mem == b->mem &&
	       a->whole == b->whole;
}

const tp_nodeset *tp_cluster_hosts(tp_cluster *c, const tp_job *job,
				   int *count)
{
	if (!tp_cluster_shares(c, job)) {
		*count = c->nfree;
		return &c->free;
	}
	tp_hosts_kept *k = c->hosts_kept;
	if (!k) {
		if (!(k = calloc(1, sizeof(*k))))
			return NULL;
		for (int i = 0; i < HOSTS_KEPT; i++)
			if (tp_nodeset_init(&k->set[i], c->nnodes)) {
				hosts_kept_free(k);
				return NULL;
			}
		c->hosts_kept = k;
	}
	for (int i = 0; i < k->n; i++)
		if (k->serial[i] == c->res->serial &&
		    same_ask(&k->ask[i], job->ask)) {
			*count = k->count[i];
			return &k->set[i];
		}
	int i = k->next;
	k->next = (k->next + 1) % HOSTS_KEPT;
	if (k->n < HOSTS_KEPT)
		k->n++;
	k->ask[i] = *job->ask;
	k->serial[i] = c->res->serial;
	k->count[i] = tp_res_hosts(c->res, job->ask, NULL, &k->set[i]);
	*count = k->count[i];
	return &k->set[i];
}

tp_res *tp_cluster_projection(tp_cluster *c)
{
	if (c->proj)
		return c->proj;
	tp_res *p = malloc(sizeof(*p));
	if (!p || tp_res_init(p, c->res->nnodes, c->res->total)) {
		free(p);
		return NULL;
	}
	return c->proj = p;
}
