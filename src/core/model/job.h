/*
 * job.h - a job as scheduling policies see it.
 *
 * Only what a real scheduler knows at decision time: size, requested time,
 * submit time.  The actual run time is the simulator's secret (see
 * engine.h) and never reaches a policy, so a policy behaves the same under
 * slurmctld, where nobody knows it.
 */
#ifndef TP_JOB_H
#define TP_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "base/nodeset.h"

struct tp_res_ask; /* model/res.h */

typedef struct tp_job {
	int64_t id;        /* SWF job number / Slurm job id */
	int64_t submit;    /* seconds */
	int64_t estimate;  /* requested time (time limit), seconds, > 0 */
	int32_t nodes;     /* requested nodes, > 0 (a range's minimum) */
	int32_t max_nodes; /* a node range's maximum (-N nodes-max_nodes):
			    * starting now, the job gets as many as fit;
			    * 0 (or <= nodes): exactly `nodes` */
	int32_t seq;       /* arrival order (file order / priority tie-break) */
	void *owner;       /* caller's record (simulator job, Slurm job_record) */
	/* Node constraints, owned by the caller (NULL/false: none): the
	 * nodes the job may use, the nodes it must get, consecutive nodes.
	 * Every placement of the job honours them (alloc.h, tp_job_req). */
	const tp_nodeset *allowed;
	const tp_nodeset *required;
	bool contiguous;
	int max_groups;    /* at most this many leaf switches (--switches),
			    * 0: any */
	/* The site's partition and user (any numbering; 0 for every job
	 * when unknown): the scheduler rhythm's per-partition and per-user
	 * limits (policy/rhythm.h). */
	int32_t part, user;
	/* The site's QOS (numbered as the QOS limits' table, policy/limits.h;
	 * -1: none), its association (numbered as the association limits';
	 * -1: none) and the CPUs a run of the job is charged (Slurm's TRES
	 * cpu): read only where limits are modelled. */
	int32_t qos, assoc;
	int64_t cpus;
	/* What it asks of each node when nodes are shared by jobs
	 * (tp_cluster.res), owned by the caller; NULL: whole nodes. */
	const struct tp_res_ask *ask;
} tp_job;

/*
 * Whole nodes a job needs: its minimum node count, or more when its CPU
 * count does not fit on that many nodes of `node_cpus` CPUs.  Slurm
 * drivers pass the fewest CPUs of a node of the job's partition, so the
 * count holds whichever of its nodes the allocator picks; sched/topo and
 * the select plugins use this one rule, so they agree on mixed
 * partitions.  node_cpus 0 means unknown (the node count stands).
 */
static inline int32_t tp_job_nodes(uint32_t min_nodes, uint32_t min_cpus,
				   uint32_t node_cpus)
{
	uint64_t n = min_nodes ? min_nodes : 1;
	if (node_cpus && min_cpus > n * node_cpus)
		n = ((uint64_t)min_cpus + node_cpus - 1) / node_cpus;
	return n > INT32_MAX ? INT32_MAX : (int32_t)n;
}

#endif
