/*
 * site_res.h - resources inside nodes in a site replay (toposim --sacct
 * with --slurm-conf): each node's CPUs, memory and GPUs from slurm.conf's
 * NodeName lines, each job's ask per node from what sacct recorded, so
 * that jobs that shared nodes under Slurm share them in the replay
 * (model/res.h).
 *
 * A job's ask of each of its N nodes (toposim(1), SITES):
 *  - whole nodes in a partition with OverSubscribe=EXCLUSIVE;
 *  - CPUs: the CPUs it was allocated (AllocTRES cpu=, else NCPUS), else
 *    those it asked (ReqCPUS), divided evenly over its nodes (rounded
 *    up); with OverSubscribe=FORCE:K a job holds 1/K of them (rounded
 *    up), as K jobs may share a CPU (YES: as NO, since sacct does not
 *    say which jobs asked --oversubscribe, counted); without any CPU
 *    count, whole nodes;
 *  - memory: ReqMem per node as given (Mn), times its CPUs per node (Mc),
 *    the job's total over its nodes (since 21.08); only when
 *    SelectTypeParameters makes memory consumable (CR_*_Memory, Slurm's
 *    default since 23.11 when not given); else none;
 *  - GPUs: AllocTRES gres/gpu=, else ReqTRES's, over its nodes.
 * The model is on when some job asks less than whole nodes; --whole-nodes
 * keeps every job on whole nodes (the replay before the model).  A job
 * that asks more of a node than any node of its partition has is
 * counted and warned; admission then refuses it.
 */
#ifndef SIM_SITE_RES_H
#define SIM_SITE_RES_H

#include <stdbool.h>
#include <stddef.h>

#include "args.h"
#include "model/res.h"
#include "site_load.h"

typedef struct sim_res {
	tp_res_node *nodes;      /* per machine node */
	tp_res_ask *asks;        /* per workload job */
	bool on;
	bool mem;                /* memory is consumable */
	size_t whole;            /* jobs of whole nodes */
	size_t no_cpus;          /* of which for want of a CPU count */
	size_t too_big;          /* jobs asking more than a node has */
	size_t first_too_big;    /* its line */
	size_t forced;           /* jobs under FORCE:K */
	size_t yes;              /* jobs under YES (not shared: unknown) */
} sim_res;

/*
 * Resources for w (s's jobs, st's site) on a machine of `nnodes` whose
 * node index of a name is index(arg, name); sets w->node_res and each
 * job's ask when on.  A machine node slurm.conf does not define is an
 * error naming it.  0, or -1 with err set.
 */
int sim_res_build(const sim_config *c, const sim_site *st, const tp_sacct *s,
		  tp_workload *w, int nnodes,
		  int (*index)(const void *arg, const char *name),
		  const void *arg, sim_res *r, tp_error *err);
/* What the replay models, said once (stderr). */
void sim_res_say(const sim_config *c, const sim_res *r);
void sim_res_fini(sim_res *r);

#endif
