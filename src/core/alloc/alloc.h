/*
 * alloc.h - the allocator interface: given a request (a job's node count
 * and the most nodes it may get) and the set of free nodes, return the
 * nodes it should run on, or "no".
 *
 * Allocators are pure functions of (free set, request) plus whatever static
 * topology they were built with; they keep no per-job state, so a policy may
 * ask "what if" questions (reservations, backfill checks) freely, and
 * slurmctld's TEST_ONLY/WILL_RUN and the simulator get the same answers.
 * Counts an allocator carries between calls to answer faster ("fattree")
 * must not change any answer.
 */
#ifndef TP_ALLOC_H
#define TP_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "model/job.h"
#include "base/nodeset.h"

typedef struct tp_alloc tp_alloc;
struct tp_res;     /* model/res.h */
struct tp_res_ask;
struct tp_fattree; /* fattree.h */
struct tp_torus;   /* torus.h */

/* Any `nodes` free nodes will do: feasibility is a matter of counting,
 * and a placement holds exactly the nodes asked for.  Policies may then
 * reason with counts (textbook EASY / conservative). */
#define TP_ALLOC_FLAT 0x1u
/* If a job can be placed on a set S, it can be placed on every superset
 * of S, and every placement P the allocator returns is itself such an S
 * (the job can be placed on exactly P's nodes).  Planners may then skip
 * allocator calls (a job that fits a window fits any larger one) and trust
 * a pinned placement to stay placeable while its nodes stay free.  Not
 * every allocator is: the fat-tree patent's exact-fit rule for small jobs
 * can fail once a unit has more free nodes, and "fattree" places a job
 * of 5 nodes on 4-node units on a unit and a part of another. */
#define TP_ALLOC_MONOTONE 0x2u
/* Places some requests other than by its own shapes (a torus's
 * Shapeless=pack): tp_alloc_req.boxes_only changes its answers. */
#define TP_ALLOC_PACKS 0x4u
/* Reads max_groups as Slurm's topology/tree does since 24.05: the
 * placement it makes without the limit, refused when that touches more
 * groups (the job waits), instead of a search within few groups. */
#define TP_ALLOC_GROUPS_AFTER 0x8u
/* Places the rest of a job around its required nodes itself, in its own
 * order: place() then gets req->required (a subset of `free`, fewer than
 * req->nodes) instead of the free set without them. */
#define TP_ALLOC_OWN_REQUIRED 0x10u
/* Applies every node constraint of a request itself: place() gets the
 * request as tp_alloc_place_req() got it (a wrapper that decides which
 * nodes a request may use before its inner allocator sees the rest:
 * alloc/outside.h). */
#define TP_ALLOC_OWN_CONSTRAINTS 0x20u

/* What a placement must satisfy.  An allocator's place() sees only
 * `nodes` and `max_nodes`: the node constraints are applied around it by
 * tp_alloc_place_req(), the same way for every allocator. */
typedef struct tp_alloc_req {
	int nodes;      /* nodes the job asked for, >= 1 */
	/* The most nodes the placement may have (Slurm's max_nodes), 0 for
	 * the allocator's own rule.  Allocators that may give more nodes
	 * than asked (a torus box with transit nodes) stay within it. */
	int max_nodes;
	/* Nodes the job may use at all (partition, not excluded, features,
	 * reservation, usable state); NULL: every node. */
	const tp_nodeset *allowed;
	/* Nodes the job must get (Slurm's -w); NULL or empty: none.  The
	 * allocator places the rest on the other usable nodes; a job that
	 * names at least `nodes` nodes gets exactly those.  Only an
	 * allocator with TP_ALLOC_OWN_REQUIRED sees it in place(). */
	const tp_nodeset *required;
	/* Consecutive node indices (Slurm's --contiguous): the lowest run of
	 * usable nodes that holds the required ones, whatever the topology. */
	bool contiguous;
	/* At most this many node groups (leaf switches of a fat tree:
	 * Slurm's --switches), 0: any.  Ignored by allocators whose machine
	 * has no groups (tp_alloc.groups NULL: flat, torus). */
	int max_groups;
	/* Only the allocator's own shapes: a torus box, not Shapeless=pack
	 * (tp_place_range asks every size of a range this way first). */
	bool boxes_only;
	/* The free set passed with this request has no member in its words
	 * below this one (0: nothing known).  A cluster that keeps this bound
	 * spares a flat allocator the scan past the busy start of a large
	 * machine; allocators may ignore it. */
	int empty_words;
	/* Nodes free now, in a question about a later start (a reservation
	 * on nodes that free by then, WILL_RUN): a placement there keeps
	 * them from the jobs that could start on them now.  A preference,
	 * never a constraint: among placements of equal cost, one using
	 * fewer of them (allocators may ignore it; "fattree" honours it).
	 * NULL: none.  Answers with it are never kept (memo_answers.h). */
	const tp_nodeset *keep_free;
	/* Only whether the request fits is asked (a reservation's test, a
	 * backfill check): an allocator may answer 0 without choosing the
	 * nodes, leaving `out` with some or none of them, which the caller
	 * must not read.  The answer is the one a placement would give.
	 * Honoured for requests without node constraints; allocators may
	 * ignore it. */
	bool probe;
	/* With resources inside nodes (model/res.h): the allocations the
	 * free set was judged on and the job's ask, for an allocator that
	 * weighs nodes by the CPUs they have free ("cons-tres"); NULL:
	 * whole nodes.  The free set already holds only nodes that can
	 * host the ask: other allocators need not look. */
	const struct tp_res *res;
	const struct tp_res_ask *ask;
} tp_alloc_req;

/* Node groups of a machine (a fat tree's leaf switches), for max_groups,
 * and the fabrics they belong to (fattree.h): tp_alloc_place_req() never
 * returns a placement that spans two fabrics. */
typedef struct tp_groups {
	int ngroups;
	const int *of;  /* [nnodes]: the node's group, 0..ngroups-1 */
	int nfabric;    /* 0 or 1: no check */
	const int *fabric; /* [ngroups]: the group's fabric, -1 for none */
} tp_groups;

/* Groups that hold a node of s (checks of max_groups); -1 on ENOMEM. */
int tp_groups_touched(const tp_groups *g, const tp_nodeset *s);

typedef struct tp_alloc_ops {
	const char *name;
	unsigned flags;
	/* Choose at least req->nodes nodes out of `free` into `out`
	 * (cleared first).  Returns 0, or -1 when the job cannot be placed
	 * on `free`. */
	int (*place)(tp_alloc *a, const tp_nodeset *free,
		     const tp_alloc_req *req, tp_nodeset *out);
	/* Optional.  Nodes usable by new whole-unit jobs (batch-Njob's Nnode);
	 * NULL means the number of free nodes. */
	int (*capacity)(tp_alloc *a, const tp_nodeset *free);
	/* Optional.  Topology cost of a placement (e.g. fat-tree hop sum) for
	 * reports; NULL means no such metric (reported as -1). */
	double (*cost)(tp_alloc *a, const tp_nodeset *nodes);
	/* Optional.  How spread out a placement is: its communication cost
	 * over the least any placement of as many nodes can have on the
	 * machine, >= 1 (the runtime model's measure, doc/runtime-model.md),
	 * for the completion-aware choice (completion.h); NULL: every
	 * placement counts as 1. */
	double (*spread)(tp_alloc *a, const tp_nodeset *nodes);
	void (*destroy)(tp_alloc *a); /* optional: free `state` */
} tp_alloc_ops;

struct tp_alloc {
	const tp_alloc_ops *ops;
	unsigned flags;     /* TP_ALLOC_*: ops->flags, adjusted by create()
			     * where options change them */
	int nnodes;
	void *state;
	const tp_groups *groups; /* set by the machine's loader, or NULL */
	/* Unique to this allocator in the process (tp_alloc_new): what is
	 * carried from pass to pass names its allocator by it, not by an
	 * address a new allocator may reuse. */
	uint64_t serial;
};

/* What an allocator may be built from; unused members are NULL/0. */
typedef struct tp_alloc_cfg {
	int nnodes;
	const struct tp_fattree *fattree;
	const struct tp_torus *torus;
} tp_alloc_cfg;

/* Create allocator `name` ("first-free", "fattree", ...); NULL and err set
 * when the name is unknown or the configuration lacks what it needs. */
tp_alloc *tp_alloc_create(const char *name, const tp_alloc_cfg *cfg,
			  tp_error *err);
void tp_alloc_destroy(tp_alloc *a);
/* NULL-terminated list of registered allocator names (for --help). */
const char *const *tp_alloc_names(void);

/* Place a request on `free` (see tp_alloc_req): 0, or -1 with `out`
 * cleared.  A placement is always within free ∩ allowed and holds every
 * required node. */
int tp_alloc_place_req(tp_alloc *a, const tp_nodeset *free,
		       const tp_alloc_req *req, tp_nodeset *out);
/* Does the request carry node constraints (allowed, required,
 * contiguous, max_groups)? */
bool tp_alloc_req_constrained(const tp_alloc_req *req);
/* The common request: `nodes` nodes, the allocator's own rule. */
static inline int tp_alloc_place(tp_alloc *a, const tp_nodeset *free,
				 int nodes, tp_nodeset *out)
{
	tp_alloc_req req = { .nodes = nodes };
	return a->ops->place(a, free, &req, out);
}
/* Does a request fit on `free`?  Counting first (cheap, and every
 * allocator needs that many nodes), then the allocator; the placement is
 * in `out` when it does. */
bool tp_alloc_fits(tp_alloc *a, const tp_nodeset *free,
		   const tp_alloc_req *req, tp_nodeset *out);

/* A job's request at its minimum node count, with its node constraints
 * (a node range's maximum caps what a placement may hold). */
static inline tp_alloc_req tp_job_req(const tp_job *j)
{
	return (tp_alloc_req){ .nodes = j->nodes,
			       .max_nodes = j->max_nodes > j->nodes ? j->max_nodes : 0,
			       .allowed = j->allowed, .required = j->required,
			       .contiguous = j->contiguous,
			       .max_groups = j->max_groups };
}
static inline bool tp_job_has_range(const tp_job *j)
{
	return j->max_nodes > j->nodes;
}
/* Does job `j` fit on `free` (into `out`)?  A job with a node range gets
 * the most nodes that fit, from its maximum down to its minimum, as Slurm
 * gives a range (alloc/place.c). */
bool tp_job_fits(tp_alloc *a, const tp_nodeset *free, const tp_job *j,
		 tp_nodeset *out);
/* The same, for a caller that knows how many nodes `free` holds and
 * that its words below `empty_words` are empty (tp_alloc_req). */
bool tp_job_fits_n(tp_alloc *a, const tp_nodeset *free, int nfree,
		   int empty_words, const tp_job *j, tp_nodeset *out);
/* tp_job_fits_n() on a set of nodes that can host the job's ask under the
 * allocations `res` (model/res.h; NULL: whole nodes), which the request
 * carries to the allocator; `probe` as tp_job_can_fit(). */
bool tp_job_fits_res(tp_alloc *a, const tp_nodeset *free, int nfree,
		     int empty_words, const struct tp_res *res, bool probe,
		     const tp_job *j, tp_nodeset *out);
/* tp_job_fits() when only the answer matters: the allocator may skip
 * choosing the nodes (tp_alloc_req.probe); `scratch` holds nothing
 * useful afterwards. */
bool tp_job_can_fit(tp_alloc *a, const tp_nodeset *free, const tp_job *j,
		    tp_nodeset *scratch);
int tp_alloc_capacity(tp_alloc *a, const tp_nodeset *free);
double tp_alloc_cost(tp_alloc *a, const tp_nodeset *nodes);
/* ops->spread's answer, 1 without one. */
double tp_alloc_spread(tp_alloc *a, const tp_nodeset *nodes);
static inline bool tp_alloc_has_spread(const tp_alloc *a)
{
	return a->ops->spread != NULL;
}
static inline bool tp_alloc_is_flat(const tp_alloc *a)
{
	return a->flags & TP_ALLOC_FLAT;
}
static inline bool tp_alloc_is_monotone(const tp_alloc *a)
{
	return a->flags & TP_ALLOC_MONOTONE;
}

/* Registry entry: each allocator module exports one of these. */
typedef struct tp_alloc_entry {
	const char *name;
	tp_alloc *(*create)(const tp_alloc_cfg *cfg, tp_error *err);
} tp_alloc_entry;

/* Helper for allocator modules: a tp_alloc with ops and nnodes set. */
tp_alloc *tp_alloc_new(const tp_alloc_ops *ops, int nnodes, void *state);

#endif
