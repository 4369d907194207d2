/*
 * settings.h - every tunable of the policies, the torus allocators and
 * sched/topo, described once: name, type, range, default, help.
 *
 * Three front ends derive from the one table:
 *   toposim           --NAME VALUE for the TP_SCOPE_SIM entries ('_' -> '-');
 *   sched/topo        SchedulerParameters=...,topo_NAME=VALUE (TP_SCOPE_SCHED);
 *   select/torus and  SchedulerParameters=...,torus_NAME=VALUE
 *   sched/topo        (TP_SCOPE_TORUS);
 * so ranges, defaults and error messages are the same everywhere.
 *
 * SchedulerParameters rules (tp_settings_parse_params), one for all keys:
 *  - entries are whole comma-separated items; only those starting with
 *    the scope's prefixes are ours, the rest are Slurm's;
 *  - Slurm looks its own keys up as case-insensitive SUBSTRINGS of the
 *    whole string, so an entry of ours that contains one of Slurm's keys
 *    (tp_slurm_sched_keys, e.g. a path with "defer" in it) would switch a
 *    Slurm feature: such an entry is a problem and is ignored;
 *  - an unknown key, a key without a value, a bad value, and a key given
 *    a second time are problems; each is reported once, with the key and
 *    value, and the setting keeps its previous value (the first valid
 *    entry of a repeated key stands).
 * What a problem means is the caller's: sched/topo keeps scheduling with
 * the previous values; select/torus refuses the torus settings (at start-up
 * slurmctld stops; at reconfigure the old ones stay).
 */
#ifndef TP_SETTINGS_H
#define TP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "policy/policy.h"

#define TP_SCOPE_SIM   0x1u /* toposim --NAME */
#define TP_SCOPE_SCHED 0x2u /* SchedulerParameters topo_NAME= */
#define TP_SCOPE_TORUS 0x4u /* SchedulerParameters torus_NAME= */

typedef struct tp_settings {
	char policy[32];        /* the policy's name */
	tp_policy_opts popts;   /* its options */
	int period;             /* sched/topo: seconds between cycles */
	int stats_every;        /* sched/topo: cycles per statistics line */
	int class_key;          /* sched/topo, heterogeneous policies: what
				 * names a job's class (tp_class_key) */
	int het_max_jobs;       /* heterogeneous policies: jobs planned per
				 * pass, the first in queue order (0: all) */
	char torus_conf[1024];  /* torus_conf=: "" for torus.conf beside
				 * slurm.conf */
	char torus_method[16];  /* torus_method=: "" for torus.conf's */
} tp_settings;

typedef enum tp_set_type {
	TP_SET_INT,    /* whole number in [lo, hi] */
	TP_SET_REAL,   /* number in [lo, hi] */
	TP_SET_BOOL,   /* yes/no, on/off, true/false, 1/0 */
	TP_SET_CHOICE, /* one of choices(): a name */
	TP_SET_TEXT,   /* a non-empty string */
} tp_set_type;

typedef struct tp_setting {
	const char *name;       /* "window", "rbhar_max_time" */
	unsigned scope;         /* TP_SCOPE_* */
	tp_set_type type;
	double lo, hi;          /* INT, REAL */
	const char *const *(*choices)(void); /* CHOICE: NULL-terminated */
	const char *def;        /* default, as text */
	const char *def_live;   /* default under slurmctld, if different */
	const char *help;       /* one line for --help and the man pages */
	size_t offset, size;    /* the field in tp_settings */
	const char *policies;   /* the policies that read it, space-separated
				 * ("rb-har"); NULL: not a policy option */
} tp_setting;

/* The table, terminated by an entry with name NULL. */
extern const tp_setting tp_settings_table[];

/* Slurm 22.05's SchedulerParameters keys (NULL-terminated), made at build
 * time from src/core/settings/slurm_sched_keys.txt. */
extern const char *const tp_slurm_sched_keys[];

/* Defaults; `live` picks def_live where an entry has one. */
void tp_settings_default(tp_settings *s, bool live);

/* The entry `name` in `scope`, or NULL. */
const tp_setting *tp_setting_find(const char *name, unsigned scope);
/* Set from text: 0, or -1 with `why` saying what a valid value is. */
int tp_setting_set(const tp_setting *e, tp_settings *s, const char *text,
		   char *why, size_t len);
/* The value as text ("easy", "4", "yes"). */
void tp_setting_show(const tp_setting *e, const tp_settings *s, char *buf,
		     size_t len);
/* Whether `policy` reads setting e (true for an entry that is not a
 * policy option): a front end warns about a setting given for a policy
 * it has no effect on. */
bool tp_setting_for_policy(const tp_setting *e, const char *policy);
/* The prefix of a scope's SchedulerParameters keys ("topo_"), or NULL. */
const char *tp_setting_prefix(unsigned scope);

/* Called once per problem with a complete message. */
typedef void (*tp_settings_report_fn)(void *arg, const char *msg);

/* Read the entries of `scope` from a SchedulerParameters string (NULL is
 * fine) over `prev` (NULL: defaults for slurmctld; may be `out` itself)
 * into *out, by the rules above.  Returns the number of problems
 * reported. */
int tp_settings_parse_params(tp_settings *out, const tp_settings *prev,
			     const char *params, unsigned scope,
			     tp_settings_report_fn report, void *arg);

/* Report each setting of `scope` that `params` gives a valid value and
 * `policy` does not read (topo_window= with topo_policy=easy), once per
 * setting, with the value taken and the policies that read it: it is
 * kept, but has no effect.  Returns how many were reported. */
int tp_settings_report_unread(const char *params, unsigned scope,
			      const char *policy, tp_settings_report_fn fn,
			      void *arg);

/* Every setting of `scope` within its range (for values set in code):
 * 0, or -1 with err naming the setting and value. */
int tp_settings_check(const tp_settings *s, unsigned scope, tp_error *err);

/* "topo_policy=easy,topo_window=1,..." for every entry of `scope` that
 * has a value (an unset torus_conf= is left out). */
void tp_settings_format(const tp_settings *s, unsigned scope, char *buf,
			size_t len);

/* The Slurm key `text` contains (case-insensitively), or NULL. */
const char *tp_slurm_key_in(const char *text);

/* A policy's options as the settings table defaults them. */
void tp_policy_opts_default(tp_policy_opts *o);
/* Checks ranges (the table's); -1 and err naming the option otherwise. */
int tp_policy_opts_check(const tp_policy_opts *o, tp_error *err);
/* Create policy `name` with `opts` (NULL: the defaults); NULL and err set
 * if the name is unknown or opts are invalid. */
tp_policy *tp_policy_create(const char *name, const tp_policy_opts *opts,
			    tp_error *err);

#endif
