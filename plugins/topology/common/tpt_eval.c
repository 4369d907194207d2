/* tpt_eval.c - the node choice of our topology plugins inside cons_tres
 * (every release); see tpt_eval.h. */
#include "tpt_eval.h"

#include <time.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"

#include "alloc/place.h"
#include "driver/admit.h"
#include "driver/switches.h"
#include "tpl_nodetable.h"

/* A job that shares its node and fits on one: Slurm's best fit packs it
 * onto partly used nodes, which keeps whole nodes and units free. */
static bool packs_onto_one_node(const topology_eval_t *e, int hi)
{
	job_record_t *j = e->job_ptr;
	bool whole = (j->details->whole_node & WHOLE_NODE_REQUIRED) ||
		     (j->part_ptr && j->part_ptr->max_share == 0);
	return !whole && hi <= 1 && !j->details->contiguous;
}

/* CPUs Slurm can give the job on `chosen` (Slurm node indices). */
static uint64_t cpus_on(const topology_eval_t *e, bitstr_t *chosen)
{
	uint64_t cpus = 0;
	for (int i = 0; next_node_bitmap(chosen, &i); i++)
		if (e->avail_res_array[i])
			cpus += e->avail_res_array[i]->avail_cpus;
	return cpus;
}

/* slurmctld's idle nodes (the one in Slurm's topology-common code,
 * compiled into this plugin, stands in for it elsewhere). */
extern bitstr_t *idle_node_bitmap;

typedef struct placing {
	tpt_state *st;
	const tpt_ops *ops;
	topology_eval_t *e;
	tp_nodeset usable, chosen, required, idle;
	tp_alloc_req proto;
	int lo, hi, cap;
} placing;

/* Place [lo, hi] nodes; when the chosen nodes lack the CPUs the job asks
 * for (partly used nodes), one node more, up to the cap.  Node count or
 * -1. */
static int place(placing *p, bitstr_t *bits)
{
	tpt_state *st = p->st;
	int lo = p->lo, hi = p->hi;
	for (;;) {
		int k = tp_place_range(st->topo.alloc, &p->usable, lo, hi,
				       &p->proto, &p->chosen);
		if (k < 0)
			return -1;
		tpl_set_to_bits(&st->map, &p->chosen, bits);
		if (cpus_on(p->e, bits) >= p->e->job_ptr->details->min_cpus ||
		    k >= p->cap)
			return k;
		lo = hi = k + 1;
	}
}

/*
 * --switches=N[@wait] on a machine with node groups: at most N groups
 * while the wait lasts (best_switch true when that held), then any.
 */
static int place_switches(placing *p, bitstr_t *bits)
{
	job_record_t *j = p->e->job_ptr;
	time_t now = time(NULL);
	bool asks = p->ops->switches && j->req_switch && p->st->topo.groups;
	if (asks && !j->wait4switch_start)
		j->wait4switch_start = now;
	int limit = asks ? tp_switch_limit((int64_t)j->req_switch,
					   (int64_t)j->wait4switch,
					   (int64_t)j->wait4switch_start,
					   (int64_t)now, true) : 0;
	if (!limit) {
		if (asks)
			j->best_switch = true; /* the wait is over */
		return place(p, bits);
	}
	p->proto.max_groups = limit;
	int k = place(p, bits);
	p->proto.max_groups = 0;
	if (k >= 0) {
		j->best_switch = true;
		return k;
	}
	k = place(p, bits);
	j->best_switch = false; /* cons_tres: not now; tried again later */
	return k;
}

static void log_choice(placing *p, bitstr_t *bits, int requested)
{
	const tpt_state *st = p->st;
	const tpt_ops *ops = p->ops;
	char desc[256] = "";
	ops->describe(&st->topo, st->topo.alloc, &p->chosen, requested, desc,
		      sizeof(desc));
	char *names = bitmap2node_name(bits);
	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		log_flag(SELECT_TYPE, "%s: %pJ: nodes=%d (of %d-%d, min/req/max %u/%u/%u) %s NodeList=%s allocator=%s%s",
			 ops->plugin_type, p->e->job_ptr,
			 tp_nodeset_count(&p->chosen), p->lo, p->hi,
			 p->e->min_nodes, p->e->req_nodes, p->e->max_nodes,
			 desc, names, st->topo.alloc_name,
			 p->e->job_ptr->best_switch ? "" : " (switch count not met)");
	else
		debug2("%s: %pJ: nodes=%d %s NodeList=%s", ops->plugin_type,
		       p->e->job_ptr, tp_nodeset_count(&p->chosen), desc,
		       names);
	xfree(names);
}

/* Several fabrics and a job of more than one node that none of them
 * holds on `s`: Slurm's topology/tree never joins fabrics, so neither
 * does Slurm's own choice standing in for the allocator. */
static bool no_fabric_holds(const placing *p, const tp_nodeset *s)
{
	const tp_topo *t = &p->st->topo;
	return tp_topo_nfabric(t) > 1 && p->hi > 1 &&
	       tp_topo_fabric_for(t, s, p->lo, p->proto.required) < 0;
}

/* No placement on these nodes: wait, or (not strict, never placeable
 * on any node the job may use) Slurm's own choice. */
static tpt_choice no_placement(placing *p)
{
	if (p->ops->strict)
		return TPT_WAIT;
	tp_nodeset ever;
	tpt_choice c = TPT_WAIT;
	if (tp_nodeset_init(&ever, p->st->map.ntopo))
		return TPT_SLURM;
	tpl_ever_usable(&p->st->map, p->e->job_ptr, p->e->node_map, &ever);
	if (!tp_driver_admit_range(p->st->topo.alloc, &ever, p->lo, p->hi,
				   &p->proto, &p->chosen)) {
		c = no_fabric_holds(p, &ever) ? TPT_NO_FABRIC : TPT_SLURM;
		debug2("%s: %pJ: the allocator cannot place it even on all its usable nodes: %s",
		       p->ops->plugin_type, p->e->job_ptr,
		       c == TPT_NO_FABRIC ? "no fabric holds it, it waits (as under topology/tree)"
				     : "Slurm chooses");
	}
	tp_nodeset_fini(&ever);
	return c;
}

/* A question about a later start (WILL_RUN: node_map holds nodes busy
 * now that free by then): the nodes idle now are the ones jobs could
 * start on at once, which a reservation should leave them where its
 * cost allows (tp_alloc_req.keep_free). */
static void keep_idle(placing *p)
{
	if (!idle_node_bitmap || bit_size(idle_node_bitmap) != bit_size(p->e->node_map))
		return;
	bitstr_t *idle = bit_copy(p->e->node_map);
	bit_and(idle, idle_node_bitmap);
	if (bit_set_count(idle) < bit_set_count(p->e->node_map)) {
		tpl_bits_to_set(&p->st->map, idle, &p->idle);
		p->proto.keep_free = &p->idle;
	}
	FREE_NULL_BITMAP(idle);
}

static tpt_choice decide(placing *p)
{
	topology_eval_t *e = p->e;
	job_record_t *j = e->job_ptr;
	bitstr_t *bits = bit_alloc(bit_size(e->node_map));
	tpt_choice c;
	int k;

	tpl_bits_to_set(&p->st->map, e->node_map, &p->usable);
	if (j->details->req_node_bitmap &&
	    bit_set_count(j->details->req_node_bitmap)) {
		tpl_bits_to_set(&p->st->map, j->details->req_node_bitmap,
				&p->required);
		p->proto.required = &p->required;
	}
	p->proto.contiguous = j->details->contiguous;
	p->proto.max_nodes = p->cap;
	keep_idle(p);
	k = place_switches(p, bits);
	if (k < 0) {
		c = no_placement(p);
	} else if ((uint32_t)tp_nodeset_count(&p->chosen) > e->max_nodes) {
		/* transit nodes beyond the job's maximum */
		c = p->ops->strict ? TPT_WAIT : TPT_SLURM;
	} else {
		bit_and(e->node_map, bits);
		log_choice(p, bits, k);
		c = TPT_CHOSEN;
	}
	FREE_NULL_BITMAP(bits);
	return c;
}

/* Slurm's own choice stands in for the allocator's: on node_map less the
 * nodes outside the topology that the release's rule keeps from this job
 * (TPL_OUTSIDE_RULE: Slurm's topology/tree would not give it one), and
 * on several fabrics less every fabric but the one with the most usable
 * nodes (none holds the job: it waits). */
static tpt_choice slurm_chooses(placing *p)
{
	tp_alloc_req req = { .nodes = p->lo,
			     .max_nodes = (int)MIN(p->e->max_nodes, INT32_MAX) };
	tpl_keep_usable(&p->st->map, &p->st->topo, &req, p->e->node_map);
	/* and within one fabric, as topology/tree */
	if (tpl_keep_one_fabric(&p->st->map, &p->st->topo, p->lo, p->hi,
				p->e->job_ptr->details->req_node_bitmap,
				p->e->node_map))
		return TPT_NO_FABRIC;
	return TPT_SLURM;
}

tpt_choice tpt_eval_choose(tpt_state *st, const tpt_ops *ops,
			   topology_eval_t *e)
{
	placing p = { .st = st, .ops = ops, .e = e };
	tpt_choice c;

	if (!st || !st->loaded || st->map.nslurm != node_record_count ||
	    !e->job_ptr->details)
		return TPT_SLURM;
	tpl_job_node_range(e->job_ptr, e->min_nodes, e->max_nodes,
			   e->req_nodes, &p.lo, &p.hi);
	if (p.lo < 1)
		return TPT_SLURM;
	if (packs_onto_one_node(e, p.hi))
		return slurm_chooses(&p);
	int usable = bit_set_count(e->node_map);
	p.cap = (int)MIN(MIN((uint64_t)e->max_nodes, (uint64_t)usable),
			 INT32_MAX);
	if (p.hi > p.cap)
		p.hi = p.cap;
	if (p.lo > p.hi)
		return TPT_WAIT;
	if (tp_nodeset_init(&p.usable, st->map.ntopo))
		return slurm_chooses(&p);
	if (tp_nodeset_init(&p.chosen, st->map.ntopo) ||
	    tp_nodeset_init(&p.required, st->map.ntopo) ||
	    tp_nodeset_init(&p.idle, st->map.ntopo)) {
		tp_nodeset_fini(&p.usable);
		tp_nodeset_fini(&p.chosen);
		tp_nodeset_fini(&p.required);
		return slurm_chooses(&p);
	}
	c = decide(&p);
	tp_nodeset_fini(&p.usable);
	tp_nodeset_fini(&p.chosen);
	tp_nodeset_fini(&p.required);
	tp_nodeset_fini(&p.idle);
	return c == TPT_SLURM ? slurm_chooses(&p) : c;
}
