/*
 * st_topo.h - the machine and allocator that match slurmctld's placement
 * plugin: the SelectType on Slurm 22.05, the TopologyPlugin on 24.11
 * (st_slurm_machine_plugin).
 *
 * sched/topo decides where each job goes, and select_nodes() must then be
 * able to put it exactly there, so the allocator has to be the one the
 * placement plugin uses, loaded the same way (machine/topo.h):
 *
 *   select/linear   flat, "first-free" over Slurm's node order (node index
 *                   i is Slurm's node i): the lowest-numbered free nodes;
 *   select/fattree  the tree and allocator of fattree.conf beside
 *                   slurm.conf, as select/fattree loads them;
 *   select/torus    the torus and allocator select/torus loads (torus_conf=
 *                   and torus_method= SchedulerParameters, torus.conf),
 *                   with no transit nodes: select/torus gives a job with an
 *                   exact count (-N k) a box of exactly k, and sched/topo
 *                   plans jobs by their node count;
 *   topology/fattree, topology/torus (24.11): as select/fattree and
 *                   select/torus;
 *   anything else   flat, as for select/linear, with a note in the log:
 *                   node sharing (cons_res, cons_tres) is not modelled, a
 *                   node counts as free only when it is idle.
 *
 * A new kind is one entry in the table of st_topo.c.
 */
#ifndef ST_TOPO_H
#define ST_TOPO_H

#include "tpl_nodemap.h"

#include "machine/topo.h"

typedef struct st_topo {
	tp_topo topo;         /* machine and allocator */
	tpl_nodemap map;      /* Slurm node index <-> allocator index */
} st_topo;

/* Build for `machine_plugin` ("select/fattree", "topology/torus", ...)
 * over the current node table.  0, or -1 with the reason logged by
 * error(); *t is then empty. */
int st_topo_load(st_topo *t, const char *machine_plugin);
void st_topo_fini(st_topo *t);

#endif
