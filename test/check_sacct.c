/* check_sacct.c - unit tests for sacct.c: Slurm's time forms, a file with
 * every field kind read into a workload and Slurm's runs, the skips and
 * their counts, and bad input named by file, line and value. */
#include "check_util.h"
#include "trace/sacct.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define HEADER "JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|Partition|State|NodeList\n"

/* Every kind of line: a job with its steps, an array (two tasks run, the
 * rest pending), a heterogeneous job, one cancelled before it started,
 * one on a node outside the partition, one of another partition, one
 * still running, one without a time limit. */
static const char *const example =
	HEADER
	"100|100|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00|01:00:00|4|16|batch|COMPLETED|n[1-4]\n"
	"100.batch|100.batch|2026-01-01T00:00:10|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00||1|4||COMPLETED|n1\n"
	"100.0|100.0|2026-01-01T00:00:10|2026-01-01T00:00:10|2026-01-01T00:10:10|00:10:00||4|16||COMPLETED|n[1-4]\n"
	"101_1|102|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:32:00|00:30:00|1-00:00:00|2|8|batch|TIMEOUT|n[3,5]\n"
	"101_2|103|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:12:00|00:10:00|UNLIMITED|1|4|batch|FAILED|n6\n"
	"101_[3-5]|101|2026-01-01T00:01:00|Unknown|Unknown|00:00:00|30:00|1|4|batch|PENDING|None assigned\n"
	"104+0|104|2026-01-01T00:03:00|2026-01-01T00:04:00|2026-01-01T00:09:00|00:05:00|10|1|4|batch|COMPLETED|n7\n"
	"104+1|105|2026-01-01T00:03:00|2026-01-01T00:04:00|2026-01-01T00:09:00|00:05:00|10|2|8|batch|COMPLETED|n[1-2]\n"
	"106|106|2026-01-01T00:05:00|None|2026-01-01T00:06:00|00:00:00|05:00|2|8|batch|CANCELLED by 1000|None assigned\n"
	"107|107|2026-01-01T00:06:00|2026-01-01T00:07:00|2026-01-01T00:17:00|00:10:00|20:00|2|8|batch|COMPLETED|n8,login1\n"
	"108|108|2026-01-01T00:06:00|2026-01-01T00:06:30|2026-01-01T00:07:30|00:01:00|20:00|1|4|debug|COMPLETED|n7\n"
	"109|109|2026-01-01T00:08:00|2026-01-01T00:09:00|Unknown|00:05:00|20:00|1|4|batch|RUNNING|n4\n";

static char *write_temp(const char *text)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *path = malloc(strlen(dir) + 64);
	sprintf(path, "%s/check_sacct_XXXXXX", dir);
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static int read_text(const char *text, const tp_sacct_opts *o, tp_sacct *s,
		     tp_error *err, char **path_out)
{
	char *path = write_temp(text);
	int rc = tp_sacct_read(path, o, s, err);
	unlink(path);
	if (path_out)
		*path_out = path;
	else
		free(path);
	return rc;
}

static const tp_wjob *find(const tp_sacct *s, int64_t id, size_t *at)
{
	for (size_t i = 0; i < s->w.njobs; i++)
		if (s->w.jobs[i].id == id) {
			*at = i;
			return &s->w.jobs[i];
		}
	return NULL;
}

START_TEST(test_time_forms)
{
	int64_t v;
	ck_assert_int_eq(tp_sacct_parse_time("1970-01-02T00:00:01", &v), 0);
	ck_assert_int_eq(v, 86401);
	ck_assert_int_eq(tp_sacct_parse_time("2024-03-01T00:00:00", &v), 0);
	ck_assert_int_eq(v, 1709251200); /* date -u -d 2024-03-01 +%s */
	ck_assert_int_eq(tp_sacct_parse_time("1709251200", &v), 0);
	ck_assert_int_eq(v, 1709251200);
	ck_assert_int_eq(tp_sacct_parse_time("Unknown", &v), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(tp_sacct_parse_time("", &v), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(tp_sacct_parse_time("2023-02-29T00:00:00x", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_time("2023-02-30T00:00:00", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_time("2023-02-29T00:00:00", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_time("2024-02-29T00:00:00", &v), 0);
	ck_assert_int_eq(tp_sacct_parse_time("2100-02-29T00:00:00", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_time("2023-01-01 00:00:00", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_time("2023-01-01T24:00:00", &v), -1);

	ck_assert_int_eq(tp_sacct_parse_elapsed("00:10:05", &v), 0);
	ck_assert_int_eq(v, 605);
	ck_assert_int_eq(tp_sacct_parse_elapsed("2-01:00:00", &v), 0);
	ck_assert_int_eq(v, 2 * 86400 + 3600);
	ck_assert_int_eq(tp_sacct_parse_elapsed("10:05", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_elapsed("00:60:00", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_elapsed("1-24:00:00", &v), -1);

	ck_assert_int_eq(tp_sacct_parse_limit("30", &v), 0);
	ck_assert_int_eq(v, 1800);
	ck_assert_int_eq(tp_sacct_parse_limit("30:15", &v), 0);
	ck_assert_int_eq(v, 1815);
	ck_assert_int_eq(tp_sacct_parse_limit("01:00:00", &v), 0);
	ck_assert_int_eq(v, 3600);
	ck_assert_int_eq(tp_sacct_parse_limit("1-12", &v), 0);
	ck_assert_int_eq(v, 86400 + 12 * 3600);
	ck_assert_int_eq(tp_sacct_parse_limit("1-12:30", &v), 0);
	ck_assert_int_eq(v, 86400 + 12 * 3600 + 1800);
	ck_assert_int_eq(tp_sacct_parse_limit("UNLIMITED", &v), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(tp_sacct_parse_limit("Partition_Limit", &v), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(tp_sacct_parse_limit("1:2:3:4", &v), -1);
	ck_assert_int_eq(tp_sacct_parse_limit("-5", &v), -1);
}
END_TEST

START_TEST(test_example)
{
	tp_sacct s;
	tp_error err = { "" };
	tp_sacct_opts o = { .nodes = 8, .partition = "batch" };
	ck_assert_msg(read_text(example, &o, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_int_eq(s.w.njobs, 6); /* 100 102 103 104 105 107 */
	ck_assert_int_eq(s.skipped.steps, 2);
	ck_assert_int_eq(s.skipped.not_started, 2); /* pending tasks, 106 */
	ck_assert_int_eq(s.skipped.other_partition, 1);
	ck_assert_int_eq(s.skipped.unfinished, 1);
	ck_assert_int_eq(s.skipped.unknown_time, 0);
	ck_assert_int_eq(s.w.nodes, 8);
	ck_assert_int_eq(s.w.estimate_missing, 1); /* 103: UNLIMITED */
	ck_assert_int_eq(s.epoch, 1767225600); /* 2026-01-01T00:00:00 */
	size_t at;
	const tp_wjob *j = find(&s, 102, &at); /* array task 101_1 */
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(j->submit, 60);
	ck_assert_int_eq(j->runtime, 1800);
	ck_assert_int_eq(j->estimate, 86400);
	ck_assert_int_eq(j->nodes, 2);
	ck_assert_int_eq(s.runs[at].start, 120);
	ck_assert_int_eq(s.runs[at].end, 1920);
	ck_assert_str_eq(s.runs[at].nodelist, "n[3,5]");
	ck_assert_int_eq(s.runs[at].line, 5);
	j = find(&s, 103, &at);
	ck_assert_int_eq(j->estimate, j->runtime);
	j = find(&s, 105, &at); /* het component 104+1 */
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(j->estimate, 600); /* "10": minutes */
	ck_assert_int_eq(j->nodes, 2);
	for (size_t i = 1; i < s.w.njobs; i++)
		ck_assert_int_le(s.w.jobs[i - 1].submit, s.w.jobs[i].submit);
	ck_assert_int_eq(tp_sacct_slice(&s, 1, 2), 0);
	ck_assert_int_eq(s.w.njobs, 2);
	ck_assert_int_eq(s.w.jobs[0].id, 102);
	ck_assert_int_eq(s.runs[0].line, 5);
	tp_sacct_fini(&s);
}
END_TEST

/* Without a size, the machine is the distinct nodes the jobs ran on;
 * without a partition every partition's jobs stay. */
START_TEST(test_size_from_nodelists)
{
	tp_sacct s;
	tp_error err = { "" };
	ck_assert_msg(read_text(example, NULL, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_int_eq(s.w.nodes, 9); /* n1-n8, login1 */
	ck_assert_int_eq(s.w.njobs, 7);
	ck_assert_int_eq(s.skipped.other_partition, 0);
	tp_sacct_fini(&s);
	tp_sacct_opts o = { .nodes = 1 };
	ck_assert_msg(read_text(example, &o, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_int_eq(s.w.skipped.too_big, 4); /* 100 102 105 107 */
	ck_assert_int_eq(s.w.largest, 4);
	tp_sacct_fini(&s);
	o = (tp_sacct_opts){ .nodes = 8, .scale_sizes = 0.5 };
	ck_assert_msg(read_text(example, &o, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_int_eq(s.w.largest, 2);
	ck_assert_int_eq(s.w.skipped.too_big, 0);
	tp_sacct_fini(&s);
}
END_TEST

/* Column order follows the header; unknown columns are ignored. */
START_TEST(test_header_maps_columns)
{
	const char *text =
		"State|NNodes|Comment|End|Start|Submit|JobID|ElapsedRaw|TimelimitRaw\n"
		"COMPLETED|3|x|1000|400|100|7|600|20\n"
		"\n";
	tp_sacct s;
	tp_error err = { "" };
	tp_sacct_opts o = { .nodes = 4 };
	ck_assert_msg(read_text(text, &o, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_int_eq(s.w.njobs, 1);
	ck_assert_int_eq(s.w.jobs[0].id, 7);
	ck_assert_int_eq(s.w.jobs[0].nodes, 3);
	ck_assert_int_eq(s.w.jobs[0].runtime, 600);
	ck_assert_int_eq(s.w.jobs[0].estimate, 1200);
	ck_assert_int_eq(s.runs[0].start, 300);
	ck_assert_ptr_null(s.runs[0].nodelist);
	tp_sacct_fini(&s);
}
END_TEST

/* One bad value in line 5 (the array task) of the example: the message
 * names the file, the line and the value. */
static void expect_error(const char *from, const char *to, const char *msg)
{
	char *text = malloc(strlen(example) + 64), *path;
	const char *at = strstr(example, from);
	ck_assert_ptr_nonnull(at);
	sprintf(text, "%.*s%s%s", (int)(at - example), example, to, at + strlen(from));
	tp_sacct s;
	tp_error err = { "" };
	tp_sacct_opts o = { .nodes = 8 };
	ck_assert_int_eq(read_text(text, &o, &s, &err, &path), -1);
	char want[512];
	snprintf(want, sizeof(want), "%s:%s", path, msg);
	ck_assert_msg(strstr(err.msg, want), "'%s' lacks '%s'", err.msg, want);
	ck_assert_int_eq(s.w.njobs, 0);
	tp_sacct_fini(&s);
	/* lenient: the line skipped and counted instead */
	o.lenient = true;
	if (read_text(text, &o, &s, &err, NULL) == 0) {
		ck_assert_int_eq(s.w.skipped.malformed, 1);
		tp_sacct_fini(&s);
	}
	free(text);
	free(path);
}

START_TEST(test_bad_values)
{
	expect_error("|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:32:00|",
		     "|2026-13-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:32:00|",
		     "5: bad Submit '2026-13-01T00:01:00'");
	expect_error("|2026-01-01T00:02:00|2026-01-01T00:32:00|", "|2026-01-01T00:02:00|noon|",
		     "5: bad End 'noon'");
	expect_error("|00:30:00|", "|00:3x:00|", "5: bad Elapsed '00:3x:00'");
	expect_error("|1-00:00:00|", "|1-25:00:00|", "5: bad Timelimit '1-25:00:00'");
	expect_error("|2|8|batch|TIMEOUT|", "|two|8|batch|TIMEOUT|", "5: bad NNodes 'two'");
	expect_error("|2|8|batch|TIMEOUT|", "|2|-8|batch|TIMEOUT|", "5: bad NCPUS '-8'");
	expect_error("|TIMEOUT|", "|timeout|", "5: bad State 'timeout'");
	expect_error("|n[3,5]\n", "|n[3,5\n", "5: bad NodeList 'n[3,5'");
	expect_error("101_1|102|", "101_x|102|", "5: bad JobID '101_x'");
	expect_error("101_1|102|", "101_1|1o2|", "5: bad JobIDRaw '1o2'");
	expect_error("|2026-01-01T00:02:00|2026-01-01T00:32:00|00:30:00",
		     "|2026-01-01T00:40:00|2026-01-01T00:32:00|00:30:00",
		     "5: End before Start '2026-01-01T00:32:00'");
	expect_error("|2026-01-01T00:01:00|2026-01-01T00:02:00|2026-01-01T00:32:00|",
		     "|2026-01-01T00:03:00|2026-01-01T00:02:00|2026-01-01T00:32:00|",
		     "5: Start before Submit '2026-01-01T00:02:00'");
	expect_error("|batch|TIMEOUT|n[3,5]", "|batch|TIMEOUT|n[3,5]|extra",
		     "5: 13 '|'-separated fields where the header has 12: '101_1'");
}
END_TEST

static void expect_header_error(const char *text, const char *msg)
{
	tp_sacct s;
	tp_error err = { "" };
	tp_sacct_opts o = { .nodes = 8 };
	ck_assert_int_eq(read_text(text, &o, &s, &err, NULL), -1);
	ck_assert_msg(strstr(err.msg, msg), "'%s' lacks '%s'", err.msg, msg);
}

START_TEST(test_bad_headers)
{
	expect_header_error("", "empty: no sacct header line");
	expect_header_error("JobID   Submit  Start\n------- ------\n",
			    ":1: not sacct -P output: no '|' in the header");
	expect_header_error("JobID|Submit|Start|End\n",
			    ":1: the header lacks a required column (JobID, Submit, Start, End, NNodes) 'NNodes'");
	expect_header_error("JobID|Submit|Start|End|NNodes|jobid\n",
			    ":1: column given twice 'jobid'");
	expect_header_error("JobID|Submit|Start|End|NNodes\n"
			    "5_1|1|2|3|1\n",
			    ":2: JobID of an array task or heterogeneous component without a JobIDRaw column");
	tp_sacct s;
	tp_error err = { "" };
	ck_assert_int_eq(read_text("JobID|Submit|Start|End|NNodes\n1|1|2|3|1\n", NULL,
				   &s, &err, NULL), -1);
	ck_assert_msg(strstr(err.msg, "no NodeList column and no machine size"), "%s", err.msg);
}
END_TEST

START_TEST(test_nul_byte)
{
	char text[256];
	int n = snprintf(text, sizeof(text), HEADER "1|1|1|2|3|00:00:01|1|1|1|p|COMPLETED|n1\n");
	char *path = write_temp(""), *p;
	FILE *fp = fopen(path, "w");
	text[n - 5] = '\0';
	fwrite(text, 1, (size_t)n, fp);
	fclose(fp);
	tp_sacct s;
	tp_error err = { "" };
	tp_sacct_opts o = { .nodes = 8 };
	ck_assert_int_eq(tp_sacct_read(path, &o, &s, &err), -1);
	ck_assert_msg((p = strstr(err.msg, ":2: NUL byte")), "%s", err.msg);
	unlink(path);
	free(path);
}
END_TEST

/* ReqMem and TRES values in the forms sacct prints. */
START_TEST(test_mem_and_tres)
{
	int64_t v;
	tp_sacct_mem_per per;
	ck_assert_int_eq(tp_sacct_parse_mem("16G", &v, &per), 0);
	ck_assert_int_eq(v, 16384);
	ck_assert_int_eq(per, TP_SACCT_MEM_JOB);
	ck_assert_int_eq(tp_sacct_parse_mem("4000Mn", &v, &per), 0);
	ck_assert_int_eq(v, 4000);
	ck_assert_int_eq(per, TP_SACCT_MEM_NODE);
	ck_assert_int_eq(tp_sacct_parse_mem("2000Mc", &v, &per), 0);
	ck_assert_int_eq(per, TP_SACCT_MEM_CPU);
	ck_assert_int_eq(tp_sacct_parse_mem("1.50G", &v, &per), 0);
	ck_assert_int_eq(v, 1536);
	ck_assert_int_eq(tp_sacct_parse_mem("100K", &v, &per), 0);
	ck_assert_int_eq(v, 1); /* rounded up */
	ck_assert_int_eq(tp_sacct_parse_mem("2T", &v, &per), 0);
	ck_assert_int_eq(v, 2 * 1024 * 1024);
	ck_assert_int_eq(tp_sacct_parse_mem("12", &v, &per), 0);
	ck_assert_int_eq(v, 12);
	ck_assert_int_eq(tp_sacct_parse_mem("G", &v, &per), -1);
	ck_assert_int_eq(tp_sacct_parse_mem("4X", &v, &per), -1);
	ck_assert_int_eq(tp_sacct_parse_mem("4Gx", &v, &per), -1);
	const char *t = "billing=8,cpu=8,gres/gpu=2,gres/gpu:a100=2,mem=16G,node=1";
	ck_assert_int_eq(tp_sacct_tres(t, "cpu", &v), 0);
	ck_assert_int_eq(v, 8);
	ck_assert_int_eq(tp_sacct_tres(t, "gres/gpu", &v), 0);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(tp_sacct_tres(t, "mem", &v), 0);
	ck_assert_int_eq(v, 16384);
	ck_assert_int_eq(tp_sacct_tres(t, "node", &v), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(tp_sacct_tres("cpu=4", "gres/gpu", &v), 0);
	ck_assert_int_eq(v, TP_SACCT_UNKNOWN);
	ck_assert_int_eq(tp_sacct_tres("", "cpu", &v), 0);
	ck_assert_int_eq(tp_sacct_tres("cpu", "cpu", &v), -1);
	ck_assert_int_eq(tp_sacct_tres("cpu=x", "cpu", &v), -1);
}
END_TEST

#define RES_HEADER "JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|ReqCPUS|ReqMem|ReqTRES|AllocTRES|Partition|QOS|Account|User|Priority|State|NodeList\n"

/* Every contradiction counted with its first line, and the value used:
 * NNodes against NodeList, Elapsed against End - Start both ways, a
 * repeated id, limits from the partition's MaxTime, other partitions'
 * jobs on the partition's nodes; what each job asked kept. */
START_TEST(test_resources_and_warnings)
{
	static const char *const text =
		RES_HEADER
		/* 2: asks 8 CPUs and 8G of the shared partition */
		"1|1|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|8|8G|cpu=8,mem=8G,node=1|cpu=8,mem=8G,node=1|shared|normal|acct|u1|1234|COMPLETED|n3\n"
		/* 3: NNodes 4, NodeList 1 node; Elapsed 5 days, span 1 h */
		"2|2|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|5-00:00:00|Partition_Limit|4|8|8|4000Mn|cpu=8,node=1|cpu=8,node=1,gres/gpu=1|shared|high|acct|u2||COMPLETED|n3\n"
		/* 4: Elapsed shorter than the span (suspended) */
		"3|3|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|00:30:00|UNLIMITED|1|4|4|2000Mc|cpu=4,gres/gpu=2,node=1||shared|normal|acct|u1|7|COMPLETED|n4\n"
		/* 5: repeats id 1 */
		"1|1|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|02:00:00|1|8|8|8G|||shared|normal|acct|u1||COMPLETED|n3\n"
		/* 6: another partition's job on n3: counted, not replayed */
		"4|4|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|01:00:00|2|64|64|||cpu=64|batch|normal|b|u3||COMPLETED|n[2-3]\n"
		/* 7: another partition's job off the partition's nodes */
		"5|5|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|01:00:00|1|32|32|||cpu=32|batch|normal|b|u3||COMPLETED|n1\n"
		/* 8: no limit at all, partition without MaxTime */
		"6|6|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:10:00|00:10:00|UNLIMITED|1|1|1|||cpu=1|open|normal|b|u3||COMPLETED|n4\n";
	char *nodes[] = { "n3", "n4", "g1" };
	tp_sacct_limit limits[] = { { "shared", 7200 }, { "batch", 86400 } };
	tp_sacct_opts o = { .nodes = 8,
			    .limits = limits, .nlimits = 2,
			    .partition_nodes = nodes, .npartition_nodes = 3 };
	tp_sacct s;
	tp_error err = { "" };
	/* all partitions: the repeat and the contradictions */
	ck_assert_msg(read_text(text, &o, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_uint_eq(s.w.njobs, 6);
	ck_assert_uint_eq(s.skipped.duplicate, 1);
	ck_assert_uint_eq(s.warn.duplicate.n, 1);
	ck_assert_uint_eq(s.warn.duplicate.first_line, 5);
	ck_assert_uint_eq(s.nparts, 3);
	tp_sacct_fini(&s);

	o.partition = "shared";
	ck_assert_msg(read_text(text, &o, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_uint_eq(s.w.njobs, 3);
	ck_assert_uint_eq(s.warn.nnodes.n, 1);
	ck_assert_uint_eq(s.warn.nnodes.first_line, 3);
	ck_assert_uint_eq(s.warn.elapsed_long.n, 1);
	ck_assert_uint_eq(s.warn.elapsed_long.first_line, 3);
	ck_assert_uint_eq(s.warn.elapsed_short.n, 1);
	ck_assert_uint_eq(s.warn.elapsed_short.first_line, 4);
	ck_assert_uint_eq(s.warn.limit_partition.n, 2);
	ck_assert_uint_eq(s.warn.limit_partition.first_line, 3);
	ck_assert_uint_eq(s.warn.limit_missing.n, 0);
	ck_assert_uint_eq(s.warn.overlap.n, 2); /* lines 6 and 8, not 7 */
	ck_assert_uint_eq(s.warn.overlap.first_line, 6);
	ck_assert_uint_eq(s.skipped.other_partition, 3);
	size_t at;
	const tp_wjob *j = find(&s, 2, &at);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(j->nodes, 1);        /* NodeList's */
	ck_assert_int_eq(j->runtime, 3600);   /* End - Start */
	ck_assert_int_eq(j->estimate, 7200);  /* the partition's MaxTime */
	const tp_sacct_res *r = &s.runs[at].res;
	ck_assert_int_eq(r->req_nodes, 4);
	ck_assert_int_eq(r->req_mem, 4000);
	ck_assert_int_eq(r->mem_per, TP_SACCT_MEM_NODE);
	ck_assert_int_eq(r->alloc_gpus, 1);
	ck_assert_int_eq(r->req_gpus, TP_SACCT_UNKNOWN);
	ck_assert_int_eq(r->priority, TP_SACCT_UNKNOWN);
	ck_assert_str_eq(s.names[r->qos], "high");
	ck_assert_str_eq(s.names[r->user], "u2");
	j = find(&s, 3, &at);
	ck_assert_int_eq(j->runtime, 1800);   /* Elapsed */
	r = &s.runs[at].res;
	ck_assert_int_eq(r->req_gpus, 2);
	ck_assert_int_eq(r->alloc_gpus, TP_SACCT_UNKNOWN);
	ck_assert_int_eq(r->alloc_cpus, 4);   /* NCPUS */
	ck_assert_int_eq(r->mem_per, TP_SACCT_MEM_CPU);
	ck_assert_int_eq(r->priority, 7);
	j = find(&s, 1, &at);
	r = &s.runs[at].res;
	ck_assert_int_eq(r->req_cpus, 8);
	ck_assert_int_eq(r->req_mem, 8192);
	ck_assert_int_eq(r->mem_per, TP_SACCT_MEM_JOB);
	ck_assert_int_eq(r->priority, 1234);
	ck_assert_str_eq(s.names[r->partition], "shared");
	ck_assert_str_eq(s.names[r->account], "acct");
	tp_sacct_fini(&s);

	/* the partition without MaxTime: the run time, counted */
	o.partition = "open";
	ck_assert_msg(read_text(text, &o, &s, &err, NULL) == 0, "%s", err.msg);
	ck_assert_uint_eq(s.w.njobs, 1);
	ck_assert_uint_eq(s.warn.limit_missing.n, 1);
	ck_assert_uint_eq(s.warn.limit_missing.first_line, 8);
	ck_assert_int_eq(s.w.jobs[0].estimate, 600);
	tp_sacct_fini(&s);

	/* bad values named */
	o.partition = NULL;
	char bad_text[1024];
	snprintf(bad_text, sizeof(bad_text), RES_HEADER
		 "1|1|1|2|3|00:00:01|1|1|1|1|8Q|||p|n|a|u||COMPLETED|n1\n");
	ck_assert_int_eq(read_text(bad_text, &o, &s, &err, NULL), -1);
	ck_assert_msg(strstr(err.msg, ":2: bad ReqMem '8Q'"), "%s", err.msg);
	snprintf(bad_text, sizeof(bad_text), RES_HEADER
		 "1|1|1|2|3|00:00:01|1|1|1|1||cpu=1,mem|||n|a|u||COMPLETED|n1\n");
	ck_assert_int_eq(read_text(bad_text, &o, &s, &err, NULL), -1);
	ck_assert_msg(strstr(err.msg, ":2: bad ReqTRES 'cpu=1,mem'"), "%s", err.msg);
	snprintf(bad_text, sizeof(bad_text), RES_HEADER
		 "1|1|1|2|3|00:00:01|1|1|1|1|||||n|a|u|-5|COMPLETED|n1\n");
	ck_assert_int_eq(read_text(bad_text, &o, &s, &err, NULL), -1);
	ck_assert_msg(strstr(err.msg, ":2: bad Priority '-5'"), "%s", err.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sacct");
	TCase *tc = tcase_create("reader");
	tcase_add_test(tc, test_time_forms);
	tcase_add_test(tc, test_example);
	tcase_add_test(tc, test_size_from_nodelists);
	tcase_add_test(tc, test_header_maps_columns);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_bad_headers);
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_mem_and_tres);
	tcase_add_test(tc, test_resources_and_warnings);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
