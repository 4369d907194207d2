/* st_slurm_2411.c - sched/topo's release-specific calls, Slurm 24.11; see
 * st_slurm.h.  Placement itself is the topology plugin's there
 * (topology/fattree, topology/torus under select/cons_tres). */
#include "st_slurm.h"

#include "src/common/macros.h"
#include "src/common/read_config.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
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

int st_slurm_requeue(job_record_t *j)
{
	return job_requeue(slurm_conf.slurm_user_id, j->job_id, NULL, false, 0);
}

/* sched/backfill's lock set: read config and partitions, write jobs and
 * nodes, read federation. */
static slurmctld_lock_t cycle_locks = {
	.conf = READ_LOCK, .job = WRITE_LOCK, .node = WRITE_LOCK,
	.part = READ_LOCK, .fed = READ_LOCK,
};

void st_slurm_lock_cycle(void)
{
	lock_slurmctld(cycle_locks);
}

void st_slurm_unlock_cycle(void)
{
	unlock_slurmctld(cycle_locks);
}

void st_slurm_thread_create(pthread_t *tid, const char *name,
			    void *(*fn)(void *))
{
	(void)name; /* threads have no names here */
	slurm_thread_create(tid, fn, NULL);
}
