/*
 * het_ws.h - the working state the schedules of het.h share (internal to
 * het_plan.c, het_pjs.c).
 *
 * A schedule is worked out as a list of options (job, partition, node
 * count) on a copy of the machine's ready times; placing an option is
 * deterministic (the partition's earliest-ready nodes, ties: lower
 * index), so the plan's node lists are made once at the end by placing
 * the kept list again from the machine's ready times.  Every scratch
 * array is allocated once per tp_het_schedule(), never per candidate.
 */
#ifndef TP_HET_WS_H
#define TP_HET_WS_H

#include "hetero/het.h"

/* One option of a schedule: job (index into the jobs array), the
 * partition's position in the job's parts, node count, expected time. */
typedef struct het_opt {
	size_t job;
	int pos;
	int n;
	double et;
	double profit;  /* PJS candidates: the paper's profitability */
} het_opt;

/* A node in a partition's list, kept sorted by (ready, node). */
typedef struct het_slot {
	double ready;
	int node;
} het_slot;

typedef struct het_ws {
	const tp_het_machine *m;
	double now;
	const tp_het_job *jobs;
	size_t njobs;
	tp_het_etc_fn etc;
	void *arg;

	double *ready;      /* working state, per node */
	double *saved;      /* SJS: the state both greedies start from */
	double *lstart;     /* PJS: the level's start state */
	het_slot *slot;     /* per partition, its usable nodes by ready */
	size_t *soff;       /* partition p's slots: slot[soff[p]..] */
	int *nslot;
	bool *dirty;        /* partition's slots need sorting again */
	int *npart_off;     /* node -> partitions holding it (CSR) */
	int *npart;
	int *pick;          /* the nodes of the last het_fit(.., true) */

	size_t *eoff;       /* job j's per-partition data at eoff[j] */
	double *seq_et;     /* etc of the sequential option, or NO_RUN */
	int *cap;           /* usable nodes the job may have there */

	bool *done;         /* greedy: per position of the level's list */
	size_t *rest;       /* PJS: the level's jobs not committed */
	bool *in_c;         /* PJS: per job, committed */
	het_opt *sa, *sb;   /* SJS: min-min's and min-max's lists */
	het_opt *best, *trial; /* PJS: kept and tried schedules */
	het_opt *cand;      /* PJS: each job's most profitable option */
	size_t pjs_rounds;
} het_ws;

/* Allocates every array and the per-(job, partition) sequential times
 * and capacities (one etc call each); -1 with err on a job naming a
 * partition that does not exist, a partition naming a node the machine
 * does not have, a node count < 1, or out of memory. */
int het_ws_init(het_ws *ws, const tp_het_machine *m, double now,
		const tp_het_job *jobs, size_t njobs, tp_het_etc_fn etc,
		void *arg, tp_error *err);
void het_ws_fini(het_ws *ws);

/* Start (>= now) of option (j, pos, n) on the working state, or -1 if
 * fewer than n nodes can take it; with pick, ws->pick gets the nodes. */
double het_fit(het_ws *ws, size_t j, int pos, int n, bool pick);
/* The nodes of the last picking het_fit() are busy until end. */
void het_commit(het_ws *ws, int n, double end);
/* Places opts in order on the working state; returns sum(end - now). */
double het_place_list(het_ws *ws, const het_opt *o, size_t n);
void het_state_save(het_ws *ws, double *to);
void het_state_load(het_ws *ws, const double *from);

/* Schedules jobs idx[0..nidx) (array order) on the working state with
 * OLB, min-min or min-max; out gets the placed options, *nout their
 * count; returns sum(end - now). */
double het_greedy(het_ws *ws, tp_het_algo algo, const size_t *idx,
		  size_t nidx, het_opt *out, size_t *nout);
/* The better of min-min and min-max (ties: min-min) from the working
 * state, which is left as the kept one left it. */
double het_sjs(het_ws *ws, const size_t *idx, size_t nidx, het_opt *out,
	       size_t *nout, tp_het_algo *used);
/* The paper's PJS on one level; out as het_sjs. */
double het_pjs(het_ws *ws, const size_t *idx, size_t nidx, het_opt *out,
	       size_t *nout, tp_het_algo *used);

#endif
