/*
 * fuzz_torus_conf.c - torus.conf(5) (topology/torus.h), as select/torus,
 * topology/torus and toposim read it.  Every node's name finds its index.
 * A torus of up to ROUND_TRIP_MAX nodes is written back
 * (tp_torus_write_conf), read again and written again: the two texts are
 * the same (larger ones take seconds a load under the sanitizers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/torus.h"
#include "fuzz_util.h"

#define ROUND_TRIP_MAX 65536

static char *written(const tp_torus *t, const char *name)
{
	const char *p = fuzz_path(name);
	FILE *fp = fopen(p, "w");
	if (!fp || tp_torus_write_conf(t, fp) || fclose(fp))
		fuzz_fail("cannot write %s", p);
	return fuzz_slurp(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("torus.conf", data, size);
	tp_error err = { "" };
	tp_torus *t = tp_torus_load(path, &err);
	fuzz_check_error(t ? 0 : -1, err.msg, path);
	if (!t)
		return 0;
	for (int i = 0; i < tp_torus_nnodes(t); i++)
		if (tp_torus_node_index(t, tp_torus_node_name(t, i)) != i)
			fuzz_fail("node %d '%s' does not find its index", i,
				  tp_torus_node_name(t, i));
	if (tp_torus_nnodes(t) > ROUND_TRIP_MAX) {
		tp_torus_free(t);
		return 0;
	}
	char *a = written(t, "a.conf");
	tp_torus *back = tp_torus_load(fuzz_path("a.conf"), &err);
	if (!back)
		fuzz_fail("torus.conf written back does not load: %s", err.msg);
	char *b = written(back, "b.conf");
	if (strcmp(a, b))
		fuzz_fail("torus.conf written twice differs:\n%s---\n%s", a, b);
	free(a);
	free(b);
	tp_torus_free(back);
	tp_torus_free(t);
	return 0;
}
