/*
 * fuzz_esterr.c - toposim's --estimate-error spec (trace/esterr.h),
 * parsed and applied to a small trace: every estimate stays >= 1.
 */
#include <stdlib.h>

#include "trace/esterr.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_str(data, size);
	tp_esterr e;
	tp_error err = { "" };
	int rc = tp_esterr_parse(spec, &e, &err);
	if (rc && !err.msg[0])
		fuzz_fail("'%s' fails without a message", spec);
	if (rc == 0) {
		tp_workload w = { .nodes = 4, .ppn = 1 };
		static const int64_t runtime[] = { 1, 60, 86400, 1000000000 };
		for (int k = 0; k < 4; k++) {
			tp_wjob j = { .id = k, .submit = k, .runtime = runtime[k],
				      .estimate = runtime[3 - k], .nodes = 1 };
			tp_workload_add(&w, &j);
		}
		tp_esterr_apply(&e, (uint64_t)size, &w);
		for (size_t i = 0; i < w.njobs; i++)
			if (w.jobs[i].estimate < 1)
				fuzz_fail("'%s': estimate %lld", spec,
					  (long long)w.jobs[i].estimate);
		tp_workload_fini(&w);
	}
	free(spec);
	return 0;
}
