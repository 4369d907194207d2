/*
 * tpt_ops.h - what every topology plugin of this suite shares on Slurm
 * 24.11 (TopologyPlugin=topology/fattree, topology/torus under
 * SelectType=select/cons_tres).
 *
 * Since 24.05 select/cons_tres asks the topology plugin to choose a job's
 * nodes (topology_g_eval_nodes) in every mode: run now, test only and
 * will run (backfill planning, where cons_tres itself works out which
 * nodes are free at a future time).  Our eval_nodes narrows the nodes
 * cons_tres offers to the core allocator's choice (tpt_eval.c) and lets
 * Slurm's own code pick cores and GRES inside them, so GRES, core counts,
 * memory, -w, -x, partitions, reservations and features keep working as
 * with Slurm's own plugins.
 *
 * tpt_plugin.c defines Slurm's topology_p_* operations once, around the
 * ops table each plugin names tpt_plugin (topology_fattree.c,
 * topology_torus.c); tpt_info.c is `scontrol show topology`.
 *
 * Loading: slurmctld, slurmd and slurmstepd load the topology plugin and
 * so do client commands (for message fan-out and `scontrol show
 * topology`).  build_config (slurmctld, slurmd) loads the machine from
 * its files; the other programs never need it.  No slurmctld-only data
 * symbol is referenced, and slurmctld-only functions are called only
 * inside slurmctld.
 */
#ifndef TPT_OPS_H
#define TPT_OPS_H

#include "tpl_nodemap.h" /* Slurm's headers first */

#include "src/common/bitstring.h"

#include "machine/topo.h"
#include "machine/describe.h"
#include "tpt_info.h"

typedef struct tpt_ops {
	const char *plugin_type; /* "topology/fattree" */
	uint32_t plugin_id;       /* the plugin's plugin_id */
	tp_topo_kind kind;
	tp_describe_fn describe; /* placement facts for the logs */
	/* true: a job the allocator decides gets an allocator placement or
	 * waits (torus boxes).  false: a job the allocator can never place
	 * on the nodes it may use gets Slurm's own choice instead. */
	bool strict;
	/* --switches counts the machine's node groups (leaf switches). */
	bool switches;
	/* The line logged once the machine is loaded. */
	void (*loaded_line)(const tp_topo *t, char *buf, size_t len);
	/* `scontrol show topology`: the machine as records. */
	void (*records)(const tp_topo *t, tpt_info *info);
	/* Message fan-out address of topology node i, xmalloc'd: "s2.s0.n3"
	 * with pattern "switch.switch.node"; -1 to use the node name. */
	int (*node_addr)(const tp_topo *t, int i, char **addr, char **pattern);
} tpt_ops;

/* Each plugin defines this one. */
extern const tpt_ops tpt_plugin;

/* The machine and its map onto Slurm's node table, once built. */
typedef struct tpt_state {
	tp_topo topo;
	tpl_nodemap map;
	bitstr_t **group_bits; /* fattree: each switch's nodes (get_bitmap) */
	int ngroup_bits;
} tpt_state;

#endif
