/*
 * tpl_nodetable.h - a topology plugin's link to slurmctld's node table:
 * where its file is, and the map of Slurm's nodes onto the topology.
 */
#ifndef TPL_NODETABLE_H
#define TPL_NODETABLE_H

#include "tpl_nodemap.h"

#include "machine/topo.h"

#include "src/slurmctld/slurmctld.h"

/* `name` beside slurm.conf (found like topology.conf, with
 * get_extra_conf_path) and slurm.conf's directory, both xmalloc'd. */
void tpl_conf_paths(const char *name, char **conf, char **dir);

/*
 * Map the current node table (node_record_table_ptr) onto a machine of
 * `ntopo` nodes by name.  Every Slurm node must have an index there
 * (tpl_topo_map gives the nodes a topology file lacks theirs): otherwise
 * -1, with an error logged that names the missing nodes (as a hostlist),
 * `topo_file` and `kind` ("tree", "torus").  Topology nodes that
 * slurm.conf lacks are logged once at info; they are never chosen.  0 on
 * success, *out then owned by the caller.
 */
int tpl_nodetable_map(tpl_nodemap *out, const void *topo, int ntopo,
		      tpl_topo_index_fn index, const char *plugin_type,
		      const char *kind, const char *topo_file);

/* Fewest CPUs of a node of `part` (0 for an empty partition): what a
 * job's CPU count is converted to nodes with (tp_job_nodes). */
uint32_t tpl_part_min_cpus(const part_record_t *part);

/* The job's memory per CPU in MB (--mem-per-cpu), 0 when it asks memory
 * per node or none. */
uint64_t tpl_job_mem_per_cpu(const job_record_t *job);

/* Fewest CPUs a node of `part` can give job `job`: its CPUs, fewer when
 * the job asks memory per CPU (--mem-per-cpu) and the node's memory holds
 * fewer of them (a node that holds none is left out; 0 when every node
 * is).  Converting CPUs to nodes with the CPUs alone would ask for too
 * few nodes, which Slurm's select refuses every time. */
uint32_t tpl_part_job_cpus(const part_record_t *part, const job_record_t *job);

/*
 * Node counts a topology plugin asks of its allocator for a job, [lo,
 * hi]: the requested count first (Slurm's req_nodes, which is max_nodes
 * when the job gave a range), down to min_nodes; lo is raised to what
 * min_cpus needs (tp_job_nodes, the rule sched/topo uses too), so a
 * task-count job without -N gets enough nodes.  max_nodes 0: no cap.
 */
void tpl_job_node_range(job_record_t *job_ptr, uint32_t min_nodes,
			uint32_t max_nodes, uint32_t req_nodes, int *lo,
			int *hi);

/*
 * Nodes the job could use if every job ended: `candidates` plus the
 * nodes of its partition that are not down, drained, failed or future,
 * within its reservation and not excluded (node features are not
 * re-checked: an approximation that only decides "wait" against "the
 * allocator can never place it").  Into `out` (ntopo nodes).
 */
void tpl_ever_usable(const tpl_nodemap *m, job_record_t *job_ptr,
		     bitstr_t *candidates, tp_nodeset *out);

/*
 * Load the machine of a topology plugin as slurmctld configures it:
 *   fattree  fattree.conf beside slurm.conf (optional) and the topology
 *            file it names;
 *   torus    SchedulerParameters torus_conf=/torus_method= (any problem
 *            there refuses the settings: a typo must not fall back to a
 *            default), then torus.conf;
 * `ntransit` >= 0 replaces a torus's Ntransit.  Errors are logged with
 * `plugin_type`; 0 or -1.  select/fattree, select/torus and sched/topo
 * all load here, so they see one machine.
 */
int tpl_topo_load(tp_topo *t, tp_topo_kind kind, int ntransit,
		  const char *plugin_type);

/* The same for a loaded machine (machine/topo.h): nodes by name, the
 * file named in messages being its topology or configuration file.
 * slurm.conf's nodes that the file lacks first become the machine's
 * outside nodes (tp_topo_add_outside, by the release's TPL_OUTSIDE_RULE),
 * with a warning naming them: Slurm's own topology/tree runs on without
 * them too.  A torus also learns which of its positions slurm.conf has
 * (tp_torus_set_present). */
int tpl_topo_map(tpl_nodemap *out, tp_topo *t, const char *plugin_type);

/* Several fabrics (topology/fattree.h) and a job of up to `hi` nodes,
 * hi > 1 or 0 for no maximum: clear from `bits` every node outside the
 * fabric with the most nodes of `bits`, if it has at least `lo` and holds
 * every node of `required` (Slurm indices, may be NULL), so that Slurm's
 * own choice standing in for the allocator's stays in one fabric, as
 * topology/tree's does.  -1 (bits unchanged) when no fabric holds the job;
 * 0 otherwise, and always for one fabric or a job of one node. */
int tpl_keep_one_fabric(const tpl_nodemap *m, const tp_topo *t, int lo,
			int hi, bitstr_t *required, bitstr_t *bits);

/* Clear from `bits` (Slurm's node indices) the outside nodes of the
 * mapped machine that a placement `req` may not hold (alloc/outside.h,
 * tp_outside_usable): where Slurm's own node choice stands in for the
 * allocator's, it keeps to the release's rule too. */
void tpl_keep_usable(const tpl_nodemap *m, const tp_topo *t,
		     const tp_alloc_req *req, bitstr_t *bits);

#endif
