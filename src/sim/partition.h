/*
 * partition.h - a Slurm partition's nodes, read from slurm.conf
 * (toposim --partition NAME --slurm-conf FILE).
 *
 * The line "PartitionName=NAME ... Nodes=HOSTLIST" gives them (Slurm's
 * hostlist syntax); Nodes=ALL means every node of the NodeName= lines.
 * Keys are case-insensitive, '#' starts a comment, '\' continues a line
 * (base/conffile.h).  Not followed: Include lines (an error naming the
 * line) and NodeSet names in Nodes= (read as host names, so a job on
 * them counts as run outside the partition).
 */
#ifndef SIM_PARTITION_H
#define SIM_PARTITION_H

#include "base/error.h"
#include "base/hostlist.h"

/* The nodes of partition `name` in slurm.conf `path`, in the order the
 * file lists them, into `nodes` (initialised here).  0, or -1 with err
 * naming the file (and line, for a bad value), or the partition when
 * the file has no such PartitionName or it has no nodes. */
int sim_partition_nodes(const char *path, const char *name,
			tp_hostlist *nodes, tp_error *err);

#endif
