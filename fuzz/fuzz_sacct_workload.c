/*
 * fuzz_sacct_workload.c - the sacct workload reader (trace/sacct.h), as
 * toposim --sacct reads it: strict and lenient, the machine size given or
 * from the NodeLists, with and without a partition filter.  What reads is
 * a workload the engine may replay: jobs sorted by submit time, sizes
 * within the machine, positive run times and estimates, and Slurm's runs
 * that start after their submit and end after their start.
 */
#include <stdio.h>
#include <stdlib.h>

#include "trace/sacct.h"
#include "fuzz_util.h"

static void check_workload(const tp_sacct *s)
{
	const tp_workload *w = &s->w;
	if (w->nodes <= 0)
		fuzz_fail("machine of %d nodes", w->nodes);
	for (size_t i = 0; i < w->njobs; i++) {
		const tp_wjob *j = &w->jobs[i];
		const tp_sacct_run *r = &s->runs[i];
		if (j->submit < 0 || (i && j->submit < w->jobs[i - 1].submit))
			fuzz_fail("job %zu: submit %lld out of order", i,
				  (long long)j->submit);
		if (j->runtime <= 0 || j->estimate <= 0)
			fuzz_fail("job %zu: run time %lld, estimate %lld", i,
				  (long long)j->runtime, (long long)j->estimate);
		if (j->nodes < 1 || j->nodes > w->nodes)
			fuzz_fail("job %zu: %d nodes on %d", i, j->nodes, w->nodes);
		if (r->start < j->submit || r->end < r->start)
			fuzz_fail("job %zu: submit %lld, start %lld, end %lld", i,
				  (long long)j->submit, (long long)r->start,
				  (long long)r->end);
		if (r->line < 2)
			fuzz_fail("job %zu from line %zu", i, r->line);
	}
}

static void read_with(const char *path, const tp_sacct_opts *o)
{
	tp_sacct s;
	tp_error err = { "" };
	int rc = tp_sacct_read(path, o, &s, &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc == 0) {
		check_workload(&s);
		if (s.w.njobs && tp_sacct_slice(&s, s.w.njobs / 2, 1))
			fuzz_fail("slice of %zu jobs refused", s.w.njobs);
		check_workload(&s);
	}
	tp_sacct_fini(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("in.sacct", data, size);
	read_with(path, NULL);
	read_with(path, &(tp_sacct_opts){ .nodes = 8, .partition = "batch" });
	read_with(path, &(tp_sacct_opts){ .lenient = true, .scale_sizes = 0.5 });
	read_with(path, &(tp_sacct_opts){ .nodes = 3, .lenient = true });
	return 0;
}
