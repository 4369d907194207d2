/* ft_state.c - settings, tree and allocator of select/fattree; see ft_state.h. */
#include "ft_state.h"

#include <stdio.h>
#include <stdlib.h>

int ft_state_load(ft_state *s, const char *conf_path, const char *confdir,
		  tp_error *err)
{
	*s = (ft_state){ 0 };
	if (ft_config_read(&s->cfg, conf_path, confdir, err))
		return -1;

	/* Like Slurm's topology/tree, accept a node listed under several
	 * leaf switches (it stays under the first); the caller logs
	 * s->tree->warn. */
	s->tree = tp_fattree_load_flags(s->cfg.topology_file,
					TP_FT_LOAD_FIRST_LEAF, err);
	if (!s->tree)
		goto fail;
	if (tp_fattree_set_opts(s->tree, &s->cfg.opts, err))
		goto fail;

	tp_alloc_cfg acfg = {
		.nnodes = tp_fattree_nnodes(s->tree),
		.fattree = s->tree,
	};
	tp_error aerr;
	s->alloc = tp_alloc_create(s->cfg.allocator, &acfg, &aerr);
	if (!s->alloc) {
		/* Name the setting that chose the allocator. */
		tp_errorf(err, "%s: Allocator=%s: %s",
			  s->cfg.source ? s->cfg.source : "(default settings)",
			  s->cfg.allocator, aerr.msg);
		goto fail;
	}
	return 0;
fail:
	ft_state_fini(s);
	return -1;
}

void ft_state_fini(ft_state *s)
{
	tp_alloc_destroy(s->alloc);
	tp_fattree_free(s->tree);
	ft_config_fini(&s->cfg);
	*s = (ft_state){ 0 };
}

int ft_state_node_index(const void *tree, const char *name)
{
	return tp_fattree_node_index(tree, name);
}

int ft_state_units(const ft_state *s, const tp_nodeset *nodes)
{
	int units = 0, last = -1;

	/* Node order follows MSU order, so each new MSU shows up once. */
	for (int i = tp_nodeset_next(nodes, 0); i >= 0;
	     i = tp_nodeset_next(nodes, i + 1)) {
		int m = s->tree->node_msu[i];
		if (m != last)
			units++;
		last = m;
	}
	return units;
}
