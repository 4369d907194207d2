/* workload.c - see workload.h. */
#include "trace/workload.h"
#include "base/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tp_workload_add(tp_workload *w, const tp_wjob *j)
{
	tp_wjob *jobs = tp_grow(w->jobs, &w->cap, w->njobs, sizeof(*jobs), 1024);
	if (!jobs)
		return -1;
	w->jobs = jobs;
	w->jobs[w->njobs++] = *j;
	return 0;
}

int tp_workload_drop(tp_workload *w, int64_t id, tp_drop_reason why)
{
	if (why == TP_DROP_RUNTIME)
		w->skipped.runtime++;
	else if (why == TP_DROP_SIZE)
		w->skipped.size++;
	else
		w->skipped.too_big++;
	tp_dropped *d = tp_grow(w->dropped, &w->dropcap, w->ndropped,
				sizeof(*d), 64);
	if (!d)
		return -1;
	w->dropped = d;
	w->dropped[w->ndropped++] = (tp_dropped){ id, why };
	return 0;
}

int tp_workload_dropped(const tp_workload *w, int64_t id)
{
	for (size_t i = 0; i < w->ndropped; i++)
		if (w->dropped[i].id == id)
			return (int)w->dropped[i].why;
	return -1;
}

static int is_sorted(const tp_workload *w)
{
	for (size_t i = 1; i < w->njobs; i++)
		if (w->jobs[i].submit < w->jobs[i - 1].submit)
			return 0;
	return 1;
}

/* Merge sort: stable, unlike qsort(), so ties keep file order. */
static void merge_sort(tp_wjob *a, tp_wjob *tmp, size_t n)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	merge_sort(a, tmp, h);
	merge_sort(a + h, tmp, n - h);
	if (a[h - 1].submit <= a[h].submit)
		return;
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = a[j].submit < a[i].submit ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	memcpy(a, tmp, k * sizeof(*a)); /* a[j..n) is already in place */
}

void tp_workload_sort(tp_workload *w)
{
	if (is_sorted(w))
		return;
	tp_wjob *tmp = malloc(w->njobs * sizeof(*tmp));
	if (tmp) {
		merge_sort(w->jobs, tmp, w->njobs);
		free(tmp);
		return;
	}
	/* Out of memory for the buffer: insertion sort is stable too. */
	for (size_t i = 1; i < w->njobs; i++) {
		tp_wjob x = w->jobs[i];
		size_t k = i;
		while (k > 0 && w->jobs[k - 1].submit > x.submit) {
			w->jobs[k] = w->jobs[k - 1];
			k--;
		}
		w->jobs[k] = x;
	}
}

int tp_workload_slice(tp_workload *w, size_t first, size_t count)
{
	if (first >= w->njobs)
		return -1;
	if (count > w->njobs - first)
		count = w->njobs - first;
	memmove(w->jobs, w->jobs + first, count * sizeof(*w->jobs));
	w->njobs = count;
	return 0;
}

void tp_workload_fini(tp_workload *w)
{
	free(w->jobs);
	free(w->dropped);
	memset(w, 0, sizeof(*w));
}

int64_t tp_workload_scale_nodes(int64_t nodes, double f)
{
	if (f <= 0)
		return nodes;
	double x = nearbyint((double)nodes * f);
	return x < 1 ? 1 : x > INT32_MAX ? INT32_MAX : (int64_t)x;
}

void tp_workload_scale_load(tp_workload *w, double f)
{
	for (size_t i = 0; i < w->njobs; i++)
		w->jobs[i].submit = (int64_t)nearbyint((double)w->jobs[i].submit / f);
}
