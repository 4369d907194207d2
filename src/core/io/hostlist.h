/*
 * hostlist.h - expand Slurm hostlist expressions ("n[001-004,7],gpu1").
 *
 * Same syntax as Slurm's hostlist for the forms config files use: comma
 * separated items, each a prefix with at most one bracketed range list whose
 * numbers keep their zero padding.  The core cannot call Slurm's own
 * hostlist code (it must build without Slurm), so this is the small subset
 * topology.conf and torus.conf need.
 */
#ifndef TP_HOSTLIST_H
#define TP_HOSTLIST_H

#include <stddef.h>

typedef struct tp_hostlist {
	char **names;
	size_t n, cap;
} tp_hostlist;

/* Appends the expansion of expr to hl.  Returns 0, or -1 with a message
 * (without file/line; the caller adds them) in errbuf. */
int tp_hostlist_expand(tp_hostlist *hl, const char *expr, char *errbuf,
		       size_t errlen);
void tp_hostlist_fini(tp_hostlist *hl);

#endif
