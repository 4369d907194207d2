/*
 * fuzz_expdb.c - the run-time database file (hetero/het_expdb.h):
 * StateSaveLocation/sched_topo.expdb, which sched/topo loads at slurmctld
 * start (st_expdb_init is only this plus Slurm's logging), and
 * topo-expdb's and toposim's --expdb file.  A database that loads is
 * saved and loaded again: the same entries, bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "hetero/het_expdb.h"
#include "fuzz_util.h"

typedef struct entries {
	char *text;
	size_t len;
} entries;

static void add(void *arg, const char *jclass, const char *mclass, int nodes,
		const tp_expdb_stat *st)
{
	entries *e = arg;
	char line[4096];
	int n = snprintf(line, sizeof(line), "%s|%s|%d|%llu|%a|%a\n", jclass,
			 mclass, nodes, (unsigned long long)st->count, st->mean,
			 st->var);
	e->text = realloc(e->text, e->len + (size_t)n + 1);
	memcpy(e->text + e->len, line, (size_t)n + 1);
	e->len += (size_t)n;
}

static char *listing(const tp_expdb *db)
{
	entries e = { .text = strdup("") };
	tp_expdb_each(db, add, &e);
	return e.text;
}

static void round_trip(const tp_expdb *db, int64_t learned)
{
	const char *out = fuzz_path("saved.expdb");
	tp_error err = { "" };
	if (tp_expdb_save(db, out, learned, &err))
		fuzz_fail("save: %s", err.msg);
	tp_expdb *back = tp_expdb_new();
	int64_t learned_back;
	if (tp_expdb_load(back, out, &learned_back, &err))
		fuzz_fail("the saved database does not load: %s", err.msg);
	char *a = listing(db), *b = listing(back);
	if (strcmp(a, b) || learned != learned_back)
		fuzz_fail("saved and loaded again differs:\n%s---\n%s", a, b);
	free(a);
	free(b);
	tp_expdb_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("sched_topo.expdb", data, size);
	tp_expdb *db = tp_expdb_new();
	int64_t learned;
	tp_error err = { "" };
	int rc = tp_expdb_load(db, path, &learned, &err);
	fuzz_check_error(rc, err.msg, path);
	if (rc == 0)
		round_trip(db, learned);
	tp_expdb_free(db);
	return 0;
}
