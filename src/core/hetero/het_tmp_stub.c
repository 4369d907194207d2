#define _GNU_SOURCE
/* TEMPORARY: minimal stand-ins for het_plan/het_pjs/het_pass/het_expdb
 * until their branches are merged.  Not for commit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetero/het.h"

const char *tp_het_algo_name(tp_het_algo a)
{
	static const char *n[] = { "olb", "min-min", "min-max", "sjs", "pjs" };
	return (unsigned)a < 5 ? n[a] : "?";
}

int tp_het_algo_parse(const char *name)
{
	for (int i = 0; i < 5; i++)
		if (!strcmp(name, tp_het_algo_name((tp_het_algo)i)))
			return i;
	return -1;
}

void tp_het_plan_init(tp_het_plan *p) { memset(p, 0, sizeof(*p)); }
void tp_het_plan_fini(tp_het_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->a[i].node);
	free(p->a);
	memset(p, 0, sizeof(*p));
}

static int cmp_rd(const void *a, const void *b, void *arg)
{
	const double *r = arg;
	int x = *(const int *)a, y = *(const int *)b;
	return r[x] < r[y] ? -1 : r[x] > r[y] ? 1 : x - y;
}

int tp_het_schedule(const tp_het_machine *m, double now,
		    const tp_het_job *jobs, size_t njobs, tp_het_algo algo,
		    tp_het_etc_fn etc, void *arg, tp_het_plan *out,
		    tp_error *err)
{
	(void)err;
	tp_het_plan_init(out);
	out->used = algo;
	double *rd = malloc(sizeof(double) * (size_t)(m->nnodes + 1));
	out->a = calloc(njobs + 1, sizeof(*out->a));
	for (int i = 0; i < m->nnodes; i++)
		rd[i] = m->ready[i] < now ? now : m->ready[i];
	for (int lvl = 0; lvl < 8; lvl++)
	for (size_t k = 0; k < njobs; k++) {
		const tp_het_job *j = &jobs[k];
		if (j->prio != lvl && !(lvl == 7 && j->prio > 7))
			continue;
		double best = 1e301, bs = 0;
		int bp = -1, bn = 0;
		int sorted[4096];
		for (int q = 0; q < j->nparts; q++) {
			const tp_het_part *p = &m->part[j->parts[q]];
			memcpy(sorted, p->node, sizeof(int) * (size_t)p->nnodes);
			qsort_r(sorted, (size_t)p->nnodes, sizeof(int), cmp_rd, rd);
			int hi = algo == TP_HET_PJS && j->nmax > j->nmin ? j->nmax : j->nmin;
			for (int n = j->nmin; n <= hi && n <= p->nnodes; n++) {
				double t = etc(arg, j, j->parts[q], n);
				double s = rd[sorted[n - 1]];
				if (t <= 0 || s >= TP_HET_NEVER)
					continue;
				if (s + t < best) {
					best = s + t; bs = s; bp = j->parts[q]; bn = n;
				}
			}
		}
		if (bp < 0) {
			out->unplaced++;
			continue;
		}
		const tp_het_part *p = &m->part[bp];
		memcpy(sorted, p->node, sizeof(int) * (size_t)p->nnodes);
		qsort_r(sorted, (size_t)p->nnodes, sizeof(int), cmp_rd, rd);
		tp_het_assign *a = &out->a[out->n++];
		a->job = k; a->part = bp; a->nodes = bn; a->start = bs; a->end = best;
		a->parallel = bn > j->nmin;
		out->parallel += a->parallel;
		a->node = malloc(sizeof(int) * (size_t)bn);
		for (int i = 0; i < bn; i++)
			a->node[i] = sorted[i];
		for (int i = 0; i < bn; i++)
			rd[a->node[i]] = best;
		/* ascending indices */
		for (int i = 1; i < bn; i++)
			for (int x = i; x > 0 && a->node[x - 1] > a->node[x]; x--) {
				int t = a->node[x]; a->node[x] = a->node[x - 1]; a->node[x - 1] = t;
			}
		out->total += best - now;
	}
	free(rd);
	return 0;
}

int tp_het_pass(const tp_het_machine *m, double now, const tp_het_job *jobs,
		size_t njobs, tp_het_algo algo, tp_het_etc_fn etc, void *arg,
		tp_het_plan *out, tp_error *err)
{
	if (tp_het_schedule(m, now, jobs, njobs, algo, etc, arg, out, err))
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (out->a[i].start <= now)
			out->a[k++] = out->a[i];
		else
			free(out->a[i].node);
	}
	out->n = k;
	return 0;
}

double tp_het_expected_free(double now, double start, double predicted,
			    double limit)
{
	double e = predicted <= 0 ? limit : start + predicted;
	if (e > limit)
		e = limit;
	if (e < now + 1)
		e = now + 1;
	return e;
}

