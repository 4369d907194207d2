/* site.c - slurm.conf's nodes and partitions; see site.h. */
#include "site/site.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/conffile.h"
#include "base/grow.h"
#include "base/hostlist.h"
#include "site/site_prio.h"
#include "trace/sacct.h"

#define MAX_DEPTH 8

/* What a DEFAULT line leaves for the lines after it: the pairs as given,
 * read again for each line without its own value. */
typedef struct defaults {
	char *key[TP_CONF_MAX_PAIRS];
	char *value[TP_CONF_MAX_PAIRS];
	size_t n;
} defaults;

typedef struct reader {
	tp_site *s;
	defaults node_def, part_def;
	tp_error *err;
} reader;

static void defaults_clear(defaults *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->key[i]);
		free(d->value[i]);
	}
	d->n = 0;
}

/* A DEFAULT line adds to (or replaces keys of) the defaults before it. */
static int defaults_add(defaults *d, const tp_conf_line *l, const char *skip)
{
	for (size_t i = 0; i < l->npairs; i++) {
		const tp_conf_pair *p = &l->pairs[i];
		if (!strcasecmp(p->key, skip))
			continue;
		size_t k = 0;
		while (k < d->n && strcasecmp(d->key[k], p->key))
			k++;
		char *v = strdup(p->value);
		if (!v)
			return -1;
		if (k < d->n) {
			free(d->value[k]);
			d->value[k] = v;
			continue;
		}
		if (!(d->key[k] = strdup(p->key))) {
			free(v);
			return -1;
		}
		d->value[k] = v;
		d->n++;
	}
	return 0;
}

/* The line's value of key, else the defaults', else NULL. */
static const char *get(const tp_conf_line *l, const defaults *d,
		       const char *key)
{
	const char *v = tp_conf_get(l, key);
	for (size_t k = 0; !v && k < d->n; k++)
		if (!strcasecmp(d->key[k], key))
			v = d->value[k];
	return v;
}

static int bad(reader *r, const char *path, int line, const char *what,
	       const char *value)
{
	return tp_errorf(r->err, "%s:%d: %s '%.80s'", path, line, what, value);
}

static int oom(reader *r, const char *path)
{
	return tp_errorf(r->err, "%s: out of memory", path);
}

/* A whole number in [0, hi]: 0, else -1. */
static int number(const char *v, int64_t hi, int64_t *out)
{
	char *end;
	if (!v || !*v || *v < '0' || *v > '9')
		return -1;
	unsigned long long x = strtoull(v, &end, 10);
	if (*end || x > (unsigned long long)hi)
		return -1;
	*out = (int64_t)x;
	return 0;
}

/* key's value (line or defaults) as a number, `dflt` when not given. */
static int number_key(reader *r, const char *path, const tp_conf_line *l,
		      const defaults *d, const char *key, int64_t hi,
		      int64_t dflt, int64_t *out)
{
	const char *v = get(l, d, key);
	char what[64];
	*out = dflt;
	if (!v)
		return 0;
	snprintf(what, sizeof(what), "bad %s", key);
	return number(v, hi, out) ? bad(r, path, l->lineno, what, v) : 0;
}

/* Gres=: the gpu counts added up ("gpu:4", "gpu:a100:2(S:0-1)"). */
static int gres_gpus(const char *v, int32_t *gpus)
{
	*gpus = 0;
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, ",");
		if (len > 4 && !strncmp(p, "gpu:", 4)) {
			const char *last = p + len;
			const char *paren = memchr(p, '(', len);
			if (paren)
				last = paren;
			const char *colon = last;
			while (colon > p && colon[-1] != ':')
				colon--;
			int64_t n;
			char buf[16];
			if (last - colon < 1 || last - colon >= (long)sizeof(buf))
				return -1;
			snprintf(buf, sizeof(buf), "%.*s", (int)(last - colon), colon);
			if (number(buf, 1 << 20, &n))
				return -1;
			*gpus += (int32_t)n;
		} else if (len == 3 && !strncmp(p, "gpu", 3)) {
			*gpus += 1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* CPUs of a NodeName line: CPUs=, else the product of its geometry. */
static int node_cpus(reader *r, const char *path, const tp_conf_line *l,
		     int32_t *cpus)
{
	static const char *const geo[] = { "Boards", "SocketsPerBoard",
					   "CoresPerSocket", "ThreadsPerCore" };
	int64_t v, prod = 1;
	if (number_key(r, path, l, &r->node_def, "CPUs", 1 << 20, -1, &v))
		return -1;
	if (v < 0 && number_key(r, path, l, &r->node_def, "Procs", 1 << 20, -1, &v))
		return -1;
	if (v > 0) {
		*cpus = (int32_t)v;
		return 0;
	}
	for (size_t i = 0; i < 4; i++) {
		int64_t x;
		if (number_key(r, path, l, &r->node_def, geo[i], 4096, 1, &x))
			return -1;
		if (i == 1 && !get(l, &r->node_def, "SocketsPerBoard") &&
		    number_key(r, path, l, &r->node_def, "Sockets", 4096, 1, &x))
			return -1;
		prod *= x ? x : 1;
	}
	if (prod > (1 << 20))
		return bad(r, path, l->lineno, "too many CPUs on a node", get(l, &r->node_def, "NodeName"));
	*cpus = (int32_t)prod;
	return 0;
}

/* Appends one node (its name now the site's). */
static int add_node(reader *r, const char *path, int line, char *name,
		    const tp_site_node *proto)
{
	tp_site *s = r->s;
	if (tp_site_node_find(s, name) >= 0) {
		int rc = bad(r, path, line, "node defined twice", name);
		free(name);
		return rc;
	}
	tp_site_node *p = tp_grow(s->nodes, &s->capnodes, s->nnodes,
				  sizeof(*p), 64);
	if (p)
		s->nodes = p;
	char **n = p ? tp_grow(s->names, &s->capnames, s->nnodes,
			       sizeof(*n), 64) : NULL;
	if (!n) {
		free(name);
		return oom(r, path);
	}
	s->names = n;
	s->nodes[s->nnodes] = *proto;
	s->nodes[s->nnodes].name = name;
	s->names[s->nnodes] = name;
	if (tp_name_index_add(&s->node_index, s->names)) {
		free(name);
		return oom(r, path);
	}
	s->nnodes++;
	return 0;
}

static int node_line(reader *r, const char *path, const tp_conf_line *l)
{
	const char *names = tp_conf_get(l, "NodeName");
	if (!strcasecmp(names, "DEFAULT"))
		return defaults_add(&r->node_def, l, "NodeName") ? oom(r, path) : 0;
	tp_site_node proto = { 0 };
	int64_t mem;
	const char *g = get(l, &r->node_def, "Gres");
	if (node_cpus(r, path, l, &proto.cpus) ||
	    number_key(r, path, l, &r->node_def, "RealMemory", INT64_MAX / 4, 1, &mem))
		return -1;
	proto.mem_mb = mem;
	if (g && gres_gpus(g, &proto.gpus))
		return bad(r, path, l->lineno, "bad Gres", g);
	tp_hostlist hl = { 0 };
	char why[128];
	int rc = 0;
	if (tp_hostlist_expand(&hl, names, why, sizeof(why)))
		rc = tp_errorf(r->err, "%s:%d: NodeName=%.80s: %s", path,
			       l->lineno, names, why);
	for (size_t i = 0; i < hl.n && !rc; i++) {
		rc = add_node(r, path, l->lineno, hl.names[i], &proto);
		hl.names[i] = NULL;
	}
	tp_hostlist_fini(&hl);
	return rc;
}

/* ---- partitions ------------------------------------------------------ */

/* MaxTime=/DefaultTime=: Slurm's time forms, UNLIMITED/INFINITE. */
static int time_key(reader *r, const char *path, const tp_conf_line *l,
		    const char *key, int64_t *out)
{
	const char *v = get(l, &r->part_def, key);
	char what[64];
	*out = TP_SITE_UNLIMITED;
	if (!v || !strcasecmp(v, "INFINITE") || !strcmp(v, "-1"))
		return 0;
	snprintf(what, sizeof(what), "bad %s", key);
	if (!strcasecmp(v, "Partition_Limit") || !strcasecmp(v, "INVALID") ||
	    tp_sacct_parse_limit(v, out))
		return bad(r, path, l->lineno, what, v);
	if (*out < 0)
		*out = TP_SITE_UNLIMITED;
	return 0;
}

/* OverSubscribe= (Shared=): the word, and YES's and FORCE's ":COUNT"
 * (4 when not given, as Slurm's default). */
static int oversub_key(reader *r, const char *path, const tp_conf_line *l,
		       tp_oversub *out, int32_t *count)
{
	static const char *const word[] = { "NO", "YES", "FORCE", "EXCLUSIVE" };
	const char *v = get(l, &r->part_def, "OverSubscribe");
	if (!v)
		v = get(l, &r->part_def, "Shared");
	*out = TP_OVERSUB_NO;
	*count = 1;
	if (!v)
		return 0;
	size_t len = strcspn(v, ":");
	for (int i = 0; i < 4; i++)
		if (strlen(word[i]) == len && !strncasecmp(v, word[i], len)) {
			int64_t n = 4;
			if (v[len] && (i == 0 || i == 3 || number(v + len + 1, 1 << 15, &n) || n < 1))
				break;
			*out = (tp_oversub)i;
			if (i == TP_OVERSUB_YES || i == TP_OVERSUB_FORCE)
				*count = (int32_t)n;
			return 0;
		}
	return bad(r, path, l->lineno, "bad OverSubscribe", v);
}

static int state_key(reader *r, const char *path, const tp_conf_line *l,
		     tp_part_state *out)
{
	static const char *const word[] = { "UP", "DOWN", "DRAIN", "INACTIVE" };
	const char *v = get(l, &r->part_def, "State");
	*out = TP_PART_UP;
	for (int i = 0; v && i < 4; i++)
		if (!strcasecmp(v, word[i])) {
			*out = (tp_part_state)i;
			return 0;
		}
	return v ? bad(r, path, l->lineno, "bad State", v) : 0;
}

/* Nodes=: ALL, or names of NodeName lines read before. */
static int part_nodes(reader *r, const char *path, const tp_conf_line *l,
		      tp_site_part *p)
{
	tp_site *s = r->s;
	const char *v = get(l, &r->part_def, "Nodes");
	if (!v)
		return 0;
	bool all = !strcasecmp(v, "ALL");
	tp_hostlist hl = { 0 };
	char why[128];
	if (!all && tp_hostlist_expand(&hl, v, why, sizeof(why))) {
		tp_hostlist_fini(&hl);
		return tp_errorf(r->err, "%s:%d: Nodes=%.80s: %s", path,
				 l->lineno, v, why);
	}
	size_t n = all ? s->nnodes : hl.n;
	int rc = 0;
	if (!(p->nodes = malloc((n ? n : 1) * sizeof(*p->nodes))))
		rc = oom(r, path);
	for (size_t i = 0; i < n && !rc; i++) {
		int idx = all ? (int)i : tp_site_node_find(s, hl.names[i]);
		if (idx < 0)
			rc = bad(r, path, l->lineno, "partition node without a NodeName line",
				 hl.names[i]);
		else
			p->nodes[p->nnodes++] = idx;
	}
	tp_hostlist_fini(&hl);
	return rc;
}

static int part_values(reader *r, const char *path, const tp_conf_line *l,
		       tp_site_part *p)
{
	int64_t tier, factor, prio, maxn;
	const char *dflt = get(l, &r->part_def, "Default");
	if (time_key(r, path, l, "MaxTime", &p->max_time) ||
	    time_key(r, path, l, "DefaultTime", &p->default_time) ||
	    number_key(r, path, l, &r->part_def, "Priority", 65533, -1, &prio) ||
	    number_key(r, path, l, &r->part_def, "PriorityTier", 65533,
		       prio >= 0 ? prio : 1, &tier) ||
	    number_key(r, path, l, &r->part_def, "PriorityJobFactor", 65533,
		       prio >= 0 ? prio : 1, &factor) ||
	    oversub_key(r, path, l, &p->oversub, &p->oversub_count) || state_key(r, path, l, &p->state))
		return -1;
	const char *mn = get(l, &r->part_def, "MaxNodes");
	if (!mn || !strcasecmp(mn, "UNLIMITED") || !strcasecmp(mn, "INFINITE"))
		maxn = TP_SITE_UNLIMITED;
	else if (number(mn, INT32_MAX, &maxn))
		return bad(r, path, l->lineno, "bad MaxNodes", mn);
	int yes = dflt ? tp_conf_bool(dflt) : 0;
	if (yes < 0)
		return bad(r, path, l->lineno, "bad Default", dflt);
	p->priority_tier = (uint16_t)tier;
	p->priority_job_factor = (uint16_t)factor;
	p->max_nodes = (int32_t)maxn;
	p->is_default = yes;
	p->line = l->lineno;
	return part_nodes(r, path, l, p);
}

static int part_line(reader *r, const char *path, const tp_conf_line *l)
{
	const char *name = tp_conf_get(l, "PartitionName");
	tp_site *s = r->s;
	if (!strcasecmp(name, "DEFAULT"))
		return defaults_add(&r->part_def, l, "PartitionName") ? oom(r, path) : 0;
	if (tp_site_part_find(s, name))
		return bad(r, path, l->lineno, "partition defined twice", name);
	tp_site_part *p = tp_grow(s->parts, &s->capparts, s->nparts,
				  sizeof(*p), 8);
	if (!p)
		return oom(r, path);
	s->parts = p;
	p = &s->parts[s->nparts];
	memset(p, 0, sizeof(*p));
	if (!(p->name = strdup(name)))
		return oom(r, path);
	s->nparts++; /* freed with the site, whatever follows */
	return part_values(r, path, l, p);
}

/* ---- files ----------------------------------------------------------- */

static int read_file(reader *r, const char *path, int depth);

static int include(reader *r, const char *path, const tp_conf_line *l,
		   const char *file, int depth)
{
	if (depth >= MAX_DEPTH)
		return bad(r, path, l->lineno, "Include nested more than 8 deep", file);
	char *dir = strdup(path);
	if (!dir)
		return oom(r, path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *full = tp_conf_path_join(slash ? dir : NULL, file);
	free(dir);
	if (!full)
		return oom(r, path);
	int rc = read_file(r, full, depth + 1);
	free(full);
	return rc;
}

static int read_file(reader *r, const char *path, int depth)
{
	tp_conf_reader *c = tp_conf_open(path, r->err);
	if (!c)
		return -1;
	tp_conf_allow_include(c);
	tp_conf_line l;
	int rc;
	while ((rc = tp_conf_next(c, &l, r->err)) > 0) {
		const char *inc = tp_conf_get(&l, "Include");
		int bad_line = 0;
		if (inc && l.npairs == 1)
			bad_line = include(r, path, &l, inc, depth);
		else if (tp_conf_get(&l, "NodeName"))
			bad_line = node_line(r, path, &l);
		else if (tp_conf_get(&l, "PartitionName"))
			bad_line = part_line(r, path, &l);
		else
			bad_line = tp_site_prio_line(&r->s->prio, path, &l, r->err);
		if (bad_line) {
			rc = -1;
			break;
		}
	}
	tp_conf_close(c);
	return rc < 0 ? -1 : 0;
}

int tp_site_read(const char *path, tp_site *s, tp_error *err)
{
	memset(s, 0, sizeof(*s));
	reader r = { .s = s, .err = err };
	tp_site_prio_default(&s->prio);
	int rc = (s->path = strdup(path)) ? read_file(&r, path, 0) :
		 tp_errorf(err, "%s: out of memory", path);
	defaults_clear(&r.node_def);
	defaults_clear(&r.part_def);
	if (rc)
		tp_site_fini(s);
	return rc;
}

void tp_site_fini(tp_site *s)
{
	for (size_t i = 0; i < s->nnodes; i++)
		free(s->nodes[i].name);
	free(s->nodes);
	free(s->names);
	tp_name_index_fini(&s->node_index);
	for (size_t i = 0; i < s->nparts; i++) {
		free(s->parts[i].name);
		free(s->parts[i].nodes);
	}
	free(s->parts);
	free(s->prio.sched_params);
	free(s->prio.sched_type);
	free(s->prio.enforce);
	free(s->prio.select_params);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

const tp_site_part *tp_site_part_find(const tp_site *s, const char *name)
{
	for (size_t i = 0; i < s->nparts; i++)
		if (!strcmp(s->parts[i].name, name))
			return &s->parts[i];
	return NULL;
}

int tp_site_node_find(const tp_site *s, const char *name)
{
	return s->nnodes ? tp_name_index_find(&s->node_index, s->names, name) : -1;
}
