/*
 * flat_names.h - the node names of a flat machine (no topology file),
 * for the jobs CSV's nodelist column: the partition's nodes with
 * --partition and --slurm-conf (slurm.conf's order), else n1 ... nN, the
 * names topo-cluster and `ftconf generate` give their nodes.  The column
 * is then a Slurm host list ("n[1-4,9]") on every machine, never node
 * indices.
 */
#ifndef SIM_FLAT_NAMES_H
#define SIM_FLAT_NAMES_H

#include <stdbool.h>

#include "base/error.h"
#include "base/hostlist.h"

typedef struct sim_flat_names {
	char **names;   /* [n] */
	int n;
	bool owned;     /* generated here (else the partition's) */
} sim_flat_names;

/* n names: part's when it has n (part may be NULL), else generated.  0,
 * or -1 with err when out of memory. */
int sim_flat_names_make(sim_flat_names *f, int n, const tp_hostlist *part,
			tp_error *err);
/* Name i (for sim_write_csv's name function; arg a sim_flat_names). */
const char *sim_flat_name(const void *arg, int i);
void sim_flat_names_fini(sim_flat_names *f);

#endif
