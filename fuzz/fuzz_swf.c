/*
 * fuzz_swf.c - the SWF trace reader (trace/swf.h), as toposim reads
 * --trace: strict and lenient.  A trace read strictly is written back
 * (tp_swf_write) and read again: the same jobs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "trace/swf.h"
#include "fuzz_util.h"

static void same_jobs(const tp_workload *a, const tp_workload *b)
{
	if (a->njobs != b->njobs)
		fuzz_fail("SWF written back has %zu jobs, not %zu", b->njobs,
			  a->njobs);
	for (size_t i = 0; i < a->njobs; i++) {
		const tp_wjob *x = &a->jobs[i], *y = &b->jobs[i];
		if (x->id != y->id || x->submit != y->submit ||
		    x->runtime != y->runtime || x->estimate != y->estimate ||
		    x->nodes != y->nodes)
			fuzz_fail("SWF written back: job %zu differs", i);
	}
}

static void round_trip(const tp_workload *w)
{
	const char *out = fuzz_path("out.swf");
	FILE *fp = fopen(out, "w");
	if (!fp || tp_swf_write(fp, w, "fuzz") || fclose(fp))
		fuzz_fail("cannot write %s", out);
	tp_swf_opts o = { .nodes = w->nodes, .ppn = w->ppn };
	tp_workload back;
	tp_error err = { "" };
	if (tp_swf_read(out, &o, &back, &err))
		fuzz_fail("SWF written back does not read: %s", err.msg);
	same_jobs(w, &back);
	tp_workload_fini(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("in.swf", data, size);
	tp_workload w;
	tp_error err = { "" };
	int rc = tp_swf_read(path, NULL, &w, &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc == 0)
		round_trip(&w);
	tp_workload_fini(&w);

	tp_swf_opts lenient = { .lenient = true, .estimate_field = 4 };
	err.msg[0] = '\0';
	rc = tp_swf_read(path, &lenient, &w, &err);
	fuzz_check_error(rc, err.msg, path);
	tp_workload_fini(&w);
	return 0;
}
