/*
 * tpt_eval.h - the topology plugins' node choice inside select/cons_tres,
 * the same on every release; each release's skeleton turns the answer
 * into what its cons_tres expects (tpt_plugin_2411.c: 24.11's eval_nodes
 * callback; tpt_plugin_2605.c: 26.05's).
 *
 * Given the nodes that can take the job now (run now), at a future time
 * (backfill planning) or ever (test only), in node_map:
 *   - places the job with the core allocator on those nodes: the node
 *     count from the job's request (tpl_job_node_range), -w nodes
 *     (required), --contiguous, and on a fat tree --switches (at most N
 *     leaf switches while the job's switch wait lasts; job_ptr's
 *     best_switch says whether that held, as topology/tree does);
 *     TPT_CHOSEN: node_map holds exactly the chosen nodes, and Slurm's
 *     own code (consecutive fit, spread, busy-first or LLN as configured)
 *     is to pick cores, memory and GRES inside them;
 *   - TPT_WAIT: no placement (the job waits, or backfill tries a later
 *     time);
 *   - TPT_NO_FABRIC: no placement because the tree has several fabrics
 *     (topology/fattree.h) and none holds the job: a wait like TPT_WAIT,
 *     answered with the code the release's topology/tree gives a job it
 *     finds no top switch for (24.11: "Requested topology configuration
 *     is not available" at submission);
 *   - TPT_SLURM: Slurm's own choice on node_map (unchanged): a
 *     non-strict plugin's answer for a job the allocator could not place
 *     even on every node it may use, and the answer for jobs that share
 *     nodes and fit on one node (not --exclusive, not an
 *     OverSubscribe=EXCLUSIVE partition, one node), which Slurm's best
 *     fit packs onto partly used nodes; also when no machine is loaded.
 *     node_map then lacks the nodes outside the topology (slurm.conf's
 *     nodes the file lacks) that the release's rule keeps from the job
 *     (TPL_OUTSIDE_RULE, alloc/outside.h), as the allocator's own
 *     placements do, and on several fabrics every fabric but the one
 *     with the most of its nodes (tpl_keep_one_fabric).
 */
#ifndef TPT_EVAL_H
#define TPT_EVAL_H

#include "tpt_ops.h"

#include "src/interfaces/topology.h"

typedef enum { TPT_CHOSEN, TPT_WAIT, TPT_SLURM, TPT_NO_FABRIC } tpt_choice;

/* Called with slurmctld's job and node locks held. */
tpt_choice tpt_eval_choose(tpt_state *st, const tpt_ops *ops,
			   topology_eval_t *e);

#endif
