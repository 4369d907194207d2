/*
 * limits.h - QOS limits on what may run (Slurm's accounting policy,
 * AccountingStorageEnforce=limits): a job whose start would take its
 * user's running jobs, CPUs or nodes in its QOS past MaxJobsPU or
 * MaxTRESPU, or the QOS's own past GrpJobs or GrpTRES, waits without
 * blocking anyone (Slurm's reasons QOSMaxJobsPerUserLimit,
 * QOSMaxCpuPerUserLimit, QOSGrpCpuLimit, ...).
 *
 * A pass asks once per queued job, in queue order, before it runs: a
 * job passes when the running usage plus what the jobs passed before it
 * in this pass would take leaves room for it (so two jobs of one user
 * under MaxJobsPU=1 never start in one pass).  Slurm checks each job
 * when it tries it; here a job passed but not started still holds its
 * room until the next pass, so a later job of the same user may wait one
 * pass longer than under Slurm.
 */
#ifndef TP_LIMITS_H
#define TP_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One QOS's limits; -1: none. */
typedef struct tp_qos_limits {
	int64_t max_jobs_pu, max_cpus_pu, max_nodes_pu;
	int64_t grp_jobs, grp_cpus, grp_nodes;
} tp_qos_limits;

#define TP_QOS_NO_LIMITS ((tp_qos_limits){ -1, -1, -1, -1, -1, -1 })

typedef struct tp_usage {
	int64_t jobs, cpus, nodes;
} tp_usage;

/* QOS 0..nqos-1 and users 0..nusers-1 (any dense numbering). */
typedef struct tp_limits {
	const tp_qos_limits *qos;  /* [nqos], the caller's */
	size_t nqos, nusers;
	tp_usage *run_user, *run_qos;   /* running: [nqos * nusers], [nqos] */
	tp_usage *pass_user, *pass_qos; /* passed in this pass */
} tp_limits;

/* 0, or -1 on ENOMEM. */
int tp_limits_init(tp_limits *l, const tp_qos_limits *qos, size_t nqos,
		   size_t nusers);
void tp_limits_fini(tp_limits *l);

/* No usage: a new replay. */
void tp_limits_reset(tp_limits *l);

/* Whether any QOS has a limit (a replay without one need not ask). */
bool tp_limits_any(const tp_qos_limits *qos, size_t nqos);

/* A job of QOS `qos` (-1 or out of range: none, never held) and user
 * starts (sign 1) or ends (sign -1) with `cpus` CPUs on `nodes` nodes. */
void tp_limits_charge(tp_limits *l, int32_t qos, int32_t user, int64_t cpus,
		      int64_t nodes, int sign);

/* A new pass: nothing passed yet. */
void tp_limits_pass_begin(tp_limits *l);

/* Whether the job may be tried in this pass; if so, its room is held
 * for the rest of the pass. */
bool tp_limits_pass(tp_limits *l, int32_t qos, int32_t user, int64_t cpus,
		    int64_t nodes);

#endif
