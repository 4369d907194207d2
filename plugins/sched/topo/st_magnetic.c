/* st_magnetic.c - MAGNETIC reservations in sched/topo; see st_magnetic.h. */
#include "config.h"

#include "st_magnetic.h"

#include "src/slurmctld/reservation.h"

bool st_magnetic_rec(const job_queue_rec_t *rec)
{
	const job_record_t *j = rec->job_ptr;
	return rec->resv_ptr && !j->resv_list &&
	       (!j->resv_name || (j->bit_flags & JOB_MAGNETIC));
}

void st_magnetic_try(job_queue_rec_t *rec)
{
	job_queue_rec_magnetic_resv(rec);
}

bool st_magnetic_trying(const job_record_t *j)
{
	return (j->bit_flags & JOB_MAGNETIC) != 0;
}

void st_magnetic_drop(job_record_t *j)
{
	job_resv_clear_magnetic_flag(j);
}
