/*
 * torus.c - the torus model and the torus.conf(5) parser; see torus.h.
 *
 * The parser reads the whole file first (global keys may come in any
 * order), then checks Dimensions, the options, the node map and the
 * Placement= lines (torus_grid.c) in that order, so each error names the
 * line of the value at fault.
 */
#define _GNU_SOURCE /* qsort_r */
#include "topology/torus.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/conffile.h"
#include "base/hostlist.h"

struct tp_torus {
	int ndims, nnodes;
	int dims[TP_TORUS_MAX_DIMS];
	int stride[TP_TORUS_MAX_DIMS];
	bool wrap[TP_TORUS_MAX_DIMS];
	tp_torus_opts opts;
	char **names;   /* by node index */
	int *by_name;   /* node indices sorted by name (binary search) */
	/* Positions that hold a node, counted per box (torus_present.c);
	 * NULL: every position does. */
	tp_torus_counts *present;
	/* Placement= lines, sorted (torus_grid.c); n = 0: none declared. */
	tp_torus_grid_list grids;
};

static const tp_torus_opts default_opts = {
	.ntransit = 0,
	.method = TP_TORUS_COMPACT,
	.distance = TP_TORUS_DIST_MANHATTAN,
	.fs_order = TP_TORUS_FS_OFFSET,
	.shapeless = TP_TORUS_SHAPELESS_PACK,
	.base_shapes = TP_TORUS_SHAPES_ALL,
	.compact_slack = 20,
};

/* ---- enum names ------------------------------------------------------ */

static const char *const method_names[] = { "base", "fs", "mss", "anchor",
						   "compact" };
#define NMETHODS ((int)(sizeof(method_names) / sizeof(*method_names)))
static const char *const distance_names[] = { "manhattan", "torus" };
static const char *const fs_order_names[] = { "offset", "diameter" };
static const char *const shapeless_names[] = { "pack", "refuse" };
static const char *const base_shapes_names[] = { "all", "canonical" };

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcasecmp(names[i], s))
			return i;
	return -1;
}

const char *tp_torus_method_name(tp_torus_method m)
{
	return (unsigned)m < (unsigned)NMETHODS ? method_names[m] : "?";
}

int tp_torus_method_parse(const char *s, tp_torus_method *m)
{
	int i = lookup(method_names, NMETHODS, s);
	if (i < 0)
		return -1;
	*m = (tp_torus_method)i;
	return 0;
}

const char *tp_torus_distance_name(tp_torus_distance d)
{
	return (unsigned)d < 2 ? distance_names[d] : "?";
}

const char *tp_torus_shapeless_name(tp_torus_shapeless sl)
{
	return (unsigned)sl < 2 ? shapeless_names[sl] : "?";
}

const char *tp_torus_base_shapes_name(tp_torus_base_shapes r)
{
	return (unsigned)r < 2 ? base_shapes_names[r] : "?";
}

int tp_torus_base_shapes_parse(const char *s, tp_torus_base_shapes *r)
{
	int i = lookup(base_shapes_names, 2, s);
	if (i < 0)
		return -1;
	*r = (tp_torus_base_shapes)i;
	return 0;
}

const char *tp_torus_fs_order_name(tp_torus_fs_order o)
{
	return (unsigned)o < 2 ? fs_order_names[o] : "?";
}

/* ---- construction ---------------------------------------------------- */

/* A torus with geometry set and no names yet; dims already validated. */
static tp_torus *torus_alloc(int ndims, const int *dims, const bool *wrap)
{
	tp_torus *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->ndims = ndims;
	t->nnodes = 1;
	for (int i = ndims - 1; i >= 0; i--) {
		t->dims[i] = dims[i];
		t->wrap[i] = wrap ? wrap[i] : true;
		t->stride[i] = t->nnodes;
		t->nnodes *= dims[i];
	}
	t->opts = default_opts;
	t->names = calloc((size_t)t->nnodes, sizeof(*t->names));
	t->by_name = malloc((size_t)t->nnodes * sizeof(*t->by_name));
	if (!t->names || !t->by_name) {
		tp_torus_free(t);
		return NULL;
	}
	return t;
}

void tp_torus_free(tp_torus *t)
{
	if (!t)
		return;
	if (t->names)
		for (int i = 0; i < t->nnodes; i++)
			free(t->names[i]);
	free(t->names);
	free(t->by_name);
	tp_torus_counts_free(t->present);
	free(t->grids.g);
	free(t);
}

/* torus_present.c's access to the field, the only writer. */
tp_torus_counts **tp_torus_present_slot(tp_torus *t)
{
	return &t->present;
}

const tp_torus_counts *tp_torus_present_counts(const tp_torus *t)
{
	return t->present;
}

/* torus_grid.c's access to the declared placements. */
tp_torus_grid_list *tp_torus_grids_slot(tp_torus *t)
{
	return &t->grids;
}

/* Checks a geometry; message without file/line into err. */
static int check_dims(int ndims, const int *dims, tp_error *err)
{
	if (ndims < 1 || ndims > TP_TORUS_MAX_DIMS)
		return tp_errorf(err, "%d dimensions (need 1..%d)", ndims,
				 TP_TORUS_MAX_DIMS);
	long n = 1;
	for (int i = 0; i < ndims; i++) {
		if (dims[i] < 1)
			return tp_errorf(err, "dimension %d has size %d (need >= 1)",
					 i, dims[i]);
		n *= dims[i];
		if (n > TP_TORUS_MAX_NODES)
			return tp_errorf(err, "more than %d nodes",
					 TP_TORUS_MAX_NODES);
	}
	return 0;
}

static int cmp_by_name(const void *a, const void *b, void *ctx)
{
	char **names = ctx;
	return strcmp(names[*(const int *)a], names[*(const int *)b]);
}

/* Sort the name index; returns -1 and the two indices of a duplicate. */
static int index_names(tp_torus *t, int *dup_a, int *dup_b)
{
	for (int i = 0; i < t->nnodes; i++)
		t->by_name[i] = i;
	qsort_r(t->by_name, (size_t)t->nnodes, sizeof(int), cmp_by_name,
		t->names);
	for (int i = 1; i < t->nnodes; i++) {
		int a = t->by_name[i - 1], b = t->by_name[i];
		if (!strcmp(t->names[a], t->names[b])) {
			*dup_a = a < b ? a : b;
			*dup_b = a < b ? b : a;
			return -1;
		}
	}
	return 0;
}

tp_torus *tp_torus_generate(int ndims, const int *dims, const bool *wrap,
			    tp_error *err)
{
	tp_error e;
	if (check_dims(ndims, dims, &e)) {
		tp_errorf(err, "torus: %s", e.msg);
		return NULL;
	}
	tp_torus *t = torus_alloc(ndims, dims, wrap);
	if (!t) {
		tp_errorf(err, "torus: out of memory");
		return NULL;
	}
	for (int i = 0; i < t->nnodes; i++) {
		char name[32];
		snprintf(name, sizeof(name), "n%d", i + 1);
		if (!(t->names[i] = strdup(name))) {
			tp_torus_free(t);
			tp_errorf(err, "torus: out of memory");
			return NULL;
		}
	}
	int a, b;
	index_names(t, &a, &b); /* generated names are distinct */
	return t;
}

/* ---- accessors ------------------------------------------------------- */

int tp_torus_nnodes(const tp_torus *t) { return t->nnodes; }
int tp_torus_ndims(const tp_torus *t) { return t->ndims; }
const int *tp_torus_dims(const tp_torus *t) { return t->dims; }
const bool *tp_torus_wrap(const tp_torus *t) { return t->wrap; }
int tp_torus_ntransit(const tp_torus *t) { return t->opts.ntransit; }
const tp_torus_opts *tp_torus_options(const tp_torus *t) { return &t->opts; }

tp_torus_method tp_torus_default_method(const tp_torus *t)
{
	return t->opts.method;
}

int tp_torus_set_options(tp_torus *t, const tp_torus_opts *o, tp_error *err)
{
	if (o->ntransit < 0)
		return tp_errorf(err, "torus: Ntransit must be >= 0 (got %d)",
				 o->ntransit);
	if (o->compact_slack < 0 || o->compact_slack > TP_TORUS_MAX_SLACK)
		return tp_errorf(err, "torus: CompactSlack must be 0 to %d (got %d)",
				 TP_TORUS_MAX_SLACK, o->compact_slack);
	if ((unsigned)o->method > TP_TORUS_COMPACT ||
	    (unsigned)o->distance > TP_TORUS_DIST_TORUS ||
	    (unsigned)o->fs_order > TP_TORUS_FS_DIAMETER ||
	    (unsigned)o->shapeless > TP_TORUS_SHAPELESS_REFUSE ||
	    (unsigned)o->base_shapes > TP_TORUS_SHAPES_CANONICAL)
		return tp_errorf(err, "torus: unknown option value");
	t->opts = *o;
	return 0;
}

const char *tp_torus_node_name(const tp_torus *t, int idx)
{
	return idx >= 0 && idx < t->nnodes ? t->names[idx] : NULL;
}

int tp_torus_node_index(const tp_torus *t, const char *name)
{
	int lo = 0, hi = t->nnodes - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strcmp(t->names[t->by_name[mid]], name);
		if (!c)
			return t->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

void tp_torus_coord(const tp_torus *t, int idx, int *coord)
{
	for (int i = 0; i < t->ndims; i++)
		coord[i] = idx / t->stride[i] % t->dims[i];
}

int tp_torus_index(const tp_torus *t, const int *coord)
{
	int idx = 0;
	for (int i = 0; i < t->ndims; i++) {
		if (coord[i] < 0 || coord[i] >= t->dims[i])
			return -1;
		idx += coord[i] * t->stride[i];
	}
	return idx;
}

int tp_torus_distance_between(const tp_torus *t, int u, int v)
{
	int sum = 0;
	for (int i = 0; i < t->ndims; i++) {
		int a = u / t->stride[i] % t->dims[i];
		int b = v / t->stride[i] % t->dims[i];
		int d = a > b ? a - b : b - a;
		if (t->opts.distance == TP_TORUS_DIST_TORUS && t->wrap[i] &&
		    t->dims[i] - d < d)
			d = t->dims[i] - d;
		sum += d;
	}
	return sum;
}

/* ---- writing --------------------------------------------------------- */

/* "a,b,c" of one vector (sep "," or "x"). */
static void write_vector(const tp_torus *t, const int *v, const char *sep,
			 FILE *fp)
{
	for (int i = 0; i < t->ndims; i++)
		fprintf(fp, "%s%d", i ? sep : "", v[i]);
}

static void write_grid(const tp_torus *t, const tp_torus_grid *g, FILE *fp)
{
	fputs("Placement=", fp);
	write_vector(t, g->len, "x", fp);
	fputs(" AnchorSeed=", fp);
	write_vector(t, g->seed, ",", fp);
	fputs(" AnchorSpacing=", fp);
	write_vector(t, g->spacing, ",", fp);
	fputc('\n', fp);
}

int tp_torus_write_conf(const tp_torus *t, FILE *fp)
{
	fprintf(fp, "# torus.conf(5): %d nodes\nDimensions=", t->nnodes);
	for (int i = 0; i < t->ndims; i++)
		fprintf(fp, "%s%d", i ? "x" : "", t->dims[i]);
	fprintf(fp, "\nWrap=");
	for (int i = 0; i < t->ndims; i++)
		fprintf(fp, "%s%s", i ? "," : "", t->wrap[i] ? "yes" : "no");
	fprintf(fp, "\nNtransit=%d\nMethod=%s\nDistance=%s\nFsOrder=%s\n",
		t->opts.ntransit, tp_torus_method_name(t->opts.method),
		tp_torus_distance_name(t->opts.distance),
		tp_torus_fs_order_name(t->opts.fs_order));
	if (t->opts.shapeless != default_opts.shapeless)
		fprintf(fp, "Shapeless=%s\n",
			tp_torus_shapeless_name(t->opts.shapeless));
	if (t->opts.base_shapes != default_opts.base_shapes)
		fprintf(fp, "BaseShapes=%s\n",
			tp_torus_base_shapes_name(t->opts.base_shapes));
	if (t->opts.compact_slack != default_opts.compact_slack)
		fprintf(fp, "CompactSlack=%d\n", t->opts.compact_slack);
	for (int k = 0; k < t->grids.n; k++)
		write_grid(t, &t->grids.g[k], fp);
	int c[TP_TORUS_MAX_DIMS];
	for (int idx = 0; idx < t->nnodes; idx++) {
		tp_torus_coord(t, idx, c);
		fprintf(fp, "NodeName=%s Coord=", t->names[idx]);
		for (int i = 0; i < t->ndims; i++)
			fprintf(fp, "%s%d", i ? "," : "", c[i]);
		fputc('\n', fp);
	}
	return fflush(fp) || ferror(fp) ? -1 : 0;
}

/* ---- parsing --------------------------------------------------------- */

enum { K_DIMENSIONS, K_WRAP, K_NTRANSIT, K_METHOD, K_DISTANCE, K_FSORDER,
       K_SHAPELESS, K_BASESHAPES, K_COMPACTSLACK, K_NODES, K_COUNT };
static const char *const key_names[K_COUNT] = {
	"Dimensions", "Wrap", "Ntransit", "Method", "Distance", "FsOrder",
	"Shapeless", "BaseShapes", "CompactSlack", "Nodes",
};

typedef struct conf_val {
	char *value;  /* NULL if the key was not given */
	int line;
} conf_val;

typedef struct node_line {
	char *name, *coord;
	int line;
} node_line;

/* A Placement= line: the shape and its grid's values as written. */
typedef struct grid_line {
	char *dims, *seed, *spacing; /* seed, spacing NULL if not given */
	int line;
} grid_line;

typedef struct parse {
	const char *path;
	conf_val keys[K_COUNT];
	node_line *nodes;
	size_t nnodes, cap;
	grid_line *grids;
	size_t ngrids, gcap;
	tp_torus *t;
	int *node_line_of; /* by node index: line that placed it */
} parse;

static void parse_fini(parse *p)
{
	for (int k = 0; k < K_COUNT; k++)
		free(p->keys[k].value);
	for (size_t i = 0; i < p->nnodes; i++) {
		free(p->nodes[i].name);
		free(p->nodes[i].coord);
	}
	free(p->nodes);
	for (size_t i = 0; i < p->ngrids; i++) {
		free(p->grids[i].dims);
		free(p->grids[i].seed);
		free(p->grids[i].spacing);
	}
	free(p->grids);
	free(p->node_line_of);
}

/* Whole string is a decimal integer in [lo, hi]. */
static int parse_int(const char *s, long lo, long hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "1" };
	static const char *const no[] = { "no", "false", "0" };
	if (lookup(yes, 3, s) >= 0)
		*out = true;
	else if (lookup(no, 3, s) >= 0)
		*out = false;
	else
		return -1;
	return 0;
}

/* Split s on any of seps into at most max pieces (a copy is modified). */
static int split(char *s, const char *seps, char **piece, int max)
{
	int n = 0;
	char *p = s;
	for (;;) {
		size_t l = strcspn(p, seps);
		if (n == max)
			return max + 1;
		piece[n++] = p;
		if (!p[l])
			break;
		p[l] = '\0';
		p += l + 1;
	}
	return n;
}

static int node_line_add(parse *p, const tp_conf_line *line, tp_error *err)
{
	for (size_t i = 0; i < line->npairs; i++) {
		const char *k = line->pairs[i].key;
		if (strcasecmp(k, "NodeName") && strcasecmp(k, "Coord"))
			return tp_errorf(err, "%s:%d: unknown key '%s' on a NodeName line",
					 p->path, line->lineno, k);
		/* the first of two values would be taken without a word */
		for (size_t j = 0; j < i; j++)
			if (!strcasecmp(k, line->pairs[j].key))
				return tp_errorf(err, "%s:%d: %s= given twice on a NodeName line ('%s', then '%s')",
						 p->path, line->lineno, k,
						 line->pairs[j].value,
						 line->pairs[i].value);
	}
	const char *name = tp_conf_get(line, "NodeName");
	const char *coord = tp_conf_get(line, "Coord");
	if (strpbrk(name, "[],"))
		return tp_errorf(err, "%s:%d: NodeName= takes one name, got '%s'",
				 p->path, line->lineno, name);
	if (!coord)
		return tp_errorf(err, "%s:%d: NodeName=%s has no Coord=",
				 p->path, line->lineno, name);
	if (p->nnodes == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		node_line *n = realloc(p->nodes, cap * sizeof(*n));
		if (!n)
			return tp_errorf(err, "%s: out of memory", p->path);
		p->nodes = n;
		p->cap = cap;
	}
	node_line *nl = &p->nodes[p->nnodes];
	nl->name = strdup(name);
	nl->coord = strdup(coord);
	nl->line = line->lineno;
	p->nnodes++;
	if (!nl->name || !nl->coord)
		return tp_errorf(err, "%s: out of memory", p->path);
	return 0;
}

/* strdup of an optional value: 0, or -1 when it was given and ENOMEM. */
static int dup_opt(const char *v, char **out)
{
	*out = v ? strdup(v) : NULL;
	return v && !*out ? -1 : 0;
}

static int grid_line_add(parse *p, const tp_conf_line *line, tp_error *err)
{
	for (size_t i = 0; i < line->npairs; i++) {
		const char *k = line->pairs[i].key;
		if (strcasecmp(k, "Placement") && strcasecmp(k, "AnchorSeed") &&
		    strcasecmp(k, "AnchorSpacing"))
			return tp_errorf(err, "%s:%d: unknown key '%s' on a Placement line (AnchorSeed= and AnchorSpacing= may follow)",
					 p->path, line->lineno, k);
	}
	if (p->ngrids == p->gcap) {
		size_t cap = p->gcap ? 2 * p->gcap : 16;
		grid_line *g = realloc(p->grids, cap * sizeof(*g));
		if (!g)
			return tp_errorf(err, "%s: out of memory", p->path);
		p->grids = g;
		p->gcap = cap;
	}
	grid_line *gl = &p->grids[p->ngrids++];
	gl->line = line->lineno;
	int rc = dup_opt(tp_conf_get(line, "Placement"), &gl->dims);
	rc |= dup_opt(tp_conf_get(line, "AnchorSeed"), &gl->seed);
	rc |= dup_opt(tp_conf_get(line, "AnchorSpacing"), &gl->spacing);
	return rc ? tp_errorf(err, "%s: out of memory", p->path) : 0;
}

static int global_line_add(parse *p, const tp_conf_line *line, tp_error *err)
{
	for (size_t i = 0; i < line->npairs; i++) {
		const tp_conf_pair *kv = &line->pairs[i];
		int k = lookup(key_names, K_COUNT, kv->key);
		if (k < 0)
			return tp_errorf(err, "%s:%d: unknown key '%s'",
					 p->path, line->lineno, kv->key);
		if (p->keys[k].value)
			return tp_errorf(err, "%s:%d: %s= given again (first at line %d)",
					 p->path, line->lineno, key_names[k],
					 p->keys[k].line);
		if (!(p->keys[k].value = strdup(kv->value)))
			return tp_errorf(err, "%s: out of memory", p->path);
		p->keys[k].line = line->lineno;
	}
	return 0;
}

static int read_file(parse *p, const char *path, tp_error *err)
{
	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		return -1;
	tp_conf_line line;
	int rc;
	while ((rc = tp_conf_next(r, &line, err)) == 1) {
		if (tp_conf_get(&line, "NodeName"))
			rc = node_line_add(p, &line, err);
		else if (tp_conf_get(&line, "Placement"))
			rc = grid_line_add(p, &line, err);
		else
			rc = global_line_add(p, &line, err);
		if (rc)
			break;
	}
	tp_conf_close(r);
	return rc < 0 ? -1 : 0;
}

static int parse_dimensions(parse *p, int *ndims, int *dims, tp_error *err)
{
	const conf_val *v = &p->keys[K_DIMENSIONS];
	if (!v->value)
		return tp_errorf(err, "%s: no Dimensions= line", p->path);
	char *copy = strdup(v->value), *piece[TP_TORUS_MAX_DIMS + 1];
	if (!copy)
		return tp_errorf(err, "%s: out of memory", p->path);
	int n = split(copy, "xX", piece, TP_TORUS_MAX_DIMS), rc = 0;
	if (n > TP_TORUS_MAX_DIMS)
		rc = tp_errorf(err, "%s:%d: Dimensions=%s: more than %d dimensions",
			       p->path, v->line, v->value, TP_TORUS_MAX_DIMS);
	for (int i = 0; i < n && !rc; i++)
		if (parse_int(piece[i], 1, TP_TORUS_MAX_NODES, &dims[i]))
			rc = tp_errorf(err, "%s:%d: bad number '%s' in Dimensions=%s (need an integer >= 1)",
				       p->path, v->line, piece[i], v->value);
	tp_error e;
	if (!rc && check_dims(n, dims, &e))
		rc = tp_errorf(err, "%s:%d: Dimensions=%s: %s", p->path,
			       v->line, v->value, e.msg);
	free(copy);
	*ndims = n;
	return rc;
}

static int parse_wrap(parse *p, int ndims, bool *wrap, tp_error *err)
{
	const conf_val *v = &p->keys[K_WRAP];
	for (int i = 0; i < ndims; i++)
		wrap[i] = true;
	if (!v->value)
		return 0;
	char *copy = strdup(v->value), *piece[TP_TORUS_MAX_DIMS + 1];
	if (!copy)
		return tp_errorf(err, "%s: out of memory", p->path);
	int n = split(copy, ",", piece, TP_TORUS_MAX_DIMS), rc = 0;
	if (n != 1 && n != ndims)
		rc = tp_errorf(err, "%s:%d: Wrap=%s has %d values for %d dimensions (give one or %d)",
			       p->path, v->line, v->value,
			       n > TP_TORUS_MAX_DIMS ? TP_TORUS_MAX_DIMS + 1 : n,
			       ndims, ndims);
	for (int i = 0; i < n && !rc; i++)
		if (parse_bool(piece[i], &wrap[i]))
			rc = tp_errorf(err, "%s:%d: bad value '%s' in Wrap=%s (need yes or no)",
				       p->path, v->line, piece[i], v->value);
	if (!rc && n == 1)
		for (int i = 1; i < ndims; i++)
			wrap[i] = wrap[0];
	free(copy);
	return rc;
}

static int parse_options(parse *p, tp_torus_opts *o, tp_error *err)
{
	const conf_val *v;
	*o = default_opts;
	v = &p->keys[K_NTRANSIT];
	if (v->value && parse_int(v->value, 0, TP_TORUS_MAX_NODES, &o->ntransit))
		return tp_errorf(err, "%s:%d: bad number '%s' for Ntransit= (need an integer >= 0)",
				 p->path, v->line, v->value);
	v = &p->keys[K_METHOD];
	if (v->value && tp_torus_method_parse(v->value, &o->method))
		return tp_errorf(err, "%s:%d: unknown Method=%s (compact, base, fs, mss or anchor)",
				 p->path, v->line, v->value);
	v = &p->keys[K_DISTANCE];
	int i;
	if (v->value) {
		if ((i = lookup(distance_names, 2, v->value)) < 0)
			return tp_errorf(err, "%s:%d: unknown Distance=%s (manhattan or torus)",
					 p->path, v->line, v->value);
		o->distance = (tp_torus_distance)i;
	}
	v = &p->keys[K_FSORDER];
	if (v->value) {
		if ((i = lookup(fs_order_names, 2, v->value)) < 0)
			return tp_errorf(err, "%s:%d: unknown FsOrder=%s (offset or diameter)",
					 p->path, v->line, v->value);
		o->fs_order = (tp_torus_fs_order)i;
	}
	v = &p->keys[K_SHAPELESS];
	if (v->value) {
		if ((i = lookup(shapeless_names, 2, v->value)) < 0)
			return tp_errorf(err, "%s:%d: unknown Shapeless=%s (pack or refuse)",
					 p->path, v->line, v->value);
		o->shapeless = (tp_torus_shapeless)i;
	}
	v = &p->keys[K_BASESHAPES];
	if (v->value && tp_torus_base_shapes_parse(v->value, &o->base_shapes))
		return tp_errorf(err, "%s:%d: unknown BaseShapes=%s (canonical or all)",
				 p->path, v->line, v->value);
	v = &p->keys[K_COMPACTSLACK];
	if (v->value && parse_int(v->value, 0, TP_TORUS_MAX_SLACK, &o->compact_slack))
		return tp_errorf(err, "%s:%d: bad CompactSlack=%s (need a whole percentage, 0 to %d)",
				 p->path, v->line, v->value, TP_TORUS_MAX_SLACK);
	return 0;
}

/* Nodes=hostlist: names in row-major order. */
static int map_hostlist(parse *p, tp_error *err)
{
	const conf_val *v = &p->keys[K_NODES];
	tp_hostlist hl = { 0 };
	char msg[256];
	int rc = 0;
	if (tp_hostlist_expand(&hl, v->value, msg, sizeof(msg)))
		rc = tp_errorf(err, "%s:%d: Nodes=%s: %s", p->path, v->line,
			       v->value, msg);
	else if (hl.n != (size_t)p->t->nnodes)
		rc = tp_errorf(err, "%s:%d: Nodes=%s lists %zu nodes, Dimensions=%s needs %d",
			       p->path, v->line, v->value, hl.n,
			       p->keys[K_DIMENSIONS].value, p->t->nnodes);
	for (size_t i = 0; !rc && i < hl.n; i++) {
		p->t->names[i] = hl.names[i];
		hl.names[i] = NULL;
		p->node_line_of[i] = v->line;
	}
	tp_hostlist_fini(&hl);
	return rc;
}

static int parse_coord(parse *p, const node_line *nl, int *c, tp_error *err)
{
	const tp_torus *t = p->t;
	char *copy = strdup(nl->coord), *piece[TP_TORUS_MAX_DIMS + 1];
	if (!copy)
		return tp_errorf(err, "%s: out of memory", p->path);
	int n = split(copy, ",", piece, TP_TORUS_MAX_DIMS), rc = 0;
	if (n != t->ndims)
		rc = tp_errorf(err, "%s:%d: Coord=%s has %d values for %d dimensions",
			       p->path, nl->line, nl->coord,
			       n > TP_TORUS_MAX_DIMS ? TP_TORUS_MAX_DIMS + 1 : n,
			       t->ndims);
	for (int i = 0; i < n && !rc; i++) {
		if (parse_int(piece[i], INT_MIN, INT_MAX, &c[i]))
			rc = tp_errorf(err, "%s:%d: bad number '%s' in Coord=%s",
				       p->path, nl->line, piece[i], nl->coord);
		else if (c[i] < 0 || c[i] >= t->dims[i])
			rc = tp_errorf(err, "%s:%d: coordinate %d out of range 0..%d in dimension %d of Coord=%s",
				       p->path, nl->line, c[i], t->dims[i] - 1,
				       i, nl->coord);
	}
	free(copy);
	return rc;
}

/* "3,1,0" into buf. */
static const char *coord_str(const tp_torus *t, int idx, char *buf, size_t len)
{
	int c[TP_TORUS_MAX_DIMS];
	size_t k = 0;
	tp_torus_coord(t, idx, c);
	buf[0] = '\0';
	for (int i = 0; i < t->ndims && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "",
				      c[i]);
	return buf;
}

/* NodeName=... Coord=... lines: every coordinate exactly once. */
static int map_explicit(parse *p, tp_error *err)
{
	tp_torus *t = p->t;
	char buf[128];
	for (size_t i = 0; i < p->nnodes; i++) {
		node_line *nl = &p->nodes[i];
		int c[TP_TORUS_MAX_DIMS];
		if (parse_coord(p, nl, c, err))
			return -1;
		int idx = tp_torus_index(t, c);
		if (t->names[idx])
			return tp_errorf(err, "%s:%d: coordinate %s of node '%s' already used by '%s' (line %d)",
					 p->path, nl->line, nl->coord, nl->name,
					 t->names[idx], p->node_line_of[idx]);
		t->names[idx] = nl->name;
		nl->name = NULL;
		p->node_line_of[idx] = nl->line;
	}
	if (p->nnodes != (size_t)t->nnodes) {
		int missing = 0;
		while (t->names[missing])
			missing++;
		return tp_errorf(err, "%s:%d: Dimensions=%s needs %d nodes, NodeName lines give %zu (none at coordinate %s)",
				 p->path, p->keys[K_DIMENSIONS].line,
				 p->keys[K_DIMENSIONS].value, t->nnodes,
				 p->nnodes, coord_str(t, missing, buf, sizeof(buf)));
	}
	return 0;
}

static int map_nodes(parse *p, tp_error *err)
{
	if (p->keys[K_NODES].value && p->nnodes)
		return tp_errorf(err, "%s:%d: NodeName= lines cannot be combined with Nodes= (line %d)",
				 p->path, p->nodes[0].line, p->keys[K_NODES].line);
	if (!p->keys[K_NODES].value && !p->nnodes)
		return tp_errorf(err, "%s: no Nodes= or NodeName= lines", p->path);
	if (!(p->node_line_of = calloc((size_t)p->t->nnodes, sizeof(int))))
		return tp_errorf(err, "%s: out of memory", p->path);
	int rc = p->keys[K_NODES].value ? map_hostlist(p, err)
					: map_explicit(p, err);
	if (rc)
		return rc;
	int a, b;
	if (index_names(p->t, &a, &b)) {
		int la = p->node_line_of[a], lb = p->node_line_of[b];
		int later = la > lb ? la : lb, earlier = la > lb ? lb : la;
		if (la == lb)
			return tp_errorf(err, "%s:%d: duplicate node name '%s' in Nodes=%s",
					 p->path, la, p->t->names[a],
					 p->keys[K_NODES].value);
		return tp_errorf(err, "%s:%d: duplicate node name '%s' (first at line %d)",
				 p->path, later, p->t->names[a], earlier);
	}
	return 0;
}

/* One value per dimension of a Placement line ("2x2x1" with seps "xX",
 * "1,0,0" with ","), each an integer >= lo. */
static int parse_vector(parse *p, const grid_line *gl, const char *key,
			const char *value, const char *seps, int lo, int *out,
			tp_error *err)
{
	int nd = p->t->ndims;
	char *copy = strdup(value), *piece[TP_TORUS_MAX_DIMS + 1];
	if (!copy)
		return tp_errorf(err, "%s: out of memory", p->path);
	int n = split(copy, seps, piece, TP_TORUS_MAX_DIMS), rc = 0;
	if (n != nd)
		rc = tp_errorf(err, "%s:%d: %s=%s has %d values for %d dimensions",
			       p->path, gl->line, key, value,
			       n > TP_TORUS_MAX_DIMS ? TP_TORUS_MAX_DIMS + 1 : n, nd);
	for (int i = 0; i < n && !rc; i++)
		if (parse_int(piece[i], lo, TP_TORUS_MAX_NODES, &out[i]))
			rc = tp_errorf(err, "%s:%d: bad number '%s' in %s=%s (need an integer >= %d)",
				       p->path, gl->line, piece[i], key, value, lo);
	free(copy);
	return rc;
}

/* A Placement= line into a grid: seed 0 and spacing = the lengths by
 * default, a spacing of 0 meaning the length there (torus3d's rule). */
static int parse_grid(parse *p, const grid_line *gl, tp_torus_grid *g,
		      tp_error *err)
{
	memset(g, 0, sizeof(*g));
	if (parse_vector(p, gl, "Placement", gl->dims, "xX", 1, g->len, err) ||
	    (gl->seed && parse_vector(p, gl, "AnchorSeed", gl->seed, ",", 0,
				      g->seed, err)) ||
	    (gl->spacing && parse_vector(p, gl, "AnchorSpacing", gl->spacing,
					 ",", 0, g->spacing, err)))
		return -1;
	for (int i = 0; i < p->t->ndims; i++)
		if (!g->spacing[i])
			g->spacing[i] = g->len[i];
	tp_error e;
	if (tp_torus_grid_check(p->t, g, &e))
		return tp_errorf(err, "%s:%d: Placement=%s: %s", p->path,
				 gl->line, gl->dims, e.msg);
	return 0;
}

/* Placement= lines, in the order written, into the torus's list. */
static int parse_grids(parse *p, tp_error *err)
{
	if (!p->ngrids)
		return 0;
	tp_torus_grid *g = calloc(p->ngrids, sizeof(*g));
	if (!g)
		return tp_errorf(err, "%s: out of memory", p->path);
	int rc = 0;
	for (size_t i = 0; i < p->ngrids && !rc; i++)
		rc = parse_grid(p, &p->grids[i], &g[i], err);
	if (!rc)
		rc = tp_torus_set_grids(p->t, g, (int)p->ngrids, err);
	free(g);
	return rc;
}

tp_torus *tp_torus_load(const char *path, tp_error *err)
{
	parse p = { .path = path };
	int ndims = 0, dims[TP_TORUS_MAX_DIMS];
	bool wrap[TP_TORUS_MAX_DIMS];
	tp_torus_opts o;
	int rc = read_file(&p, path, err);
	if (!rc)
		rc = parse_dimensions(&p, &ndims, dims, err);
	if (!rc)
		rc = parse_wrap(&p, ndims, wrap, err);
	if (!rc)
		rc = parse_options(&p, &o, err);
	if (!rc && !(p.t = torus_alloc(ndims, dims, wrap)))
		rc = tp_errorf(err, "%s: out of memory", path);
	if (!rc) {
		p.t->opts = o;
		rc = map_nodes(&p, err);
	}
	if (!rc)
		rc = parse_grids(&p, err);
	tp_torus *t = p.t;
	if (rc) {
		tp_torus_free(t);
		t = NULL;
	}
	parse_fini(&p);
	return t;
}
