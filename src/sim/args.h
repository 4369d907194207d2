/*
 * args.h - toposim's command line.  The policy settings (--policy,
 * --window, --rbhar-requeue, ...) come from the core's settings table
 * (settings/settings.h), so they have the same names, ranges and defaults as
 * sched/topo's topo_ SchedulerParameters.
 */
#ifndef SIM_ARGS_H
#define SIM_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "settings/settings.h"
#include "trace/swf.h"
#include "windows.h"

typedef struct sim_config {
	const char *workload, *alloc, *jobs_csv, *summary_json;
	const char *plot, *topology, *fattree_conf, *torus, *esterr;
	const char *batsim_csv; /* --batsim-csv: the jobs in Batsim's schema */
	const char *swf_out;    /* --swf-out: the schedule as an SWF trace */
	const char *job_reqs;   /* --job-requests (trace/jobreqs.h) */
	const char *frag_csv;   /* --frag-csv: the fragmentation series (frag.h) */
	const char *sacct;      /* --sacct: the workload is sacct -P output */
	const char *partition;  /* --partition: its jobs; its nodes with
				 * --slurm-conf */
	const char *slurm_conf; /* --slurm-conf: where --partition's nodes are;
				 * with --sacct the site's limits and priority */
	const char *sacctmgr;   /* --sacctmgr: the associations (fairshare) */
	const char *qos;        /* --qos: the QOS priorities */
	bool usage_recorded;    /* --usage recorded */
	const char *sprio_out, *sprio_at; /* the factors at instants */
	size_t slice_first, slice_count; /* --jobs FIRST:COUNT; count 0: all */
	sim_windows windows;    /* --windows; k 0: none */
	tp_swf_opts swf;        /* scale_sizes: --scale-sizes, any workload */
	double load;            /* --load: arrivals this many times as dense;
				 * 0: as recorded */
	tp_settings set;        /* policy and its options */
	bool policy_given;
	int base_shapes;        /* --base-shapes (tp_torus_base_shapes), -1:
				 * torus.conf's BaseShapes= */
	int outside_rule;       /* --outside-rule (tp_outside_rule), -1: not
				 * given (one-node, Slurm 26.05's) */
	/* --runtime-model (rtmodel.h): 0 off (the trace's run times), 1
	 * spread with share comm_share. */
	int runtime_model;
	double comm_share;
	uint64_t seed;
	bool check, quiet;
	bool allow_empty;       /* --allow-empty: a replay of no job is a
				 * result (its statistics null), not an error */
	bool whole_nodes;       /* --whole-nodes: no resources inside nodes */
	bool every_event;       /* --rhythm every-event: no scheduler rhythm */
	bool rhythm_given;      /* --rhythm at all */
	/* --latency START,RELEASE: Slurm's per-job latency in seconds
	 * (engine.h, tp_engine_latency); 0,0 when not given. */
	int64_t latency_start, latency_release;
	/* Heterogeneous mode (--machine; doc/methods.md D1, hetsim/het_sim.h). */
	const char *machine, *het_jobs, *truth, *expdb;
	bool oracle;
	int het_algo;           /* the policy's tp_het_algo, -1: not one */
} sim_config;

typedef enum sim_args_verdict {
	SIM_ARGS_RUN,     /* *c holds a run */
	SIM_ARGS_HELP,    /* --help: print sim_usage(stdout), exit 0 */
	SIM_ARGS_VERSION, /* --version */
	SIM_ARGS_USAGE,   /* a usage error, said in msg: exit 2 */
} sim_args_verdict;

/* Parse argv into *c, by the rule of every program (cli/cli.h).  Nothing
 * is printed but the warnings about settings the policy does not read;
 * nothing exits. */
sim_args_verdict sim_parse_args(sim_config *c, int argc, char **argv,
				char *msg, size_t len);
/* The usage text (--help). */
void sim_usage(FILE *fp);

#endif
