/* output.h - the simulator's result files: per-run CSV and summary JSON. */
#ifndef TP_SIM_OUTPUT_H
#define TP_SIM_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"
#include "engine/metrics.h"
#include "engine/metrics_dist.h"
#include "trace/sacct.h"
#include "trace/workload.h"

/* Open `path` for writing; "-" is stdout.  NULL with err set on failure. */
FILE *sim_open_out(const char *path, tp_error *err);
/* Close what sim_open_out returned; -1 with err set if writing failed. */
int sim_close_out(FILE *fp, const char *path, tp_error *err);

/* Node names for the nodelist column: name(arg, i), written as a hostlist
 * expression ("n[1-4,9]"); NULL for the indices as they are ("0-3,8"). */
typedef const char *(*sim_name_fn)(const void *arg, int i);

/* The last column: the allocator's cost of a placement, named for what
 * it is, with the decimals it has. */
typedef struct sim_cost_column {
	const char *name;   /* "hop_sum" (fat tree), "mean_distance" (torus) */
	int decimals;
} sim_cost_column;

/* The cost column of a machine kind (machine/topo.h's tp_topo_kind). */
sim_cost_column sim_cost_column_of(int topo_kind);

/* window: -1 for a whole run; with --windows 0, 1, ... in a last column
 * (the header with window 0).  -1 with err set when out of memory. */
int sim_write_csv(FILE *fp, const tp_sim_result *r, sim_name_fn name,
		  const void *arg, sim_cost_column cost, int window,
		  tp_error *err);

typedef struct sim_run_info {
	const char *workload, *policy, *alloc;
	int window, njob;
	const tp_workload *w;
	const tp_policy_stats *stats;
	uint64_t rejected;      /* jobs no placement could ever hold */
	bool limits;            /* limits modelled: refused is printed */
	uint64_t refused;       /* jobs refused by submit limits */
	size_t slice_first, slice_count; /* --jobs; count 0: the whole trace */
	double wall_seconds;
	double scale_sizes, load;   /* --scale-sizes, --load; 0: not given */
	/* --sacct only (NULL otherwise): its skips, Slurm's own schedule. */
	const tp_sacct *sacct;
	const tp_summary *actual;
	size_t ran_outside, placed; /* jobs with a node off the machine;
				     * jobs whose every node is on it */
	bool nodes_known;           /* Slurm's nodes could be checked (a
				     * NodeList column, a machine with
				     * names); else both counts are null */
	size_t shared_node_jobs;    /* jobs that shared a node in Slurm's */
	const char *partition;      /* --partition, or NULL */
	int partition_nodes;        /* its nodes with --slurm-conf, else 0 */
	double comm_share;          /* --runtime-model spread's share */
	const tp_dist *dist;        /* percentiles and size classes, or NULL */
} sim_run_info;

void sim_write_json(FILE *fp, const tp_summary *s, const sim_run_info *info);
/* A statistic as JSON: null when it is one of nothing (known false),
 * else in fmt; and as text, "n/a" for nothing. */
void sim_put_stat(FILE *fp, const char *fmt, double v, bool known);
const char *sim_stat_text(char *buf, size_t len, const char *fmt, double v,
			  bool known);
/* The distributions as summary members, each line ending in a comma
 * (output_dist.c). */
void sim_write_dist_json(FILE *fp, const tp_dist *d);
/* --windows: each window's first job, metrics, and their mean. */
void sim_write_windows_json(FILE *fp, const sim_run_info *info,
			    const size_t *starts, size_t len,
			    const tp_summary *s, size_t k,
			    const tp_summary *mean);

#endif
