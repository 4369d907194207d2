/*
 * st_refuse.h - a start a policy decided that slurmctld refused: told
 * "never runnable" from "not now" as Slurm's own main scheduler tells
 * them (driver/refusal.h has the rule), and acted on:
 *  - never: the job cannot run on any node it may use either, so it is
 *    held as schedule() holds it (Reason=BadConstraints, priority 0) and
 *    leaves the queue until someone changes it (scontrol update or
 *    release gives it its priority back, as for any such job);
 *  - not now: Slurm's own reason stays (Resources, Licenses, ...); the
 *    job sits out the passes for a while (topo_period, doubling, at most
 *    16 periods) so the jobs behind it are decided without it.
 * Either is logged once per job (and cause), not every cycle.
 * Callers hold slurmctld's locks.
 */
#ifndef ST_REFUSE_H
#define ST_REFUSE_H

#include <time.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */
#include "src/common/bitstring.h"
#include "src/slurmctld/slurmctld.h"

#include "st_ctx.h"

/* select_nodes() refused `j`, decided on `want` in partition p, with rc. */
void st_refuse_start(st_ctx *x, job_record_t *j, part_record_t *p,
		     bitstr_t *want, int rc, time_t now);

/* Does `j` sit out this cycle's passes after a refusal "not now"? */
bool st_refuse_sits_out(st_ctx *x, job_record_t *j, time_t now);

/* The sit-outs for `period` seconds between cycles. */
void st_refuse_set_period(st_ctx *x, int period);

#endif
