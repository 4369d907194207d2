/*
 * restrict.h - a fat tree cut down to a partition's nodes (toposim
 * --partition): site topology files list login and admin nodes too, which
 * a partition's jobs never get.
 *
 * The cut tree keeps the switches in file order: a leaf keeps the
 * partition's nodes it had, a leaf left without nodes goes, and so does an
 * inner switch left without children.  It is written as topology.conf
 * text, for tp_topo_load to read like any other.
 */
#ifndef SIM_RESTRICT_H
#define SIM_RESTRICT_H

#include <stdio.h>

#include "base/error.h"
#include "base/hostlist.h"
#include "topology/fattree.h"

/* Writes t restricted to the nodes named in `part` to fp.  The names of
 * `part` that t lacks are moved to `missing` (initialised here; the
 * caller adds them outside the tree).  0, or -1 with err (no node of the
 * partition in t, write error, ENOMEM); `partition` names it in messages. */
int sim_restrict_tree(const tp_fattree *t, const tp_hostlist *part,
		      const char *partition, FILE *fp, tp_hostlist *missing,
		      tp_error *err);

#endif
