/*
 * engine.c - event-driven replay of a workload; see engine.h.
 *
 * Time only moves here.  Each timestamp is handled in three steps, always in
 * the same order so runs are reproducible and match the live plugin's view:
 * (1) ends: completions first, then jobs reaching their limit (the policy
 * may extend or resubmit them), each group in job order; (2) arrivals in
 * file order; (3) one scheduling pass, whose starts are carried out here.
 */
#include "engine/engine.h"
#include "base/grow.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/placeable.h"
#include "driver/admit.h"
#include "driver/driver.h"
#include "driver/switches.h"
#include "engine/evheap.h"

typedef struct replay_job {
	tp_job job;          /* what the policy sees */
	int64_t runtime;     /* the trace's secret */
	int64_t run;         /* this run's: runtime, or its dilation */
	double spread;       /* the run-time model's, -1 without one */
	int64_t start;
	int64_t min_resv;    /* earliest reservation made for it, or INT64_MAX */
	long run_idx;        /* index in cluster.run while running, else -1 */
	uint32_t gen;        /* bumped whenever its pending event goes stale */
	int attempt, extensions;
	int req_groups;      /* --switches N (Switches=N), 0: none */
	int64_t switch_wait; /* how long it waits for them (switches.h) */
	bool sits_out;       /* held out of the current pass */
	bool fill;
	double cost;
	char *nodelist;
	tp_prio_key key;     /* opts.order: its place in the queue */
	int64_t charged_nodes; /* opts.limits: the nodes its run was charged */
} replay_job;

typedef struct engine {
	tp_policy *policy;
	tp_alloc *alloc;
	const tp_engine_opts *opts;
	tp_cluster c;
	replay_job *jobs;
	size_t njobs, next_arrival, finished;
	tp_evheap heap;
	uint32_t *due;       /* jobs whose event fires at the current time */
	size_t ndue;
	tp_nodeset before, used; /* invariant checks */
	tp_nodeset all;      /* the idle machine, for arrival checks */
	tp_placeable placeable;
	tp_job **held;       /* the queue before jobs sat out a pass */
	size_t nheld;
	tp_sim_result *out;
	tp_error *err;
	int64_t next_tick;   /* opts.order: the next recalculation */
	size_t appended;     /* opts.order: jobs queued at the tail since the
			      * queue was last in order */
	/* opts.rhythm: the next periodic main and backfill passes, -1
	 * before the first event */
	int64_t next_sched, next_bf;
	/* opts.rhythm: nothing runs and both periodic passes have looked at
	 * the queue since: no later tick can start anything */
	bool stalled;
	/* Resources inside nodes (tp_workload.node_res): the cluster's
	 * allocations, the idle machine (admission), when each node last
	 * went from idle to busy (-1: idle), scratch for admission. */
	bool shared;
	tp_res res, idle;
	int64_t *busy_since;
	tp_nodeset hosts;
} engine;

const char *tp_status_name(tp_status s)
{
	switch (s) {
	case TP_COMPLETED: return "completed";
	case TP_KILLED: return "killed";
	case TP_EXTENDED: return "extended";
	}
	return "?";
}

static int push_end_event(engine *e, replay_job *j)
{
	const tp_run *r = &e->c.run[j->run_idx];
	int64_t end = j->start + j->run;
	tp_event ev = {
		.time = end < r->limit ? end : r->limit,
		.who = (uint32_t)(j - e->jobs),
		.gen = ++j->gen,
	};
	if (tp_evheap_push(&e->heap, ev))
		return tp_errorf(e->err, "out of memory");
	return 0;
}

static int add_record(engine *e, const replay_job *j, int64_t end,
		      tp_status status)
{
	tp_sim_result *o = e->out;
	tp_record *p = tp_grow(o->rec, &o->caprec, o->nrec, sizeof(*p), 1024);
	if (!p)
		return tp_errorf(e->err, "out of memory");
	o->rec = p;
	const tp_run *r = &e->c.run[j->run_idx];
	const tp_engine_latency *lat = &e->opts->latency;
	o->rec[o->nrec++] = (tp_record){
		.id = j->job.id, .submit = j->job.submit - lat->start,
		.start = j->start, .end = end - lat->release,
		.nodes_req = j->job.nodes, .nodes_alloc = r->count,
		.estimate = j->job.estimate - lat->release,
		.runtime = j->runtime, .run = j->run - lat->release,
		.spread = j->spread,
		.status = status, .extensions = j->extensions,
		.attempt = j->attempt, .fill = j->fill, .cost = j->cost,
		.nodelist = j->nodelist,
	};
	if (end - lat->release > o->last_end)
		o->last_end = end - lat->release;
	return 0;
}

/* With resources inside nodes: the CPUs a run holds, and the nodes it
 * leaves idle (their busy time ends now). */
static void count_release(engine *e, const tp_run *r)
{
	const tp_res_ask *ask = tp_cluster_ask(r->job);
	int64_t cpus = 0;
	for (int x = tp_nodeset_next(&r->nodes, r->wlo * 64); x >= 0;
	     x = tp_nodeset_next(&r->nodes, x + 1)) {
		cpus += tp_res_amount(&e->res, x, ask).cpus;
		if (e->res.jobs[x] == 1) {
			e->out->occupied += (double)(e->c.now - e->busy_since[x]);
			e->busy_since[x] = -1;
		}
	}
	e->out->cpu_busy += (double)cpus * (double)(e->c.now - r->start);
}

/* The job to the limits (opts.limits). */
static tp_limits_who who_of(const tp_job *j)
{
	return (tp_limits_who){ .qos = j->qos, .user = j->user, .assoc = j->assoc };
}

/* Job j is done for good: it no longer counts against submit limits. */
static void job_done(engine *e, const replay_job *j)
{
	e->finished++;
	if (e->opts->limits)
		tp_limits_leave(e->opts->limits, who_of(&j->job));
}

/* Job j's run ends at the current time; its nodes become free. */
static int end_run(engine *e, replay_job *j, tp_status status)
{
	const tp_engine_order *o = e->opts->order;
	if (o && o->ended)
		o->ended(o->arg, &j->job, j->start, e->c.now);
	if (e->opts->limits)
		tp_limits_charge(e->opts->limits, who_of(&j->job),
				 j->job.cpus, j->charged_nodes, -1);
	if (e->shared)
		count_release(e, &e->c.run[j->run_idx]);
	if (add_record(e, j, e->c.now, status))
		return -1;
	j->nodelist = NULL; /* now owned by the record */
	tp_cluster_end_run(&e->c, (size_t)j->run_idx, 1);
	if ((size_t)j->run_idx < e->c.nrun) /* the last entry moved here */
		((replay_job *)e->c.run[j->run_idx].job->owner)->run_idx = j->run_idx;
	j->run_idx = -1;
	j->gen++;
	return 0;
}

static int push_wake_event(engine *e, replay_job *j);

/* opts.order: a job entering the queue gets its key now. */
static void new_key(engine *e, replay_job *j)
{
	const tp_engine_order *o = e->opts->order;
	if (!o)
		return;
	o->key(o->arg, &j->job, e->c.now, &j->key);
	e->appended++;
}

static int resubmit(engine *e, replay_job *j, int64_t estimate)
{
	j->attempt++;
	j->extensions = 0;
	j->fill = false;
	j->min_resv = INT64_MAX;
	j->job.submit = e->c.now + e->opts->latency.start;
	j->job.estimate = (estimate > 0 ? estimate : 1) + e->opts->latency.release;
	if (tp_cluster_enqueue(&e->c, &j->job) || push_wake_event(e, j))
		return tp_errorf(e->err, "out of memory");
	new_key(e, j);
	return 0;
}

/* A running job reached its limit: the policy decides (time unit 1 s). */
static int at_limit(engine *e, replay_job *j)
{
	tp_limit_answer a = tp_driver_at_limit(e->policy, &e->c,
					       (size_t)j->run_idx, 1);
	switch (a.action) {
	case TP_LIMIT_EXTEND:
		j->extensions++;
		return push_end_event(e, j);
	case TP_LIMIT_RESUBMIT:
		if (end_run(e, j, TP_KILLED))
			return -1;
		return resubmit(e, j, a.arg);
	case TP_LIMIT_KILL:
		break;
	}
	job_done(e, j);
	return end_run(e, j, TP_KILLED);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Collect every live event at `now` into e->due, sorted by job order. */
static int collect_due(engine *e)
{
	e->ndue = 0;
	const tp_event *top;
	while ((top = tp_evheap_top(&e->heap)) && top->time <= e->c.now) {
		tp_event ev = tp_evheap_pop(&e->heap);
		if (ev.gen != e->jobs[ev.who].gen)
			continue; /* stale */
		e->due[e->ndue++] = ev.who;
	}
	qsort(e->due, e->ndue, sizeof(*e->due), cmp_u32);
	return 0;
}

static bool run_done(const engine *e, const replay_job *j)
{
	return j->start + j->run <= e->c.now;
}

/* Step 1: completions, then limits, each in job order. */
static int process_ends(engine *e)
{
	collect_due(e);
	for (size_t k = 0; k < e->ndue; k++) {
		replay_job *j = &e->jobs[e->due[k]];
		if (j->run_idx < 0 || !run_done(e, j))
			continue; /* a queued job's wake-up (switch wait) */
		job_done(e, j);
		if (end_run(e, j, j->extensions ? TP_EXTENDED : TP_COMPLETED))
			return -1;
	}
	for (size_t k = 0; k < e->ndue; k++) {
		replay_job *j = &e->jobs[e->due[k]];
		if (j->run_idx >= 0 &&
		    tp_driver_limit_due(&e->c.run[j->run_idx], e->c.now, 0, -1) &&
		    at_limit(e, j))
			return -1;
	}
	return 0;
}

/* A job waiting for its switches is looked at again when its wait ends
 * (slurmctld looks at its next cycle; the simulator's passes happen at
 * events): an event then, which ends nothing. */
static int push_wake_event(engine *e, replay_job *j)
{
	if (!j->req_groups || j->switch_wait == TP_SWITCH_WAIT_FOREVER)
		return 0;
	tp_event ev = { .time = j->job.submit + j->switch_wait,
			.who = (uint32_t)(j - e->jobs), .gen = ++j->gen };
	return tp_evheap_push(&e->heap, ev);
}

/* The jobs that sit this pass out, in their places: those QOS limits
 * hold (opts.limits), and under --switches (driver/switches.h) those
 * that cannot be placed within their group limit now, as in sched/topo.
 * Returns how many; the full queue is kept in e->held. */
static size_t hold_sitting_out(engine *e)
{
	tp_cluster *c = &e->c;
	tp_limits *l = e->opts->limits;
	size_t out = 0, keep = 0;
	if (l)
		tp_limits_pass_begin(l);
	for (size_t i = 0; i < c->nqueue; i++) {
		replay_job *j = c->queue[i]->owner;
		j->sits_out = l && !tp_limits_pass(l, who_of(&j->job),
						    j->job.cpus, j->job.nodes);
		if (j->sits_out) {
			out++;
			continue;
		}
		if (!j->req_groups)
			continue;
		j->job.max_groups = tp_switch_limit(j->req_groups, j->switch_wait,
						    j->job.submit, c->now,
						    e->alloc->groups != NULL);
		j->sits_out = tp_switch_sits_out(e->alloc, &c->free, &j->job,
						 &e->placeable.scratch);
		out += j->sits_out;
	}
	if (!out)
		return 0;
	memcpy(e->held, c->queue, c->nqueue * sizeof(*c->queue));
	for (size_t i = 0; i < c->nqueue; i++)
		if (!((replay_job *)c->queue[i]->owner)->sits_out)
			c->queue[keep++] = c->queue[i];
	e->nheld = c->nqueue;
	c->nqueue = keep;
	return out;
}

/* After the pass: the jobs that sat out go back to their places. */
static void return_sitting_out(engine *e)
{
	tp_cluster *c = &e->c;
	size_t n = 0, k = 0;
	for (size_t i = 0; i < e->nheld; i++) {
		tp_job *j = e->held[i];
		if (((replay_job *)j->owner)->sits_out)
			e->held[n++] = j;
		else if (k < c->nqueue && c->queue[k] == j)
			e->held[n++] = c->queue[k++];
	}
	memcpy(c->queue, e->held, n * sizeof(*c->queue));
	c->nqueue = n;
	e->nheld = 0;
}

/* Admission (driver/admit.h) on the idle machine. */
static bool ever_placeable(engine *e, const tp_job *job)
{
	if (e->shared)
		return tp_driver_admit_res(&e->placeable, e->alloc, &e->idle,
					   &e->all, job, &e->hosts);
	return tp_driver_admit(&e->placeable, e->alloc, &e->all, job);
}

/* Step 2: arrivals at `now`, in file order. */
static int process_arrivals(engine *e)
{
	while (e->next_arrival < e->njobs &&
	       e->jobs[e->next_arrival].job.submit <= e->c.now) {
		replay_job *j = &e->jobs[e->next_arrival++];
		if (!ever_placeable(e, &j->job)) {
			e->out->rejected++;
			e->finished++;
			continue;
		}
		if (e->opts->limits &&
		    !tp_limits_submit(e->opts->limits, who_of(&j->job))) {
			e->out->refused++;
			e->finished++;
			continue;
		}
		if (tp_cluster_enqueue(&e->c, &j->job) || push_wake_event(e, j))
			return tp_errorf(e->err, "out of memory");
		new_key(e, j);
	}
	return 0;
}

static int by_key(const void *a, const void *b)
{
	const replay_job *x = (*(tp_job *const *)a)->owner;
	const replay_job *y = (*(tp_job *const *)b)->owner;
	return tp_prio_order(&x->key, &y->key);
}

/* The queue's last `n` entries, queued since it was in order, moved to
 * their places (binary search in the ordered rest): a pass at every
 * arrival then costs no full sort. */
static void insert_tail(tp_cluster *c, size_t n)
{
	for (size_t k = c->nqueue - n; k < c->nqueue; k++) {
		tp_job *x = c->queue[k];
		size_t lo = 0, hi = k;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (by_key(&c->queue[mid], &x) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(&c->queue[lo + 1], &c->queue[lo], (k - lo) * sizeof(*c->queue));
		c->queue[lo] = x;
	}
}

/* opts.order: at a tick the site recalculates and every waiting job gets
 * its key again, and the queue is sorted; between ticks the jobs queued
 * since are put in their places. */
static int order_queue(engine *e)
{
	const tp_engine_order *o = e->opts->order;
	tp_cluster *c = &e->c;
	if (!o)
		return 0;
	if (c->now >= e->next_tick) {
		if (o->tick(o->arg, c, e->err))
			return -1;
		for (size_t i = 0; i < c->nqueue; i++)
			o->key(o->arg, c->queue[i], c->now,
			       &((replay_job *)c->queue[i]->owner)->key);
		e->next_tick = (c->now / o->period + 1) * o->period;
		if (c->nqueue > 1)
			qsort(c->queue, c->nqueue, sizeof(*c->queue), by_key);
	} else if (e->appended && c->nqueue > 1) {
		insert_tail(c, e->appended < c->nqueue ? e->appended : c->nqueue);
	}
	e->appended = 0;
	return 0;
}

/* With opts.check: a start must use free, unshared nodes within the job's
 * node constraints, enough of them, and must not come before its submit
 * time or after its reservation. */
static int check_start(engine *e, const tp_start *s, const replay_job *j)
{
	/* Shared nodes: checked on the allocations after the pass. */
	if (!e->shared && (!tp_nodeset_subset(&s->nodes, &e->before) ||
			   tp_nodeset_intersects(&s->nodes, &e->used)))
		return tp_errorf(e->err, "t=%" PRId64 ": job %" PRId64
				 " placed on busy nodes", e->c.now, j->job.id);
	if ((j->job.allowed && !tp_nodeset_subset(&s->nodes, j->job.allowed)) ||
	    (j->job.required && !tp_nodeset_subset(j->job.required, &s->nodes)))
		return tp_errorf(e->err, "t=%" PRId64 ": job %" PRId64
				 " placed against its node constraints",
				 e->c.now, j->job.id);
	if (j->job.max_groups > 0 && e->alloc->groups &&
	    tp_groups_touched(e->alloc->groups, &s->nodes) > j->job.max_groups)
		return tp_errorf(e->err, "t=%" PRId64 ": job %" PRId64
				 " placed on more than %d switches",
				 e->c.now, j->job.id, j->job.max_groups);
	if (tp_job_has_range(&j->job) &&
	    tp_nodeset_count(&s->nodes) > j->job.max_nodes)
		return tp_errorf(e->err, "t=%" PRId64 ": job %" PRId64
				 " got %d nodes, more than its maximum %d",
				 e->c.now, j->job.id, tp_nodeset_count(&s->nodes),
				 j->job.max_nodes);
	if (tp_nodeset_count(&s->nodes) < j->job.nodes)
		return tp_errorf(e->err, "t=%" PRId64 ": job %" PRId64
				 " got %d of %d nodes", e->c.now, j->job.id,
				 tp_nodeset_count(&s->nodes), j->job.nodes);
	if (e->c.now < j->job.submit)
		return tp_errorf(e->err, "job %" PRId64 " started before submit",
				 j->job.id);
	tp_nodeset_or(&e->used, &s->nodes);
	return 0;
}

static int start_job(engine *e, const tp_start *s, long run_idx)
{
	replay_job *j = s->job->owner;
	if (e->opts->check && check_start(e, s, j))
		return -1;
	if (j->min_resv < e->c.now) {
		e->out->resv_violations++;
		/* a reordered queue (opts.order) moves heads and their
		 * reservations, as priorities do in slurmctld */
		if (e->opts->check && !e->opts->order)
			return tp_errorf(e->err, "job %" PRId64 " started at %" PRId64
					 " after its reservation at %" PRId64,
					 j->job.id, e->c.now, j->min_resv);
	}
	j->start = e->c.now;
	j->run_idx = run_idx;
	if (e->opts->limits) {
		j->charged_nodes = tp_nodeset_count(&s->nodes);
		tp_limits_charge(e->opts->limits, who_of(&j->job),
				 j->job.cpus, j->charged_nodes, 1);
	}
	j->fill = s->fill_for != TP_NOT_FILL;
	j->cost = tp_alloc_cost(e->alloc, &s->nodes);
	j->run = j->runtime;
	j->spread = -1;
	tp_rtmodel *m = e->opts->runtime_model;
	if (m) { /* the placement sets how long it runs, nothing else */
		j->spread = tp_rtmodel_spread(m, &s->nodes);
		j->run = tp_rtmodel_dilate(j->runtime, m->share, j->spread);
	}
	j->run += e->opts->latency.release; /* its nodes held until then */
	if (e->shared)
		for (int x = tp_nodeset_next(&s->nodes, 0); x >= 0;
		     x = tp_nodeset_next(&s->nodes, x + 1))
			if (e->busy_since[x] < 0)
				e->busy_since[x] = e->c.now;
	if (e->opts->keep_nodelists && !(j->nodelist = tp_nodeset_format(&s->nodes)))
		return tp_errorf(e->err, "out of memory");
	const tp_engine_order *o = e->opts->order;
	if (o && o->started)
		o->started(o->arg, &j->job, j->start);
	return push_end_event(e, j);
}

/* opts.rhythm: the main scheduler's pass, over the whole queue at a
 * multiple of sched_interval, then the backfill pass at a multiple of
 * bf_interval (the first multiples at or after the first event). */
static int rhythm_pass(engine *e)
{
	const tp_rhythm *r = e->opts->rhythm;
	int64_t now = e->c.now;
	if (e->next_sched < 0) {
		e->next_sched = tp_rhythm_next(now - 1, r->sched_interval);
		e->next_bf = tp_rhythm_next(now - 1, r->bf_interval);
	}
	bool full = now >= e->next_sched, bf = now >= e->next_bf;
	if (full)
		e->next_sched = tp_rhythm_next(now, r->sched_interval);
	if (bf)
		e->next_bf = tp_rhythm_next(now, r->bf_interval);
	if (tp_driver_rhythm_pass(e->policy, &e->c, r, full, bf))
		return -1;
	if (e->c.nrun)
		e->stalled = false;
	else if ((full || r->sched_interval < 0) && (bf || r->bf_interval < 0))
		e->stalled = true;
	return 0;
}

/* Step 3: one pass; carry out its starts. */
static int process_pass(engine *e)
{
	tp_cluster *c = &e->c;
	size_t nrun_before = c->nrun;
	if (e->opts->check) {
		if (c->nfree != tp_nodeset_count(&c->free))
			return tp_errorf(e->err, "t=%" PRId64 ": %d free nodes "
					 "counted, %d free", c->now, c->nfree,
					 tp_nodeset_count(&c->free));
		tp_nodeset_copy(&e->before, &c->free);
		tp_nodeset_zero(&e->used);
	}
	size_t out = hold_sitting_out(e);
	if (!e->opts->rhythm)
		tp_driver_pass(e->policy, c);
	else if (rhythm_pass(e))
		return tp_errorf(e->err, "out of memory");
	if (out)
		return_sitting_out(e);
	e->out->passes++;
	for (size_t k = 0; k < c->nstarts; k++)
		if (start_job(e, &c->starts[k], (long)(nrun_before + k)))
			return -1;
	int x;
	if (e->opts->check && e->shared && (x = tp_res_overdrawn(&e->res)) >= 0)
		return tp_errorf(e->err, "t=%" PRId64 ": node %d holds more than it has (%d jobs, %d of %d CPUs)",
				 c->now, x, e->res.jobs[x], e->res.used[x].cpus,
				 e->res.total[x].cpus);
	if (c->resv_job) {
		replay_job *h = c->resv_job->owner;
		if (c->resv_time < h->min_resv)
			h->min_resv = c->resv_time;
	}
	return 0;
}

/* The next time anything happens, or INT64_MAX. */
static int64_t next_time(engine *e)
{
	int64_t t = INT64_MAX;
	if (e->next_arrival < e->njobs)
		t = e->jobs[e->next_arrival].job.submit;
	const tp_event *top;
	while ((top = tp_evheap_top(&e->heap)) && top->gen != e->jobs[top->who].gen)
		tp_evheap_pop(&e->heap);
	if (top && top->time < t)
		t = top->time;
	/* ticks while anything runs or waits (usage, ages) */
	if (e->opts->order && (e->c.nqueue || e->c.nrun) && e->next_tick < t)
		t = e->next_tick;
	/* The periodic passes, while jobs wait, until nothing runs and both
	 * have looked at the queue. */
	if (e->opts->rhythm && e->c.nqueue && !e->stalled && e->next_sched >= 0) {
		if (e->next_sched < t)
			t = e->next_sched;
		if (e->next_bf < t)
			t = e->next_bf;
	}
	return t;
}

/* Resources inside nodes: the cluster's allocations and the idle
 * machine's, each node idle. */
static int shared_init(engine *e, const tp_workload *w)
{
	if (tp_res_init(&e->res, w->nodes, w->node_res) ||
	    tp_res_init(&e->idle, w->nodes, w->node_res) ||
	    tp_nodeset_init(&e->hosts, w->nodes) ||
	    !(e->busy_since = malloc((size_t)w->nodes * sizeof(*e->busy_since))))
		return -1;
	for (int x = 0; x < w->nodes; x++) {
		e->busy_since[x] = -1;
		e->out->cpus += w->node_res[x].cpus;
	}
	e->shared = e->out->shared = true;
	e->c.res = &e->res;
	return 0;
}

static int engine_init(engine *e, const tp_workload *w)
{
	e->njobs = w->njobs;
	e->jobs = calloc(w->njobs + 1, sizeof(*e->jobs));
	e->due = calloc(w->njobs + 1, sizeof(*e->due));
	e->held = calloc(w->njobs + 1, sizeof(*e->held));
	if (!e->jobs || !e->due || !e->held || tp_placeable_init(&e->placeable, w->nodes) ||
	    tp_cluster_init(&e->c, w->nodes, e->alloc) ||
	    tp_nodeset_init(&e->before, w->nodes) ||
	    tp_nodeset_init(&e->used, w->nodes) ||
	    tp_nodeset_init(&e->all, w->nodes))
		return tp_errorf(e->err, "out of memory");
	tp_nodeset_fill(&e->all);
	if (w->node_res && shared_init(e, w))
		return tp_errorf(e->err, "out of memory (or a node without a CPU)");
	for (size_t i = 0; i < w->njobs; i++) {
		const tp_wjob *wj = &w->jobs[i];
		replay_job *j = &e->jobs[i];
		/* Slurm's latency (opts.latency) is part of the job to the
		 * scheduler: it arrives later and holds its nodes longer;
		 * its records keep its own times. */
		j->job = (tp_job){ .id = wj->id,
				   .submit = wj->submit + e->opts->latency.start,
				   .estimate = wj->estimate + e->opts->latency.release,
				   .nodes = wj->nodes,
				   .max_nodes = wj->max_nodes,
				   .seq = (int32_t)i, .owner = j,
				   .allowed = wj->allowed, .required = wj->required,
				   .contiguous = wj->contiguous,
				   .ask = e->shared ? wj->ask : NULL,
				   .part = wj->part, .user = wj->user,
				   .qos = wj->qos, .assoc = wj->assoc,
				   .cpus = wj->cpus };
		/* A limit for ever is part of admission; one with a wait is
		 * set pass by pass (hold_sitting_out). */
		j->req_groups = wj->max_groups;
		j->switch_wait = wj->max_groups ? wj->switch_wait : 0;
		if (j->switch_wait == TP_SWITCH_WAIT_FOREVER)
			j->job.max_groups = wj->max_groups;
		j->runtime = wj->runtime;
		j->min_resv = INT64_MAX;
		j->run_idx = -1;
		j->attempt = 1;
	}
	e->out->nodes = w->nodes;
	e->out->dilated = e->opts->runtime_model != NULL;
	e->out->first_submit = w->njobs ? w->jobs[0].submit : 0;
	return 0;
}

static void engine_fini(engine *e)
{
	for (size_t i = 0; i < e->njobs; i++)
		free(e->jobs[i].nodelist);
	free(e->jobs);
	free(e->due);
	free(e->held);
	tp_placeable_fini(&e->placeable);
	tp_nodeset_fini(&e->all);
	tp_evheap_fini(&e->heap);
	tp_cluster_fini(&e->c);
	tp_nodeset_fini(&e->before);
	tp_nodeset_fini(&e->used);
	tp_res_fini(&e->res);
	tp_res_fini(&e->idle);
	tp_nodeset_fini(&e->hosts);
	free(e->busy_since);
}

static int stuck(engine *e)
{
	const tp_job *h = e->c.queue[0];
	if (e->opts->limits && ((const replay_job *)h->owner)->sits_out)
		return tp_errorf(e->err, "t=%" PRId64 ": nothing runs and nothing arrives, "
				 "but job %" PRId64 " (%d nodes, %" PRId64 " CPUs) is held by its QOS's "
				 "limits: it can never start", e->c.now, h->id, h->nodes, h->cpus);
	return tp_errorf(e->err, "t=%" PRId64 ": nothing runs and nothing arrives, "
			 "but job %" PRId64 " (%d nodes) cannot be placed by "
			 "policy %s with allocator %s", e->c.now, h->id, h->nodes,
			 e->policy->ops->name, e->alloc->ops->name);
}

static int engine_loop(engine *e)
{
	size_t step = e->njobs / 1000 + 1, shown = 0;
	for (;;) {
		int64_t t = next_time(e);
		if (t == INT64_MAX)
			return e->c.nqueue ? stuck(e) : 0;
		e->c.now = t;
		e->out->events++;
		if (process_ends(e) || process_arrivals(e) || order_queue(e) ||
		    process_pass(e))
			return -1;
		if (e->opts->after_pass &&
		    e->opts->after_pass(e->opts->after_pass_arg, &e->c, e->err))
			return -1;
		if (e->opts->progress && e->finished >= shown + step) {
			shown = e->finished;
			e->opts->progress(e->opts->progress_arg, shown, e->njobs,
					  t);
		}
	}
}

int tp_simulate(const tp_workload *w, tp_policy *p, tp_alloc *a,
		const tp_engine_opts *opts, tp_sim_result *out, tp_error *err)
{
	static const tp_engine_opts no_opts;
	engine e = { .policy = p, .alloc = a, .opts = opts ? opts : &no_opts,
		     .out = out, .err = err, .next_sched = -1, .next_bf = -1 };
	memset(out, 0, sizeof(*out));
	if (a->nnodes != w->nodes)
		return tp_errorf(err, "allocator %s has %d nodes, workload %d",
				 a->ops->name, a->nnodes, w->nodes);
	if (e.opts->order && e.opts->order->period <= 0)
		return tp_errorf(err, "queue order: a recalculation period above 0 is needed");
	int rc = engine_init(&e, w);
	if (!rc)
		rc = engine_loop(&e);
	if (!rc && e.opts->progress)
		e.opts->progress(e.opts->progress_arg, e.njobs, e.njobs,
				 e.c.now);
	engine_fini(&e);
	return rc;
}

void tp_sim_result_fini(tp_sim_result *r)
{
	for (size_t i = 0; i < r->nrec; i++)
		free(r->rec[i].nodelist);
	free(r->rec);
	memset(r, 0, sizeof(*r));
}
