/*
 * het_sim.h - the heterogeneous simulator: jobs of het_conf.h's files run
 * on partitions of different speeds under one of the schedules of
 * doc/methods.md D1.
 *
 * Event driven (engine/evheap.h): arrivals and completions.  At every
 * event time, completions first, then arrivals, then ONE cycle
 * (hetero/het_cycle.h, tp_het_cycle(), as sched/topo's): it learns the
 * runs that ended (tp_het_learn: only those that ended by themselves, as
 * slurmctld learns), and with jobs pending plans them in arrival order
 * (ties: id) with each node's ready time (now if free, else
 * tp_het_run_ready() of its job); the jobs it returns start at once on
 * exactly its nodes.
 *
 * The truth (an experiential database, het_expdb.h's file format) gives
 * the actual run time of a (job class, machine class, nodes): its mean.  A
 * job reaching its time limit is killed there.  A key the truth lacks
 * cannot run: the schedules see TP_HET_NO_RUN for it, whatever the
 * scheduling database predicts.  With `oracle` the predictions are the
 * truth itself.
 */
#ifndef TP_HET_SIM_H
#define TP_HET_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hetero/het.h"
#include "hetsim/het_conf.h"
#include "hetero/het_expdb.h"
#include "base/error.h"

#define TP_HET_SIM_LEVELS 16  /* priority levels reported separately; the
			       * last one also holds every higher level */

typedef struct tp_het_sim_opts {
	tp_het_algo algo;
	bool oracle;          /* predictions = the truth (db unused) */
	int max_jobs;         /* jobs planned per pass (tp_het_planned) */
} tp_het_sim_opts;

typedef struct tp_het_sim_job {
	int64_t id;
	int jclass;           /* index in the workload's jclass_name */
	int prio;
	int64_t submit;
	bool ran;             /* false: no partition could ever run it */
	int part, nodes;      /* where it ran */
	int *node;            /* [nodes] node indices, ascending */
	double start, end;    /* s */
	bool parallel;        /* nodes > its minimum */
	bool killed;          /* its run time reached its limit */
} tp_het_sim_job;

typedef struct tp_het_sim_result {
	tp_het_sim_job *job;  /* [n], workload order */
	size_t n, ran;
	double total;         /* sum(end - submit) over jobs that ran */
	double mean_wait;     /* mean(start - submit) */
	double makespan;      /* last end - first submit */
	double frac_parallel; /* jobs run in parallel / jobs run */
	double level_total[TP_HET_SIM_LEVELS];
	size_t level_jobs[TP_HET_SIM_LEVELS];
	int nlevels;          /* highest level seen + 1 */
	size_t passes, killed;
	size_t learned;       /* runs learned: completed, not killed */
	double decide_cpu;    /* CPU seconds in tp_het_cycle(), all passes */
} tp_het_sim_result;

/*
 * Run w on c.  db: the scheduling database (learns; NULL: an empty one of
 * the run's own), truth: the actual run times (its class names are
 * interned, hence not const).  0, or -1 with err.
 */
int tp_het_sim_run(const tp_het_conf *c, const tp_het_workload *w,
		   tp_expdb *db, tp_expdb *truth, const tp_het_sim_opts *o,
		   tp_het_sim_result *r, tp_error *err);
void tp_het_sim_result_fini(tp_het_sim_result *r);

/* id,class,prio,partition,nodes,submit,start,end,wait,parallel,killed,
 * nodelist: one line per job that ran, workload order; the node list (a
 * quoted host list, which may hold commas) last, so that splitting at
 * commas keeps every other column.  0, -1 on a write error. */
int tp_het_sim_write_csv(FILE *out, const tp_het_conf *c,
			 const tp_het_workload *w, const tp_het_sim_result *r);
int tp_het_sim_write_json(FILE *out, const tp_het_sim_result *r,
			  const char *policy);

#endif
