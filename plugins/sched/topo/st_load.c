/* st_load.c - nodes' loads from slurmctld's tables; see st_load.h. */
#include "st_load.h"

#include <stdlib.h>

#include "src/common/job_resources.h"
#include "tpl_compat.h"
#include "tpl_nodetable.h"

/* Node i's size, as cons_tres counts it. */
static tp_res_node size_of(const node_record_t *n)
{
	return (tp_res_node){ .cpus = n->cpus > 0 ? n->cpus : 1,
			      .mem = (int64_t)n->real_memory };
}

/* Every node's size over the topology: usable nodes their own, others
 * one CPU (taken below, so that nothing fits there). */
static tp_res_node *sizes(const tpl_nodemap *m, bitstr_t *usable)
{
	tp_res_node *t = calloc((size_t)m->ntopo, sizeof(*t));
	for (int x = 0; t && x < m->ntopo; x++) {
		int i = m->to_slurm[x];
		const node_record_t *n = i >= 0 ? node_record_table_ptr[i] : NULL;
		t[x] = n && bit_test(usable, i) ? size_of(n) :
		       (tp_res_node){ .cpus = 1 };
	}
	return t;
}

/* A running or completing job's share of each of its nodes. */
static void take_job(st_view *v, const tpl_nodemap *m, const job_record_t *j)
{
	const job_resources_t *r = j->job_resrcs;
	if (!r || !r->node_bitmap || !r->cpus)
		return;
	/* job_resources number the job's nodes 0..nhosts-1 in node order */
	int host = 0, last = bit_fls(r->node_bitmap);
	for (int i = bit_ffs(r->node_bitmap); i >= 0 && i <= last &&
	     host < (int)r->nhosts; i++) {
		if (!bit_test(r->node_bitmap, i))
			continue;
		int x = i < m->nslurm ? m->to_topo[i] : -1;
		tp_res_node a = { .cpus = r->cpus[host],
				  .mem = r->memory_allocated ?
					 (int64_t)r->memory_allocated[host] : 0 };
		if (x >= 0)
			st_view_res_take(v, x, &a);
		host++;
	}
}

int st_load_attach(st_ctx *x, bitstr_t *usable)
{
	const tpl_nodemap *m = &x->topo.map;
	tp_res_node *t = sizes(m, usable);
	if (!t || st_view_attach_res(&x->view, t)) {
		free(t);
		return -1;
	}
	free(t);
	for (int xi = 0; xi < m->ntopo; xi++) {
		int i = m->to_slurm[xi];
		if (i < 0 || !bit_test(usable, i))
			st_view_res_take(&x->view, xi, &(tp_res_node){ .cpus = 1 });
	}
	tpl_list_iter_t it = list_iterator_create(job_list);
	job_record_t *j;
	while ((j = list_next(it)))
		if (IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j) ||
		    IS_JOB_COMPLETING(j))
			take_job(&x->view, m, j);
	list_iterator_destroy(it);
	st_view_res_done(&x->view);
	return 0;
}

void st_load_ask(const part_record_t *part, const job_record_t *j,
		 int32_t nodes, tp_res_ask *ask)
{
	const tpl_details_t *d = j->details;
	uint32_t n = nodes > 0 ? (uint32_t)nodes : 1;
	uint32_t cpus = d && d->min_cpus ? (d->min_cpus + n - 1) / n : 1;
	uint64_t per_cpu = tpl_job_mem_per_cpu(j);
	uint64_t mem = d ? d->pn_min_memory : 0;
	*ask = (tp_res_ask){ .cpus = (int32_t)cpus };
	if (per_cpu)
		ask->mem = (int64_t)(per_cpu * cpus);
	else if (mem != NO_VAL64 && !(mem & MEM_PER_CPU))
		ask->mem = (int64_t)mem;
	ask->whole = (d && d->whole_node == 1) || (part && part->max_share == 0);
}

int64_t st_load_cpus(bitstr_t *usable)
{
	int64_t sum = 0;
	int last = bit_fls(usable);
	for (int i = bit_ffs(usable); i >= 0 && i <= last; i++)
		if (bit_test(usable, i) && node_record_table_ptr[i])
			sum += node_record_table_ptr[i]->cpus;
	return sum;
}
