/*
 * st_seen.h - which running jobs sched/topo has already seen.
 *
 * slurmctld starts an srun/salloc job at submission when it is the
 * highest-priority pending job of its partition and fits now (job_allocate;
 * Slurm gives a scheduler plugin no hook there, and an --immediate job
 * needs its answer in that RPC).  A job that started (running, or already
 * ended) since the previous cycle and was neither running then nor started
 * by sched/topo was started that way; the cycle counts and logs each one,
 * so this reliance is never silent.
 *
 * The set of the previous cycle is a sorted array of job ids: the jobs
 * running then, those it started and those it counted; a cycle builds the
 * next one with st_seen_note() and swaps at st_seen_end().
 * Start-up counts as a cycle with no jobs at its time: jobs that started
 * before it (slurmctld restarted) are not counted.  Free of Slurm for the
 * unit tests.
 */
#ifndef ST_SEEN_H
#define ST_SEEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct st_seen {
	uint32_t *prev, *next; /* prev sorted, unique */
	size_t nprev, capprev, nnext, capnext;
	bool primed;           /* prev holds a real cycle */
	int64_t since;         /* epoch s of the previous cycle */
} st_seen;

/* An empty previous cycle at `now` (plugin start-up). */
void st_seen_init(st_seen *s, int64_t now);
void st_seen_fini(st_seen *s);
/* Forget the previous cycle (out of memory): the next cycle only
 * records. */
void st_seen_reset(st_seen *s);
/* Record `id` as running in this cycle.  Returns true when it is new:
 * the set is primed and `id` was not running at the previous cycle.
 * -1 when out of memory (nothing recorded). */
int st_seen_note(st_seen *s, uint32_t id);
/* This cycle's set, taken at `now`, becomes the previous one. */
void st_seen_end(st_seen *s, int64_t now);

#endif
