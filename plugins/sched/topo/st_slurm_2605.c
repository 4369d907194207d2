/* st_slurm_2605.c - sched/topo's release-specific calls, Slurm 26.05; see
 * st_slurm.h.  Placement itself is the topology plugin's there
 * (topology/fattree, topology/torus under select/cons_tres).  What differs
 * from 24.11: job_requeue() is gone (25.11), the slurmctld lock set has a
 * select_node lock, threads are named (threadpool.h). */
#include "st_slurm.h"

#include "src/common/macros.h"
#include "src/common/read_config.h"
#include "src/common/threadpool.h"
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

/* 26.05 powers nodes up inside select_nodes (node_mgr). */
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

/* What `scontrol requeue` does for each job (job_requeue2 ->
 * job_requeue_internal), with SlurmUser's authority and no flags: the job
 * goes back to the queue (JOB_REQUEUE), not held.  We hold the record
 * already, so no look-up by id (job_requeue_external). */
int st_slurm_requeue(job_record_t *j)
{
	return job_requeue_internal(slurm_conf.slurm_user_id, j, false, 0);
}

/* sched/backfill's lock set on 26.05: read config and partitions, write
 * jobs and nodes, read federation, write the select-node lock (cons_tres's
 * node usage, which select_nodes changes). */
static slurmctld_lock_t cycle_locks = {
	.conf = READ_LOCK, .job = WRITE_LOCK, .node = WRITE_LOCK,
	.part = READ_LOCK, .fed = READ_LOCK, .select_node = WRITE_LOCK,
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
	slurm_thread_create(name, tid, fn, NULL);
}
