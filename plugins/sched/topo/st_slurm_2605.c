/* st_slurm_2605.c - sched/topo's calls that are Slurm 26.05's own; see
 * st_slurm.h.  What differs from 24.11: job_requeue() is gone (25.11),
 * the slurmctld lock set has a select_node lock, threads are named
 * (threadpool.h).  The rest is st_slurm_cons_tres.c. */
#include "st_slurm.h"

#include "src/common/macros.h"
#include "src/common/read_config.h"
#include "src/common/threadpool.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"

/* 26.05's schedule() also waits on the topology's errors (IS_TOPO_ERROR). */
bool st_slurm_rc_waits(int rc)
{
	return rc == ESLURM_PORTS_BUSY || rc == ESLURM_MAX_POWERED_NODES ||
	       rc == ESLURM_LICENSES_UNAVAILABLE || IS_TOPO_ERROR(rc);
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
