/*
 * limits.h - QOS and association limits on what may run and what may
 * be submitted (Slurm's accounting policy, AccountingStorageEnforce=
 * limits): a job whose start would take its user's running jobs, CPUs or
 * nodes in its QOS past MaxJobsPU or MaxTRESPU, the QOS's own past
 * GrpJobs or GrpTRES, its association's running jobs past MaxJobs, or
 * any ancestor association's (its subtree's) past GrpJobs or GrpTRES,
 * waits without blocking anyone (Slurm's reasons QOSMaxJobsPerUserLimit,
 * QOSGrpCpuLimit, AssocMaxJobsLimit, AssocGrpCpuLimit, ...).  A job
 * whose submission would take the pending and running jobs past
 * MaxSubmitJobsPU or GrpSubmitJobs of its QOS, or MaxSubmitJobs or
 * GrpSubmitJobs of its associations, is refused at submission.
 *
 * As in slurmctld's acct_policy.c, a QOS limit takes precedence: an
 * association limit of a kind (jobs, submitted jobs, CPUs, nodes) is
 * checked only when the job's QOS sets none of that kind; an
 * association's Max limits are its own or, unset, its nearest
 * ancestor's (slurmctld pre-propagates them; tp_limits_propagate).
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
	int64_t max_submit_pu, grp_submit;
} tp_qos_limits;

#define TP_QOS_NO_LIMITS ((tp_qos_limits){ -1, -1, -1, -1, -1, -1, -1, -1 })

/* One association's limits; -1: none.  Max limits apply to the job's
 * own association, Grp limits to every association on its path to the
 * root, each over its subtree's jobs. */
typedef struct tp_assoc_limits {
	int64_t max_jobs, max_submit;
	int64_t grp_jobs, grp_submit, grp_cpus, grp_nodes;
} tp_assoc_limits;

#define TP_ASSOC_NO_LIMITS ((tp_assoc_limits){ -1, -1, -1, -1, -1, -1 })

typedef struct tp_usage {
	int64_t jobs, cpus, nodes;
} tp_usage;

/* QOS 0..nqos-1, users 0..nusers-1 (any dense numbering) and
 * associations 0..nassoc-1 (parents before children). */
typedef struct tp_limits {
	const tp_qos_limits *qos;  /* [nqos], the caller's */
	size_t nqos, nusers;
	tp_usage *run_user, *run_qos;   /* running: [nqos * nusers], [nqos] */
	tp_usage *pass_user, *pass_qos; /* passed in this pass */
	int64_t *sub_user, *sub_qos;    /* submitted (pending or running) */
	const tp_assoc_limits *assoc;   /* [nassoc], the caller's; NULL: none */
	const int32_t *parent;          /* [nassoc], -1 for the root */
	size_t nassoc;
	tp_usage *run_assoc, *pass_assoc; /* each over its subtree */
	int64_t *sub_assoc;
} tp_limits;

/* Who a job is to the limits: its QOS, user and association (each -1 or
 * out of range: none, never held by that table's limits). */
typedef struct tp_limits_who {
	int32_t qos, user, assoc;
} tp_limits_who;

/* 0, or -1 on ENOMEM. */
int tp_limits_init(tp_limits *l, const tp_qos_limits *qos, size_t nqos,
		   size_t nusers);
/* Adds association limits (the caller's arrays, propagated): 0, or -1 on
 * ENOMEM. */
int tp_limits_init_assoc(tp_limits *l, const tp_assoc_limits *assoc,
			 const int32_t *parent, size_t nassoc);
void tp_limits_fini(tp_limits *l);

/* Each association's unset Max limits from its nearest ancestor that
 * sets them (slurmctld's pre-propagation); parents before children. */
void tp_limits_propagate(tp_assoc_limits *assoc, const int32_t *parent,
			 size_t nassoc);

/* No usage: a new replay. */
void tp_limits_reset(tp_limits *l);

/* Whether any QOS has a limit (a replay without one need not ask). */
bool tp_limits_any(const tp_qos_limits *qos, size_t nqos);
bool tp_limits_any_assoc(const tp_assoc_limits *assoc, size_t nassoc);

/* A job starts (sign 1) or ends (sign -1) with `cpus` CPUs on `nodes`
 * nodes. */
void tp_limits_charge(tp_limits *l, tp_limits_who w, int64_t cpus,
		      int64_t nodes, int sign);

/* A job is submitted: whether the submit limits let it in; if so it is
 * counted until tp_limits_leave (when it ends, or is dropped). */
bool tp_limits_submit(tp_limits *l, tp_limits_who w);
void tp_limits_leave(tp_limits *l, tp_limits_who w);

/* A new pass: nothing passed yet. */
void tp_limits_pass_begin(tp_limits *l);

/* Whether the job may be tried in this pass; if so, its room is held
 * for the rest of the pass. */
bool tp_limits_pass(tp_limits *l, tp_limits_who w, int64_t cpus,
		    int64_t nodes);

#endif
