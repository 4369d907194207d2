/*
 * st_stats.h - sched/topo's counters, for the log and for administrators.
 *
 * The agent updates them every cycle; every topo_stats_every cycles they go
 * to the log as one line, and after every cycle the whole set is written
 * (atomically) to the file sched_topo.stats in StateSaveLocation, which
 * contrib/topo-sched-stats prints.  A file rather than sdiag: sdiag's
 * reply has no room for a plugin's numbers, and a file can be read even
 * while slurmctld is busy or down.  Free of Slurm for the unit tests.
 */
#ifndef ST_STATS_H
#define ST_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define ST_STATS_MAX_POLICIES 16
#define ST_STATS_FORMAT 1   /* the file's format= line */

typedef struct st_stats {
	int64_t since;            /* epoch s: plugin start */
	int64_t last_cycle_at;    /* epoch s of the last cycle */
	char policy[32];          /* policy of the last cycle */
	uint64_t cycles;
	uint64_t last_us, max_us, sum_us; /* cycle time under the locks */
	uint64_t started;         /* jobs started, all policies */
	uint64_t started_fill;    /* of which backfilled (fill jobs) */
	uint64_t started_by[ST_STATS_MAX_POLICIES]; /* by tp_policy_names() */
	uint64_t start_failed;    /* slurmctld refused a decided start */
	uint64_t held_never;      /* of which never runnable: held */
	uint64_t mismatches;      /* started on other nodes than decided */
	uint64_t ext_granted, ext_denied, requeued;
	uint64_t started_at_submit; /* by slurmctld at submission (srun/salloc) */
	uint64_t started_preempting; /* through Slurm's preemption */
	/* The last cycle: every pending job (array tasks each, held and
	 * blocked ones too: what squeue lists as PENDING), of which in a
	 * policy's queue; running jobs; starts. */
	uint32_t last_pending, last_queued, last_running, last_started;
} st_stats;

void st_stats_init(st_stats *s, int64_t now);
/* Record one cycle of `us` microseconds at `now`. */
void st_stats_cycle(st_stats *s, uint64_t us, int64_t now);
/* Count a start by policy `name` (unknown names count in `started` only). */
void st_stats_started(st_stats *s, const char *policy, int fill);
uint64_t st_stats_mean_us(const st_stats *s);

/* One log line: "cycles=... last_us=... mean_us=... ...". */
void st_stats_line(const st_stats *s, char *buf, size_t len);
/* The file's text: "key=value" lines, then "started_<policy>=N" lines. */
void st_stats_format(const st_stats *s, char *buf, size_t len);
/* Write st_stats_format() to path atomically; 0 or -1 with err. */
int st_stats_write(const st_stats *s, const char *path, tp_error *err);
/* Read a file st_stats_write wrote (at start, to say what it held before
 * it is replaced): since, cycles, started and policy into s.  0: no file;
 * 1: read; -1: bad, err "FILE[:LINE]: why" (empty, a line cut short or
 * with a NUL byte, not key=value, an unknown key, not a number, another
 * format=, no cycles= line).  A file without format= is of format 1 (the
 * files of before the format line). */
int st_stats_read(st_stats *s, const char *path, tp_error *err);

#endif
