/*
 * ft_jobtest.c - select/fattree's job_test; see ft_jobtest.h.
 *
 * The three modes slurmctld uses, and what the tree allocator answers:
 *   RUN_NOW    place on the candidate nodes that are free now;
 *   TEST_ONLY  place on all candidate nodes (could it ever run?);
 *   WILL_RUN   place on the free candidates, else after the running jobs
 *              holding candidates end (in order of their end times), so
 *              sched/backfill plans the job on the tree's choice.
 * The chosen nodes become the only candidates select/linear sees; linear
 * then checks CPUs/memory, records the usage and (WILL_RUN) the start time.
 *
 * When the allocator finds no placement on the candidates, the answer is
 * "no" (the job waits, or backfill tries a later time slot), so no other
 * node choice slips in.
 *
 * Jobs the tree allocator does not decide go to select/linear unchanged,
 * with a log line saying why: required nodes (--nodelist), --contiguous,
 * --switches, node sharing, zero-node jobs; jobs the allocator cannot place
 * even when every node they may use is free (so they never starve);
 * RUN_NOW/WILL_RUN without a placement when preemption candidates exist;
 * and placements linear refuses (e.g. CPU or memory constraints).
 */
#include "ft_jobtest.h"

#include <time.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/select.h"
#include "src/common/slurm_protocol_defs.h"
#include "src/common/xmalloc.h"

#include "tpl_plan.h"

static const char plugin_tag[] = "select/fattree";

static const char *mode_name(uint16_t mode)
{
	switch (mode & SELECT_MODE_BASE) {
	case SELECT_MODE_RUN_NOW:
		return "RUN_NOW";
	case SELECT_MODE_TEST_ONLY:
		return "TEST_ONLY";
	case SELECT_MODE_WILL_RUN:
		return "WILL_RUN";
	}
	return "other";
}

static int linear_test(ft_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
		       uint32_t min_nodes, uint32_t max_nodes,
		       uint32_t req_nodes, uint16_t mode, List preemptees,
		       List *preemptee_job_list, bitstr_t *exc_core_bitmap)
{
	return c->linear->ops.job_test(job_ptr, bitmap, min_nodes, max_nodes,
				       req_nodes, mode, preemptees,
				       preemptee_job_list, exc_core_bitmap);
}

/* Why the tree allocator does not decide this job, or NULL. */
static const char *linear_only_reason(job_record_t *job_ptr,
				      uint32_t min_nodes)
{
	struct job_details *d = job_ptr->details;

	if (!d || min_nodes == 0)
		return "no compute nodes requested";
	if (d->req_node_bitmap && bit_set_count(d->req_node_bitmap) > 0)
		return "required nodes (--nodelist)";
	if (d->contiguous)
		return "contiguous nodes (--contiguous)";
	if (job_ptr->req_switch)
		return "a switch count (--switches)";
	if (d->share_res && job_ptr->part_ptr &&
	    (job_ptr->part_ptr->max_share & ~SHARED_FORCE) > 1)
		return "node sharing (OverSubscribe)";
	return NULL;
}

/*
 * Node counts to try, [lo, hi]: the requested count first (Slurm's
 * req_nodes, which is max_nodes when the job gave a range), down to
 * min_nodes; lo is raised to what min_cpus needs on the largest candidate
 * nodes, so a task-count job without -N gets enough nodes.
 */
static void node_count_range(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, int *lo, int *hi)
{
	int64_t l = min_nodes, h = MAX(req_nodes, min_nodes);
	uint32_t min_cpus = job_ptr->details->min_cpus;
	int max_cpus = 0;

	if (max_nodes && h > max_nodes)
		h = max_nodes;
	for (int i = 0; i < node_record_count && min_cpus > 1; i++) {
		node_record_t *n = node_record_table_ptr[i];
		if (n && bit_test(bitmap, i) && n->cpus > max_cpus)
			max_cpus = n->cpus;
	}
	if (max_cpus > 0 && min_cpus > 1) {
		int64_t need = ((int64_t)min_cpus + max_cpus - 1) / max_cpus;
		if (need > l)
			l = need;
	}
	if (h < l)
		h = l;
	*lo = (int)MIN(l, INT32_MAX);
	*hi = (int)MIN(h, INT32_MAX);
}

static bool node_busy(const node_record_t *n)
{
	return !n || n->run_job_cnt || n->comp_job_cnt || n->sus_job_cnt;
}

/* Keep in `s` only the nodes no job holds now. */
static void drop_busy(ft_ctx *c, tp_nodeset *s)
{
	for (int j = tp_nodeset_next(s, 0); j >= 0; j = tp_nodeset_next(s, j + 1)) {
		int i = c->map->to_slurm[j];
		if (i < 0 || i >= node_record_count ||
		    node_busy(node_record_table_ptr[i]))
			tp_nodeset_clear(s, j);
	}
}

/*
 * Nodes the job could use if every job ended: the candidates plus the
 * busy nodes of its partition that are not down, drained or failed,
 * within its reservation and not excluded.  (Node features are not
 * re-checked: an approximation that only decides wait vs. fall back.)
 */
static void ever_usable(ft_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
			tp_nodeset *out)
{
	bitstr_t *b = bit_copy(bitmap);
	part_record_t *part = job_ptr->part_ptr;

	if (part && part->node_bitmap) {
		bitstr_t *p = bit_copy(part->node_bitmap);
		for (int i = 0; i < node_record_count; i++) {
			node_record_t *n = node_record_table_ptr[i];
			if (!bit_test(p, i))
				continue;
			if (!n || IS_NODE_DOWN(n) || IS_NODE_DRAIN(n) ||
			    IS_NODE_FAIL(n) || IS_NODE_FUTURE(n))
				bit_clear(p, i);
		}
		if (job_ptr->resv_ptr && job_ptr->resv_ptr->node_bitmap)
			bit_and(p, job_ptr->resv_ptr->node_bitmap);
		if (job_ptr->details->exc_node_bitmap)
			bit_and_not(p, job_ptr->details->exc_node_bitmap);
		bit_or(b, p);
		FREE_NULL_BITMAP(p);
	}
	tpl_bits_to_set(c->map, b, out);
	FREE_NULL_BITMAP(b);
}

/* Running jobs' candidate nodes with their end times (WILL_RUN). */
static size_t collect_releases(ft_ctx *c, const tp_nodeset *usable,
			       tpl_release **out)
{
	tpl_release *rel = NULL;
	size_t n = 0, cap = 0;
	time_t now = time(NULL);
	job_record_t *j;

	*out = NULL;
	if (!c->job_list || !*c->job_list)
		return 0;
	ListIterator it = list_iterator_create(*c->job_list);
	while ((j = list_next(it))) {
		bool running = IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j);
		if ((!running && !IS_JOB_COMPLETING(j)) || !j->node_bitmap)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			xrealloc(rel, cap * sizeof(*rel));
		}
		if (tp_nodeset_init(&rel[n].nodes, c->map->ntopo))
			break;
		tpl_bits_to_set(c->map, j->node_bitmap, &rel[n].nodes);
		tp_nodeset_and(&rel[n].nodes, usable);
		if (!tp_nodeset_count(&rel[n].nodes)) {
			tp_nodeset_fini(&rel[n].nodes);
			continue;
		}
		/* Overrunning and completing jobs: any moment now. */
		rel[n].time = (running && j->end_time > now) ? j->end_time : now;
		n++;
	}
	list_iterator_destroy(it);
	*out = rel;
	return n;
}

static void free_releases(tpl_release *rel, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tp_nodeset_fini(&rel[i].nodes);
	xfree(rel);
}

static void log_placement(ft_ctx *c, job_record_t *job_ptr, uint16_t mode,
			  bitstr_t *bitmap, int64_t when, const char *range)
{
	tp_nodeset got;
	if (tp_nodeset_init(&got, c->map->ntopo))
		return;
	tpl_bits_to_set(c->map, bitmap, &got);
	double hops = tp_alloc_cost(c->st->alloc, &got);
	if (hops < 0) /* allocator without a metric: the tree's own */
		hops = (double)tp_fattree_hop_sum(c->st->tree, &got);
	int units = ft_state_units(c->st, &got);
	int nodes = tp_nodeset_count(&got);
	char *names = bitmap2node_name(bitmap);
	char start[40] = "";
	if ((mode & SELECT_MODE_BASE) == SELECT_MODE_WILL_RUN)
		snprintf(start, sizeof(start), " start=%ld",
			 (long)job_ptr->start_time);

	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		log_flag(SELECT_TYPE, "%s: %pJ %s: nodes=%d (of %s) units=%d hop_sum=%.0f NodeList=%s allocator=%s%s%s",
			 plugin_tag, job_ptr, mode_name(mode), nodes, range,
			 units, hops, names, c->st->cfg.allocator,
			 when > 0 ? " after-releases" : "", start);
	else if ((mode & SELECT_MODE_BASE) == SELECT_MODE_RUN_NOW)
		debug("%s: %pJ %s: nodes=%d units=%d hop_sum=%.0f NodeList=%s",
		      plugin_tag, job_ptr, mode_name(mode), nodes, units, hops,
		      names);
	else
		debug2("%s: %pJ %s: nodes=%d units=%d hop_sum=%.0f NodeList=%s%s",
		       plugin_tag, job_ptr, mode_name(mode), nodes, units,
		       hops, names, start);
	xfree(names);
	tp_nodeset_fini(&got);
}

static void log_linear(job_record_t *job_ptr, uint16_t mode, const char *why)
{
	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		log_flag(SELECT_TYPE, "%s: %pJ %s: %s: select/linear chooses",
			 plugin_tag, job_ptr, mode_name(mode), why);
	else
		debug2("%s: %pJ %s: %s: select/linear chooses", plugin_tag,
		       job_ptr, mode_name(mode), why);
}

/*
 * No tree placement on the candidates: NULL means "not on these nodes"
 * (RUN_NOW: the job waits; TEST_ONLY: slurmctld goes on to ask about all
 * nodes; WILL_RUN: sched/backfill tries its next time slot), otherwise
 * the reason select/linear decides instead.
 */
static const char *fallback_reason(ft_ctx *c, job_record_t *job_ptr,
				   bitstr_t *bitmap, int lo, int hi,
				   uint16_t mode, List preemptees)
{
	const char *why = NULL;
	tp_nodeset ever, tmp;

	if ((mode & SELECT_MODE_BASE) != SELECT_MODE_TEST_ONLY &&
	    preemptees && list_count(preemptees) > 0)
		return "no free placement and preemption candidates exist";
	if (tp_nodeset_init(&ever, c->map->ntopo))
		return "out of memory";
	if (tp_nodeset_init(&tmp, c->map->ntopo)) {
		tp_nodeset_fini(&ever);
		return "out of memory";
	}
	ever_usable(c, job_ptr, bitmap, &ever);
	if (tpl_place_range(c->st->alloc, &ever, lo, hi, &tmp) < 0)
		why = "the tree allocator cannot place it even on all its usable nodes";
	tp_nodeset_fini(&tmp);
	tp_nodeset_fini(&ever);
	return why;
}

/*
 * Hand linear exactly `chosen` (k nodes) as the job's node count, min and
 * max alike: with topology/tree, linear would otherwise keep only the
 * min_nodes of a range that fit under one switch.  If linear refuses,
 * its own choice on the original candidates and counts.
 */
static int narrowed_test(ft_ctx *c, const tp_nodeset *chosen, int k,
			 int64_t when, const char *range,
			 job_record_t *job_ptr, bitstr_t *bitmap,
			 uint32_t min_nodes, uint32_t max_nodes,
			 uint32_t req_nodes, uint16_t mode, List preemptees,
			 List *preemptee_job_list, bitstr_t *exc_core_bitmap)
{
	bitstr_t *orig = bit_copy(bitmap);
	int rc;

	tpl_set_to_bits(c->map, chosen, bitmap);
	rc = linear_test(c, job_ptr, bitmap, k, k, k, mode, preemptees,
			 preemptee_job_list, exc_core_bitmap);
	if (rc == SLURM_SUCCESS) {
		log_placement(c, job_ptr, mode, bitmap, when, range);
	} else {
		bit_copybits(bitmap, orig);
		log_linear(job_ptr, mode,
			   "select/linear refused the tree placement (CPU, memory or node limits)");
		rc = linear_test(c, job_ptr, bitmap, min_nodes, max_nodes,
				 req_nodes, mode, preemptees,
				 preemptee_job_list, exc_core_bitmap);
	}
	FREE_NULL_BITMAP(orig);
	return rc;
}

int ft_job_test(ft_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
		uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes,
		uint16_t mode, List preemptees, List *preemptee_job_list,
		bitstr_t *exc_core_bitmap)
{
	const char *why = linear_only_reason(job_ptr, min_nodes);
	tp_nodeset usable, chosen;
	int lo, hi, k, rc;
	int64_t when = 0;

	if (!why && (mode & SELECT_MODE_BASE) != SELECT_MODE_RUN_NOW &&
	    (mode & SELECT_MODE_BASE) != SELECT_MODE_TEST_ONLY &&
	    (mode & SELECT_MODE_BASE) != SELECT_MODE_WILL_RUN)
		why = "a mode the tree allocator does not answer";
	if (!why && c->map->nslurm != node_record_count)
		why = "node table changed since the tree map was built";
	if (!why && tp_nodeset_init(&usable, c->map->ntopo))
		why = "out of memory";
	if (!why && tp_nodeset_init(&chosen, c->map->ntopo)) {
		tp_nodeset_fini(&usable);
		why = "out of memory";
	}
	if (why) {
		log_linear(job_ptr, mode, why);
		return linear_test(c, job_ptr, bitmap, min_nodes, max_nodes,
				   req_nodes, mode, preemptees,
				   preemptee_job_list, exc_core_bitmap);
	}

	tpl_bits_to_set(c->map, bitmap, &usable);
	node_count_range(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			 &lo, &hi);

	switch (mode & SELECT_MODE_BASE) {
	case SELECT_MODE_TEST_ONLY:
		k = tpl_place_range(c->st->alloc, &usable, lo, hi, &chosen);
		break;
	case SELECT_MODE_RUN_NOW:
		drop_busy(c, &usable);
		k = tpl_place_range(c->st->alloc, &usable, lo, hi, &chosen);
		break;
	case SELECT_MODE_WILL_RUN: {
		tpl_release *rel;
		size_t nrel = collect_releases(c, &usable, &rel);
		drop_busy(c, &usable);
		k = tpl_place_earliest(c->st->alloc, &usable, rel, nrel, lo,
				       hi, &chosen, &when);
		free_releases(rel, nrel);
		break;
	}
	default: /* excluded above */
		k = -1;
	}

	if (k >= 0) {
		char range[64];
		snprintf(range, sizeof(range), "%d-%d, min/req/max %u/%u/%u",
			 lo, hi, min_nodes, req_nodes, max_nodes);
		rc = narrowed_test(c, &chosen, k, when, range, job_ptr, bitmap,
				   min_nodes, max_nodes, req_nodes, mode,
				   preemptees, preemptee_job_list,
				   exc_core_bitmap);
	} else if (!(why = fallback_reason(c, job_ptr, bitmap, lo, hi, mode,
					   preemptees))) {
		/* A tree placement exists once nodes free up: not here. */
		debug3("%s: %pJ %s: no placement of %d-%d nodes on these nodes",
		       plugin_tag, job_ptr, mode_name(mode), lo, hi);
		rc = EINVAL;
	} else {
		log_linear(job_ptr, mode, why);
		rc = linear_test(c, job_ptr, bitmap, min_nodes, max_nodes,
				 req_nodes, mode, preemptees,
				 preemptee_job_list, exc_core_bitmap);
	}
	tp_nodeset_fini(&chosen);
	tp_nodeset_fini(&usable);
	return rc;
}
