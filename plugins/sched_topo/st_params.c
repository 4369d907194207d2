/* st_params.c - topo_* SchedulerParameters; see st_params.h, sched_topo(5). */
#include "st_params.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ST_PREFIX "topo_"

void st_params_default(st_params *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->policy, sizeof(p->policy), "easy");
	tp_policy_opts_default(&p->opts);
	p->opts.rbhar_resubmit = 0;
	p->period = 1;
	p->stats_every = 60;
}

/* A whole decimal number in [lo, hi]; 0 or -1. */
static int parse_long(const char *v, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

/* yes/no, on/off, true/false, 1/0 -> 1/0, anything else -1. */
static int parse_bool(const char *v)
{
	static const char *const yes[] = { "yes", "on", "true", "1", NULL };
	static const char *const no[] = { "no", "off", "false", "0", NULL };
	for (int i = 0; yes[i]; i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (int i = 0; no[i]; i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	return -1;
}

/* Each setter: 0, or -1 with `why` describing what a valid value is. */
typedef int (*st_setter)(st_params *p, const char *v, char *why, size_t len);

static int set_policy(st_params *p, const char *v, char *why, size_t len)
{
	const char *const *names = tp_policy_names();
	for (size_t i = 0; names[i]; i++) {
		if (strcmp(names[i], v))
			continue;
		snprintf(p->policy, sizeof(p->policy), "%s", v);
		return 0;
	}
	size_t used = (size_t)snprintf(why, len, "unknown policy (known:");
	for (size_t i = 0; names[i] && used < len; i++)
		used += (size_t)snprintf(why + used, len - used, " %s", names[i]);
	if (used < len)
		snprintf(why + used, len - used, ")");
	return -1;
}

#define INT_SETTER(fn, field, lo, hi, what)                                  \
	static int fn(st_params *p, const char *v, char *why, size_t len)    \
	{                                                                    \
		long n;                                                      \
		if (parse_long(v, (lo), (hi), &n)) {                         \
			snprintf(why, len, "%s", what);                      \
			return -1;                                           \
		}                                                            \
		p->field = (int)n;                                           \
		return 0;                                                    \
	}

INT_SETTER(set_window, opts.window, 1, 1000000,
	   "not a whole number from 1 to 1000000")
INT_SETTER(set_njob, opts.njob, 1, 1000000,
	   "not a whole number from 1 to 1000000")
INT_SETTER(set_max_ext, opts.rbhar_max_ext, 0, 1000,
	   "not a whole number from 0 to 1000")
INT_SETTER(set_period, period, ST_PERIOD_MIN, ST_PERIOD_MAX,
	   "not a whole number of seconds from 1 to 3600")
INT_SETTER(set_stats_every, stats_every, 0, INT_MAX,
	   "not a whole number >= 0 (0 = never)")

static int set_max_time(st_params *p, const char *v, char *why, size_t len)
{
	long n;
	if (parse_long(v, 0, LONG_MAX, &n)) {
		snprintf(why, len, "not a whole number of seconds >= 0 (0 = no cap)");
		return -1;
	}
	p->opts.rbhar_max_time = n;
	return 0;
}

static int set_factor(st_params *p, const char *v, char *why, size_t len)
{
	char *end;
	errno = 0;
	double f = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(f) || f < 1.0 || f > 1e6) {
		snprintf(why, len, "not a number from 1 to 1e6");
		return -1;
	}
	p->opts.rbhar_factor = f;
	return 0;
}

static int set_window_rule(st_params *p, const char *v, char *why, size_t len)
{
	if (!strcasecmp(v, "queue"))
		p->opts.window_rule = TP_WINDOW_QUEUE;
	else if (!strcasecmp(v, "index"))
		p->opts.window_rule = TP_WINDOW_INDEX;
	else {
		snprintf(why, len, "not queue or index");
		return -1;
	}
	return 0;
}

static int set_requeue(st_params *p, const char *v, char *why, size_t len)
{
	int b = parse_bool(v);
	if (b < 0) {
		snprintf(why, len, "not yes or no");
		return -1;
	}
	p->opts.rbhar_resubmit = b;
	return 0;
}

/* Copy one setting from src to dst, and print it ("easy", "4"). */
typedef void (*st_copier)(st_params *dst, const st_params *src);
typedef void (*st_shower)(const st_params *p, char *buf, size_t len);

#define FIELD_OPS(name, field, fmt, cast)                                    \
	static void copy_##name(st_params *d, const st_params *s)            \
	{                                                                    \
		d->field = s->field;                                         \
	}                                                                    \
	static void show_##name(const st_params *p, char *b, size_t n)       \
	{                                                                    \
		snprintf(b, n, fmt, (cast)p->field);                         \
	}

FIELD_OPS(window, opts.window, "%d", int)
FIELD_OPS(njob, opts.njob, "%d", int)
FIELD_OPS(period, period, "%d", int)
FIELD_OPS(max_ext, opts.rbhar_max_ext, "%d", int)
FIELD_OPS(max_time, opts.rbhar_max_time, "%lld", long long)
FIELD_OPS(factor, opts.rbhar_factor, "%g", double)
FIELD_OPS(stats_every, stats_every, "%d", int)

static void copy_policy(st_params *d, const st_params *s)
{
	memcpy(d->policy, s->policy, sizeof(d->policy));
}
static void show_policy(const st_params *p, char *b, size_t n)
{
	snprintf(b, n, "%s", p->policy);
}
static void copy_window_rule(st_params *d, const st_params *s)
{
	d->opts.window_rule = s->opts.window_rule;
}
static void show_window_rule(const st_params *p, char *b, size_t n)
{
	snprintf(b, n, "%s", p->opts.window_rule == TP_WINDOW_INDEX ? "index" : "queue");
}
static void copy_requeue(st_params *d, const st_params *s)
{
	d->opts.rbhar_resubmit = s->opts.rbhar_resubmit;
}
static void show_requeue(const st_params *p, char *b, size_t n)
{
	snprintf(b, n, "%s", p->opts.rbhar_resubmit ? "yes" : "no");
}

static const struct st_key {
	const char *key; /* with '=' */
	st_setter set;
	st_copier copy;
	st_shower show;
} st_keys[] = {
	{ "topo_policy=", set_policy, copy_policy, show_policy },
	{ "topo_window=", set_window, copy_window, show_window },
	{ "topo_window_rule=", set_window_rule, copy_window_rule,
	  show_window_rule },
	{ "topo_njob=", set_njob, copy_njob, show_njob },
	{ "topo_period=", set_period, copy_period, show_period },
	{ "topo_rbhar_max_ext=", set_max_ext, copy_max_ext, show_max_ext },
	{ "topo_rbhar_max_time=", set_max_time, copy_max_time, show_max_time },
	{ "topo_rbhar_factor=", set_factor, copy_factor, show_factor },
	{ "topo_requeue=", set_requeue, copy_requeue, show_requeue },
	{ "topo_stats_every=", set_stats_every, copy_stats_every,
	  show_stats_every },
	{ NULL, NULL, NULL, NULL },
};

const char *const *st_params_keys(void)
{
	static const char *names[sizeof(st_keys) / sizeof(st_keys[0])];
	if (!names[0])
		for (size_t i = 0; st_keys[i].key; i++)
			names[i] = st_keys[i].key;
	return names;
}

static void report(st_params_report_fn fn, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(st_params_report_fn fn, void *arg, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (fn)
		fn(arg, msg);
}

/* One entry "key=value" (already trimmed, starting with topo_). */
static int apply_entry(st_params *p, const st_params *prev, bool *given,
		       const char *entry, st_params_report_fn fn, void *arg)
{
	const char *eq = strchr(entry, '=');
	size_t klen = eq ? (size_t)(eq - entry) + 1 : strlen(entry);
	for (size_t i = 0; st_keys[i].key; i++) {
		const struct st_key *k = &st_keys[i];
		if (strlen(k->key) != klen || strncasecmp(k->key, entry, klen))
			continue;
		char why[256], kept[64];
		if (!k->set(p, eq + 1, why, sizeof(why))) {
			given[i] = true;
			return 0;
		}
		if (!given[i]) /* else an earlier valid entry stands */
			k->copy(p, prev);
		k->show(p, kept, sizeof(kept));
		report(fn, arg, "SchedulerParameters %.*s: bad value '%s': %s; keeping %s%s",
		       (int)(klen - 1), entry, eq + 1, why, k->key, kept);
		return -1;
	}
	if (!eq)
		report(fn, arg, "SchedulerParameters entry '%s': a topo_ key needs a value (key=value); ignored",
		       entry);
	else
		report(fn, arg, "SchedulerParameters entry '%s': unknown key '%.*s' (known: topo_policy, topo_window, topo_window_rule, topo_njob, topo_period, topo_rbhar_max_ext, topo_rbhar_max_time, topo_rbhar_factor, topo_requeue, topo_stats_every); ignored",
		       entry, (int)(klen - 1), entry);
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

int st_params_load(st_params *out, const st_params *prev,
		   const char *sched_params, st_params_report_fn fn, void *arg)
{
	st_params def;
	st_params_default(&def);
	if (!prev)
		prev = &def;
	*out = def;
	if (!sched_params || !*sched_params)
		return 0;
	char *copy = strdup(sched_params);
	if (!copy) {
		*out = *prev;
		report(fn, arg, "SchedulerParameters: out of memory; settings unchanged");
		return 1;
	}
	int problems = 0;
	bool given[sizeof(st_keys) / sizeof(st_keys[0])] = { false };
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *e = trim(tok);
		if (strncasecmp(e, ST_PREFIX, strlen(ST_PREFIX)))
			continue; /* Slurm's own */
		if (apply_entry(out, prev, given, e, fn, arg))
			problems++;
	}
	free(copy);
	return problems;
}

void st_params_format(const st_params *p, char *buf, size_t len)
{
	snprintf(buf, len,
		 "topo_policy=%s,topo_window=%d,topo_window_rule=%s,topo_njob=%d,"
		 "topo_period=%d,topo_rbhar_max_ext=%d,topo_rbhar_max_time=%lld,"
		 "topo_rbhar_factor=%g,topo_requeue=%s,topo_stats_every=%d",
		 p->policy, p->opts.window,
		 p->opts.window_rule == TP_WINDOW_INDEX ? "index" : "queue",
		 p->opts.njob, p->period,
		 p->opts.rbhar_max_ext, (long long)p->opts.rbhar_max_time,
		 p->opts.rbhar_factor, p->opts.rbhar_resubmit ? "yes" : "no",
		 p->stats_every);
}
