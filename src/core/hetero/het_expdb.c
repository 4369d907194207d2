/* het_expdb.c - see het_expdb.h.  The file format is het_expdb_file.c. */
#include "hetero/het_expdb.h"
#include "hetero/het_expdb_int.h"

#include "base/name_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The entries' open-addressing table keeps at most half its slots used,
 * so a probe is short even at 10^5 entries (predict runs jobs x options
 * times a pass). */
#define EMPTY (-1)

/* Interned names: index -> name, and names -> indices. */
typedef struct names {
	char **name;
	int n, cap;
	tp_name_index index;
} names;

typedef struct entry {
	int jclass, mclass, nodes;
	tp_expdb_stat st;
	double m2;     /* sum of squared deviations from the mean */
} entry;

struct tp_expdb {
	names jn, mn;
	entry *e;
	size_t n, cap;
	int *slot;     /* EMPTY or an index into e */
	size_t nslot;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;  /* splitmix64's finalizer */
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static uint64_t hash_key(int j, int m, int nodes)
{
	return mix(((uint64_t)(uint32_t)j << 32 | (uint32_t)m) ^
		   mix((uint64_t)(uint32_t)nodes));
}

/* ---- names ------------------------------------------------------- */

static int names_intern(names *t, const char *s)
{
	if (!s)
		return -1;
	int k = tp_name_index_find(&t->index, t->name, s);
	if (k >= 0)
		return k;
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		char **name = realloc(t->name, (size_t)cap * sizeof(*name));
		if (!name)
			return -1;
		t->name = name;
		t->cap = cap;
	}
	char *copy = strdup(s);
	if (!copy)
		return -1;
	t->name[t->n] = copy;
	if (tp_name_index_add(&t->index, t->name)) {
		free(copy);
		return -1;
	}
	return t->n++;
}

static void names_fini(names *t)
{
	for (int k = 0; k < t->n; k++)
		free(t->name[k]);
	free(t->name);
	tp_name_index_fini(&t->index);
}

static const char *names_get(const names *t, int k)
{
	return k >= 0 && k < t->n ? t->name[k] : NULL;
}

/* ---- the database ------------------------------------------------ */

tp_expdb *tp_expdb_new(void)
{
	return calloc(1, sizeof(tp_expdb));
}

void tp_expdb_free(tp_expdb *db)
{
	if (!db)
		return;
	names_fini(&db->jn);
	names_fini(&db->mn);
	free(db->e);
	free(db->slot);
	free(db);
}

int tp_expdb_jclass(tp_expdb *db, const char *name)
{
	return names_intern(&db->jn, name);
}

int tp_expdb_mclass(tp_expdb *db, const char *name)
{
	return names_intern(&db->mn, name);
}

const char *tp_expdb_jclass_name(const tp_expdb *db, int jclass)
{
	return names_get(&db->jn, jclass);
}

const char *tp_expdb_mclass_name(const tp_expdb *db, int mclass)
{
	return names_get(&db->mn, mclass);
}

static size_t entry_find_slot(const tp_expdb *db, int j, int m, int nodes)
{
	size_t mask = db->nslot - 1;
	for (size_t i = hash_key(j, m, nodes) & mask;; i = (i + 1) & mask) {
		if (db->slot[i] == EMPTY)
			return i;
		const entry *e = &db->e[db->slot[i]];
		if (e->jclass == j && e->mclass == m && e->nodes == nodes)
			return i;
	}
}

static const entry *entry_find(const tp_expdb *db, int j, int m, int nodes)
{
	if (!db || !db->nslot)
		return NULL;
	int k = db->slot[entry_find_slot(db, j, m, nodes)];
	return k == EMPTY ? NULL : &db->e[k];
}

static int entry_grow_slots(tp_expdb *db)
{
	size_t nslot = db->nslot ? db->nslot * 2 : 64;
	int *slot = malloc(nslot * sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t i = 0; i < nslot; i++)
		slot[i] = EMPTY;
	free(db->slot);
	db->slot = slot;
	db->nslot = nslot;
	for (size_t k = 0; k < db->n; k++) {
		const entry *e = &db->e[k];
		db->slot[entry_find_slot(db, e->jclass, e->mclass, e->nodes)] =
			(int)k;
	}
	return 0;
}

/* The key's entry, created empty (count 0) if new; NULL on ENOMEM. */
static entry *entry_get(tp_expdb *db, int j, int m, int nodes)
{
	entry *found = (entry *)entry_find(db, j, m, nodes);
	if (found)
		return found;
	if (db->n >= (size_t)0x3fffffff)
		return NULL;
	if ((db->n + 1) * 2 > db->nslot && entry_grow_slots(db) < 0)
		return NULL;
	if (db->n == db->cap) {
		size_t cap = db->cap ? db->cap * 2 : 64;
		entry *e = realloc(db->e, cap * sizeof(*e));
		if (!e)
			return NULL;
		db->e = e;
		db->cap = cap;
	}
	entry *e = &db->e[db->n];
	*e = (entry){ .jclass = j, .mclass = m, .nodes = nodes };
	db->slot[entry_find_slot(db, j, m, nodes)] = (int)db->n++;
	return e;
}

static bool key_ok(const tp_expdb *db, int j, int m, int nodes)
{
	return db && j >= 0 && j < db->jn.n && m >= 0 && m < db->mn.n &&
	       nodes >= 1;
}

int tp_expdb_add(tp_expdb *db, int jclass, int mclass, int nodes,
		 double seconds)
{
	if (!key_ok(db, jclass, mclass, nodes) || !isfinite(seconds) ||
	    seconds < 0)
		return -1;
	entry *e = entry_get(db, jclass, mclass, nodes);
	if (!e)
		return -1;
	/* Welford: one pass, no stored samples, no catastrophic
	 * cancellation of sum(x^2) - n mean^2. */
	e->st.count++;
	double delta = seconds - e->st.mean;
	e->st.mean += delta / (double)e->st.count;
	e->m2 += delta * (seconds - e->st.mean);
	if (e->m2 < 0)
		e->m2 = 0;
	e->st.var = e->st.count > 1 ? e->m2 / (double)(e->st.count - 1) : 0;
	return 0;
}

int tp_expdb_merge(tp_expdb *db, int jclass, int mclass, int nodes,
		   const tp_expdb_stat *st)
{
	if (!key_ok(db, jclass, mclass, nodes) || !st || st->count < 1 ||
	    !isfinite(st->mean) || !isfinite(st->var) || st->mean < 0 ||
	    st->var < 0)
		return -1;
	entry *e = entry_get(db, jclass, mclass, nodes);
	if (!e)
		return -1;
	double m2b = st->var * (double)(st->count - 1);
	if (e->st.count == 0) {
		e->st = *st;
		e->m2 = m2b;
		return 0;
	}
	/* Chan, Golub and LeVeque's pairwise combination. */
	double na = (double)e->st.count, nb = (double)st->count;
	double n = na + nb;
	double delta = st->mean - e->st.mean;
	e->st.mean += delta * nb / n;
	e->m2 += m2b + delta * delta * na * nb / n;
	e->st.count += st->count;
	e->st.var = e->m2 / (double)(e->st.count - 1);
	return 0;
}

int tp_expdb_absorb(tp_expdb *dst, const tp_expdb *src)
{
	for (size_t k = 0; k < src->n; k++) {
		const entry *e = &src->e[k];
		int j = tp_expdb_jclass(dst, src->jn.name[e->jclass]);
		int m = tp_expdb_mclass(dst, src->mn.name[e->mclass]);
		if (j < 0 || m < 0 || tp_expdb_merge(dst, j, m, e->nodes,
						     &e->st) < 0)
			return -1;
	}
	return 0;
}

bool tp_expdb_get(const tp_expdb *db, int jclass, int mclass, int nodes,
		  tp_expdb_stat *out)
{
	const entry *e = entry_find(db, jclass, mclass, nodes);
	if (out)
		*out = e ? e->st : (tp_expdb_stat){ 0 };
	return e != NULL;
}

double tp_expdb_predict(const tp_expdb *db, int jclass, int mclass,
			int nodes, double fallback)
{
	const entry *e = entry_find(db, jclass, mclass, nodes);
	return e ? e->st.mean : fallback;
}

size_t tp_expdb_size(const tp_expdb *db)
{
	return db ? db->n : 0;
}

/* qsort has no context argument: the database being sorted. */
static _Thread_local const tp_expdb *sort_db;

static int entry_cmp(const void *a, const void *b)
{
	const entry *x = *(const entry *const *)a;
	const entry *y = *(const entry *const *)b;
	int c = strcmp(sort_db->jn.name[x->jclass], sort_db->jn.name[y->jclass]);
	if (!c)
		c = strcmp(sort_db->mn.name[x->mclass],
			   sort_db->mn.name[y->mclass]);
	return c ? c : (x->nodes > y->nodes) - (x->nodes < y->nodes);
}

void tp_expdb_each(const tp_expdb *db,
		   void (*fn)(void *arg, const char *jclass,
			      const char *mclass, int nodes,
			      const tp_expdb_stat *st),
		   void *arg)
{
	if (!db || !db->n)
		return;
	const entry **order = malloc(db->n * sizeof(*order));
	for (size_t k = 0; order && k < db->n; k++)
		order[k] = &db->e[k];
	if (order) {
		sort_db = db;
		qsort(order, db->n, sizeof(*order), entry_cmp);
	}
	/* Out of memory: every entry still, in insertion order. */
	for (size_t k = 0; k < db->n; k++) {
		const entry *e = order ? order[k] : &db->e[k];
		fn(arg, db->jn.name[e->jclass], db->mn.name[e->mclass],
		   e->nodes, &e->st);
	}
	free(order);
}

double tp_expdb_etc(void *arg, const tp_het_job *j, int p, int n)
{
	const tp_expdb_etc_arg *a = arg;
	int mclass = a->m->part[p].mclass;
	double t = tp_expdb_predict(a->db, j->jclass, mclass, n,
				    (double)j->estimate);
	/* tp_het_etc_fn promises > 0; a class whose runs all took 0 s
	 * (Slurm's whole seconds) is predicted at the resolution. */
	return t > 0 ? t : 1.0;
}

const char *const *tp_class_key_names(void)
{
	static const char *const names[] = { "name", "user", "wckey",
					     "comment", NULL };
	return names;
}
