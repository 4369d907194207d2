/*
 * fuzz_sacctmgr.c - --sacctmgr's associations (site/sacctmgr.h: sacctmgr
 * dump, or show assoc -P): an error names the file and leaves nothing
 * to free twice.
 */
#include "site/sacctmgr.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("assoc.cfg", data, size);
	tp_assoc_tree t;
	tp_error err = { "" };
	int rc = tp_sacctmgr_read(path, &t, &err);
	fuzz_check_error(rc, err.msg, path);
	if (!rc)
		tp_assoc_fini(&t);
	return 0;
}
