/*
 * fuzz_qos.c - toposim --qos's table (site/qos.h: sacctmgr -P show qos
 * with Priority and the limit columns): an error names the file; a table
 * read has a QOS per row, each found by its name, its limits -1 or more.
 */
#include "site/qos.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("qos.txt", data, size);
	tp_qos_table t;
	tp_error err = { "" };
	int rc = tp_qos_read(path, &t, &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc)
		return 0;
	for (size_t i = 0; i < t.n; i++) {
		const tp_qos_limits *l = &t.limits[i];
		if (tp_qos_index(&t, t.names[i]) < 0 || t.priority[i] > t.max)
			fuzz_fail("QOS %zu '%s' not found or above the maximum", i, t.names[i]);
		if (l->max_jobs_pu < -1 || l->max_cpus_pu < -1 || l->max_nodes_pu < -1 ||
		    l->grp_jobs < -1 || l->grp_cpus < -1 || l->grp_nodes < -1)
			fuzz_fail("QOS '%s': a limit below -1", t.names[i]);
	}
	tp_qos_fini(&t);
	return 0;
}
