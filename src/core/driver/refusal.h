/*
 * refusal.h - a start a policy decided that the executor (slurmctld)
 * refused: "never runnable" or "not now", and what the driver does next.
 *
 * A policy decides starts on its model of the machine; the executor has
 * the last word and may refuse.  Slurm's own main scheduler tells two
 * kinds apart (job_scheduler.c, schedule()): a job no configuration can
 * ever hold is held (Reason=BadConstraints) until someone changes it,
 * while a job that only cannot start now (its nodes busy or down, a
 * reservation, licenses, a QOS or accounting limit, the partition's
 * current limits) stays in the queue and the jobs behind it are tried.
 * Slurm never holds a job that has a reservation or several partitions,
 * or whose constraints may be met later: its "never" is only about that
 * partition or that moment.
 *
 * Both kinds are rules free of Slurm: the driver maps the executor's
 * code to a tp_refusal_cause, asks tp_refusal_judge(), and keeps a
 * tp_refusals table so that a job refused "not now" sits out the passes
 * for a while (doubling, bounded) instead of being decided, and refused,
 * every cycle while the jobs behind it wait, and so that each job's
 * refusal is reported once, not every cycle.
 */
#ifndef TP_REFUSAL_H
#define TP_REFUSAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/id_table.h"

/* Why the executor refused, in the driver's terms. */
typedef enum tp_refusal_cause {
	TP_REFUSED_BUSY,      /* nodes or resources taken or unavailable now
			       * (busy, down, reserved, licenses, ports) */
	TP_REFUSED_LIMIT,     /* a limit that lifts when other jobs end
			       * (accounting policy, QOS) */
	TP_REFUSED_PARTITION, /* the partition's limits as configured now */
	TP_REFUSED_NEVER,     /* no configuration can hold the job */
} tp_refusal_cause;

typedef enum tp_refusal_verdict {
	TP_REFUSAL_NOT_NOW, /* stays queued; sits out a while */
	TP_REFUSAL_NEVER,   /* held until the job changes */
} tp_refusal_verdict;

/* What the driver knows of one refusal. */
typedef struct tp_refusal_facts {
	/* The refusal of the start on the nodes the policy chose. */
	tp_refusal_cause placed;
	/* The same job asked again on every node it may use (the executor's
	 * own choice, not the policy's): only asked when placed is NEVER,
	 * since a narrowed choice can be "never" where the job is not. */
	bool asked_anywhere;
	tp_refusal_cause anywhere;
	bool anywhere_ok;     /* ... and it was accepted */
	/* A reservation, several partitions, or constraints that may be met
	 * later: the executor's "never" is about now or one partition. */
	bool may_change;
} tp_refusal_facts;

/* NEVER only when the start was refused as never runnable on the chosen
 * nodes AND on every node the job may use, and nothing about the job may
 * make it runnable later; NOT_NOW otherwise. */
tp_refusal_verdict tp_refusal_judge(const tp_refusal_facts *f);

/* ---- the table of jobs refused "not now" -------------------------- */

typedef struct tp_refusal {
	int64_t job;      /* first: the table's id */
	int code;         /* the executor's code of the last refusal */
	int count;        /* refusals since its last report or change */
	int64_t retry_at; /* sits out the passes before this time */
	bool seen;        /* queued in the current cycle */
} tp_refusal;

typedef struct tp_refusals {
	tp_id_table jobs;  /* of tp_refusal */
	int64_t base;      /* first sit-out, s (>= 1) */
	int64_t max;       /* longest sit-out, s (>= base) */
} tp_refusals;

/* Sit-outs of base, 2 base, 4 base, ... up to max seconds. */
void tp_refusals_init(tp_refusals *t, int64_t base, int64_t max);
void tp_refusals_fini(tp_refusals *t);

/*
 * A refusal of `job` with the executor's `code` at `now`: it sits out
 * until now + its next sit-out.  1 when the refusal is to be reported
 * (the job's first, or a code other than its last), 0 for a repeat,
 * -1 on ENOMEM.
 */
int tp_refusals_note(tp_refusals *t, int64_t job, int code, int64_t now);
/* Does `job`, queued at `now`, sit out this pass?  Marks it seen. */
bool tp_refusals_sits_out(tp_refusals *t, int64_t job, int64_t now);
/* The job started, or was held: its entry goes. */
void tp_refusals_forget(tp_refusals *t, int64_t job);
/* The sit-out that follows `count` refusals in a row, s. */
int64_t tp_refusals_delay(const tp_refusals *t, int count);
/* Cycle bookkeeping, as for the fill table: clear every `seen`; after
 * the cycle, drop the jobs not queued any more (started, held, ended):
 * their number. */
void tp_refusals_unsee(tp_refusals *t);
size_t tp_refusals_drop_unseen(tp_refusals *t);

#endif
