/*
 * jobreqs.h - per-job node requests for a replay: what sbatch's -w, -x,
 * -N min-max, --contiguous and --switches say, and the nodes a job may use
 * at all (its partition, features and reservation), which a trace format
 * such as SWF cannot carry.  One line per job, Slurm-style (conffile.h):
 *
 *     # JobId is the trace's job number (SWF field 1)
 *     JobId=3  NodeList=n3 Exclude=n[1-2]
 *     JobId=7  Nodes=n[9-16] MaxNodes=6 Contiguous=yes Switches=1
 *
 *   NodeList=HOSTLIST  nodes the job must get (-w);
 *   Exclude=HOSTLIST   nodes it must not get (-x);
 *   Nodes=HOSTLIST     the only nodes it may get (partition ∩ features ∩
 *                      reservation), default every node;
 *   MaxNodes=N         a node range -N nodes-N (N >= the trace's count);
 *   Contiguous=yes|no  consecutive nodes;
 *   Switches=N[@S]     at most N leaf switches (fat tree) while the job
 *                      waits up to S seconds for them, then any (Slurm's
 *                      --switches=N@time; driver/switches.h); without @S
 *                      the limit holds until the job starts.
 * Node names are the topology's (topology.conf, torus.conf).  Every error
 * names FILE:LINE and the value: an unknown key, job or node, a job listed
 * twice, a -w node excluded or outside Nodes=, more -w nodes than the job
 * asks for, MaxNodes below the job's count.  Documented in toposim(1).
 */
#ifndef TP_JOBREQS_H
#define TP_JOBREQS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/workload.h"
#include "base/error.h"
#include "base/nodeset.h"

typedef struct tp_jobreq {
	int64_t id;
	int line;
	tp_nodeset allowed;    /* Nodes= less Exclude= */
	tp_nodeset required;   /* NodeList=, may be empty */
	int max_nodes;         /* 0: none */
	int max_groups;        /* 0: none */
	int64_t switch_wait;   /* Switches=N@S: S; TP_SWITCH_WAIT_FOREVER */
	bool contiguous;
	bool has_allowed;      /* Nodes= or Exclude= given */
} tp_jobreq;

/* Requests for jobs the reader dropped (tp_workload.dropped), by
 * reason: not used, and not an error (a file written for the whole trace
 * stays valid on a smaller machine); the first of each for a warning. */
typedef struct tp_jobreqs_unused {
	size_t n[TP_DROP_N];
	int64_t first_id[TP_DROP_N];
	int first_line[TP_DROP_N];
} tp_jobreqs_unused;

typedef struct tp_jobreqs {
	char *path;
	tp_jobreq *r;
	size_t n;
	tp_jobreqs_unused unused; /* set by tp_jobreqs_apply */
} tp_jobreqs;

/* Node index by name (-1: unknown), for `ctx`. */
typedef int (*tp_node_index_fn)(const void *ctx, const char *name);

/* Read `path` for a machine of `nnodes` nodes named through index(ctx).
 * 0, or -1 with err ("FILE:LINE: ...") and q empty. */
int tp_jobreqs_read(tp_jobreqs *q, const char *path, int nnodes,
		    tp_node_index_fn index, const void *ctx, tp_error *err);

/* Point the jobs of w at their requests (q must outlive w's use); every
 * request's job must be in w or dropped by its reader (counted in
 * q->unused).  0, or -1 with err. */
int tp_jobreqs_apply(tp_jobreqs *q, tp_workload *w, tp_error *err);

void tp_jobreqs_fini(tp_jobreqs *q);

#endif
