/* st_hetero.c - sched/topo's heterogeneous cycle; see st_hetero.h. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/node_scheduler.h"

#include "hetero/het.h"
#include "model/job.h"
#include "st_ctld.h"
#include "st_hetero.h"
#include "st_slurm.h"
#include "tpl_compat.h"
#include "tpl_nodetable.h"

#define ST_TYPE "sched/topo"

/* Each set bit n of b, ascending (22.05 has no bit_ffs_from_bit). */
#define FOR_EACH_BIT(b, n)                                              \
	for (int n = bit_ffs(b), n##_last = bit_fls(b);                  \
	     n >= 0 && n <= n##_last; n++)                               \
		if (bit_test(b, n))

/* ---- the database ---------------------------------------------------- */

int st_het_init(st_het *h, const char *path)
{
	tp_error err = { { 0 } };
	memset(h, 0, sizeof(*h));
	if (!(h->db = tp_expdb_new()))
		return -1;
	if (tp_expdb_load(h->db, path, &h->learned_until, &err)) {
		error("%s: %s; starting with an empty run-time database (the file is kept until the next save)",
		      ST_TYPE, err.msg);
		tp_expdb_free(h->db);
		h->learned_until = 0;
		if (!(h->db = tp_expdb_new()))
			return -1;
		return 0;
	}
	if (tp_expdb_size(h->db))
		info("%s: run-time database %s: %zu entries, learned until %" PRId64,
		     ST_TYPE, path, tp_expdb_size(h->db), h->learned_until);
	return 0;
}

void st_het_fini(st_het *h)
{
	tp_expdb_free(h->db);
	memset(h, 0, sizeof(*h));
}

int st_het_save(st_het *h, const char *path, tp_error *err)
{
	if (!h->db || !h->dirty)
		return 0;
	if (tp_expdb_save(h->db, path, h->learned_until, err))
		return -1;
	h->dirty = false;
	return 0;
}

/* The job's class under topo_class_key=: a name the database keys on. */
static const char *class_of(const job_record_t *j, int key)
{
	const char *s = NULL;
	switch (key) {
	case TP_CLASS_USER:    s = j->user_name; break;
	case TP_CLASS_WCKEY:   s = j->wckey; break;
	case TP_CLASS_COMMENT: s = j->comment; break;
	default:               s = j->name; break;
	}
	return s && s[0] ? s : "(none)";
}

static int jclass_of(st_ctx *x, const job_record_t *j)
{
	return tp_expdb_jclass(x->het.db, class_of(j, x->params.class_key));
}

/* A job that ran to its end (exit 0): its run time is a sample of its
 * class on its partition and node count (total_nodes: node_cnt drops to
 * 0 as the nodes finish their epilogs).  Failed, cancelled and
 * timed-out runs say nothing about how long the work takes. */
static bool learnable(const job_record_t *j)
{
	return (j->job_state & JOB_STATE_BASE) == JOB_COMPLETE &&
	       j->part_ptr && j->part_ptr->name && j->total_nodes &&
	       j->start_time && j->end_time >= j->start_time;
}

/* Jobs that ended in (learned_until, now - 1]: every one of them ended
 * before this cycle took the job lock, so none is missed or counted
 * twice (a job ending in the cycle's own second is the next cycle's). */
static void learn(st_ctx *x, time_t now)
{
	st_het *h = &x->het;
	int64_t upto = (int64_t)now - 1;
	if (upto <= h->learned_until)
		return;
	uint64_t before = h->learned;
	tpl_list_iter_t it = list_iterator_create(job_list);
	job_record_t *j;
	while ((j = list_next(it))) {
		if (!learnable(j) || (int64_t)j->end_time <= h->learned_until ||
		    (int64_t)j->end_time > upto)
			continue;
		int jc = jclass_of(x, j);
		int mc = tp_expdb_mclass(h->db, j->part_ptr->name);
		double secs = difftime(j->end_time, j->start_time);
		if (jc < 0 || mc < 0 ||
		    tp_expdb_add(h->db, jc, mc, (int)j->total_nodes, secs)) {
			error("%s: out of memory learning %pJ", ST_TYPE, j);
			continue;
		}
		h->learned++;
		debug("%s: learned %pJ: class %s, partition %s, %u nodes, %.0f s",
		      ST_TYPE, j, class_of(j, x->params.class_key),
		      j->part_ptr->name, j->total_nodes, secs);
	}
	list_iterator_destroy(it);
	h->learned_until = upto;
	/* Saved when something was learned: re-reading a window with
	 * nothing learnable in it after a restart learns nothing. */
	if (h->learned > before)
		h->dirty = true;
}

/* ---- the machine ------------------------------------------------------ */

typedef struct het_cycle {
	st_ctx *x;
	time_t now;
	part_record_t **prec;  /* the partitions, slurm.conf order */
	tp_het_part *part;
	int nparts;
	int *pnodes;           /* every partition's node list, one block */
	double *ready;         /* per Slurm node index */
	bitstr_t *usable;      /* available, not powered down */
	tp_het_machine m;
	tp_het_job *job;
	size_t njobs;
	int *jparts;           /* every job's partition list, one block */
	tp_nodeset *allowed;   /* per job, when constrained */
	tp_het_job *deleg;     /* jobs left to Slurm's own selection */
	size_t ndeleg;
	bitstr_t *bits;        /* scratch */
} het_cycle;

static int part_index(const het_cycle *hc, const part_record_t *p)
{
	for (int i = 0; i < hc->nparts; i++)
		if (hc->prec[i] == p)
			return i;
	return -1;
}

static int build_parts(het_cycle *hc)
{
	size_t np = (size_t)list_count(part_list), total = 0;
	hc->prec = xcalloc(np + 1, sizeof(*hc->prec));
	hc->part = xcalloc(np + 1, sizeof(*hc->part));
	tpl_list_iter_t it = list_iterator_create(part_list);
	part_record_t *p;
	while ((p = list_next(it)))
		if (p->node_bitmap && hc->nparts < (int)np) {
			hc->prec[hc->nparts++] = p;
			total += (size_t)bit_set_count(p->node_bitmap);
		}
	list_iterator_destroy(it);
	hc->pnodes = xcalloc(total + 1, sizeof(int));
	int *next = hc->pnodes;
	for (int i = 0; i < hc->nparts; i++) {
		p = hc->prec[i];
		int mc = tp_expdb_mclass(hc->x->het.db, p->name);
		if (mc < 0)
			return -1;
		hc->part[i] = (tp_het_part){ .name = p->name, .mclass = mc,
					     .node = next };
		FOR_EACH_BIT(p->node_bitmap, n)
			next[hc->part[i].nnodes++] = n;
		next += hc->part[i].nnodes;
	}
	return 0;
}

/* Ready times: free nodes now, busy ones when their jobs are expected
 * to end (the database's prediction for the job, within Slurm's
 * end_time), completing or booting ones in a second, unusable ones
 * never. */
static int build_ready(het_cycle *hc)
{
	st_ctx *x = hc->x;
	double now = (double)hc->now;
	int nn = node_record_count;
	hc->ready = xcalloc(nn + 1, sizeof(double));
	hc->usable = bit_copy(avail_node_bitmap);
	st_slurm_drop_powered_down(hc->usable);
	bitstr_t *free_now = bit_copy(hc->usable);
	st_ctld_keep_free(free_now);
	for (int n = 0; n < nn; n++)
		hc->ready[n] = !bit_test(hc->usable, n) ? TP_HET_NEVER :
			       bit_test(free_now, n) ? now : now + 1;
	FREE_NULL_BITMAP(free_now);

	hc->m = (tp_het_machine){ .nnodes = nn, .ready = hc->ready,
				  .part = hc->part, .nparts = hc->nparts };
	tp_expdb_etc_arg ea = { .db = x->het.db, .m = &hc->m };
	tpl_list_iter_t it = list_iterator_create(job_list);
	job_record_t *j;
	while ((j = list_next(it))) {
		int p = j->part_ptr ? part_index(hc, j->part_ptr) : -1;
		if (!(IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j)) ||
		    !j->node_bitmap || p < 0)
			continue;
		/* The same prediction as a plan's (tp_expdb_etc), made
		 * again every cycle as the simulator does (het_sim.c
		 * busy_ready). */
		tp_het_job rj = { .jclass = jclass_of(x, j),
				  .estimate = (int64_t)difftime(j->end_time,
								j->start_time) };
		double pred = rj.jclass < 0 ? 0 :
			tp_expdb_etc(&ea, &rj, p, (int)j->total_nodes);
		double end = tp_het_expected_free(now, (double)j->start_time,
						  pred, (double)j->end_time);
		FOR_EACH_BIT(j->node_bitmap, n)
			if (hc->ready[n] != TP_HET_NEVER && hc->ready[n] < end)
				hc->ready[n] = end;
	}
	list_iterator_destroy(it);
	return 0;
}

/* ---- the queue -------------------------------------------------------- */

static int by_job_then_part(const void *a, const void *b)
{
	const job_queue_rec_t *x = *(job_queue_rec_t *const *)a;
	const job_queue_rec_t *y = *(job_queue_rec_t *const *)b;
	if (x->job_ptr->job_id != y->job_ptr->job_id)
		return x->job_ptr->job_id < y->job_ptr->job_id ? -1 : 1;
	return (x->part_ptr > y->part_ptr) - (x->part_ptr < y->part_ptr);
}

/* What a cycle does with a pending job. */
typedef enum job_use {
	JOB_PLAN,     /* into the plan */
	JOB_SKIP,     /* cannot start now; its reason says why */
	JOB_DELEGATE, /* constraints the plan does not model: Slurm's own
		       * node selection, partition by partition */
} job_use;

/* The nodes the job may use among its partitions' usable ones
 * (reservation, -x, --constraint and memory, -w), as sched/topo's
 * partition cycle judges them (st_ctld.c job_constraints).  Sets
 * hj->allowed when that is fewer than all.  -w naming at least the job's
 * node count fixes its nodes; fewer (Slurm adds others), or
 * --contiguous, is left to Slurm's own selection. */
static job_use job_nodes(het_cycle *hc, job_record_t *j, tp_het_job *hj,
			 size_t k)
{
	bitstr_t *avail = NULL, *mine = bit_alloc(node_record_count);
	time_t when = hc->now;
	job_use use = JOB_PLAN;
	for (int i = 0; i < hj->nparts; i++)
		bit_or(mine, hc->prec[hj->parts[i]]->node_bitmap);
	bit_and(mine, hc->usable);
	int rc = st_slurm_test_resv(j, &when, &avail);
	if (rc != SLURM_SUCCESS || when > hc->now) {
		st_ctld_set_reason(j, WAIT_RESERVATION,
				   xstrdup_printf("sched/topo: %s", rc ? slurm_strerror(rc) :
						  "its reservation has not started"),
				   hc->now);
		FREE_NULL_BITMAP(avail);
		FREE_NULL_BITMAP(mine);
		return JOB_SKIP;
	}
	bit_and(avail, mine);
	if (j->details->exc_node_bitmap)
		bit_and_not(avail, j->details->exc_node_bitmap);
	(void) job_req_node_filter(j, avail, false);
	bitstr_t *req = j->details->req_node_bitmap;
	int need = req ? bit_set_count(req) : 0;
	if (need && !bit_super_set(req, avail)) {
		st_ctld_set_reason(j, WAIT_NODE_NOT_AVAIL,
				   xstrdup("sched/topo: a node it requires (-w) is not available"),
				   hc->now);
		use = JOB_SKIP;
	} else if ((need && need < hj->nmin) || j->details->contiguous) {
		use = JOB_DELEGATE;
	} else if (need) {
		bit_copybits(avail, req);
		hj->nmin = hj->nmax = need; /* -w: exactly the nodes it names */
	}
	if (use == JOB_PLAN && !bit_equal(avail, mine)) {
		tp_nodeset *s = &hc->allowed[k];
		if (tp_nodeset_init(s, node_record_count)) {
			use = JOB_SKIP;
		} else {
			FOR_EACH_BIT(avail, n)
				tp_nodeset_set(s, n);
			hj->allowed = s;
		}
	}
	FREE_NULL_BITMAP(avail);
	FREE_NULL_BITMAP(mine);
	return use;
}

/* A job the plan does not model: each of its partitions in turn, as
 * Slurm's own scheduler tries a job submitted to several, with Slurm
 * choosing the nodes.  It may take a node the plan meant for a waiting
 * job a little later; such jobs are rare. */
static void start_delegated(het_cycle *hc, const tp_het_job *hj)
{
	st_ctx *x = hc->x;
	job_record_t *j = hj->owner;
	for (int i = 0; i < hj->nparts && IS_JOB_PENDING(j); i++) {
		part_record_t *p = hc->prec[hj->parts[i]];
		j->part_ptr = p;
		int rc = st_slurm_select_nodes(j, false);
		if (rc != SLURM_SUCCESS) {
			debug("%s: %pJ in partition %s (Slurm's selection): %s",
			      ST_TYPE, j, p->name, slurm_strerror(rc));
			continue;
		}
		st_ctld_started(x, j, hc->now);
		st_stats_started(&x->stats, x->params.policy, 0);
		info("%s: cycle %" PRIu64 ": %s: started JobId=%u on %s in partition %s (Slurm's node selection: %s)",
		     ST_TYPE, x->stats.cycles + 1, x->params.policy, j->job_id,
		     j->nodes, p->name, j->details->contiguous ?
		     "--contiguous" : "-w names fewer nodes than -N");
	}
}

/* One job from its queue records recs[lo..hi) (one per partition). */
static void add_job(het_cycle *hc, job_queue_rec_t **recs, size_t lo,
		    size_t hi, uint32_t *prio)
{
	job_record_t *j = recs[lo]->job_ptr;
	tp_het_job *hj = &hc->job[hc->njobs];
	int *parts = hc->jparts + lo;
	int np = 0;
	uint32_t min_cpus = 0;
	*prio = 0;
	for (size_t r = lo; r < hi; r++) {
		int pi = part_index(hc, recs[r]->part_ptr);
		if (pi < 0 || (np && parts[np - 1] == pi))
			continue;
		parts[np++] = pi;
		uint32_t c = tpl_part_min_cpus(recs[r]->part_ptr);
		if (!min_cpus || (c && c < min_cpus))
			min_cpus = c;
		if (recs[r]->priority > *prio)
			*prio = recs[r]->priority;
	}
	if (!np || !j->details || j->het_job_id || !IS_JOB_PENDING(j))
		return;
	int32_t nmin = tp_job_nodes(j->details->min_nodes,
				    j->details->min_cpus, min_cpus);
	int32_t top = st_ctld_range_max(j);
	*hj = (tp_het_job){ .id = j->job_id,
			    .submit = j->details->submit_time,
			    .estimate = st_ctld_pending_estimate(j,
							hc->prec[parts[0]]),
			    .nmin = nmin, .nmax = top > nmin ? top : nmin,
			    .jclass = jclass_of(hc->x, j), .parts = parts,
			    .nparts = np, .owner = j };
	if (hj->jclass < 0)
		return;
	switch (job_nodes(hc, j, hj, hc->njobs)) {
	case JOB_PLAN:
		hc->njobs++;
		break;
	case JOB_DELEGATE:
		hc->deleg[hc->ndeleg++] = *hj;
		break;
	case JOB_SKIP:
		break;
	}
}

typedef struct prio_key {
	uint32_t prio;
	tp_het_job job;
	tp_nodeset allowed;
} prio_key;

/* Slurm's order: priority, then submit time, then job id. */
static int by_priority(const void *a, const void *b)
{
	const prio_key *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->job.submit != y->job.submit)
		return x->job.submit < y->job.submit ? -1 : 1;
	return (x->job.id > y->job.id) - (x->job.id < y->job.id);
}

static void build_queue(het_cycle *hc, job_queue_rec_t **recs, size_t nrec)
{
	job_queue_rec_t **sorted = xcalloc(nrec + 1, sizeof(*sorted));
	memcpy(sorted, recs, nrec * sizeof(*sorted));
	qsort(sorted, nrec, sizeof(*sorted), by_job_then_part);
	hc->job = xcalloc(nrec + 1, sizeof(*hc->job));
	hc->jparts = xcalloc(nrec + 1, sizeof(int));
	hc->allowed = xcalloc(nrec + 1, sizeof(*hc->allowed));
	hc->deleg = xcalloc(nrec + 1, sizeof(*hc->deleg));
	prio_key *keys = xcalloc(nrec + 1, sizeof(*keys));
	for (size_t lo = 0, hi; lo < nrec; lo = hi) {
		for (hi = lo + 1; hi < nrec &&
		     sorted[hi]->job_ptr == sorted[lo]->job_ptr; hi++)
			;
		size_t before = hc->njobs;
		uint32_t prio;
		add_job(hc, sorted, lo, hi, &prio);
		if (hc->njobs > before)
			keys[before].prio = prio;
	}
	for (size_t k = 0; k < hc->njobs; k++) {
		keys[k].job = hc->job[k];
		keys[k].allowed = hc->allowed[k];
	}
	qsort(keys, hc->njobs, sizeof(*keys), by_priority);
	for (size_t k = 0; k < hc->njobs; k++) {
		hc->job[k] = keys[k].job;
		hc->allowed[k] = keys[k].allowed;
		if (hc->job[k].allowed)
			hc->job[k].allowed = &hc->allowed[k];
	}
	xfree(keys);
	xfree(sorted);
}

/* ---- carrying the plan out -------------------------------------------- */

static void start_one(het_cycle *hc, const tp_het_plan *plan,
		      const tp_het_assign *a)
{
	st_ctx *x = hc->x;
	job_record_t *j = hc->job[a->job].owner;
	part_record_t *p = hc->prec[a->part];
	bit_clear_all(hc->bits);
	for (int k = 0; k < a->nodes; k++)
		bit_set(hc->bits, a->node[k]);
	if (st_ctld_start(x, j, p, hc->bits, false, hc->now))
		return;
	/* One line per start, in decision order: the live tests compare
	 * partition and node count with the simulator's. */
	info("%s: cycle %" PRIu64 ": %s: started JobId=%u on %s in partition %s (%d node%s, %s, expected %.0f s, plan %s)",
	     ST_TYPE, x->stats.cycles + 1, x->params.policy, j->job_id,
	     j->nodes, p->name, a->nodes, a->nodes == 1 ? "" : "s",
	     a->parallel ? "parallel" : "sequential", a->end - a->start,
	     tp_het_algo_name(plan->used));
	st_ctld_check_nodes(x, j, hc->bits);
}

/* Jobs left waiting: Resources, as Slurm's schedulers say it. */
static void mark_waiting(het_cycle *hc)
{
	for (size_t k = 0; k < hc->njobs; k++) {
		job_record_t *j = hc->job[k].owner;
		if (!IS_JOB_PENDING(j) || j->state_reason == WAIT_RESOURCES ||
		    (j->state_reason != WAIT_NO_REASON &&
		     j->state_reason != WAIT_PRIORITY))
			continue;
		j->state_reason = WAIT_RESOURCES;
		xfree(j->state_desc);
		last_job_update = hc->now;
	}
}

static void cycle_fini(het_cycle *hc)
{
	for (size_t k = 0; k < hc->njobs; k++)
		if (hc->job[k].allowed)
			tp_nodeset_fini(&hc->allowed[k]);
	xfree(hc->allowed);
	xfree(hc->deleg);
	xfree(hc->job);
	xfree(hc->jparts);
	xfree(hc->ready);
	xfree(hc->pnodes);
	xfree(hc->part);
	xfree(hc->prec);
	FREE_NULL_BITMAP(hc->usable);
	FREE_NULL_BITMAP(hc->bits);
}

uint32_t st_het_cycle(st_ctx *x, job_queue_rec_t **recs, size_t nrec,
		      time_t now)
{
	het_cycle hc = { .x = x, .now = now };
	tp_het_plan plan;
	tp_error err = { { 0 } };
	uint32_t before = x->started_now;

	learn(x, now);
	tp_het_plan_init(&plan);
	hc.bits = bit_alloc(node_record_count);
	if (build_parts(&hc) || build_ready(&hc)) {
		error("%s: out of memory building the machine", ST_TYPE);
		goto out;
	}
	build_queue(&hc, recs, nrec);
	x->stats.last_queued += (uint32_t)(hc.njobs + hc.ndeleg);
	tp_expdb_etc_arg ea = { .db = x->het.db, .m = &hc.m };
	if (hc.njobs &&
	    tp_het_pass(&hc.m, (double)now, hc.job,
			tp_het_planned(hc.njobs, x->params.het_max_jobs),
			(tp_het_algo)tp_policy_het_algo(x->policy),
			tp_expdb_etc, &ea, &plan, &err)) {
		error("%s: %s", ST_TYPE, err.msg);
		goto out;
	}
	for (size_t k = 0; k < plan.n; k++)
		start_one(&hc, &plan, &plan.a[k]);
	mark_waiting(&hc);
	for (size_t k = 0; k < hc.ndeleg; k++)
		start_delegated(&hc, &hc.deleg[k]);
out:
	tp_het_plan_fini(&plan);
	cycle_fini(&hc);
	return x->started_now - before;
}
