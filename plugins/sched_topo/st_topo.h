/*
 * st_topo.h - the core allocator that matches slurmctld's SelectType.
 *
 * sched/topo decides where each job goes, and select_nodes() must then be
 * able to put it exactly there, so the allocator has to be the one the
 * select plugin uses:
 *
 *   select/linear   "first-free" over Slurm's node order (node index i is
 *                   Slurm's node i): the lowest-numbered free nodes;
 *   select/fattree  the allocator and tree select/fattree loads, read the
 *                   same way from the same files (fattree.conf, then its
 *                   TopologyFile, default topology.conf), with the same
 *                   node map by name;
 *   select/torus    the torus and allocator select/torus loads (torus.conf
 *                   beside slurm.conf or torus_conf=, method from Method=
 *                   or torus_method=), planning every job with exactly
 *                   its node count: no transit nodes, which is what
 *                   select/torus gives a job with an exact count (-N k);
 *   anything else   "first-free" as for select/linear, with a warning:
 *                   node sharing (cons_res, cons_tres) is not modelled,
 *                   a node counts as free only when it is idle.
 *
 * A new kind is one entry in the table of st_topo.c.
 */
#ifndef ST_TOPO_H
#define ST_TOPO_H

#include <stdbool.h>

#include "tpl_nodemap.h"

#include "alloc/alloc.h"
#include "ft_state.h"
#include "tt_state.h"

typedef struct st_topo {
	const char *kind;     /* "flat", "fattree", "torus" */
	tp_alloc *alloc;      /* owned (flat), ft.alloc or tt.alloc */
	tpl_nodemap map;      /* Slurm node index <-> allocator index */
	ft_state ft;          /* fattree only */
	bool has_ft;
	tt_state tt;          /* torus only */
	bool has_tt;
	char describe[512];   /* for the log */
} st_topo;

/* Build for `select_type` over the current node table.  0, or -1 with
 * the reason logged by error(); *t is then empty. */
int st_topo_load(st_topo *t, const char *select_type);
void st_topo_fini(st_topo *t);

#endif
