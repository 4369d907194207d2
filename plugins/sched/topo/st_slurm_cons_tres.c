/* st_slurm_cons_tres.c - sched/topo's calls that are the same on every
 * release whose placement is a topology plugin under select/cons_tres
 * (24.11 and later); see st_slurm.h.  What differs between those
 * releases is in st_slurm_2411.c and st_slurm_2605.c. */
#include "st_slurm.h"

#include "src/common/read_config.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/interfaces/preempt.h"
#include "src/slurmctld/proc_req.h"
#include "src/slurmctld/reservation.h"

const char *st_slurm_machine_plugin(void)
{
	return slurm_conf.topology_plugin;
}

void st_slurm_drop_powered_down(bitstr_t *b)
{
	if (power_down_node_bitmap)
		bit_and_not(b, power_down_node_bitmap);
}

int st_slurm_test_resv(job_record_t *j, time_t *when, bitstr_t **avail)
{
	resv_exc_t exc = { 0 };
	bool overlap = false;
	int rc = job_test_resv(j, when, false, avail, &exc, &overlap, false);
	reservation_delete_resv_exc_parts(&exc);
	return rc;
}

int st_slurm_select_nodes(job_record_t *j, bool fill)
{
	job_node_select_t sel = { .job_ptr = j };
	return select_nodes(&sel, false, false,
			    fill ? SLURMDB_JOB_FLAG_BACKFILL :
				   SLURMDB_JOB_FLAG_SCHED);
}

int st_slurm_test_start(job_record_t *j)
{
	job_node_select_t sel = { .job_ptr = j };
	return select_nodes(&sel, true, false, SLURMDB_JOB_FLAG_SCHED);
}

bool st_slurm_may_change(job_record_t *j)
{
	return j->resv_ptr || j->part_ptr_list || j->extra_constraints ||
	       j->state_reason == FAIL_CONSTRAINTS;
}

/* 24.11 powers nodes up inside select_nodes (node_mgr). */
void st_slurm_launch(job_record_t *j)
{
	if (j->batch_flag == 0)
		srun_allocate(j);
	else if (!IS_JOB_CONFIGURING(j))
		launch_job(j);
}

bool st_slurm_may_preempt(job_record_t *j)
{
	if (!slurm_preemption_enabled())
		return false;
	list_t *c = slurm_find_preemptable_jobs(j);
	bool any = c && list_count(c) > 0;
	FREE_NULL_LIST(c);
	return any;
}
