#define _GNU_SOURCE
/* TEMPORARY: minimal stand-ins for het_plan/het_pjs/het_pass/het_expdb
 * until their branches are merged.  Not for commit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetero/het.h"
#include "hetero/het_expdb.h"

const char *tp_het_algo_name(tp_het_algo a)
{
	static const char *n[] = { "olb", "min-min", "min-max", "sjs", "pjs" };
	return (unsigned)a < 5 ? n[a] : "?";
}

int tp_het_algo_parse(const char *name)
{
	for (int i = 0; i < 5; i++)
		if (!strcmp(name, tp_het_algo_name((tp_het_algo)i)))
			return i;
	return -1;
}

void tp_het_plan_init(tp_het_plan *p) { memset(p, 0, sizeof(*p)); }
void tp_het_plan_fini(tp_het_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->a[i].node);
	free(p->a);
	memset(p, 0, sizeof(*p));
}

static int cmp_rd(const void *a, const void *b, void *arg)
{
	const double *r = arg;
	int x = *(const int *)a, y = *(const int *)b;
	return r[x] < r[y] ? -1 : r[x] > r[y] ? 1 : x - y;
}

int tp_het_schedule(const tp_het_machine *m, double now,
		    const tp_het_job *jobs, size_t njobs, tp_het_algo algo,
		    tp_het_etc_fn etc, void *arg, tp_het_plan *out,
		    tp_error *err)
{
	(void)err;
	tp_het_plan_init(out);
	out->used = algo;
	double *rd = malloc(sizeof(double) * (size_t)(m->nnodes + 1));
	out->a = calloc(njobs + 1, sizeof(*out->a));
	for (int i = 0; i < m->nnodes; i++)
		rd[i] = m->ready[i] < now ? now : m->ready[i];
	for (int lvl = 0; lvl < 8; lvl++)
	for (size_t k = 0; k < njobs; k++) {
		const tp_het_job *j = &jobs[k];
		if (j->prio != lvl && !(lvl == 7 && j->prio > 7))
			continue;
		double best = 1e301, bs = 0;
		int bp = -1, bn = 0;
		int sorted[4096];
		for (int q = 0; q < j->nparts; q++) {
			const tp_het_part *p = &m->part[j->parts[q]];
			memcpy(sorted, p->node, sizeof(int) * (size_t)p->nnodes);
			qsort_r(sorted, (size_t)p->nnodes, sizeof(int), cmp_rd, rd);
			int hi = algo == TP_HET_PJS && j->nmax > j->nmin ? j->nmax : j->nmin;
			for (int n = j->nmin; n <= hi && n <= p->nnodes; n++) {
				double t = etc(arg, j, j->parts[q], n);
				double s = rd[sorted[n - 1]];
				if (t <= 0 || s >= TP_HET_NEVER)
					continue;
				if (s + t < best) {
					best = s + t; bs = s; bp = j->parts[q]; bn = n;
				}
			}
		}
		if (bp < 0) {
			out->unplaced++;
			continue;
		}
		const tp_het_part *p = &m->part[bp];
		memcpy(sorted, p->node, sizeof(int) * (size_t)p->nnodes);
		qsort_r(sorted, (size_t)p->nnodes, sizeof(int), cmp_rd, rd);
		tp_het_assign *a = &out->a[out->n++];
		a->job = k; a->part = bp; a->nodes = bn; a->start = bs; a->end = best;
		a->parallel = bn > j->nmin;
		out->parallel += a->parallel;
		a->node = malloc(sizeof(int) * (size_t)bn);
		for (int i = 0; i < bn; i++)
			a->node[i] = sorted[i];
		for (int i = 0; i < bn; i++)
			rd[a->node[i]] = best;
		/* ascending indices */
		for (int i = 1; i < bn; i++)
			for (int x = i; x > 0 && a->node[x - 1] > a->node[x]; x--) {
				int t = a->node[x]; a->node[x] = a->node[x - 1]; a->node[x - 1] = t;
			}
		out->total += best - now;
	}
	free(rd);
	return 0;
}

int tp_het_pass(const tp_het_machine *m, double now, const tp_het_job *jobs,
		size_t njobs, tp_het_algo algo, tp_het_etc_fn etc, void *arg,
		tp_het_plan *out, tp_error *err)
{
	if (tp_het_schedule(m, now, jobs, njobs, algo, etc, arg, out, err))
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (out->a[i].start <= now)
			out->a[k++] = out->a[i];
		else
			free(out->a[i].node);
	}
	out->n = k;
	return 0;
}

double tp_het_expected_free(double now, double start, double predicted,
			    double limit)
{
	double e = predicted <= 0 ? limit : start + predicted;
	if (e > limit)
		e = limit;
	if (e < now + 1)
		e = now + 1;
	return e;
}

/* expdb */
typedef struct ent { int j, m, n; uint64_t c; double mean, m2; } ent;
struct tp_expdb {
	char *jn[256], *mn[256];
	int nj, nm;
	ent *e;
	size_t n;
};

tp_expdb *tp_expdb_new(void) { return calloc(1, sizeof(tp_expdb)); }
void tp_expdb_free(tp_expdb *db)
{
	if (!db) return;
	for (int i = 0; i < db->nj; i++) free(db->jn[i]);
	for (int i = 0; i < db->nm; i++) free(db->mn[i]);
	free(db->e);
	free(db);
}

static int intern(char **tab, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(tab[i], name)) return i;
	if (*n >= 256) return -1;
	tab[*n] = strdup(name);
	return (*n)++;
}
int tp_expdb_jclass(tp_expdb *db, const char *name) { return intern(db->jn, &db->nj, name); }
int tp_expdb_mclass(tp_expdb *db, const char *name) { return intern(db->mn, &db->nm, name); }
const char *tp_expdb_jclass_name(const tp_expdb *db, int c) { return c >= 0 && c < db->nj ? db->jn[c] : NULL; }
const char *tp_expdb_mclass_name(const tp_expdb *db, int c) { return c >= 0 && c < db->nm ? db->mn[c] : NULL; }

static ent *find(const tp_expdb *db, int j, int m, int n)
{
	for (size_t i = 0; i < db->n; i++)
		if (db->e[i].j == j && db->e[i].m == m && db->e[i].n == n)
			return &db->e[i];
	return NULL;
}

int tp_expdb_add(tp_expdb *db, int j, int m, int n, double s)
{
	ent *e = find(db, j, m, n);
	if (!e) {
		db->e = realloc(db->e, sizeof(ent) * (db->n + 1));
		e = &db->e[db->n++];
		*e = (ent){ j, m, n, 0, 0, 0 };
	}
	e->c++;
	double d = s - e->mean;
	e->mean += d / (double)e->c;
	e->m2 += d * (s - e->mean);
	return 0;
}

bool tp_expdb_get(const tp_expdb *db, int j, int m, int n, tp_expdb_stat *o)
{
	ent *e = find(db, j, m, n);
	memset(o, 0, sizeof(*o));
	if (!e) return false;
	o->count = e->c; o->mean = e->mean;
	o->var = e->c > 1 ? e->m2 / (double)(e->c - 1) : 0;
	return true;
}

double tp_expdb_predict(const tp_expdb *db, int j, int m, int n, double fb)
{
	ent *e = find(db, j, m, n);
	return e ? e->mean : fb;
}

void tp_expdb_each(const tp_expdb *db, void (*fn)(void *, const char *, const char *, int, const tp_expdb_stat *), void *arg)
{
	for (size_t i = 0; i < db->n; i++) {
		tp_expdb_stat st;
		tp_expdb_get(db, db->e[i].j, db->e[i].m, db->e[i].n, &st);
		fn(arg, db->jn[db->e[i].j], db->mn[db->e[i].m], db->e[i].n, &st);
	}
}
size_t tp_expdb_size(const tp_expdb *db) { return db->n; }

double tp_expdb_etc(void *arg, const tp_het_job *j, int p, int n)
{
	tp_expdb_etc_arg *a = arg;
	return tp_expdb_predict(a->db, j->jclass, a->m->part[p].mclass, n, (double)j->estimate);
}

int tp_expdb_save(const tp_expdb *db, const char *path, int64_t lu, tp_error *err)
{
	FILE *f = fopen(path, "w");
	if (!f) return tp_errorf(err, "%s: cannot write", path);
	fprintf(f, "# stub %lld\n", (long long)lu);
	for (size_t i = 0; i < db->n; i++)
		fprintf(f, "%s %s %d %llu %.17g %.17g\n", db->jn[db->e[i].j], db->mn[db->e[i].m], db->e[i].n,
			(unsigned long long)db->e[i].c, db->e[i].mean, db->e[i].m2);
	fclose(f);
	return 0;
}

int tp_expdb_load(tp_expdb *db, const char *path, int64_t *lu, tp_error *err)
{
	FILE *f = fopen(path, "r");
	*lu = 0;
	if (!f) return 0;
	char line[1024], jn[256], mn[256];
	int ln = 0;
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (line[0] == '#') continue;
		int n; unsigned long long c; double mean, m2;
		if (sscanf(line, "%255s %255s %d %llu %lg %lg", jn, mn, &n, &c, &mean, &m2) != 6) {
			fclose(f);
			return tp_errorf(err, "%s:%d: bad line '%s'", path, ln, line);
		}
		int j = tp_expdb_jclass(db, jn), m = tp_expdb_mclass(db, mn);
		tp_expdb_add(db, j, m, n, mean);
		ent *e = find(db, j, m, n);
		e->c = c; e->m2 = m2;
	}
	fclose(f);
	return 0;
}
