/* site_res.c - resources inside nodes in a site replay; see site_res.h. */
#include "site_res.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Memory is a consumable resource: SelectTypeParameters CR_*_Memory, or
 * not given (CR_Core_Memory, Slurm's default since 23.11). */
static bool mem_consumable(const tp_site *site)
{
	const char *p = site->prio.select_params;
	return !p || strstr(p, "Memory") || strstr(p, "MEMORY") ||
	       strstr(p, "memory");
}

/* Each machine node's size, from the site's node of its name. */
static int node_sizes(const tp_site *site, int nnodes,
		      int (*index)(const void *, const char *),
		      const void *arg, sim_res *r, tp_error *err)
{
	bool *seen = calloc((size_t)nnodes, sizeof(*seen));
	if (!seen || !(r->nodes = calloc((size_t)nnodes, sizeof(*r->nodes)))) {
		free(seen);
		return tp_errorf(err, "out of memory");
	}
	for (size_t i = 0; i < site->nnodes; i++) {
		const tp_site_node *n = &site->nodes[i];
		int x = index(arg, n->name);
		if (x < 0 || x >= nnodes)
			continue;
		r->nodes[x] = (tp_res_node){ .cpus = n->cpus, .gpus = n->gpus,
					     .mem = n->mem_mb };
		seen[x] = true;
	}
	int missing = -1;
	for (int x = 0; x < nnodes && missing < 0; x++)
		if (!seen[x])
			missing = x;
	free(seen);
	if (missing >= 0)
		return tp_errorf(err, "%s: node %d of the machine has no NodeName line: its CPUs, memory and GPUs are unknown (use --whole-nodes)",
				 site->path, missing);
	return 0;
}

/* The site's partition of a job's Partition field (its first that
 * slurm.conf has), or NULL. */
static const tp_site_part *part_of(const tp_site *site, const tp_sacct *s,
				   int32_t pi)
{
	if (pi < 0)
		return NULL;
	const char *f = s->names[pi];
	for (const char *p = f; *p;) {
		size_t len = strcspn(p, ",");
		for (size_t k = 0; k < site->nparts; k++)
			if (strlen(site->parts[k].name) == len &&
			    !strncmp(site->parts[k].name, p, len))
				return &site->parts[k];
		p += len + (p[len] == ',');
	}
	return NULL;
}

static int64_t per_node(int64_t total, int32_t nodes)
{
	return (total + nodes - 1) / nodes;
}

/* The largest node of a partition, each resource on its own (NULL
 * partition: of the site). */
static tp_res_node largest(const tp_site *site, const tp_site_part *p)
{
	tp_res_node m = { 0 };
	size_t n = p ? p->nnodes : site->nnodes;
	for (size_t i = 0; i < n; i++) {
		const tp_site_node *x = &site->nodes[p ? p->nodes[i] : (int)i];
		if (x->cpus > m.cpus)
			m.cpus = x->cpus;
		if (x->gpus > m.gpus)
			m.gpus = x->gpus;
		if (x->mem_mb > m.mem)
			m.mem = x->mem_mb;
	}
	return m;
}

/* Job i's ask of each of its nodes (site_res.h). */
static tp_res_ask job_ask(const tp_site *site, const tp_sacct *s, size_t i,
			  int32_t nodes, sim_res *r)
{
	const tp_sacct_res *q = &s->runs[i].res;
	const tp_site_part *p = part_of(site, s, q->partition);
	tp_res_ask a = { .cpus = 1, .whole = true };
	int64_t cpus = q->alloc_cpus > 0 ? q->alloc_cpus : q->req_cpus;
	if (p && p->oversub == TP_OVERSUB_EXCLUSIVE)
		return a;
	if (cpus <= 0) {
		r->no_cpus++;
		return a;
	}
	a.whole = false;
	a.cpus = (int32_t)per_node(cpus, nodes);
	if (r->mem && q->req_mem > 0)
		a.mem = q->mem_per == TP_SACCT_MEM_NODE ? q->req_mem :
			q->mem_per == TP_SACCT_MEM_CPU ? q->req_mem * a.cpus :
			per_node(q->req_mem, nodes);
	int64_t gpus = q->alloc_gpus > 0 ? q->alloc_gpus : q->req_gpus;
	if (gpus > 0)
		a.gpus = (int32_t)per_node(gpus, nodes);
	if (p && p->oversub == TP_OVERSUB_FORCE && p->oversub_count > 1) {
		a.cpus = (int32_t)per_node(a.cpus, p->oversub_count);
		r->forced++;
	}
	r->yes += p && p->oversub == TP_OVERSUB_YES;
	tp_res_node m = largest(site, p);
	if ((a.cpus > m.cpus || a.mem > m.mem || a.gpus > m.gpus) &&
	    !r->too_big++)
		r->first_too_big = s->runs[i].line;
	return a;
}

int sim_res_build(const sim_config *c, const sim_site *st, const tp_sacct *s,
		  tp_workload *w, int nnodes,
		  int (*index)(const void *arg, const char *name),
		  const void *arg, sim_res *r, tp_error *err)
{
	memset(r, 0, sizeof(*r));
	if (c->whole_nodes || !st->have_site || !w->njobs)
		return 0;
	const tp_site *site = &st->site;
	r->mem = mem_consumable(site);
	if (!(r->asks = calloc(w->njobs, sizeof(*r->asks))))
		return tp_errorf(err, "out of memory");
	bool shares = false;
	for (size_t i = 0; i < w->njobs; i++) {
		r->asks[i] = job_ask(site, s, i, w->jobs[i].nodes, r);
		r->whole += r->asks[i].whole;
		shares = shares || !r->asks[i].whole;
	}
	if (!shares)
		return 0; /* whole nodes only: the replay as before */
	if (node_sizes(site, nnodes, index, arg, r, err))
		return -1;
	for (size_t i = 0; i < w->njobs; i++)
		w->jobs[i].ask = &r->asks[i];
	w->node_res = r->nodes;
	r->on = true;
	return 0;
}

void sim_res_say(const sim_config *c, const sim_res *r)
{
	if (!r->on)
		return;
	if (!c->quiet)
		fprintf(stderr, "toposim: resources inside nodes: CPUs%s and GPUs per node from %s, %zu job(s) of whole nodes, the others sharing nodes by what they were allocated%s\n",
			r->mem ? ", memory" : "", c->slurm_conf, r->whole,
			r->forced ? " (OverSubscribe=FORCE:K: 1/K of their CPUs)" : "");
	if (r->yes)
		fprintf(stderr, "toposim: warning: %s: %zu job(s) of partitions with OverSubscribe=YES: whether they asked --oversubscribe is not in sacct, so their CPUs are not shared (as under OverSubscribe=NO)\n",
			c->sacct, r->yes);
	if (r->no_cpus)
		fprintf(stderr, "toposim: warning: %s: %zu job(s) without a CPU count (AllocTRES, NCPUS, ReqCPUS): given whole nodes\n",
			c->sacct, r->no_cpus);
	if (r->too_big)
		fprintf(stderr, "toposim: warning: %s: %zu job(s) ask more CPUs, memory or GPUs of a node than any node of their partition has (first: line %zu): never placed, counted as rejected\n",
			c->sacct, r->too_big, r->first_too_big);
}

void sim_res_fini(sim_res *r)
{
	free(r->nodes);
	free(r->asks);
	memset(r, 0, sizeof(*r));
}
