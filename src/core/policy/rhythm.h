/*
 * rhythm.h - Slurm's scheduler rhythm: when passes run and how deep they
 * look (SchedulerParameters).
 *
 * The idealised policies run one pass over the whole queue at every
 * event.  slurmctld runs two schedulers instead: the main scheduler, at
 * submissions and ends and every sched_interval, starts jobs in priority
 * order over at most default_queue_depth of them, a job that cannot start
 * blocking the rest of its partition and its nodes; and the backfill scheduler, every
 * bf_interval, over at most bf_max_job_test jobs (bf_max_job_user per
 * user, bf_max_job_part per partition), reserving only within bf_window
 * and in slots of bf_resolution seconds (a reservation's end rounded up
 * to a slot's end, EASY's shadow down to its slot's start:
 * tp_cluster.slot).
 * The main scheduler's pass at an event looks at default_queue_depth
 * jobs, its periodic pass every sched_interval at the whole queue
 * (Slurm's schedule(full_queue)).  The driver (the simulator's engine)
 * owns the timing; the two passes' decisions are here, one function
 * each.
 */
#ifndef TP_RHYTHM_H
#define TP_RHYTHM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "model/cluster.h"
#include "policy/policy.h"

/* -1: never (sched_interval=-1: no main scheduler at all, as slurmctld's
 * schedule() returns at once; bf_interval=-1: no backfill pass); 0 for a
 * per-user or per-partition limit: none. */
typedef struct tp_rhythm {
	int64_t sched_interval;  /* s, Slurm's default 60 */
	int default_queue_depth; /* jobs, 100 */
	int64_t bf_interval;     /* s, 30 */
	int bf_max_job_test;     /* jobs, 500 */
	int bf_max_job_user;     /* jobs of one user, 0: no limit */
	int bf_max_job_part;     /* jobs of one partition, 0: no limit */
	int64_t bf_window;       /* s (bf_window is in minutes), 86400 */
	int64_t bf_resolution;   /* s, 60: backfill's time slots; 0: none */
} tp_rhythm;

/* Slurm's defaults (slurmctld's job_scheduler.c, backfill.c). */
tp_rhythm tp_rhythm_defaults(void);

/* The keys above read from a SchedulerParameters value (comma-separated
 * KEY=VALUE, keys case-insensitive, other keys left alone) over *r.
 * 0, or -1 with err naming the key and value out of Slurm's range. */
int tp_rhythm_parse(tp_rhythm *r, const char *sched_params, tp_error *err);

/* The passes of slurmctld's scheduler plugin over *r (read from
 * SchedulerParameters): sched/backfill keeps them; sched/builtin has no
 * backfill pass; sched/topo runs the policy's pass every `topo_period`
 * seconds over the whole queue with no window (the plugin's agent), the
 * main scheduler as its sched_interval says (the plugin asks for -1).
 * 0, or -1 with err when no pass would ever start a job (sched/builtin
 * with sched_interval=-1) or the name is none of the three. */
int tp_rhythm_scheduler(tp_rhythm *r, const char *sched_type,
			int topo_period, tp_error *err);

/* The main scheduler's pass: the first default_queue_depth queued jobs
 * (every queued job when `full`, the periodic pass) in order; each starts if it can be placed now, else its partition
 * (tp_job.part) is blocked and its later jobs are passed over.  Jobs
 * started, -1 on ENOMEM. */
long tp_rhythm_main(tp_cluster *c, const tp_rhythm *r, bool full);

/* The backfill scheduler's pass: policy p's pass over the jobs backfill
 * tests (queue order: the first bf_max_job_test, skipping a job whose
 * user (tp_job.user) or partition already has bf_max_job_user or
 * bf_max_job_part tested); the jobs not tested keep their places.  A
 * reservation later than now + bf_window is not made: every tested job
 * that can be placed then starts.  Reservations keep to slots of
 * bf_resolution (c->slot during the pass).  0, or -1 on ENOMEM. */
int tp_rhythm_backfill(tp_policy *p, tp_cluster *c, const tp_rhythm *r);

/* The next multiple of `period` after `now` (a scheduler's wake-up),
 * INT64_MAX for a period <= 0. */
int64_t tp_rhythm_next(int64_t now, int64_t period);

#endif
