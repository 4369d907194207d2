/*
 * site.h - a Slurm site as slurm.conf describes it: every node with its
 * CPUs, memory and GPUs, every partition with its nodes and limits.
 *
 * Read as slurmctld reads the file (toposim(1), SITES):
 *  - "Include FILE" lines are followed where they stand (a relative FILE
 *    from the including file's folder), at most 8 deep;
 *  - NodeName=DEFAULT and PartitionName=DEFAULT lines set the values of
 *    the lines after them that do not give their own;
 *  - NodeName: CPUs=, else Boards x Sockets x CoresPerSocket x
 *    ThreadsPerCore (SocketsPerBoard), each 1 when not given;
 *    RealMemory= MB (1 when not given, as Slurm); Gres= the sum of its
 *    gpu counts ("gpu:4", "gpu:a100:2,gpu:v100:2"; other GRES ignored);
 *  - PartitionName: Nodes= (a hostlist of NodeName names, or ALL),
 *    MaxTime=, DefaultTime= (Timelimit forms, UNLIMITED/INFINITE),
 *    MaxNodes=, PriorityTier=, PriorityJobFactor= (Priority= sets both,
 *    as Slurm's old key), OverSubscribe= (Shared= old key: NO, YES[:N],
 *    FORCE[:N], EXCLUSIVE), State= (UP, DOWN, DRAIN, INACTIVE),
 *    Default=YES;
 *  - the priority settings (tp_site_prio): PriorityType, PriorityWeight*
 *    (TRES: CPU, Mem, Node, GRES/gpu), PriorityMaxAge,
 *    PriorityDecayHalfLife, PriorityCalcPeriod (Slurm's time forms, a
 *    bare number minutes), PriorityFavorSmall, PriorityFlags;
 *    SchedulerParameters and SelectTypeParameters kept as written;
 *  - every other line and key is not read.
 * A node named twice, a partition named twice, a partition node no
 * NodeName line defines, a bad number or word: an error naming file,
 * line and value.
 */
#ifndef TP_SITE_H
#define TP_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/name_index.h"
#include "priority/prio.h"

#define TP_SITE_UNLIMITED (-1)

typedef struct tp_site_node {
	char *name;
	int32_t cpus;
	int64_t mem_mb;  /* RealMemory */
	int32_t gpus;    /* gpu GRES */
} tp_site_node;

typedef enum tp_oversub {
	TP_OVERSUB_NO,        /* Slurm's default: nodes shared by CPUs only */
	TP_OVERSUB_YES,
	TP_OVERSUB_FORCE,
	TP_OVERSUB_EXCLUSIVE, /* every job gets whole nodes */
} tp_oversub;

typedef enum tp_part_state {
	TP_PART_UP, TP_PART_DOWN, TP_PART_DRAIN, TP_PART_INACTIVE,
} tp_part_state;

typedef struct tp_site_part {
	char *name;
	int *nodes;            /* indices into tp_site.nodes, file order */
	size_t nnodes;
	int64_t max_time;      /* s, TP_SITE_UNLIMITED */
	int64_t default_time;  /* s, TP_SITE_UNLIMITED: MaxTime stands in */
	int32_t max_nodes;     /* TP_SITE_UNLIMITED */
	uint16_t priority_tier, priority_job_factor;
	tp_oversub oversub;
	int32_t oversub_count; /* YES:N, FORCE:N (4 by default); 1 else */
	tp_part_state state;
	bool is_default;
	int line;              /* of its PartitionName line */
} tp_site_part;

/* slurm.conf's priority settings, Slurm's defaults where not given. */
typedef struct tp_site_prio {
	bool multifactor;      /* PriorityType=priority/multifactor */
	tp_prio_conf conf;     /* weights, PriorityMaxAge, flags (the
				* machine's size is the caller's) */
	int64_t decay_half_life; /* s (7 days; 0: none) */
	int64_t calc_period;   /* s (300) */
	bool fair_tree;        /* not NO_FAIR_TREE / DEPTH_OBLIVIOUS */
	char unmodelled[128];  /* PriorityFlags read but not modelled */
	char *sched_params;    /* SchedulerParameters, or NULL */
	char *sched_type;      /* SchedulerType, or NULL (sched/backfill) */
	char *enforce;         /* AccountingStorageEnforce, or NULL (none) */
	char *select_params;   /* SelectTypeParameters, or NULL */
} tp_site_prio;

typedef struct tp_site {
	tp_site_node *nodes;
	size_t nnodes, capnodes;
	char **names;          /* names[i] == nodes[i].name, for the index */
	size_t capnames;
	tp_name_index node_index;
	tp_site_part *parts;
	size_t nparts, capparts;
	tp_site_prio prio;
	char *path;
} tp_site;

/* Reads slurm.conf `path` into s (initialised here).  0, or -1 with
 * "FILE:LINE: what 'value'" in err and s empty; tp_site_fini is safe
 * either way. */
int tp_site_read(const char *path, tp_site *s, tp_error *err);
void tp_site_fini(tp_site *s);

/* The partition named `name` (case-sensitive, as Slurm), or NULL. */
const tp_site_part *tp_site_part_find(const tp_site *s, const char *name);
/* The node named `name`'s index, or -1. */
int tp_site_node_find(const tp_site *s, const char *name);

#endif
