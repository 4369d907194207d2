/*
 * tpt_ops.h - what every topology plugin of this suite shares on Slurm
 * 24.11 and 26.05 (TopologyPlugin=topology/fattree, topology/torus under
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
 * Slurm's topology_p_* operations are defined once per release around the
 * ops table each plugin names tpt_plugin (topology_fattree.c,
 * topology_torus.c): tpt_plugin_2411.c, tpt_plugin_2605.c.
 * What they share: tpt_state.c (the machine and its map onto Slurm's
 * nodes, and every answer that only needs them), tpt_eval.c (the
 * placement), tpt_info.c (`scontrol show topology`).
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
	/* 26.05: a node's place as the units of `Topology=` (scontrol show
	 * node; add_rm_node takes it back): ":s2:s1:s0" from the top switch
	 * down, or ":torus:1.2.0", appended to *str (xstrcat). */
	void (*place)(const tp_topo *t, int i, char **str);
	/* 26.05: a node's rank for task layout (get_rank): its topology unit
	 * (from 1: the leaf switch's place among the leaves; 1 for the
	 * whole torus) and its order within the unit (0 on a fat tree, as
	 * topology/tree; the node's place on a snake path through the
	 * torus, so neighbouring ranks are neighbouring nodes). */
	void (*rank)(const tp_topo *t, int i, uint32_t *unit, uint32_t *order);
} tpt_ops;

/* Each plugin defines this one. */
extern const tpt_ops tpt_plugin;

/* The machine and its map onto Slurm's node table, once built. */
typedef struct tpt_state {
	tp_topo topo;
	tpl_nodemap map;
	bitstr_t **group_bits; /* fattree: each switch's nodes (get_bitmap) */
	int ngroup_bits;
	bool loaded;
} tpt_state;

/* tpt_state.c: build the machine from its files and map it onto
 * slurm.conf's nodes; any problem is fatal (a controller must not run on
 * a topology it does not have).  `s` is left untouched when there are no
 * nodes yet. */
void tpt_state_build(tpt_state *s, const tpt_ops *ops);
void tpt_state_fini(tpt_state *s);
/* Node index in the topology of Slurm node `slurm_index`, or -1 (also
 * for a node outside it: slurm.conf's nodes the file lacks). */
int tpt_state_topo_index(const tpt_state *s, int slurm_index);
/* --exclusive=topo: widen `mask` to whole leaf switches (fat tree). */
void tpt_state_whole_topo(const tpt_state *s, bitstr_t *mask);
/* The nodes of switch `name`, not to be freed, or NULL. */
bitstr_t *tpt_state_bitmap(const tpt_state *s, const char *name);
/* 0 with the node's address and pattern (xmalloc'd), or -1. */
int tpt_state_node_addr(const tpt_state *s, const tpt_ops *ops,
			const char *name, char **addr, char **pattern);
/* The allocator's fragmentation of the free nodes `mask`. */
uint32_t tpt_state_fragmentation(const tpt_state *s, bitstr_t *mask);
/* `scontrol show topology` records (an empty set when not loaded). */
tpt_info *tpt_state_info(const tpt_state *s, const tpt_ops *ops);

#endif
