/* st_slurm_lock5.c - the cycle's lock set where slurmctld has five locks
 * (22.05 through 25.05; 26.05 adds the select-node lock, st_slurm_2605.c);
 * see st_slurm.h. */
#include "st_slurm.h"

#include "src/slurmctld/locks.h"

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
