/*
 * fattree_fabric.c - the fabrics of a fat tree: the connected components
 * of its switch graph, one per root switch, and the warning every front
 * end prints when there are several.  See fattree.h.
 *
 * Why: Slurm's topology/tree never combines nodes of switches that have
 * no common ancestor (it warns at load that no switch reaches every
 * node); sites split fabrics on purpose.  The model's virtual root joins
 * the trees for its walks only; the fabric of each switch lets every
 * allocator keep a job inside one.
 */
#include "topology/fattree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hostlist.h"

int tp_fattree_build_fabrics(tp_fattree *t, tp_error *err);

/* Fabrics listed by name in the warning; the rest are counted. */
#define WARN_LISTED 8

/* Root of every switch's tree into top[] (parents first: reverse
 * post-order); the virtual root gets -1. */
static void find_tops(const tp_fattree *t, int *top)
{
	for (int q = t->nswitch - 1; q >= 0; q--) {
		int v = t->postorder[q], p = t->sw[v].parent;
		if (t->sw[v].is_virtual)
			top[v] = -1;
		else
			top[v] = p < 0 || t->sw[p].is_virtual ? v : top[p];
	}
}

/* Fabrics are numbered in node order (by their first node), so fabric 1
 * holds n1 when the file starts there; a tree without nodes (none can
 * be read, but the numbering must not depend on that) comes last. */
int tp_fattree_build_fabrics(tp_fattree *t, tp_error *err)
{
	const tp_fattree_switch *r = &t->sw[t->root];
	int n = r->is_virtual ? r->nchild : 1;
	int *top = malloc((size_t)t->nswitch * sizeof(int));
	free(t->fabric_root);
	t->fabric_root = malloc((size_t)n * sizeof(int));
	if (!top || !t->fabric_root) {
		free(top);
		return tp_errorf(err, "%s: out of memory", t->path);
	}
	find_tops(t, top);
	for (int v = 0; v < t->nswitch; v++)
		t->sw[v].fabric = -1;
	int f = 0;
	for (int l = 0; l < t->nleaf; l++) {
		int root = top[t->leaves[l]];
		if (t->sw[root].fabric < 0) {
			t->sw[root].fabric = f;
			t->fabric_root[f++] = root;
		}
	}
	for (int v = 0; v < t->nswitch; v++)
		if (top[v] == v && t->sw[v].fabric < 0) {
			t->sw[v].fabric = f;
			t->fabric_root[f++] = v;
		}
	t->nfabric = f;
	for (int v = 0; v < t->nswitch; v++)
		if (top[v] >= 0)
			t->sw[v].fabric = t->sw[top[v]].fabric;
	free(top);
	return 0;
}

int tp_fattree_set_fabric(const tp_fattree *t, const tp_nodeset *s,
			  int *first_other)
{
	int f = -1;
	for (int v = tp_nodeset_next(s, 0); v >= 0; v = tp_nodeset_next(s, v + 1)) {
		int g = tp_fattree_node_fabric(t, v);
		if (f < 0) {
			f = g;
		} else if (g != f) {
			if (first_other)
				*first_other = v;
			return -2;
		}
	}
	return f;
}

char *tp_fattree_fabric_nodes(const tp_fattree *t, int f)
{
	const char **names = malloc((size_t)(t->nnodes ? t->nnodes : 1) *
				    sizeof(*names));
	if (!names)
		return NULL;
	size_t n = 0;
	for (int v = 0; v < t->nnodes; v++)
		if (tp_fattree_node_fabric(t, v) == f)
			names[n++] = t->node_name[v];
	char *s = tp_hostlist_compress(names, n);
	free(names);
	return s;
}

/* Write "fabric F = ROOT (NODES)"; -1 on ENOMEM. */
static int describe_fabric(const tp_fattree *t, int f, FILE *fp)
{
	char *nodes = tp_fattree_fabric_nodes(t, f);
	if (!nodes)
		return -1;
	fprintf(fp, "%sfabric %d = %s (%s)", f ? ", " : "", f + 1,
		t->sw[t->fabric_root[f]].name, *nodes ? nodes : "no nodes");
	free(nodes);
	return 0;
}

char *tp_fattree_fabrics_warning(const tp_fattree *t)
{
	if (t->nfabric < 2)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp)
		return NULL;
	fprintf(fp, "%s: %d fabrics with no switch above them: ", t->path,
		t->nfabric);
	int rc = 0;
	for (int f = 0; f < t->nfabric && f < WARN_LISTED && !rc; f++)
		rc = describe_fabric(t, f, fp);
	if (t->nfabric > WARN_LISTED)
		fprintf(fp, " and %d more", t->nfabric - WARN_LISTED);
	fputs("; no job will span two; write a spine switch to join them", fp);
	if (fclose(fp) || rc) {
		free(buf);
		return NULL;
	}
	return buf;
}
