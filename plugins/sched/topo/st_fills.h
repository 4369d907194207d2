/*
 * st_fills.h - the fill jobs sched/topo started, by Slurm job id.
 *
 * RB_HAR needs to know, for a running job, whether it was backfilled
 * around a reserved job (and which), and how many extensions it has had.
 * Slurm keeps no such thing, so the plugin remembers it here and saves the
 * table to a small file in StateSaveLocation whenever it changes, so a
 * slurmctld restart does not turn fill jobs into ordinary ones.  Free of
 * Slurm (plain file I/O), so it is unit-tested as is.
 */
#ifndef ST_FILLS_H
#define ST_FILLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/id_table.h"

typedef struct st_fill {
	int64_t job_id;       /* first: the table's id (a Slurm job id) */
	int64_t fill_for;     /* job id of the reserved job it filled around */
	int extensions;       /* RB_HAR extensions granted so far */
	int64_t decided_end;  /* the limit (end time) the last at-limit
			       * decision was taken at; 0 = none yet */
	int64_t granted_end;  /* the limit the extension granted at
			       * decided_end set; 0 = that decision granted
			       * none */
	bool seen;            /* found running in the current cycle */
} st_fill;

typedef struct st_fills {
	tp_id_table jobs;     /* of st_fill */
	bool dirty;           /* changed since the last save */
} st_fills;

void st_fills_init(st_fills *f);
void st_fills_fini(st_fills *f);

st_fill *st_fills_find(st_fills *f, uint32_t job_id);
/* Entry i (0 <= i < f->jobs.n), in job id order. */
static inline st_fill *st_fills_at(const st_fills *f, size_t i)
{
	return tp_id_table_at(&f->jobs, i);
}
/* Add (or reset) job_id as a fill job for fill_for; NULL on ENOMEM. */
st_fill *st_fills_add(st_fills *f, uint32_t job_id, int64_t fill_for);
void st_fills_remove(st_fills *f, uint32_t job_id);

/* Cycle bookkeeping: clear every `seen`, then (after the cycle marked the
 * running ones) drop the entries not seen: those jobs ended. */
void st_fills_unsee(st_fills *f);
size_t st_fills_drop_unseen(st_fills *f);

/* Seconds of a granted extension that Slurm no longer shows for a job
 * whose limit now ends at `end`: the table is saved at once, Slurm's job
 * state a few seconds later, so a slurmctld killed in between restarts
 * with the job's limit of before the extension (`end` back at
 * decided_end).  0 when nothing was lost (or an operator set the limit
 * since: any other end). */
int64_t st_fill_lost_extension(const st_fill *e, int64_t end);

/* Write the table to `path` atomically (path.new, then rename).  Clears
 * `dirty`.  0, or -1 with err naming the file. */
int st_fills_save(st_fills *f, const char *path, tp_error *err);
/* Replace the table by the contents of `path`; a missing file is an empty
 * table.  0; 1 when bad lines (a NUL byte, a last line cut short, bad
 * fields, a job listed twice) were skipped and the good ones kept, err
 * naming the first "FILE:LINE: why: 'text'" and how many; -1 when the
 * whole file is ignored (empty, not this table or not its version: the
 * header names both; unreadable), err saying why, the table empty.
 * Version 1 files (no granted_end: written before it was kept) are read
 * with granted_end 0. */
int st_fills_load(st_fills *f, const char *path, tp_error *err);

#endif
