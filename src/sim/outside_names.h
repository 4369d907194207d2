/*
 * outside_names.h - names for the nodes toposim --nodes N adds beyond a
 * topology file's (nodes outside the topology, alloc/outside.h), as a
 * slurm.conf that lists more nodes than its topology.conf would have
 * them: the topology's last node's name continued, "n16" -> n17, n18...,
 * "n016" -> n017... (same prefix, the next numbers, the same zero
 * padding).
 */
#ifndef SIM_OUTSIDE_NAMES_H
#define SIM_OUTSIDE_NAMES_H

#include "base/error.h"
#include "machine/topo.h"

/* `n` names after the last of t's topology nodes into *names (malloc'd
 * array of malloc'd strings, sim_outside_names_free).  0, or -1 with err
 * when that name ends in no number or a new name is one of the
 * topology's; `flag` names the option in the message. */
int sim_outside_names(const tp_topo *t, int n, const char *flag,
		      char ***names, tp_error *err);
void sim_outside_names_free(char **names, int n);

#endif
