/*
 * het_conf.h - the heterogeneous simulator's input files: the machine
 * (partitions of nodes, each of a machine class) and the jobs.
 *
 * Both are Slurm-style "Key=Value" lines (base/conffile.h); node lists are
 * Slurm host lists (base/hostlist.h).  See toposim(1) and
 * doc/heterogeneous.md.
 *
 *   machine:  PartitionName=a Nodes=n[1-4] [Class=fast]
 *   jobs:     JobId=1 Submit=0 Class=sleep Partitions=a,b Nodes=1-4
 *             TimeLimit=120 [Priority=0]
 *
 * Class= names the machine class (the experiential database's key; default
 * the partition's name).  Nodes are numbered by first appearance; a node
 * may be in several partitions.  A job's Nodes= is N or N-M; TimeLimit= is
 * seconds; Priority= is a level, 0 first.
 */
#ifndef TP_HET_CONF_H
#define TP_HET_CONF_H

#include <stdio.h>

#include "hetero/het.h"
#include "base/error.h"
#include "base/name_index.h"

typedef struct tp_het_conf {
	int nnodes;
	char **node_name;      /* [nnodes] */
	tp_het_part *part;     /* [nparts]; name and node owned; mclass
				* indexes mclass_name */
	int nparts;
	char **mclass_name;    /* [nmclass], in order of first appearance */
	int nmclass;
	tp_name_index node_index, mclass_index; /* names -> indices */
} tp_het_conf;

typedef struct tp_het_workload {
	tp_het_job *job;       /* [n], file order; parts owned; jclass
				* indexes jclass_name */
	size_t n;
	char **jclass_name;    /* [njclass], in order of first appearance */
	int njclass;
	tp_name_index jclass_index; /* names -> indices */
} tp_het_workload;

/* 0, or -1 with "FILE:LINE: ... 'VALUE'" (c is then empty). */
int tp_het_conf_read(const char *path, tp_het_conf *c, tp_error *err);
void tp_het_conf_fini(tp_het_conf *c);
/* The machine view of c with `ready` (not copied). */
tp_het_machine tp_het_conf_machine(const tp_het_conf *c, const double *ready);
/* Partition index by name, -1 if none. */
int tp_het_conf_part(const tp_het_conf *c, const char *name);

/* Jobs over machine c: 0, or -1 with "FILE:LINE: ... 'VALUE'". */
int tp_het_jobs_read(const char *path, const tp_het_conf *c,
		     tp_het_workload *w, tp_error *err);
void tp_het_workload_fini(tp_het_workload *w);

/* Write them back in the format the readers take (the generator's
 * output).  0, -1 on a write error. */
int tp_het_conf_write(FILE *out, const tp_het_conf *c);
int tp_het_jobs_write(FILE *out, const tp_het_conf *c,
		      const tp_het_workload *w);

/* Building (the readers and the generator): 0, -1 on ENOMEM. */
int tp_het_conf_add_node(tp_het_conf *c, const char *name, int *index);
int tp_het_conf_add_part(tp_het_conf *c, const char *name,
			 const char *mclass, const int *node, int nnodes);
int tp_het_workload_class(tp_het_workload *w, const char *name);
/* Appends *j (its parts copied); 0, -1 on ENOMEM. */
int tp_het_workload_add(tp_het_workload *w, const tp_het_job *j);

#endif
