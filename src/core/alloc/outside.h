/*
 * outside.h - nodes outside the topology: the nodes of a cluster that its
 * topology file (topology.conf, torus.conf) does not list, and which jobs
 * may use them.
 *
 * A machine's topology nodes are its indices 0..ninside-1 and its outside
 * nodes ninside..nnodes-1 (machine/topo.h: slurm.conf's nodes the file
 * lacks, in the plugins; the nodes beyond the topology's of toposim
 * --nodes).  Slurm's own topology/tree runs on when slurm.conf has such
 * nodes ("switches lack access to N nodes") and they take no part in its
 * topology placements; whether a job may still get one depends on the
 * release, and this file is that decision, made once for the Slurm
 * plugins and the simulator alike (tp_outside_usable):
 *
 *   TP_OUTSIDE_NEVER     no job gets one: Slurm 24.11's topology/tree
 *                        places every job below one of its switches
 *                        (_eval_nodes_topo), and so does 22.05's
 *                        select/linear with topology/tree
 *                        (_job_test_topo): they stay idle;
 *   TP_OUTSIDE_ONE_NODE  a job of one node may get one, no larger job
 *                        does: Slurm 26.05's topology/tree lets
 *                        select/cons_tres place a job whose most nodes is
 *                        one on any node (topology_p_allow_one_node), all
 *                        other jobs below a switch.
 *
 * An allowed job gets a topology node when its allocator finds one, an
 * outside node only when it does not (the lowest-numbered free one):
 * outside nodes are the last resort, so a replay decides as on the
 * topology alone until that is full.
 */
#ifndef TP_OUTSIDE_H
#define TP_OUTSIDE_H

#include <stdbool.h>

#include "alloc/alloc.h"
#include "base/error.h"
#include "base/nodeset.h"

typedef enum tp_outside_rule {
	TP_OUTSIDE_NEVER = 0,
	TP_OUTSIDE_ONE_NODE,
} tp_outside_rule;

/* A machine's outside nodes and the rule for them. */
typedef struct tp_outside {
	int ninside;          /* topology nodes: indices [0, ninside) */
	int nnodes;           /* all nodes: [ninside, nnodes) are outside */
	tp_outside_rule rule;
} tp_outside;

/* "never", "one-node" (toposim --outside-rule). */
const char *tp_outside_rule_name(tp_outside_rule r);
/* 0 and *r, or -1 for an unknown name. */
int tp_outside_rule_parse(const char *name, tp_outside_rule *r);
/* How the rule reads in a log line: "no job gets one (as ...)". */
const char *tp_outside_rule_says(tp_outside_rule r);

/* May a placement for `req` hold an outside node?  Only under
 * TP_OUTSIDE_ONE_NODE, and only when it holds one node: one asked for,
 * at most one allowed (max_nodes 0 or 1), at most one required. */
bool tp_outside_allowed(tp_outside_rule rule, const tp_alloc_req *req);

/* THE decision on which nodes `req` may use: clears from `s` (o->nnodes
 * nodes) the outside nodes tp_outside_allowed() refuses it. */
void tp_outside_usable(const tp_outside *o, const tp_alloc_req *req,
		       tp_nodeset *s);

/*
 * An allocator over all o->nnodes nodes around `inner`, which places on
 * the topology nodes (inner->nnodes == o->ninside) and is taken over
 * (destroyed with the wrapper, or at once on failure).  Each request: the
 * nodes it may use (tp_outside_usable, its allowed nodes), inner's
 * placement on their topology part with the request's constraints, else
 * an outside node if the request may have one.  Name, capacity and cost
 * are inner's on the topology part; flags are inner's less
 * TP_ALLOC_FLAT (a node count no longer says whether a job fits) plus
 * TP_ALLOC_OWN_CONSTRAINTS.  NULL with err on ENOMEM.
 */
tp_alloc *tp_alloc_outside_wrap(tp_alloc *inner, const tp_outside *o,
				tp_error *err);

#endif
