/*
 * tasksim.h - task-level simulation of a heterogeneous cluster under the
 * least-loaded placement with delay queues and replicas (patent
 * CN105159769, claims 2-3 and 7-10; topotasks(1)).
 *
 * Jobs are sets of equal tasks.  At its submit time a job is dispatched
 * (FIFO: submit time, then input order): each task copy goes to the node
 * the placement rule picks (tasks/least_loaded.h; all first copies,
 * then all second copies, ... as the patent deploys primaries before
 * backups); a copy no node can take joins the job's delay queue, even
 * when memory is free elsewhere (claim 7).  When a node gives a core
 * back, that node is served from the delay queues: the job with the
 * smallest id wins (claim 9) with its first waiting copy that fits there,
 * again while the node has room; so a fast node, freeing cores sooner,
 * runs more of a job's tasks (claim 8).
 *
 * A job may ask for R >= 2 copies of each task (claim 10): copies of one
 * task never share a node (a copy whose only fitting nodes hold a sibling
 * waits); the task's result is the first copy to finish, and its other
 * copies are then cancelled (running ones give their resources back).
 * A node failure (the node never returns) kills the copies on it; a task
 * survives while any copy runs or waits.  A task whose copies are all
 * lost re-runs from the start: its R copies go back to the FRONT of its
 * job's delay queue (the work it did is lost, and it is the job's oldest
 * unfinished work), then every waiting copy is offered to the nodes with
 * room, in job id order, by the placement rule.
 *
 * A copy on node k runs work / speed_k seconds.  Times are kept in whole
 * microseconds.  Events at one instant are taken in a fixed order:
 * copy finishes (by copy index: job input order, then copy), then node
 * failures (node order), then arrivals (input order).  No randomness:
 * the same input gives the same result.
 */
#ifndef TP_TASKSIM_H
#define TP_TASKSIM_H

#include <stdint.h>

#include "tasks/least_loaded.h"
#include "base/error.h"

typedef struct tp_ts_node {
	char *name;        /* owned */
	int cores;         /* >= 1 */
	double mem;        /* MiB, > 0 */
	double speed;      /* > 0 */
	double fail;       /* failure time, s; < 0: never */
} tp_ts_node;

typedef struct tp_ts_job {
	int64_t id;        /* unique; smaller wins a freed core */
	double submit;     /* s, >= 0 */
	int tasks;         /* >= 1 */
	int cores;         /* per task, >= 1 */
	double mem;        /* per task, MiB, >= 0 */
	double work;       /* per task, s on a speed-1 node, > 0 */
	int replicas;      /* copies of each task, >= 1 */
} tp_ts_job;

typedef struct tp_ts_input {
	tp_ts_node *node;
	int nnodes;
	tp_ts_job *job;
	int njobs;
} tp_ts_input;

/* Append the nodes of a file "NodeName=n1 CPUs=4 Memory=8192 [Speed=2]
 * [Fail=SECONDS]" / the jobs of a file "JobId=1 Submit=0 Tasks=16
 * [CPUs=1] Memory=512 Work=60 [Replicas=1]" to in, which is empty or
 * filled only by these readers (they grow its arrays).  Times, Work and
 * Memory are at most 1e9.  0, or -1 with "FILE:LINE: message 'VALUE'"
 * in err (in keeps the lines read before). */
int tp_ts_read_nodes(tp_ts_input *in, const char *path, tp_error *err);
int tp_ts_read_jobs(tp_ts_input *in, const char *path, tp_error *err);
void tp_ts_input_fini(tp_ts_input *in);

typedef struct tp_ts_jobres {
	double submit;
	double first_start;  /* first copy started; < 0: never */
	double end;          /* last task's result in; < 0: never */
	int reruns;          /* tasks re-run after losing every copy */
} tp_ts_jobres;

typedef struct tp_ts_result {
	tp_ts_jobres *job;   /* input order */
	int njobs;
	int *node_results;   /* task results produced per node */
	int nnodes;
	int jobs_finished;
	double makespan;     /* last end - first submit, s */
	double mean_job_time;/* mean of end - submit over finished jobs, s */
	/* core-seconds held by copies (finished, cancelled or killed) /
	 * core-seconds of up nodes from the first submit to the last end */
	double core_util;
	long tasks_delayed;  /* copies that entered a delay queue (each time) */
	long copies_cancelled;/* copies dropped because a sibling finished */
	long tasks_lost;     /* tasks that lost every copy to failures */
} tp_ts_result;

/* Simulate in with the placement rule pick (NULL: tp_ll_pick).  0, or -1
 * with err (a job no node could ever hold, Replicas > nodes, a copy
 * running over 1e9 s, duplicate job ids, ENOMEM). */
int tp_ts_run(const tp_ts_input *in, tp_ll_pick_fn pick, tp_ts_result *out,
	      tp_error *err);
void tp_ts_result_fini(tp_ts_result *r);

#endif
