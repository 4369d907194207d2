/* swf_out.c - see swf_out.h; the fields as the Archive defines them
 * (https://www.cs.huji.ac.il/labs/parallel/workload/swf.html). */
#include "swf_out.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

static const tp_record *sort_rec; /* qsort has no context argument */

/* A job's runs together, in attempt order. */
static int by_job(const void *a, const void *b)
{
	const tp_record *x = &sort_rec[*(const size_t *)a];
	const tp_record *y = &sort_rec[*(const size_t *)b];
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->attempt > y->attempt) - (x->attempt < y->attempt);
}

/* SWF's order: submit time; ties by job and attempt. */
static int by_submit(const void *a, const void *b)
{
	const tp_record *x = &sort_rec[*(const size_t *)a];
	const tp_record *y = &sort_rec[*(const size_t *)b];
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return by_job(a, b);
}

/* Field 11 of each run: 1 completed, 0 killed; a job of several runs
 * (resubmitted) 2 for each partial one, 3 (completed) or 4 (killed) for
 * its last.  *jobs: how many jobs; *partial: whether any had several. */
static void statuses(const tp_record *rec, size_t *idx, size_t n, int *st,
		     size_t *jobs, bool *partial)
{
	sort_rec = rec;
	qsort(idx, n, sizeof(*idx), by_job);
	*jobs = 0;
	*partial = false;
	for (size_t i = 0; i < n; i++) {
		const tp_record *x = &rec[idx[i]];
		bool first = !i || rec[idx[i - 1]].id != x->id;
		bool last = i + 1 == n || rec[idx[i + 1]].id != x->id;
		bool killed = x->status == TP_KILLED;
		*jobs += first;
		if (first && last)
			st[idx[i]] = killed ? 0 : 1;
		else
			st[idx[i]] = !last ? 2 : killed ? 4 : 3;
		*partial |= !(first && last);
	}
}

/* s in a header line: a line break or any control byte in a file name
 * would end the comment and leave the rest as a malformed record, so
 * they are written as C escapes (\n, \t, \r, \xHH). */
static void put_text(FILE *fp, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p == '\r')
			fputs("\\r", fp);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else
			fputc(*p, fp);
	}
}

static void header(FILE *fp, const sim_swf_info *in, size_t jobs,
		   size_t records, bool partial, int64_t ppn)
{
	fprintf(fp, "; Version: 2.2\n"
		"; Computer: toposim, a simulated schedule\n"
		"; Conversion: toposim --policy %s --alloc %s of ", in->policy,
		in->alloc);
	put_text(fp, in->workload);
	fprintf(fp, "\n; MaxJobs: %zu\n; MaxRecords: %zu\n; Preemption: %s\n"
		"; MaxNodes: %d\n; MaxProcs: %" PRId64 "\n"
		"; Note: submit, wait and run times are the simulated ones; "
		"processors are nodes x %" PRId64 " (whole nodes are allocated)\n"
		"; Note: requested time is the limit the run started with; "
		"status 0 is a run killed at its limit\n",
		jobs, records, partial ? "Yes" : "No", in->nodes,
		(int64_t)in->nodes * ppn, ppn);
}

int sim_write_swf(FILE *fp, const tp_sim_result *r, const sim_swf_info *in)
{
	size_t n = r->nrec, jobs;
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	int *st = malloc((n ? n : 1) * sizeof(*st));
	bool partial;
	int64_t ppn = in->ppn > 0 ? in->ppn : 1;
	if (!idx || !st) {
		free(idx);
		free(st);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	statuses(r->rec, idx, n, st, &jobs, &partial);
	qsort(idx, n, sizeof(*idx), by_submit);
	header(fp, in, jobs, n, partial, ppn);
	for (size_t i = 0; i < n; i++) {
		const tp_record *x = &r->rec[idx[i]];
		fprintf(fp, "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
			" %" PRId64 " -1 -1 %" PRId64 " %" PRId64
			" -1 %d -1 -1 -1 -1 -1 -1 -1\n", x->id, x->submit,
			x->start - x->submit, x->end - x->start,
			x->nodes_alloc * ppn, x->nodes_req * ppn, x->estimate,
			st[idx[i]]);
	}
	free(idx);
	free(st);
	return ferror(fp) ? -1 : 0;
}
