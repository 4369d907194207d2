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
	ck_assert_int_eq(f.n, 5);
	for (size_t i = 1; i < f.n; i++)
		ck_assert_uint_lt(f.v[i - 1].job_id, f.v[i].job_id);
	ck_assert_int_eq(st_fills_find(&f, 20)->fill_for, 120);
	ck_assert_ptr_null(st_fills_find(&f, 21));
	/* Re-adding resets the entry (a job backfilled again after requeue). */
	st_fills_find(&f, 20)->extensions = 2;
	st_fills_add(&f, 20, 77);
	ck_assert_int_eq(f.n, 5);
	ck_assert_int_eq(st_fills_find(&f, 20)->extensions, 0);
	ck_assert_int_eq(st_fills_find(&f, 20)->fill_for, 77);
	st_fills_remove(&f, 5);
	st_fills_remove(&f, 99);
	ck_assert_int_eq(f.n, 4);
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
	ck_assert_uint_eq(count, f.n);
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
	ck_assert_int_eq(f.n, 2);
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
	st_fills_add(&f, 3, 2);
	ck_assert_int_eq(st_fills_save(&f, path, &err), 0);
	ck_assert(!f.dirty);
	ck_assert_int_eq(st_fills_load(&g, path, &err), 0);
	ck_assert_int_eq(g.n, 2);
	ck_assert_int_eq(st_fills_find(&g, 4000000000u)->extensions, 1);
	ck_assert_int_eq(st_fills_find(&g, 4000000000u)->decided_end, 1700000000);
	ck_assert_int_eq(st_fills_find(&g, 3)->fill_for, 2);
	/* No leftover temporary file. */
	char tmp[128];
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	ck_assert_int_ne(access(tmp, F_OK), 0);
	unlink(path);
	/* A missing file is an empty table, not an error. */
	ck_assert_int_eq(st_fills_load(&g, path, &err), 0);
	ck_assert_int_eq(g.n, 0);
	st_fills_fini(&f);
	st_fills_fini(&g);
}
END_TEST

START_TEST(bad_file_names_line)
{
	const char *path = tmp_path();
	FILE *fp = fopen(path, "w");
	fputs("# header\n12 10 0 0\n13 ten 0 0\n", fp);
	fclose(fp);
	st_fills f;
	tp_error err = { "" };
	st_fills_init(&f);
	ck_assert_int_eq(st_fills_load(&f, path, &err), -1);
	ck_assert_int_eq(f.n, 0);
	char want[128];
	snprintf(want, sizeof(want), "%s:3:", path);
	ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, "'13 ten 0 0'"),
		      "%s", err.msg);
	fp = fopen(path, "w");
	fputs("12 10 -1 0\n", fp);
	fclose(fp);
	ck_assert_int_eq(st_fills_load(&f, path, &err), -1);
	fp = fopen(path, "w");
	fputs("12 10 0 0 extra\n", fp);
	fclose(fp);
	ck_assert_int_eq(st_fills_load(&f, path, &err), -1);
	unlink(path);
	st_fills_fini(&f);
}
END_TEST

/* Lines are read whole (a 256-byte buffer once read a long line as two,
 * the second reported under the wrong number), and a NUL byte, which
 * would hide the rest of its line ("12 10 0 0\0 9" read as
 * "12 10 0 0"), is an error naming the line. */
START_TEST(long_line_and_nul)
{
	const char *path = tmp_path();
	FILE *fp = fopen(path, "w");
	fprintf(fp, "12 10 0 0\n13 10 0 0%300s\n", "");
	fclose(fp);
	st_fills f;
	tp_error err = { "" };
	st_fills_init(&f);
	ck_assert_msg(st_fills_load(&f, path, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(f.n, 2);
	char want[128];
	fp = fopen(path, "w");
	fwrite("12 10 0 0\n13 10 0 0\0 9\n", 1, 24, fp);
	fclose(fp);
	ck_assert_int_eq(st_fills_load(&f, path, &err), -1);
	ck_assert_int_eq(f.n, 0);
	snprintf(want, sizeof(want), "%s:2: NUL byte", path);
	ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
	unlink(path);
	st_fills_fini(&f);
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
	tcase_add_test(tc, bad_file_names_line);
	tcase_add_test(tc, long_line_and_nul);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
