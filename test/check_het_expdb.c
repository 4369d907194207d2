/* check_het_expdb.c - the experiential database: Welford's statistics,
 * interning, prediction's fallback, the file (round trip, merge, every
 * malformed case, random bytes) and seeding from sacct. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_util.h"
#include "tmpdir_util.h"
#include "hetero/het_expdb.h"

static void setup(void)
{
	ck_assert_int_eq(tmpdir_make("expdb"), 0);
}

static void teardown(void)
{
	tmpdir_remove();
}

static const char *tmp_path(const char *name)
{
	static char path[sizeof(tmpdir) + 64];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static bool rel_close(double a, double b, double tol)
{
	double scale = fmax(fabs(a), fabs(b));
	return fabs(a - b) <= tol * (scale > 0 ? scale : 1);
}

static double uniform(unsigned *seed)
{
	return (double)rand_r(seed) / RAND_MAX;
}

START_TEST(welford_matches_two_pass)
{
	unsigned seed = 7;
	tp_expdb *db = tp_expdb_new();
	int j = tp_expdb_jclass(db, "lammps");
	int m = tp_expdb_mclass(db, "gpu");
	for (int nodes = 1; nodes <= 8; nodes++) {
		int n = 1 + nodes * 37;
		double x[400], sum = 0;
		for (int i = 0; i < n; i++) {
			/* large offset, small spread: where sum(x^2) fails */
			x[i] = 1e6 + 1000 * uniform(&seed) * nodes;
			sum += x[i];
			ck_assert_int_eq(tp_expdb_add(db, j, m, nodes, x[i]), 0);
		}
		double mean = sum / n, ss = 0;
		for (int i = 0; i < n; i++)
			ss += (x[i] - mean) * (x[i] - mean);
		tp_expdb_stat st;
		ck_assert(tp_expdb_get(db, j, m, nodes, &st));
		ck_assert_uint_eq(st.count, (uint64_t)n);
		ck_assert(rel_close(st.mean, mean, 1e-12));
		ck_assert(rel_close(st.var, ss / (n - 1), 1e-9));
	}
	/* one sample: variance 0 */
	ck_assert_int_eq(tp_expdb_add(db, j, m, 100, 42), 0);
	tp_expdb_stat st;
	ck_assert(tp_expdb_get(db, j, m, 100, &st));
	ck_assert(st.count == 1 && st.mean == 42 && st.var == 0);
	ck_assert_uint_eq(tp_expdb_size(db), 9);
	/* bad arguments */
	ck_assert_int_eq(tp_expdb_add(db, j, m, 0, 1), -1);
	ck_assert_int_eq(tp_expdb_add(db, j, m, 1, -1), -1);
	ck_assert_int_eq(tp_expdb_add(db, j, m, 1, NAN), -1);
	ck_assert_int_eq(tp_expdb_add(db, j, m, 1, INFINITY), -1);
	ck_assert_int_eq(tp_expdb_add(db, j + 1, m, 1, 1), -1);
	ck_assert_int_eq(tp_expdb_add(db, j, -1, 1, 1), -1);
	tp_expdb_free(db);
}
END_TEST

START_TEST(interning_is_stable)
{
	tp_expdb *db = tp_expdb_new();
	char name[32];
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "class %d", i);
		ck_assert_int_eq(tp_expdb_jclass(db, name), i);
	}
	for (int i = 999; i >= 0; i--) {
		snprintf(name, sizeof(name), "class %d", i);
		ck_assert_int_eq(tp_expdb_jclass(db, name), i);
		ck_assert_str_eq(tp_expdb_jclass_name(db, i), name);
	}
	/* machine classes are their own namespace */
	ck_assert_int_eq(tp_expdb_mclass(db, "class 5"), 0);
	ck_assert_int_eq(tp_expdb_mclass(db, ""), 1);
	ck_assert_int_eq(tp_expdb_mclass(db, "class 5"), 0);
	ck_assert_str_eq(tp_expdb_mclass_name(db, 1), "");
	ck_assert_ptr_null(tp_expdb_mclass_name(db, 2));
	ck_assert_ptr_null(tp_expdb_jclass_name(db, -1));
	ck_assert_uint_eq(tp_expdb_size(db), 0);
	tp_expdb_free(db);
}
END_TEST

START_TEST(predict_falls_back)
{
	tp_expdb *db = tp_expdb_new();
	int j = tp_expdb_jclass(db, "a"), j2 = tp_expdb_jclass(db, "b");
	int m = tp_expdb_mclass(db, "cpu"), m2 = tp_expdb_mclass(db, "gpu");
	ck_assert(tp_expdb_predict(db, j, m, 4, 3600) == 3600);
	tp_expdb_add(db, j, m, 4, 100);
	tp_expdb_add(db, j, m, 4, 200);
	ck_assert(tp_expdb_predict(db, j, m, 4, 3600) == 150);
	/* a seen class on a node count it never ran on */
	ck_assert(tp_expdb_predict(db, j, m, 8, 3600) == 3600);
	ck_assert(tp_expdb_predict(db, j, m, 2, 3600) == 3600);
	ck_assert(tp_expdb_predict(db, j, m2, 4, 3600) == 3600);
	ck_assert(tp_expdb_predict(db, j2, m, 4, 3600) == 3600);
	ck_assert(tp_expdb_predict(db, 99, 99, 4, 7) == 7);
	tp_expdb_stat st = { 5, 5, 5 };
	ck_assert(!tp_expdb_get(db, j, m, 8, &st));
	ck_assert(st.count == 0 && st.mean == 0 && st.var == 0);

	/* the scheduler's callback: the partition's class, the job's limit */
	tp_het_part parts[2] = { { .name = "cpu", .mclass = m },
				 { .name = "gpu", .mclass = m2 } };
	tp_het_machine mach = { .part = parts, .nparts = 2 };
	tp_het_job job = { .estimate = 3600, .jclass = j, .nmin = 4 };
	tp_expdb_etc_arg arg = { db, &mach };
	ck_assert(tp_expdb_etc(&arg, &job, 0, 4) == 150);
	ck_assert(tp_expdb_etc(&arg, &job, 1, 4) == 3600);
	ck_assert(tp_expdb_etc(&arg, &job, 0, 5) == 3600);
	tp_expdb_free(db);
}
END_TEST

/* ---- files ------------------------------------------------------- */

typedef struct collected {
	char line[64][256];
	int n;
} collected;

static void collect(void *arg, const char *jclass, const char *mclass,
		    int nodes, const tp_expdb_stat *st)
{
	collected *c = arg;
	ck_assert_int_lt(c->n, 64);
	/* %a: the exact bits */
	snprintf(c->line[c->n++], 256, "[%s][%s] %d %llu %a %a", jclass,
		 mclass, nodes, (unsigned long long)st->count, st->mean,
		 st->var);
}

static void assert_same(const tp_expdb *a, const tp_expdb *b)
{
	static collected ca, cb;
	ca.n = cb.n = 0;
	tp_expdb_each(a, collect, &ca);
	tp_expdb_each(b, collect, &cb);
	ck_assert_int_eq(ca.n, cb.n);
	for (int i = 0; i < ca.n; i++)
		ck_assert_str_eq(ca.line[i], cb.line[i]);
}

static const char *const odd_names[] = {
	"plain", "with space", "tab\there", "50% done", "#hash", "new\nline",
	"cr\rx", "pipe|x", "%41 not A", "\xc3\xbcnic\xc3\xb6" "de \xe2\x9c\x93",
	"", "ctl\x01\x7f",
};
#define NODD (int)(sizeof(odd_names) / sizeof(odd_names[0]))

static tp_expdb *odd_db(unsigned seed)
{
	tp_expdb *db = tp_expdb_new();
	for (int i = 0; i < NODD; i++) {
		int j = tp_expdb_jclass(db, odd_names[i]);
		int m = tp_expdb_mclass(db, odd_names[(i + 3) % NODD]);
		for (int k = 0; k < 1 + i % 4; k++)
			tp_expdb_add(db, j, m, 1 + i % 3,
				     uniform(&seed) * 1e5 / 3);
	}
	return db;
}

START_TEST(save_load_round_trip)
{
	tp_expdb *db = odd_db(3);
	tp_error err = { "" };
	const char *path = tmp_path("rt.expdb");
	ck_assert_msg(tp_expdb_save(db, path, 1732460000, &err) == 0, "%s",
		      err.msg);
	tp_expdb *back = tp_expdb_new();
	int64_t learned = -1;
	ck_assert_msg(tp_expdb_load(back, path, &learned, &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(learned, 1732460000);
	ck_assert_uint_eq(tp_expdb_size(back), tp_expdb_size(db));
	assert_same(db, back);
	/* and again: saved text is stable */
	const char *path2 = tmp_path("rt2.expdb");
	ck_assert_int_eq(tp_expdb_save(back, path2, 1732460000, &err), 0);
	char a[8192], b[8192];
	FILE *fa = fopen(path, "r"), *fb = fopen(path2, "r");
	size_t na = fread(a, 1, sizeof(a), fa), nb = fread(b, 1, sizeof(b), fb);
	fclose(fa);
	fclose(fb);
	ck_assert_uint_eq(na, nb);
	ck_assert(memcmp(a, b, na) == 0);
	/* no temporary left behind */
	char tmp[sizeof(tmpdir) + 80];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	ck_assert_int_ne(access(tmp, F_OK), 0);
	tp_expdb_free(back);
	tp_expdb_free(db);
}
END_TEST

START_TEST(save_error_names_path)
{
	tp_expdb *db = odd_db(1);
	tp_error err = { "" };
	const char *path = tmp_path("no/such/dir.expdb");
	ck_assert_int_eq(tp_expdb_save(db, path, 0, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no/such/dir.expdb.tmp"));
	ck_assert_ptr_nonnull(strstr(err.msg, "No such file"));
	tp_expdb_free(db);
}
END_TEST

START_TEST(load_merges_like_adding)
{
	unsigned seed = 11;
	tp_expdb *all = tp_expdb_new(), *half[2] = { tp_expdb_new(),
						    tp_expdb_new() };
	const char *jn[] = { "a", "b c" }, *mn[] = { "cpu", "gpu" };
	for (int i = 0; i < 3000; i++) {
		const char *jc = jn[rand_r(&seed) % 2], *mc = mn[rand_r(&seed) % 2];
		int nodes = 1 + rand_r(&seed) % 3;
		double t = 500 + 3000 * uniform(&seed);
		tp_expdb *h = half[rand_r(&seed) % 2];
		tp_expdb_add(all, tp_expdb_jclass(all, jc),
			     tp_expdb_mclass(all, mc), nodes, t);
		tp_expdb_add(h, tp_expdb_jclass(h, jc), tp_expdb_mclass(h, mc),
			     nodes, t);
	}
	/* a key only the second file has */
	tp_expdb_add(half[1], tp_expdb_jclass(half[1], "only"),
		     tp_expdb_mclass(half[1], "cpu"), 9, 77);
	tp_expdb_add(all, tp_expdb_jclass(all, "only"),
		     tp_expdb_mclass(all, "cpu"), 9, 77);
	tp_error err = { "" };
	ck_assert_int_eq(tp_expdb_save(half[0], tmp_path("h0"), 10, &err), 0);
	ck_assert_int_eq(tp_expdb_save(half[1], tmp_path("h1"), 20, &err), 0);
	tp_expdb *merged = tp_expdb_new();
	int64_t learned;
	ck_assert_int_eq(tp_expdb_load(merged, tmp_path("h0"), &learned, &err), 0);
	ck_assert_int_eq(learned, 10);
	ck_assert_int_eq(tp_expdb_load(merged, tmp_path("h1"), &learned, &err), 0);
	ck_assert_int_eq(learned, 20);
	ck_assert_uint_eq(tp_expdb_size(merged), tp_expdb_size(all));
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 2; b++)
			for (int nodes = 1; nodes <= 9; nodes++) {
				const char *jc = a < 2 ? jn[a] : "only";
				tp_expdb_stat x, y;
				bool hx = tp_expdb_get(all, tp_expdb_jclass(all, jc),
						       tp_expdb_mclass(all, mn[b]),
						       nodes, &x);
				bool hy = tp_expdb_get(merged,
						       tp_expdb_jclass(merged, jc),
						       tp_expdb_mclass(merged, mn[b]),
						       nodes, &y);
				ck_assert(hx == hy);
				if (!hx)
					continue;
				ck_assert_uint_eq(x.count, y.count);
				ck_assert(rel_close(x.mean, y.mean, 1e-9));
				ck_assert(rel_close(x.var, y.var, 1e-9));
			}
	tp_expdb_free(merged);
	tp_expdb_free(all);
	tp_expdb_free(half[0]);
	tp_expdb_free(half[1]);
}
END_TEST

START_TEST(missing_file_is_empty)
{
	tp_expdb *db = tp_expdb_new();
	tp_error err = { "" };
	int64_t learned = 99;
	ck_assert_int_eq(tp_expdb_load(db, tmp_path("absent"), &learned, &err), 0);
	ck_assert_int_eq(learned, 0);
	ck_assert_uint_eq(tp_expdb_size(db), 0);
	tp_expdb_free(db);
}
END_TEST

static const struct malformed {
	const char *text;
	int line;
	const char *value;  /* in the message, quoted */
} malformed[] = {
	{ "", 0, "topo-expdb 1" },
	{ "sched_topo 1\n", 1, "'sched_topo 1'" },
	{ "topo-expdb 2\nlearned_until 0\n", 1, "'2'" },
	{ "topo-expdb x\nlearned_until 0\n", 1, "'x'" },
	{ "topo-expdb 1\n", 1, "learned_until" },
	{ "topo-expdb 1\nlearned_until soon\n", 2, "'soon'" },
	{ "topo-expdb 1\nlearn 0\n", 2, "'learn 0'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t1\t5\n", 3, "'5'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t1\t5\t0\t0\n", 3, "'> 6'" },
	{ "topo-expdb 1\nlearned_until 5\na%zz\tcpu\t1\t1\t5\t0\n", 3, "'%zz'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu%4\t1\t1\t5\t0\n", 3, "'%4'" },
	{ "topo-expdb 1\nlearned_until 5\na%00\tcpu\t1\t1\t5\t0\n", 3, "'%00'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t0\t1\t5\t0\n", 3, "bad node count (a whole number >= 1) '0'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t-2\t1\t5\t0\n", 3, "'-2'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t0\t5\t0\n", 3, "count (a whole number >= 1) '0'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t2\t-5\t0\n", 3, "mean (a finite number >= 0) '-5'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t2\tnan\t0\n", 3, "'nan'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t2\t5\tinf\n", 3, "'inf'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t2\t5\t-1\n", 3, "variance (a finite number >= 0) '-1'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t2\t5\t1e999\n", 3, "'1e999'" },
	{ "topo-expdb 1\nlearned_until 5\na\tcpu\t1\t2\t5\t1\n# c\na\tcpu\t1\t3\t4\t0\n", 5,
	  "duplicate key 'a' 'cpu' '1'" },
	{ "topo-expdb 1\nlearned_until 5\nb\tcpu\t1\t2\t5\t1\n\n", 4, "got '1'" },
	{ "topo-expdb 1\nlearned_until 5\nb\tcpu\t1\t2\t5 \t1\n", 3, "'5 '" },
	/* cut short: a whole-looking last line without its end of line */
	{ "topo-expdb 1\nlearned_until 5\nb\tcpu\t1\t2\t5\t1", 3,
	  "cut short (no end of line): 'b" },
	{ "topo-expdb 1\nlearned_until 17", 2, "cut short (no end of line): 'learned_until 17'" },
	{ "topo-exp", 1, "cut short" },
	/* garbage */
	{ "\x7f" "ELF\x02\x01\n\x01", 1, "not an experiential database" },
};

START_TEST(malformed_file_is_named)
{
	const struct malformed *c = &malformed[_i];
	const char *path = tmpdir_write("bad.expdb", c->text);
	tp_expdb *db = tp_expdb_new();
	int j = tp_expdb_jclass(db, "a"), m = tp_expdb_mclass(db, "cpu");
	tp_expdb_add(db, j, m, 1, 10);
	tp_error err = { "" };
	int64_t learned = 99;
	ck_assert_int_eq(tp_expdb_load(db, path, &learned, &err), -1);
	char where[600];
	snprintf(where, sizeof(where), "%s:%d: ", path, c->line);
	ck_assert_msg(strstr(err.msg, where), "case %d: '%s' lacks '%s'", _i,
		      err.msg, where);
	ck_assert_msg(strstr(err.msg, c->value), "case %d: '%s' lacks '%s'",
		      _i, err.msg, c->value);
	/* db untouched */
	ck_assert_int_eq(learned, 0);
	ck_assert_uint_eq(tp_expdb_size(db), 1);
	tp_expdb_stat st;
	ck_assert(tp_expdb_get(db, j, m, 1, &st) && st.count == 1);
	tp_expdb_free(db);
}
END_TEST

START_TEST(random_bytes_never_crash)
{
	unsigned seed = 1234;
	const char *path = tmp_path("fuzz.expdb");
	static const char alphabet[] = "topo-expdb 1\nlearned_until\t%#0123456789.e-+a \r";
	char valid[] = "topo-expdb 1\nlearned_until 5\na%20b\tcpu\t2\t3\t4.5\t0.25\n"
		       "c\tgpu\t1\t1\t7\t0\n";
	int ok = 0, bad = 0;
	for (int round = 0; round < 3000; round++) {
		char buf[512];
		size_t n;
		if (round % 3 == 0) {  /* raw bytes */
			n = (size_t)rand_r(&seed) % sizeof(buf);
			for (size_t i = 0; i < n; i++)
				buf[i] = (char)rand_r(&seed);
		} else if (round % 3 == 1) {  /* the file's own alphabet */
			n = (size_t)rand_r(&seed) % sizeof(buf);
			for (size_t i = 0; i < n; i++)
				buf[i] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		} else {  /* a valid file with a few bytes changed */
			n = strlen(valid);
			memcpy(buf, valid, n);
			for (int k = 0; k < 1 + rand_r(&seed) % 3; k++)
				buf[rand_r(&seed) % n] = (char)rand_r(&seed);
		}
		FILE *fp = fopen(path, "wb");
		fwrite(buf, 1, n, fp);
		fclose(fp);
		tp_expdb *db = tp_expdb_new();
		tp_error err = { "" };
		int64_t learned;
		int rc = tp_expdb_load(db, path, &learned, &err);
		ck_assert(rc == 0 || rc == -1);
		if (rc < 0) {
			ck_assert_ptr_nonnull(strstr(err.msg, path));
			bad++;
		} else {
			ok++;
		}
		tp_expdb_free(db);
		/* the same bytes as sacct output */
		if (n == 0)
			continue;
		FILE *in = fmemopen(buf, n, "r");
		db = tp_expdb_new();
		size_t added;
		rc = tp_expdb_seed_sacct(db, in, "fuzz", (tp_class_key)(round % 4),
					 &added, &err);
		ck_assert(rc == 0 || rc == -1);
		fclose(in);
		tp_expdb_free(db);
	}
	ck_assert_int_gt(bad, 0);
	ck_assert_int_gt(ok, 0);
}
END_TEST

/* ---- sacct ------------------------------------------------------- */

static const char sacct_sample[] =
	"JobName|User|WCKey|Comment|Partition|NNodes|ElapsedRaw|State\n"
	"lammps|alice|chem|run 1|gpu|2|100|COMPLETED\n"
	"batch|alice|chem||gpu|2|100|COMPLETED\n"
	"extern|alice|chem||gpu|2|101|COMPLETED\n"
	"lammps|alice|chem|run 2|gpu|2|300|COMPLETED\n"
	"lammps|bob|phys|run 1|cpu|4|50|COMPLETED\n"
	"lammps|bob|phys|run 1|cpu|4|999|FAILED\n"
	"lammps|bob|phys|run 1|cpu|4|3600|TIMEOUT\n"
	"lammps|bob|phys|run 1|cpu|4|10|CANCELLED by 1000\n"
	"lammps|bob|phys|run 1|cpu,gpu|4|70|COMPLETED\n"
	"my job|bob||run 1|cpu|1|0|COMPLETED\n"
	"\n";

typedef struct expect {
	const char *jclass, *mclass;
	int nodes;
	uint64_t count;
	double mean;
} expect;

static void check_seed(tp_class_key key, const expect *e, int ne)
{
	FILE *in = fmemopen((void *)sacct_sample, strlen(sacct_sample), "r");
	tp_expdb *db = tp_expdb_new();
	tp_error err = { "" };
	size_t added = 99;
	ck_assert_msg(tp_expdb_seed_sacct(db, in, "sample", key, &added, &err) == 0,
		      "%s", err.msg);
	fclose(in);
	ck_assert_uint_eq(added, 4);
	ck_assert_uint_eq(tp_expdb_size(db), (size_t)ne);
	for (int i = 0; i < ne; i++) {
		tp_expdb_stat st;
		ck_assert_msg(tp_expdb_get(db, tp_expdb_jclass(db, e[i].jclass),
					   tp_expdb_mclass(db, e[i].mclass),
					   e[i].nodes, &st),
			      "key %d: %s %s %d", (int)key, e[i].jclass,
			      e[i].mclass, e[i].nodes);
		ck_assert_uint_eq(st.count, e[i].count);
		ck_assert(st.mean == e[i].mean);
	}
	tp_expdb_free(db);
}

START_TEST(seed_sacct_each_key)
{
	const expect by_name[] = { { "lammps", "gpu", 2, 2, 200 },
				   { "lammps", "cpu", 4, 1, 50 },
				   { "my job", "cpu", 1, 1, 0 } };
	const expect by_user[] = { { "alice", "gpu", 2, 2, 200 },
				   { "bob", "cpu", 4, 1, 50 },
				   { "bob", "cpu", 1, 1, 0 } };
	const expect by_wckey[] = { { "chem", "gpu", 2, 2, 200 },
				    { "phys", "cpu", 4, 1, 50 },
				    { "", "cpu", 1, 1, 0 } };
	const expect by_comment[] = { { "run 1", "gpu", 2, 1, 100 },
				      { "run 2", "gpu", 2, 1, 300 },
				      { "run 1", "cpu", 4, 1, 50 },
				      { "run 1", "cpu", 1, 1, 0 } };
	check_seed(TP_CLASS_NAME, by_name, 3);
	check_seed(TP_CLASS_USER, by_user, 3);
	check_seed(TP_CLASS_WCKEY, by_wckey, 3);
	check_seed(TP_CLASS_COMMENT, by_comment, 4);
	const char *const *k = tp_class_key_names();
	ck_assert_str_eq(k[TP_CLASS_NAME], "name");
	ck_assert_str_eq(k[TP_CLASS_USER], "user");
	ck_assert_str_eq(k[TP_CLASS_WCKEY], "wckey");
	ck_assert_str_eq(k[TP_CLASS_COMMENT], "comment");
	ck_assert_ptr_null(k[4]);
}
END_TEST

static const struct bad_sacct {
	const char *line;
	const char *msg;
} bad_sacct[] = {
	{ "a|u|w|c|cpu|2|ten|COMPLETED\n", "in:2: bad ElapsedRaw 'ten'" },
	{ "a|u|w|c|cpu|2|-1|COMPLETED\n", "in:2: bad ElapsedRaw '-1'" },
	{ "a|u|w|c|cpu|x|10|COMPLETED\n", "in:2: bad NNodes 'x'" },
	{ "a|u|w|c|cpu|0|10|COMPLETED\n", "in:2: bad NNodes '0'" },
	{ "a|u|w|c|cpu|2.5|10|COMPLETED\n", "in:2: bad NNodes '2.5'" },
	{ "a|u|w|c|cpu|2|10\n", "in:2: expected 8" },
	{ "a|b|u|w|c|cpu|2|10|COMPLETED\n", "got '> 8'" },
	{ "a|u|w|c||2|10|COMPLETED\n", "in:2: bad Partition ''" },
};

START_TEST(seed_sacct_bad_line)
{
	char text[256];
	snprintf(text, sizeof(text), "a|u|w|c|cpu|2|10|COMPLETED\n%s",
		 bad_sacct[_i].line);
	FILE *in = fmemopen(text, strlen(text), "r");
	tp_expdb *db = tp_expdb_new();
	tp_error err = { "" };
	size_t added = 99;
	ck_assert_int_eq(tp_expdb_seed_sacct(db, in, "in", TP_CLASS_NAME,
					     &added, &err), -1);
	fclose(in);
	ck_assert_msg(strstr(err.msg, bad_sacct[_i].msg), "'%s' lacks '%s'",
		      err.msg, bad_sacct[_i].msg);
	ck_assert_uint_eq(added, 0);
	ck_assert_uint_eq(tp_expdb_size(db), 0);
	tp_expdb_free(db);
}
END_TEST

/* ---- scale ------------------------------------------------------- */

START_TEST(predict_at_scale)
{
	/* 10^5 entries: 1,000 job classes x 10 partitions x 10 node
	 * counts */
	tp_expdb *db = tp_expdb_new();
	char name[32];
	for (int j = 0; j < 1000; j++) {
		snprintf(name, sizeof(name), "job%d", j);
		ck_assert_int_eq(tp_expdb_jclass(db, name), j);
	}
	for (int m = 0; m < 10; m++) {
		snprintf(name, sizeof(name), "part%d", m);
		ck_assert_int_eq(tp_expdb_mclass(db, name), m);
	}
	for (int j = 0; j < 1000; j++)
		for (int m = 0; m < 10; m++)
			for (int n = 1; n <= 10; n++)
				ck_assert_int_eq(tp_expdb_add(db, j, m, n, j + m + n), 0);
	ck_assert_uint_eq(tp_expdb_size(db), 100000);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double sum = 0;
	unsigned seed = 5;
	const int calls = 2000000;
	for (int i = 0; i < calls; i++) {
		int j = rand_r(&seed) % 1000, m = rand_r(&seed) % 10;
		int n = 1 + rand_r(&seed) % 20;  /* half of them unseen */
		sum += tp_expdb_predict(db, j, m, n, -1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
		    calls;
	printf("check_het_expdb: predict on 10^5 entries: %.0f ns a call (incl. rand_r)\n",
	       ns);
	ck_assert(sum != 0);
	ck_assert(tp_expdb_predict(db, 999, 9, 10, -1) == 1018);
	/* generous: a tree or list would be orders of magnitude slower */
	ck_assert_double_lt(ns, 5000);

	tp_error err = { "" };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(tp_expdb_save(db, tmp_path("big"), 1, &err), 0);
	tp_expdb *back = tp_expdb_new();
	int64_t learned;
	ck_assert_int_eq(tp_expdb_load(back, tmp_path("big"), &learned, &err), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("check_het_expdb: save + load of 10^5 entries: %.0f ms\n",
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	ck_assert_uint_eq(tp_expdb_size(back), 100000);
	tp_expdb_free(back);
	tp_expdb_free(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("het_expdb");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, welford_matches_two_pass);
	tcase_add_test(tc, interning_is_stable);
	tcase_add_test(tc, predict_falls_back);
	tcase_add_test(tc, save_load_round_trip);
	tcase_add_test(tc, save_error_names_path);
	tcase_add_test(tc, load_merges_like_adding);
	tcase_add_test(tc, missing_file_is_empty);
	tcase_add_loop_test(tc, malformed_file_is_named, 0,
			    sizeof(malformed) / sizeof(malformed[0]));
	tcase_add_test(tc, random_bytes_never_crash);
	tcase_add_test(tc, seed_sacct_each_key);
	tcase_add_loop_test(tc, seed_sacct_bad_line, 0,
			    sizeof(bad_sacct) / sizeof(bad_sacct[0]));
	tcase_add_test(tc, predict_at_scale);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
