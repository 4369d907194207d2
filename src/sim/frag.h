/*
 * frag.h - toposim --frag-csv: the machine's fragmentation over time, one
 * row after every scheduling pass (columns in toposim(1)).
 *
 * Means of wait say that jobs waited, not why: this series shows when free
 * nodes sat idle while the first job of the queue could not start, and how
 * large a piece of the machine was free at that moment (a blocked head
 * with many free nodes but no free unit of its size is fragmentation, not
 * load).
 */
#ifndef TP_SIM_FRAG_H
#define TP_SIM_FRAG_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/topo.h"
#include "model/cluster.h"

typedef struct sim_frag {
	FILE *fp;
	const char *path;
	const tp_topo *topo;
} sim_frag;

/* Start the series on fp (opened by outfiles.h, named path in messages):
 * its header. */
void sim_frag_start(sim_frag *f, FILE *fp, const char *path,
		    const tp_topo *topo);
/* One row for the cluster as a pass left it: the engine's after_pass. */
int sim_frag_row(void *arg, const tp_cluster *c, tp_error *err);

#endif
