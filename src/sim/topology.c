/* topology.c - see topology.h. */
#include "topology.h"

#include <stdio.h>
#include <string.h>

#include "alloc/alloc_memo.h"
#include "topology/fattree.h"
#include "topology/torus.h"

static int check_nodes(int *nodes, int have, const char *what,
		       const char *path, tp_error *err)
{
	if (*nodes && *nodes != have)
		return tp_errorf(err, "--nodes %d, but %s %s has %d nodes",
				 *nodes, what, path, have);
	*nodes = have;
	return 0;
}

int sim_topology_load(sim_topology *t, const char *fattree_path,
		      const char *torus_path, int *nodes, tp_error *err)
{
	memset(t, 0, sizeof(*t));
	strcpy(t->default_alloc, "first-free");
	if (fattree_path) {
		/* Tolerated as Slurm tolerates it, but never silently. */
		if (!(t->fattree = tp_fattree_load_flags(fattree_path,
							 TP_FT_LOAD_FIRST_LEAF, err)))
			return -1;
		if (t->fattree->nwarn)
			fprintf(stderr, "toposim: warning: %s (%d such node(s); each "
				"is kept under its first leaf switch)\n",
				t->fattree->warn, t->fattree->nwarn);
		t->nnodes = tp_fattree_nnodes(t->fattree);
		strcpy(t->default_alloc, "fattree");
		return check_nodes(nodes, t->nnodes, "topology", fattree_path, err);
	}
	if (torus_path) {
		if (!(t->torus = tp_torus_load(torus_path, err)))
			return -1;
		t->nnodes = tp_torus_nnodes(t->torus);
		snprintf(t->default_alloc, sizeof(t->default_alloc), "torus-%s",
			 tp_torus_method_name(tp_torus_default_method(t->torus)));
		return check_nodes(nodes, t->nnodes, "torus", torus_path, err);
	}
	return 0;
}

const char *sim_topology_default_alloc(const sim_topology *t)
{
	return t->default_alloc;
}

tp_alloc *sim_topology_alloc(const sim_topology *t, const char *name,
			     int nnodes, tp_error *err)
{
	tp_alloc_cfg cfg = { .nnodes = nnodes, .fattree = t->fattree,
			     .torus = t->torus };
	tp_alloc *a = tp_alloc_create(name, &cfg, err);
	/* Same decisions, fewer repeated failed searches (alloc_memo.h). */
	if (a && !tp_alloc_is_flat(a) && !(a = tp_alloc_memo_wrap(a)))
		tp_errorf(err, "out of memory");
	return a;
}

const char *sim_topology_node_name(const sim_topology *t, int i)
{
	if (t->fattree)
		return tp_fattree_node_name(t->fattree, i);
	if (t->torus)
		return tp_torus_node_name(t->torus, i);
	return NULL;
}

void sim_topology_fini(sim_topology *t)
{
	if (t->fattree)
		tp_fattree_free(t->fattree);
	if (t->torus)
		tp_torus_free(t->torus);
	memset(t, 0, sizeof(*t));
}
