/*
 * fattree.h - a fat-tree (Slurm topology/tree) machine model, its minimum
 * scheduling units (MSUs) and the hop metric between them.
 *
 * Source: Slurm's topology.conf syntax (topology/tree plugin):
 *
 *     SwitchName=NAME Nodes=HOSTLIST   [LinkSpeed=N]   # a leaf switch
 *     SwitchName=NAME Switches=HOSTLIST [LinkSpeed=N]  # an inner switch
 *
 * keys case-insensitive, '#' comments, '\' continuations, any depth,
 * irregular trees.  Levels as Slurm computes them: a leaf switch (one with
 * Nodes=) is level 0, any other switch is 1 + the highest level of its
 * children.  Rejected with "FILE:LINE: message" naming the value: unknown
 * key, missing/empty/duplicate SwitchName, a switch with both or neither of
 * Nodes= and Switches=, a reference to an unknown switch, a switch listed
 * twice by one parent or with two parents, a cycle, a node listed twice
 * under one leaf or under two leaves (Slurm's topology/tree warns and
 * keeps it in both; a node has one place in this model, so any one choice
 * would differ from Slurm's reading without a word), a bad LinkSpeed, a
 * file without switches.  (A node of slurm.conf that the file lacks is
 * not the file's problem: machine/topo.h, tp_topo_add_outside.)
 *
 * Several roots (Slurm allows disjoint trees; its allocators then never
 * combine nodes of different trees): each root's subtree is one FABRIC
 * (the switch graph's connected components: a switch has one parent, so
 * a component is a root and what hangs below it).  The model adds a
 * VIRTUAL ROOT one level above the highest root only as a container, so
 * one walk covers every switch; it is no link.  No allocator places a job
 * across two fabrics (a job fits only if one fabric can hold it), a
 * placement within one fabric never reaches the virtual root, so its hops
 * never count it, and every front end warns at load with
 * tp_fattree_fabrics_warning().  The virtual root is never written back
 * by tp_fattree_write_conf().
 *
 * Node indices: 0..n-1 in order of first appearance in the file, leaf
 * switch by leaf switch, each leaf's hostlist in its expansion order.  The
 * simulator maps trace node i to index i; the Slurm plugins map Slurm node
 * names to indices with tp_fattree_node_index().  A leaf's nodes are
 * therefore a contiguous index range.
 *
 * Hops: the number of routers (switches) a message between two nodes
 * traverses, i.e. the switches on the tree path between their leaf
 * switches, both ends included: same leaf 1; in a tree whose leaves all
 * sit at the same depth, lowest common switch at Slurm level L gives
 * 2L+1 (= 2L'-1 counting levels from leaf = 1).  In the 64-node tree of
 * tp_fattree_generate(3, 4) node n1 <-> n64 crosses 5 routers.  Trees with
 * leaves at different depths count the real path (deeper side longer).
 *
 * MSUs (patent, doc/methods.md A): each leaf's node range is cut into units
 * of Nunit consecutive nodes; ceil(Nleaf/Nunit) units per leaf, the LAST
 * unit of a leaf is smaller when Nunit does not divide Nleaf ("short"
 * unit).  Nunit by the patent's rule with Nleaf = the LARGEST leaf size
 * (tp_fattree_nunit_rule), or fixed by tp_fattree_opts.msu_size (1 = node
 * granularity).  MSU indices follow node order.  The hop count between two
 * MSUs is that between their leaves (same leaf: 1).  No M x M hop table is
 * stored: at 65,536 nodes with 4-node units it would hold 268 M entries;
 * instead hops come from leaf depths and the lowest common ancestor in
 * O(depth), and sums of hops over a set in O(switches) (tp_fattree_hop_sum).
 */
#ifndef TP_FATTREE_H
#define TP_FATTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/bitops.h"
#include "base/error.h"
#include "base/name_index.h"
#include "base/nodeset.h"

/* Options of the MSU model and of the "fattree" allocator built on it. */
typedef struct tp_fattree_opts {
	/* 0: the patent's rule (tp_fattree_nunit_rule); > 0: this Nunit. */
	int msu_size;
	/* Job of one MSU or less, no completely free MSU fits and no busy MSU
	 * has exactly the job's size free: 1 (default) = take the busy MSU
	 * with the fewest free nodes >= the job's size ([reading], beyond the
	 * patent); 0 = the patent: take nothing from busy MSUs.  The default
	 * was chosen by measurement: doc/fattree-design.md, "Small jobs". */
	int busy_fallback;
	/* Tie-break among placements of equal hop sum: 1 (default) = prefer
	 * MSUs in leaves with the fewest completely free MSUs (best fit, keeps
	 * emptier leaves whole), then the earliest subtrees; 0 = earliest
	 * subtrees / lowest MSU indices only.  See doc/fattree-design.md. */
	int prefer_full;
} tp_fattree_opts;

/* Defaults: msu_size 0 (patent rule), busy_fallback 1, prefer_full 1. */
void tp_fattree_opts_default(tp_fattree_opts *o);

/* One switch.  Read-only outside fattree*.c / alloc_*.c. */
typedef struct tp_fattree_switch {
	char *name;
	int line;        /* line in the file; 0 when generated or virtual */
	int link_speed;  /* LinkSpeed= (default 1); kept, not used */
	int level;       /* Slurm's level: leaf 0, else 1 + max child level */
	int depth;       /* edges from the (possibly virtual) root */
	int parent;      /* switch index, -1 for the root */
	int nchild;      /* child switches (0 for a leaf) */
	int *child;      /* in the order of the Switches= list */
	int node_lo, node_hi; /* leaf: its nodes [node_lo, node_hi) */
	int msu_lo, msu_hi;   /* leaf: its MSUs [msu_lo, msu_hi) */
	/* Its subtree is the post-order positions [post_lo, post]: a
	 * constant-time "is v under top" (tp_fattree_in_subtree). */
	int post, post_lo;
	int fabric;      /* 0..nfabric-1; -1 for the virtual root */
	bool is_virtual;
} tp_fattree_switch;

typedef struct tp_fattree {
	char *path;          /* file it came from, or "(generated)" */
	int nswitch;         /* including a virtual root, if any */
	tp_fattree_switch *sw;    /* file order; a virtual root comes last */
	int root;            /* index of the (possibly virtual) root */
	int nleaf;
	int *leaves;         /* leaf switch indices in node order */
	int *postorder;      /* every switch, children before parents */
	int levels;          /* number of switch levels = root level + 1 */
	int nfabric;         /* real roots: 1 unless the file has several */
	int *fabric_root;    /* [nfabric] root switch of each, in node order */

	int nnodes;
	char **node_name;    /* [nnodes] */
	int *node_leaf;      /* [nnodes] leaf switch index */
	int *node_msu;       /* [nnodes] MSU index */
	tp_name_index node_index; /* node_name -> index */

	int max_leaf;        /* Nleaf of the Nunit rule: largest leaf */

	int nunit;           /* Nunit */
	int nmsu;
	int *msu_lo;         /* [nmsu + 1]: MSU m is nodes [msu_lo[m], msu_lo[m+1]) */
	int *msu_leaf;       /* [nmsu] leaf switch index */
	tp_fattree_opts opts;
} tp_fattree;

/* Is switch v in the subtree of switch top (v == top included)? */
static inline bool tp_fattree_in_subtree(const tp_fattree *t, int v, int top)
{
	return t->sw[top].post_lo <= t->sw[v].post_lo &&
	       t->sw[v].post <= t->sw[top].post;
}

/* Fabric of node v (0..nfabric-1). */
static inline int tp_fattree_node_fabric(const tp_fattree *t, int v)
{
	return t->sw[t->node_leaf[v]].fabric;
}

/* Fabric holding every node of s: its index, -1 when s is empty, -2 when
 * s spans several fabrics (*first_other, if not NULL, gets a node of s
 * outside the fabric of s's first node). */
int tp_fattree_set_fabric(const tp_fattree *t, const tp_nodeset *s,
			  int *first_other);
/* Nodes of fabric f as a hostlist ("n[1-8]"), malloc'd; NULL on ENOMEM. */
char *tp_fattree_fabric_nodes(const tp_fattree *t, int f);
/* The load-time warning of a tree with several fabrics, naming each (its
 * root switch and nodes) and saying that no job spans two; NULL for one
 * fabric (or out of memory).  malloc'd.  Every front end prints this one
 * text: the plugins through Slurm's log, toposim on stderr. */
char *tp_fattree_fabrics_warning(const tp_fattree *t);

/* Read a topology.conf; NULL with err ("FILE:LINE: ...") on any problem.
 * MSUs follow tp_fattree_opts_default(). */
tp_fattree *tp_fattree_load(const char *path, tp_error *err);
/* Regular tree: `levels` switch levels (>= 1), every switch with `width`
 * children, every leaf switch with `width` nodes (>= 1), so width^levels
 * nodes.  Nodes are named "n1".."nN" (no padding) leaf by leaf; switches
 * "s<level>-<i>" with Slurm levels (leaves s0-0.., the root s<levels-1>-0).
 * (3, 4) is the 64-node tree of the patent's Figure 1.  NULL with err when
 * the arguments are out of range or there would be more than 2^24 nodes. */
tp_fattree *tp_fattree_generate(int levels, int width, tp_error *err);
/* Write the tree as topology.conf text (hostlist-compressed, one switch a
 * line, file order, no virtual root).  Returns 0, or -1 on a write error. */
int tp_fattree_write_conf(const tp_fattree *t, FILE *fp);
void tp_fattree_free(tp_fattree *t);

/* Change MSU size / allocator options (recomputes the MSU partition).
 * Do it before creating allocators from the tree: they size their scratch
 * space from it.  -1 with err if o->msu_size < 0. */
int tp_fattree_set_opts(tp_fattree *t, const tp_fattree_opts *o,
			tp_error *err);

int tp_fattree_nnodes(const tp_fattree *t);
const char *tp_fattree_node_name(const tp_fattree *t, int i);
/* Index of a node by name (hash look-up, O(1) expected), or -1. */
int tp_fattree_node_index(const tp_fattree *t, const char *name);
/* Index of a switch by name (linear), or -1. */
int tp_fattree_switch_index(const tp_fattree *t, const char *name);
/* Routers traversed between two nodes (see above); 0 when a == b. */
int tp_fattree_hops(const tp_fattree *t, int node_a, int node_b);
/* Edges between two switches on the tree path (Slurm's switches_dist). */
int tp_fattree_switch_dist(const tp_fattree *t, int sw_a, int sw_b);

/* The patent's Nunit rule ([reading] for the cut text): nodes <= 4096:
 * Nleaf <= 4 ? Nleaf : 4; nodes > 4096: Nleaf <= 8 ? Nleaf : 8. */
int tp_fattree_nunit_rule(int nnodes, int nleaf);
int tp_fattree_nunit(const tp_fattree *t);
int tp_fattree_nmsu(const tp_fattree *t);
static inline int tp_fattree_msu_size(const tp_fattree *t, int m)
{
	return t->msu_lo[m + 1] - t->msu_lo[m];
}
/* Hops between two MSUs (those of their leaves; 0 when m1 == m2). */
int tp_fattree_msu_hops(const tp_fattree *t, int m1, int m2);
/* The patent's placement metric: sum over unordered pairs of distinct MSUs
 * touched by `nodes` of their hops.  O(nodes/64 + nmsu + switches);
 * allocates scratch.  -1 on ENOMEM. */
long long tp_fattree_hop_sum(const tp_fattree *t, const tp_nodeset *nodes);
/* Free nodes of MSU m in `free` (popcount over its range). */
int tp_fattree_msu_free(const tp_fattree *t, const tp_nodeset *free, int m);
/* The most free nodes a job can get in one piece (fattree_largest.c): the
 * free nodes of one leaf switch, or all the nodes of a subtree whose every
 * node is free, whichever is larger; 0 when nothing is free.  Read-only,
 * for reports (toposim --frag-csv).  -1 on ENOMEM. */
int tp_fattree_largest_free(const tp_fattree *t, const tp_nodeset *free);

/* Bits set in x (base/bitops.h: no libgcc call without a popcount
 * instruction). */
static inline int tp_fattree_popcount64(uint64_t x)
{
	return tp_popcount64(x);
}

/* Members of s in [lo, hi), a word at a time, inline: allocators call this
 * for every MSU or leaf at every decision. */
static inline int tp_fattree_count_range(const tp_nodeset *s, int lo, int hi)
{
	int c = 0;
	while (lo < hi) {
		int b = lo & 63, take = 64 - b;
		if (take > hi - lo)
			take = hi - lo;
		uint64_t x = s->w[lo >> 6] >> b;
		if (take < 64)
			x &= ((uint64_t)1 << take) - 1;
		c += tp_fattree_popcount64(x);
		lo += take;
	}
	return c;
}

#endif
