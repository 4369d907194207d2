/* rhythm.c - Slurm's scheduler rhythm; see rhythm.h. */
#include "policy/rhythm.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "policy/first_fit.h"

tp_rhythm tp_rhythm_defaults(void)
{
	return (tp_rhythm){ .sched_interval = 60, .default_queue_depth = 100,
			    .bf_interval = 30, .bf_max_job_test = 500,
			    .bf_window = 24 * 60 * 60, .bf_resolution = 60 };
}

/* One key, its Slurm range, where it goes (int64_t or int). */
typedef struct rhythm_key {
	const char *name;
	long lo, hi;
	int never_ok;   /* -1 accepted too */
	long scale;     /* seconds per unit */
	size_t off;
	int wide;       /* int64_t field */
} rhythm_key;

#define KEY64(n, lo, hi, nv, sc) { #n, lo, hi, nv, sc, offsetof(tp_rhythm, n), 1 }
#define KEYI(n, lo, hi) { #n, lo, hi, 0, 1, offsetof(tp_rhythm, n), 0 }

/* Ranges as slurmctld checks them (it logs an error and keeps its
 * default; a replay refuses the value instead). */
static const rhythm_key keys[] = {
	KEY64(sched_interval, 1, INT_MAX, 1, 1),
	KEYI(default_queue_depth, 0, INT_MAX),
	KEY64(bf_interval, 1, 10800, 1, 1),
	KEYI(bf_max_job_test, 1, 1000000),
	KEYI(bf_max_job_user, 0, INT_MAX),
	KEYI(bf_max_job_part, 0, INT_MAX),
	KEY64(bf_window, 1, 30 * 24 * 60, 0, 60),
	KEY64(bf_resolution, 1, 3600, 0, 1),
};

static int set_key(tp_rhythm *r, const rhythm_key *k, const char *v,
		   size_t len, tp_error *err)
{
	char buf[32], *end;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	errno = 0;
	long x = strtol(buf, &end, 10);
	if (!len || *end || errno || ((x < k->lo || x > k->hi) &&
				      !(k->never_ok && x == -1)))
		return tp_errorf(err, "SchedulerParameters %s=%s: not an integer in [%ld, %ld]%s",
				 k->name, buf, k->lo, k->hi,
				 k->never_ok ? " or -1" : "");
	char *f = (char *)r + k->off;
	if (k->wide)
		*(int64_t *)f = x == -1 ? -1 : (int64_t)x * k->scale;
	else
		*(int *)f = (int)x;
	return 0;
}

int tp_rhythm_parse(tp_rhythm *r, const char *sched_params, tp_error *err)
{
	for (const char *p = sched_params; p && *p;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=,");
		for (size_t i = 0; klen < len && i < sizeof(keys) / sizeof(*keys); i++)
			if (strlen(keys[i].name) == klen &&
			    !strncasecmp(p, keys[i].name, klen) &&
			    set_key(r, &keys[i], p + klen + 1, len - klen - 1, err))
				return -1;
		p += len + (p[len] == ',');
	}
	return 0;
}

int tp_rhythm_scheduler(tp_rhythm *r, const char *sched_type,
			int topo_period, tp_error *err)
{
	if (!strcasecmp(sched_type, "sched/builtin")) {
		r->bf_interval = -1;
	} else if (!strcasecmp(sched_type, "sched/topo")) {
		r->bf_interval = topo_period;
		r->bf_max_job_test = INT_MAX;
		r->bf_max_job_user = r->bf_max_job_part = 0;
		r->bf_window = INT64_MAX;
		r->bf_resolution = 0;
	} else if (strcasecmp(sched_type, "sched/backfill")) {
		return tp_errorf(err, "SchedulerType=%s: expected sched/backfill, sched/builtin or sched/topo",
				 sched_type);
	}
	if (r->sched_interval < 0 && r->bf_interval < 0)
		return tp_errorf(err, "SchedulerType=%s with SchedulerParameters sched_interval=-1: no scheduler would start a job",
				 sched_type);
	return 0;
}

int64_t tp_rhythm_next(int64_t now, int64_t period)
{
	if (period <= 0)
		return INT64_MAX;
	int64_t q = now / period - (now % period < 0); /* floor */
	return (q + 1) * period;
}

/* The main pass's blocked partitions and the nodes they close. */
typedef struct main_ctx {
	int32_t *blocked;
	size_t nblocked;
	tp_nodeset closed, open;
	bool any_closed;
} main_ctx;

static bool is_blocked(const main_ctx *m, int32_t part)
{
	for (size_t k = 0; k < m->nblocked; k++)
		if (m->blocked[k] == part)
			return true;
	return false;
}

/* Job `job` could not start: its partition is blocked, and its nodes
 * (every node for a job free to use any) are closed to later jobs, so
 * that no job of another partition takes what it waits for. */
static void block(main_ctx *m, const tp_job *job)
{
	m->blocked[m->nblocked++] = job->part;
	if (job->allowed)
		tp_nodeset_or(&m->closed, job->allowed);
	else
		tp_nodeset_fill(&m->closed);
	m->any_closed = true;
}

/* tp_place on the nodes no blocked partition closed. */
static bool place_open(tp_cluster *c, main_ctx *m, const tp_job *job,
		       tp_nodeset *out)
{
	if (!m->any_closed)
		return tp_place(c, job, out);
	tp_job open = *job;
	if (job->allowed)
		tp_nodeset_copy(&m->open, job->allowed);
	else
		tp_nodeset_fill(&m->open);
	tp_nodeset_andnot(&m->open, &m->closed);
	open.allowed = &m->open;
	return tp_place(c, &open, out);
}

static void main_fini(main_ctx *m)
{
	free(m->blocked);
	tp_nodeset_fini(&m->closed);
	tp_nodeset_fini(&m->open);
}

long tp_rhythm_main(tp_cluster *c, const tp_rhythm *r, bool full)
{
	size_t depth = full ? c->nqueue : (size_t)r->default_queue_depth;
	main_ctx m = { .blocked = malloc((depth ? depth : 1) * sizeof(int32_t)) };
	tp_nodeset *nodes = tp_cluster_scratch(c);
	long started = -1;
	if (!m.blocked || !nodes || tp_nodeset_init(&m.closed, c->nnodes) ||
	    tp_nodeset_init(&m.open, c->nnodes))
		goto out;
	started = 0;
	/* Started jobs leave the queue: i moves only past jobs left. */
	for (size_t i = 0, looked = 0; i < c->nqueue && looked < depth; looked++) {
		const tp_job *job = c->queue[i];
		if (is_blocked(&m, job->part)) {
			i++;
			continue;
		}
		if (!place_open(c, &m, job, nodes)) {
			block(&m, job);
			i++;
			continue;
		}
		if (tp_cluster_start(c, i, nodes, TP_NOT_FILL)) {
			started = -1;
			break;
		}
		started++;
	}
out:
	main_fini(&m);
	return started;
}

/* Count of `key` among the first n of keys[], vals[] (a small table of
 * (user or partition, count) pairs). */
static int *count_of(int32_t *ids, int *counts, size_t *n, int32_t id)
{
	for (size_t k = 0; k < *n; k++)
		if (ids[k] == id)
			return &counts[k];
	ids[*n] = id;
	counts[*n] = 0;
	return &counts[(*n)++];
}

/* How many jobs backfill may test now: bf_max_job_test, at most the
 * queue (sched/topo's pass has no limit). */
static size_t tested_max(const tp_cluster *c, const tp_rhythm *r)
{
	size_t max = (size_t)r->bf_max_job_test;
	return max < c->nqueue ? max : c->nqueue;
}

/* Marks in `tested` (one per queue entry) the jobs backfill tests; their
 * number.  The tables hold up to tested_max() entries each. */
static size_t pick_tested(const tp_cluster *c, const tp_rhythm *r,
			  bool *tested, int32_t *ids, int *counts)
{
	size_t n = 0, nusers = 0, nparts = 0, max = tested_max(c, r);
	int32_t *pids = ids + max;
	int *pcounts = counts + max;
	for (size_t i = 0; i < c->nqueue && n < max; i++) {
		const tp_job *job = c->queue[i];
		int *u = count_of(ids, counts, &nusers, job->user);
		int *p = count_of(pids, pcounts, &nparts, job->part);
		tested[i] = (!r->bf_max_job_user || *u < r->bf_max_job_user) &&
			    (!r->bf_max_job_part || *p < r->bf_max_job_part);
		if (tested[i]) {
			++*u;
			++*p;
			n++;
		}
	}
	return n;
}

/* The queue `all` (n jobs, `tested` marking those c->queue held for the
 * pass) back in c->queue, less the tested jobs the pass started. */
static void restore_queue(tp_cluster *c, tp_job **all, const bool *tested,
			  size_t n)
{
	size_t out = 0, k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!tested[i])
			all[out++] = all[i];
		else if (k < c->nqueue && c->queue[k] == all[i])
			all[out++] = c->queue[k++];
	}
	memcpy(c->queue, all, out * sizeof(*all));
	c->nqueue = out;
}

/* Beyond the window the head gets no reservation: whatever fits starts. */
static int outside_window(tp_cluster *c, const tp_rhythm *r)
{
	if (!c->resv_job || r->bf_window == INT64_MAX ||
	    c->resv_time <= c->now + r->bf_window)
		return 0;
	c->resv_job = NULL;
	c->resv_time = 0;
	return tp_first_fit(c, INT_MAX) < 0 ? -1 : 0;
}

int tp_rhythm_backfill(tp_policy *p, tp_cluster *c, const tp_rhythm *r)
{
	size_t n = c->nqueue, max = tested_max(c, r);
	tp_job **all = malloc((n ? n : 1) * sizeof(*all));
	bool *tested = calloc(n ? n : 1, sizeof(*tested));
	int32_t *ids = malloc(2 * (max ? max : 1) * sizeof(*ids));
	int *counts = malloc(2 * (max ? max : 1) * sizeof(*counts));
	int rc = -1;
	if (!all || !tested || !ids || !counts)
		goto out;
	pick_tested(c, r, tested, ids, counts);
	memcpy(all, c->queue, n * sizeof(*all));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (tested[i])
			c->queue[k++] = all[i];
	c->nqueue = k;
	rc = 0;
	if (k) {
		c->slot = r->bf_resolution;
		tp_policy_pass(p, c);
		rc = outside_window(c, r);
		c->slot = 0;
	}
	restore_queue(c, all, tested, n);
out:
	free(all);
	free(tested);
	free(ids);
	free(counts);
	return rc;
}
