/*
 * site_load.h - toposim's site model around a sacct replay: slurm.conf
 * read as a site (limits for the importer, the priority settings),
 * sacctmgr's associations, the priority order the engine sorts its queue
 * by (site/siteprio.h) seeded from the history before the replayed slice,
 * and --sprio-out's factors.
 */
#ifndef SIM_SITE_LOAD_H
#define SIM_SITE_LOAD_H

#include <stdbool.h>
#include <stdio.h>

#include "args.h"
#include "base/hostlist.h"
#include "base/nodeset.h"
#include "policy/limits.h"
#include "policy/rhythm.h"
#include "priority/assoc.h"
#include "site/site.h"
#include "site/qos.h"
#include "site/siteprio.h"
#include "trace/sacct.h"
#include "trace/workload.h"

typedef struct sim_site {
	tp_site site;
	bool have_site;
	tp_sacct_limit *limits;    /* the partitions' MaxTime */
	tp_assoc_tree tree;
	bool have_tree;
	tp_siteprio sp;
	bool ordered;              /* the queue in the site's order */
	FILE *sprio;
	int64_t *at;
	size_t nat;
	tp_nodeset *sets;          /* per partition: its nodes on the machine */
	size_t nsets;
	tp_nodeset **lists;        /* per job of a partition list: the union */
	size_t nlists;
	bool partitioned;          /* jobs kept to their partitions' nodes */
	tp_rhythm rhythm;          /* SchedulerParameters' scheduler rhythm */
	bool rhythmic;             /* the engine runs it */
	tp_qos_table qos;          /* --qos */
	bool have_qos;
	tp_limits *qos_limits;     /* --qos's and --sacctmgr's limits when
				    * enforced, or NULL: the replays' usage,
				    * apart from the site's description */
	tp_assoc_limits *alim;     /* the associations' limits, propagated */
	int32_t *aparent;
} sim_site;

/* --slurm-conf read as the site. */
int sim_site_read(const sim_config *c, sim_site *st, tp_error *err);
/* The importer's options get the partitions' MaxTime. */
void sim_site_opts(const sim_site *st, tp_sacct_opts *o);
/* Every node of the site, in slurm.conf's order, into nodes (initialised
 * here): the machine of a replay of every partition. */
int sim_site_nodes(const sim_site *st, tp_hostlist *nodes, tp_error *err);
/* Each job of w (s's, before the slice) may use only its partition's
 * nodes (a list: their union): tp_wjob.allowed, on a machine of `nnodes`
 * whose node index of a name is index(arg, name) (-1: not on it).  A job
 * of a partition slurm.conf lacks may use every node (counted, warned). */
int sim_site_partitions(const sim_config *c, sim_site *st, const tp_sacct *s,
			tp_workload *w, int nnodes,
			int (*index)(const void *arg, const char *name),
			const void *arg, tp_error *err);
/* The priority model over s's jobs (before the slice), seeded with the
 * jobs before --jobs FIRST; says what it models and what not. */
int sim_site_prio(const sim_config *c, sim_site *st, const tp_sacct *s,
		  tp_error *err);
/* Slurm's scheduler rhythm from slurm.conf's SchedulerParameters
 * (Slurm's defaults for the keys it lacks), unless --rhythm every-event
 * or a heterogeneous policy; each job of w (s's, before the slice) gets
 * its partition and user.  Says what it models and what not. */
int sim_site_rhythm(const sim_config *c, sim_site *st, const tp_sacct *s,
		    tp_workload *w, tp_error *err);
/* QOS limits (--qos's MaxJobsPU, MaxTRESPU, GrpJobs, GrpTRES,
 * MaxSubmitPU, GrpSubmit) and association limits (--sacctmgr's MaxJobs,
 * MaxSubmitJobs, GrpJobs, GrpSubmitJobs, GrpTRES) when slurm.conf's
 * AccountingStorageEnforce has limits (or safe): each job of w (s's,
 * before the slice) gets its QOS, user, association and CPUs.  Says what
 * it models. */
int sim_site_limits(const sim_config *c, sim_site *st, const tp_sacct *s,
		    tp_workload *w, tp_error *err);
/* The engine's QOS limits (a replay resets their usage), or NULL. */
tp_limits *sim_site_limits_of(const sim_site *st);
/* The engine's scheduler rhythm, or NULL (a pass at every event). */
const tp_rhythm *sim_site_rhythm_of(const sim_site *st);
/* The engine's queue order, or NULL (arrival order). */
const tp_engine_order *sim_site_order(const sim_site *st);
void sim_site_fini(sim_site *st);

#endif
