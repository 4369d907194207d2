/*
 * fuzz_tasks_nodes.c - the task simulator's nodes file (tasks/tasksim.h,
 * topotasks --nodes).  What reads is within the documented ranges.
 */
#include <math.h>

#include "tasks/tasksim.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("nodes.conf", data, size);
	tp_ts_input in = { 0 };
	tp_error err = { "" };
	int rc = tp_ts_read_nodes(&in, path, &err);
	fuzz_check_error(rc, err.msg, path);
	for (int k = 0; rc == 0 && k < in.nnodes; k++) {
		const tp_ts_node *n = &in.node[k];
		if (!n->name || n->cores < 1 || !(n->mem > 0) ||
		    !(n->speed > 0) || isnan(n->fail))
			fuzz_fail("node %d read out of range", k);
	}
	tp_ts_input_fini(&in);
	return 0;
}
