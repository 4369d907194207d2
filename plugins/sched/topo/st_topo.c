/* st_topo.c - machine and node map per SelectType; see st_topo.h. */
#include "st_topo.h"

#include <string.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "tpl_nodetable.h"

#define ST_TYPE "sched/topo"

/* tpl_topo_index_fn for Slurm's own node order. */
static int slurm_index(const void *unused, const char *name)
{
	node_record_t *n = find_node_record((char *)name);
	return n ? n->index : -1;
}

static int load_flat(st_topo *t)
{
	tp_topo_spec spec;
	tp_error err = { { 0 } };
	tp_topo_spec_init(&spec, TP_TOPO_FLAT);
	spec.nnodes = node_record_count;
	if (tp_topo_load(&t->topo, &spec, &err)) {
		error("%s: %s", ST_TYPE, err.msg);
		return -1;
	}
	return tpl_nodetable_map(&t->map, NULL, node_record_count, slurm_index,
				 ST_TYPE, "node table", "slurm.conf");
}

static int load_fattree(st_topo *t)
{
	if (tpl_topo_load(&t->topo, TP_TOPO_FATTREE, -1, ST_TYPE))
		return -1;
	return tpl_topo_map(&t->map, &t->topo, ST_TYPE);
}

/* Jobs are planned by their node count: no transit nodes. */
static int load_torus(st_topo *t)
{
	if (tpl_topo_load(&t->topo, TP_TOPO_TORUS, 0, ST_TYPE))
		return -1;
	return tpl_topo_map(&t->map, &t->topo, ST_TYPE);
}

static const struct st_topo_kind {
	const char *plugin; /* SelectType (22.05) or TopologyPlugin (24.11) */
	int (*load)(st_topo *t);
} kinds[] = {
	{ "select/linear", load_flat },
	{ "topology/default", load_flat }, /* 24.11 without a topology */
	{ "select/fattree", load_fattree },
	{ "select/torus", load_torus },
	{ "topology/fattree", load_fattree },
	{ "topology/torus", load_torus },
	{ NULL, NULL },
};

int st_topo_load(st_topo *t, const char *machine_plugin)
{
	int (*load)(st_topo *) = NULL;
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; kinds[i].plugin; i++)
		if (!xstrcmp(machine_plugin, kinds[i].plugin))
			load = kinds[i].load;
	if (!load) {
		info("%s: %s has no topology model here: using first-free over slurm.conf order; node sharing is not modelled (a node is free only when idle) except by topo_policy=least-loaded",
		     ST_TYPE, machine_plugin);
		load = load_flat;
	}
	if (load(t)) {
		st_topo_fini(t);
		return -1;
	}
	return 0;
}

void st_topo_fini(st_topo *t)
{
	tp_topo_fini(&t->topo);
	if (t->map.to_topo || t->map.to_slurm)
		tpl_nodemap_fini(&t->map);
	memset(t, 0, sizeof(*t));
}
