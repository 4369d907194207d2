/*
 * tt_options.h - select/torus's settings in slurm.conf's
 * SchedulerParameters:
 *
 *     SchedulerParameters=...,torus_method=fs,torus_conf=/etc/slurm/t.conf
 *
 * Why there: SelectTypeParameters belongs to select/linear, which this
 * plugin delegates to, and Slurm rejects values it does not know there;
 * SchedulerParameters keeps unknown keys (and `scontrol show config`
 * shows them).  Everything else about the torus is in torus.conf(5).
 *
 * Slurm looks its own keys up as SUBSTRINGS of the whole string, so a
 * key or value of ours that contains one of Slurm's (e.g. a path with
 * "defer" in it) would silently switch a Slurm feature: such values are
 * errors here, checked against Slurm 22.05's list of keys.  Our keys start
 * with "torus_", parsed as whole comma-separated items; an unknown
 * torus_ key is an error (a typo must not fall back to a default).
 * Pure C, free of Slurm, so it is unit-tested directly.
 */
#ifndef TT_OPTIONS_H
#define TT_OPTIONS_H

#include <stdbool.h>

#include "model/error.h"
#include "topology/torus.h"

typedef struct tt_options {
	char *conf;              /* torus_conf=PATH, or NULL */
	bool have_method;        /* torus_method= given */
	tp_torus_method method;  /* its value */
} tt_options;

/*
 * Parse the torus_ keys of a SchedulerParameters string (NULL or "" is
 * fine: no settings).  Returns 0, or -1 with a message naming
 * SchedulerParameters, the key and the value; `o` is then empty.
 */
int tt_options_parse(tt_options *o, const char *sched_params, tp_error *err);
void tt_options_fini(tt_options *o);

/* Slurm 22.05's SchedulerParameters keys (NULL-terminated), for tests. */
extern const char *const tt_slurm_sched_keys[];

#endif
