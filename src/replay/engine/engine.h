/*
 * engine.h - the event-driven simulator around a tp_cluster.
 *
 * The engine owns time.  It replays a workload: at each timestamp it first
 * ends every job whose run finished or whose limit came (asking the policy
 * what to do at a limit), then enqueues every arrival in file order, then
 * runs exactly one scheduling pass (tp_policy_pass) and carries out the
 * starts it recorded.  A job that runs longer than its limit is killed at
 * the limit unless the policy extends it.  A job that could not be placed
 * even on the whole idle machine is rejected at arrival.
 */
#ifndef TP_ENGINE_H
#define TP_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc/alloc.h"
#include "policy/policy.h"
#include "policy/limits.h"
#include "policy/rhythm.h"
#include "priority/order.h"
#include "rtmodel/rtmodel.h"
#include "trace/workload.h"

typedef enum tp_status {
	TP_COMPLETED = 0, /* ran to its end within the limit */
	TP_KILLED,        /* ended by its limit */
	TP_EXTENDED,      /* completed thanks to an extension */
} tp_status;

const char *tp_status_name(tp_status s);

/* One run of one job (a resubmitted job has one record per attempt). */
typedef struct tp_record {
	int64_t id, submit, start, end;
	int32_t nodes_req, nodes_alloc;
	int64_t estimate;  /* the limit this attempt was started with */
	int64_t runtime;   /* the job's actual run time (trace) */
	/* This run's simulated run time (its end unless a limit came
	 * first): runtime, or its dilation under a run-time model. */
	int64_t run;
	double spread;     /* the model's spread of the placement, -1 off */
	tp_status status;
	int extensions;
	int attempt;       /* 1 for the first run */
	bool fill;         /* started by backfilling around a reservation */
	double cost;       /* allocator cost (e.g. hop sum), -1 if none */
	char *nodelist;    /* "0-3,8" node indices */
} tp_record;

/* A queue in the site's priority order instead of arrival order (the
 * site model, site/siteprio.h).  Slurm recomputes priorities every
 * PriorityCalcPeriod: the engine calls tick at every multiple of period
 * while anything runs or waits (c->now the tick's time, c->run what runs),
 * key for each job as it arrives and for every waiting job after a tick,
 * and sorts the queue by the keys (tp_prio_order) before a pass when
 * either happened; started and ended hear of every run that starts and
 * ends (usage). */
typedef struct tp_engine_order {
	int64_t period;
	void *arg;
	int (*tick)(void *arg, const tp_cluster *c, tp_error *err);
	void (*started)(void *arg, const tp_job *j, int64_t start);
	void (*ended)(void *arg, const tp_job *j, int64_t start, int64_t end);
	void (*key)(void *arg, const tp_job *j, int64_t now, tp_prio_key *k);
} tp_engine_order;

/* Slurm's own per-job latency, in whole seconds (0, 0: none): a job can
 * start no sooner than `start` after its submission (the RPC and the
 * scheduler's trigger), and its nodes are free `release` after its end
 * (epilog and completing), so a limit of L holds them L + release.  The
 * records keep the job's own submit, end, run and limit. */
typedef struct tp_engine_latency {
	int64_t start, release;
} tp_engine_latency;

typedef struct tp_engine_opts {
	bool check;        /* verify invariants at every step (abort on breach) */
	bool keep_nodelists; /* fill tp_record.nodelist */
	/* Placement-dependent run times (rtmodel.h); NULL: the trace's. */
	tp_rtmodel *runtime_model;
	/* Progress callback, called every ~0.1% of jobs with the simulated
	 * time (it may throttle by wall clock); may be NULL. */
	void (*progress)(void *arg, size_t done, size_t total, int64_t now);
	void *progress_arg;
	/* Called after every scheduling pass, its starts carried out, with
	 * the cluster as the pass left it (the queue holds the jobs it could
	 * not start, highest priority first); may be NULL.  An observer: it
	 * must not change the cluster.  0, or -1 with err set to stop the
	 * replay. */
	int (*after_pass)(void *arg, const tp_cluster *c, tp_error *err);
	void *after_pass_arg;
	/* The queue's order; NULL: arrival order. */
	const tp_engine_order *order;
	/* Slurm's scheduler rhythm (policy/rhythm.h); NULL: one pass of the
	 * policy over the whole queue at every event.  With it, every event
	 * runs the main scheduler's pass, a multiple of sched_interval its
	 * pass over the whole queue and a multiple of bf_interval the
	 * policy's backfill pass; while jobs wait (and, once nothing
	 * runs, until both have looked at the queue) those multiples are
	 * events too. */
	const tp_rhythm *rhythm;
	/* QOS and association limits (policy/limits.h); NULL: none.  A job
	 * arriving over a submit limit is refused; before every pass the
	 * queued jobs are asked in queue order, and a job held sits the pass
	 * out in its place.  Every start and end is charged to it. */
	tp_limits *limits;
	tp_engine_latency latency;
} tp_engine_opts;

typedef struct tp_sim_result {
	tp_record *rec;
	size_t nrec, caprec;
	int nodes;
	int64_t first_submit, last_end;
	uint64_t events, passes;
	/* Jobs refused at arrival because the allocator cannot place them even
	 * on the whole idle machine (e.g. no box of that size fits the torus),
	 * as slurmctld refuses them at submission; they have no record. */
	uint64_t rejected;
	/* Jobs refused at submission by the submit limits (opts.limits:
	 * MaxSubmitJobs, GrpSubmitJobs), as slurmctld refuses them; they
	 * have no record. */
	uint64_t refused;
	/* With resources inside nodes (tp_workload.node_res): node-seconds
	 * during which a node held at least one job (a node counts once
	 * however many it held), CPU-seconds allocated, and the machine's
	 * CPUs; shared false and all 0 otherwise. */
	bool shared;
	double occupied, cpu_busy;
	int64_t cpus;
	/* Invariant-check counters (kept with or without opts.check). */
	uint64_t resv_violations; /* a head job started after its reservation */
	bool dilated;      /* run under a run-time model (record.spread) */
} tp_sim_result;

/* Replay w on w->nodes nodes with policy p placing through a.  Returns 0,
 * or -1 with err set (out of memory, a policy placed a job on busy nodes,
 * an invariant broken with opts.check). */
int tp_simulate(const tp_workload *w, tp_policy *p, tp_alloc *a,
		const tp_engine_opts *opts, tp_sim_result *out, tp_error *err);
void tp_sim_result_fini(tp_sim_result *r);

#endif
