/* metrics_dist.c - percentiles and size classes; definitions in
 * metrics_dist.h. */
#include "engine/metrics_dist.h"

#include <stdlib.h>
#include <string.h>

#include "engine/metrics.h"

double tp_nearest_rank(const double *sorted, size_t n, int p)
{
	/* ceil(p n / 100) in integers: no rounding error at exact ranks */
	size_t rank = ((size_t)p * n + 99) / 100;
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void tp_quantiles_of(double *v, size_t n, tp_quantiles *q)
{
	memset(q, 0, sizeof(*q));
	if (!n)
		return;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	qsort(v, n, sizeof(*v), cmp_double);
	q->mean = sum / (double)n;
	q->median = tp_nearest_rank(v, n, 50);
	q->p90 = tp_nearest_rank(v, n, 90);
	q->p95 = tp_nearest_rank(v, n, 95);
	q->p99 = tp_nearest_rank(v, n, 99);
	q->max = v[n - 1];
}

int tp_size_class(int nodes)
{
	int cls = 0;
	for (long hi = 1; nodes > hi && cls < TP_SIZE_CLASSES - 1; hi *= 4)
		cls++;
	return cls;
}

void tp_size_class_bounds(int cls, int *lo, int *hi)
{
	int h = 1;
	for (int i = 0; i < cls; i++)
		h *= 4;
	*lo = cls ? h / 4 + 1 : 1;
	*hi = cls == TP_SIZE_CLASSES - 1 ? -1 : h;
}

/* The three measures of the runs whose index is in idx[0..n). */
static void part_of(const tp_sim_result *r, const size_t *idx, size_t n,
		    double *v, tp_dist_part *d)
{
	d->runs = n;
	for (size_t i = 0; i < n; i++) {
		const tp_record *x = &r->rec[idx[i]];
		v[i] = (double)(x->start - x->submit);
	}
	tp_quantiles_of(v, n, &d->wait);
	for (size_t i = 0; i < n; i++)
		v[i] = tp_bounded_slowdown(&r->rec[idx[i]]);
	tp_quantiles_of(v, n, &d->bsld);
	for (size_t i = 0; i < n; i++) {
		const tp_record *x = &r->rec[idx[i]];
		v[i] = (double)(x->end - x->submit);
	}
	tp_quantiles_of(v, n, &d->response);
}

int tp_summarize_dist(const tp_sim_result *r, tp_dist *d)
{
	memset(d, 0, sizeof(*d));
	size_t n = r->nrec, at[TP_SIZE_CLASSES + 1] = { 0 };
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	double *v = malloc((n ? n : 1) * sizeof(*v));
	if (!idx || !v) {
		free(idx);
		free(v);
		return -1;
	}
	/* the runs grouped by class (a counting sort), all of them first */
	for (size_t i = 0; i < n; i++)
		at[tp_size_class(r->rec[i].nodes_req) + 1]++;
	for (int c = 0; c < TP_SIZE_CLASSES; c++)
		at[c + 1] += at[c];
	size_t fill[TP_SIZE_CLASSES];
	memcpy(fill, at, sizeof(fill));
	for (size_t i = 0; i < n; i++)
		idx[fill[tp_size_class(r->rec[i].nodes_req)]++] = i;
	part_of(r, idx, n, v, &d->all);
	for (int c = 0; c < TP_SIZE_CLASSES; c++)
		part_of(r, idx + at[c], at[c + 1] - at[c], v, &d->cls[c]);
	free(idx);
	free(v);
	return 0;
}
