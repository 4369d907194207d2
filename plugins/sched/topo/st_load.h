/*
 * st_load.h - the nodes' loads for a policy that decides on resources
 * inside nodes (tp_policy_ops.needs_res: least-loaded): each node's CPUs
 * and memory from slurmctld's node records, what its running and
 * completing jobs hold of them from their job_resources, and what a
 * pending job asks of each node.  Translation only: select/cons_tres
 * picks the cores and memory on the node the core decided.
 */
#ifndef ST_LOAD_H
#define ST_LOAD_H

#include "st_ctx.h"
#include "st_slurm.h"

/* The view gets resources inside nodes: the nodes of `usable` (Slurm's
 * bitmap: the partition's available nodes) with their CPUs and memory,
 * every other node full; then every running or completing job's
 * allocation.  0 or -1 (ENOMEM). */
int st_load_attach(st_ctx *x, bitstr_t *usable);

/* What pending job j asks of each of its `nodes` nodes in partition
 * `part`: its CPUs spread over them (rounded up), its memory per node
 * or per CPU (none when it asks none), whole nodes for --exclusive or an
 * OverSubscribe=EXCLUSIVE partition. */
void st_load_ask(const part_record_t *part, const job_record_t *j,
		 int32_t nodes, tp_res_ask *ask);

/* The CPUs of the nodes of `usable` (array tasks that could run at
 * once on shared nodes). */
int64_t st_load_cpus(bitstr_t *usable);

#endif
