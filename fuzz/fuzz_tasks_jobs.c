/*
 * fuzz_tasks_jobs.c - the task simulator's jobs file (tasks/tasksim.h,
 * topotasks --jobs).  What reads is within the documented ranges.
 */
#include "tasks/tasksim.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("jobs.conf", data, size);
	tp_ts_input in = { 0 };
	tp_error err = { "" };
	int rc = tp_ts_read_jobs(&in, path, &err);
	fuzz_check_error(rc, err.msg, path);
	for (int k = 0; rc == 0 && k < in.njobs; k++) {
		const tp_ts_job *j = &in.job[k];
		if (j->id < 0 || !(j->submit >= 0) || j->tasks < 1 ||
		    j->cores < 1 || !(j->mem >= 0) || !(j->work > 0) ||
		    j->replicas < 1)
			fuzz_fail("job %d read out of range", k);
	}
	tp_ts_input_fini(&in);
	return 0;
}
