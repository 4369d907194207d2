/* check_swf.c - unit tests for swf.c and workload.c, and the topogen
 * generator read back through the SWF reader. */
#include "check_util.h"
#include "trace/swf.h"
#include "trace/workload.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

/* Fields 10..18 of a job line (requested memory .. think time). */
#define TAIL "-1 1 1 1 1 1 -1 -1 -1"

/* A job line: id submit runtime alloc_procs req_procs req_time. */
#define JOB(id, sub, rt, p5, p8, est) \
	#id " " #sub " 0 " #rt " " #p5 " -1 -1 " #p8 " " #est " " TAIL "\n"

static char *temp_file(const char *suffix)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *path = malloc(strlen(dir) + 64);
	sprintf(path, "%s/check_swf_XXXXXX%s", dir, suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	ck_assert_int_ge(fd, 0);
	close(fd);
	return path;
}

static char *write_temp(const char *text)
{
	char *path = temp_file(".swf");
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

/* Reads text as a trace; returns the reader's result, message in err. */
static int read_text(const char *text, const tp_swf_opts *o, tp_workload *w,
		     tp_error *err, char **path_out)
{
	char *path = write_temp(text);
	int rc = tp_swf_read(path, o, w, err);
	if (path_out)
		*path_out = path;
	else {
		unlink(path);
		free(path);
	}
	return rc;
}

static const tp_wjob *find_job(const tp_workload *w, int64_t id)
{
	for (size_t i = 0; i < w->njobs; i++)
		if (w->jobs[i].id == id)
			return &w->jobs[i];
	return NULL;
}

/* ---- workload.c ------------------------------------------------------ */

START_TEST(test_workload_sort_is_stable)
{
	tp_workload w = {0};
	/* submit times with many ties, ids in file order */
	for (int i = 0; i < 5000; i++) {
		tp_wjob j = {.id = i, .submit = (i * 7919) % 37, .runtime = 1,
			     .estimate = 1, .nodes = 1};
		ck_assert_int_eq(tp_workload_add(&w, &j), 0);
	}
	tp_workload_sort(&w);
	ck_assert_uint_eq(w.njobs, 5000);
	for (size_t i = 1; i < w.njobs; i++) {
		ck_assert_int_le(w.jobs[i - 1].submit, w.jobs[i].submit);
		if (w.jobs[i - 1].submit == w.jobs[i].submit)
			ck_assert_int_lt(w.jobs[i - 1].id, w.jobs[i].id);
	}
	/* every job still there once */
	int64_t idsum = 0;
	for (size_t i = 0; i < w.njobs; i++)
		idsum += w.jobs[i].id;
	ck_assert_int_eq(idsum, 4999 * 5000 / 2);
	tp_workload_fini(&w);
	ck_assert_ptr_null(w.jobs);
	ck_assert_uint_eq(w.njobs, 0);
}
END_TEST

START_TEST(test_workload_slice)
{
	tp_workload w = {0};
	for (int i = 0; i < 10; i++) {
		tp_wjob j = {.id = i, .submit = i, .runtime = 1, .estimate = 1,
			     .nodes = 1};
		ck_assert_int_eq(tp_workload_add(&w, &j), 0);
	}
	ck_assert_int_eq(tp_workload_slice(&w, 3, 4), 0);
	ck_assert_uint_eq(w.njobs, 4);
	for (size_t i = 0; i < w.njobs; i++)
		ck_assert_int_eq(w.jobs[i].id, 3 + (int)i);
	/* a count past the end keeps what there is */
	ck_assert_int_eq(tp_workload_slice(&w, 2, 100), 0);
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_int_eq(w.jobs[0].id, 5);
	ck_assert_int_eq(w.jobs[1].id, 6);
	/* a first position past the end is refused, the jobs kept */
	ck_assert_int_eq(tp_workload_slice(&w, 2, 1), -1);
	ck_assert_uint_eq(w.njobs, 2);
	tp_workload_fini(&w);
}
END_TEST

/* ---- header, sizes, skips -------------------------------------------- */

START_TEST(test_ppn_from_header_and_rounding)
{
	const char *text =
		"; Version: 2.2\n"
		";   MaxNodes: 64\n"
		"; MaxProcs: 256\n"
		JOB(1, 10, 100, 5, -1, 200)   /* 5 procs -> 2 nodes */
		JOB(2, 20, 100, 4, -1, 200)   /* 4 -> 1 */
		JOB(3, 30, 100, 256, -1, 200) /* 256 -> 64: the whole machine */
		JOB(4, 40, 100, 1, -1, 200);  /* 1 -> 1 */
	tp_workload w;
	tp_error err;
	ck_assert_int_eq(read_text(text, NULL, &w, &err, NULL), 0);
	ck_assert_int_eq(w.ppn, 4);
	ck_assert_int_eq(w.nodes, 64);
	ck_assert_uint_eq(w.njobs, 4);
	ck_assert_int_eq(find_job(&w, 1)->nodes, 2);
	ck_assert_int_eq(find_job(&w, 2)->nodes, 1);
	ck_assert_int_eq(find_job(&w, 3)->nodes, 64);
	ck_assert_int_eq(find_job(&w, 4)->nodes, 1);
	tp_workload_fini(&w);

	/* --ppn and --nodes override the header */
	tp_swf_opts o = {.nodes = 100, .ppn = 2};
	ck_assert_int_eq(read_text(text, &o, &w, &err, NULL), 0);
	ck_assert_int_eq(w.ppn, 2);
	ck_assert_int_eq(w.nodes, 100);
	ck_assert_int_eq(find_job(&w, 1)->nodes, 3);
	ck_assert_ptr_null(find_job(&w, 3)); /* 256 procs = 128 nodes > 100 */
	ck_assert_uint_eq(w.skipped.too_big, 1);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_requested_procs_take_precedence)
{
	const char *text =
		"; MaxNodes: 32\n; MaxProcs: 32\n"
		JOB(1, 0, 100, 3, 8, 200)   /* field 8 wins */
		JOB(2, 0, 100, 3, -1, 200)  /* field 8 unknown: field 5 */
		JOB(3, 0, 100, 3, 0, 200)   /* field 8 zero: field 5 */
		JOB(4, 0, 100, -1, 6, 200); /* field 5 unknown, field 8 given */
	tp_workload w;
	tp_error err;
	ck_assert_int_eq(read_text(text, NULL, &w, &err, NULL), 0);
	ck_assert_int_eq(w.ppn, 1);
	ck_assert_int_eq(find_job(&w, 1)->nodes, 8);
	ck_assert_int_eq(find_job(&w, 2)->nodes, 3);
	ck_assert_int_eq(find_job(&w, 3)->nodes, 3);
	ck_assert_int_eq(find_job(&w, 4)->nodes, 6);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_skips_are_counted)
{
	const char *text =
		"; MaxNodes: 16\n; MaxProcs: 64\n" /* ppn 4 */
		JOB(1, 0, 0, 4, -1, 10)      /* run time 0 */
		JOB(2, 1, -1, -1, -1, 10)    /* run time unknown (and no size) */
		JOB(3, 2, 50, -1, -1, 10)    /* no size */
		JOB(4, 3, 50, 0, 0, 10)      /* no size */
		JOB(5, 4, 50, 65, -1, 10)    /* 17 nodes > 16 */
		JOB(6, 5, 50, 64, -1, 10)    /* 16 nodes: fits */
		JOB(7, 6, 50, 1, 100000, 10) /* field 8 too big */
		JOB(8, 7, 1, 1, -1, 10);     /* 1 s: kept */
	tp_workload w;
	tp_error err;
	ck_assert_int_eq(read_text(text, NULL, &w, &err, NULL), 0);
	ck_assert_uint_eq(w.skipped.runtime, 2);
	ck_assert_uint_eq(w.skipped.size, 2);
	ck_assert_uint_eq(w.skipped.too_big, 2);
	ck_assert_uint_eq(w.skipped.malformed, 0);
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_ptr_nonnull(find_job(&w, 6));
	ck_assert_ptr_nonnull(find_job(&w, 8));
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_estimate_fallback_and_decimals)
{
	const char *text =
		"; MaxNodes: 8\n"
		JOB(1, 0, 100, 1, -1, 300)  /* estimate given */
		JOB(2, 0, 100, 1, -1, -1)   /* unknown: run time */
		JOB(3, 0, 100, 1, -1, 0)    /* zero: run time */
		JOB(4, 0, 100, 1, -1, 50)   /* smaller than run time: kept */
		JOB(5, 3.9, 12.7, 2.5, -1, 99.99) /* decimals truncated */
		JOB(6, 0, 0.5, 1, -1, 10);  /* 0.5 s truncates to 0: skipped */
	tp_workload w;
	tp_error err;
	ck_assert_int_eq(read_text(text, NULL, &w, &err, NULL), 0);
	ck_assert_int_eq(find_job(&w, 1)->estimate, 300);
	ck_assert_int_eq(find_job(&w, 2)->estimate, 100);
	ck_assert_int_eq(find_job(&w, 3)->estimate, 100);
	ck_assert_int_eq(find_job(&w, 4)->estimate, 50);
	const tp_wjob *j = find_job(&w, 5);
	ck_assert_int_eq(j->submit, 3);
	ck_assert_int_eq(j->runtime, 12);
	ck_assert_int_eq(j->nodes, 2);
	ck_assert_int_eq(j->estimate, 99);
	ck_assert_ptr_null(find_job(&w, 6));
	ck_assert_uint_eq(w.skipped.runtime, 1);
	tp_workload_fini(&w);
}
END_TEST

/* --estimate-field: the requested time from another field; jobs left
 * with their run time are counted. */
START_TEST(test_estimate_field)
{
	const char *text =
		"; MaxNodes: 8\n"
		/* id sub wait rt p5 cpu mem p8 f9 f10 f11 f12 ... f18 */
		"1 0 0 100 1 -1 -1 1 -1 -1 -1 600 -1 -1 -1 -1 -1 -1\n"
		"2 0 0 100 1 -1 -1 1 300 -1 -1 -1 -1 -1 -1 -1 -1 -1\n";
	tp_swf_opts o = { .estimate_field = 12 };
	tp_workload w;
	tp_error err;
	ck_assert_int_eq(read_text(text, &o, &w, &err, NULL), 0);
	ck_assert_int_eq(find_job(&w, 1)->estimate, 600);
	ck_assert_int_eq(find_job(&w, 2)->estimate, 100); /* field 12 empty */
	ck_assert_uint_eq(w.estimate_missing, 1);
	tp_workload_fini(&w);
	/* the default, field 9 */
	ck_assert_int_eq(read_text(text, NULL, &w, &err, NULL), 0);
	ck_assert_int_eq(find_job(&w, 1)->estimate, 100);
	ck_assert_int_eq(find_job(&w, 2)->estimate, 300);
	ck_assert_uint_eq(w.estimate_missing, 1);
	tp_workload_fini(&w);
	o.estimate_field = 19;
	ck_assert_int_eq(read_text(text, &o, &w, &err, NULL), -1);
	ck_assert_msg(strstr(err.msg, "estimate field 19"), "%s", err.msg);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_sorted_by_submit_ties_in_file_order)
{
	const char *text =
		"; MaxNodes: 8\n"
		"\n"
		JOB(1, 500, 10, 1, -1, 10)
		"   \t \n"
		JOB(2, 100, 10, 1, -1, 10)
		JOB(3, 500, 10, 1, -1, 10)
		JOB(4, 100, 10, 1, -1, 10)
		JOB(5, 0, 10, 1, -1, 10);
	tp_workload w;
	tp_error err;
	ck_assert_int_eq(read_text(text, NULL, &w, &err, NULL), 0);
	static const int64_t order[] = {5, 2, 4, 1, 3};
	ck_assert_uint_eq(w.njobs, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(w.jobs[i].id, order[i]);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_machine_size_sources)
{
	tp_workload w;
	tp_error err;
	/* MaxProcs alone: ppn 1, machine = MaxProcs */
	ck_assert_int_eq(read_text("; MaxProcs: 48\n" JOB(1, 0, 5, 48, -1, 9), NULL, &w,
				   &err, NULL), 0);
	ck_assert_int_eq(w.nodes, 48);
	ck_assert_int_eq(w.ppn, 1);
	tp_workload_fini(&w);
	/* MaxProcs with a given ppn: ceil(MaxProcs / ppn) */
	tp_swf_opts o = {.ppn = 5};
	ck_assert_int_eq(read_text("; MaxProcs: 48\n" JOB(1, 0, 5, 48, -1, 9), &o, &w,
				   &err, NULL), 0);
	ck_assert_int_eq(w.nodes, 10);
	ck_assert_int_eq(w.jobs[0].nodes, 10);
	tp_workload_fini(&w);
	/* -1 = unknown, the option supplies the size */
	o = (tp_swf_opts){.nodes = 12};
	ck_assert_int_eq(read_text("; MaxNodes: -1\n" JOB(1, 0, 5, 3, -1, 9), &o, &w,
				   &err, NULL), 0);
	ck_assert_int_eq(w.nodes, 12);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_machine_size_errors)
{
	tp_workload w;
	tp_error err;
	char *path;
	/* no size at all: the error names the file */
	ck_assert_int_eq(read_text("; Version: 2.2\n" JOB(1, 0, 5, 3, -1, 9), NULL, &w,
				   &err, &path), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_ptr_nonnull(strstr(err.msg, "no machine size"));
	ck_assert_uint_eq(w.njobs, 0);
	ck_assert_ptr_null(w.jobs);
	unlink(path);
	free(path);
	/* MaxProcs not a multiple of MaxNodes */
	ck_assert_int_eq(read_text("; MaxNodes: 30\n; MaxProcs: 100\n", NULL, &w, &err,
				   &path), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_ptr_nonnull(strstr(err.msg, "not a multiple"));
	unlink(path);
	free(path);
	/* ... unless the ppn is given */
	tp_swf_opts o = {.ppn = 4};
	ck_assert_int_eq(read_text("; MaxNodes: 30\n; MaxProcs: 100\n", &o, &w, &err,
				   NULL), 0);
	tp_workload_fini(&w);
	/* bad header value: file, line and value */
	ck_assert_int_eq(read_text("; Version: 2\n; MaxNodes: lots\n", NULL, &w, &err,
				   &path), -1);
	char want[512];
	snprintf(want, sizeof(want), "%s:2:", path);
	ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, "'lots'"), "%s", err.msg);
	unlink(path);
	free(path);
	ck_assert_int_eq(read_text("; MaxNodes: 0\n", NULL, &w, &err, NULL), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "'0'"));
	/* negative option */
	o = (tp_swf_opts){.nodes = -3};
	ck_assert_int_eq(read_text("; MaxNodes: 4\n", &o, &w, &err, NULL), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "-3"));
	/* missing file */
	ck_assert_int_eq(tp_swf_read("/nonexistent/x.swf", NULL, &w, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/x.swf"));
}
END_TEST

/* ---- malformed lines ------------------------------------------------- */

static void expect_malformed(const char *line, int lineno, const char *says)
{
	char text[1024];
	snprintf(text, sizeof(text), "; MaxNodes: 8\n" JOB(1, 0, 5, 1, -1, 9) "%s"
		 JOB(3, 0, 5, 1, -1, 9), line);
	tp_workload w;
	tp_error err;
	char *path;
	ck_assert_int_eq(read_text(text, NULL, &w, &err, &path), -1);
	char want[512];
	snprintf(want, sizeof(want), "%s:%d: ", path, lineno);
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "'%s' lacks '%s'",
		      err.msg, want);
	ck_assert_msg(strstr(err.msg, says), "'%s' lacks '%s'", err.msg, says);
	/* lenient: skipped and counted, the neighbours loaded */
	tp_swf_opts o = {.lenient = true};
	ck_assert_int_eq(tp_swf_read(path, &o, &w, &err), 0);
	ck_assert_uint_eq(w.skipped.malformed, 1);
	ck_assert_uint_eq(w.njobs, 2);
	tp_workload_fini(&w);
	unlink(path);
	free(path);
}

START_TEST(test_malformed_lines)
{
	expect_malformed("2 0 0 5 1 -1 -1 -1 9 -1 -1 -1 -1 -1 -1 -1 -1\n", 3,
			 "17 fields where SWF has 18");
	expect_malformed("2 0 0 5 1 -1 -1 -1 9 -1 -1 -1 -1 -1 -1 -1 -1 -1 7\n", 3,
			 "19 fields");
	expect_malformed("2 0 0 5x 1 -1 -1 -1 9 -1 -1 -1 -1 -1 -1 -1 -1 -1\n", 3,
			 "field 4 (run time) is not a number '5x'");
	expect_malformed("2 -7 0 5 1 -1 -1 -1 9 -1 -1 -1 -1 -1 -1 -1 -1 -1\n", 3,
			 "field 2 (submit time) is negative '-7'");
	expect_malformed("2 0 0 5 1 -1 -1 -1 9 -1 -1 -1 -1 -1 0x10 -1 -1 -1\n", 3,
			 "field 15 (queue) is not a number '0x10'");
	expect_malformed("2 0 0 5 1 -1 -1 -1 1e99 -1 -1 -1 -1 -1 -1 -1 -1 -1\n", 3,
			 "field 9 (requested time) is out of range '1e99'");
	expect_malformed("2 0 0 5 1 -1 -1 -1 9 -1 -1 -1 -1 -1 - -1 -1 -1\n", 3,
			 "'-'");
	expect_malformed("garbage\n", 3, "field 1 (job number) is not a number 'garbage'");
	expect_malformed("2 0\n", 3, "2 fields where SWF has 18 '2 0'");
}
END_TEST

/* A NUL byte once made the reader drop the rest of its line and read the
 * next line as its continuation ("34 fields", under the next line's
 * number); a NUL followed by a blank line passed as a job. */
START_TEST(test_nul_byte)
{
	static const char text[] = "; MaxNodes: 8\n"
		"1 0 -1 10 1 -1 -1 1 20 -1 1 -1 -1 -1 0 -1 -1 -1\n"
		"2 0 -1 10 1 -1 -1 1 20 -1 1 -1 -1 -1 0 -1 -1 -1\0 junk\n\n"
		"3 0 -1 10 1 -1 -1 1 20 -1 1 -1 -1 -1 0 -1 -1 -1\n";
	char *path = temp_file(".swf");
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(text, 1, sizeof(text) - 1, fp), sizeof(text) - 1);
	fclose(fp);
	tp_workload w;
	tp_error err;
	ck_assert_int_eq(tp_swf_read(path, NULL, &w, &err), -1);
	char want[256];
	snprintf(want, sizeof(want), "%s:3: NUL byte in the line", path);
	ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
	tp_workload_fini(&w);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_odd_but_valid_lines)
{
	/* CRLF endings, tabs, an exponent, a very long header line */
	size_t big = 20000;
	char *text = malloc(big + 1024);
	char *p = text;
	p += sprintf(p, "; Note: ");
	memset(p, 'x', big);
	p += big;
	p += sprintf(p, "\r\n; MaxNodes: 8\r\n"
		     "1\t0\t0\t1e2\t2\t-1\t-1\t-1\t9\t-1\t-1\t-1\t-1\t-1\t-1\t-1\t-1\t-1\r\n"
		     "2 +5 0 7 1 -1 -1 -1 9 -1 -1 -1 -1 -1 -1 -1 -1 -1"); /* no final newline */
	tp_workload w;
	tp_error err;
	ck_assert_msg(read_text(text, NULL, &w, &err, NULL) == 0, "%s", err.msg);
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_int_eq(find_job(&w, 1)->runtime, 100);
	ck_assert_int_eq(find_job(&w, 2)->submit, 5);
	ck_assert_int_eq(find_job(&w, 2)->runtime, 7);
	tp_workload_fini(&w);
	free(text);
}
END_TEST

/* ---- compressed input, stdin, writing -------------------------------- */

static const char small_trace[] =
	"; MaxNodes: 16\n; MaxProcs: 32\n"
	JOB(1, 0, 100, 4, -1, 150)
	JOB(2, 60, 0, 4, -1, 150)
	JOB(3, 30, 80, 3, -1, -1);

START_TEST(test_gzip_input)
{
	char *path = temp_file(".swf.gz");
	gzFile gz = gzopen(path, "wb");
	ck_assert_ptr_nonnull(gz);
	ck_assert_int_eq(gzputs(gz, small_trace), (int)strlen(small_trace));
	ck_assert_int_eq(gzclose(gz), Z_OK);
	tp_workload w;
	tp_error err;
	ck_assert_msg(tp_swf_read(path, NULL, &w, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_int_eq(w.ppn, 2);
	ck_assert_int_eq(w.jobs[0].id, 1);
	ck_assert_int_eq(w.jobs[1].id, 3);
	ck_assert_int_eq(w.jobs[1].nodes, 2);
	ck_assert_int_eq(w.jobs[1].estimate, 80);
	ck_assert_uint_eq(w.skipped.runtime, 1);
	tp_workload_fini(&w);

	/* a truncated .gz is a read error, not a shorter trace */
	FILE *fp = fopen(path, "r+");
	fseek(fp, 0, SEEK_END);
	long size = ftell(fp);
	fclose(fp);
	ck_assert_int_eq(truncate(path, size / 2), 0);
	ck_assert_int_eq(tp_swf_read(path, NULL, &w, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_msg(strstr(err.msg, ": truncated: "), "%s", err.msg);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_stdin_input)
{
	char *path = write_temp(small_trace);
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	tp_workload w;
	tp_error err;
	ck_assert_msg(tp_swf_read("-", NULL, &w, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w.njobs, 2);
	tp_workload_fini(&w);
	/* stdin itself stays open for the caller */
	ck_assert_int_ne(fcntl(STDIN_FILENO, F_GETFD), -1);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_write_read_round_trip)
{
	tp_workload w = {.nodes = 20, .ppn = 3};
	for (int i = 0; i < 50; i++) {
		tp_wjob j = {.id = 100 + i, .submit = 10 * i, .runtime = 1 + i * 37,
			     .estimate = 5 + i * 41, .nodes = 1 + i % 20};
		tp_workload_add(&w, &j);
	}
	char *path = temp_file(".swf");
	FILE *fp = fopen(path, "w");
	ck_assert_int_eq(tp_swf_write(fp, &w, "first line\nsecond line"), 0);
	fclose(fp);
	tp_workload r;
	tp_error err;
	ck_assert_msg(tp_swf_read(path, NULL, &r, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(r.nodes, 20);
	ck_assert_int_eq(r.ppn, 3);
	ck_assert_uint_eq(r.njobs, w.njobs);
	for (size_t i = 0; i < w.njobs; i++) {
		const tp_wjob *a = &r.jobs[i], *b = &w.jobs[i];
		ck_assert_int_eq(a->id, b->id);
		ck_assert_int_eq(a->submit, b->submit);
		ck_assert_int_eq(a->runtime, b->runtime);
		ck_assert_int_eq(a->estimate, b->estimate);
		ck_assert_int_eq(a->nodes, b->nodes);
	}
	/* comment lines come out as SWF comments */
	fp = fopen(path, "r");
	char line[256];
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), fp));
	ck_assert_str_eq(line, "; first line\n");
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), fp));
	ck_assert_str_eq(line, "; second line\n");
	fclose(fp);
	tp_workload_fini(&r);
	tp_workload_fini(&w);
	unlink(path);
	free(path);
}
END_TEST

/* ---- real traces ----------------------------------------------------- */

/* Independent count of a trace's job records and of those with run time
 * (field 4) <= 0, with zlib and strtok: no code shared with swf.c. */
static void count_records(const char *path, size_t *records, size_t *no_runtime)
{
	gzFile gz = gzopen(path, "rb");
	ck_assert_ptr_nonnull(gz);
	char line[4096];
	*records = *no_runtime = 0;
	while (gzgets(gz, line, sizeof(line))) {
		char *tok = strtok(line, " \t\r\n");
		if (!tok || tok[0] == ';')
			continue;
		(*records)++;
		for (int f = 2; f <= 4; f++)
			tok = strtok(NULL, " \t\r\n");
		*no_runtime += atof(tok) <= 0;
	}
	gzclose(gz);
}

static void check_invariants(const tp_workload *w, int nodes)
{
	ck_assert_int_eq(w->nodes, nodes);
	for (size_t i = 0; i < w->njobs; i++) {
		const tp_wjob *j = &w->jobs[i];
		ck_assert_int_ge(j->nodes, 1);
		ck_assert_int_le(j->nodes, nodes);
		ck_assert_int_gt(j->runtime, 0);
		ck_assert_int_gt(j->estimate, 0);
		ck_assert_int_ge(j->submit, 0);
		if (i > 0)
			ck_assert_int_le(w->jobs[i - 1].submit, j->submit);
	}
}

static size_t skipped_total(const tp_workload *w)
{
	return w->skipped.runtime + w->skipped.size + w->skipped.too_big +
	       w->skipped.malformed;
}

START_TEST(test_sdsc_sp2_trace)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/traces/SDSC-SP2-1998-4.2-cln.swf.gz",
		 tp_data_dir());
	size_t records, no_runtime;
	count_records(path, &records, &no_runtime);
	ck_assert_uint_eq(records, 59715); /* data README */
	ck_assert_uint_eq(no_runtime, 5681);
	tp_workload w;
	tp_error err;
	ck_assert_msg(tp_swf_read(path, NULL, &w, &err) == 0, "%s", err.msg);
	check_invariants(&w, 128);
	ck_assert_int_eq(w.ppn, 1);
	ck_assert_uint_eq(w.njobs + skipped_total(&w), records);
	ck_assert_uint_eq(w.skipped.runtime, no_runtime);
	ck_assert_uint_eq(w.skipped.malformed, 0);
	/* 99.9 % carry a requested time: most estimates differ from run time */
	size_t own = 0;
	for (size_t i = 0; i < w.njobs; i++)
		own += w.jobs[i].estimate != w.jobs[i].runtime;
	ck_assert_uint_gt(own, w.njobs * 9 / 10);
	tp_workload_fini(&w);
}
END_TEST

START_TEST(test_lublin_trace)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/traces/lublin_256.swf.gz", tp_data_dir());
	size_t records, no_runtime;
	count_records(path, &records, &no_runtime);
	ck_assert_uint_eq(records, 10000);
	tp_workload w;
	tp_error err;
	ck_assert_msg(tp_swf_read(path, NULL, &w, &err) == 0, "%s", err.msg);
	check_invariants(&w, 256);
	ck_assert_uint_eq(w.njobs + skipped_total(&w), records);
	ck_assert_uint_eq(w.skipped.runtime, no_runtime);
	/* the model has no requested times: estimate = run time */
	for (size_t i = 0; i < w.njobs; i++)
		ck_assert_int_eq(w.jobs[i].estimate, w.jobs[i].runtime);
	tp_workload_fini(&w);
}
END_TEST

/* ---- topogen --------------------------------------------------------- */

/* Runs topogen with args into a new temp file; returns its path. */
static char *topogen(const char *args)
{
	char *path = temp_file(".swf");
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "%s %s -o %s", TP_TOPOGEN, args, path);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
	return path;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	*len = (size_t)ftell(fp);
	rewind(fp);
	char *buf = malloc(*len + 1);
	ck_assert_uint_eq(fread(buf, 1, *len, fp), *len);
	fclose(fp);
	return buf;
}

static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);
	int same = la == lb && memcmp(x, y, la) == 0;
	free(x);
	free(y);
	return same;
}

static void remove_temp(char *path)
{
	unlink(path);
	free(path);
}

START_TEST(test_topogen_reproducible)
{
	static const char *const kinds[] = {
		"torus --nodes 32 --jobs 2000 --days 30",
		"rbhar --jobs 1000",
	};
	for (int k = 0; k < 2; k++) {
		char args[256];
		snprintf(args, sizeof(args), "%s --seed 17", kinds[k]);
		char *a = topogen(args), *b = topogen(args);
		snprintf(args, sizeof(args), "%s --seed 18", kinds[k]);
		char *c = topogen(args);
		ck_assert_msg(same_file(a, b), "seed 17 twice differs: %s", kinds[k]);
		ck_assert_msg(!same_file(a, c), "seeds 17 and 18 agree: %s", kinds[k]);
		remove_temp(a), remove_temp(b), remove_temp(c);
	}
}
END_TEST

START_TEST(test_topogen_rbhar_mix)
{
	char *path = topogen("rbhar --cores 16 --jobs 5000 --seed 4");
	tp_workload w;
	tp_error err;
	ck_assert_msg(tp_swf_read(path, NULL, &w, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w.njobs, 5000);
	ck_assert_int_eq(w.nodes, 16);
	size_t count[13] = {0};
	double sum_ratio = 0, gap = 0, over = 0;
	double run_by_size[13] = {0};
	for (size_t i = 0; i < w.njobs; i++) {
		const tp_wjob *j = &w.jobs[i];
		ck_assert_int_le(j->nodes, 12);
		count[j->nodes]++;
		run_by_size[j->nodes] += j->runtime;
		ck_assert_int_ge(j->runtime, 50);
		ck_assert_int_le(j->runtime, 200);
		double ratio = (double)j->estimate / j->runtime;
		ck_assert(ratio > 0.79 && ratio < 1.51);
		sum_ratio += ratio;
		over += j->runtime > j->estimate;
		if (i > 0) {
			ck_assert_int_le(j->submit - w.jobs[i - 1].submit, 1000);
			gap += j->submit - w.jobs[i - 1].submit;
		}
	}
	double n = w.njobs;
	ck_assert_double_eq_tol(count[1] / n, 0.269, 0.03);
	double par = n - count[1];
	ck_assert_double_eq_tol(count[2] / par, 0.283, 0.03);
	ck_assert_double_eq_tol(count[4] / par, 0.251, 0.03);
	ck_assert_double_eq_tol(count[6] / par, 0.171, 0.03);
	ck_assert_double_eq_tol(count[8] / par, 0.152, 0.03);
	ck_assert_double_eq_tol((count[10] + count[11] + count[12]) / par, 0.143, 0.03);
	ck_assert_uint_eq(count[3] + count[5] + count[7] + count[9], 0);
	/* smaller jobs shorter */
	ck_assert(run_by_size[1] / count[1] < run_by_size[4] / count[4]);
	ck_assert(run_by_size[4] / count[4] < run_by_size[8] / count[8]);
	/* estimate factor U[0.8, 1.5]: mean 1.15, overrun share 0.2/0.7 */
	ck_assert_double_eq_tol(sum_ratio / n, 1.15, 0.02);
	ck_assert_double_eq_tol(over / n, 0.2 / 0.7, 0.03);
	/* inter-arrival U[0, 1000] s: mean 500 */
	ck_assert_double_eq_tol(gap / (n - 1), 500, 15);
	tp_workload_fini(&w);
	remove_temp(path);
}
END_TEST

START_TEST(test_topogen_torus_mix)
{
	char *path = topogen("torus --nodes 64 --jobs 8000 --days 120 --seed 9");
	tp_workload w;
	tp_error err;
	ck_assert_msg(tp_swf_read(path, NULL, &w, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w.njobs, 8000);
	ck_assert_int_eq(w.nodes, 64);
	size_t count[65] = {0}, day_or_more = 0, short_jobs = 0;
	for (size_t i = 0; i < w.njobs; i++) {
		const tp_wjob *j = &w.jobs[i];
		ck_assert_msg((j->nodes & (j->nodes - 1)) == 0, "size %d", j->nodes);
		count[j->nodes]++;
		ck_assert_int_lt(j->submit, 120 * 86400);
		ck_assert_int_eq(j->runtime, j->estimate);
		ck_assert_int_ge(j->estimate, 9);     /* 0.01 % of a day */
		ck_assert_int_le(j->estimate, 86400); /* a day */
		day_or_more += j->estimate >= 85536;  /* r >= 99: top 10 % */
		short_jobs += j->estimate <= 864;     /* r <= 1: x <= 45 */
	}
	/* weights 1/size over 1..64: P(1) = 1/(2 - 1/64) */
	double n = w.njobs;
	ck_assert_double_eq_tol(count[1] / n, 1.0 / (2 - 1.0 / 64), 0.03);
	ck_assert_double_eq_tol(count[2] / n, 0.5 / (2 - 1.0 / 64), 0.03);
	ck_assert_double_eq_tol(count[64] / n, (1.0 / 64) / (2 - 1.0 / 64), 0.01);
	ck_assert_double_eq_tol(day_or_more / n, 0.10, 0.015);
	ck_assert_double_eq_tol(short_jobs / n, 0.45, 0.02);
	tp_workload_fini(&w);
	remove_temp(path);

	/* explicit weights and a run-time fraction */
	path = topogen("torus --nodes 36 --jobs 3000 --size-weights 3:1,36:1 "
		       "--runtime-fraction 0.5-0.5 --seed 2");
	ck_assert_msg(tp_swf_read(path, NULL, &w, &err) == 0, "%s", err.msg);
	size_t three = 0;
	for (size_t i = 0; i < w.njobs; i++) {
		const tp_wjob *j = &w.jobs[i];
		ck_assert(j->nodes == 3 || j->nodes == 36);
		three += j->nodes == 3;
		ck_assert_int_le(llabs(2 * j->runtime - j->estimate), 2);
	}
	ck_assert_double_eq_tol(three / (double)w.njobs, 0.5, 0.03);
	tp_workload_fini(&w);
	remove_temp(path);
}
END_TEST

START_TEST(test_topogen_rejects_bad_arguments)
{
	static const char *const bad[] = {
		"", "mesh --nodes 4", "torus", "torus --nodes 0", "torus --nodes 8 --cores 16",
		"rbhar --cores 8", "rbhar --estimate-factor 2-1", "torus --nodes 8 --size-weights 16:1",
		"torus --nodes 8 --size-weights 2:0", "rbhar --jobs x", "torus --nodes 8 extra",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cmd[512];
		snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>&1", TP_TOPOGEN, bad[i]);
		int rc = system(cmd);
		ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "'%s' gave %d", bad[i], rc);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("swf");
	TCase *tc = tcase_create("reader");
	tcase_add_test(tc, test_workload_sort_is_stable);
	tcase_add_test(tc, test_workload_slice);
	tcase_add_test(tc, test_ppn_from_header_and_rounding);
	tcase_add_test(tc, test_requested_procs_take_precedence);
	tcase_add_test(tc, test_skips_are_counted);
	tcase_add_test(tc, test_estimate_fallback_and_decimals);
	tcase_add_test(tc, test_estimate_field);
	tcase_add_test(tc, test_sorted_by_submit_ties_in_file_order);
	tcase_add_test(tc, test_machine_size_sources);
	tcase_add_test(tc, test_machine_size_errors);
	tcase_add_test(tc, test_malformed_lines);
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_odd_but_valid_lines);
	tcase_add_test(tc, test_gzip_input);
	tcase_add_test(tc, test_stdin_input);
	tcase_add_test(tc, test_write_read_round_trip);
	suite_add_tcase(s, tc);

	TCase *traces = tcase_create("traces");
	tcase_set_timeout(traces, 60);
	tcase_add_test(traces, test_sdsc_sp2_trace);
	tcase_add_test(traces, test_lublin_trace);
	suite_add_tcase(s, traces);

	TCase *gen = tcase_create("topogen");
	tcase_set_timeout(gen, 60);
	tcase_add_test(gen, test_topogen_reproducible);
	tcase_add_test(gen, test_topogen_rbhar_mix);
	tcase_add_test(gen, test_topogen_torus_mix);
	tcase_add_test(gen, test_topogen_rejects_bad_arguments);
	suite_add_tcase(s, gen);
	return tp_check_run(s);
}
