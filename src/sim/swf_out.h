/*
 * swf_out.h - the simulated schedule as a Standard Workload Format trace
 * (SWF 2.2, the Parallel Workloads Archive's format), so that the
 * Archive's tools and any SWF reader analyse a replay as they analyse a
 * recorded log.
 */
#ifndef TP_SIM_SWF_OUT_H
#define TP_SIM_SWF_OUT_H

#include <stdio.h>

#include "engine/engine.h"

typedef struct sim_swf_info {
	const char *workload, *policy, *alloc;
	int nodes, ppn;      /* the machine; ppn 0: 1 */
} sim_swf_info;

/*
 * Header comments (Version, Computer, Conversion, MaxJobs, MaxRecords,
 * Preemption, MaxNodes, MaxProcs, Note), then one 18-field line per run
 * in submit order: the job's number, the simulated submit, wait
 * (start - submit) and run (end - start) times, processors allocated and
 * requested (nodes x ppn), the limit the run started with, status (1
 * completed, 0 killed at its limit; a resubmitted job's runs 2, then 3 or
 * 4 for the last), -1 for what the replay does not know.  -1 on a write
 * error or out of memory.
 */
int sim_write_swf(FILE *fp, const tp_sim_result *r, const sim_swf_info *in);

#endif
