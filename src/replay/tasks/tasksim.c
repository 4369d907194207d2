/* tasksim.c - the task-level simulator's event loop; see tasksim.h. */
#include "tasks/tasksim.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/evheap.h"

/* Longest time a submit, a failure or one copy's run may take, s: far
 * from the limits of int64 microseconds. */
#define TS_MAX_RUN 1e9

enum { C_IDLE, C_WAIT, C_RUN, C_DONE, C_CANCEL, C_LOST };

typedef struct ts_copy {
	int job;
	int task;         /* index within its job */
	int node;         /* while running */
	int next, prev;   /* delay-queue links; -1 ends */
	int64_t start;    /* us, while running */
	uint32_t gen;     /* bumped when a running copy stops early */
	unsigned char state;
} ts_copy;

typedef struct ts_sim {
	const tp_ts_input *in;
	tp_ll_pick_fn pick;
	tp_ll_nodes nodes;
	ts_copy *c;
	int *cbase;       /* first copy of each job (copies r-major) */
	int *left;        /* tasks without a result, per job */
	bool *done;       /* per task: tbase[job] + task */
	int *tbase;
	int *qhead, *qtail, *nwait; /* delay queues, per job */
	int *by_id;       /* job indices by id: the delay queues' priority */
	int *by_submit;   /* job indices by submit, then input order */
	int *by_fail;     /* failing nodes by failure time, then index */
	int nfail;
	int *excl;        /* scratch: nodes of a task's running copies */
	int *serve;       /* scratch: nodes to serve after a finish */
	tp_evheap heap;
	int64_t now, last_stop;
	double busy;      /* core-microseconds held by copies */
	tp_ts_result *out;
} ts_sim;

static int64_t to_us(double s)
{
	return (int64_t)llround(s * 1e6);
}

static int copy_of(const ts_sim *s, int j, int task, int r)
{
	return s->cbase[j] + r * s->in->job[j].tasks + task;
}

/* ---- delay queues ----------------------------------------------------- */

static void q_unlink(ts_sim *s, int x)
{
	ts_copy *c = &s->c[x];
	int j = c->job;
	if (c->prev >= 0)
		s->c[c->prev].next = c->next;
	else
		s->qhead[j] = c->next;
	if (c->next >= 0)
		s->c[c->next].prev = c->prev;
	else
		s->qtail[j] = c->prev;
	c->next = c->prev = -1;
	s->nwait[j]--;
}

static void q_push(ts_sim *s, int x, bool front)
{
	ts_copy *c = &s->c[x];
	int j = c->job;
	c->state = C_WAIT;
	if (front) {
		c->prev = -1;
		c->next = s->qhead[j];
		if (c->next >= 0)
			s->c[c->next].prev = x;
		else
			s->qtail[j] = x;
		s->qhead[j] = x;
	} else {
		c->next = -1;
		c->prev = s->qtail[j];
		if (c->prev >= 0)
			s->c[c->prev].next = x;
		else
			s->qhead[j] = x;
		s->qtail[j] = x;
	}
	s->nwait[j]++;
	s->out->tasks_delayed++;
}

/* ---- copies ----------------------------------------------------------- */

/* Nodes running a sibling of copy x (its task's other copies) into
 * s->excl; their count. */
static int siblings_running(ts_sim *s, int x)
{
	const ts_copy *c = &s->c[x];
	int n = 0;
	for (int r = 0; r < s->in->job[c->job].replicas; r++) {
		int y = copy_of(s, c->job, c->task, r);
		if (y != x && s->c[y].state == C_RUN)
			s->excl[n++] = s->c[y].node;
	}
	return n;
}

static bool sibling_on(ts_sim *s, int x, int k)
{
	int n = siblings_running(s, x);
	for (int i = 0; i < n; i++)
		if (s->excl[i] == k)
			return true;
	return false;
}

static int start_copy(ts_sim *s, int x, int k)
{
	ts_copy *c = &s->c[x];
	const tp_ts_job *jb = &s->in->job[c->job];
	tp_ll_take(&s->nodes, k, jb->cores, jb->mem);
	c->state = C_RUN;
	c->node = k;
	c->start = s->now;
	int64_t run = to_us(jb->work / s->nodes.speed[k]);
	tp_event e = { .time = s->now + (run > 0 ? run : 1),
		       .who = (uint32_t)x, .gen = c->gen };
	tp_ts_jobres *res = &s->out->job[c->job];
	if (res->first_start < 0)
		res->first_start = s->now / 1e6;
	return tp_evheap_push(&s->heap, e);
}

/* A running copy gives its node's resources back (finished, cancelled or
 * killed); its pending finish event goes stale. */
static void stop_copy(ts_sim *s, int x, int state)
{
	ts_copy *c = &s->c[x];
	const tp_ts_job *jb = &s->in->job[c->job];
	tp_ll_release(&s->nodes, c->node, jb->cores, jb->mem);
	s->busy += (double)jb->cores * (double)(s->now - c->start);
	s->last_stop = s->now;
	c->state = (unsigned char)state;
	c->gen++;
}

/* ---- serving the delay queues ---------------------------------------- */

/* Job j's first waiting copy node k can take now, or -1. */
static int first_fitting(ts_sim *s, int j, int k)
{
	const tp_ts_job *jb = &s->in->job[j];
	if (!tp_ll_fits(&s->nodes, k, jb->cores, jb->mem))
		return -1; /* a job's copies all need the same */
	for (int x = s->qhead[j]; x >= 0; x = s->c[x].next)
		if (!sibling_on(s, x, k))
			return x;
	return -1;
}

/* Node k freed a core: the smallest job id with a copy that fits wins it,
 * again while k has room (claims 8-9). */
static int serve_node(ts_sim *s, int k)
{
	for (;;) {
		int x = -1;
		for (int i = 0; i < s->in->njobs && x < 0; i++)
			if (s->nwait[s->by_id[i]])
				x = first_fitting(s, s->by_id[i], k);
		if (x < 0)
			return 0;
		q_unlink(s, x);
		if (start_copy(s, x, k))
			return -1;
	}
}

/* After a failure: every waiting copy, in job id order, goes where the
 * placement rule puts it, if anywhere. */
static int serve_any(ts_sim *s)
{
	for (int i = 0; i < s->in->njobs; i++) {
		int j = s->by_id[i];
		const tp_ts_job *jb = &s->in->job[j];
		for (int x = s->qhead[j], next; x >= 0; x = next) {
			next = s->c[x].next;
			int k = s->pick(&s->nodes, jb->cores, jb->mem, s->excl,
					siblings_running(s, x));
			if (k < 0)
				continue;
			q_unlink(s, x);
			if (start_copy(s, x, k))
				return -1;
		}
	}
	return 0;
}

/* ---- events ----------------------------------------------------------- */

/* A copy's result is in: its task is done, its siblings are cancelled,
 * then the nodes that got cores back are served (the finishing copy's
 * first, then the cancelled copies' in copy order). */
static int on_finish(ts_sim *s, int x)
{
	ts_copy *c = &s->c[x];
	int j = c->job, k = c->node, nserve = 0;
	stop_copy(s, x, C_DONE);
	s->done[s->tbase[j] + c->task] = true;
	s->out->node_results[k]++;
	s->serve[nserve++] = k;
	for (int r = 0; r < s->in->job[j].replicas; r++) {
		int y = copy_of(s, j, c->task, r);
		if (s->c[y].state == C_RUN) {
			s->serve[nserve++] = s->c[y].node;
			stop_copy(s, y, C_CANCEL);
		} else if (s->c[y].state == C_WAIT) {
			q_unlink(s, y);
			s->c[y].state = C_CANCEL;
		} else {
			continue;
		}
		s->out->copies_cancelled++;
	}
	if (--s->left[j] == 0)
		s->out->job[j].end = s->now / 1e6;
	for (int i = 0; i < nserve; i++)
		if (serve_node(s, s->serve[i]))
			return -1;
	return 0;
}

static bool task_alive(const ts_sim *s, int j, int task)
{
	for (int r = 0; r < s->in->job[j].replicas; r++) {
		int st = s->c[copy_of(s, j, task, r)].state;
		if (st == C_RUN || st == C_WAIT)
			return true;
	}
	return false;
}

/* Every copy of the task lost: it re-runs from the start, ahead of the
 * job's other waiting copies. */
static void requeue_task(ts_sim *s, int j, int task)
{
	s->out->tasks_lost++;
	s->out->job[j].reruns++;
	for (int r = s->in->job[j].replicas - 1; r >= 0; r--)
		q_push(s, copy_of(s, j, task, r), true);
}

static int on_failure(ts_sim *s, int k)
{
	int ncopies = s->cbase[s->in->njobs];
	s->nodes.up[k] = false;
	for (int x = 0; x < ncopies; x++)
		if (s->c[x].state == C_RUN && s->c[x].node == k)
			stop_copy(s, x, C_LOST);
	/* Descending, so the front of each queue ends in task order. */
	for (int x = ncopies - 1; x >= 0; x--) {
		ts_copy *c = &s->c[x];
		if (c->state != C_LOST || c->node != k)
			continue;
		c->node = -1; /* counted once, by its last lost copy */
		if (!s->done[s->tbase[c->job] + c->task] &&
		    !task_alive(s, c->job, c->task))
			requeue_task(s, c->job, c->task);
	}
	return serve_any(s);
}

/* Claim 7: copies go where the rule puts them while it can; the rest
 * wait in the job's delay queue even where memory is free. */
static int on_arrival(ts_sim *s, int j)
{
	const tp_ts_job *jb = &s->in->job[j];
	for (int x = s->cbase[j]; x < s->cbase[j + 1]; x++) {
		int k = s->pick(&s->nodes, jb->cores, jb->mem, s->excl,
				siblings_running(s, x));
		if (k < 0)
			q_push(s, x, false);
		else if (start_copy(s, x, k))
			return -1;
	}
	return 0;
}

/* ---- setup ------------------------------------------------------------ */

static const tp_ts_input *sort_in; /* qsort has no context argument */

static int cmp_id(const void *a, const void *b)
{
	int64_t x = sort_in->job[*(const int *)a].id;
	int64_t y = sort_in->job[*(const int *)b].id;
	return x < y ? -1 : x > y;
}

static int cmp_submit(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	int64_t x = to_us(sort_in->job[i].submit), y = to_us(sort_in->job[j].submit);
	if (x != y)
		return x < y ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int cmp_fail(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	int64_t x = to_us(sort_in->node[i].fail), y = to_us(sort_in->node[j].fail);
	if (x != y)
		return x < y ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* A job some node could hold, with no more copies than nodes. */
static int check_job(const tp_ts_input *in, int j, tp_error *err)
{
	const tp_ts_job *jb = &in->job[j];
	if (jb->tasks < 1 || jb->cores < 1 || jb->replicas < 1 ||
	    !(jb->work > 0) || !(jb->mem >= 0) ||
	    !(jb->submit >= 0 && jb->submit <= TS_MAX_RUN))
		return tp_errorf(err, "job %lld: Tasks, CPUs, Replicas >= 1, Work > 0, Memory >= 0 and Submit from 0 to 1e9 needed",
				 (long long)jb->id);
	if (jb->replicas > in->nnodes)
		return tp_errorf(err, "job %lld: Replicas=%d but only %d node(s): copies of a task never share a node",
				 (long long)jb->id, jb->replicas, in->nnodes);
	for (int k = 0; k < in->nnodes; k++)
		if (!(jb->work / in->node[k].speed <= TS_MAX_RUN))
			return tp_errorf(err, "job %lld: Work %g on node %s (speed %g) runs over %g s",
					 (long long)jb->id, jb->work,
					 in->node[k].name ? in->node[k].name : "?",
					 in->node[k].speed, TS_MAX_RUN);
	for (int k = 0; k < in->nnodes; k++)
		if (in->node[k].cores >= jb->cores && in->node[k].mem >= jb->mem)
			return 0;
	return tp_errorf(err, "job %lld: no node has %d CPUs and %g MiB for one task",
			 (long long)jb->id, jb->cores, jb->mem);
}

static int check_input(const tp_ts_input *in, tp_error *err)
{
	int64_t copies = 0;
	if (in->nnodes < 1)
		return tp_errorf(err, "no nodes");
	for (int k = 0; k < in->nnodes; k++)
		if (in->node[k].cores < 1 || !(in->node[k].speed > 0) ||
		    !(in->node[k].mem > 0) || !(in->node[k].fail <= TS_MAX_RUN))
			return tp_errorf(err, "node %s: CPUs >= 1, Memory > 0, Speed > 0 and Fail <= 1e9 needed",
					 in->node[k].name ? in->node[k].name : "?");
	for (int j = 0; j < in->njobs; j++) {
		if (check_job(in, j, err))
			return -1;
		copies += (int64_t)in->job[j].tasks * in->job[j].replicas;
		if (copies > (1 << 28))
			return tp_errorf(err, "job %lld: more than %d task copies in all",
					 (long long)in->job[j].id, 1 << 28);
	}
	return 0;
}

static int check_ids(const tp_ts_input *in, const int *by_id, tp_error *err)
{
	for (int i = 1; i < in->njobs; i++)
		if (in->job[by_id[i]].id == in->job[by_id[i - 1]].id)
			return tp_errorf(err, "job %lld: duplicate job id",
					 (long long)in->job[by_id[i]].id);
	return 0;
}

static void sim_free(ts_sim *s)
{
	tp_ll_fini(&s->nodes);
	free(s->c);
	free(s->cbase);
	free(s->left);
	free(s->done);
	free(s->tbase);
	free(s->qhead);
	free(s->qtail);
	free(s->nwait);
	free(s->by_id);
	free(s->by_submit);
	free(s->by_fail);
	free(s->excl);
	free(s->serve);
	tp_evheap_fini(&s->heap);
}

static int sim_alloc(ts_sim *s)
{
	const tp_ts_input *in = s->in;
	size_t nj = (size_t)in->njobs + 1, nn = (size_t)in->nnodes + 1;
	s->cbase = calloc(nj, sizeof(int));
	s->tbase = calloc(nj, sizeof(int));
	s->left = calloc(nj, sizeof(int));
	s->qhead = calloc(nj, sizeof(int));
	s->qtail = calloc(nj, sizeof(int));
	s->nwait = calloc(nj, sizeof(int));
	s->by_id = calloc(nj, sizeof(int));
	s->by_submit = calloc(nj, sizeof(int));
	s->by_fail = calloc(nn, sizeof(int));
	s->excl = calloc(nn, sizeof(int));
	s->serve = calloc(nn + 1, sizeof(int));
	if (!s->cbase || !s->tbase || !s->left || !s->qhead || !s->qtail ||
	    !s->nwait || !s->by_id || !s->by_submit || !s->by_fail ||
	    !s->excl || !s->serve || tp_ll_init(&s->nodes, in->nnodes))
		return -1;
	for (int j = 0; j < in->njobs; j++) {
		const tp_ts_job *jb = &in->job[j];
		s->cbase[j + 1] = s->cbase[j] + jb->tasks * jb->replicas;
		s->tbase[j + 1] = s->tbase[j] + jb->tasks;
	}
	s->c = calloc((size_t)s->cbase[in->njobs] + 1, sizeof(*s->c));
	s->done = calloc((size_t)s->tbase[in->njobs] + 1, sizeof(*s->done));
	return s->c && s->done ? 0 : -1;
}

static void sim_init(ts_sim *s)
{
	const tp_ts_input *in = s->in;
	for (int k = 0; k < in->nnodes; k++) {
		s->nodes.cores[k] = in->node[k].cores;
		s->nodes.mem[k] = in->node[k].mem;
		s->nodes.speed[k] = in->node[k].speed;
		if (in->node[k].fail >= 0)
			s->by_fail[s->nfail++] = k;
	}
	for (int j = 0; j < in->njobs; j++) {
		const tp_ts_job *jb = &in->job[j];
		s->left[j] = jb->tasks;
		s->qhead[j] = s->qtail[j] = -1;
		s->by_id[j] = s->by_submit[j] = j;
		for (int x = s->cbase[j]; x < s->cbase[j + 1]; x++)
			s->c[x] = (ts_copy){ .job = j,
					     .task = (x - s->cbase[j]) % jb->tasks,
					     .node = -1, .next = -1, .prev = -1 };
		s->out->job[j] = (tp_ts_jobres){ .submit = jb->submit,
						 .first_start = -1, .end = -1 };
	}
	sort_in = in;
	qsort(s->by_id, (size_t)in->njobs, sizeof(int), cmp_id);
	qsort(s->by_submit, (size_t)in->njobs, sizeof(int), cmp_submit);
	qsort(s->by_fail, (size_t)s->nfail, sizeof(int), cmp_fail);
}

/* ---- the loop --------------------------------------------------------- */

static int64_t next_time(const ts_sim *s, int ai, int fi)
{
	int64_t t = INT64_MAX;
	const tp_event *e = tp_evheap_top(&s->heap);
	if (e)
		t = e->time;
	if (ai < s->in->njobs) {
		int64_t a = to_us(s->in->job[s->by_submit[ai]].submit);
		t = a < t ? a : t;
	}
	if (fi < s->nfail) {
		int64_t f = to_us(s->in->node[s->by_fail[fi]].fail);
		t = f < t ? f : t;
	}
	return t;
}

/* One instant: finishes, then failures, then arrivals. */
static int step(ts_sim *s, int *ai, int *fi)
{
	const tp_event *e;
	while ((e = tp_evheap_top(&s->heap)) && e->time == s->now) {
		tp_event ev = tp_evheap_pop(&s->heap);
		ts_copy *c = &s->c[ev.who];
		if (c->state == C_RUN && c->gen == ev.gen && on_finish(s, (int)ev.who))
			return -1;
	}
	while (*fi < s->nfail &&
	       to_us(s->in->node[s->by_fail[*fi]].fail) == s->now)
		if (on_failure(s, s->by_fail[(*fi)++]))
			return -1;
	while (*ai < s->in->njobs &&
	       to_us(s->in->job[s->by_submit[*ai]].submit) == s->now)
		if (on_arrival(s, s->by_submit[(*ai)++]))
			return -1;
	return 0;
}

static void summarize(ts_sim *s)
{
	const tp_ts_input *in = s->in;
	tp_ts_result *o = s->out;
	double first = INFINITY, last = -INFINITY, sum = 0;
	for (int j = 0; j < in->njobs; j++) {
		const tp_ts_jobres *r = &o->job[j];
		first = fmin(first, r->submit);
		if (r->end < 0)
			continue;
		o->jobs_finished++;
		last = fmax(last, r->end);
		sum += r->end - r->submit;
	}
	if (!o->jobs_finished)
		return;
	o->makespan = last - first;
	o->mean_job_time = sum / o->jobs_finished;
	double t0 = first, t1 = s->last_stop / 1e6, cap = 0;
	for (int k = 0; k < in->nnodes; k++) {
		double end = in->node[k].fail >= 0 ? fmin(in->node[k].fail, t1) : t1;
		if (end > t0)
			cap += in->node[k].cores * (end - t0);
	}
	o->core_util = cap > 0 ? s->busy / 1e6 / cap : 0;
}

int tp_ts_run(const tp_ts_input *in, tp_ll_pick_fn pick, tp_ts_result *out,
	      tp_error *err)
{
	ts_sim s = { .in = in, .pick = pick ? pick : tp_ll_pick, .out = out };
	*out = (tp_ts_result){ .njobs = in->njobs, .nnodes = in->nnodes };
	out->job = calloc((size_t)in->njobs + 1, sizeof(*out->job));
	out->node_results = calloc((size_t)in->nnodes + 1, sizeof(int));
	int rc = -1;
	if (check_input(in, err))
		goto done;
	if (!out->job || !out->node_results || sim_alloc(&s)) {
		tp_errorf(err, "task simulation: out of memory");
		goto done;
	}
	sim_init(&s);
	if (check_ids(in, s.by_id, err))
		goto done;
	int ai = 0, fi = 0;
	for (;;) {
		int64_t t = next_time(&s, ai, fi);
		if (t == INT64_MAX)
			break;
		s.now = t;
		if (step(&s, &ai, &fi)) {
			tp_errorf(err, "task simulation: out of memory");
			goto done;
		}
	}
	summarize(&s);
	rc = 0;
done:
	sim_free(&s);
	if (rc)
		tp_ts_result_fini(out);
	return rc;
}

void tp_ts_result_fini(tp_ts_result *r)
{
	free(r->job);
	free(r->node_results);
	*r = (tp_ts_result){ 0 };
}
