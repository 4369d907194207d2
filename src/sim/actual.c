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
} namer;

static int lookup(const namer *n, const char *name)
{
	if (n->topo->kind != TP_TOPO_FLAT)
		return tp_topo_node_index(n->topo, name);
	return n->part ? tp_name_index_find(&n->index, n->part->names, name) : -1;
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
static int one_job(const tp_sacct *s, size_t i, const namer *n,
		   tp_nodeset *set, sim_actual *a)
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
	if (n->topo->kind == TP_TOPO_FLAT && !n->part)
		return add_record(a, &x); /* no names to check */
	int count = run->nodelist ? map_nodes(n, run->nodelist, set, missing,
					      sizeof(missing)) : 0;
	if (count < 0)
		return -1;
	if (count > 0)
		x.nodes_alloc = count;
	if (missing[0] || !run->nodelist) {
		a->outside += missing[0] != '\0';
		if (missing[0] && !a->first_outside[0])
			snprintf(a->first_outside, sizeof(a->first_outside),
				 "%s:%zu: %s", s->name, run->line, missing);
	} else if (count > 0) {
		a->placed++;
		if (n->topo->kind != TP_TOPO_FLAT)
			x.cost = tp_alloc_cost(n->topo->alloc, set);
	}
	return add_record(a, &x);
}

static int index_part(namer *n)
{
	if (n->topo->kind != TP_TOPO_FLAT || !n->part)
		return 0;
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
	namer n = { .topo = topo, .part = part };
	tp_nodeset set;
	int nnodes = topo->kind != TP_TOPO_FLAT ? topo->nnodes : s->w.nodes;
	if (index_part(&n) || tp_nodeset_init(&set, nnodes)) {
		tp_name_index_fini(&n.index);
		return tp_errorf(err, "%s: out of memory", s->name);
	}
	int rc = 0;
	/* the column is there for every job or for none */
	a->checked = (topo->kind != TP_TOPO_FLAT || part) &&
		     s->w.njobs && s->runs[0].nodelist;
	for (size_t i = 0; i < s->w.njobs && !rc; i++)
		if (one_job(s, i, &n, &set, a))
			rc = tp_errorf(err, "%s:%zu: out of memory", s->name,
				       s->runs[i].line);
	tp_nodeset_fini(&set);
	tp_name_index_fini(&n.index);
	if (rc)
		sim_actual_fini(a);
	return rc;
}

void sim_actual_fini(sim_actual *a)
{
	free(a->r.rec);
	memset(a, 0, sizeof(*a));
}
