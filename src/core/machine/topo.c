/* topo.c - load a machine and its allocator; see topo.h. */
#include "machine/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_memo.h"
#include "base/conffile.h"
#include "machine/fattree_conf.h"
#include "machine/topo_int.h"

void tp_topo_spec_init(tp_topo_spec *s, tp_topo_kind kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->ntransit = -1;
	s->base_shapes = -1;
}

const char *tp_topo_kind_name(tp_topo_kind k)
{
	switch (k) {
	case TP_TOPO_FLAT: return "flat";
	case TP_TOPO_FATTREE: return "fattree";
	case TP_TOPO_TORUS: return "torus";
	}
	return "?";
}

/* The allocator `name` on the loaded machine; `from` names the setting
 * that chose it in the error message. */
static int make_alloc(tp_topo *t, const char *name, const char *from,
		      tp_error *err)
{
	tp_alloc_cfg cfg = { .nnodes = t->nnodes, .fattree = t->tree,
			     .torus = t->torus };
	tp_error aerr;
	snprintf(t->alloc_name, sizeof(t->alloc_name), "%s", name);
	t->alloc_from = from ? from : "";
	t->alloc = tp_alloc_create(name, &cfg, &aerr);
	if (!t->alloc)
		return tp_errorf(err, "%s%s: %s", t->alloc_from, name, aerr.msg);
	if (!tp_alloc_is_flat(t->alloc) &&
	    !(t->alloc = tp_alloc_memo_wrap(t->alloc)))
		return tp_errorf(err, "%s: out of memory", name);
	return 0;
}

static int load_flat(tp_topo *t, const tp_topo_spec *s, tp_error *err)
{
	if (s->nnodes <= 0)
		return tp_errorf(err, "a flat machine needs a node count > 0 (got %d)",
				 s->nnodes);
	t->nnodes = t->ninside = s->nnodes;
	if (make_alloc(t, s->alloc ? s->alloc : "first-free",
		       s->alloc ? s->alloc_from : "default allocator ", err))
		return -1;
	snprintf(t->describe, sizeof(t->describe),
		 "allocator %s over %d nodes", t->alloc_name, t->nnodes);
	return 0;
}

/* A fat tree's node groups: its leaf switches, as the topology
 * allocator sees them (`inside`), and over every node of the machine,
 * outside nodes one group more (`all`). */
typedef struct topo_groups {
	tp_groups inside, all;
	int *fabric;  /* [nleaf + 1] after of[]: each leaf's fabric,
		       * the outside group's -1 */
	int of[];
} topo_groups;

/* The leaf switches as the allocator's node groups
 * (tp_alloc_req.max_groups, Slurm's --switches); `inner` is the
 * topology's allocator, t->alloc its outside wrapper or itself. */
int tp_topo_leaf_groups(tp_topo *t, tp_alloc *inner, tp_error *err)
{
	const tp_fattree *tree = t->tree;
	topo_groups *g = calloc(1, sizeof(*g) + ((size_t)t->nnodes + 1 +
					       (size_t)tree->nleaf + 1) * sizeof(int));
	if (!g)
		return tp_errorf(err, "%s: out of memory", t->topology);
	for (int l = 0; l < tree->nleaf; l++) {
		const tp_fattree_switch *s = &tree->sw[tree->leaves[l]];
		for (int i = s->node_lo; i < s->node_hi; i++)
			g->of[i] = l;
	}
	for (int i = t->ninside; i < t->nnodes; i++)
		g->of[i] = tree->nleaf;
	g->fabric = g->of + t->nnodes + 1;
	for (int l = 0; l < tree->nleaf; l++)
		g->fabric[l] = tree->sw[tree->leaves[l]].fabric;
	g->fabric[tree->nleaf] = -1;
	g->inside = (tp_groups){ .ngroups = tree->nleaf, .of = g->of,
				 .nfabric = tree->nfabric, .fabric = g->fabric };
	g->all = (tp_groups){ .ngroups = tree->nleaf + (t->nnodes > t->ninside),
			      .of = g->of, .nfabric = tree->nfabric,
			      .fabric = g->fabric };
	free(t->groups_mem);
	t->groups_mem = g;
	t->groups = &g->all;
	inner->groups = &g->inside;
	t->alloc->groups = &g->all;
	return 0;
}

static int load_fattree(tp_topo *t, const tp_topo_spec *s, tp_error *err)
{
	tp_fattree_conf fc;
	int rc = -1;
	char *conf = s->conf ? tp_conf_path_join(s->confdir, s->conf) : NULL;
	if (s->conf && !conf)
		return tp_errorf(err, "fattree.conf: out of memory");
	rc = tp_fattree_conf_read(&fc, conf, s->confdir, err);
	free(conf);
	if (rc)
		return -1;
	rc = -1;
	t->conf = fc.source ? strdup(fc.source) : NULL;
	t->topology = s->topology ? strdup(s->topology) : strdup(fc.topology_file);
	if (!t->topology || (fc.source && !t->conf)) {
		tp_errorf(err, "fattree.conf: out of memory");
		goto out;
	}
	t->tree = tp_fattree_load(t->topology, err);
	if (!t->tree || tp_fattree_set_opts(t->tree, &fc.opts, err))
		goto out;
	t->nnodes = t->ninside = tp_fattree_nnodes(t->tree);
	if (s->alloc)
		rc = make_alloc(t, s->alloc, s->alloc_from, err);
	else
		rc = make_alloc(t, fc.allocator, fc.source ? "fattree.conf Allocator="
					      : "default allocator ", err);
	if (!rc)
		rc = tp_topo_leaf_groups(t, t->alloc, err);
	if (!rc)
		snprintf(t->describe, sizeof(t->describe),
			 "allocator %s on the tree of %s (%d nodes), %d MSUs of %d nodes, settings %s",
			 t->alloc_name, t->topology, t->nnodes,
			 tp_fattree_nmsu(t->tree), tp_fattree_nunit(t->tree),
			 t->conf ? t->conf : "default");
out:
	tp_fattree_conf_fini(&fc);
	return rc;
}

/* The spec's replacements of torus.conf's Ntransit= and BaseShapes=. */
static int override_options(tp_torus *torus, const tp_topo_spec *s,
			    tp_error *err)
{
	tp_torus_opts o = *tp_torus_options(torus);
	if (s->ntransit >= 0)
		o.ntransit = s->ntransit;
	if (s->base_shapes >= 0)
		o.base_shapes = (tp_torus_base_shapes)s->base_shapes;
	return tp_torus_set_options(torus, &o, err);
}

static int load_torus(tp_topo *t, const tp_topo_spec *s, tp_error *err)
{
	char name[32];
	if (!s->conf)
		return tp_errorf(err, "a torus needs a torus.conf");
	if (!(t->conf = tp_conf_path_join(s->confdir, s->conf)))
		return tp_errorf(err, "torus.conf: out of memory");
	if (!(t->torus = tp_torus_load(t->conf, err)))
		return -1;
	if (override_options(t->torus, s, err))
		return -1;
	t->nnodes = t->ninside = tp_torus_nnodes(t->torus);
	snprintf(name, sizeof(name), "torus-%s",
		 tp_torus_method_name(tp_torus_default_method(t->torus)));
	if (s->alloc ? make_alloc(t, s->alloc, s->alloc_from, err)
		     : make_alloc(t, name, "torus.conf Method=", err))
		return -1;
	snprintf(t->describe, sizeof(t->describe),
		 "allocator %s on the torus of %s (%d nodes, method from %s), Ntransit=%d, BaseShapes=%s",
		 t->alloc_name, t->conf, t->nnodes, t->alloc_from,
		 tp_torus_ntransit(t->torus),
		 tp_torus_base_shapes_name(tp_torus_options(t->torus)->base_shapes));
	return 0;
}

int tp_topo_load(tp_topo *t, const tp_topo_spec *s, tp_error *err)
{
	static int (*const load[])(tp_topo *, const tp_topo_spec *, tp_error *) = {
		[TP_TOPO_FLAT] = load_flat,
		[TP_TOPO_FATTREE] = load_fattree,
		[TP_TOPO_TORUS] = load_torus,
	};
	memset(t, 0, sizeof(*t));
	t->kind = s->kind;
	if ((unsigned)s->kind > TP_TOPO_TORUS)
		return tp_errorf(err, "unknown machine kind %d", (int)s->kind);
	if (load[s->kind](t, s, err)) {
		tp_topo_fini(t);
		return -1;
	}
	return 0;
}

void tp_topo_fini(tp_topo *t)
{
	tp_alloc_destroy(t->alloc);
	tp_fattree_free(t->tree);
	tp_torus_free(t->torus);
	free(t->conf);
	free(t->topology);
	free(t->groups_mem);
	for (int i = 0; t->outside_name && i < t->nnodes - t->ninside; i++)
		free(t->outside_name[i]);
	free(t->outside_name);
	free(t->outside_sorted);
	memset(t, 0, sizeof(*t));
}

/* The topology's own index of `name`, or -1. */
static int inside_index(const tp_topo *t, const char *name)
{
	if (t->tree)
		return tp_fattree_node_index(t->tree, name);
	if (t->torus)
		return tp_torus_node_index(t->torus, name);
	return -1;
}

int tp_topo_node_index(const tp_topo *t, const char *name)
{
	int i = inside_index(t, name);
	if (i < 0 && t->outside_sorted)
		i = tp_topo_outside_index(t, name);
	return i;
}

const char *tp_topo_node_name(const tp_topo *t, int i)
{
	if (i >= t->ninside && i < t->nnodes && t->outside_name)
		return t->outside_name[i - t->ninside];
	if (t->tree)
		return tp_fattree_node_name(t->tree, i);
	if (t->torus)
		return tp_torus_node_name(t->torus, i);
	return NULL;
}

void tp_topo_spec_torus(tp_topo_spec *s, const tp_settings *set,
			const char *default_conf, const char *confdir,
			char *alloc, size_t len)
{
	tp_topo_spec_init(s, TP_TOPO_TORUS);
	s->confdir = confdir;
	s->conf = set->torus_conf[0] ? set->torus_conf : default_conf;
	if (set->torus_method[0]) {
		snprintf(alloc, len, "torus-%s", set->torus_method);
		s->alloc = alloc;
		s->alloc_from = "SchedulerParameters torus_method=";
	}
}

static uint64_t fattree_fragmentation(const tp_fattree *tree,
				      const tp_nodeset *free)
{
	uint64_t broken = 0;
	for (int m = 0; m < tp_fattree_nmsu(tree); m++)
		if (tp_fattree_msu_free(tree, free, m) < tp_fattree_msu_size(tree, m))
			broken++;
	return broken;
}

/* Outside nodes take no part: they are no box's. */
static uint64_t torus_fragmentation(const tp_topo *t, const tp_nodeset *free)
{
	tp_nodeset all, in;
	if (tp_nodeset_init(&all, t->ninside))
		return 0;
	if (tp_topo_inside(t, free, &in)) {
		tp_nodeset_fini(&all);
		return 0;
	}
	tp_nodeset_fill(&all);
	int64_t best = tp_torus_mss_phi(t->torus, &all);
	int64_t now = tp_torus_mss_phi(t->torus, &in);
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&in);
	return best > now ? (uint64_t)(best - now) : 0;
}

uint64_t tp_topo_fragmentation(const tp_topo *t, const tp_nodeset *free)
{
	if (t->tree)
		return fattree_fragmentation(t->tree, free);
	if (t->torus)
		return torus_fragmentation(t, free);
	return (uint64_t)(t->nnodes - tp_nodeset_count(free));
}

#define PLURAL(n) ((n) == 1 ? "" : "s")

void tp_topo_machine_line(const tp_topo *t, char *buf, size_t len)
{
	int out = tp_topo_noutside(t), used = 0;
	if (t->tree) {
		const tp_fattree *tree = t->tree;
		bool virt = tree->sw[tree->root].is_virtual;
		int levels = tree->levels - (virt ? 1 : 0);
		used = snprintf(buf, len, "fat tree of %s: %d node%s, %d leaf switch%s, %d switch level%s, %d fabric%s",
				t->topology, t->ninside, PLURAL(t->ninside),
				tree->nleaf, tree->nleaf == 1 ? "" : "es",
				levels, PLURAL(levels), tree->nfabric,
				PLURAL(tree->nfabric));
	} else if (t->torus) {
		char dims[96] = "";
		const int *d = tp_torus_dims(t->torus);
		for (int i = 0, k = 0; i < tp_torus_ndims(t->torus) &&
		     k < (int)sizeof(dims); i++)
			k += snprintf(dims + k, sizeof(dims) - (size_t)k, "%s%d",
				      i ? "x" : "", d[i]);
		used = snprintf(buf, len, "torus of %s: %s, %d node%s", t->conf,
				dims, t->ninside, PLURAL(t->ninside));
	} else {
		used = snprintf(buf, len, "flat: %d node%s", t->nnodes,
				PLURAL(t->nnodes));
	}
	if (out > 0 && used >= 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, ", and %d node%s outside it",
			 out, out == 1 ? "" : "s");
}
