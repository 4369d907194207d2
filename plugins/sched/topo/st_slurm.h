/*
 * st_slurm.h - the slurmctld calls of sched/topo that differ between Slurm
 * releases, one thin file per release: st_slurm_2205.c (22.05),
 * st_slurm_2411.c (24.11), st_slurm_2605.c (26.05).  Everything else in
 * sched/topo is the same code on all of them.
 */
#ifndef ST_SLURM_H
#define ST_SLURM_H

#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/bitstring.h"
#include "src/slurmctld/slurmctld.h"

/* The plugin whose machine sched/topo plans on: the SelectType on 22.05
 * (select/fattree, select/torus), the TopologyPlugin on 24.11 and 26.05
 * (topology/fattree, topology/torus). */
const char *st_slurm_machine_plugin(void);

/* Clear from `b` the nodes that are powered down. */
void st_slurm_drop_powered_down(bitstr_t *b);

/* The job's usable nodes as its reservation allows them at `*when`
 * (job_test_resv): SLURM_SUCCESS with *avail set (caller frees), or an
 * error code. */
int st_slurm_test_resv(job_record_t *j, time_t *when, bitstr_t **avail);

/* select_nodes() for a start sched/topo decided (the job's excluded
 * nodes already narrowed to its placement). */
int st_slurm_select_nodes(job_record_t *j, bool fill);

/* select_nodes() in test-only mode on every node the job may use (no
 * narrowing): would Slurm start it now, or why not.  Its return code. */
int st_slurm_test_start(job_record_t *j);

/* A return code of this release's that Slurm's main scheduler waits on
 * (does not hold the job for) beyond the ones every release has. */
bool st_slurm_rc_waits(int rc);

/* Could the job become runnable without being changed: a reservation,
 * several partitions, or (24.11 on) constraints Slurm treats as "maybe
 * later" (extra constraints, Reason=Constraints)?  Slurm never holds
 * those. */
bool st_slurm_may_change(job_record_t *j);

/* Slurm's preemption (PreemptType) is on and `j` has running jobs it may
 * preempt. */
bool st_slurm_may_preempt(job_record_t *j);

/* What slurmctld does after select_nodes() started a job: power up its
 * nodes where needed, answer srun/salloc or launch the batch script. */
void st_slurm_launch(job_record_t *j);

/* Requeue the running job `j` as `scontrol requeue` does (as
 * SlurmUser): SLURM_SUCCESS or an error code. */
int st_slurm_requeue(job_record_t *j);

/* Take and release the locks of one cycle, those sched/backfill takes:
 * read config and partitions, write jobs and nodes, read federation (and
 * on 26.05 write the select-node lock). */
void st_slurm_lock_cycle(void);
void st_slurm_unlock_cycle(void);

/* Start the agent thread (`name`: the thread's name where the release
 * names threads). */
void st_slurm_thread_create(pthread_t *tid, const char *name,
			    void *(*fn)(void *));

#endif
