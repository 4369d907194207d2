/*
 * policy.h - scheduling policies: one pass over a tp_cluster.
 *
 * A policy never advances time and never touches anything but the cluster
 * it is given: it decides which queued jobs start now, and where (through
 * the cluster's allocator), by calling tp_cluster_start().  The simulator
 * and the sched/topo plugin both run passes through tp_policy_pass(), so
 * what one decides the other decides on the same input.
 */
#ifndef TP_POLICY_H
#define TP_POLICY_H

#include <stdint.h>

#include "alloc/alloc.h"
#include "model/cluster.h"
#include "base/error.h"

typedef struct tp_policy tp_policy;

/* Tunables; defaults from tp_policy_opts_default() (settings/settings.h).  Each is documented in
 * toposim(1) and sched_topo(5). */
/* Which jobs form window-ff's window. */
typedef enum tp_window_rule {
	/* The first w jobs still waiting: a started job's place is taken by
	 * the next one (the queue slides). */
	TP_WINDOW_QUEUE = 0,
	/* The Angara paper's definition: waiting jobs whose arrival index i
	 * satisfies i - imin < w, imin the oldest waiting job's index; jobs
	 * started out of order leave holes that are not refilled. */
	TP_WINDOW_INDEX,
} tp_window_rule;

typedef struct tp_policy_opts {
	int window;             /* window-ff: jobs in the window (w), >= 1 */
	tp_window_rule window_rule; /* window-ff: see tp_window_rule */
	int njob;               /* batch-njob: jobs per batch, >= 1 */
	int rbhar_max_ext;      /* rb-har: extensions per fill job (paper: 1) */
	int64_t rbhar_max_time; /* rb-har: cap on one extension, s (0 = none) */
	int rbhar_requeue;      /* rb-har: requeue (resubmit) fill jobs killed after an
				 * extension, with a corrected estimate */
	double rbhar_factor;    /* rb-har: corrected estimate = factor x time
				 * already run (>= 1) */
	double completion_share; /* the completion-aware choice's share of
				  * run time that is communication, 0 off
				  * (alloc/completion.h) */
} tp_policy_opts;

/* Counters, readable by the plugin's statistics and the simulator. */
typedef struct tp_policy_stats {
	uint64_t passes;
	uint64_t started;       /* jobs started by passes */
	uint64_t backfilled;    /* of which started out of order */
	uint64_t ext_granted;
	uint64_t ext_denied;
} tp_policy_stats;

/* What to do with a running job that has reached its time limit. */
typedef enum tp_limit_action {
	TP_LIMIT_KILL = 0,      /* let the limit end it */
	TP_LIMIT_EXTEND,        /* extend the limit by *arg seconds */
	TP_LIMIT_RESUBMIT,      /* kill it and queue it again with estimate
				 * *arg seconds (a corrected estimate) */
} tp_limit_action;

typedef struct tp_policy_ops {
	const char *name;
	const char *summary;    /* one line for --help and the man page */
	/* One scheduling pass at c->now. */
	void (*pass)(tp_policy *p, tp_cluster *c);
	/* Optional: running job c->run[ri] reached its limit at c->now and is
	 * still running.  NULL means always kill. */
	tp_limit_action (*at_limit)(tp_policy *p, tp_cluster *c, size_t ri,
				    int64_t *arg);
	/* The heterogeneous schedules (doc/methods.md D1; hetero/het.h) do
	 * not pass over a tp_cluster: pass is NULL and het_algo is their
	 * tp_het_algo + 1 (0 for every other policy).  Drivers with
	 * partitions of different speeds call tp_het_pass() for them. */
	int het_algo;
	/* It decides on resources inside nodes (least-loaded): a driver
	 * gives it c->res, the nodes' CPUs and memory and what is
	 * allocated of them, and each job's ask. */
	bool needs_res;
} tp_policy_ops;

struct tp_policy {
	const tp_policy_ops *ops;
	tp_policy_opts opts;
	tp_policy_stats stats;
	/* EASY's head shadow, carried from pass to pass (shadow_kept.h);
	 * NULL until its first pass */
	struct tp_shadow_kept *shadow_kept;
};

/* The policy called `name`, NULL if none.  Policies are made, with
 * their options' defaults and range checks, by tp_policy_create()
 * (settings/settings.h): the options are settings. */
const tp_policy_ops *tp_policy_find(const char *name);
void tp_policy_destroy(tp_policy *p);
const char *const *tp_policy_names(void); /* NULL-terminated */

void tp_policy_pass(tp_policy *p, tp_cluster *c);
tp_limit_action tp_policy_at_limit(tp_policy *p, tp_cluster *c, size_t ri,
				   int64_t *arg);

/* Policy modules (policy_*.c) export these ops tables. */
extern const tp_policy_ops tp_policy_fcfs;
extern const tp_policy_ops tp_policy_easy;
extern const tp_policy_ops tp_policy_conservative;
extern const tp_policy_ops tp_policy_window_ff;
extern const tp_policy_ops tp_policy_batch_njob;
extern const tp_policy_ops tp_policy_rb_har;
extern const tp_policy_ops tp_policy_olb;
extern const tp_policy_ops tp_policy_min_min;
extern const tp_policy_ops tp_policy_min_max;
extern const tp_policy_ops tp_policy_sjs;
extern const tp_policy_ops tp_policy_pjs;
extern const tp_policy_ops tp_policy_least_loaded;

/* The tp_het_algo of a heterogeneous policy, -1 for the others. */
int tp_policy_het_algo(const tp_policy *p);

#endif
