/*
 * het_plan.c - plans, the greedy schedules (OLB, min-min, min-max) and
 * the priority levels; see het.h.  SJS and PJS are in het_pjs.c.
 */
#include "hetero/het_ws.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const algo_names[] = {
	[TP_HET_OLB] = "olb",         [TP_HET_MIN_MIN] = "min-min",
	[TP_HET_MIN_MAX] = "min-max", [TP_HET_SJS] = "sjs",
	[TP_HET_PJS] = "pjs",
};
#define NALGO ((int)(sizeof(algo_names) / sizeof(algo_names[0])))

const char *tp_het_algo_name(tp_het_algo a)
{
	return (int)a >= 0 && (int)a < NALGO ? algo_names[a] : "unknown";
}

int tp_het_algo_parse(const char *name)
{
	for (int a = 0; name && a < NALGO; a++)
		if (!strcmp(name, algo_names[a]))
			return a;
	return -1;
}

void tp_het_plan_init(tp_het_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void tp_het_plan_fini(tp_het_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->a[i].node);
	free(p->a);
	tp_het_plan_init(p);
}

static bool runnable(const het_ws *ws, size_t j)
{
	for (int k = 0; k < ws->jobs[j].nparts; k++)
		if (ws->seq_et[ws->eoff[j] + (size_t)k] > 0)
			return true;
	return false;
}

/* Job j's sequential option on the working state: the earliest end
 * (ties: lower position) or, by_start (OLB), the earliest start (ties:
 * earlier end, lower position).  Returns its position, -1 if none. */
static int best_seq(het_ws *ws, size_t j, bool by_start, double *end)
{
	const tp_het_job *job = &ws->jobs[j];
	int best = -1;
	double bs = 0, be = 0;
	for (int k = 0; k < job->nparts; k++) {
		double et = ws->seq_et[ws->eoff[j] + (size_t)k];
		if (et <= 0)
			continue;
		double s = het_fit(ws, j, k, job->nmin, false);
		double e = s + et;
		bool better = best < 0 ||
			      (by_start ? s < bs || (s == bs && e < be)
					: e < be);
		if (s >= 0 && better) {
			best = k;
			bs = s;
			be = e;
		}
	}
	*end = be;
	return best;
}

static double place(het_ws *ws, size_t j, int pos, het_opt *out,
		    size_t *nout)
{
	const tp_het_job *job = &ws->jobs[j];
	double et = ws->seq_et[ws->eoff[j] + (size_t)pos];
	double end = het_fit(ws, j, pos, job->nmin, true) + et;
	het_commit(ws, job->nmin, end);
	out[(*nout)++] = (het_opt){ j, pos, job->nmin, et, 0 };
	return end - ws->now;
}

static double olb(het_ws *ws, const size_t *idx, size_t nidx, het_opt *out,
		  size_t *nout)
{
	double total = 0, end;
	for (size_t i = 0; i < nidx; i++) {
		if (ws->done[i])
			continue;
		int pos = best_seq(ws, idx[i], true, &end);
		total += place(ws, idx[i], pos, out, nout);
	}
	return total;
}

double het_greedy(het_ws *ws, tp_het_algo algo, const size_t *idx,
		  size_t nidx, het_opt *out, size_t *nout)
{
	size_t left = 0;
	*nout = 0;
	for (size_t i = 0; i < nidx; i++) {
		ws->done[i] = !runnable(ws, idx[i]);
		left += !ws->done[i];
	}
	if (algo == TP_HET_OLB)
		return olb(ws, idx, nidx, out, nout);
	double total = 0;
	for (; left; left--) {
		size_t pick = SIZE_MAX;
		int ppos = -1;
		double pe = 0, e;
		for (size_t i = 0; i < nidx; i++) {
			if (ws->done[i])
				continue;
			int pos = best_seq(ws, idx[i], false, &e);
			if (pick == SIZE_MAX ||
			    (algo == TP_HET_MIN_MIN ? e < pe : e > pe)) {
				pick = i;
				ppos = pos;
				pe = e;
			}
		}
		ws->done[pick] = true;
		total += place(ws, idx[pick], ppos, out, nout);
	}
	return total;
}

/* One level's schedule into out, on the working state. */
static double level(het_ws *ws, tp_het_algo algo, const size_t *idx,
		    size_t nidx, het_opt *out, size_t *nout,
		    tp_het_algo *used)
{
	if (algo == TP_HET_SJS)
		return het_sjs(ws, idx, nidx, out, nout, used);
	if (algo == TP_HET_PJS)
		return het_pjs(ws, idx, nidx, out, nout, used);
	*used = algo;
	return het_greedy(ws, algo, idx, nidx, out, nout);
}

typedef struct prio_key {
	int prio;
	size_t job;
} prio_key;

static int prio_cmp(const void *a, const void *b)
{
	const prio_key *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

static int int_cmp(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) -
	       (*(const int *)a < *(const int *)b);
}

/* The plan from the kept options: placed again from the machine's ready
 * times, which gives the same starts and ends and records the nodes. */
static int build(het_ws *ws, const het_opt *o, size_t n, tp_het_plan *out)
{
	het_state_load(ws, ws->m->ready);
	if (n && !(out->a = calloc(n, sizeof(*out->a))))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const tp_het_job *job = &ws->jobs[o[i].job];
		tp_het_assign *a = &out->a[i];
		a->job = o[i].job;
		a->part = job->parts[o[i].pos];
		a->nodes = o[i].n;
		a->start = het_fit(ws, o[i].job, o[i].pos, o[i].n, true);
		a->end = a->start + o[i].et;
		a->parallel = o[i].n > job->nmin;
		het_commit(ws, o[i].n, a->end);
		out->n = i + 1;
		if (!(a->node = malloc((size_t)o[i].n * sizeof(int))))
			return -1;
		memcpy(a->node, ws->pick, (size_t)o[i].n * sizeof(int));
		qsort(a->node, (size_t)o[i].n, sizeof(int), int_cmp);
		out->total += a->end - ws->now;
		out->parallel += a->parallel;
	}
	return 0;
}

static int schedule(het_ws *ws, tp_het_algo algo, tp_het_plan *out)
{
	size_t nj = ws->njobs, nall = 0;
	prio_key *key = malloc((nj + 1) * sizeof(*key));
	size_t *idx = malloc((nj + 1) * sizeof(*idx));
	het_opt *all = malloc((nj + 1) * sizeof(*all));
	int rc = -1;
	if (!key || !idx || !all)
		goto done;
	for (size_t j = 0; j < nj; j++)
		key[j] = (prio_key){ ws->jobs[j].prio, j };
	qsort(key, nj, sizeof(*key), prio_cmp);
	for (size_t j = 0; j < nj; j++)
		idx[j] = key[j].job;
	out->used = algo >= TP_HET_SJS ? TP_HET_MIN_MIN : algo;
	for (size_t a = 0, b; a < nj; a = b) {
		for (b = a + 1; b < nj && key[b].prio == key[a].prio; b++)
			;
		size_t got;
		level(ws, algo, idx + a, b - a, all + nall, &got, &out->used);
		nall += got;
		out->unplaced += b - a - got;
	}
	out->pjs_rounds = ws->pjs_rounds;
	rc = build(ws, all, nall, out);
done:
	free(key);
	free(idx);
	free(all);
	return rc;
}

int tp_het_schedule(const tp_het_machine *m, double now,
		    const tp_het_job *jobs, size_t njobs, tp_het_algo algo,
		    tp_het_etc_fn etc, void *arg, tp_het_plan *out,
		    tp_error *err)
{
	het_ws ws;
	tp_het_plan_init(out);
	if ((int)algo < 0 || (int)algo >= NALGO)
		return tp_errorf(err, "unknown heterogeneous schedule %d",
				 (int)algo);
	if (het_ws_init(&ws, m, now, jobs, njobs, etc, arg, err))
		return -1;
	int rc = schedule(&ws, algo, out);
	het_ws_fini(&ws);
	if (rc) {
		tp_het_plan_fini(out);
		return tp_errorf(err, "out of memory");
	}
	return 0;
}
