/* st_topo.c - allocator and node map per SelectType; see st_topo.h. */
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
	tp_error err = { { 0 } };
	tp_alloc_cfg cfg = { .nnodes = node_record_count };
	t->kind = "flat";
	t->alloc = tp_alloc_create("first-free", &cfg, &err);
	if (!t->alloc) {
		error("%s: %s", ST_TYPE, err.msg);
		return -1;
	}
	if (tpl_nodetable_map(&t->map, NULL, node_record_count, slurm_index,
			      ST_TYPE, "node table", "slurm.conf")) {
		tp_alloc_destroy(t->alloc);
		t->alloc = NULL;
		return -1;
	}
	snprintf(t->describe, sizeof(t->describe),
		 "allocator first-free over %d nodes in slurm.conf order",
		 node_record_count);
	return 0;
}

static int fattree_index(const void *tree, const char *name)
{
	return ft_state_node_index(tree, name);
}

static int load_fattree(st_topo *t)
{
	char *conf, *dir;
	tp_error err = { { 0 } };
	int rc = -1;

	t->kind = "fattree";
	tpl_conf_paths("fattree.conf", &conf, &dir);
	if (ft_state_load(&t->ft, conf, dir, &err)) {
		error("%s: %s", ST_TYPE, err.msg);
		goto out;
	}
	t->has_ft = true;
	t->alloc = t->ft.alloc;
	if (tpl_nodetable_map(&t->map, t->ft.tree, tp_fattree_nnodes(t->ft.tree),
			      fattree_index, ST_TYPE, "tree",
			      t->ft.cfg.topology_file))
		goto out;
	snprintf(t->describe, sizeof(t->describe),
		 "allocator %s on the tree of %s (%d nodes), settings %s",
		 t->ft.cfg.allocator, t->ft.cfg.topology_file,
		 tp_fattree_nnodes(t->ft.tree),
		 t->ft.cfg.source ? t->ft.cfg.source : "default");
	rc = 0;
out:
	if (rc && t->has_ft) {
		ft_state_fini(&t->ft);
		t->has_ft = false;
		t->alloc = NULL;
	}
	xfree(conf);
	xfree(dir);
	return rc;
}

static int torus_index(const void *torus, const char *name)
{
	return tt_state_node_index(torus, name);
}

/* No transit nodes: select/torus gives a job of exactly k nodes (-N k) a
 * box of exactly k, and sched/topo plans jobs by their node count. */
static int torus_exact_counts(tp_torus *torus, tp_error *err)
{
	tp_torus_opts o = *tp_torus_options(torus);
	o.ntransit = 0;
	return tp_torus_set_options(torus, &o, err);
}

static int load_torus(st_topo *t)
{
	char *conf, *dir;
	tp_error err = { { 0 } };
	int rc = -1;

	t->kind = "torus";
	tpl_conf_paths("torus.conf", &conf, &dir);
	if (tt_state_load(&t->tt, slurm_conf.sched_params, conf, dir, &err)) {
		error("%s: %s", ST_TYPE, err.msg);
		goto out;
	}
	t->has_tt = true;
	if (torus_exact_counts(t->tt.torus, &err)) {
		error("%s: %s", ST_TYPE, err.msg);
		goto out;
	}
	t->alloc = t->tt.alloc;
	if (tpl_nodetable_map(&t->map, t->tt.torus, tp_torus_nnodes(t->tt.torus),
			      torus_index, ST_TYPE, "torus", t->tt.conf_path))
		goto out;
	snprintf(t->describe, sizeof(t->describe),
		 "allocator %s on the torus of %s (%d nodes, %s), no transit nodes",
		 t->tt.alloc_name, t->tt.conf_path, tp_torus_nnodes(t->tt.torus),
		 t->tt.method_from);
	rc = 0;
out:
	if (rc && t->has_tt) {
		tt_state_fini(&t->tt);
		t->has_tt = false;
		t->alloc = NULL;
	}
	xfree(conf);
	xfree(dir);
	return rc;
}

static const struct st_topo_kind {
	const char *select_type;
	int (*load)(st_topo *t);
} kinds[] = {
	{ "select/linear", load_flat },
	{ "select/fattree", load_fattree },
	{ "select/torus", load_torus },
	{ NULL, NULL },
};

int st_topo_load(st_topo *t, const char *select_type)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; kinds[i].select_type; i++)
		if (!xstrcmp(select_type, kinds[i].select_type))
			return kinds[i].load(t);
	info("%s: SelectType=%s has no topology model here: using first-free over slurm.conf order; node sharing is not modelled (a node is free only when idle)",
	     ST_TYPE, select_type);
	return load_flat(t);
}

void st_topo_fini(st_topo *t)
{
	if (t->has_ft)
		ft_state_fini(&t->ft);
	else if (t->has_tt)
		tt_state_fini(&t->tt);
	else
		tp_alloc_destroy(t->alloc);
	if (t->map.to_topo || t->map.to_slurm)
		tpl_nodemap_fini(&t->map);
	memset(t, 0, sizeof(*t));
}
