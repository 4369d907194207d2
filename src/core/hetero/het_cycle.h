/*
 * het_cycle.h - the Slurm-free half of a heterogeneous scheduling cycle,
 * shared by sched/topo (plugins/sched/topo/st_het_cycle.c) and the
 * simulator (src/replay/hetsim/het_sim.c).
 *
 * A front end describes what it knows at `now` (its nodes' state, the
 * jobs running, the runs that ended since its previous cycle and how,
 * the queue) and tp_het_cycle() does the rest the same way for both:
 * learns the ended runs by one rule (tp_het_learn), predicts when the
 * running jobs' nodes are free by one rule (tp_het_run_ready), and plans
 * (tp_het_pass).  Starting the jobs it returns is the front end's.
 */
#ifndef TP_HET_CYCLE_H
#define TP_HET_CYCLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "hetero/het.h"
#include "hetero/het_expdb.h"

/* How a run ended, as slurmctld knows it (a job's base state). */
typedef enum tp_het_end {
	TP_HET_END_COMPLETED = 0, /* ended by itself (COMPLETED) */
	TP_HET_END_LIMIT,         /* killed at its time limit (TIMEOUT) */
	TP_HET_END_FAILED,        /* FAILED, NODE_FAIL, OUT_OF_MEMORY... */
	TP_HET_END_CANCELLED,     /* CANCELLED, PREEMPTED... */
} tp_het_end;

/*
 * Whether a run is a sample of how long its work takes: only one that
 * ended by itself, on >= 1 node, over a non-negative time.  A run killed
 * at its limit says only "longer than the limit" (a censored sample:
 * learning the limit would teach that the class fits its limit); a
 * failed or cancelled one says nothing.
 */
bool tp_het_learnable(tp_het_end how, double start, double end, int nodes);

/*
 * Learn one ended run into db under (jclass, mclass, nodes) if
 * tp_het_learnable(): 1 learned, 0 not learnable, -1 out of memory or a
 * negative class (a name that could not be interned).
 */
int tp_het_learn(tp_expdb *db, int jclass, int mclass, int nodes,
		 tp_het_end how, double start, double end);

/* A running job, as a cycle sees it. */
typedef struct tp_het_run {
	int jclass;        /* job class (database key) */
	int part;          /* partition index in the machine */
	const int *node;   /* its nodes (node indices); not owned */
	int nodes;
	double start;      /* s, absolute */
	double limit_end;  /* when its time limit ends it, s, absolute */
	void *owner;       /* the driver's record: the etc callback's
			    * j->owner */
} tp_het_run;

/*
 * When run r's nodes are expected free at `now`: the expected time of
 * the same option a plan would use (etc on (class, partition, nodes),
 * the limit as the fallback estimate), through tp_het_expected_free().
 * Predicted again at every cycle, so what was learned while it ran
 * counts.
 */
double tp_het_run_ready(tp_het_etc_fn etc, void *etc_arg,
			const tp_het_run *r, double now);

/* ready[node[k]] = t for each k, unless that node is already later or
 * TP_HET_NEVER (unusable stays unusable; a node in two runs, as a
 * suspended and a running job, is free when both are done). */
void tp_het_ready_raise(double *ready, const int *node, int n, double t);

/* A run that ended since the previous cycle. */
typedef struct tp_het_ended {
	int jclass;
	int part;          /* partition index in the machine */
	int nodes;
	tp_het_end how;
	double start, end; /* s, absolute */
} tp_het_ended;

typedef struct tp_het_cycle_in {
	double now;
	/* The database: learns `ended`; the predictions when etc is NULL. */
	tp_expdb *db;
	/* The machine: ready[nnodes] prefilled with now for free nodes,
	 * TP_HET_NEVER for unusable ones (anything <= now for the rest);
	 * the cycle raises the running jobs' nodes in it. */
	int nnodes;
	double *ready;
	const tp_het_part *part;
	int nparts;
	const tp_het_run *run;     /* running jobs */
	size_t nrun;
	const tp_het_ended *ended; /* ended since the previous cycle, in
				    * the order they ended */
	size_t nended;
	const tp_het_job *job;     /* pending jobs, queue order */
	size_t njobs;
	tp_het_algo algo;
	int max_jobs;              /* het_max_jobs= (tp_het_planned) */
	/* Expected times; NULL: tp_expdb_etc over db and this machine. */
	tp_het_etc_fn etc;
	void *etc_arg;
} tp_het_cycle_in;

typedef struct tp_het_cycle_out {
	size_t learned;       /* ended runs learned */
	size_t not_learned;   /* ended runs tp_het_learnable() refused */
	size_t learn_failed;  /* out of memory or a bad key: not learned */
	bool planned;         /* njobs > 0: tp_het_pass() ran */
} tp_het_cycle_out;

/*
 * One cycle: learn in->ended (tp_het_learn, an ended run naming no
 * partition of the machine counts as learn_failed), raise the running
 * jobs' nodes (tp_het_run_ready, tp_het_ready_raise), plan the first
 * tp_het_planned(njobs, max_jobs) jobs with tp_het_pass() into `plan`
 * (initialised here; tp_het_plan_fini() it).  njobs 0: learns only.
 * A failed learn does not stop the plan (the caller reports it).  0, or
 * -1 with err when planning fails.
 */
int tp_het_cycle(const tp_het_cycle_in *in, tp_het_plan *plan,
		 tp_het_cycle_out *out, tp_error *err);

#endif
