/* settings.c - the one table of tunables and its parsers; see settings.h. */
#include "settings/settings.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hetero/het_expdb.h"
#include "base/conffile.h"

static const char *const *window_rules(void)
{
	static const char *const names[] = { "queue", "index", NULL };
	return names; /* index = tp_window_rule */
}

static const char *const *torus_methods(void)
{
	static const char *const names[] = { "base", "fs", "mss", "anchor",
					     "compact",
					     NULL };
	return names;
}

#define FIELD(f) offsetof(tp_settings, f), sizeof(((tp_settings *)0)->f)
#define ALL_DRIVERS (TP_SCOPE_SIM | TP_SCOPE_SCHED)
/* The policies that plan a whole heterogeneous machine (hetero/). */
#define HET_POLICIES "olb min-min min-max sjs pjs"

const tp_setting tp_settings_table[] = {
	{ "policy", ALL_DRIVERS, TP_SET_CHOICE, 0, 0, tp_policy_names, "easy",
	  NULL, "scheduling policy", FIELD(policy), NULL },
	{ "window", ALL_DRIVERS, TP_SET_INT, 1, 1000000, NULL, "1", NULL,
	  "window-ff: jobs in the window (1 = FCFS)", FIELD(popts.window), "window-ff" },
	{ "window_rule", ALL_DRIVERS, TP_SET_CHOICE, 0, 0, window_rules,
	  "queue", NULL,
	  "window-ff: first W waiting jobs (queue) or arrival index below the oldest's + W (index, the Angara paper's)",
	  FIELD(popts.window_rule), "window-ff" },
	{ "njob", ALL_DRIVERS, TP_SET_INT, 1, 1000000, NULL, "4", NULL,
	  "batch-njob: jobs per batch (the patent's Njob)", FIELD(popts.njob), "batch-njob" },
	{ "rbhar_max_ext", ALL_DRIVERS, TP_SET_INT, 0, 1000, NULL, "1", NULL,
	  "rb-har: extensions per fill job", FIELD(popts.rbhar_max_ext), "rb-har" },
	{ "rbhar_max_time", ALL_DRIVERS, TP_SET_INT, 0, 1e15, NULL, "0", NULL,
	  "rb-har: cap on one extension, s (0 = none)",
	  FIELD(popts.rbhar_max_time), "rb-har" },
	{ "rbhar_factor", ALL_DRIVERS, TP_SET_REAL, 1, 1e6, NULL, "2", NULL,
	  "rb-har: corrected estimate of a requeued fill job = factor x time run",
	  FIELD(popts.rbhar_factor), "rb-har" },
	{ "rbhar_requeue", ALL_DRIVERS, TP_SET_BOOL, 0, 0, NULL, "yes", "no",
	  "rb-har: requeue a fill job still running after its extensions, with a corrected estimate (else it is killed)",
	  FIELD(popts.rbhar_requeue), "rb-har" },
	{ "completion_share", ALL_DRIVERS, TP_SET_REAL, 0, 1, NULL, "0", NULL,
	  "completion-aware placement: the share of a job's run time the site attributes to communication; a job starts now on a spread placement or waits for a more compact one, whichever the running jobs' limits say ends first (0 = off: never waits for compactness)",
	  FIELD(popts.completion_share), "fcfs window-ff easy rb-har" },
	{ "period", TP_SCOPE_SCHED, TP_SET_INT, 1, 3600, NULL, "1", NULL,
	  "seconds between scheduling cycles", FIELD(period), NULL },
	{ "stats_every", TP_SCOPE_SCHED, TP_SET_INT, 0, INT_MAX, NULL, "60",
	  NULL, "cycles per statistics log line (0 = never)",
	  FIELD(stats_every), NULL },
	{ "het_max_jobs", ALL_DRIVERS, TP_SET_INT, 0, 1000000, NULL, "0",
	  "200",
	  "heterogeneous policies: jobs planned per pass, the first in queue order (0 = all; SJS grows with the square of it, PJS faster)",
	  FIELD(het_max_jobs), HET_POLICIES },
	{ "class_key", TP_SCOPE_SCHED, TP_SET_CHOICE, 0, 0, tp_class_key_names,
	  "name", NULL,
	  "heterogeneous policies: what names a job's class in the run-time database (job name, user, wckey or comment)",
	  FIELD(class_key), HET_POLICIES },
	{ "conf", TP_SCOPE_TORUS, TP_SET_TEXT, 0, 0, NULL, "", NULL,
	  "torus.conf to read (relative: from slurm.conf's directory; default torus.conf beside slurm.conf)",
	  FIELD(torus_conf), NULL },
	{ "method", TP_SCOPE_TORUS, TP_SET_CHOICE, 0, 0, torus_methods, "",
	  NULL, "torus allocator method, overriding torus.conf's Method=",
	  FIELD(torus_method), NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, NULL, 0, 0, NULL },
};

static void *field(const tp_setting *e, tp_settings *s)
{
	return (char *)s + e->offset;
}

static const void *cfield(const tp_setting *e, const tp_settings *s)
{
	return (const char *)s + e->offset;
}

/* A CHOICE is kept as its name in a char array, or as its index in an
 * int (an enum). */
static bool choice_as_text(const tp_setting *e)
{
	return e->size > sizeof(int);
}

static int set_int(const tp_setting *e, tp_settings *s, const char *v)
{
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 10);
	if (errno || end == v || *end || n < e->lo || n > e->hi)
		return -1;
	if (e->size == sizeof(int64_t))
		*(int64_t *)field(e, s) = n;
	else
		*(int *)field(e, s) = (int)n;
	return 0;
}

static int set_real(const tp_setting *e, tp_settings *s, const char *v)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(x) || x < e->lo || x > e->hi)
		return -1;
	*(double *)field(e, s) = x;
	return 0;
}

static int set_choice(const tp_setting *e, tp_settings *s, const char *v)
{
	const char *const *names = e->choices();
	for (int i = 0; names[i]; i++) {
		if (strcasecmp(names[i], v))
			continue;
		if (choice_as_text(e))
			snprintf(field(e, s), e->size, "%s", names[i]);
		else
			*(int *)field(e, s) = i;
		return 0;
	}
	return -1;
}

/* What a valid value is, for messages. */
static void describe_valid(const tp_setting *e, char *why, size_t len)
{
	switch (e->type) {
	case TP_SET_INT:
		snprintf(why, len, "not a whole number from %.0f to %.0f",
			 e->lo, e->hi);
		return;
	case TP_SET_REAL:
		snprintf(why, len, "not a number from %g to %g", e->lo, e->hi);
		return;
	case TP_SET_BOOL:
		snprintf(why, len, "not yes or no");
		return;
	case TP_SET_TEXT:
		snprintf(why, len, "empty, or longer than %zu characters",
			 e->size - 1);
		return;
	case TP_SET_CHOICE: {
		size_t used = (size_t)snprintf(why, len, "not one of");
		const char *const *names = e->choices();
		for (int i = 0; names[i] && used < len; i++)
			used += (size_t)snprintf(why + used, len - used, " %s",
						 names[i]);
		return;
	}
	}
}

int tp_setting_set(const tp_setting *e, tp_settings *s, const char *text,
		   char *why, size_t len)
{
	int rc = -1, b;
	switch (e->type) {
	case TP_SET_INT: rc = set_int(e, s, text); break;
	case TP_SET_REAL: rc = set_real(e, s, text); break;
	case TP_SET_CHOICE: rc = set_choice(e, s, text); break;
	case TP_SET_BOOL:
		if ((b = tp_conf_bool(text)) >= 0) {
			*(int *)field(e, s) = b;
			rc = 0;
		}
		break;
	case TP_SET_TEXT:
		if (text[0] && strlen(text) < e->size) {
			snprintf(field(e, s), e->size, "%s", text);
			rc = 0;
		}
		break;
	}
	if (rc)
		describe_valid(e, why, len);
	return rc;
}

void tp_setting_show(const tp_setting *e, const tp_settings *s, char *buf,
		     size_t len)
{
	const void *f = cfield(e, s);
	switch (e->type) {
	case TP_SET_INT:
		if (e->size == sizeof(int64_t))
			snprintf(buf, len, "%lld", (long long)*(const int64_t *)f);
		else
			snprintf(buf, len, "%d", *(const int *)f);
		return;
	case TP_SET_REAL:
		snprintf(buf, len, "%g", *(const double *)f);
		return;
	case TP_SET_BOOL:
		snprintf(buf, len, "%s", *(const int *)f ? "yes" : "no");
		return;
	case TP_SET_CHOICE:
		if (!choice_as_text(e)) {
			snprintf(buf, len, "%s", e->choices()[*(const int *)f]);
			return;
		}
		/* fall through */ /* kept as text */
		__attribute__((fallthrough));
	case TP_SET_TEXT:
		snprintf(buf, len, "%s", (const char *)f);
		return;
	}
}

void tp_settings_default(tp_settings *s, bool live)
{
	char why[128];
	memset(s, 0, sizeof(*s));
	for (const tp_setting *e = tp_settings_table; e->name; e++) {
		const char *def = live && e->def_live ? e->def_live : e->def;
		if (def[0])
			(void)tp_setting_set(e, s, def, why, sizeof(why));
	}
}

const tp_setting *tp_setting_find(const char *name, unsigned scope)
{
	for (const tp_setting *e = tp_settings_table; e->name; e++)
		if ((e->scope & scope) && !strcasecmp(e->name, name))
			return e;
	return NULL;
}

bool tp_setting_for_policy(const tp_setting *e, const char *policy)
{
	size_t n = strlen(policy);
	if (!e->policies)
		return true;
	for (const char *p = e->policies; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && !strncasecmp(p, policy, n))
			return true;
		p += len;
		p += *p == ' ';
	}
	return false;
}

const char *tp_setting_prefix(unsigned scope)
{
	if (scope == TP_SCOPE_SCHED)
		return "topo_";
	if (scope == TP_SCOPE_TORUS)
		return "torus_";
	return NULL;
}

const char *tp_slurm_key_in(const char *text)
{
	for (const char *const *k = tp_slurm_sched_keys; *k; k++) {
		size_t n = strlen(*k);
		for (const char *p = text; *p; p++)
			if (!strncasecmp(p, *k, n))
				return *k;
	}
	return NULL;
}

/* Is the value held for `e` within its range? (For opts set in code.) */
static bool in_range(const tp_setting *e, const tp_settings *s)
{
	const void *f = cfield(e, s);
	switch (e->type) {
	case TP_SET_INT: {
		double v = e->size == sizeof(int64_t) ? (double)*(const int64_t *)f
						      : (double)*(const int *)f;
		return v >= e->lo && v <= e->hi;
	}
	case TP_SET_REAL: {
		double v = *(const double *)f;
		return v >= e->lo && v <= e->hi; /* false for NaN */
	}
	case TP_SET_BOOL:
		return *(const int *)f == 0 || *(const int *)f == 1;
	case TP_SET_CHOICE: {
		const char *const *names = e->choices();
		int n = 0;
		while (names[n])
			n++;
		if (!choice_as_text(e))
			return *(const int *)f >= 0 && *(const int *)f < n;
		if (!*(const char *)f)
			return true; /* unset: the file's (torus_method) */
		for (int i = 0; i < n; i++)
			if (!strcasecmp(names[i], f))
				return true;
		return false;
	}
	case TP_SET_TEXT:
		return true;
	}
	return false;
}

int tp_settings_check(const tp_settings *s, unsigned scope, tp_error *err)
{
	char why[256], val[64];
	for (const tp_setting *e = tp_settings_table; e->name; e++) {
		if (!(e->scope & scope) || in_range(e, s))
			continue;
		tp_setting_show(e, s, val, sizeof(val));
		describe_valid(e, why, sizeof(why));
		return tp_errorf(err, "%s: '%s' is %s", e->name, val, why);
	}
	return 0;
}

static void report(tp_settings_report_fn fn, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(tp_settings_report_fn fn, void *arg, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (fn)
		fn(arg, msg);
}

/* "topo_policy, topo_window, ..." of a scope, for messages. */
static void known_keys(unsigned scope, char *buf, size_t len)
{
	const char *prefix = tp_setting_prefix(scope);
	size_t used = 0;
	buf[0] = '\0';
	for (const tp_setting *e = tp_settings_table; e->name && used < len; e++)
		if (e->scope & scope)
			used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
						 used ? ", " : "", prefix, e->name);
}

typedef struct parse_ctx {
	tp_settings *out;
	const tp_settings *prev;
	unsigned scope;
	bool given[64];
	tp_settings_report_fn fn;
	void *arg;
} parse_ctx;

/* One entry of ours ("topo_window=4", trimmed): 0, or -1 if a problem. */
static int parse_entry(parse_ctx *x, const char *entry)
{
	const char *prefix = tp_setting_prefix(x->scope);
	const char *eq = strchr(entry, '='), *clash = tp_slurm_key_in(entry);
	size_t plen = strlen(prefix);
	char name[64], why[256], kept[1100];

	if (clash) {
		report(x->fn, x->arg, "SchedulerParameters entry '%s' contains '%s', which Slurm's own look-ups would take as its setting; ignored",
		       entry, clash);
		return -1;
	}
	if (!eq) {
		report(x->fn, x->arg, "SchedulerParameters entry '%s': a %s key needs a value (key=value); ignored",
		       entry, prefix);
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - entry - plen), entry + plen);
	const tp_setting *e = tp_setting_find(name, x->scope);
	if (!e) {
		known_keys(x->scope, kept, sizeof(kept));
		report(x->fn, x->arg, "SchedulerParameters entry '%s': unknown key '%.*s' (known: %s); ignored",
		       entry, (int)(eq - entry), entry, kept);
		return -1;
	}
	size_t i = (size_t)(e - tp_settings_table);
	if (x->given[i]) {
		tp_setting_show(e, x->out, kept, sizeof(kept));
		report(x->fn, x->arg, "SchedulerParameters %s%s given again ('%s'); the first value, %s, stands",
		       prefix, e->name, eq + 1, kept);
		return -1;
	}
	if (!tp_setting_set(e, x->out, eq + 1, why, sizeof(why))) {
		x->given[i] = true;
		return 0;
	}
	memcpy(field(e, x->out), cfield(e, x->prev), e->size);
	tp_setting_show(e, x->out, kept, sizeof(kept));
	report(x->fn, x->arg, "SchedulerParameters %s%s: bad value '%s': %s; keeping %s%s=%s",
	       prefix, e->name, eq + 1, why, prefix, e->name, kept);
	return -1;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Every entry of x's scope in params into x: how many were problems, -1
 * on ENOMEM. */
static int parse_entries(parse_ctx *x, const char *params)
{
	const char *prefix = tp_setting_prefix(x->scope);
	char *copy = strdup(params), *save = NULL;
	if (!copy)
		return -1;
	int problems = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *e = trim(tok);
		if (!strncasecmp(e, prefix, strlen(prefix)) && parse_entry(x, e))
			problems++;
	}
	free(copy);
	return problems;
}

int tp_settings_parse_params(tp_settings *out, const tp_settings *prev,
			     const char *params, unsigned scope,
			     tp_settings_report_fn fn, void *arg)
{
	tp_settings def, before;
	const char *prefix = tp_setting_prefix(scope);
	tp_settings_default(&def, true);
	before = prev ? *prev : def; /* out and prev may be one struct */
	prev = &before;
	*out = *prev;
	/* Settings of this scope not given start from their defaults; the
	 * previous values only stand in for bad ones. */
	for (const tp_setting *e = tp_settings_table; e->name; e++)
		if (e->scope & scope)
			memcpy(field(e, out), cfield(e, &def), e->size);
	if (!params || !*params || !prefix)
		return 0;
	parse_ctx x = { .out = out, .prev = prev, .scope = scope, .fn = fn,
			.arg = arg };
	int problems = parse_entries(&x, params);
	if (problems < 0) {
		*out = *prev;
		report(fn, arg, "SchedulerParameters: out of memory; settings unchanged");
		return 1;
	}
	return problems;
}

/* The settings are read as tp_settings_parse_params reads them (its
 * problems are its to report: nothing is said of them here), so a
 * setting counts as given exactly when the parser took its value. */
int tp_settings_report_unread(const char *params, unsigned scope,
			      const char *policy, tp_settings_report_fn fn,
			      void *arg)
{
	const char *prefix = tp_setting_prefix(scope);
	tp_settings def, given;
	tp_settings_default(&def, true);
	given = def;
	parse_ctx x = { .out = &given, .prev = &def, .scope = scope };
	if (!params || !prefix || parse_entries(&x, params) < 0)
		return 0;
	int unread = 0;
	for (const tp_setting *e = tp_settings_table; e->name; e++) {
		if (!x.given[e - tp_settings_table] ||
		    tp_setting_for_policy(e, policy))
			continue;
		char val[1100];
		tp_setting_show(e, &given, val, sizeof(val));
		unread++;
		report(fn, arg,
		       "SchedulerParameters: %s%s=%s has no effect with %spolicy=%s (it is read by %s)",
		       prefix, e->name, val, prefix, policy, e->policies);
	}
	return unread;
}

void tp_settings_format(const tp_settings *s, unsigned scope, char *buf,
			size_t len)
{
	const char *prefix = tp_setting_prefix(scope);
	size_t used = 0;
	buf[0] = '\0';
	for (const tp_setting *e = tp_settings_table; e->name && used < len; e++) {
		if (!(e->scope & scope))
			continue;
		char val[1100];
		tp_setting_show(e, s, val, sizeof(val));
		if (!val[0])
			continue; /* unset: the configuration file's */
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s=%s",
					 used ? "," : "", prefix ? prefix : "--",
					 e->name, val);
	}
}
