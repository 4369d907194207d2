/*
 * fuzz_fattree_conf.c - fattree.conf (machine/fattree_conf.h), the
 * settings select/fattree, topology/fattree, sched/topo and toposim
 * --fattree-conf read through the topology loader.
 */
#include <stdlib.h>

#include "machine/fattree_conf.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("fattree.conf", data, size);
	tp_fattree_conf c;
	tp_error err = { "" };
	int rc = tp_fattree_conf_read(&c, path, "/etc/slurm", &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc == 0 && (!c.allocator || !c.topology_file ||
			c.topology_file[0] != '/' || c.opts.msu_size < 0))
		fuzz_fail("fattree.conf read without an allocator, an absolute "
			  "topology file or with a negative MsuSize");
	tp_fattree_conf_fini(&c);
	return 0;
}
