/* check_torus_grid.c - unit tests for torus_grid.c and torus.conf's
 * Placement= lines: topology/torus3d's placements (a shape and its anchor
 * grid) parsed, checked, sorted stably by size and written back. */
#include "check_util.h"
#include "topology/torus.h"

#include <stdio.h>
#include <string.h>

#include "tmpdir_util.h"

static const char *conf_file(const char *name, const char *text)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static tp_torus *load(const char *name, const char *text)
{
	tp_error err;
	tp_torus *t = tp_torus_load(conf_file(name, text), &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static void ck_vec(const int *v, int a, int b, int c)
{
	ck_assert_int_eq(v[0], a);
	ck_assert_int_eq(v[1], b);
	ck_assert_int_eq(v[2], c);
}

/* Defaults (seed 0, spacing = lengths; spacing 0 = the length there),
 * and the list sorted by size with equal sizes in the order written. */
START_TEST(test_parse_and_sort)
{
	tp_torus *t = load("ok.conf",
		"Dimensions=4x4x4 Nodes=n[1-64] Method=anchor\n"
		"Placement=2x2x2\n"
		"placement=1x2x2 AnchorSeed=0,1,0\n"
		"Placement=1x1x2 AnchorSpacing=1,0,1\n"
		"Placement=2x2x1 anchorspacing=2,2,1 AnchorSeed=3,0,0\n");
	const tp_torus_grid *g;
	ck_assert_int_eq(tp_torus_grids(t, &g), 4);
	ck_vec(g[0].len, 1, 1, 2);
	ck_vec(g[0].spacing, 1, 1, 1);
	ck_vec(g[0].seed, 0, 0, 0);
	ck_vec(g[1].len, 1, 2, 2);
	ck_vec(g[1].seed, 0, 1, 0);
	ck_vec(g[1].spacing, 1, 2, 2);
	ck_vec(g[2].len, 2, 2, 1);
	ck_vec(g[2].seed, 3, 0, 0);
	ck_vec(g[3].len, 2, 2, 2);
	ck_assert_int_eq(tp_torus_grid_size(t, &g[3]), 8);
	/* written back and read again: the same list */
	char path[512];
	snprintf(path, sizeof(path), "%s/rt.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	ck_assert_int_eq(tp_torus_write_conf(t, fp), 0);
	fclose(fp);
	tp_error err;
	tp_torus *u = tp_torus_load(path, &err);
	ck_assert_msg(u != NULL, "%s", err.msg);
	const tp_torus_grid *h;
	ck_assert_int_eq(tp_torus_grids(u, &h), 4);
	ck_assert_int_eq(memcmp(g, h, 4 * sizeof(*g)), 0);
	tp_torus_free(u);
	tp_torus_free(t);
	t = load("none.conf", "Dimensions=4x4 Nodes=n[1-16]\n");
	ck_assert_int_eq(tp_torus_grids(t, &g), 0);
	tp_torus_free(t);
}
END_TEST

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x2\n",
	  "%s:2: Placement=2x2 has 2 values for 3 dimensions" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x0x1\n",
	  "%s:2: bad number '0' in Placement=2x0x1 (need an integer >= 1)" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x5x1\n",
	  "%s:2: Placement=2x5x1: length 5 in dimension 1 (need 1..4)" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x2x1 AnchorSeed=0,4,0\n",
	  "%s:2: Placement=2x2x1: anchor seed 4 in dimension 1 (need 0..3)" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x2x1 AnchorSeed=0,-1,0\n",
	  "%s:2: bad number '-1' in AnchorSeed=0,-1,0 (need an integer >= 0)" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x2x1 AnchorSpacing=1,1\n",
	  "%s:2: AnchorSpacing=1,1 has 2 values for 3 dimensions" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x2x1 AnchorSpacing=1,5,1\n",
	  "%s:2: Placement=2x2x1: anchor spacing 5 in dimension 1 (need 1..4)" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nPlacement=2x2x1 Seed=1,1,1\n",
	  "%s:2: unknown key 'Seed' on a Placement line (AnchorSeed= and AnchorSpacing= may follow)" },
	{ "Dimensions=4x4x4 Nodes=n[1-64]\nAnchorSeed=1,1,1\n",
	  "%s:2: unknown key 'AnchorSeed'" },
	{ "Dimensions=4x4 Wrap=yes,no Nodes=n[1-16]\nPlacement=1x2 AnchorSeed=0,3\n",
	  "%s:2: Placement=1x2: anchor seed 3 and length 2 pass the end of line dimension 1 (4 positions)" },
	{ "Dimensions=4x4 Nodes=n[1-16]\n\nPlacement=1x2\nPlacement=2xa\n",
	  "%s:4: bad number 'a' in Placement=2xa (need an integer >= 1)" },
};

START_TEST(test_errors)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[32], want[1024];
		snprintf(name, sizeof(name), "bad%zu.conf", i);
		const char *p = conf_file(name, bad[i].text);
		snprintf(want, sizeof(want), bad[i].msg, p);
		tp_error err = { "" };
		ck_assert_msg(tp_torus_load(p, &err) == NULL, "case %zu loaded", i);
		ck_assert_str_eq(err.msg, want);
	}
}
END_TEST

/* tp_torus_set_grids checks each grid, names the bad one and keeps the
 * old list then. */
START_TEST(test_set_grids)
{
	int dims[] = { 4, 2 };
	tp_error err;
	tp_torus *t = tp_torus_generate(2, dims, NULL, &err);
	tp_torus_grid g[2] = { { .len = { 2, 2 }, .spacing = { 2, 2 } },
			       { .len = { 1, 3 }, .spacing = { 1, 1 } } };
	ck_assert_int_eq(tp_torus_set_grids(t, g, 1, &err), 0);
	ck_assert_int_eq(tp_torus_set_grids(t, g, 2, &err), -1);
	ck_assert_str_eq(err.msg, "torus: placement 2: length 3 in dimension 1 (need 1..2)");
	const tp_torus_grid *h;
	ck_assert_int_eq(tp_torus_grids(t, &h), 1);
	ck_assert_int_eq(h[0].len[0], 2);
	tp_torus_free(t);
}
END_TEST

int main(void)
{
	if (tmpdir_make("check_torus_grid")) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	Suite *s = suite_create("torus_grid");
	TCase *tc = tcase_create("grid");
	tcase_add_test(tc, test_parse_and_sort);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_set_grids);
	suite_add_tcase(s, tc);
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
