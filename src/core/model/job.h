/*
 * job.h - a job as scheduling policies see it.
 *
 * Only what a real scheduler knows at decision time: size, requested time,
 * submit time.  The actual run time is the simulator's secret (see
 * engine.h) and never reaches a policy, so a policy behaves the same under
 * slurmctld, where nobody knows it.
 */
#ifndef TP_JOB_H
#define TP_JOB_H

#include <stdint.h>

typedef struct tp_job {
	int64_t id;        /* SWF job number / Slurm job id */
	int64_t submit;    /* seconds */
	int64_t estimate;  /* requested time (time limit), seconds, > 0 */
	int32_t nodes;     /* requested nodes, > 0 */
	int32_t seq;       /* arrival order (file order / priority tie-break) */
	void *owner;       /* caller's record (simulator job, Slurm job_record) */
} tp_job;

#endif
