/*
 * qos.h - a site's QOS and their priorities, for priority/multifactor's
 * QOS factor: a job's QOS priority over the largest priority of any QOS
 * (Slurm's norm_priority; PriorityFlags=NO_NORMAL_QOS: the priority
 * itself).
 *
 * Read from `sacctmgr -P show qos
 * format=Name,Priority,MaxJobsPU,MaxTRESPU,GrpJobs,GrpTRES` with its
 * header (toposim --qos): '|'-separated columns in any order, Name and
 * Priority required, the limits optional (their cpu= and node= TRES; the
 * other TRES are not modelled), the other columns ignored; an empty
 * Priority is 0, an empty limit none.  A QOS named twice, a bad number,
 * a line with another number of fields than the header: an error naming
 * file, line and value.
 */
#ifndef TP_QOS_H
#define TP_QOS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "policy/limits.h"

typedef struct tp_qos_table {
	char **names;
	uint32_t *priority;
	tp_qos_limits *limits;
	size_t n;
	uint32_t max;   /* the largest priority */
} tp_qos_table;

/* Reads path into t.  0, or -1 with err and t empty. */
int tp_qos_read(const char *path, tp_qos_table *t, tp_error *err);
/* The priority of QOS `name`, or -1 when the table lacks it. */
int64_t tp_qos_priority(const tp_qos_table *t, const char *name);
/* The index of QOS `name` in the table, or -1. */
int32_t tp_qos_index(const tp_qos_table *t, const char *name);
void tp_qos_fini(tp_qos_table *t);

#endif
