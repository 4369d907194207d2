/*
 * switches.h - --switches=N[@wait]: at most N leaf switches, for as long
 * as the job may wait for such a placement.
 *
 * Slurm's rule (its tree code and sched/backfill), in both drivers: the
 * wait starts the first time the job is considered; while it lasts the
 * job is placed on at most N node groups (leaf switches), and a job that
 * cannot be so placed now sits out the pass instead of blocking the
 * queue; once it is over the job runs on any nodes.  A machine without
 * node groups (flat, torus) has no such limit.
 */
#ifndef TP_SWITCHES_H
#define TP_SWITCHES_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "base/nodeset.h"
#include "model/job.h"

/* No end to the wait (the simulator's Switches=N without @WAIT). */
#define TP_SWITCH_WAIT_FOREVER INT64_MAX

/*
 * The group limit to place the job with at `now`: `req` (N) while its
 * wait, begun at `since`, lasts; 0 (none) once it is over, when req is 0
 * or when the machine has no node groups.  When the wait begins is the
 * driver's: the simulator's at arrival, Slurm's the first time a
 * scheduler considers the job (wait4switch_start).
 */
int tp_switch_limit(int64_t req, int64_t wait, int64_t since, int64_t now,
		    bool has_groups);

/*
 * Does `job` (max_groups: its limit now) sit out a pass on `free`?  Only
 * when it has a limit and no placement within it fits now.  `scratch`:
 * a set of the allocator's size.
 */
bool tp_switch_sits_out(tp_alloc *a, const tp_nodeset *free,
			const tp_job *job, tp_nodeset *scratch);

#endif
