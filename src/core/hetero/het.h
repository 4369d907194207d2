/*
 * het.h - heterogeneous machines and the schedules of doc/methods.md D1
 * (George & Collins' SJS/PJS; SmartNet's OLB, min-min, min-max).
 *
 * The machine is a set of nodes grouped in partitions.  A partition is
 * both a machine class (its nodes run a job class at one speed, learned
 * in the experiential database, het_expdb.h) and a "cluster" in the
 * paper's sense: a group that can run a job in parallel.  A node may be
 * in several partitions (Slurm allows it); what a node holds is only
 * when it is next free (`ready`).
 *
 * A job may run on any of its partitions with any node count in
 * [nmin, nmax].  Its *sequential* option on partition p is nmin nodes of
 * p (one node for a serial job); its *parallel* options are the larger
 * counts.  The expected execution time of an option comes from a
 * callback (the database's prediction in slurmctld and in the simulator;
 * a fixed table in the tests and the paper's experiments), so the
 * schedules never know how it was obtained.
 *
 * A schedule is a plan: every job gets an option, the nodes of that
 * partition that are free first (ties: lower node index), a start (the
 * latest ready time among those nodes, >= now) and an expected end.
 * Its figure of merit is the paper's: the sum over jobs of expected
 * delay + execution time, i.e. sum(end - now).
 *
 * One function decides for every driver: tp_het_pass() plans the queue
 * and returns the jobs whose planned start is now; sched/topo
 * (plugins/sched/topo/st_het_cycle.c) and the simulator (het_sim.c) call it
 * with the same inputs and start the same jobs.  The rest of a cycle
 * (learning ended runs, busy nodes' ready times) is het_cycle.h's.
 */
#ifndef TP_HET_H
#define TP_HET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/nodeset.h"

/* A node that will never be free (down, drained, not usable). */
#define TP_HET_NEVER 1e300
/* "This option cannot run" from an expected-time callback. */
#define TP_HET_NO_RUN (-1.0)

typedef struct tp_het_part {
	const char *name;  /* partition name; not owned */
	int mclass;        /* machine class index (database key) */
	const int *node;   /* its nodes, ascending node indices; not owned */
	int nnodes;
} tp_het_part;

typedef struct tp_het_machine {
	int nnodes;
	/* When each node is next free, seconds (absolute, as `now`):
	 * <= now: free now; TP_HET_NEVER: unusable.  Not owned. */
	const double *ready;
	const tp_het_part *part;
	int nparts;
} tp_het_machine;

typedef struct tp_het_job {
	int64_t id;
	int64_t submit;     /* s */
	int64_t estimate;   /* time limit, s (> 0): the prediction when the
			     * database knows nothing */
	int32_t nmin;       /* nodes, >= 1 */
	int32_t nmax;       /* a node range's maximum; <= nmin: exactly nmin */
	int jclass;         /* job class index (database key) */
	int prio;           /* priority level: 0 is scheduled first, then 1... */
	const int *parts;   /* partitions it may run in (indices); not owned */
	int nparts;
	/* Nodes it may use (node indices), NULL: any of its partitions'.
	 * Not owned. */
	const tp_nodeset *allowed;
	void *owner;        /* the driver's record */
} tp_het_job;

/* Expected execution time of job j on n nodes of partition p, seconds
 * (> 0), or TP_HET_NO_RUN. */
typedef double (*tp_het_etc_fn)(void *arg, const tp_het_job *j, int p,
				int n);

typedef enum tp_het_algo {
	TP_HET_OLB = 0, /* queue order; each job on the option that starts
			 * first (sequential options only) */
	TP_HET_MIN_MIN, /* repeatedly: the job whose best (earliest-ending)
			 * sequential option ends first, on that option */
	TP_HET_MIN_MAX, /* the same, the job whose best option ends last */
	TP_HET_SJS,     /* min-min or min-max, whichever has the smaller sum
			 * (ties: min-min) */
	TP_HET_PJS,     /* SJS, then parallel options committed by
			 * profitability while the sum improves */
} tp_het_algo;

const char *tp_het_algo_name(tp_het_algo a);
/* "olb", "min-min", "min-max", "sjs", "pjs" -> algo; -1 if none. */
int tp_het_algo_parse(const char *name);

/* One job's place in a plan. */
typedef struct tp_het_assign {
	size_t job;        /* index into the jobs array */
	int part;
	int nodes;         /* node count */
	double start, end; /* expected, absolute seconds */
	bool parallel;     /* a parallel option (nodes > the job's nmin) */
	int *node;         /* `nodes` node indices, ascending; owned by the
			    * plan */
} tp_het_assign;

typedef struct tp_het_plan {
	tp_het_assign *a;  /* one per job that can run somewhere, in the
			    * order the algorithm placed them */
	size_t n;
	size_t unplaced;   /* jobs with no option that can run */
	double total;      /* sum over a[] of (end - now) */
	tp_het_algo used;  /* for SJS/PJS: MIN_MIN or MIN_MAX (the greedy
			    * whose result was kept), else the algorithm */
	size_t parallel;   /* assignments on parallel options */
	size_t pjs_rounds; /* PJS: parallel options tried */
} tp_het_plan;

void tp_het_plan_init(tp_het_plan *p);
void tp_het_plan_fini(tp_het_plan *p);

/*
 * Plan jobs[0..njobs) on machine m at time now with algorithm algo.
 * Jobs are scheduled level by level (prio 0 first, each level on the
 * ready times the previous levels left: the paper's priority queues);
 * within a level queue order is the array's order (OLB's FIFO, and every
 * tie).  Returns 0, or -1 with err (out of memory, a job naming a
 * partition that does not exist).  `out` is overwritten, not freed:
 * tp_het_plan_fini() a plan before planning into it again.
 */
int tp_het_schedule(const tp_het_machine *m, double now,
		    const tp_het_job *jobs, size_t njobs, tp_het_algo algo,
		    tp_het_etc_fn etc, void *arg, tp_het_plan *out,
		    tp_error *err);

/*
 * The one decision of a pass: plan as tp_het_schedule() does and keep
 * the assignments that start now (start <= now: every node free now), in
 * plan order; the rest wait for a later pass.  `out` holds them.
 */
int tp_het_pass(const tp_het_machine *m, double now, const tp_het_job *jobs,
		size_t njobs, tp_het_algo algo, tp_het_etc_fn etc, void *arg,
		tp_het_plan *out, tp_error *err);

/*
 * How many of a queue of njobs a pass plans: the first max_jobs in queue
 * order (het_max_jobs=; 0: all).  SJS costs O(n^2) per pass and PJS more,
 * so a long queue is cut the way Slurm's backfill stops at
 * bf_max_job_test; the jobs behind the cut wait for a later pass.  Both
 * drivers cut with this one rule.
 */
static inline size_t tp_het_planned(size_t njobs, int max_jobs)
{
	return max_jobs > 0 && njobs > (size_t)max_jobs ? (size_t)max_jobs
							 : njobs;
}

/*
 * When a busy node is expected free: its job's start plus the predicted
 * run time, never after the job's limit and never before now + 1 (a job
 * that outlives its prediction is expected to end any moment, not to
 * have ended).  predicted <= 0: the limit.
 */
double tp_het_expected_free(double now, double start, double predicted,
			    double limit);

#endif
