/*
 * st_expdb.h - the experiential run-time database the heterogeneous
 * policies plan with (hetero/het_expdb.h), as sched/topo keeps it:
 * StateSaveLocation/sched_topo.expdb, read at start, saved after each
 * cycle that learned something (outside slurmctld's locks).
 */
#ifndef ST_EXPDB_H
#define ST_EXPDB_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "hetero/het_expdb.h"

typedef struct st_expdb {
	tp_expdb *db;
	int64_t learned_until; /* jobs ending up to here are in db */
	bool dirty;            /* db changed since the last save */
	uint64_t learned;      /* runs learned since start */
} st_expdb;

/* Load the database from `path` (a missing file is an empty one); on bad
 * content log it and start empty (the file is left for the admin).
 * 0, -1 on ENOMEM. */
int st_expdb_init(st_expdb *h, const char *path);
void st_expdb_fini(st_expdb *h);
/* Save if changed (outside the locks); 0 or -1 with err. */
int st_expdb_save(st_expdb *h, const char *path, tp_error *err);

#endif
