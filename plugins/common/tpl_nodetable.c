/* tpl_nodetable.c - plugin files and the node table; see tpl_nodetable.h. */
#include "tpl_nodetable.h"

#include <libgen.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "model/job.h"
#include "machine/topo.h"
#include "topology/torus.h"

void tpl_conf_paths(const char *name, char **conf, char **dir)
{
	*conf = get_extra_conf_path((char *)name);
	char *copy = xstrdup(*conf);
	*dir = xstrdup(dirname(copy));
	xfree(copy);
}

/* Slurm node names that have no place in the topology, as a hostlist. */
static void report_missing(const tpl_nodemap *m, const char *plugin_type,
			   const char *kind, const char *topo_file)
{
	bitstr_t *missing = bit_alloc(m->nslurm);
	for (int i = 0; i < m->nslurm; i++) {
		node_record_t *n = node_record_table_ptr[i];
		if (n && n->name && m->to_topo[i] < 0)
			bit_set(missing, i);
	}
	char *names = bitmap2node_name(missing);
	error("%s: %d node(s) of slurm.conf are not in %s: %s (every node needs its place in the %s)",
	      plugin_type, m->nmissing, topo_file, names, kind);
	xfree(names);
	FREE_NULL_BITMAP(missing);
}

int tpl_nodetable_map(tpl_nodemap *out, const void *topo, int ntopo,
		      tpl_topo_index_fn index, const char *plugin_type,
		      const char *kind, const char *topo_file)
{
	const char **names = xcalloc(node_record_count + 1, sizeof(char *));
	tpl_nodemap m;
	tp_error err = { { 0 } };
	int rc = 0;

	for (int i = 0; i < node_record_count; i++)
		if (node_record_table_ptr[i])
			names[i] = node_record_table_ptr[i]->name;
	if (tpl_nodemap_build(&m, names, node_record_count, topo, ntopo,
			      index, &err)) {
		error("%s: %s: %s", plugin_type, topo_file, err.msg);
		rc = -1;
	} else if (m.nmissing) {
		report_missing(&m, plugin_type, kind, topo_file);
		tpl_nodemap_fini(&m);
		rc = -1;
	} else {
		if (m.nunused)
			info("%s: %d node(s) of %s are not in slurm.conf; they are never chosen",
			     plugin_type, m.nunused, topo_file);
		*out = m;
	}
	xfree(names);
	return rc;
}

static int topo_index(const void *t, const char *name)
{
	return tp_topo_node_index(t, name);
}

/* A torus's positions that slurm.conf lacks never get a job: the torus
 * knows which are present, so a size with no box of present positions is
 * shapeless there (torus.conf Shapeless=) rather than waiting forever. */
static int torus_present(const tpl_nodemap *m, tp_torus *torus,
			 const char *plugin_type)
{
	tp_nodeset present;
	int rc = tp_nodeset_init(&present, m->ntopo);
	for (int j = 0; !rc && j < m->ntopo; j++)
		if (m->to_slurm[j] >= 0)
			tp_nodeset_set(&present, j);
	if (!rc)
		rc = tp_torus_set_present(torus, &present);
	tp_nodeset_fini(&present);
	if (rc)
		error("%s: out of memory", plugin_type);
	return rc;
}

int tpl_topo_map(tpl_nodemap *out, const tp_topo *t, const char *plugin_type)
{
	const char *file = t->topology ? t->topology : t->conf;
	if (tpl_nodetable_map(out, t, t->nnodes, topo_index, plugin_type,
			      t->kind == TP_TOPO_TORUS ? "torus" : "tree",
			      file ? file : "slurm.conf"))
		return -1;
	if (t->kind == TP_TOPO_TORUS && torus_present(out, t->torus, plugin_type)) {
		tpl_nodemap_fini(out);
		return -1;
	}
	return 0;
}

uint32_t tpl_part_min_cpus(const part_record_t *part)
{
	uint32_t m = 0;
	if (!part || !part->node_bitmap)
		return 0;
	int first = bit_ffs(part->node_bitmap), last = bit_fls(part->node_bitmap);
	for (int i = first; i >= 0 && i <= last; i++) {
		node_record_t *n = node_record_table_ptr[i];
		if (n && bit_test(part->node_bitmap, i) && (!m || n->cpus < m))
			m = n->cpus;
	}
	return m;
}

static void report_setting(void *plugin_type, const char *msg)
{
	error("%s: %s", (const char *)plugin_type, msg);
}

int tpl_topo_load(tp_topo *t, tp_topo_kind kind, int ntransit,
		  const char *plugin_type)
{
	char *conf, *dir, alloc[32];
	tp_topo_spec spec;
	tp_error err = { { 0 } };
	int rc = -1;

	memset(t, 0, sizeof(*t));
	tpl_conf_paths(kind == TP_TOPO_TORUS ? "torus.conf" : "fattree.conf",
		       &conf, &dir);
	if (kind == TP_TOPO_TORUS) {
		tp_settings set;
		if (tp_settings_parse_params(&set, NULL, slurm_conf.sched_params,
					     TP_SCOPE_TORUS, report_setting,
					     (void *)plugin_type))
			goto out;
		tp_topo_spec_torus(&spec, &set, conf, dir, alloc, sizeof(alloc));
	} else {
		tp_topo_spec_init(&spec, kind);
		spec.conf = conf;
	}
	spec.confdir = dir;
	spec.ntransit = ntransit;
	if ((rc = tp_topo_load(t, &spec, &err)))
		error("%s: %s", plugin_type, err.msg);
	else if (t->tree && t->tree->nwarn)
		error("%s: WARNING: %s (%d such node(s); each is kept under its first leaf switch)",
		      plugin_type, t->tree->warn, t->tree->nwarn);
out:
	xfree(conf);
	xfree(dir);
	return rc ? -1 : 0;
}

void tpl_job_node_range(job_record_t *job_ptr, uint32_t min_nodes,
			uint32_t max_nodes, uint32_t req_nodes, int *lo, int *hi)
{
	int64_t l = tp_job_nodes(min_nodes, job_ptr->details->min_cpus,
				 tpl_part_min_cpus(job_ptr->part_ptr));
	int64_t h = MAX(req_nodes, min_nodes);

	if (min_nodes == 0)
		l = 0;
	if (max_nodes && h > max_nodes)
		h = max_nodes;
	if (h < l)
		h = l;
	*lo = (int)MIN(l, INT32_MAX);
	*hi = (int)MIN(h, INT32_MAX);
}

void tpl_ever_usable(const tpl_nodemap *m, job_record_t *job_ptr,
		     bitstr_t *candidates, tp_nodeset *out)
{
	bitstr_t *b = bit_copy(candidates);
	part_record_t *part = job_ptr->part_ptr;

	if (part && part->node_bitmap) {
		bitstr_t *p = bit_copy(part->node_bitmap);
		for (int i = 0; i < node_record_count; i++) {
			node_record_t *n = node_record_table_ptr[i];
			if (!bit_test(p, i))
				continue;
			if (!n || IS_NODE_DOWN(n) || IS_NODE_DRAIN(n) ||
			    IS_NODE_FAIL(n) || IS_NODE_FUTURE(n))
				bit_clear(p, i);
		}
		if (job_ptr->resv_ptr && job_ptr->resv_ptr->node_bitmap)
			bit_and(p, job_ptr->resv_ptr->node_bitmap);
		if (job_ptr->details->exc_node_bitmap)
			bit_and_not(p, job_ptr->details->exc_node_bitmap);
		bit_or(b, p);
		FREE_NULL_BITMAP(p);
	}
	tpl_bits_to_set(m, b, out);
	FREE_NULL_BITMAP(b);
}
