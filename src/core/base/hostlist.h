/*
 * hostlist.h - expand Slurm hostlist expressions ("n[001-004,7],gpu1") and
 * write lists of names in that form.
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

/* One expression names at most this many hosts: the largest machine the
 * project models (a torus of TP_TORUS_MAX_NODES).  Without a bound, a
 * line of a few hundred bytes ("a[0-999999],b[0-999999],...") would
 * expand to tens of millions of names and gigabytes. */
#define TP_HOSTLIST_MAX_NAMES (1 << 20)

/* Appends the expansion of expr to hl (at most TP_HOSTLIST_MAX_NAMES
 * names).  Returns 0, or -1 with a message (without file/line; the caller
 * adds them) in errbuf. */
int tp_hostlist_expand(tp_hostlist *hl, const char *expr, char *errbuf,
		       size_t errlen);
void tp_hostlist_fini(tp_hostlist *hl);

/* The names as one ranged expression tp_hostlist_expand reads back, the
 * form Slurm prints node lists in: "n[1-4,9],m7".  Items keep the order in
 * which their prefixes first appear; within a prefix the numbers ascend,
 * each range with one zero-padding width ("n[1-2,01-02]" for n01, n02, n1,
 * n2; an unpadded number that fills the width joins a padded range, as n100
 * in "n[098-100]").  Names without a numeric suffix are written as they
 * are; a name given twice is written once.  Returns a malloc'd string (""
 * for no names), NULL when out of memory. */
char *tp_hostlist_compress(const char *const *names, size_t n);

#endif
