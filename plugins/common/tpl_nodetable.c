/* tpl_nodetable.c - plugin files and the node table; see tpl_nodetable.h. */
#include "tpl_nodetable.h"

#include <libgen.h>
#include <stdlib.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "model/job.h"
#include "machine/topo.h"
#include "topology/torus.h"
#include "tpl_compat.h"

void tpl_conf_paths(const char *name, char **conf, char **dir)
{
	*conf = get_extra_conf_path((char *)name);
	char *copy = xstrdup(*conf);
	*dir = xstrdup(dirname(copy));
	xfree(copy);
}

/* Slurm node names that have no index in the map, as a hostlist: nodes
 * slurm.conf gained after the machine's outside nodes were set
 * (tpl_topo_map), which only a new machine can place. */
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
	error("%s: %d node(s) of slurm.conf are unknown to the %s of %s: %s (new since it was loaded: re-read it with scontrol reconfigure)",
	      plugin_type, m->nmissing, kind, topo_file, names);
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
static int torus_present(const tpl_nodemap *m, const tp_topo *t,
			 const char *plugin_type)
{
	tp_nodeset present;
	int rc = tp_nodeset_init(&present, t->ninside);
	for (int j = 0; !rc && j < t->ninside; j++)
		if (m->to_slurm[j] >= 0)
			tp_nodeset_set(&present, j);
	if (!rc)
		rc = tp_torus_set_present(t->torus, &present);
	tp_nodeset_fini(&present);
	if (rc)
		error("%s: out of memory", plugin_type);
	return rc;
}

/*
 * slurm.conf's nodes that the topology file lacks become the machine's
 * outside nodes, placed by the release's rule (TPL_OUTSIDE_RULE,
 * alloc/outside.h), with a warning that names them, as Slurm's
 * topology/tree warns "switches lack access to N nodes" and runs on.
 * Once per machine: a machine mapped again keeps the outside nodes it
 * has (any newer node is reported by tpl_nodetable_map).
 */
static int add_outside(tp_topo *t, const char *plugin_type)
{
	const char **names;
	int n = 0, rc = 0;
	tp_error err = { { 0 } };
	char line[1024];

	if (t->kind == TP_TOPO_FLAT || tp_topo_noutside(t))
		return 0;
	names = xcalloc(node_record_count + 1, sizeof(char *));
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *nr = node_record_table_ptr[i];
		if (nr && nr->name && tp_topo_node_index(t, nr->name) < 0)
			names[n++] = nr->name;
	}
	if (n && tp_topo_add_outside(t, names, n, TPL_OUTSIDE_RULE, &err)) {
		error("%s: %s", plugin_type, err.msg);
		rc = -1;
	} else if (n) {
		tp_topo_outside_line(t, line, sizeof(line));
		tpl_warning("%s: %s", plugin_type, line);
	}
	xfree(names);
	return rc;
}

/* Several fabrics: said at every load, as Slurm's topology/tree says its
 * switches do not reach every node (tp_fattree_fabrics_warning). */
static void warn_fabrics(const tp_topo *t, const char *plugin_type)
{
	char *msg = t->tree ? tp_fattree_fabrics_warning(t->tree) : NULL;
	if (msg)
		tpl_warning("%s: %s", plugin_type, msg);
	free(msg);
}

int tpl_topo_map(tpl_nodemap *out, tp_topo *t, const char *plugin_type)
{
	const char *file = t->topology ? t->topology : t->conf;
	warn_fabrics(t, plugin_type);
	if (add_outside(t, plugin_type) ||
	    tpl_nodetable_map(out, t, t->nnodes, topo_index, plugin_type,
			      t->kind == TP_TOPO_TORUS ? "torus" : "tree",
			      file ? file : "slurm.conf"))
		return -1;
	if (t->kind == TP_TOPO_TORUS && torus_present(out, t, plugin_type)) {
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

uint64_t tpl_job_mem_per_cpu(const job_record_t *job)
{
	uint64_t m = job->details ? job->details->pn_min_memory : 0;
	if (m == NO_VAL64 || !(m & MEM_PER_CPU))
		return 0;
	return m & ~MEM_PER_CPU;
}

uint32_t tpl_part_job_cpus(const part_record_t *part, const job_record_t *job)
{
	uint64_t per = tpl_job_mem_per_cpu(job);
	uint32_t m = 0;
	if (!per)
		return tpl_part_min_cpus(part);
	if (!part || !part->node_bitmap)
		return 0;
	int first = bit_ffs(part->node_bitmap), last = bit_fls(part->node_bitmap);
	for (int i = first; i >= 0 && i <= last; i++) {
		node_record_t *n = node_record_table_ptr[i];
		if (!n || !bit_test(part->node_bitmap, i))
			continue;
		uint64_t fit = n->real_memory / per;
		uint32_t c = fit < n->cpus ? (uint32_t)fit : n->cpus;
		if (c && (!m || c < m))
			m = c;
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
out:
	xfree(conf);
	xfree(dir);
	return rc ? -1 : 0;
}

void tpl_job_node_range(job_record_t *job_ptr, uint32_t min_nodes,
			uint32_t max_nodes, uint32_t req_nodes, int *lo, int *hi)
{
	int64_t l = tp_job_nodes(min_nodes, job_ptr->details->min_cpus,
				 tpl_part_job_cpus(job_ptr->part_ptr, job_ptr));
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

void tpl_keep_usable(const tpl_nodemap *m, const tp_topo *t,
		     const tp_alloc_req *req, bitstr_t *bits)
{
	tp_nodeset s, keep;

	if (!tp_topo_noutside(t) || m->ntopo != t->nnodes)
		return;
	if (tp_nodeset_init(&s, t->nnodes))
		return;
	if (tp_nodeset_init(&keep, t->nnodes)) {
		tp_nodeset_fini(&s);
		return;
	}
	tpl_bits_to_set(m, bits, &s);
	tp_nodeset_copy(&keep, &s);
	tp_outside_usable(&t->outside, req, &keep);
	tp_nodeset_andnot(&s, &keep); /* what the rule takes away */
	for (int j = tp_nodeset_next(&s, 0); j >= 0; j = tp_nodeset_next(&s, j + 1))
		if (m->to_slurm[j] >= 0 && m->to_slurm[j] < bit_size(bits))
			bit_clear(bits, m->to_slurm[j]);
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&keep);
}

int tpl_keep_one_fabric(const tpl_nodemap *m, const tp_topo *t, int lo,
			int hi, bitstr_t *required, bitstr_t *bits)
{
	tp_nodeset s, req, keep;
	int f;

	if (tp_topo_nfabric(t) < 2 || hi == 1 || m->ntopo != t->nnodes)
		return 0;
	if (tp_nodeset_init(&s, m->ntopo))
		return -1;
	if (tp_nodeset_init(&req, m->ntopo) || tp_nodeset_init(&keep, m->ntopo)) {
		tp_nodeset_fini(&s);
		tp_nodeset_fini(&req);
		return -1;
	}
	tpl_bits_to_set(m, bits, &s);
	if (required)
		tpl_bits_to_set(m, required, &req);
	f = tp_topo_fabric_for(t, &s, lo, required ? &req : NULL);
	if (f >= 0) {
		tp_topo_fabric_nodes(t, f, &keep);
		tp_nodeset_andnot(&s, &keep); /* the other fabrics' nodes */
		for (int j = tp_nodeset_next(&s, 0); j >= 0; j = tp_nodeset_next(&s, j + 1))
			if (m->to_slurm[j] >= 0 && m->to_slurm[j] < bit_size(bits))
				bit_clear(bits, m->to_slurm[j]);
	}
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&req);
	tp_nodeset_fini(&keep);
	return f >= 0 ? 0 : -1;
}
