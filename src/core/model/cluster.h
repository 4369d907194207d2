/*
 * cluster.h - the state a scheduling pass works on.
 *
 * A tp_cluster is the whole world as a policy sees it at time `now`: which
 * nodes are free, which jobs run where until when (by their time limits),
 * and the queue of pending jobs in priority order.  The simulator's engine
 * keeps one up to date from events; the sched/topo plugin fills one from
 * slurmctld's job and node tables at each cycle.  Policies change it only
 * through tp_cluster_start(), which also records the decision in `starts`,
 * so the caller (engine or plugin) can carry every decision out.
 */
#ifndef TP_CLUSTER_H
#define TP_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The allocator a pass places with (alloc/alloc.h, a layer above). */
typedef struct tp_alloc tp_alloc;
#include "model/job.h"
#include "model/res.h"
#include "base/nodeset.h"

#define TP_NOT_FILL (-1)

/* A running job. */
typedef struct tp_run {
	tp_job *job;
	int64_t start;
	int64_t limit;      /* end by time limit: start + estimate + extensions */
	int64_t ceiling;    /* no extension takes limit past this (slurmctld:
			     * start + the partition's MaxTime); INT64_MAX */
	tp_nodeset nodes;   /* read-only: its words may be reused */
	int count;          /* members of nodes */
	int wlo, whi;       /* nodes' members are in words [wlo, whi) */
	int64_t fill_for;   /* id of the reserved head job it was backfilled
			     * around, or TP_NOT_FILL */
	int extensions;     /* RB_HAR extensions granted so far */
} tp_run;

/* A decision made during a pass. */
typedef struct tp_start {
	tp_job *job;
	tp_nodeset nodes;   /* owned by the cluster until tp_cluster_clear_starts;
			     * read-only */
	int wlo, whi;       /* nodes' members are in words [wlo, whi) */
	int64_t fill_for;
} tp_start;

typedef struct tp_cluster {
	int64_t now;
	int nnodes;
	tp_alloc *alloc;    /* not owned */
	tp_nodeset free;    /* idle and usable (not down/drained/reserved) */
	/* Members of free, kept up to date by the tp_cluster_* functions so
	 * that "are there enough free nodes" costs nothing on a large
	 * machine; whoever writes `free` directly calls
	 * tp_cluster_recount_free() afterwards. */
	int nfree;
	/* c->free has no member in its words below free_lo (a lower bound,
	 * raised by tp_cluster_free_lo(), lowered when a run's nodes are
	 * freed): first-free on a large, busy machine then skips the busy
	 * start of free instead of scanning it for every job. */
	int free_lo;
	/* Set for good once a node is in two runs, or free and in a run
	 * (slurmctld may run jobs side by side on a node; a driver may write
	 * `free` directly): free nodes can then no longer be counted by
	 * adding up the runs' counts.  Runs started by a pass never share. */
	bool nodes_shared;
	/* The union of the runs' nodes, to notice sharing; kept from the
	 * first tp_cluster_add_run() on (w NULL before), until nodes_shared. */
	tp_nodeset busy;

	tp_job **queue;     /* pending, highest priority first */
	size_t nqueue, capqueue;

	tp_run *run;        /* running jobs, unordered */
	size_t nrun, caprun;

	tp_start *starts;   /* decisions since the last clear */
	size_t nstarts, capstarts;

	/* Scratch for a placement (tp_cluster_scratch), NULL until needed. */
	tp_nodeset place;

	uint64_t **spare;   /* words of released run and start node sets,
			     * all clear */
	size_t nspare, capspare;

	/* The completion-aware choice's share for this pass (alloc/
	 * completion.h), 0 off: set by tp_policy_pass() from the policy's
	 * settings.  A job then starts now only where waiting for a more
	 * compact placement would not end it sooner. */
	double completion_share;

	/* Resources inside nodes (model/res.h), not owned; NULL: every job
	 * holds whole nodes.  With them, `free` is the nodes nothing runs
	 * on (a whole-node job's choice), runs and starts take and give
	 * their jobs' asks, and a job that shares nodes may go on any node
	 * that can host its ask (tp_cluster_hosts). */
	tp_res *res;
	/* tp_cluster_hosts' answers, kept while res is unchanged. */
	struct tp_hosts_kept *hosts_kept;
	/* A projection of res (tp_cluster_projection), NULL until needed. */
	tp_res *proj;

	/* The head job's reservation from the last backfilling pass
	 * (resv_job = NULL if none); read by the simulator's invariant checks
	 * and the plugin's logs. */
	tp_job *resv_job;
	int64_t resv_time;
	/* Slurm backfill's bf_resolution (s) during its pass (policy/
	 * rhythm.h), 0 otherwise: a reservation begins at the start of its
	 * slot and ends at the end of one (tp_slot_floor, tp_slot_ceil). */
	int64_t slot;
} tp_cluster;

/* Time t at the start of its slot of c->slot seconds (not before now;
 * t itself without slots, now or never). */
static inline int64_t tp_slot_floor(const tp_cluster *c, int64_t t)
{
	if (c->slot <= 1 || t <= c->now || t == INT64_MAX)
		return t;
	int64_t s = t / c->slot * c->slot;
	return s > c->now ? s : c->now;
}

/* Time t at the end of its slot (t itself when it is one's end). */
static inline int64_t tp_slot_ceil(const tp_cluster *c, int64_t t)
{
	if (c->slot <= 1 || t == INT64_MAX || t > INT64_MAX - c->slot)
		return t;
	return (t + c->slot - 1) / c->slot * c->slot;
}

int  tp_cluster_init(tp_cluster *c, int nnodes, tp_alloc *alloc);
void tp_cluster_fini(tp_cluster *c);

/* Count c->free again after writing it directly. */
void tp_cluster_recount_free(tp_cluster *c);
/* The first word of c->free that may have a member (tp_alloc_req's
 * empty_words for c->free). */
int tp_cluster_free_lo(tp_cluster *c);
/* A set of c->nnodes for one placement at a time, kept between passes so
 * a pass on a large machine allocates nothing; its contents are whatever
 * the last user left.  NULL on ENOMEM. */
tp_nodeset *tp_cluster_scratch(tp_cluster *c);

/* Queue maintenance (callers: engine, plugin). */
int  tp_cluster_enqueue(tp_cluster *c, tp_job *job);       /* at the tail */

/* Record `job` as running on `nodes` since `start` with limit `limit`
 * (engine and plugin use this to mirror jobs they did not start in this
 * pass).  Returns the index in c->run or -1 on ENOMEM. */
long tp_cluster_add_run(tp_cluster *c, tp_job *job, int64_t start,
			int64_t limit, const tp_nodeset *nodes, int64_t fill_for);
/* Remove run entry i (a job ended); its nodes become free if `free_nodes`
 * (with c->res its job's ask is given back whatever free_nodes says, and
 * the nodes nothing runs on any more become free). */
void tp_cluster_end_run(tp_cluster *c, size_t i, int free_nodes);
long tp_cluster_find_run(const tp_cluster *c, const tp_job *job);

/* The one way a policy starts a job: queue entry qi starts now on `nodes`
 * (which must be free).  Returns 0, -1 on ENOMEM. */
int tp_cluster_start(tp_cluster *c, size_t qi, const tp_nodeset *nodes,
		     int64_t fill_for);
void tp_cluster_clear_starts(tp_cluster *c);

/* What `job` asks of each node: its ask, or whole nodes. */
const tp_res_ask *tp_cluster_ask(const tp_job *job);
/* Does `job` share nodes here (c->res and an ask not of whole nodes)? */
static inline bool tp_cluster_shares(const tp_cluster *c, const tp_job *job)
{
	return c->res && job->ask && !job->ask->whole;
}
/* The nodes `job` may be placed on now, before its node constraints:
 * c->free for a job of whole nodes, otherwise the nodes that can host
 * its ask (kept until res changes: read it before the next start).
 * *count gets how many.  NULL on ENOMEM. */
const tp_nodeset *tp_cluster_hosts(tp_cluster *c, const tp_job *job,
				   int *count);
/* A tp_res of c->res's sizes to project on (c->res set); NULL on ENOMEM. */
tp_res *tp_cluster_projection(tp_cluster *c);

/* Nodes free at time t >= now if every running job ends by its limit:
 * free ∪ nodes of jobs with limit <= t.  `out` must be initialised. */
void tp_cluster_free_at(const tp_cluster *c, int64_t t, tp_nodeset *out);


#endif
