/*
 * tps_jobtest.c - a topology select plugin's job_test; see tps_jobtest.h.
 *
 * When the allocator finds no placement on the candidates, the answer is
 * "no" (the job waits, or backfill tries a later time slot), so no other
 * node choice slips in.
 *
 * Jobs the allocator does not decide go to select/linear unchanged, with a
 * log line saying why: required nodes (--nodelist), --contiguous,
 * --switches, node sharing, zero-node jobs.  Unless the context is strict
 * also: jobs the allocator cannot place even when every node they may use
 * is free (so they never starve); RUN_NOW/WILL_RUN without a placement
 * when preemption candidates exist; and placements linear refuses (e.g.
 * CPU or memory constraints).  A strict allocator answers RUN_NOW with
 * preemption candidates itself: a placement on free and preemptable
 * nodes, whose preemptees select/linear names.
 */
#include "tps_jobtest.h"

#include <time.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/select.h"
#include "src/common/slurm_protocol_defs.h"
#include "src/common/xmalloc.h"

#include "alloc/place.h"
#include "driver/admit.h"
#include "model/job.h"
#include "tpl_nodetable.h"

const char *tps_mode_name(uint16_t mode)
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

static int linear_test(tps_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
		       uint32_t min_nodes, uint32_t max_nodes,
		       uint32_t req_nodes, uint16_t mode, List preemptees,
		       List *preemptee_job_list, bitstr_t *exc_core_bitmap)
{
	return c->linear->ops.job_test(job_ptr, bitmap, min_nodes, max_nodes,
				       req_nodes, mode, preemptees,
				       preemptee_job_list, exc_core_bitmap);
}

/* Why the allocator does not decide this job, or NULL. */
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

static bool node_busy(const node_record_t *n)
{
	return !n || n->run_job_cnt || n->comp_job_cnt || n->sus_job_cnt;
}

/* Keep in `s` only the nodes no job holds now. */
static void drop_busy(tps_ctx *c, tp_nodeset *s)
{
	for (int j = tp_nodeset_next(s, 0); j >= 0; j = tp_nodeset_next(s, j + 1)) {
		int i = c->map->to_slurm[j];
		if (i < 0 || i >= node_record_count ||
		    node_busy(node_record_table_ptr[i]))
			tp_nodeset_clear(s, j);
	}
}

/* Running jobs' candidate nodes with their end times (WILL_RUN). */
typedef struct releases {
	tp_release *rel;
	tp_nodeset *sets;  /* rel[i].nodes points at sets[i] */
	size_t n, cap;
} releases;

static int add_release(releases *r, int ntopo)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		xrealloc(r->rel, r->cap * sizeof(*r->rel));
		xrealloc(r->sets, r->cap * sizeof(*r->sets));
	}
	return tp_nodeset_init(&r->sets[r->n], ntopo);
}

static void collect_releases(tps_ctx *c, const tp_nodeset *usable,
			     time_t now, releases *r)
{
	job_record_t *j;

	*r = (releases){ 0 };
	if (!c->job_list || !*c->job_list)
		return;
	ListIterator it = list_iterator_create(*c->job_list);
	while ((j = list_next(it))) {
		bool running = IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j);
		if ((!running && !IS_JOB_COMPLETING(j)) || !j->node_bitmap)
			continue;
		if (add_release(r, c->map->ntopo))
			break;
		tp_nodeset *s = &r->sets[r->n];
		tpl_bits_to_set(c->map, j->node_bitmap, s);
		tp_nodeset_and(s, usable);
		if (!tp_nodeset_count(s)) {
			tp_nodeset_fini(s);
			continue;
		}
		/* Overrunning and completing jobs: any moment now. */
		r->rel[r->n].time = (running && j->end_time > now) ? j->end_time
								    : now;
		r->n++;
	}
	list_iterator_destroy(it);
	/* Pointers last: the arrays may have moved while growing. */
	for (size_t i = 0; i < r->n; i++)
		r->rel[i].nodes = &r->sets[i];
}

static void free_releases(releases *r)
{
	for (size_t i = 0; i < r->n; i++)
		tp_nodeset_fini(&r->sets[i]);
	xfree(r->rel);
	xfree(r->sets);
}

static void log_placement(tps_ctx *c, job_record_t *job_ptr, uint16_t mode,
			  bitstr_t *bitmap, int64_t when, int requested,
			  const char *range)
{
	tp_nodeset got;
	if (tp_nodeset_init(&got, c->map->ntopo))
		return;
	tpl_bits_to_set(c->map, bitmap, &got);
	char desc[256] = "";
	c->describe(c->topo, c->alloc, &got, requested, desc, sizeof(desc));
	int nodes = tp_nodeset_count(&got);
	char *names = bitmap2node_name(bitmap);
	char start[40] = "";
	if ((mode & SELECT_MODE_BASE) == SELECT_MODE_WILL_RUN)
		snprintf(start, sizeof(start), " start=%ld",
			 (long)job_ptr->start_time);

	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		log_flag(SELECT_TYPE, "%s: %pJ %s: nodes=%d (of %s) %s NodeList=%s allocator=%s%s%s",
			 c->plugin_type, job_ptr, tps_mode_name(mode), nodes,
			 range, desc, names, c->alloc_name,
			 when > 0 ? " after-releases" : "", start);
	else if ((mode & SELECT_MODE_BASE) == SELECT_MODE_RUN_NOW)
		debug("%s: %pJ %s: nodes=%d %s NodeList=%s", c->plugin_type,
		      job_ptr, tps_mode_name(mode), nodes, desc, names);
	else
		debug2("%s: %pJ %s: nodes=%d %s NodeList=%s%s",
		       c->plugin_type, job_ptr, tps_mode_name(mode), nodes,
		       desc, names, start);
	xfree(names);
	tp_nodeset_fini(&got);
}

static void log_linear(tps_ctx *c, job_record_t *job_ptr, uint16_t mode,
		       const char *why)
{
	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		log_flag(SELECT_TYPE, "%s: %pJ %s: %s: select/linear chooses",
			 c->plugin_type, job_ptr, tps_mode_name(mode), why);
	else
		debug2("%s: %pJ %s: %s: select/linear chooses",
		       c->plugin_type, job_ptr, tps_mode_name(mode), why);
}

/* select/linear's own choice, reported to the plugin when it succeeds.
 * slurm.conf's nodes outside the topology file stay out of it as the
 * release's rule says (TPL_OUTSIDE_RULE: 22.05's select/linear with
 * topology/tree never gives them to a job), whatever TopologyPlugin is;
 * so does every fabric but one (tpl_keep_one_fabric). */
static int linear_choice(tps_ctx *c, const char *why, job_record_t *job_ptr,
			 bitstr_t *bitmap, uint32_t min_nodes,
			 uint32_t max_nodes, uint32_t req_nodes,
			 uint16_t mode, List preemptees,
			 List *preemptee_job_list, bitstr_t *exc_core_bitmap)
{
	if (min_nodes && c->map->nslurm == node_record_count) {
		tpl_keep_usable(c->map, c->topo, &(tp_alloc_req){
			.nodes = (int)MIN(min_nodes, INT32_MAX),
			.max_nodes = (int)MIN(max_nodes, INT32_MAX) }, bitmap);
		/* one fabric, as select/linear with topology/tree keeps to,
		 * whatever TopologyPlugin is */
		if (tpl_keep_one_fabric(c->map, c->topo, (int)MIN(min_nodes, INT32_MAX),
					(int)MIN(max_nodes, INT32_MAX),
					job_ptr->details ? job_ptr->details->req_node_bitmap : NULL,
					bitmap)) {
			debug2("%s: %pJ %s: no fabric of the tree holds it: the job waits",
			       c->plugin_type, job_ptr, tps_mode_name(mode));
			return EINVAL;
		}
	}
	log_linear(c, job_ptr, mode, why);
	int rc = linear_test(c, job_ptr, bitmap, min_nodes, max_nodes,
			     req_nodes, mode, preemptees, preemptee_job_list,
			     exc_core_bitmap);
	if (rc == SLURM_SUCCESS && c->linear_chose)
		c->linear_chose(c, job_ptr, mode, bitmap);
	return rc;
}

/*
 * No placement on the candidates: NULL means "not on these nodes"
 * (RUN_NOW: the job waits; TEST_ONLY: slurmctld goes on to ask about all
 * nodes; WILL_RUN: sched/backfill tries its next time slot), otherwise
 * the reason select/linear decides instead (never when strict).
 */
static const char *fallback_reason(tps_ctx *c, job_record_t *job_ptr,
				   bitstr_t *bitmap, int lo, int hi,
				   int max_nodes, uint16_t mode,
				   List preemptees, char *buf, size_t len)
{
	const char *why = NULL;
	tp_nodeset ever, tmp;

	if (c->strict)
		return NULL;
	if ((mode & SELECT_MODE_BASE) != SELECT_MODE_TEST_ONLY &&
	    preemptees && list_count(preemptees) > 0)
		return "no free placement and preemption candidates exist";
	if (tp_nodeset_init(&ever, c->map->ntopo))
		return "out of memory";
	if (tp_nodeset_init(&tmp, c->map->ntopo)) {
		tp_nodeset_fini(&ever);
		return "out of memory";
	}
	tpl_ever_usable(c->map, job_ptr, bitmap, &ever);
	if (!tp_driver_admit_range(c->alloc, &ever, lo, hi,
				   &(tp_alloc_req){ .max_nodes = max_nodes },
				   &tmp)) {
		snprintf(buf, len, "the %s allocator cannot place it even on all its usable nodes",
			 c->kind);
		why = buf;
	}
	tp_nodeset_fini(&tmp);
	tp_nodeset_fini(&ever);
	return why;
}

/*
 * Hand linear exactly `chosen` (k nodes) as the job's node count, min and
 * max alike: with topology/tree, linear would otherwise keep only the
 * min_nodes of a range that fit under one switch.  If linear refuses,
 * its own choice on the original candidates and counts (strict: "no").
 */
static int narrowed_test(tps_ctx *c, const tp_nodeset *chosen, int k,
			 int requested, int64_t when, const char *range,
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
		log_placement(c, job_ptr, mode, bitmap, when, requested, range);
	} else if (c->strict) {
		bit_copybits(bitmap, orig);
		if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
			log_flag(SELECT_TYPE, "%s: %pJ %s: select/linear refused the %s placement (CPU, memory or node limits): the job waits",
				 c->plugin_type, job_ptr, tps_mode_name(mode),
				 c->kind);
		else
			debug2("%s: %pJ %s: select/linear refused the %s placement (CPU, memory or node limits): the job waits",
			       c->plugin_type, job_ptr, tps_mode_name(mode),
			       c->kind);
		rc = SLURM_ERROR;
	} else {
		char why[128];
		snprintf(why, sizeof(why), "select/linear refused the %s placement (CPU, memory or node limits)",
			 c->kind);
		bit_copybits(bitmap, orig);
		rc = linear_choice(c, why, job_ptr, bitmap, min_nodes, max_nodes,
				   req_nodes, mode, preemptees,
				   preemptee_job_list, exc_core_bitmap);
	}
	FREE_NULL_BITMAP(orig);
	return rc;
}

/* A strict allocator's RUN_NOW answer when Slurm's preemption offers
 * candidates (PreemptType): a placement on the candidate nodes that are
 * free or held by preemptable jobs; its node count, or -1. */
static int place_preempting(tps_ctx *c, bitstr_t *bitmap, List preemptees,
			    int lo, int hi, int cap, uint16_t mode,
			    tp_nodeset *chosen)
{
	tp_nodeset cand, held, tmp;
	int k = -1;

	if ((mode & SELECT_MODE_BASE) != SELECT_MODE_RUN_NOW || !preemptees ||
	    !list_count(preemptees))
		return -1;
	if (tp_nodeset_init(&cand, c->map->ntopo))
		return -1;
	if (tp_nodeset_init(&held, c->map->ntopo)) {
		tp_nodeset_fini(&cand);
		return -1;
	}
	if (tp_nodeset_init(&tmp, c->map->ntopo)) {
		tp_nodeset_fini(&cand);
		tp_nodeset_fini(&held);
		return -1;
	}
	ListIterator it = list_iterator_create(preemptees);
	job_record_t *p;
	while ((p = list_next(it))) {
		if (!p->node_bitmap)
			continue;
		tpl_bits_to_set(c->map, p->node_bitmap, &tmp);
		tp_nodeset_or(&held, &tmp);
	}
	list_iterator_destroy(it);
	tpl_bits_to_set(c->map, bitmap, &cand);
	tp_nodeset_and(&held, &cand);
	drop_busy(c, &cand);
	tp_nodeset_or(&cand, &held);
	k = tp_place_range(c->alloc, &cand, lo, hi,
			   &(tp_alloc_req){ .max_nodes = cap }, chosen);
	if (k > 0)
		k = tp_nodeset_count(chosen);
	tp_nodeset_fini(&cand);
	tp_nodeset_fini(&held);
	tp_nodeset_fini(&tmp);
	return k;
}

/* The allocator's answer for `mode`: node count placed (into `chosen`),
 * or -1.  *when: 0, or the release time WILL_RUN needed.  Placements stay
 * within the job's max_nodes (0: none). */
static int place_for_mode(tps_ctx *c, uint16_t mode, tp_nodeset *usable,
			  int lo, int hi, int max_nodes, tp_nodeset *chosen,
			  int64_t *when)
{
	int k = -1;
	tp_alloc_req cap = { .max_nodes = max_nodes };

	*when = 0;
	switch (mode & SELECT_MODE_BASE) {
	case SELECT_MODE_TEST_ONLY:
		k = tp_place_range(c->alloc, usable, lo, hi, &cap, chosen);
		break;
	case SELECT_MODE_RUN_NOW:
		drop_busy(c, usable);
		k = tp_place_range(c->alloc, usable, lo, hi, &cap, chosen);
		break;
	case SELECT_MODE_WILL_RUN: {
		time_t now = time(NULL);
		releases r;
		collect_releases(c, usable, now, &r);
		drop_busy(c, usable);
		k = tp_place_earliest(c->alloc, now, usable, r.rel, r.n, NULL,
				      lo, hi, &cap, NULL, chosen, when);
		if (k >= 0 && *when <= now)
			*when = 0; /* placed on the nodes free now */
		free_releases(&r);
		break;
	}
	}
	return k;
}

int tps_job_test(tps_ctx *c, job_record_t *job_ptr, bitstr_t *bitmap,
		 uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes,
		 uint16_t mode, List preemptees, List *preemptee_job_list,
		 bitstr_t *exc_core_bitmap)
{
	const char *why = linear_only_reason(job_ptr, min_nodes);
	char why_buf[160];
	tp_nodeset usable, chosen;
	int lo, hi, k, rc;
	int64_t when = 0;

	if (!why && (mode & SELECT_MODE_BASE) != SELECT_MODE_RUN_NOW &&
	    (mode & SELECT_MODE_BASE) != SELECT_MODE_TEST_ONLY &&
	    (mode & SELECT_MODE_BASE) != SELECT_MODE_WILL_RUN) {
		snprintf(why_buf, sizeof(why_buf),
			 "a mode the %s allocator does not answer", c->kind);
		why = why_buf;
	}
	if (!why && c->map->nslurm != node_record_count) {
		snprintf(why_buf, sizeof(why_buf),
			 "node table changed since the %s map was built",
			 c->kind);
		why = why_buf;
	}
	if (!why && tp_nodeset_init(&usable, c->map->ntopo))
		why = "out of memory";
	if (!why && tp_nodeset_init(&chosen, c->map->ntopo)) {
		tp_nodeset_fini(&usable);
		why = "out of memory";
	}
	if (why)
		return linear_choice(c, why, job_ptr, bitmap, min_nodes,
				     max_nodes, req_nodes, mode, preemptees,
				     preemptee_job_list, exc_core_bitmap);

	tpl_bits_to_set(c->map, bitmap, &usable);
	tpl_job_node_range(job_ptr, min_nodes, max_nodes, req_nodes, &lo, &hi);
	int cap = max_nodes > INT32_MAX ? 0 : (int)max_nodes;
	k = place_for_mode(c, mode, &usable, lo, hi, cap, &chosen, &when);

	/* An allocator may give more nodes than asked (torus transit
	 * nodes); slurmctld refuses more than the job's maximum. */
	int got = k >= 0 ? tp_nodeset_count(&chosen) : -1;
	if (got > 0 && max_nodes && (uint32_t)got > max_nodes) {
		debug2("%s: %pJ %s: the placement of %d nodes exceeds the job's maximum of %u nodes",
		       c->plugin_type, job_ptr, tps_mode_name(mode), got,
		       max_nodes);
		k = got = -1;
	}

	if (got > 0) {
		char range[64];
		snprintf(range, sizeof(range), "%d-%d, min/req/max %u/%u/%u",
			 lo, hi, min_nodes, req_nodes, max_nodes);
		rc = narrowed_test(c, &chosen, got, k, when, range, job_ptr,
				   bitmap, min_nodes, max_nodes, req_nodes,
				   mode, preemptees, preemptee_job_list,
				   exc_core_bitmap);
	} else if (c->strict &&
		   (got = place_preempting(c, bitmap, preemptees, lo, hi, cap,
					   mode, &chosen)) > 0) {
		/* The placement on free and preemptable nodes: select/linear
		 * names the preemptees on exactly those nodes, Slurm preempts
		 * them (select_nodes) and the job starts once they are gone. */
		char range[64];
		snprintf(range, sizeof(range), "%d-%d, preempting", lo, hi);
		rc = narrowed_test(c, &chosen, got, got, 0, range, job_ptr,
				   bitmap, min_nodes, max_nodes, req_nodes,
				   mode, preemptees, preemptee_job_list,
				   exc_core_bitmap);
	} else if (!(why = fallback_reason(c, job_ptr, bitmap, lo, hi, cap,
					   mode, preemptees, why_buf,
					   sizeof(why_buf)))) {
		/* A placement may exist once nodes free up: not here. */
		debug3("%s: %pJ %s: no placement of %d-%d nodes on these nodes",
		       c->plugin_type, job_ptr, tps_mode_name(mode), lo, hi);
		rc = EINVAL;
	} else {
		rc = linear_choice(c, why, job_ptr, bitmap, min_nodes,
				   max_nodes, req_nodes, mode, preemptees,
				   preemptee_job_list, exc_core_bitmap);
	}
	tp_nodeset_fini(&chosen);
	tp_nodeset_fini(&usable);
	return rc;
}
