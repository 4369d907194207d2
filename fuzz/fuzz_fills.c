/*
 * fuzz_fills.c - sched/topo's fill-job table, the file
 * StateSaveLocation/sched_topo.fills that slurmctld reads at start
 * (plugins/sched/topo/st_fills.h, Slurm-free).  A table that loads is
 * saved and loaded again: the same entries.
 */
#include <stdlib.h>
#include <string.h>

#include "st_fills.h"
#include "fuzz_util.h"

static void round_trip(st_fills *f)
{
	const char *out = fuzz_path("saved.fills");
	tp_error err = { "" };
	if (st_fills_save(f, out, &err))
		fuzz_fail("save: %s", err.msg);
	st_fills back;
	st_fills_init(&back);
	if (st_fills_load(&back, out, &err))
		fuzz_fail("the saved table does not load: %s", err.msg);
	if (back.jobs.n != f->jobs.n)
		fuzz_fail("saved %zu entries, loaded %zu", f->jobs.n, back.jobs.n);
	for (size_t i = 0; i < f->jobs.n; i++) {
		const st_fill *a = st_fills_at(f, i), *b = st_fills_at(&back, i);
		if (a->job_id != b->job_id || a->fill_for != b->fill_for ||
		    a->extensions != b->extensions ||
		    a->decided_end != b->decided_end)
			fuzz_fail("entry %zu differs after save and load", i);
		if (i && a->job_id <= st_fills_at(f, i - 1)->job_id)
			fuzz_fail("entries not sorted by job id");
	}
	st_fills_fini(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("sched_topo.fills", data, size);
	st_fills f;
	st_fills_init(&f);
	tp_error err = { "" };
	int rc = st_fills_load(&f, path, &err);
	fuzz_check_error(rc, err.msg, path);
	/* 0: all read; 1: bad lines skipped, the good ones kept (they must
	 * save and load again); -1: the whole file ignored, nothing kept. */
	if (rc >= 0)
		round_trip(&f);
	else if (f.jobs.n)
		fuzz_fail("an ignored file leaves %zu entries", f.jobs.n);
	st_fills_fini(&f);
	return 0;
}
