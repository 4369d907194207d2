/*
 * het_expdb.h - the experiential database: run-time history per
 * (job class, machine class, node count), as SmartNet and the PJS keep it.
 *
 * Each entry holds count, mean and variance of the run times seen
 * (Welford's running update, so one pass and no stored samples).  A
 * prediction is the mean; with no history for that exact key the caller's
 * fallback (the job's time limit) stands: a node count or partition that
 * never ran the class is never assumed faster than what the user asked
 * for.  Class names are the drivers' keys (a job name, user, wckey or
 * comment; a partition name) interned to small indices.
 *
 * Learned from every job that completes (ended by itself: not killed at
 * its limit, failed or cancelled), by slurmctld (sched/topo) and by the
 * simulator, through tp_het_learn() (het_cycle.h); kept across slurmctld restarts in
 * a text file (tp_expdb_save/load: StateSaveLocation/sched_topo.expdb);
 * seeded from `sacct -P` output (tp_expdb_seed_sacct); printed by
 * `topo-expdb`.
 */
#ifndef TP_HET_EXPDB_H
#define TP_HET_EXPDB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hetero/het.h"
#include "base/error.h"

typedef struct tp_expdb tp_expdb;

typedef struct tp_expdb_stat {
	uint64_t count;
	double mean;   /* s */
	double var;    /* sample variance, s^2 (0 with one sample) */
} tp_expdb_stat;

tp_expdb *tp_expdb_new(void);              /* NULL on ENOMEM */
void tp_expdb_free(tp_expdb *db);

/* Intern a job class / machine class name: its index (>= 0), -1 on
 * ENOMEM.  The same name always gets the same index. */
int tp_expdb_jclass(tp_expdb *db, const char *name);
int tp_expdb_mclass(tp_expdb *db, const char *name);
const char *tp_expdb_jclass_name(const tp_expdb *db, int jclass);
const char *tp_expdb_mclass_name(const tp_expdb *db, int mclass);

/* One completed run of `seconds` (>= 0).  0, -1 on ENOMEM or a bad
 * argument. */
int tp_expdb_add(tp_expdb *db, int jclass, int mclass, int nodes,
		 double seconds);
/* The entry for the key; false (and *out zeroed) if there is none. */
bool tp_expdb_get(const tp_expdb *db, int jclass, int mclass, int nodes,
		  tp_expdb_stat *out);
/* The mean if the key has history, else `fallback`. */
double tp_expdb_predict(const tp_expdb *db, int jclass, int mclass,
			int nodes, double fallback);
/* Entries, for printing: calls fn for each key with history, sorted by
 * job class name, machine class name, nodes. */
void tp_expdb_each(const tp_expdb *db,
		   void (*fn)(void *arg, const char *jclass,
			      const char *mclass, int nodes,
			      const tp_expdb_stat *st),
		   void *arg);
size_t tp_expdb_size(const tp_expdb *db);

/* tp_het_etc_fn over the database: arg is a tp_expdb_etc_arg; the
 * machine class of partition p is m->part[p].mclass; fallback: the job's
 * estimate. */
typedef struct tp_expdb_etc_arg {
	const tp_expdb *db;
	const tp_het_machine *m;
} tp_expdb_etc_arg;
double tp_expdb_etc(void *arg, const tp_het_job *j, int p, int n);

/*
 * Files.  Save writes `path` whole (a temporary file renamed over it, so a
 * crash leaves the old or the new one) with `learned_until`, the driver's
 * mark of how far it has learned.  Load adds the file's entries to db
 * (merging with what it holds); a missing file is an empty database
 * (returns 0, *learned_until 0); bad content (an empty file, another
 * program's or version's header, a NUL byte, a last line cut short, a bad
 * field, a duplicate key) is -1 with "FILE:LINE: ... 'VALUE'" and db left
 * as it was: the whole file is ignored, since its entries are one state.
 */
int tp_expdb_save(const tp_expdb *db, const char *path,
		  int64_t learned_until, tp_error *err);
int tp_expdb_load(tp_expdb *db, const char *path, int64_t *learned_until,
		  tp_error *err);

/* What names a job's class in Slurm's records (topo_class_key=). */
typedef enum tp_class_key {
	TP_CLASS_NAME = 0, TP_CLASS_USER, TP_CLASS_WCKEY, TP_CLASS_COMMENT,
} tp_class_key;
const char *const *tp_class_key_names(void);  /* NULL-terminated */

/*
 * Seed from `sacct -P -n --format=JobName,User,WCKey,Comment,Partition,
 * NNodes,ElapsedRaw,State` output (fields separated by '|'; header lines
 * and steps such as "1234.batch" are skipped if present): every COMPLETED
 * job adds one run under its class (`key`) and partition.  Lines that are
 * not COMPLETED are skipped; malformed lines are -1 with
 * "NAME:LINE: ... 'VALUE'" (`name` names the input in messages).
 * *added counts the runs added.
 */
int tp_expdb_seed_sacct(tp_expdb *db, FILE *in, const char *name,
			tp_class_key key, size_t *added, tp_error *err);

#endif
