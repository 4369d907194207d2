/*
 * fuzz_topology_conf.c - Slurm's topology.conf as the fat-tree model
 * reads it (tp_fattree_load, topology/fattree.h) for select/fattree,
 * topology/fattree, sched/topo and toposim.  Every node's name finds its
 * index.  A tree of up to ROUND_TRIP_MAX nodes is written back
 * (tp_fattree_write_conf, ftconf's writer), read again and written again:
 * the two texts are the same (names fuzz_writable_name() refuses aside).
 * Larger trees only load: under the sanitizers a million nodes take
 * seconds a load.  Fabrics (one per top switch) are consistent and kept
 * by the round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/fattree.h"
#include "fuzz_util.h"

#define ROUND_TRIP_MAX 65536

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

/* Fabrics: every node and real switch in one of 0..nfabric-1, each
 * fabric's root its own, the warning exactly when there are several. */
static void check_fabrics(const tp_fattree *t)
{
	if (t->nfabric < 1)
		fuzz_fail("%d fabrics", t->nfabric);
	for (int f = 0; f < t->nfabric; f++)
		if (t->sw[t->fabric_root[f]].fabric != f)
			fuzz_fail("fabric %d's root is in fabric %d", f,
				  t->sw[t->fabric_root[f]].fabric);
	for (int i = 0; i < t->nswitch; i++)
		if (!t->sw[i].is_virtual &&
		    (t->sw[i].fabric < 0 || t->sw[i].fabric >= t->nfabric ||
		     (t->sw[i].parent >= 0 && !t->sw[t->sw[i].parent].is_virtual &&
		      t->sw[t->sw[i].parent].fabric != t->sw[i].fabric)))
			fuzz_fail("switch '%s' in fabric %d", t->sw[i].name,
				  t->sw[i].fabric);
	char *w = tp_fattree_fabrics_warning(t);
	if ((w != NULL) != (t->nfabric > 1))
		fuzz_fail("%d fabrics, warning %s", t->nfabric, w ? w : "(none)");
	free(w);
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
	if (t->nnodes > ROUND_TRIP_MAX || !writable(t))
		return;
	char *a = written(t, "a.conf");
	tp_error err = { "" };
	tp_fattree *back = tp_fattree_load(fuzz_path("a.conf"), &err);
	if (!back)
		fuzz_fail("topology.conf written back does not load: %s", err.msg);
	char *b = written(back, "b.conf");
	if (strcmp(a, b))
		fuzz_fail("topology.conf written twice differs:\n%s---\n%s", a, b);
	if (back->nfabric != t->nfabric)
		fuzz_fail("%d fabrics written back as %d", t->nfabric, back->nfabric);
	free(a);
	free(b);
	tp_fattree_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("topology.conf", data, size);
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_load(path, &err);
	fuzz_check_error(t ? 0 : -1, err.msg, path);
	if (t) {
		check_names(t);
		check_fabrics(t);
		round_trip(t);
	}
	tp_fattree_free(t);
	return 0;
}
