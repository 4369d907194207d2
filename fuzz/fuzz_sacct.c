/*
 * fuzz_sacct.c - sacct -P output seeding the run-time database
 * (tp_expdb_seed_sacct, hetero/het_expdb.h; topo-expdb seed), with each
 * class key.
 */
#include <stdio.h>

#include "hetero/het_expdb.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int key = TP_CLASS_NAME; key <= TP_CLASS_COMMENT; key++) {
		FILE *in = fmemopen((void *)data, size, "r");
		if (!in) /* glibc refuses an empty buffer */
			in = fopen("/dev/null", "r");
		tp_expdb *db = tp_expdb_new();
		size_t added;
		tp_error err = { "" };
		int rc = tp_expdb_seed_sacct(db, in, "sacct.out",
					     (tp_class_key)key, &added, &err);
		fuzz_check_error(rc, err.msg, "sacct.out");
		if (rc == 0 && added < tp_expdb_size(db))
			fuzz_fail("%zu runs added, %zu entries", added,
				  tp_expdb_size(db));
		tp_expdb_free(db);
		fclose(in);
	}
	return 0;
}
