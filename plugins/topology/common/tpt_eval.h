/*
 * tpt_eval.h - the topology plugins' node choice inside select/cons_tres
 * (Slurm 24.11), as the eval_nodes callback of a topology_eval_t.
 *
 * topology_p_eval_nodes sets the callback with trump_others and calls
 * Slurm's common_topo_choose_nodes(); Slurm's eval_nodes() calls it
 * first, on the nodes that can take the job now (run now), at a future
 * time (backfill planning) or ever (test only).  The callback:
 *   - places the job with the core allocator on those nodes: the node
 *     count from the job's request (tpl_job_node_range), -w nodes
 *     (required), --contiguous, and on a fat tree --switches (at most N
 *     leaf switches while the job's switch wait lasts; job_ptr's
 *     best_switch says whether that held, as topology/tree does);
 *   - clears every other node from node_map and returns
 *     ESLURM_NOT_SUPPORTED, so that Slurm's own code (consecutive fit,
 *     spread, busy-first or LLN as configured) picks cores, memory and
 *     GRES inside the chosen nodes; a second call for the same narrowed
 *     map (eval_nodes() asks again after those) answers the same way
 *     without placing again;
 *   - no placement: SLURM_ERROR (the job waits, or backfill tries a later
 *     time), except that a non-strict plugin leaves a job the allocator
 *     could not place even on every node it may use to Slurm's own choice;
 *   - jobs that share nodes and fit on one node (not --exclusive, not an
 *     OverSubscribe=EXCLUSIVE partition, one node): Slurm's own best fit,
 *     which packs them onto partly used nodes.
 */
#ifndef TPT_EVAL_H
#define TPT_EVAL_H

#include "tpt_ops.h"

#include "src/interfaces/topology.h"

/* The state and ops the callback places with, set before each
 * common_topo_choose_nodes() (slurmctld holds its job and node locks). */
void tpt_eval_bind(tpt_state *state, const tpt_ops *ops);

/* The eval_nodes callback. */
int tpt_eval(topology_eval_t *topo_eval);

#endif
