/*
 * workload.h - a job trace in memory: what the simulator replays.
 *
 * Unlike tp_job (what a policy sees), a workload job carries its actual run
 * time.  Jobs are kept sorted by submit time, ties in file order.
 */
#ifndef TP_WORKLOAD_H
#define TP_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/nodeset.h"
#include "model/res.h"

typedef struct tp_wjob {
	int64_t id;
	int64_t submit;   /* s, >= 0 */
	int64_t runtime;  /* actual run time, s, > 0 */
	int64_t estimate; /* requested time, s, > 0 */
	int32_t nodes;    /* > 0, <= workload nodes */
	int32_t max_nodes; /* a node range's maximum, 0: exactly `nodes` */
	/* Node constraints (tp_job), owned by whoever built the workload;
	 * SWF traces have none. */
	const tp_nodeset *allowed;
	const tp_nodeset *required;
	bool contiguous;
	int32_t max_groups; /* at most this many leaf switches, 0: any */
	int64_t switch_wait; /* s it waits for them, then any (Switches=N@S;
			      * TP_SWITCH_WAIT_FOREVER without @S) */
	/* What it asks of each node when the workload's nodes are shared
	 * (tp_workload.node_res), owned by whoever built the workload;
	 * NULL: whole nodes. */
	const tp_res_ask *ask;
	/* The site's partition and user (tp_job.part, .user), 0 when
	 * unknown. */
	int32_t part, user;
	/* Its QOS, association and CPUs (tp_job.qos, .assoc, .cpus): set
	 * with limits. */
	int32_t qos, assoc;
	int64_t cpus;
} tp_wjob;

typedef struct tp_workload_skips {
	size_t runtime;   /* run time <= 0 */
	size_t size;      /* no size (procs <= 0) */
	size_t too_big;   /* more nodes than the machine */
	size_t malformed; /* only with --lenient */
} tp_workload_skips;

/* A record the reader dropped, by reason: what a request naming the job
 * (--job-requests) is told instead of "no such job". */
typedef enum tp_drop_reason {
	TP_DROP_RUNTIME,  /* run time <= 0 */
	TP_DROP_SIZE,     /* no size */
	TP_DROP_TOO_BIG,  /* more nodes than the machine */
	TP_DROP_N
} tp_drop_reason;

typedef struct tp_dropped {
	int64_t id;
	tp_drop_reason why;
} tp_dropped;

typedef struct tp_workload {
	tp_wjob *jobs;
	size_t njobs, cap;
	int nodes;        /* machine size in nodes */
	int ppn;          /* processors per node used for nodes = ceil(procs/ppn) */
	tp_workload_skips skipped;
	size_t estimate_missing; /* jobs with no requested time: estimate = run time */
	int trace_nodes;  /* the machine the trace was recorded on (SWF's
			   * MaxNodes, or MaxProcs/ppn), scaled as its jobs;
			   * 0: unknown */
	int32_t largest;  /* the most nodes a job read asks, dropped jobs
			   * included (after any size scaling) */
	tp_dropped *dropped; /* in file order */
	size_t ndropped, dropcap;
	/* Each node's CPUs, memory and GPUs when jobs share nodes (the
	 * replay then models resources inside nodes: model/res.h), owned
	 * by whoever set it; NULL: every job holds whole nodes. */
	const tp_res_node *node_res;
} tp_workload;

int  tp_workload_add(tp_workload *w, const tp_wjob *j); /* -1 on ENOMEM */
/* Count a dropped record (skipped.runtime, .size or .too_big) and keep
 * its id;
 * -1 on ENOMEM. */
int  tp_workload_drop(tp_workload *w, int64_t id, tp_drop_reason why);
/* Why job `id` was dropped, or -1 if it was not. */
int  tp_workload_dropped(const tp_workload *w, int64_t id);
/* Stable sort by submit time (file order kept for ties). */
void tp_workload_sort(tp_workload *w);
/* Keep the jobs at positions [first, first + count) of the sorted trace
 * (fewer when it ends sooner): a slice replayed on its own.  -1 when
 * first is past the last job. */
int  tp_workload_slice(tp_workload *w, size_t first, size_t count);
void tp_workload_fini(tp_workload *w);

/* A job size moved to another machine (toposim --scale-sizes F): nodes x
 * F rounded to the nearest, at least 1, at most INT32_MAX; F <= 0 leaves
 * it as it is. */
int64_t tp_workload_scale_nodes(int64_t nodes, double f);
/* Arrivals F times as dense (toposim --load F, F > 0): every submit time
 * divided by F, rounded to the nearest second; order and run times kept. */
void tp_workload_scale_load(tp_workload *w, double f);

#endif
