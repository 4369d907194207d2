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

/* Open `path` ("-" is stdout) and write the header.  0, or -1 with err. */
int sim_frag_open(sim_frag *f, const char *path, const tp_topo *topo,
		  tp_error *err);
/* One row for the cluster as a pass left it: the engine's after_pass. */
int sim_frag_row(void *arg, const tp_cluster *c, tp_error *err);
/* Close; -1 with err if writing failed (not when `failed`: a replay that
 * already failed keeps its own message). */
int sim_frag_close(sim_frag *f, bool failed, tp_error *err);

#endif
