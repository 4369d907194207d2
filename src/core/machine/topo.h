/*
 * topo.h - the one way to load a machine: configuration files + allocator
 * choice -> a fat tree or a torus (or a flat machine) plus the allocator
 * that places jobs on it.
 *
 * toposim, select/fattree, select/torus and sched/topo all load through
 * here, so they read the same files the same way, report bad input with
 * the same "FILE:LINE: ..." messages, and place with the same allocator
 * (topology allocators wrapped in the failure memo, alloc_memo.h, which
 * changes no decision).
 *
 *   flat     `nnodes` nodes, allocator `alloc` (default first-free);
 * Relative paths, `conf` and those inside it, are taken from `confdir`.
 *   fattree  fattree.conf `conf` (optional file, fattree_conf.h) names the
 *            allocator and MSU options and the topology.conf; `topology`,
 *            when given, replaces its TopologyFile;
 *   torus    torus.conf `conf` (required, torus.conf(5)); the allocator is
 *            torus-<Method=> unless `alloc` names one.
 */
#ifndef TP_TOPO_H
#define TP_TOPO_H

#include <stdbool.h>

#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "alloc/outside.h"
#include "settings/settings.h"
#include "base/error.h"
#include "topology/fattree.h"
#include "topology/torus.h"

typedef enum tp_topo_kind {
	TP_TOPO_FLAT = 0,
	TP_TOPO_FATTREE,
	TP_TOPO_TORUS,
} tp_topo_kind;

typedef struct tp_topo_spec {
	tp_topo_kind kind;
	int nnodes;             /* flat: node count (> 0) */
	const char *conf;       /* fattree.conf (may be NULL) or torus.conf */
	const char *confdir;    /* relative paths in `conf` start here */
	const char *topology;   /* fattree: topology.conf, overriding conf */
	const char *alloc;      /* allocator name overriding conf; NULL: conf's */
	const char *alloc_from; /* where `alloc` came from, for messages */
	int ntransit;           /* torus: Ntransit to use, -1 for the file's */
	int base_shapes;        /* torus: a tp_torus_base_shapes replacing
				 * BaseShapes=, -1 for the file's */
} tp_topo_spec;

typedef struct tp_topo {
	tp_topo_kind kind;
	int nnodes;             /* every node, outside ones included */
	int ninside;            /* the topology's: indices [0, ninside); the
				 * rest are outside it (tp_topo_add_outside) */
	tp_fattree *tree;       /* fattree */
	tp_torus *torus;        /* torus */
	tp_alloc *alloc;        /* the allocator (memo-wrapped if not flat;
				 * outside-wrapped with outside nodes) */
	char alloc_name[32];
	tp_groups *groups;      /* fattree: leaf switches (alloc->groups),
				 * outside nodes one more group; on the heap,
				 * so a tp_topo may be copied */
	void *groups_mem;       /* owns `groups` */
	tp_outside outside;     /* ninside, nnodes and their rule */
	char **outside_name;    /* [nnodes - ninside], in index order */
	int *outside_sorted;    /* the same indices, sorted by name */
	char *conf;             /* the configuration file read, or NULL */
	char *topology;         /* fattree: the topology.conf read */
	const char *alloc_from; /* "fattree.conf Allocator=", ... */
	char describe[512];     /* one line for logs */
} tp_topo;

/* Defaults of a spec: flat, no files, ntransit and base_shapes -1. */
void tp_topo_spec_init(tp_topo_spec *s, tp_topo_kind kind);

/* The torus spec of the Slurm plugins: torus_conf= (relative: from
 * `confdir`) or `default_conf`, the allocator torus-<torus_method=> (made
 * in `alloc`) or torus.conf's Method=. */
void tp_topo_spec_torus(tp_topo_spec *s, const tp_settings *set,
			const char *default_conf, const char *confdir,
			char *alloc, size_t len);

/* Load; 0, or -1 with err naming the file, line and value (t is then
 * empty). */
int tp_topo_load(tp_topo *t, const tp_topo_spec *s, tp_error *err);
void tp_topo_fini(tp_topo *t);

/*
 * The cluster's nodes that the topology file lacks (slurm.conf's nodes
 * not in topology.conf or torus.conf; toposim --nodes beyond the file's),
 * `n` of them named `names`, become nodes nnodes.. of the machine,
 * outside its topology; `rule` says which jobs may use them
 * (alloc/outside.h), and the allocator is wrapped to place by it.  Once
 * per machine, a fat tree or a torus.  0, or -1 with err naming the bad
 * name (one of the topology's, given twice, empty) or ENOMEM; on -1 the
 * machine is unusable: tp_topo_fini it.
 */
int tp_topo_add_outside(tp_topo *t, const char *const *names, int n,
			tp_outside_rule rule, tp_error *err);
static inline int tp_topo_noutside(const tp_topo *t)
{
	return t->nnodes - t->ninside;
}
/* `inside` (initialised here, ninside nodes) = the topology nodes of
 * `nodes` (nnodes nodes): what the tree and torus functions take.  0, or
 * -1 on ENOMEM. */
int tp_topo_inside(const tp_topo *t, const tp_nodeset *nodes,
		   tp_nodeset *inside);

/* Node index by name, -1 if unknown (flat: always -1). */
int tp_topo_node_index(const tp_topo *t, const char *name);
/* Name of node i, or NULL on a flat machine. */
const char *tp_topo_node_name(const tp_topo *t, int i);

/* Fabrics (topology/fattree.h): 1 unless a fat tree has several. */
int tp_topo_nfabric(const tp_topo *t);
/* The fabric with the most nodes of s, if it has at least `nodes` of them
 * and holds every node of `required` (may be NULL); -1 when none does
 * (also when `required` spans fabrics or lies outside the tree).  Not a
 * fat tree: 0 when s has `nodes` nodes. */
int tp_topo_fabric_for(const tp_topo *t, const tp_nodeset *s, int nodes,
		       const tp_nodeset *required);
/* The nodes of fabric f into out (every node when not a fat tree). */
void tp_topo_fabric_nodes(const tp_topo *t, int f, tp_nodeset *out);

/* The machine in one line: "fat tree of FILE: 16 nodes, 4 leaf switches,
 * 2 switch levels, 1 fabric", "torus of FILE: 4x4, 16 nodes", "flat: 128
 * nodes";
 * with outside nodes ", and 1 node outside it". */
void tp_topo_machine_line(const tp_topo *t, char *buf, size_t len);
/* With outside nodes: "1 node is not in FILE: n17; outside the tree,
 * RULE" (tp_outside_rule_says), the line a plugin warns with and toposim
 * prints; returns their count (0: buf is ""). */
int tp_topo_outside_line(const tp_topo *t, char *buf, size_t len);
/*
 * How fragmented the free nodes `free` leave the machine: 0 when every
 * node is free, larger is worse (what Slurm's topology_g_get_fragmentation
 * answers, so that backfill's bf_topopt oracle can compare time slots).
 *   fattree  MSUs not completely free (whole free units are what large
 *            jobs need, doc/methods.md A);
 *   torus    phi(all free) - phi(free), phi the MSS metric (doc/methods.md
 *            B): the larger and the more numerous the largest free boxes,
 *            the smaller;
 *   flat     busy nodes (any free nodes will do).
 */
uint64_t tp_topo_fragmentation(const tp_topo *t, const tp_nodeset *free);
/*
 * The largest free unit of the machine with free nodes `free`: what one
 * job could get in one piece now, as the allocators see the machine.
 * Read-only, for reports (toposim --frag-csv); changes no decision.
 *   fattree  tp_fattree_largest_free: one leaf switch's free nodes, or a
 *            completely free subtree;
 *   torus    the volume of the largest free box (tp_torus_erode_largest);
 *   flat     the free nodes.
 * Nodes outside the topology (tp_topo_add_outside) belong to no unit.
 * -1 on ENOMEM.
 */
int tp_topo_largest_free(const tp_topo *t, const tp_nodeset *free);

/* "fattree", "torus" or "flat". */
const char *tp_topo_kind_name(tp_topo_kind k);

#endif
