/* st_slurm_2205.c - sched/topo's release-specific calls, Slurm 22.05; see
 * st_slurm.h.  The lock set is st_slurm_lock5.c. */
#include "st_slurm.h"

#include "src/common/power.h"
#include "src/common/macros.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/preempt.h"
#include "src/slurmctld/reservation.h"
#include "src/slurmctld/srun_comm.h"

const char *st_slurm_machine_plugin(void)
{
	return slurm_conf.select_type;
}

void st_slurm_drop_powered_down(bitstr_t *b)
{
	if (power_node_bitmap)
		bit_and_not(b, power_node_bitmap);
}

int st_slurm_test_resv(job_record_t *j, time_t *when, bitstr_t **avail)
{
	bitstr_t *exc_core = NULL;
	bool overlap = false;
	int rc = job_test_resv(j, when, false, avail, &exc_core, &overlap,
			       false);
	FREE_NULL_BITMAP(exc_core);
	return rc;
}

/* 22.05's select_nodes() leaves licenses to its callers (schedule() and
 * sched/backfill test them first): a job whose licenses are in use would
 * start anyway.  Refused here as they refuse it, with their reason. */
int st_slurm_select_nodes(job_record_t *j, bool fill)
{
	if (license_job_test(j, time(NULL), false) != SLURM_SUCCESS) {
		j->state_reason = WAIT_LICENSES;
		xfree(j->state_desc);
		return ESLURM_NODES_BUSY;
	}
	return select_nodes(j, false, NULL, NULL, false,
			    fill ? SLURMDB_JOB_FLAG_BACKFILL :
				   SLURMDB_JOB_FLAG_SCHED);
}

int st_slurm_test_start(job_record_t *j)
{
	return select_nodes(j, true, NULL, NULL, false,
			    SLURMDB_JOB_FLAG_SCHED);
}

/* Licenses in use are ESLURM_NODES_BUSY on 22.05. */
bool st_slurm_rc_waits(int rc)
{
	return rc == ESLURM_PORTS_BUSY;
}

bool st_slurm_may_change(job_record_t *j)
{
	return j->resv_ptr || j->part_ptr_list;
}

void st_slurm_launch(job_record_t *j)
{
	power_g_job_start(j);
	if (j->batch_flag == 0)
		srun_allocate(j);
	else if (!IS_JOB_CONFIGURING(j))
		launch_job(j);
}

bool st_slurm_may_preempt(job_record_t *j)
{
	if (!slurm_preemption_enabled())
		return false;
	List c = slurm_find_preemptable_jobs(j);
	bool any = c && list_count(c) > 0;
	FREE_NULL_LIST(c);
	return any;
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
