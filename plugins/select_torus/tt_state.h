/*
 * tt_state.h - what select/torus decides with: its settings
 * (SchedulerParameters torus_ keys, tt_options.h), the torus
 * (torus.conf(5)) and the core allocator built on it.  Loading is free of
 * Slurm, so the unit tests load files the same way slurmctld does.
 */
#ifndef TT_STATE_H
#define TT_STATE_H

#include "alloc/alloc.h"
#include "model/error.h"
#include "topology/torus.h"
#include "tt_options.h"

typedef struct tt_state {
	tp_torus *torus;
	/* The core allocator behind a node limit (tt_state_limit): the one
	 * job_test asks.  Its cost is the core's (mean pair distance). */
	tp_alloc *alloc;
	char *conf_path;          /* the torus.conf read (absolute if given so) */
	tp_torus_method method;   /* the allocator's method */
	char alloc_name[16];      /* "torus-mss" */
	const char *method_from;  /* where the method came from, for logs */
} tt_state;

/*
 * Parse `sched_params` (SchedulerParameters, may be NULL), read the torus:
 * torus_conf= if given (relative paths: from `confdir`), else
 * `default_conf` (torus.conf beside slurm.conf; required).  The method is
 * torus_method= if given, else the file's Method= (default mss).
 * Returns 0, or -1 with err naming the file and line or the
 * SchedulerParameters key and value; `s` is then empty.
 */
int tt_state_load(tt_state *s, const char *sched_params,
		  const char *default_conf, const char *confdir,
		  tp_error *err);
void tt_state_fini(tt_state *s);

/*
 * The most nodes the next placements may have (a job's maximum node
 * count, Slurm's max_nodes), 0 for no limit.  Slurm refuses a placement
 * larger than the job's maximum, so with Ntransit > 0 a job of k nodes is
 * placed as if Ntransit were min(Ntransit, limit - k): it gets transit
 * nodes only within its own node range (-N k-m), and a job with an exact
 * count always gets a box of exactly k nodes.  Not thread-safe (it
 * adjusts the torus's options around each placement): callers hold their
 * lock, as select/torus does.
 */
void tt_state_limit(tt_state *s, int max_nodes);

/* tpl_topo_index_fn over a tp_torus (for tpl_nodemap_build). */
int tt_state_node_index(const void *torus, const char *name);

#endif
