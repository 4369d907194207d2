/*
 * het_expdb_int.h - what het_expdb_file.c needs from het_expdb.c beyond
 * the public interface: merging a whole entry (a file's line, another
 * database) rather than one run.
 */
#ifndef TP_HET_EXPDB_INT_H
#define TP_HET_EXPDB_INT_H

#include "hetero/het_expdb.h"

/* Combine `st` (count >= 1) into the key's entry with the parallel form
 * of Welford's update; a new key takes `st` exactly (so a file loaded
 * into an empty database reads back bit for bit).  0, -1 on ENOMEM or a
 * bad argument. */
int tp_expdb_merge(tp_expdb *db, int jclass, int mclass, int nodes,
		   const tp_expdb_stat *st);

/* Merge every entry of src into dst (by class name).  0, -1 on ENOMEM. */
int tp_expdb_absorb(tp_expdb *dst, const tp_expdb *src);

#endif
