/*
 * prio.h - a pending job's priority as Slurm's priority/multifactor
 * computes it, from its factors and slurm.conf's weights.
 *
 * The formulas are those of Slurm's documentation (priority_multifactor)
 * and, where its source defines an order or a rounding, that one: each
 * factor in [0, 1] times its weight, added up in the order age, assoc,
 * fairshare, job size, partition, QOS, TRES, then + site - nice, in
 * double precision; below 1 it is 1 (0 is for held jobs), above 2^32 - 1
 * it is 2^32 - 1, and the sum is truncated to a whole number.
 *
 * Age: (now - eligible) / PriorityMaxAge, at most 1; 0 before eligible.
 * Job size (default): favouring large jobs, (nodes / machine nodes +
 * cpus / machine CPUs) / 2; with PriorityFavorSmall, ((machine nodes -
 * nodes) / machine nodes, 0 when not above, + (machine CPUs - cpus) /
 * machine CPUs) / 2; without a CPU count only the node term, not halved.
 * With PriorityFlags=SMALL_RELATIVE_TO_TIME: max(nodes x machine CPUs /
 * machine nodes, cpus) / time limit in minutes / machine CPUs (1 minus
 * it favouring small).  Clamped to [0, 1].
 * Partition: PriorityJobFactor / the largest PriorityJobFactor of the
 * site's partitions (NO_NORMAL_PART: the factor itself).  QOS and
 * association: their priority / the largest (NO_NORMAL_QOS,
 * NO_NORMAL_ASSOC: as they are).  Fairshare: Fair Tree's (fairtree.h).
 * TRES: each weight times the job's count / the partition's total
 * (NO_NORMAL_TRES: the count).
 *
 * Slurm-free: the simulator fills the factors' inputs from its replay,
 * sched/topo's live test from Slurm's own records, and both get the same
 * number.
 */
#ifndef TP_PRIO_H
#define TP_PRIO_H

#include <stdbool.h>
#include <stdint.h>

#define TP_PRIO_MAX UINT32_MAX

/* PriorityFlags that change the formulas. */
enum {
	TP_PRIO_SIZE_RELATIVE = 1 << 0,  /* SMALL_RELATIVE_TO_TIME */
	TP_PRIO_NO_NORMAL_PART = 1 << 1,
	TP_PRIO_NO_NORMAL_QOS = 1 << 2,
	TP_PRIO_NO_NORMAL_ASSOC = 1 << 3,
	TP_PRIO_NO_NORMAL_TRES = 1 << 4,
};

/* The TRES with a weight here (PriorityWeightTRES=CPU=...,Mem=...,
 * Node=...,GRES/gpu=...). */
enum { TP_TRES_CPU, TP_TRES_MEM, TP_TRES_NODE, TP_TRES_GPU, TP_TRES_N };

/* slurm.conf's priority settings. */
typedef struct tp_prio_conf {
	uint32_t w_age, w_assoc, w_fs, w_js, w_part, w_qos;
	double w_tres[TP_TRES_N];
	uint32_t max_age;      /* PriorityMaxAge, s (Slurm's default 7 days) */
	bool favor_small;      /* PriorityFavorSmall */
	unsigned flags;        /* TP_PRIO_* */
	/* The machine job size is measured against: the nodes and CPUs of
	 * the site's nodes that are up. */
	uint32_t nodes, cpus;
} tp_prio_conf;

/* Slurm's defaults (every weight 0, PriorityMaxAge 7-0). */
void tp_prio_conf_default(tp_prio_conf *c);

/* What a job's factors are computed from. */
typedef struct tp_prio_in {
	int64_t now;
	int64_t eligible;      /* accrue time: since when it could run;
				* <= 0: no age */
	uint32_t nodes;        /* minimum nodes */
	uint32_t cpus;         /* CPUs asked (0: unknown) */
	uint32_t time_limit;   /* minutes, for SIZE_RELATIVE (0: 1) */
	/* The partition's PriorityJobFactor and the site's largest. */
	uint32_t part_factor, part_factor_max;
	/* The QOS's and association's priority and the largest of each. */
	uint32_t qos_prio, qos_prio_max;
	uint32_t assoc_prio, assoc_prio_max;
	double fairshare;      /* Fair Tree's factor, [0, 1] */
	int64_t tres[TP_TRES_N];      /* the job's counts (memory MB) */
	int64_t part_tres[TP_TRES_N]; /* its partition's totals */
	int64_t nice;          /* --nice: subtracted */
	int64_t site;          /* site factor: added */
} tp_prio_in;

/* The factors before weighting, as sprio's normalised columns show them,
 * and the priority. */
typedef struct tp_prio_factors {
	double age, assoc, fs, js, part, qos;
	double tres;           /* weighted already: the sum over TRES */
	uint32_t priority;
} tp_prio_factors;

/* The job's factors and priority under c. */
void tp_prio_compute(const tp_prio_conf *c, const tp_prio_in *in,
		     tp_prio_factors *out);

/* The age factor alone (for the tests and the factors' print-out). */
double tp_prio_age(const tp_prio_conf *c, int64_t now, int64_t eligible);
/* The job size factor alone. */
double tp_prio_job_size(const tp_prio_conf *c, uint32_t nodes, uint32_t cpus,
			uint32_t time_limit);

#endif
