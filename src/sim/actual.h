/*
 * actual.h - what Slurm actually did with a sacct workload, as a schedule
 * the simulator's metrics read: each job's Submit, Start and End, and its
 * NodeList mapped onto the machine, so that the hop sum (fat tree) or the
 * box cost (torus) of Slurm's own placements stands next to the simulated
 * policy's in the same summary.
 */
#ifndef SIM_ACTUAL_H
#define SIM_ACTUAL_H

#include <stdbool.h>

#include "base/hostlist.h"
#include "engine/engine.h"
#include "engine/metrics.h"
#include "machine/topo.h"
#include "trace/sacct.h"

typedef struct sim_actual {
	tp_sim_result r;   /* one record a job, attempt 1 */
	size_t outside;    /* jobs with a node the machine lacks */
	size_t placed;     /* jobs whose every node is on the machine */
	bool checked;      /* the nodes could be looked up: the file has
			    * NodeLists and the machine names its nodes
			    * (else outside and placed say nothing) */
	char first_outside[128]; /* "FILE:LINE: name" of the first, or "" */
	/* Node-seconds with at least one job on the node: jobs that share a
	 * node count it once (the jobs placed; the others add nodes x run
	 * time), so utilisation from it cannot pass 1. */
	double occupied;
	size_t shared;     /* placed jobs that shared a node with another */
	size_t first_shared_line;
} sim_actual;

/* Builds a from s on topo.  On a flat machine the node names are those
 * of `part`, else the NodeList names the machine was counted from
 * (s->nodes; NULL: no names, no job is checked, placed or costed).  A job's
 * cost (allocator's tp_alloc_cost) needs every node of it on the machine;
 * the others keep -1 and count in a->outside.  0, or -1 with err on
 * ENOMEM. */
int sim_actual_build(const tp_sacct *s, const tp_topo *topo,
		     const tp_hostlist *part, sim_actual *a, tp_error *err);
void sim_actual_fini(sim_actual *a);
/* The summary of Slurm's schedule, its utilisation from a->occupied. */
void sim_actual_summarize(const sim_actual *a, tp_summary *sum);

/* With resources inside nodes: Slurm's CPU utilisation into sum, the
 * CPUs each job was allocated (AllocTRES cpu=, NCPUS; else ReqCPUS)
 * over the machine's `cpus`. */
void sim_actual_cpus(const tp_sacct *s, int64_t cpus, tp_summary *sum);

#endif
