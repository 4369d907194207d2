/* site_prio.c - slurm.conf's priority settings; see site_prio.h. */
#include "site/site_prio.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/sacct.h"

void tp_site_prio_default(tp_site_prio *p)
{
	memset(p, 0, sizeof(*p));
	tp_prio_conf_default(&p->conf);
	p->decay_half_life = 7 * 86400;
	p->calc_period = 300;
	p->fair_tree = true;
}

static int bad(const char *path, const tp_conf_line *l, const char *key,
	       const char *v, tp_error *err)
{
	return tp_errorf(err, "%s:%d: bad %s '%.80s'", path, l->lineno, key, v);
}

static int weight(const char *v, uint32_t *w)
{
	char *end;
	if (!*v || *v < '0' || *v > '9')
		return -1;
	unsigned long long x = strtoull(v, &end, 10);
	if (*end || x > UINT32_MAX)
		return -1;
	*w = (uint32_t)x;
	return 0;
}

/* Slurm's time forms (time_str2mins): seconds, -1 for INFINITE. */
static int duration(const char *v, int64_t *s)
{
	if (!strcasecmp(v, "INFINITE") || !strcasecmp(v, "UNLIMITED")) {
		*s = -1;
		return 0;
	}
	return tp_sacct_parse_limit(v, s) || *s < 0 ? -1 : 0;
}

/* PriorityWeightTRES=CPU=1000,Mem=2000,GRES/gpu=3000 */
static int tres_weights(const char *v, double *w)
{
	static const char *const name[TP_TRES_N] = { "CPU", "Mem", "Node", "GRES/gpu" };
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		int i = 0;
		if (!eq)
			return -1;
		while (i < TP_TRES_N && (strlen(name[i]) != (size_t)(eq - p) ||
					 strncasecmp(p, name[i], (size_t)(eq - p))))
			i++;
		char buf[32];
		char *end;
		size_t vl = len - (size_t)(eq + 1 - p);
		if (!vl || vl >= sizeof(buf))
			return -1;
		snprintf(buf, sizeof(buf), "%.*s", (int)vl, eq + 1);
		double x = strtod(buf, &end);
		if (*end || !(x >= 0))
			return -1;
		if (i < TP_TRES_N) /* other TRES: not modelled */
			w[i] = x;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* Whether `word` is in s, case-insensitive (as Slurm's xstrcasestr). */
static bool has(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return true;
	return false;
}

static void note(tp_site_prio *p, const char *flag)
{
	size_t n = strlen(p->unmodelled);
	snprintf(p->unmodelled + n, sizeof(p->unmodelled) - n, "%s%s",
		 n ? "," : "", flag);
}

/* PriorityFlags: the modelled ones set, the others named. */
static void flags(tp_site_prio *p, const char *v)
{
	static const struct { const char *name; unsigned flag; } known[] = {
		{ "SMALL_RELATIVE_TO_TIME", TP_PRIO_SIZE_RELATIVE },
		{ "NO_NORMAL_PART", TP_PRIO_NO_NORMAL_PART },
		{ "NO_NORMAL_QOS", TP_PRIO_NO_NORMAL_QOS },
		{ "NO_NORMAL_ASSOC", TP_PRIO_NO_NORMAL_ASSOC },
		{ "NO_NORMAL_TRES", TP_PRIO_NO_NORMAL_TRES },
	};
	static const char *const other[] = { "ACCRUE_ALWAYS", "CALCULATE_RUNNING",
					     "INCR_ONLY", "MAX_TRES" };
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (has(v, known[i].name))
			p->conf.flags |= known[i].flag;
	if (has(v, "NO_NORMAL_ALL"))
		p->conf.flags |= TP_PRIO_NO_NORMAL_PART | TP_PRIO_NO_NORMAL_QOS |
				 TP_PRIO_NO_NORMAL_ASSOC | TP_PRIO_NO_NORMAL_TRES;
	if (has(v, "DEPTH_OBLIVIOUS") || has(v, "NO_FAIR_TREE")) {
		p->fair_tree = false;
		note(p, has(v, "DEPTH_OBLIVIOUS") ? "DEPTH_OBLIVIOUS" : "NO_FAIR_TREE");
	}
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (has(v, other[i]))
			note(p, other[i]);
}

/* A value kept as written; -2 on ENOMEM. */
static int keep(char **dst, const char *v)
{
	free(*dst);
	return (*dst = strdup(v)) ? 0 : -2;
}

static int pair(tp_site_prio *p, const char *k, const char *v)
{
	static const struct { const char *key; size_t off; } w[] = {
		{ "PriorityWeightAge", offsetof(tp_prio_conf, w_age) },
		{ "PriorityWeightAssoc", offsetof(tp_prio_conf, w_assoc) },
		{ "PriorityWeightFairshare", offsetof(tp_prio_conf, w_fs) },
		{ "PriorityWeightJobSize", offsetof(tp_prio_conf, w_js) },
		{ "PriorityWeightPartition", offsetof(tp_prio_conf, w_part) },
		{ "PriorityWeightQOS", offsetof(tp_prio_conf, w_qos) },
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcasecmp(k, w[i].key))
			return weight(v, (uint32_t *)((char *)&p->conf + w[i].off));
	int64_t s;
	if (!strcasecmp(k, "PriorityType")) {
		if (strcasecmp(v, "priority/multifactor") && strcasecmp(v, "priority/basic"))
			return -1;
		p->multifactor = !strcasecmp(v, "priority/multifactor");
	} else if (!strcasecmp(k, "PriorityWeightTRES")) {
		return tres_weights(v, p->conf.w_tres);
	} else if (!strcasecmp(k, "PriorityMaxAge")) {
		if (duration(v, &s))
			return -1;
		p->conf.max_age = s < 0 || s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
	} else if (!strcasecmp(k, "PriorityDecayHalfLife")) {
		if (duration(v, &s))
			return -1;
		p->decay_half_life = s < 0 ? 0 : s;
	} else if (!strcasecmp(k, "PriorityCalcPeriod")) {
		if (duration(v, &s) || s < 60)
			return -1;
		p->calc_period = s;
	} else if (!strcasecmp(k, "PriorityFavorSmall")) {
		int b = tp_conf_bool(v);
		if (b < 0)
			return -1;
		p->conf.favor_small = b;
	} else if (!strcasecmp(k, "PriorityFlags")) {
		flags(p, v);
	} else if (!strcasecmp(k, "SchedulerParameters")) {
		return keep(&p->sched_params, v);
	} else if (!strcasecmp(k, "SelectTypeParameters")) {
		return keep(&p->select_params, v);
	} else if (!strcasecmp(k, "SchedulerType")) {
		return keep(&p->sched_type, v);
	} else if (!strcasecmp(k, "AccountingStorageEnforce")) {
		return keep(&p->enforce, v);
	}
	return 0;
}

int tp_site_prio_line(tp_site_prio *p, const char *path,
		      const tp_conf_line *l, tp_error *err)
{
	for (size_t i = 0; i < l->npairs; i++) {
		int rc = pair(p, l->pairs[i].key, l->pairs[i].value);
		if (rc == -2)
			return tp_errorf(err, "%s: out of memory", path);
		if (rc)
			return bad(path, l, l->pairs[i].key, l->pairs[i].value, err);
	}
	return 0;
}
