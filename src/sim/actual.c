/* actual.c - see actual.h. */
#include "actual.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

#include "base/name_index.h"
#include "base/nodeset.h"

/* Node index of a name on the machine, -1 if it lacks it. */
typedef struct namer {
	const tp_topo *topo;
	const tp_hostlist *part;  /* flat machine: its names */
	tp_name_index index;
	/* A flat machine without names: the NodeList names indexed among
	 * themselves, only to tell which jobs shared a node. */
	tp_hostlist own;
	tp_name_index own_index;
	tp_nodeset own_set;
} namer;

/* One placed job on one node, for the occupancy sweep. */
typedef struct stay {
	int32_t node;
	uint32_t job;  /* index in the workload */
	int64_t start, end;
} stay;

typedef struct stays {
	stay *v;
	size_t n, cap;
} stays;

static int add_stays(stays *st, const tp_nodeset *set, uint32_t job,
		     int64_t start, int64_t end)
{
	for (int i = tp_nodeset_next(set, 0); i >= 0;
	     i = tp_nodeset_next(set, i + 1)) {
		stay *p = tp_grow(st->v, &st->cap, st->n, sizeof(*p), 1024);
		if (!p)
			return -1;
		st->v = p;
		st->v[st->n++] = (stay){ i, job, start, end };
	}
	return 0;
}

static int by_node_start(const void *a, const void *b)
{
	const stay *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* Node by node, the union of its jobs' stays is its occupied time; a job
 * that starts before another on the node ended shares it (both marked). */
static int sweep(stays *st, const tp_sacct *s, sim_actual *a)
{
	bool *shared = calloc(s->w.njobs ? s->w.njobs : 1, sizeof(*shared));
	if (!shared)
		return -1;
	if (st->n)
		qsort(st->v, st->n, sizeof(*st->v), by_node_start);
	for (size_t i = 0; i < st->n;) {
		int64_t lo = st->v[i].start, hi = st->v[i].end;
		uint32_t last = st->v[i].job; /* the stay reaching hi */
		size_t k = i + 1;
		for (; k < st->n && st->v[k].node == st->v[i].node; k++) {
			const stay *x = &st->v[k];
			if (x->start >= hi) { /* the node was idle in between */
				a->occupied += (double)(hi - lo);
				lo = x->start;
				hi = x->end;
				last = x->job;
				continue;
			}
			/* x overlaps `last` (every stay before it started by
			 * x->start, and `last` ends latest) */
			shared[x->job] = shared[last] = true;
			if (x->end > hi) {
				hi = x->end;
				last = x->job;
			}
		}
		a->occupied += (double)(hi - lo);
		i = k;
	}
	for (size_t i = 0; i < s->w.njobs; i++)
		if (shared[i] && !a->shared++)
			a->first_shared_line = s->runs[i].line;
	free(shared);
	return 0;
}

static int lookup(const namer *n, const char *name)
{
	if (n->topo->kind != TP_TOPO_FLAT)
		return tp_topo_node_index(n->topo, name);
	if (n->part)
		return tp_name_index_find(&n->index, n->part->names, name);
	return tp_name_index_find(&n->own_index, n->own.names, name);
}

/* Maps the job's NodeList into `set`: how many names there were, and
 * *missing the first one the machine lacks (NULL if none); -1 on ENOMEM
 * or a list that no longer expands (checked by the reader). */
static int map_nodes(const namer *n, const char *list, tp_nodeset *set,
		     char *missing, size_t len)
{
	tp_hostlist hl = { 0 };
	char why[64];
	missing[0] = '\0';
	if (tp_hostlist_expand(&hl, list, why, sizeof(why))) {
		tp_hostlist_fini(&hl);
		return -1;
	}
	for (size_t i = 0; i < hl.n; i++) {
		int idx = lookup(n, hl.names[i]);
		if (idx >= 0 && idx < set->n)
			tp_nodeset_set(set, idx);
		else if (!missing[0])
			snprintf(missing, len, "%s", hl.names[i]);
	}
	int count = (int)hl.n;
	tp_hostlist_fini(&hl);
	return count;
}

static int add_record(sim_actual *a, const tp_record *x)
{
	tp_sim_result *r = &a->r;
	tp_record *p = tp_grow(r->rec, &r->caprec, r->nrec, sizeof(*p), 1024);
	if (!p)
		return -1;
	r->rec = p;
	r->rec[r->nrec++] = *x;
	if (x->end > r->last_end)
		r->last_end = x->end;
	return 0;
}

/* Job i's record: its times, its nodes, their cost when all are known. */
static int one_job(const tp_sacct *s, size_t i, namer *n,
		   tp_nodeset *set, stays *st, sim_actual *a)
{
	const tp_wjob *j = &s->w.jobs[i];
	const tp_sacct_run *run = &s->runs[i];
	tp_record x = {
		.id = j->id, .submit = j->submit, .start = run->start,
		.end = run->end, .nodes_req = j->nodes, .nodes_alloc = j->nodes,
		.estimate = j->estimate, .runtime = j->runtime,
		.run = run->end - run->start, .spread = -1,
		.status = TP_COMPLETED, /* sacct's State is not kept */
		.attempt = 1, .cost = -1,
	};
	char missing[64];
	tp_nodeset_zero(set);
	double alone = (double)j->nodes * (double)(x.end - x.start);
	if (n->topo->kind == TP_TOPO_FLAT && !n->part) {
		/* no names to check: only which jobs shared a node */
		if (!run->nodelist || !n->own.n) {
			a->occupied += alone;
			return add_record(a, &x);
		}
		tp_nodeset_zero(&n->own_set);
		if (map_nodes(n, run->nodelist, &n->own_set, missing,
			      sizeof(missing)) < 0 ||
		    add_stays(st, &n->own_set, (uint32_t)i, x.start, x.end))
			return -1;
		return add_record(a, &x);
	}
	int count = run->nodelist ? map_nodes(n, run->nodelist, set, missing,
					      sizeof(missing)) : 0;
	if (count < 0)
		return -1;
	if (count > 0)
		x.nodes_alloc = count;
	if (missing[0] || !run->nodelist) {
		a->occupied += (double)x.nodes_alloc * (double)(x.end - x.start);
		a->outside += missing[0] != '\0';
		if (missing[0] && !a->first_outside[0])
			snprintf(a->first_outside, sizeof(a->first_outside),
				 "%s:%zu: %s", s->name, run->line, missing);
	} else if (count > 0) {
		a->placed++;
		if (add_stays(st, set, (uint32_t)i, x.start, x.end))
			return -1;
		if (n->topo->kind != TP_TOPO_FLAT)
			x.cost = tp_alloc_cost(n->topo->alloc, set);
	}
	return add_record(a, &x);
}

static int index_part(namer *n)
{
	if (n->topo->kind != TP_TOPO_FLAT)
		return 0;
	if (!n->part) {
		for (size_t i = 0; i < n->own.n; i++)
			if (tp_name_index_add(&n->own_index, n->own.names))
				return -1;
		return tp_nodeset_init(&n->own_set, (int)(n->own.n ? n->own.n : 1));
	}
	/* distinct names (sim_partition_nodes), indexed in order */
	for (size_t i = 0; i < n->part->n; i++)
		if (tp_name_index_add(&n->index, n->part->names))
			return -1;
	return 0;
}

int sim_actual_build(const tp_sacct *s, const tp_topo *topo,
		     const tp_hostlist *part, sim_actual *a, tp_error *err)
{
	memset(a, 0, sizeof(*a));
	a->r.nodes = s->w.nodes;
	a->r.first_submit = s->w.njobs ? s->w.jobs[0].submit : 0;
	tp_hostlist names = { .names = s->nodes, .n = s->nnodes };
	namer n = { .topo = topo,
		    .part = part ? part : s->nodes_counted ? &names : NULL,
		    .own = names };
	stays st = { 0 };
	tp_nodeset set;
	int nnodes = topo->kind != TP_TOPO_FLAT ? topo->nnodes : s->w.nodes;
	if (index_part(&n) || tp_nodeset_init(&set, nnodes)) {
		tp_name_index_fini(&n.index);
		tp_name_index_fini(&n.own_index);
		tp_nodeset_fini(&n.own_set);
		return tp_errorf(err, "%s: out of memory", s->name);
	}
	int rc = 0;
	/* the column is there for every job or for none */
	a->checked = (topo->kind != TP_TOPO_FLAT || part) &&
		     s->w.njobs && s->runs[0].nodelist;
	for (size_t i = 0; i < s->w.njobs && !rc; i++)
		if (one_job(s, i, &n, &set, &st, a))
			rc = tp_errorf(err, "%s:%zu: out of memory", s->name,
				       s->runs[i].line);
	if (!rc && sweep(&st, s, a))
		rc = tp_errorf(err, "%s: out of memory", s->name);
	free(st.v);
	tp_nodeset_fini(&set);
	tp_nodeset_fini(&n.own_set);
	tp_name_index_fini(&n.index);
	tp_name_index_fini(&n.own_index);
	if (rc)
		sim_actual_fini(a);
	return rc;
}

void sim_actual_summarize(const sim_actual *a, tp_summary *sum)
{
	tp_summarize(&a->r, sum);
	if (sum->makespan <= 0)
		return;
	double capacity = (double)sum->nodes * (double)sum->makespan;
	double occupied = a->occupied / capacity;
	if (sum->useful_utilisation > occupied)
		sum->useful_utilisation = occupied;
	sum->utilisation = occupied;
}

void sim_actual_fini(sim_actual *a)
{
	free(a->r.rec);
	memset(a, 0, sizeof(*a));
}

void sim_actual_cpus(const tp_sacct *s, int64_t cpus, tp_summary *sum)
{
	double busy = 0;
	if (cpus <= 0 || sum->makespan <= 0)
		return;
	for (size_t i = 0; i < s->w.njobs; i++) {
		const tp_sacct_run *r = &s->runs[i];
		int64_t n = r->res.alloc_cpus > 0 ? r->res.alloc_cpus :
			    r->res.req_cpus > 0 ? r->res.req_cpus : 0;
		busy += (double)n * (double)(r->end - r->start);
	}
	sum->cpu_utilisation = busy / ((double)cpus * (double)sum->makespan);
}
