/*
 * st_view.h - one partition as a scheduling pass sees it, built afresh.
 *
 * The simulator keeps its tp_cluster up to date event by event; the plugin
 * instead rebuilds one from slurmctld's tables at every cycle: the free
 * nodes, every running job with its limit (Slurm's end_time) and nodes,
 * the nodes still completing (as a run that ends now), and the pending
 * jobs sorted into priority order.  This file is the Slurm-free half of
 * that: what goes into the tp_cluster and in which order, so the unit
 * tests can show that a view rebuilt from a snapshot makes the same
 * decisions as the simulator's engine.
 *
 * Queue order: Slurm priority, highest first; then submit time, earliest
 * first; then job id, lowest first (Slurm's sort_job_queue2() order
 * without its reservation, preemption and partition-tier rules, which
 * sched/topo does not model).
 */
#ifndef ST_VIEW_H
#define ST_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "alloc/placeable.h"
#include "model/cluster.h"

/* What the plugin knows of a job (pending or running). */
typedef struct st_jobdesc {
	int64_t id;        /* Slurm job id */
	uint32_t priority; /* Slurm priority (pending jobs) */
	int64_t submit;    /* epoch s */
	int64_t estimate;  /* time limit, s */
	int32_t nodes;     /* nodes requested (>= 1; a range's minimum) */
	int32_t max_nodes; /* a range's maximum (-N min-max), 0: none */
	int32_t seq;       /* arrival index (window-ff's index rule): the
			    * Slurm job id, which grows with submission */
	void *ref;         /* job_record_t * in slurmctld */
	/* Node constraints (tp_job), NULL/false: none; sets from
	 * st_view_set() live as long as the view's jobs. */
	const tp_nodeset *allowed, *required;
	bool contiguous;
	int max_groups;    /* --switches while its wait lasts, 0: any */
	/* What a pending job asks of each node, for a view with resources
	 * inside nodes (st_view_attach_res); has_ask false: whole nodes. */
	bool has_ask;
	tp_res_ask ask;
} st_jobdesc;

/* A tp_job plus what only the view needs. */
typedef struct st_vjob {
	tp_job job;        /* first: a tp_job * is an st_vjob * */
	uint32_t priority;
	void *ref;
	tp_res_ask ask;    /* job.ask points here when it has one */
} st_vjob;

typedef struct st_view {
	tp_cluster c;
	tp_alloc *alloc;   /* not owned */
	st_vjob *jobs;     /* storage; tp_job pointers into it stay valid
			    * until the next st_view_begin */
	size_t njobs, capjobs;
	size_t nending;    /* nodes-still-completing pseudo runs */
	/* Could a job of n nodes ever be placed on the partition's nodes
	 * (whatever their state)?  The simulator rejects such jobs at
	 * arrival; a view leaves them out of the queue, where they would
	 * block every job behind them for ever.  Per view. */
	tp_placeable placeable;
	tp_nodeset **sets; /* st_view_set(): each allocated once, reused
			    * from view to view (jobs point at them) */
	size_t nsets, capsets;
	/* Resources inside nodes (st_view_attach_res), for a policy that
	 * decides on them (tp_policy_ops.needs_res); c.res points here. */
	tp_res res;
	tp_nodeset one;    /* scratch: one node */
} st_view;

void st_view_init(st_view *v, tp_alloc *alloc);
void st_view_fini(st_view *v);

/*
 * Start a fresh view at `now` for at most `maxjobs` jobs (running +
 * pending + 1): no node free, nothing running, empty queue.  The caller
 * then sets v->c.free (and calls tp_cluster_recount_free()) and adds
 * jobs.  0, -1 on ENOMEM.
 */
int st_view_begin(st_view *v, int64_t now, size_t maxjobs);

/* A running job on `nodes` since `start`, ending by its limit at `end`;
 * fill_for/extensions from the fill table (TP_NOT_FILL, 0 otherwise).
 * Returns the run index, -1 when full or on ENOMEM. */
long st_view_add_running(st_view *v, const st_jobdesc *d, int64_t start,
			 int64_t end, const tp_nodeset *nodes,
			 int64_t fill_for, int extensions);

/* Nodes neither free nor held by a running job but about to be (a job
 * completing): a run ending now, so a pass counts on them as the
 * simulator does on nodes freed at this instant.  0 or -1. */
int st_view_add_ending(st_view *v, const tp_nodeset *nodes);

/* An empty node set over the view's nodes for a job's constraints,
 * valid until the next st_view_begin; NULL on ENOMEM. */
tp_nodeset *st_view_set(st_view *v);

/* Resources inside nodes, after the running jobs and before the pass:
 * each node's size (total[x]; a node the partition may not use gets 1
 * CPU, all of it allocated), nothing allocated yet.  0 or -1 (ENOMEM). */
int st_view_attach_res(st_view *v, const tp_res_node *total);
/* What slurmctld has allocated on node x (a running or completing job's
 * share of it, as its job_resources say). */
void st_view_res_take(st_view *v, int x, const tp_res_node *amount);
/* After the takes: the free nodes are those nothing is allocated on. */
void st_view_res_done(st_view *v);

/* A pending job; queued in st_view_sort_queue().  0 or -1. */
int st_view_add_pending(st_view *v, const st_jobdesc *d);

/* Slurm's queue order of job a against job b (priority, submit, id;
 * tp_prio_order, the core's rule):
 * < 0 if a comes first; a strict order on distinct jobs.  Both cycles
 * sort by it. */
int st_view_order(uint32_t pa, int64_t sa, int64_t ida, uint32_t pb,
		  int64_t sb, int64_t idb);
/* Sort the queue into priority order. */
void st_view_sort_queue(st_view *v);

/* The Slurm job record behind a tp_job of this view (NULL for the
 * completing pseudo job). */
static inline void *st_view_ref(const tp_job *j)
{
	return ((const st_vjob *)j)->ref;
}

#endif
