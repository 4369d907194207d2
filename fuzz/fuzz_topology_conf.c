/*
 * fuzz_topology_conf.c - Slurm's topology.conf as the fat-tree model
 * reads it (topology/fattree.h), both ways: a node under two leaves an
 * error, and tolerated as Slurm does.  Every node's name finds its
 * index.  A tree that loads strictly is written back
 * (tp_fattree_write_conf), read again and written again: the two texts
 * are the same.  (A tolerated tree may have a leaf whose nodes were all
 * listed before, which topology.conf cannot write: Nodes= needs a
 * value; the writer is ftconf's, for generated trees.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/fattree.h"
#include "fuzz_util.h"

static char *written(const tp_fattree *t, const char *name)
{
	const char *p = fuzz_path(name);
	FILE *fp = fopen(p, "w");
	if (!fp || tp_fattree_write_conf(t, fp) || fclose(fp))
		fuzz_fail("cannot write %s", p);
	return fuzz_slurp(p);
}

static void check_names(const tp_fattree *t)
{
	for (int i = 0; i < tp_fattree_nnodes(t); i++)
		if (tp_fattree_node_index(t, tp_fattree_node_name(t, i)) != i)
			fuzz_fail("node %d '%s' does not find its index", i,
				  tp_fattree_node_name(t, i));
}

static int writable(const tp_fattree *t)
{
	for (int i = 0; i < t->nnodes; i++)
		if (!fuzz_writable_name(t->node_name[i]))
			return 0;
	for (int i = 0; i < t->nswitch; i++)
		if (!fuzz_writable_name(t->sw[i].name))
			return 0;
	return 1;
}

static void round_trip(const tp_fattree *t)
{
	if (!writable(t))
		return;
	char *a = written(t, "a.conf");
	tp_error err = { "" };
	tp_fattree *back = tp_fattree_load(fuzz_path("a.conf"), &err);
	if (!back)
		fuzz_fail("topology.conf written back does not load: %s", err.msg);
	char *b = written(back, "b.conf");
	if (strcmp(a, b))
		fuzz_fail("topology.conf written twice differs:\n%s---\n%s", a, b);
	free(a);
	free(b);
	tp_fattree_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("topology.conf", data, size);
	static const unsigned flags[] = { 0, TP_FATTREE_LOAD_FIRST_LEAF };
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		tp_error err = { "" };
		tp_fattree *t = tp_fattree_load_flags(path, flags[i], &err);
		fuzz_check_error(t ? 0 : -1, err.msg, path);
		if (t)
			check_names(t);
		if (t && !flags[i])
			round_trip(t);
		tp_fattree_free(t);
	}
	return 0;
}
