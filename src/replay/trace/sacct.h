/*
 * sacct.h - a site's Slurm accounting history (`sacct -P` output) read as
 * a workload, with what Slurm actually did with each job beside it.
 *
 * Conventions (documented for users in toposim(1), SACCT WORKLOADS):
 *  - the first non-empty line is sacct's header; it maps the columns, so
 *    their order may vary and unknown columns are ignored.  Required:
 *    JobID, Submit, Start, End, NNodes.  Used when present: JobIDRaw,
 *    Elapsed or ElapsedRaw, Timelimit or TimelimitRaw, NCPUS, Partition,
 *    State, NodeList, and kept with each job (tp_sacct_res): ReqCPUS,
 *    ReqMem, ReqTRES, AllocTRES, QOS, Account, User, Priority.  A column
 *    named twice, or sacct's fixed-width output (no '|'), is an error;
 *  - every other non-empty line has the header's number of '|'-separated
 *    fields;
 *  - times: ISO "YYYY-MM-DDTHH:MM:SS" (read as UTC: run sacct with TZ=UTC
 *    so that daylight-saving jumps do not distort waits) or seconds since
 *    the epoch (SLURM_TIME_FORMAT=%s); "Unknown", "None" and "" are
 *    unknown.  Submit times are made relative to the earliest kept one;
 *  - the run time is End - Start; Elapsed "[D-]HH:MM:SS" (ElapsedRaw:
 *    seconds) is used instead when shorter (time suspended), and a
 *    difference either way is counted (tp_sacct_warnings);
 *  - the nodes are NodeList's count when it is given, NNodes otherwise;
 *    a difference is counted;
 *  - Timelimit "[D-]H[:M[:S]]", "M", "M:S" (TimelimitRaw: minutes) is the
 *    estimate; "UNLIMITED" and "Partition_Limit" are the partition's
 *    MaxTime when opts->limits gives one (counted), otherwise, as
 *    "INVALID" and "", they count in w->estimate_missing and the run time
 *    stands in;
 *  - ReqMem: a number of MB with an optional unit (K, M, G, T, P) and,
 *    as Slurm before 21.08 wrote it, 'n' (per node) or 'c' (per CPU);
 *    without either the job's total (21.08 on).  TRES strings
 *    "cpu=8,mem=16G,node=1,gres/gpu=2,...": cpu, mem, node and gres/gpu
 *    are read, the rest ignored;
 *  - JobID "N", "N_I" (array task), "N_[...]" (pending array), "N+K"
 *    (heterogeneous component), any of them with ".STEP"; the job's id is
 *    JobIDRaw when present, else N; an array task or component without a
 *    JobIDRaw column is an error (its id would not be unique).
 *  - a record is skipped, counted once, for the first of: malformed (only
 *    with lenient; otherwise an error naming file, line and value), a job
 *    step (JobID with '.'), another partition (opts->partition given and
 *    not among the Partition field's), never started (Start unknown or
 *    NodeList "None assigned": pending, cancelled before it started),
 *    unknown time (Submit unknown), unfinished (End unknown), a job id
 *    seen before (the first record kept, counted), run time <= 0,
 *    NNodes 0, more nodes than the machine.
 * The jobs come out sorted by submit time, ties in file order; runs[i]
 * holds what Slurm did with jobs[i].
 */
#ifndef TP_SACCT_H
#define TP_SACCT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "trace/workload.h"

/* A partition's MaxTime, for the UNLIMITED and Partition_Limit limits. */
typedef struct tp_sacct_limit {
	const char *partition;
	int64_t max_time;      /* s; < 0 unlimited */
} tp_sacct_limit;

typedef struct tp_sacct_opts {
	int nodes;             /* machine size in nodes; 0 = the distinct
				* nodes of the NodeLists */
	bool lenient;          /* skip and count malformed lines */
	const char *partition; /* keep only this partition's jobs; NULL: all */
	double scale_sizes;    /* NNodes x this (tp_workload_scale_nodes)
				* before the size check; 0 = as they are */
	const tp_sacct_limit *limits; /* the site's partitions; may be NULL */
	size_t nlimits;
	/* The nodes of `partition` (slurm.conf): another partition's job that
	 * ran on one of them is counted (tp_sacct_warnings.overlap). */
	char *const *partition_nodes;
	size_t npartition_nodes;
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
	size_t duplicate;       /* a job id seen before */
} tp_sacct_skips;

/* How many records said something a reader must choose about, and the
 * first one's line. */
typedef struct tp_sacct_count {
	size_t n;
	size_t first_line;
} tp_sacct_count;

/* Records that contradict themselves or lack a value, and which value
 * the replay took (toposim prints each with its count). */
typedef struct tp_sacct_warnings {
	tp_sacct_count nnodes;         /* NNodes != NodeList's count: NodeList's */
	tp_sacct_count elapsed_long;   /* Elapsed > End - Start: End - Start */
	tp_sacct_count elapsed_short;  /* Elapsed < End - Start: Elapsed */
	tp_sacct_count duplicate;      /* id seen before: the first record */
	tp_sacct_count limit_partition; /* UNLIMITED, Partition_Limit: MaxTime */
	tp_sacct_count limit_missing;  /* no limit at all: the run time */
	tp_sacct_count overlap;        /* other partitions' jobs that ran on
					* the partition's nodes: not replayed */
} tp_sacct_warnings;

#define TP_SACCT_UNKNOWN (-1)

/* What memory a request counts. */
typedef enum tp_sacct_mem_per {
	TP_SACCT_MEM_JOB,   /* the job's total (ReqMem since Slurm 21.08) */
	TP_SACCT_MEM_NODE,  /* "Mn" */
	TP_SACCT_MEM_CPU,   /* "Mc" */
} tp_sacct_mem_per;

/* What one job asked and was given beyond its node count, and who asked
 * (TP_SACCT_UNKNOWN where the file does not say). */
typedef struct tp_sacct_res {
	int32_t req_cpus;    /* ReqCPUS, else ReqTRES cpu= */
	int32_t alloc_cpus;  /* AllocTRES cpu=, else NCPUS */
	int32_t tres_alloc_cpus; /* AllocTRES cpu= alone, 0: not given */
	int64_t req_mem;     /* MB: ReqMem, else ReqTRES mem= */
	tp_sacct_mem_per mem_per;
	int32_t req_gpus;    /* ReqTRES gres/gpu= */
	int32_t alloc_gpus;  /* AllocTRES gres/gpu= */
	int32_t req_nodes;   /* NNodes as the file has it */
	int32_t min_nodes;   /* ReqTRES node=: the least asked (job size) */
	/* Indices into tp_sacct.names. */
	int32_t partition, qos, account, user;
	int64_t priority;    /* Priority */
} tp_sacct_res;

/* What Slurm did with one job: times relative like submit. */
typedef struct tp_sacct_run {
	int64_t start, end;
	char *nodelist;  /* as sacct printed it; NULL without the column */
	size_t line;     /* in the file, for messages */
	tp_sacct_res res;
} tp_sacct_run;

typedef struct tp_sacct {
	tp_workload w;
	tp_sacct_run *runs;     /* [w.njobs] */
	tp_sacct_skips skipped;
	tp_sacct_warnings warn;
	/* Partition, QOS, account and user names (tp_sacct_res's indices). */
	char **names;
	size_t nnames;
	/* The partitions of the jobs kept: indices into names, first seen
	 * first. */
	int32_t *parts;
	size_t nparts;
	/* The distinct NodeList names of the jobs read (kept or not), in
	 * first-seen order; the machine's size was counted from them when
	 * nodes_counted (opts->nodes 0). */
	char **nodes;
	size_t nnodes;
	bool nodes_counted;
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
/* ReqMem or a TRES mem= value: MB (rounded up) and what it is per. */
int tp_sacct_parse_mem(const char *s, int64_t *mb, tp_sacct_mem_per *per);
/* A TRES string's count of `name` ("cpu", "node", "gres/gpu"; "mem" in
 * MB): 0 and *v (TP_SACCT_UNKNOWN when absent), or -1 when malformed. */
int tp_sacct_tres(const char *tres, const char *name, int64_t *v);

#endif
