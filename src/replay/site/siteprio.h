/*
 * siteprio.h - a replayed site's queue in Slurm's priority order: the
 * engine's tp_engine_order over the core's multifactor formula
 * (priority/prio.h), Fair Tree over the site's associations
 * (priority/fairtree.h) and their usage, decayed and charged as Slurm's
 * decay thread does every PriorityCalcPeriod (priority/assoc.h).
 *
 * What goes in, per job of the sacct file: its partition (PriorityTier,
 * PriorityJobFactor), its association (Account and User), its CPUs
 * (billing: AllocTRES cpu= or NCPUS, else its nodes' CPUs), its
 * submission as the age's start.  priority/basic: every priority 0, so
 * the order is PriorityTier, then submission (Slurm's basic plugin gives
 * later jobs lower priorities).
 *
 * Usage seeded from the history: the jobs of the file before the
 * replayed slice (toposim --jobs FIRST:COUNT) are charged over their
 * recorded Start and End, step by step, up to the slice's first
 * submission.
 *
 * QOS priorities from a table of the site's QOS (site/qos.h), when
 * given (tp_siteprio_qos); without one every QOS factor is 0.
 *
 * Not modelled (said by toposim): nice values (sacct has none), PriorityFlags ACCRUE_ALWAYS,
 * CALCULATE_RUNNING, INCR_ONLY, MAX_TRES and the non-Fair-Tree
 * algorithms, association limits, TRESBillingWeights (billing = CPUs).
 */
#ifndef TP_SITEPRIO_H
#define TP_SITEPRIO_H

#include <stdio.h>

#include "engine/engine.h"
#include "priority/assoc.h"
#include "site/qos.h"
#include "site/site.h"
#include "trace/sacct.h"

typedef struct tp_siteprio_job {
	int32_t assoc;      /* user association, -1 unknown */
	double cpus;        /* billing */
	uint32_t req_cpus;  /* for job size (0 unknown) */
	uint32_t min_nodes; /* for job size: ReqTRES node= (0 unknown: its
			     * node count) */
	uint32_t part_factor, tier;
	uint32_t qos_prio;  /* its QOS's priority (0 unknown) */
	int64_t tres_gpu;
	int64_t start;      /* of its run, while it runs */
	uint8_t state;      /* usage bookkeeping */
} tp_siteprio_job;

typedef struct tp_siteprio {
	const tp_site *site;
	tp_prio_conf conf;   /* the site's, its machine filled in */
	bool multifactor;
	tp_assoc_tree *tree; /* NULL: no fairshare */
	double df;           /* decay per second */
	int64_t last;        /* last step, -1 before the first */
	tp_siteprio_job *jobs;
	size_t njobs, offset; /* the replay's job seq + offset = index */
	uint32_t part_max;
	uint32_t qos_max;    /* the largest QOS priority */
	double *full;        /* per association: billing of runs charged
			      * whole steps */
	uint32_t *fresh;     /* runs started since the last step */
	size_t nfresh, capfresh;
	size_t no_assoc, first_no_assoc_line; /* jobs without association */
	FILE *sprio;         /* factors at instants, or NULL */
	struct tp_siteprio_ev *rec; /* --usage recorded: the recorded runs'
				     * starts and ends, in time order */
	size_t nrec, next_rec;
	int64_t *at;
	size_t nat, next_at;
	tp_engine_order order;
} tp_siteprio;

/* The model of site's priority for the jobs of s (the whole file, before
 * any slice) and the associations of tree (may be NULL; not owned).
 * 0, or -1 with err. */
int tp_siteprio_init(tp_siteprio *sp, const tp_site *site,
		     const tp_sacct *s, tp_assoc_tree *tree, tp_error *err);
void tp_siteprio_fini(tp_siteprio *sp);

/* The QOS priorities of q (read, not kept) for the jobs of s, by their
 * QOS column.  Returns the number of jobs whose QOS q lacks (their QOS
 * factor is 0); *first_line: the sacct line of the first. */
size_t tp_siteprio_qos(tp_siteprio *sp, const tp_sacct *s,
		       const tp_qos_table *q, size_t *first_line);

/* Usage charged from the replayed jobs' recorded runs (their Start and
 * End in s) instead of the replay's own: the fairshare Slurm computed
 * from its real schedule, whatever the replay does (toposim --usage
 * recorded).  Call after tp_siteprio_seed.  0, or -1 with err. */
int tp_siteprio_recorded(tp_siteprio *sp, const tp_sacct *s, tp_error *err);

/* The usage of the jobs at [0, first), charged over their recorded runs up
 * to time `until` (the replay's first submission); the replay's jobs are
 * then s's from `first` on. */
void tp_siteprio_seed(tp_siteprio *sp, const tp_sacct *s, size_t first,
		      int64_t until);

/* Writes every waiting job's factors (a CSV line each: time, id,
 * priority, then the factors) at the first step at or after each of the
 * sorted instants `at`. */
void tp_siteprio_trace(tp_siteprio *sp, FILE *fp, int64_t *at, size_t n);

#endif
