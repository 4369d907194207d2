/*
 * fuzz_het_machine.c - the heterogeneous simulator's machine file
 * (hetsim/het_conf.h; toposim --het-machine).  A machine that reads is
 * written back (tp_het_conf_write), read again and written again: the
 * two texts are the same (names fuzz_writable_name() refuses aside), for
 * machines of up to ROUND_TRIP_MAX nodes (larger ones take seconds under
 * the sanitizers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetsim/het_conf.h"
#include "fuzz_util.h"

#define ROUND_TRIP_MAX 65536

static char *written(const tp_het_conf *c, const char *name)
{
	const char *p = fuzz_path(name);
	FILE *fp = fopen(p, "w");
	if (!fp || tp_het_conf_write(fp, c) || fclose(fp))
		fuzz_fail("cannot write %s", p);
	return fuzz_slurp(p);
}

static void check(const tp_het_conf *c)
{
	for (int p = 0; p < c->nparts; p++) {
		const tp_het_part *pt = &c->part[p];
		if (pt->nnodes < 1 || pt->mclass < 0 || pt->mclass >= c->nmclass)
			fuzz_fail("partition %d: %d nodes, class %d", p,
				  pt->nnodes, pt->mclass);
		for (int i = 0; i < pt->nnodes; i++)
			if (pt->node[i] < 0 || pt->node[i] >= c->nnodes ||
			    (i && pt->node[i] <= pt->node[i - 1]))
				fuzz_fail("partition %d: nodes not ascending", p);
	}
	if (c->nnodes > ROUND_TRIP_MAX)
		return;
	for (int i = 0; i < c->nnodes; i++)
		if (!fuzz_writable_name(c->node_name[i]))
			return;
	for (int p = 0; p < c->nparts; p++)
		if (!fuzz_writable_name(c->part[p].name))
			return;
	for (int m = 0; m < c->nmclass; m++)
		if (!fuzz_writable_name(c->mclass_name[m]))
			return;
	char *a = written(c, "a.conf");
	tp_het_conf back;
	tp_error err = { "" };
	if (tp_het_conf_read(fuzz_path("a.conf"), &back, &err))
		fuzz_fail("machine written back does not read: %s\n%s", err.msg, a);
	char *b = written(&back, "b.conf");
	if (strcmp(a, b))
		fuzz_fail("machine written twice differs:\n%s---\n%s", a, b);
	free(a);
	free(b);
	tp_het_conf_fini(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("machine.conf", data, size);
	tp_het_conf c;
	tp_error err = { "" };
	int rc = tp_het_conf_read(path, &c, &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc == 0)
		check(&c);
	tp_het_conf_fini(&c);
	return 0;
}
