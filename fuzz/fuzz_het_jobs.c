/*
 * fuzz_het_jobs.c - the heterogeneous simulator's jobs file
 * (hetsim/het_conf.h; toposim --het-jobs) over a fixed machine of three
 * partitions.  Jobs that read are written back (tp_het_jobs_write), read
 * again and written again: the two texts are the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetsim/het_conf.h"
#include "fuzz_util.h"

static const char machine_text[] =
	"PartitionName=a Nodes=n[1-4] Class=fast\n"
	"PartitionName=b Nodes=n[3-8] Class=slow\n"
	"PartitionName=c Nodes=m[1-2]\n";

static tp_het_conf machine;

static void load_machine(void)
{
	if (machine.nparts)
		return;
	const char *p = fuzz_write("machine.conf", (const uint8_t *)machine_text,
				   strlen(machine_text));
	tp_error err = { "" };
	if (tp_het_conf_read(p, &machine, &err))
		fuzz_fail("fixed machine: %s", err.msg);
}

static char *written(const tp_het_workload *w, const char *name)
{
	const char *p = fuzz_path(name);
	FILE *fp = fopen(p, "w");
	if (!fp || tp_het_jobs_write(fp, &machine, w) || fclose(fp))
		fuzz_fail("cannot write %s", p);
	return fuzz_slurp(p);
}

static void check(const tp_het_workload *w)
{
	for (size_t i = 0; i < w->n; i++) {
		const tp_het_job *j = &w->job[i];
		if (j->nmin < 1 || j->nparts < 1 || j->jclass < 0 ||
		    j->jclass >= w->njclass || j->estimate < 1)
			fuzz_fail("job %zu read out of range", i);
		for (int k = 0; k < j->nparts; k++)
			if (j->parts[k] < 0 || j->parts[k] >= machine.nparts)
				fuzz_fail("job %zu: partition %d", i, j->parts[k]);
	}
	char *a = written(w, "a.conf");
	tp_het_workload back;
	tp_error err = { "" };
	if (tp_het_jobs_read(fuzz_path("a.conf"), &machine, &back, &err))
		fuzz_fail("jobs written back do not read: %s\n%s", err.msg, a);
	char *b = written(&back, "b.conf");
	if (strcmp(a, b))
		fuzz_fail("jobs written twice differ:\n%s---\n%s", a, b);
	free(a);
	free(b);
	tp_het_workload_fini(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	load_machine();
	const char *path = fuzz_write("jobs.conf", data, size);
	tp_het_workload w;
	tp_error err = { "" };
	int rc = tp_het_jobs_read(path, &machine, &w, &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc == 0)
		check(&w);
	tp_het_workload_fini(&w);
	return 0;
}
