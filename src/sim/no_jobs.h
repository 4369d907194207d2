/*
 * no_jobs.h - a workload with no job left to replay.  A misspelt
 * --partition, a header-only sacct file or an empty trace used to replay
 * nothing and exit 0 with means of 0; now it is an error that says why
 * (what was skipped, the partitions there are), unless --allow-empty
 * asks for the empty result, whose statistics are then null.
 */
#ifndef SIM_NO_JOBS_H
#define SIM_NO_JOBS_H

#include "args.h"
#include "base/error.h"
#include "trace/sacct.h"
#include "trace/workload.h"

/* 0 when w has a job or c allows none; else -1 with err saying why
 * (s: the sacct file's skips, NULL for SWF). */
int sim_check_jobs(const sim_config *c, const tp_workload *w,
		   const tp_sacct *s, tp_error *err);

#endif
