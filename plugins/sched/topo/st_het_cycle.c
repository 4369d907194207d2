/* st_het_cycle.c - sched/topo's heterogeneous cycle; see st_het_cycle.h. */
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
#include "hetero/het_cycle.h"
#include "model/job.h"
#include "st_het_cycle.h"
#include "st_job.h"
#include "st_refuse.h"
#include "st_view.h"
#include "st_slurm.h"
#include "tpl_compat.h"
#include "tpl_nodetable.h"

#define ST_TYPE "sched/topo"

/* Each set bit n of b, ascending (22.05 has no bit_ffs_from_bit). */
#define FOR_EACH_BIT(b, n)                                              \
	for (int n = bit_ffs(b), n##_last = bit_fls(b);                  \
	     n >= 0 && n <= n##_last; n++)                               \
		if (bit_test(b, n))

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
	tp_het_run *run;       /* running jobs, for the core's ready times */
	size_t nrun;
	int *rnodes;           /* every run's node list, one block */
	tp_het_ended *ended;   /* runs ended since the last cycle */
	size_t nended;
	int64_t ended_upto;    /* ... up to here */
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

/* Ready times as far as Slurm's node states say: free nodes now,
 * completing or booting ones in a second, unusable ones never.  The
 * running jobs' nodes are the core's (tp_het_cycle: their predicted
 * ends). */
static void build_ready(het_cycle *hc)
{
	double now = (double)hc->now;
	int nn = node_record_count;
	hc->ready = xcalloc(nn + 1, sizeof(double));
	hc->usable = bit_copy(avail_node_bitmap);
	st_slurm_drop_powered_down(hc->usable);
	bitstr_t *free_now = bit_copy(hc->usable);
	st_job_keep_free(free_now);
	for (int n = 0; n < nn; n++)
		hc->ready[n] = !bit_test(hc->usable, n) ? TP_HET_NEVER :
			       bit_test(free_now, n) ? now : now + 1;
	FREE_NULL_BITMAP(free_now);
	hc->m = (tp_het_machine){ .nnodes = nn, .ready = hc->ready,
				  .part = hc->part, .nparts = hc->nparts };
}

/* A job's nodes into `out` (room for them all); their number. */
static int node_list(bitstr_t *b, int *out)
{
	int k = 0;
	FOR_EACH_BIT(b, n)
		out[k++] = n;
	return k;
}

static bool runs(const job_record_t *j)
{
	return (IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j)) && j->node_bitmap;
}

/* The running (and suspended) jobs of the machine's partitions, as the
 * core predicts their ends: class, partition, nodes, start, and Slurm's
 * end_time as the limit. */
static void build_runs(het_cycle *hc)
{
	size_t n = 0, total = 0;
	tpl_list_iter_t it = list_iterator_create(job_list);
	job_record_t *j;
	while ((j = list_next(it)))
		if (runs(j)) {
			n++;
			total += (size_t)bit_set_count(j->node_bitmap);
		}
	list_iterator_reset(it);
	hc->run = xcalloc(n + 1, sizeof(*hc->run));
	hc->rnodes = xcalloc(total + 1, sizeof(int));
	int *next = hc->rnodes;
	while ((j = list_next(it)) && hc->nrun < n) {
		int p = j->part_ptr ? part_index(hc, j->part_ptr) : -1;
		if (!runs(j) || p < 0)
			continue;
		int k = node_list(j->node_bitmap, next);
		hc->run[hc->nrun++] = (tp_het_run){
			.jclass = jclass_of(hc->x, j), .part = p, .node = next,
			.nodes = k, .start = (double)j->start_time,
			.limit_end = (double)j->end_time, .owner = j };
		next += k;
	}
	list_iterator_destroy(it);
}

/* How a job ended, in the core's terms: only COMPLETED is learned
 * (tp_het_learnable; a run that timed out says only "longer"). */
static tp_het_end end_of(const job_record_t *j)
{
	switch (j->job_state & JOB_STATE_BASE) {
	case JOB_COMPLETE:  return TP_HET_END_COMPLETED;
	case JOB_TIMEOUT:   return TP_HET_END_LIMIT;
	case JOB_CANCELLED:
	case JOB_PREEMPTED: return TP_HET_END_CANCELLED;
	default:            return TP_HET_END_FAILED;
	}
}

/* Did j end in (after, upto], having run on nodes of partition p? */
static bool ended_in(const job_record_t *j, int p, int64_t after,
		     int64_t upto)
{
	return IS_JOB_FINISHED(j) && p >= 0 && j->total_nodes &&
	       j->start_time && j->end_time >= j->start_time &&
	       (int64_t)j->end_time > after && (int64_t)j->end_time <= upto;
}

/* The runs that ended in (learned_until, now - 1]: every one of them
 * ended before this cycle took the job lock, so none is missed or
 * counted twice (a job ending in the cycle's own second is the next
 * cycle's).  The node count is total_nodes: node_cnt drops to 0 as the
 * nodes finish their epilogs. */
static void collect_ended(het_cycle *hc)
{
	st_expdb *h = &hc->x->het;
	int64_t upto = (int64_t)hc->now - 1;
	hc->ended_upto = upto > h->learned_until ? upto : h->learned_until;
	if (upto <= h->learned_until)
		return;
	size_t cap = 16;
	hc->ended = xcalloc(cap, sizeof(*hc->ended));
	tpl_list_iter_t it = list_iterator_create(job_list);
	job_record_t *j;
	while ((j = list_next(it))) {
		int p = j->part_ptr ? part_index(hc, j->part_ptr) : -1;
		if (!ended_in(j, p, h->learned_until, upto))
			continue;
		if (hc->nended == cap) {
			cap *= 2;
			xrecalloc(hc->ended, cap, sizeof(*hc->ended));
		}
		tp_het_end how = end_of(j);
		hc->ended[hc->nended++] = (tp_het_ended){
			.jclass = jclass_of(hc->x, j), .part = p,
			.nodes = (int)j->total_nodes, .how = how,
			.start = (double)j->start_time,
			.end = (double)j->end_time };
		debug("%s: %pJ ended: class %s, partition %s, %u nodes, %.0f s: %s",
		      ST_TYPE, j, class_of(j, hc->x->params.class_key),
		      j->part_ptr->name, j->total_nodes,
		      difftime(j->end_time, j->start_time),
		      how == TP_HET_END_COMPLETED ? "learned" :
		      "not learned (it did not complete)");
	}
	list_iterator_destroy(it);
}

/* What the cycle learned: the window is done, and the file is saved when
 * something was learned (re-reading a window with nothing learnable in
 * it after a restart learns nothing). */
static void note_learned(het_cycle *hc, const tp_het_cycle_out *out)
{
	st_expdb *h = &hc->x->het;
	h->learned_until = hc->ended_upto;
	h->learned += out->learned;
	if (out->learned)
		h->dirty = true;
	if (out->learn_failed)
		error("%s: out of memory learning %zu run(s)", ST_TYPE,
		      out->learn_failed);
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
 * (st_job_usable, as the partition cycle judges them).  Sets
 * hj->allowed when that is fewer than all.  -w naming at least the job's
 * node count fixes its nodes; fewer (Slurm adds others), or
 * --contiguous, is left to Slurm's own selection. */
static job_use job_nodes(het_cycle *hc, job_record_t *j, tp_het_job *hj,
			 size_t k)
{
	bitstr_t *avail, *mine = bit_alloc(node_record_count);
	job_use use = JOB_PLAN;
	for (int i = 0; i < hj->nparts; i++)
		bit_or(mine, hc->prec[hj->parts[i]]->node_bitmap);
	bit_and(mine, hc->usable);
	if (st_job_usable(j, mine, hc->now, true, &avail)) {
		FREE_NULL_BITMAP(mine);
		return JOB_SKIP;
	}
	bitstr_t *req = j->details->req_node_bitmap;
	int need = req ? bit_set_count(req) : 0;
	if ((need && need < hj->nmin) || j->details->contiguous) {
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
		st_job_started(x, j, hc->now);
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
		uint32_t c = tpl_part_job_cpus(recs[r]->part_ptr, j);
		if (!min_cpus || (c && c < min_cpus))
			min_cpus = c;
		if (recs[r]->priority > *prio)
			*prio = recs[r]->priority;
	}
	if (!np || !j->details || j->het_job_id || !IS_JOB_PENDING(j) ||
	    st_refuse_sits_out(hc->x, j, hc->now))
		return;
	int32_t nmin = tp_job_nodes(j->details->min_nodes,
				    j->details->min_cpus, min_cpus);
	int32_t top = st_job_range_max(j);
	*hj = (tp_het_job){ .id = j->job_id,
			    .submit = j->details->submit_time,
			    .estimate = st_job_pending_estimate(j,
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

/* Slurm's order (st_view_order). */
static int by_priority(const void *a, const void *b)
{
	const prio_key *x = a, *y = b;
	return st_view_order(x->prio, x->job.submit, x->job.id, y->prio,
			     y->job.submit, y->job.id);
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
	if (st_job_start(x, j, p, hc->bits, false, hc->now))
		return;
	/* One line per start, in decision order: the live tests compare
	 * partition and node count with the simulator's. */
	info("%s: cycle %" PRIu64 ": %s: started JobId=%u on %s in partition %s (%d node%s, %s, expected %.0f s, plan %s)",
	     ST_TYPE, x->stats.cycles + 1, x->params.policy, j->job_id,
	     j->nodes, p->name, a->nodes, a->nodes == 1 ? "" : "s",
	     a->parallel ? "parallel" : "sequential", a->end - a->start,
	     tp_het_algo_name(plan->used));
	st_job_check_nodes(x, j, hc->bits);
}

/* Jobs left waiting: Resources, as Slurm's schedulers say it. */
static void mark_waiting(het_cycle *hc)
{
	for (size_t k = 0; k < hc->njobs; k++)
		st_job_mark_waiting(hc->job[k].owner, WAIT_RESOURCES, hc->now);
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
	xfree(hc->run);
	xfree(hc->rnodes);
	xfree(hc->ended);
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
	tp_het_cycle_out out = { 0 };
	tp_error err = { { 0 } };
	uint32_t before = x->started_now;

	tp_het_plan_init(&plan);
	hc.bits = bit_alloc(node_record_count);
	if (build_parts(&hc)) {
		error("%s: out of memory building the machine", ST_TYPE);
		goto out;
	}
	build_ready(&hc);
	build_runs(&hc);
	collect_ended(&hc);
	build_queue(&hc, recs, nrec);
	x->stats.last_queued += (uint32_t)(hc.njobs + hc.ndeleg);
	/* The Slurm-free half (hetero/het_cycle.h), as the simulator runs
	 * it: learn, predict the running jobs' ends, plan. */
	tp_het_cycle_in in = {
		.now = (double)now, .db = x->het.db,
		.nnodes = hc.m.nnodes, .ready = hc.ready,
		.part = hc.part, .nparts = hc.nparts,
		.run = hc.run, .nrun = hc.nrun,
		.ended = hc.ended, .nended = hc.nended,
		.job = hc.job, .njobs = hc.njobs,
		.algo = (tp_het_algo)tp_policy_het_algo(x->policy),
		.max_jobs = x->params.het_max_jobs };
	int rc = tp_het_cycle(&in, &plan, &out, &err);
	note_learned(&hc, &out);
	if (rc) {
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
