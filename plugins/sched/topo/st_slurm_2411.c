/* st_slurm_2411.c - sched/topo's calls that are Slurm 24.11's own; see
 * st_slurm.h.  The rest is shared: st_slurm_cons_tres.c (24.11 and later)
 * and st_slurm_lock5.c (the five-lock set). */
#include "st_slurm.h"

#include "src/common/macros.h"
#include "src/common/read_config.h"
#include "src/slurmctld/job_scheduler.h"

bool st_slurm_rc_waits(int rc)
{
	return rc == ESLURM_PORTS_BUSY || rc == ESLURM_MAX_POWERED_NODES ||
	       rc == ESLURM_LICENSES_UNAVAILABLE;
}

int st_slurm_requeue(job_record_t *j)
{
	return job_requeue(slurm_conf.slurm_user_id, j->job_id, NULL, false, 0);
}

void st_slurm_thread_create(pthread_t *tid, const char *name,
			    void *(*fn)(void *))
{
	(void)name; /* threads have no names here */
	slurm_thread_create(tid, fn, NULL);
}
