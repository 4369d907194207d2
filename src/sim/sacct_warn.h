/*
 * sacct_warn.h - what a sacct replay must say about its input before its
 * numbers are read: records that contradict themselves (and which value
 * was used), limits taken from the partition, partitions merged or left
 * out, and jobs that shared nodes in Slurm's schedule while the replay
 * gives each job whole nodes.  One warning per kind, with its count and
 * the first record's line.
 */
#ifndef SIM_SACCT_WARN_H
#define SIM_SACCT_WARN_H

#include <stdbool.h>
#include <stdio.h>

#include "actual.h"
#include "trace/sacct.h"

/* Writes the warnings to fp; `partition` is --partition (NULL: none);
 * `partitioned`: every job kept to its partition's nodes (the site);
 * `shares`: the replay models resources inside nodes (site_res.h), so
 * jobs that shared nodes in Slurm's schedule are no contradiction. */
void sim_sacct_warn(FILE *fp, const tp_sacct *s, const sim_actual *a,
		    const char *partition, bool partitioned, bool shares);

/* The counts as the summary's "warnings" member (a line ending in ",\n");
 * `shared`: sim_actual.shared. */
void sim_sacct_warn_json(FILE *fp, const tp_sacct *s, size_t shared);

#endif
