/* check_sched_topo_stats.c - sched/topo's counters and their file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "st_stats.h"

/* Value of "key=" in text, or -1. */
static long long value_of(const char *text, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\n%s=", key);
	if (!strncmp(text, pat + 1, strlen(pat + 1)))
		return atoll(text + strlen(pat + 1));
	const char *p = strstr(text, pat);
	return p ? atoll(p + strlen(pat)) : -1;
}

START_TEST(cycle_times)
{
	st_stats s;
	st_stats_init(&s, 1000);
	ck_assert_uint_eq(st_stats_mean_us(&s), 0);
	st_stats_cycle(&s, 100, 1001);
	st_stats_cycle(&s, 300, 1002);
	st_stats_cycle(&s, 50, 1003);
	ck_assert_uint_eq(s.cycles, 3);
	ck_assert_uint_eq(s.last_us, 50);
	ck_assert_uint_eq(s.max_us, 300);
	ck_assert_uint_eq(st_stats_mean_us(&s), 150);
	ck_assert_int_eq(s.last_cycle_at, 1003);
}
END_TEST

START_TEST(starts_by_policy)
{
	st_stats s;
	char text[2048];
	st_stats_init(&s, 0);
	st_stats_started(&s, "easy", 0);
	st_stats_started(&s, "easy", 1);
	st_stats_started(&s, "rb-har", 1);
	st_stats_started(&s, "no-such-policy", 0);
	ck_assert_uint_eq(s.started, 4);
	ck_assert_uint_eq(s.started_fill, 2);
	st_stats_format(&s, text, sizeof(text));
	ck_assert_int_eq(value_of(text, "started_easy"), 2);
	ck_assert_int_eq(value_of(text, "started_rb-har"), 1);
	ck_assert_int_eq(value_of(text, "started_fcfs"), 0);
	ck_assert_int_eq(value_of(text, "started"), 4);
	ck_assert_int_eq(value_of(text, "started_fill"), 2);
}
END_TEST

START_TEST(file_is_written_whole)
{
	st_stats s;
	char path[] = "/tmp/check_st_stats_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	st_stats_init(&s, 5);
	st_stats_cycle(&s, 1234, 6);
	s.ext_granted = 3;
	s.ext_denied = 1;
	snprintf(s.policy, sizeof(s.policy), "rb-har");
	tp_error err = { "" };
	ck_assert_int_eq(st_stats_write(&s, path, &err), 0);
	char text[4096] = "";
	FILE *fp = fopen(path, "r");
	size_t n = fread(text, 1, sizeof(text) - 1, fp);
	text[n] = '\0';
	fclose(fp);
	ck_assert_int_eq(value_of(text, "since"), 5);
	ck_assert_int_eq(value_of(text, "cycles"), 1);
	ck_assert_int_eq(value_of(text, "last_cycle_us"), 1234);
	ck_assert_int_eq(value_of(text, "sum_cycle_us"), 1234);
	ck_assert_int_eq(value_of(text, "ext_granted"), 3);
	ck_assert_int_eq(value_of(text, "ext_denied"), 1);
	ck_assert_ptr_nonnull(strstr(text, "\npolicy=rb-har\n"));
	unlink(path);
	/* An unwritable place is an error naming the file. */
	ck_assert_int_eq(st_stats_write(&s, "/nonexistent-dir/x.stats", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent-dir/x.stats"));
}
END_TEST

START_TEST(log_line)
{
	st_stats s;
	char line[512];
	st_stats_init(&s, 0);
	st_stats_cycle(&s, 10, 1);
	st_stats_cycle(&s, 30, 2);
	snprintf(s.policy, sizeof(s.policy), "easy");
	st_stats_line(&s, line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, "cycles=2 "));
	ck_assert_ptr_nonnull(strstr(line, "last_us=30 "));
	ck_assert_ptr_nonnull(strstr(line, "mean_us=20 "));
}
END_TEST

static const char *write_tmp(const char *text, size_t len)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/check_st_stats_XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

START_TEST(read_back_what_was_written)
{
	st_stats s, r;
	st_stats_init(&s, 5);
	st_stats_cycle(&s, 10, 6);
	st_stats_cycle(&s, 10, 7);
	st_stats_started(&s, "easy", 0);
	snprintf(s.policy, sizeof(s.policy), "easy");
	const char *path = write_tmp("", 0);
	tp_error err = { "" };
	ck_assert_int_eq(st_stats_write(&s, path, &err), 0);
	ck_assert_int_eq(st_stats_read(&r, path, &err), 1);
	ck_assert_int_eq(r.since, 5);
	ck_assert_uint_eq(r.cycles, 2);
	ck_assert_uint_eq(r.started, 1);
	ck_assert_str_eq(r.policy, "easy");
	unlink(path);
	/* No file: nothing to say. */
	ck_assert_int_eq(st_stats_read(&r, path, &err), 0);
	/* A file of before the format line is read as format 1. */
	path = write_tmp("since=1\ncycles=3\nstarted=0\n", 27);
	ck_assert_int_eq(st_stats_read(&r, path, &err), 1);
	ck_assert_uint_eq(r.cycles, 3);
	unlink(path);
}
END_TEST

static const struct bad_stats {
	const char *text;
	size_t len;          /* 0: strlen */
	const char *want;    /* after "PATH" */
} bad_stats[] = {
	{ "", 0, ": empty file" },
	{ "format=2\nsince=1\ncycles=3\n", 0, ":1: unsupported format (this reads format=1): 'format=2'" },
	{ "since=1\nformat=1\ncycles=3\n", 0, ":2: format= not on the first line" },
	{ "format=1\nsince=1\ncycles=3\nstarted=1", 0, ":4: last line cut short (no end of line)" },
	{ "format=1\nsince=1\ncyc", 0, ":3: last line cut short" },
	{ "format=1\nsince=1\n", 0, ": no 'cycles=' line" },
	{ "format=1\ncycles=x\n", 0, ":2: not a whole number: 'cycles=x'" },
	{ "format=1\ncycles=-1\n", 0, ":2: not a whole number" },
	{ "format=1\ncycles=99999999999999999999999\n", 0, ":2: not a whole number" },
	{ "format=1\nwhatever=1\ncycles=1\n", 0, ":2: unknown key: 'whatever=1'" },
	{ "format=1\nstarted_nosuch=1\ncycles=1\n", 0, ":2: unknown key" },
	{ "\x7f" "ELF\x02\x01\x01\n", 0, ":1: not 'key=value'" },
	{ "cycles=1\0\n", 10, ":1: NUL byte in line" },
};

START_TEST(bad_file_is_named)
{
	const struct bad_stats *c = &bad_stats[_i];
	const char *path = write_tmp(c->text, c->len ? c->len : strlen(c->text));
	st_stats r;
	tp_error err = { "" };
	ck_assert_int_eq(st_stats_read(&r, path, &err), -1);
	char want[256];
	snprintf(want, sizeof(want), "%s%s", path, c->want);
	ck_assert_msg(strstr(err.msg, want), "case %d: '%s' lacks '%s'", _i,
		      err.msg, want);
	unlink(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sched_topo_stats");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, cycle_times);
	tcase_add_test(tc, starts_by_policy);
	tcase_add_test(tc, file_is_written_whole);
	tcase_add_test(tc, log_line);
	tcase_add_test(tc, read_back_what_was_written);
	tcase_add_loop_test(tc, bad_file_is_named, 0,
			    (int)(sizeof(bad_stats) / sizeof(bad_stats[0])));
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
