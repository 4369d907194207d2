/*
 * fuzz_jobreqs.c - the job-requests file of toposim --job-requests
 * (trace/jobreqs.h), for a machine of nodes n1..n64, then applied to a
 * trace of jobs 1..8 (job k asks for k nodes).
 */
#include <stdlib.h>

#include "trace/jobreqs.h"
#include "fuzz_util.h"

#define NN 64

/* n1..n64 are indices 0..63. */
static int index_of(const void *ctx, const char *name)
{
	(void)ctx;
	char *end;
	if (name[0] != 'n' || name[1] < '1' || name[1] > '9')
		return -1;
	long k = strtol(name + 1, &end, 10);
	return *end || k < 1 || k > NN ? -1 : (int)k - 1;
}

static void apply(tp_jobreqs *q)
{
	tp_workload w = { .nodes = NN, .ppn = 1 };
	for (int k = 1; k <= 8; k++) {
		tp_wjob j = { .id = k, .submit = k, .runtime = 10,
			      .estimate = 20, .nodes = k };
		if (tp_workload_add(&w, &j))
			fuzz_fail("out of memory");
	}
	tp_error err = { "" };
	int rc = tp_jobreqs_apply(q, &w, &err);
	fuzz_check_error(rc, err.msg, q->path);
	for (size_t i = 0; rc == 0 && i < w.njobs; i++) {
		const tp_wjob *j = &w.jobs[i];
		if (j->required && j->allowed &&
		    !tp_nodeset_subset(j->required, j->allowed))
			fuzz_fail("job %zu: required nodes outside the allowed", i);
	}
	tp_workload_fini(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("requests.conf", data, size);
	tp_jobreqs q;
	tp_error err = { "" };
	int rc = tp_jobreqs_read(&q, path, NN, index_of, NULL, &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc == 0)
		apply(&q);
	tp_jobreqs_fini(&q);
	return 0;
}
