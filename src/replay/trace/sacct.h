/*
 * sacct.h - a site's Slurm accounting history (`sacct -P` output) read as
 * a workload, with what Slurm actually did with each job beside it.
 *
 * Conventions (documented for users in toposim(1), SACCT WORKLOADS):
 *  - the first non-empty line is sacct's header; it maps the columns, so
 *    their order may vary and unknown columns are ignored.  Required:
 *    JobID, Submit, Start, End, NNodes.  Used when present: JobIDRaw,
 *    Elapsed or ElapsedRaw, Timelimit or TimelimitRaw, NCPUS, Partition,
 *    State, NodeList.  A column named twice, or sacct's fixed-width
 *    output (no '|'), is an error;
 *  - every other non-empty line has the header's number of '|'-separated
 *    fields;
 *  - times: ISO "YYYY-MM-DDTHH:MM:SS" (read as UTC: run sacct with TZ=UTC
 *    so that daylight-saving jumps do not distort waits) or seconds since
 *    the epoch (SLURM_TIME_FORMAT=%s); "Unknown", "None" and "" are
 *    unknown.  Submit times are made relative to the earliest kept one;
 *  - Elapsed "[D-]HH:MM:SS" (ElapsedRaw: seconds) is the run time; without
 *    it End - Start;
 *  - Timelimit "[D-]H[:M[:S]]", "M", "M:S" (TimelimitRaw: minutes) is the
 *    estimate; "UNLIMITED", "Partition_Limit", "INVALID" and "" count in
 *    w->estimate_missing and the run time stands in;
 *  - JobID "N", "N_I" (array task), "N_[...]" (pending array), "N+K"
 *    (heterogeneous component), any of them with ".STEP"; the job's id is
 *    JobIDRaw when present, else N; an array task or component without a
 *    JobIDRaw column is an error (its id would not be unique).
 *  - a record is skipped, counted once, for the first of: malformed (only
 *    with lenient; otherwise an error naming file, line and value), a job
 *    step (JobID with '.'), another partition (opts->partition given and
 *    not among the Partition field's), never started (Start unknown or
 *    NodeList "None assigned": pending, cancelled before it started),
 *    unknown time (Submit unknown), unfinished (End unknown), run time
 *    <= 0, NNodes 0, more nodes than the machine.
 * The jobs come out sorted by submit time, ties in file order; runs[i]
 * holds what Slurm did with jobs[i].
 */
#ifndef TP_SACCT_H
#define TP_SACCT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "trace/workload.h"

typedef struct tp_sacct_opts {
	int nodes;             /* machine size in nodes; 0 = the distinct
				* nodes of the NodeLists */
	bool lenient;          /* skip and count malformed lines */
	const char *partition; /* keep only this partition's jobs; NULL: all */
	double scale_sizes;    /* NNodes x this (tp_workload_scale_nodes)
				* before the size check; 0 = as they are */
} tp_sacct_opts;

/* Records skipped for reasons SWF has no word for (the rest: w.skipped). */
typedef struct tp_sacct_skips {
	size_t steps;           /* job steps: 123.batch, 123.0, ... */
	size_t other_partition; /* not opts->partition's */
	char partitions[256];   /* those records' partitions, distinct,
				 * comma-separated, as many as fit: what a
				 * misspelt --partition may have meant */
	size_t not_started;     /* never started (pending, cancelled) */
	size_t unknown_time;    /* Submit unknown */
	size_t unfinished;      /* End unknown (still running) */
} tp_sacct_skips;

/* What Slurm did with one job: times relative like submit. */
typedef struct tp_sacct_run {
	int64_t start, end;
	char *nodelist;  /* as sacct printed it; NULL without the column */
	size_t line;     /* in the file, for messages */
} tp_sacct_run;

typedef struct tp_sacct {
	tp_workload w;
	tp_sacct_run *runs;     /* [w.njobs] */
	tp_sacct_skips skipped;
	int64_t epoch;          /* absolute time of submit 0 */
	const char *name;       /* the file, for messages */
} tp_sacct;

/* Reads path ("-" = standard input) into s, initialised here.  o may be
 * NULL (all defaults).  Returns 0, or -1 with "FILE:LINE: what 'value'"
 * in err and s left empty; tp_sacct_fini(s) is safe either way. */
int tp_sacct_read(const char *path, const tp_sacct_opts *o, tp_sacct *s,
		  tp_error *err);
/* Keep the jobs (and their runs) at [first, first + count), as
 * tp_workload_slice. */
int tp_sacct_slice(tp_sacct *s, size_t first, size_t count);
void tp_sacct_fini(tp_sacct *s);

/* Slurm's time forms, exposed for the tests: 0 and *v (seconds; -1 for
 * the unknown/unlimited words), or -1 when the text is no such value. */
int tp_sacct_parse_time(const char *s, int64_t *v);     /* Submit/... */
int tp_sacct_parse_elapsed(const char *s, int64_t *v);  /* [D-]HH:MM:SS */
int tp_sacct_parse_limit(const char *s, int64_t *v);    /* Timelimit */

#endif
