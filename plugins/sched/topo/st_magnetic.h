/*
 * st_magnetic.h - MAGNETIC reservations (scontrol create reservation
 * Flags=MAGNETIC) in sched/topo.
 *
 * Such a reservation attracts jobs that name no reservation: Slurm's
 * schedulers try such a job first inside each MAGNETIC reservation that
 * would accept it, and only then as it asked.  build_job_queue() gives
 * the job one extra queue record per such reservation (rec->resv_ptr
 * set), which Slurm's queue order puts before every record without a
 * reservation; the scheduler names the reservation on the job while it
 * tries that record (job_queue_rec_magnetic_resv: resv_ptr, resv_name,
 * resv_id, JOB_MAGNETIC), so that select_nodes() gives it the reserved
 * nodes and the job runs in the reservation, and takes it off again when
 * the job did not start (job_resv_clear_magnetic_flag).  A job is tried
 * in a MAGNETIC reservation to start now only: sched/backfill plans no
 * later start there (without bf_allow_magnetic_slot).
 *
 * sched/topo does the same within each partition's pass: a job goes into
 * the pass inside the first of its MAGNETIC reservations that has room
 * for it now (st_part_cycle.c), else as it asked; a job still pending at
 * the pass's end loses the reservation again.  Callers hold slurmctld's
 * locks (st_cycle.h).
 */
#ifndef ST_MAGNETIC_H
#define ST_MAGNETIC_H

#include <stdbool.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/job_scheduler.h"

/* Is rec a job's extra queue record for a MAGNETIC reservation (the job
 * names none of its own)? */
bool st_magnetic_rec(const job_queue_rec_t *rec);

/* Name rec's reservation on its job for this pass. */
void st_magnetic_try(job_queue_rec_t *rec);

/* Does the job carry a MAGNETIC reservation sched/topo named on it? */
bool st_magnetic_trying(const job_record_t *j);

/* A job that did not start in its MAGNETIC reservation: the reservation
 * goes (a running job keeps it). */
void st_magnetic_drop(job_record_t *j);

#endif
