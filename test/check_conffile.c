/* check_conffile.c - unit tests for base/conffile.c. */
#include "check_util.h"
#include "base/conffile.h"
#include "tmpdir_util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void setup(void)
{
	ck_assert_int_eq(tmpdir_make("check_conffile"), 0);
}

static void teardown(void)
{
	tmpdir_remove();
}

/* Write text to tmpdir/name and open it; the path is copied to path. */
static tp_conf_reader *open_text(const char *name, const char *text, char *path,
				 size_t plen)
{
	snprintf(path, plen, "%s", tmpdir_write(name, text));
	tp_error err = { "" };
	tp_conf_reader *r = tp_conf_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	return r;
}

/* The next line must exist; returns it. */
static void next_ok(tp_conf_reader *r, tp_conf_line *l)
{
	tp_error err = { "" };
	int rc = tp_conf_next(r, l, &err);
	ck_assert_msg(rc == 1, "rc %d: %s", rc, err.msg);
}

static void at_end(tp_conf_reader *r)
{
	tp_conf_line l;
	tp_error err = { "" };
	ck_assert_int_eq(tp_conf_next(r, &l, &err), 0);
	ck_assert_int_eq(tp_conf_next(r, &l, &err), 0); /* stays at end */
}

START_TEST(test_pairs)
{
	char path[1024];
	tp_conf_reader *r = open_text("a.conf", "NodeName=n1 Weight=2\tFeature=a=b\n", path,
				      sizeof(path));
	ck_assert_str_eq(tp_conf_path(r), path);
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 1);
	ck_assert_uint_eq(l.npairs, 3);
	ck_assert_str_eq(l.pairs[0].key, "NodeName");
	ck_assert_str_eq(l.pairs[0].value, "n1");
	ck_assert_str_eq(l.pairs[1].key, "Weight");
	ck_assert_str_eq(l.pairs[1].value, "2");
	/* only the first '=' separates key from value */
	ck_assert_str_eq(l.pairs[2].key, "Feature");
	ck_assert_str_eq(l.pairs[2].value, "a=b");
	at_end(r);
	tp_conf_close(r);
}
END_TEST

START_TEST(test_comments_blank_lines_and_numbers)
{
	char path[1024];
	tp_conf_reader *r = open_text("c.conf",
				      "# header comment\n"
				      "\n"
				      "   \t \n"
				      "  A=1   # trailing comment B=9\n"
				      "#B=2\n"
				      "\tC=3\n"
				      "   # indented comment\n"
				      "D=4",               /* no final newline */
				      path, sizeof(path));
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 4);
	ck_assert_uint_eq(l.npairs, 1);
	ck_assert_str_eq(l.pairs[0].key, "A");
	ck_assert_str_eq(l.pairs[0].value, "1");
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 6);
	ck_assert_uint_eq(l.npairs, 1);
	ck_assert_str_eq(l.pairs[0].value, "3");
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 8);
	ck_assert_str_eq(l.pairs[0].key, "D");
	ck_assert_str_eq(l.pairs[0].value, "4");
	at_end(r);
	tp_conf_close(r);
}
END_TEST

START_TEST(test_continuation_lines)
{
	char path[1024];
	tp_conf_reader *r = open_text("k.conf",
				      "SwitchName=s1 \\\n"
				      "   Nodes=n[1-4] \\\n"
				      "\tLinkSpeed=10\n"
				      "Next=1\n"
				      "Last=2 \\\n",          /* continued into EOF */
				      path, sizeof(path));
	tp_conf_line l;
	next_ok(r, &l);
	/* a continued line has the number of its first physical line */
	ck_assert_int_eq(l.lineno, 1);
	ck_assert_uint_eq(l.npairs, 3);
	ck_assert_str_eq(tp_conf_get(&l, "SwitchName"), "s1");
	ck_assert_str_eq(tp_conf_get(&l, "Nodes"), "n[1-4]");
	ck_assert_str_eq(tp_conf_get(&l, "LinkSpeed"), "10");
	next_ok(r, &l);
	/* physical lines are still counted */
	ck_assert_int_eq(l.lineno, 4);
	ck_assert_uint_eq(l.npairs, 1);
	ck_assert_str_eq(l.pairs[0].key, "Next");
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 5);
	ck_assert_str_eq(tp_conf_get(&l, "Last"), "2");
	at_end(r);
	tp_conf_close(r);
}
END_TEST

START_TEST(test_crlf)
{
	char path[1024];
	tp_conf_reader *r = open_text("w.conf", "A=1\r\nB=2 \\\r\nC=3\r\n", path, sizeof(path));
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_str_eq(l.pairs[0].value, "1");
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 2);
	ck_assert_str_eq(tp_conf_get(&l, "B"), "2");
	ck_assert_str_eq(tp_conf_get(&l, "C"), "3");
	at_end(r);
	tp_conf_close(r);
}
END_TEST

START_TEST(test_get_case_insensitive)
{
	char path[1024];
	tp_conf_reader *r = open_text("g.conf", "NodeName=n[1-2] CoresPerSocket=8\n", path,
				      sizeof(path));
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_str_eq(tp_conf_get(&l, "NodeName"), "n[1-2]");
	ck_assert_str_eq(tp_conf_get(&l, "nodename"), "n[1-2]");
	ck_assert_str_eq(tp_conf_get(&l, "NODENAME"), "n[1-2]");
	ck_assert_str_eq(tp_conf_get(&l, "coresPERsocket"), "8");
	ck_assert_ptr_null(tp_conf_get(&l, "Node"));
	ck_assert_ptr_null(tp_conf_get(&l, "NodeNames"));
	ck_assert_ptr_null(tp_conf_get(&l, "Weight"));
	/* the key keeps its spelling; values are not case-folded */
	ck_assert_str_eq(l.pairs[0].key, "NodeName");
	tp_conf_close(r);

	tp_conf_line empty = { 0 };
	ck_assert_ptr_null(tp_conf_get(&empty, "A"));
}
END_TEST

START_TEST(test_long_line)
{
	enum { LEN = 20000 };
	char *text = malloc(LEN + 16);
	strcpy(text, "Nodes=");
	memset(text + 6, 'x', LEN);
	strcpy(text + 6 + LEN, " K=v\n");
	char path[1024];
	tp_conf_reader *r = open_text("long.conf", text, path, sizeof(path));
	free(text);
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_uint_eq(strlen(tp_conf_get(&l, "Nodes")), LEN);
	ck_assert_str_eq(tp_conf_get(&l, "k"), "v");
	tp_conf_close(r);
}
END_TEST

START_TEST(test_max_pairs)
{
	char text[1024] = "", path[1024];
	size_t k = 0;
	for (int i = 0; i < TP_CONF_MAX_PAIRS; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k, "K%d=%d ", i, i);
	snprintf(text + k, sizeof(text) - k, "\n");
	tp_conf_reader *r = open_text("max.conf", text, path, sizeof(path));
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_uint_eq(l.npairs, TP_CONF_MAX_PAIRS);
	ck_assert_str_eq(tp_conf_get(&l, "k31"), "31");
	tp_conf_close(r);

	/* one more on line 2 is an error naming FILE:2 */
	snprintf(text + k, sizeof(text) - k, "Extra=1\n");
	char two[1100];
	snprintf(two, sizeof(two), "A=1\n%s", text);
	r = open_text("over.conf", two, path, sizeof(path));
	next_ok(r, &l);
	tp_error err = { "" };
	ck_assert_int_eq(tp_conf_next(r, &l, &err), -1);
	char want[1200];
	snprintf(want, sizeof(want), "%s:2: too many", path);
	ck_assert_msg(strstr(err.msg, want), "got '%s'", err.msg);
	tp_conf_close(r);
}
END_TEST

/* Bad lines: -1 with "FILE:LINE: ..." naming the bad token. */
START_TEST(test_errors_name_file_and_line)
{
	static const struct {
		const char *text;
		int line;
		const char *tok;
	} bad[] = {
		{ "A=1\n\nB\n", 3, "'B'" },
		{ "A=1 =2\n", 1, "'=2'" },
		{ "# c\nA=\n", 2, "'A='" },
		{ "A=1 B 2\n", 1, "'B'" },
		{ "A=1 \\\nB=2 \\\nbad\n", 1, "'bad'" }, /* logical line's number */
		{ "A=1 \\\nB=2\nC=3\nx y\n", 4, "'x'" },  /* after a continuation */
		{ "A=1\r\n\r\nZ\r\n", 3, "'Z'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char path[1024], want[1200];
		tp_conf_reader *r = open_text("bad.conf", bad[i].text, path, sizeof(path));
		tp_conf_line l;
		tp_error err = { "" };
		int rc;
		while ((rc = tp_conf_next(r, &l, &err)) == 1)
			;
		ck_assert_msg(rc == -1, "case %zu: rc %d", i, rc);
		snprintf(want, sizeof(want), "%s:%d: ", path, bad[i].line);
		ck_assert_msg(strstr(err.msg, want) == err.msg, "case %zu: '%s', want prefix '%s'",
			      i, err.msg, want);
		ck_assert_msg(strstr(err.msg, bad[i].tok), "case %zu: '%s' lacks %s", i,
			      err.msg, bad[i].tok);
		tp_conf_close(r);
	}
}
END_TEST

/* "Include FILE" is an error by default, one pair once allowed. */
START_TEST(test_include_lines)
{
	char path[512];
	tp_conf_line l;
	tp_error err = { "" };
	const char *text = "A=1\ninclude nodes.conf\nInclude\ta.conf b.conf\n";
	tp_conf_reader *r = open_text("inc.conf", text, path, sizeof(path));
	next_ok(r, &l);
	ck_assert_int_eq(tp_conf_next(r, &l, &err), -1);
	ck_assert_msg(strstr(err.msg, ":2: expected Key=Value, got 'include'"), "%s", err.msg);
	tp_conf_close(r);
	r = open_text("inc.conf", text, path, sizeof(path));
	tp_conf_allow_include(r);
	next_ok(r, &l);
	next_ok(r, &l);
	ck_assert_int_eq(l.npairs, 1);
	ck_assert_str_eq(tp_conf_get(&l, "Include"), "nodes.conf");
	ck_assert_int_eq(tp_conf_next(r, &l, &err), -1);
	ck_assert_msg(strstr(err.msg, ":3: expected Include FILE"), "%s", err.msg);
	tp_conf_close(r);
}
END_TEST

START_TEST(test_open_missing_file)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/no-such.conf", tmpdir);
	tp_error err = { "" };
	ck_assert_ptr_null(tp_conf_open(path, &err));
	ck_assert_msg(strstr(err.msg, path) == err.msg, "'%s'", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));

	/* a path through a regular file fails even for root */
	snprintf(path, sizeof(path), "%s/x.conf", tmpdir_write("sub.conf", "A=1\n"));
	ck_assert_ptr_null(tp_conf_open(path, &err));
	ck_assert_msg(strstr(err.msg, path) == err.msg, "'%s'", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOTDIR)));
}
END_TEST

START_TEST(test_open_unreadable_file)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s", tmpdir_write("secret.conf", "A=1\n"));
	ck_assert_int_eq(chmod(path, 0), 0);
	if (geteuid() == 0)
		return; /* root reads mode-0 files: nothing to test */
	tp_error err = { "" };
	ck_assert_ptr_null(tp_conf_open(path, &err));
	ck_assert_msg(strstr(err.msg, path) == err.msg, "'%s'", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(EACCES)));
}
END_TEST

/* As Slurm reads its files: a comment ends the physical line, so a
 * backslash inside it continues nothing; a continuation joins the next
 * line directly. */
START_TEST(test_comment_then_continuation)
{
	char path[1024];
	tp_conf_reader *r = open_text("c.conf",
				      "A=1 # note \\\n"
				      "B=2\n"
				      "Nodes=n[1-2],\\\n"
				      "n3 C=4 # end \\\n"
				      "D=5\n",
				      path, sizeof(path));
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_uint_eq(l.npairs, 1);
	ck_assert_str_eq(tp_conf_get(&l, "A"), "1");
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 2);
	ck_assert_str_eq(tp_conf_get(&l, "B"), "2");
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 3);
	ck_assert_str_eq(tp_conf_get(&l, "Nodes"), "n[1-2],n3");
	ck_assert_str_eq(tp_conf_get(&l, "C"), "4");
	next_ok(r, &l);
	ck_assert_int_eq(l.lineno, 5);
	ck_assert_str_eq(tp_conf_get(&l, "D"), "5");
	tp_conf_close(r);
}
END_TEST

/* A directory opens, but reading it fails: an error, not an empty file. */
START_TEST(test_directory_is_an_error)
{
	tp_error err = { "" };
	tp_conf_reader *r = tp_conf_open(tmpdir, &err);
	if (!r) { /* some systems refuse at open: fine, if it says so */
		ck_assert_msg(strstr(err.msg, tmpdir) == err.msg, "'%s'", err.msg);
		return;
	}
	tp_conf_line l;
	ck_assert_int_eq(tp_conf_next(r, &l, &err), -1);
	ck_assert_msg(strstr(err.msg, tmpdir) == err.msg, "'%s'", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot read"));
	tp_conf_close(r);
}
END_TEST

/* A NUL byte would end the line early, and the rest of it would be
 * dropped without a word ("Nodes=n1\0,n2" read as n1): an error naming
 * the line instead, also inside a continued line. */
START_TEST(test_nul_byte_is_an_error)
{
	static const char text[] = "A=1\nB=2 \\\n C=3\0,4\nD=4\n";
	char path[1024];
	snprintf(path, sizeof(path), "%s/nul.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(text, 1, sizeof(text) - 1, fp), sizeof(text) - 1);
	ck_assert_int_eq(fclose(fp), 0);
	tp_error err = { "" };
	tp_conf_reader *r = tp_conf_open(path, &err);
	ck_assert_ptr_nonnull(r);
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_str_eq(l.pairs[0].key, "A");
	ck_assert_int_eq(tp_conf_next(r, &l, &err), -1);
	char want[1100];
	snprintf(want, sizeof(want), "%s:3: NUL byte in the line", path);
	ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
	tp_conf_close(r);
}
END_TEST

START_TEST(test_repeated_key)
{
	char path[1024];
	tp_conf_reader *r = open_text("r.conf", "A=1 b=2 C=3\nA=1 B=2 a=3 b=4\n",
				      path, sizeof(path));
	tp_conf_line l;
	next_ok(r, &l);
	ck_assert_ptr_null(tp_conf_repeated(&l));
	next_ok(r, &l);
	ck_assert_str_eq(tp_conf_repeated(&l), "a"); /* the first repeat */
	tp_conf_close(r);
}
END_TEST

START_TEST(test_close_null)
{
	tp_conf_close(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("conffile");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pairs);
	tcase_add_test(tc, test_comments_blank_lines_and_numbers);
	tcase_add_test(tc, test_continuation_lines);
	tcase_add_test(tc, test_comment_then_continuation);
	tcase_add_test(tc, test_directory_is_an_error);
	tcase_add_test(tc, test_crlf);
	tcase_add_test(tc, test_get_case_insensitive);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_max_pairs);
	tcase_add_test(tc, test_errors_name_file_and_line);
	tcase_add_test(tc, test_open_missing_file);
	tcase_add_test(tc, test_include_lines);
	tcase_add_test(tc, test_open_unreadable_file);
	tcase_add_test(tc, test_close_null);
	tcase_add_test(tc, test_nul_byte_is_an_error);
	tcase_add_test(tc, test_repeated_key);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
