/*
 * swf.h - Standard Workload Format (SWF v2.2) traces: read into a
 * tp_workload, write one back (for the workload generators).
 *
 * Conventions (documented for users in toposim(1), INPUT CONVENTIONS):
 *  - header lines start with ';'; "MaxNodes:" and "MaxProcs:" are used,
 *    -1 means unknown; blank lines are ignored;
 *  - every other line has exactly 18 numeric fields (decimals accepted and
 *    truncated toward zero); anything else is malformed;
 *  - ppn = opts->ppn if > 0, else MaxProcs/MaxNodes (must divide exactly),
 *    else 1 when either is missing;
 *  - machine nodes = opts->nodes if > 0, else MaxNodes, else
 *    ceil(MaxProcs/ppn); none of these is an error;
 *  - procs = field 8 (requested) if > 0 else field 5 (allocated);
 *    nodes = ceil(procs/ppn), times opts->scale_sizes when set
 *    (tp_workload_scale_nodes);
 *  - estimate = field 9 (requested time; opts->estimate_field names
 *    another) if > 0 else the run time, counted in w->estimate_missing;
 *  - submit = field 2; negative is malformed;
 *  - a job is skipped, counted once in w->skipped, for the first of:
 *    malformed (only with lenient; otherwise an error), run time (field 4)
 *    <= 0, procs <= 0, nodes > machine nodes.
 * The jobs come out sorted by submit time, ties in file order.
 */
#ifndef TP_SWF_H
#define TP_SWF_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "trace/workload.h"

typedef struct tp_swf_opts {
	int nodes;    /* machine size in nodes; 0 = from the header */
	int ppn;      /* processors per node; 0 = from the header */
	bool lenient; /* skip and count malformed job lines instead of failing */
	int estimate_field; /* field (1-18) holding the requested time; 0 = 9 */
	double scale_sizes; /* every job's nodes x this (rounded, >= 1), before
			     * the size check; 0 = as they are */
} tp_swf_opts;

/* Reads path (plain or gzip-compressed; "-" = standard input) into w,
 * which is initialised here (its previous contents are not freed).  o may
 * be NULL (all defaults).  Returns 0, or -1 with "FILE:LINE: what 'value'"
 * in err and w left empty; tp_workload_fini(w) is safe either way. */
int tp_swf_read(const char *path, const tp_swf_opts *o, tp_workload *w,
		tp_error *err);

/* Writes w as SWF: header_comment (may be NULL; each of its lines is
 * prefixed with "; "), Version/MaxJobs/MaxRecords/MaxNodes/MaxProcs header
 * lines (MaxProcs = nodes * ppn, ppn 1 if unset), then one 18-field line
 * per job: id, submit, run time, procs = nodes * ppn in fields 5 and 8,
 * estimate in field 9, -1 elsewhere.  Returns 0, or -1 on a write error. */
int tp_swf_write(FILE *fp, const tp_workload *w, const char *header_comment);

#endif
