/* check_sched_topo_fills.c - sched/topo's fill-job table and state file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "trace/rng.h"
#include "st_fills.h"

static char *tmp_path(void)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/check_st_fills_XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	return path;
}

START_TEST(sorted_add_find_remove)
{
	st_fills f;
	st_fills_init(&f);
	static const uint32_t ids[] = { 30, 10, 20, 40, 5 };
	for (size_t i = 0; i < 5; i++)
		ck_assert_ptr_nonnull(st_fills_add(&f, ids[i], 100 + ids[i]));
	ck_assert_int_eq(f.jobs.n, 5);
	for (size_t i = 1; i < f.jobs.n; i++)
		ck_assert_uint_lt(st_fills_at(&f, i - 1)->job_id, st_fills_at(&f, i)->job_id);
	ck_assert_int_eq(st_fills_find(&f, 20)->fill_for, 120);
	ck_assert_ptr_null(st_fills_find(&f, 21));
	/* Re-adding resets the entry (a job backfilled again after requeue). */
	st_fills_find(&f, 20)->extensions = 2;
	st_fills_add(&f, 20, 77);
	ck_assert_int_eq(f.jobs.n, 5);
	ck_assert_int_eq(st_fills_find(&f, 20)->extensions, 0);
	ck_assert_int_eq(st_fills_find(&f, 20)->fill_for, 77);
	st_fills_remove(&f, 5);
	st_fills_remove(&f, 99);
	ck_assert_int_eq(f.jobs.n, 4);
	ck_assert_ptr_null(st_fills_find(&f, 5));
	st_fills_fini(&f);
}
END_TEST

/* Property: after random adds and removes the table equals a reference. */
START_TEST(random_against_reference)
{
	tp_rng r;
	tp_rng_seed(&r, 7);
	st_fills f;
	st_fills_init(&f);
	int64_t ref[200];
	for (int i = 0; i < 200; i++)
		ref[i] = -1;
	for (int step = 0; step < 5000; step++) {
		uint32_t id = 1 + (uint32_t)tp_rng_below(&r, 199);
		if (tp_rng_below(&r, 3)) {
			ck_assert_ptr_nonnull(st_fills_add(&f, id, step));
			ref[id] = step;
		} else {
			st_fills_remove(&f, id);
			ref[id] = -1;
		}
	}
	size_t count = 0;
	for (uint32_t id = 1; id < 200; id++) {
		st_fill *e = st_fills_find(&f, id);
		if (ref[id] < 0) {
			ck_assert_ptr_null(e);
		} else {
			ck_assert_ptr_nonnull(e);
			ck_assert_int_eq(e->fill_for, ref[id]);
			count++;
		}
	}
	ck_assert_uint_eq(count, f.jobs.n);
	st_fills_fini(&f);
}
END_TEST

START_TEST(unseen_entries_are_dropped)
{
	st_fills f;
	st_fills_init(&f);
	for (uint32_t id = 1; id <= 4; id++)
		st_fills_add(&f, id, 0);
	f.dirty = false;
	st_fills_unsee(&f);
	st_fills_find(&f, 2)->seen = true;
	st_fills_find(&f, 4)->seen = true;
	ck_assert_uint_eq(st_fills_drop_unseen(&f), 2);
	ck_assert(f.dirty);
	ck_assert_int_eq(f.jobs.n, 2);
	ck_assert_ptr_nonnull(st_fills_find(&f, 2));
	ck_assert_ptr_null(st_fills_find(&f, 3));
	st_fills_fini(&f);
}
END_TEST

START_TEST(save_and_load)
{
	const char *path = tmp_path();
	st_fills f, g;
	tp_error err = { "" };
	st_fills_init(&f);
	st_fills_init(&g);
	st_fill *e = st_fills_add(&f, 4000000000u, 17);
	e->extensions = 1;
	e->decided_end = 1700000000;
	e->granted_end = 1700000120;
	st_fills_add(&f, 3, 2);
	ck_assert_int_eq(st_fills_save(&f, path, &err), 0);
	ck_assert(!f.dirty);
	ck_assert_int_eq(st_fills_load(&g, path, &err), 0);
	ck_assert_int_eq(g.jobs.n, 2);
	ck_assert_int_eq(st_fills_find(&g, 4000000000u)->extensions, 1);
	ck_assert_int_eq(st_fills_find(&g, 4000000000u)->decided_end, 1700000000);
	ck_assert_int_eq(st_fills_find(&g, 4000000000u)->granted_end, 1700000120);
	ck_assert_int_eq(st_fills_find(&g, 3)->granted_end, 0);
	ck_assert_int_eq(st_fills_find(&g, 3)->fill_for, 2);
	/* No leftover temporary file. */
	char tmp[128];
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	ck_assert_int_ne(access(tmp, F_OK), 0);
	unlink(path);
	/* A missing file is an empty table, not an error. */
	ck_assert_int_eq(st_fills_load(&g, path, &err), 0);
	ck_assert_int_eq(g.jobs.n, 0);
	st_fills_fini(&f);
	st_fills_fini(&g);
}
END_TEST

#define HDR "# sched/topo fill jobs v2: job_id fill_for extensions decided_end granted_end\n"
#define HDR_V1 "# sched/topo fill jobs v1: job_id fill_for extensions decided_end\n"

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
	fclose(fp);
}

/* A file the whole of which is ignored: -1, the table empty, the message
 * naming the file (and line 1 where there is one) and why. */
static const struct ignored {
	const char *text;
	size_t len;          /* 0: strlen(text) */
	const char *want;    /* after "PATH" */
} ignored[] = {
	{ "", 0, ": empty file" },
	{ "12 10 0 0\n", 0, ":1: not a sched/topo fill table" },
	{ "# header\n12 10 0 0\n", 0, ":1: not a sched/topo fill table" },
	{ "# sched/topo fill jobs v3: job_id fill_for extensions decided_end granted_end pinned\n12 10 0 0 0 1\n", 0,
	  ":1: unsupported version" },
	{ "# sched/topo fill jobs v2: job_id fill_for", 0, ":1: unsupported version or a cut-short header" },
	{ "# sched/topo fill jobs v1: job_id fill_for", 0, ":1: unsupported version or a cut-short header" },
	{ "\x7f" "ELF\x02\x01\x01\0\0\0\n", 10, ":1: not a sched/topo fill table" },
	{ "# sched/topo fill jobs v1\0 garbage\n", 35, ":1: not a sched/topo fill table" },
};

START_TEST(bad_file_is_ignored)
{
	const struct ignored *c = &ignored[_i];
	const char *path = tmp_path();
	write_file(path, c->text, c->len ? c->len : strlen(c->text));
	st_fills f;
	tp_error err = { "" };
	st_fills_init(&f);
	st_fills_add(&f, 99, 1);
	ck_assert_int_eq(st_fills_load(&f, path, &err), -1);
	ck_assert_int_eq(f.jobs.n, 0);
	ck_assert(!f.dirty);
	char want[256];
	snprintf(want, sizeof(want), "%s%s", path, c->want);
	ck_assert_msg(strstr(err.msg, want), "case %d: '%s' lacks '%s'", _i,
		      err.msg, want);
	unlink(path);
	st_fills_fini(&f);
}
END_TEST

/* Bad lines are skipped, the good ones kept: 1, the first bad line
 * named with its line number and text, and how many. */
static const struct partly {
	const char *text;
	const char *want;    /* after "PATH" */
	size_t bad, kept;
} partly[] = {
	{ HDR "12 10 0 0 0\n13 ten 0 0 0\n14 10 1 0 0\n", ":3: not 'job_id fill_for extensions decided_end granted_end': '13 ten 0 0 0' (1 bad line skipped, 2 good kept)", 1, 2 },
	{ HDR "12 10 -1 0 0\n", ":2: not 'job_id", 1, 0 },
	{ HDR "12 10 0 0 -5\n", ":2: not 'job_id", 1, 0 },
	{ HDR "12 10 0 0 0 extra\n", ":2: not 'job_id", 1, 0 },
	{ HDR "12 10 0 0\n", ":2: not 'job_id", 1, 0 },
	{ HDR "0 10 0 0 0\n4294967296 1 0 0 0\n7 1 0 0 0\n", ":2: not 'job_id", 2, 1 },
	/* a save cut short: the last line lost its end, maybe digits too */
	{ HDR "12 10 0 0 0\n13 10 0 17000", ":3: last line cut short (no end of line): '13 10 0 17000' (1 bad line skipped, 1 good kept)", 1, 1 },
	{ HDR "12 10 0 0 0\n12 11 0 0 0\n", ":3: job id listed twice (the first is kept)", 1, 1 },
	{ HDR "\x01\x02garbage\xff\n12 10 0 0 0\n", ":2: not 'job_id", 1, 1 },
	/* version 1: four fields */
	{ HDR_V1 "12 10 0 0\n13 10 0 0 0\n", ":3: not 'job_id fill_for extensions decided_end': '13 10 0 0 0' (1 bad line skipped, 1 good kept)", 1, 1 },
};

START_TEST(bad_lines_are_skipped)
{
	const struct partly *c = &partly[_i];
	const char *path = tmp_path();
	write_file(path, c->text, strlen(c->text));
	st_fills f;
	tp_error err = { "" };
	st_fills_init(&f);
	ck_assert_int_eq(st_fills_load(&f, path, &err), 1);
	ck_assert_uint_eq(f.jobs.n, c->kept);
	ck_assert(!f.dirty);
	char want[400];
	snprintf(want, sizeof(want), "%s%s", path, c->want);
	ck_assert_msg(strstr(err.msg, want), "case %d: '%s' lacks '%s'", _i,
		      err.msg, want);
	char count[64];
	snprintf(count, sizeof(count), "(%zu bad line%s skipped, %zu good kept)",
		 c->bad, c->bad == 1 ? "" : "s", c->kept);
	ck_assert_msg(strstr(err.msg, count), "case %d: '%s' lacks '%s'", _i,
		      err.msg, count);
	if (c->kept)
		ck_assert_ptr_nonnull(st_fills_find(&f, c->kept == 1 && _i == 5 ? 7 : 12));
	unlink(path);
	st_fills_fini(&f);
}
END_TEST

START_TEST(nul_byte_line_is_skipped)
{
	const char *path = tmp_path();
	static const char text[] = HDR "12 10 0 0 0\n13\0 10 0 0 0\n14 1 0 0 0\n";
	write_file(path, text, sizeof(text) - 1);
	st_fills f;
	tp_error err = { "" };
	st_fills_init(&f);
	ck_assert_int_eq(st_fills_load(&f, path, &err), 1);
	ck_assert_uint_eq(f.jobs.n, 2);
	ck_assert_ptr_nonnull(strstr(err.msg, ":3: NUL byte in line"));
	unlink(path);
	st_fills_fini(&f);
}
END_TEST

START_TEST(random_bytes_never_crash)
{
	/* Whatever the file holds: -1, 0 or 1, and the table consistent. */
	tp_rng r;
	tp_rng_seed(&r, 5);
	const char *path = tmp_path();
	char text[512];
	for (int k = 0; k < 300; k++) {
		size_t n = (size_t)tp_rng_below(&r, sizeof(text));
		size_t h = k % 2 ? strlen(HDR) : 0;
		memcpy(text, HDR, h);
		for (size_t i = h; i < n; i++) {
			uint64_t x = tp_rng_below(&r, 16);
			text[i] = x < 10 ? (char)('0' + x) : " \n-#\0\xff"[x - 10];
		}
		write_file(path, text, n > h ? n : h);
		st_fills f;
		tp_error err = { "" };
		st_fills_init(&f);
		int rc = st_fills_load(&f, path, &err);
		ck_assert(rc >= -1 && rc <= 1);
		for (size_t i = 1; i < f.jobs.n; i++)
			ck_assert_uint_lt(st_fills_at(&f, i - 1)->job_id, st_fills_at(&f, i)->job_id);
		if (rc)
			ck_assert_ptr_nonnull(strstr(err.msg, path));
		st_fills_fini(&f);
	}
	unlink(path);
}
END_TEST

/* A table written before granted_end was kept still loads: its entries
 * with granted_end 0 (nothing to restore). */
START_TEST(version_1_file_loads)
{
	const char *path = tmp_path();
	static const char text[] = HDR_V1 "12 10 1 1700000000\n13 10 0 0\n";
	write_file(path, text, sizeof(text) - 1);
	st_fills f;
	tp_error err = { "" };
	st_fills_init(&f);
	ck_assert_int_eq(st_fills_load(&f, path, &err), 0);
	ck_assert_uint_eq(f.jobs.n, 2);
	ck_assert_int_eq(st_fills_find(&f, 12)->extensions, 1);
	ck_assert_int_eq(st_fills_find(&f, 12)->decided_end, 1700000000);
	ck_assert_int_eq(st_fills_find(&f, 12)->granted_end, 0);
	/* saved again, it is version 2 */
	ck_assert_int_eq(st_fills_save(&f, path, &err), 0);
	FILE *fp = fopen(path, "r");
	char line[128];
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), fp));
	ck_assert_str_eq(line, HDR);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), fp));
	ck_assert_str_eq(line, "12 10 1 1700000000 0\n");
	fclose(fp);
	unlink(path);
	st_fills_fini(&f);
}
END_TEST

/* The extension Slurm's job state lost in a crash: only while the job's
 * limit is back at the end the extension was granted at. */
START_TEST(lost_extension)
{
	st_fill e = { .job_id = 7, .fill_for = 6, .extensions = 1,
		      .decided_end = 1000, .granted_end = 1120 };
	ck_assert_int_eq(st_fill_lost_extension(&e, 1000), 120); /* lost */
	ck_assert_int_eq(st_fill_lost_extension(&e, 1120), 0);   /* kept */
	ck_assert_int_eq(st_fill_lost_extension(&e, 1060), 0);   /* an operator's */
	ck_assert_int_eq(st_fill_lost_extension(&e, 2000), 0);
	e.granted_end = 0;                                       /* refused */
	ck_assert_int_eq(st_fill_lost_extension(&e, 1000), 0);
	e = (st_fill){ .job_id = 7 };                            /* never asked */
	ck_assert_int_eq(st_fill_lost_extension(&e, 0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sched_topo_fills");
	TCase *tc = tcase_create("fills");
	tcase_add_test(tc, sorted_add_find_remove);
	tcase_add_test(tc, random_against_reference);
	tcase_add_test(tc, unseen_entries_are_dropped);
	tcase_add_test(tc, save_and_load);
	tcase_add_loop_test(tc, bad_file_is_ignored, 0,
			    (int)(sizeof(ignored) / sizeof(ignored[0])));
	tcase_add_loop_test(tc, bad_lines_are_skipped, 0,
			    (int)(sizeof(partly) / sizeof(partly[0])));
	tcase_add_test(tc, nul_byte_line_is_skipped);
	tcase_add_test(tc, random_bytes_never_crash);
	tcase_add_test(tc, version_1_file_loads);
	tcase_add_test(tc, lost_extension);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
