/* check_torus_canonical.c - unit tests for BaseShapes= (torus.h): the
 * canonical reading of torus-base (one orientation per factorisation)
 * against every orientation, the torus.conf key and toposim's loader
 * override. */
#include "check_util.h"
#include "tmpdir_util.h"
#include "alloc/alloc.h"
#include "alloc/placeable.h"
#include "machine/topo.h"
#include "topology/torus.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static tp_torus *gen(int n, const int *dims)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(n, dims, NULL, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static void set_reading(tp_torus *t, tp_torus_base_shapes r,
			tp_torus_shapeless sl)
{
	tp_error err;
	tp_torus_opts o = *tp_torus_options(t);
	o.base_shapes = r;
	o.shapeless = sl;
	ck_assert_int_eq(tp_torus_set_options(t, &o, &err), 0);
}

static void assert_len(const tp_torus_shape *s, int a, int b, int c)
{
	int want[] = { a, b, c };
	ck_assert_mem_eq(s->len, want, sizeof(want));
}

/* The nodes a torus-base allocator gives `nodes` on `avail`, as a list
 * of indices; the count, or -1 if it refuses. */
static int base_nodes(tp_torus *t, const tp_nodeset *avail, int nodes,
		      int *idx)
{
	tp_alloc_cfg cfg = { .nnodes = tp_torus_nnodes(t), .torus = t };
	tp_error err;
	tp_alloc *a = tp_alloc_create("torus-base", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	tp_nodeset out;
	tp_nodeset_init(&out, tp_torus_nnodes(t));
	int n = -1;
	if (tp_alloc_place(a, avail, nodes, &out) == 0) {
		n = 0;
		for (int i = tp_nodeset_next(&out, 0); i >= 0;
		     i = tp_nodeset_next(&out, i + 1))
			idx[n++] = i;
	}
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
	return n;
}

/* ---- shapes ------------------------------------------------------------ */

/* 4x2x2, size 4: the multisets {4,1,1} and {2,2,1}, each once, sorted
 * against the dimensions in order; every orientation adds 2x1x2 and
 * 1x2x2 (1x4x1 and 1x1x4 do not fit). */
START_TEST(test_canonical_size4_on_4x2x2)
{
	int dims[] = { 4, 2, 2 };
	tp_torus *t = gen(3, dims);
	tp_torus_shape *sh;
	int n = tp_torus_shapes_read(t, 4, 0, TP_TORUS_SHAPES_CANONICAL, &sh);
	ck_assert_int_eq(n, 2);
	/* the square's mean diameter (4/3) is below the line's (5/3) */
	assert_len(&sh[0], 2, 2, 1);
	assert_len(&sh[1], 4, 1, 1);
	free(sh);
	n = tp_torus_shapes_read(t, 4, 0, TP_TORUS_SHAPES_ALL, &sh);
	ck_assert_int_eq(n, 4);
	assert_len(&sh[0], 1, 2, 2);
	assert_len(&sh[1], 2, 1, 2);
	assert_len(&sh[2], 2, 2, 1);
	assert_len(&sh[3], 4, 1, 1);
	free(sh);
	/* tp_torus_shapes is the all reading */
	ck_assert_int_eq(tp_torus_shapes(t, 4, 0, &sh), 4);
	free(sh);
	/* 8: {4,2,1} and {2,2,2}; all adds 4x1x2 */
	ck_assert_int_eq(tp_torus_shapes_read(t, 8, 0, TP_TORUS_SHAPES_CANONICAL, &sh), 2);
	assert_len(&sh[0], 2, 2, 2);
	assert_len(&sh[1], 4, 2, 1);
	free(sh);
	ck_assert_int_eq(tp_torus_shapes_read(t, 8, 0, TP_TORUS_SHAPES_ALL, &sh), 3);
	free(sh);
	/* with transit nodes: sizes 3 and 4; 3 has {3,1,1} only */
	ck_assert_int_eq(tp_torus_shapes_read(t, 3, 1, TP_TORUS_SHAPES_CANONICAL, &sh), 3);
	free(sh);
	tp_torus_free(t);
}
END_TEST

/* Dimensions not listed non-increasing: 2x2x4 has a box of 12 (2x2x3)
 * but no canonical one, since 3 > 2 in the first place; on 4x2x2 the
 * same box is 3x2x2. */
START_TEST(test_canonical_follows_listed_order)
{
	int dims[] = { 2, 2, 4 };
	tp_torus *t = gen(3, dims);
	tp_torus_shape *sh;
	ck_assert_int_eq(tp_torus_shapes_read(t, 12, 0, TP_TORUS_SHAPES_ALL, &sh), 1);
	free(sh);
	ck_assert_int_eq(tp_torus_shapes_read(t, 12, 0, TP_TORUS_SHAPES_CANONICAL, &sh), 0);
	free(sh);
	ck_assert_int_eq(tp_torus_shapes_read(t, 4, 0, TP_TORUS_SHAPES_CANONICAL, &sh), 1);
	assert_len(&sh[0], 2, 2, 1);
	free(sh);
	tp_torus_free(t);
	int sorted[] = { 4, 2, 2 };
	t = gen(3, sorted);
	ck_assert_int_eq(tp_torus_shapes_read(t, 12, 0, TP_TORUS_SHAPES_CANONICAL, &sh), 1);
	assert_len(&sh[0], 3, 2, 2);
	free(sh);
	tp_torus_free(t);
}
END_TEST

/* With dimensions listed non-increasing, a size has a canonical shape
 * exactly when it has any shape (sorting the factors keeps them within
 * the sorted dimensions), and the canonical shapes are those of all
 * whose lengths do not increase. */
START_TEST(test_canonical_subset_of_all)
{
	int dims[] = { 4, 4, 3, 2 };
	tp_torus *t = gen(4, dims);
	for (int s = 1; s <= 96; s++) {
		tp_torus_shape *all, *can;
		int na = tp_torus_shapes_read(t, s, 0, TP_TORUS_SHAPES_ALL, &all);
		int nc = tp_torus_shapes_read(t, s, 0, TP_TORUS_SHAPES_CANONICAL, &can);
		ck_assert_int_eq(na > 0, nc > 0);
		int k = 0;
		for (int r = 0; r < na; r++) {
			const int *l = all[r].len;
			if (l[0] < l[1] || l[1] < l[2] || l[2] < l[3])
				continue;
			ck_assert_int_lt(k, nc);
			ck_assert_mem_eq(can[k].len, l, sizeof(int) * 4);
			k++;
		}
		ck_assert_int_eq(k, nc);
		free(all);
		free(can);
	}
	tp_torus_free(t);
}
END_TEST

/* ---- torus-base under each reading -------------------------------------- */

/* All free, 4 nodes on 4x2x2: canonical takes the 2x2x1 square at the
 * origin, (0..1, 0..1, 0) = nodes 0, 2, 4, 6; all takes 1x2x2 there,
 * nodes 0..3 (the same mean diameter, lower lengths first). */
START_TEST(test_base_hand_worked)
{
	int dims[] = { 4, 2, 2 }, got[16];
	tp_torus *t = gen(3, dims);
	tp_nodeset avail;
	tp_nodeset_init(&avail, 16);
	tp_nodeset_fill(&avail);
	ck_assert_int_eq(base_nodes(t, &avail, 4, got), 4);
	ck_assert_int_eq(got[0], 0);
	ck_assert_int_eq(got[3], 3);
	set_reading(t, TP_TORUS_SHAPES_CANONICAL, TP_TORUS_SHAPELESS_REFUSE);
	ck_assert_int_eq(base_nodes(t, &avail, 4, got), 4);
	int want[] = { 0, 2, 4, 6 };
	ck_assert_mem_eq(got, want, sizeof(want));
	/* only the 1x2x2 box at x = 0 free: all places it, canonical has
	 * no box of 4 there (2x2x1 needs two x, 4x1x1 four) */
	tp_nodeset_zero(&avail);
	tp_nodeset_set_range(&avail, 0, 4);
	ck_assert_int_eq(base_nodes(t, &avail, 4, got), -1);
	set_reading(t, TP_TORUS_SHAPES_ALL, TP_TORUS_SHAPELESS_REFUSE);
	ck_assert_int_eq(base_nodes(t, &avail, 4, got), 4);
	ck_assert_int_eq(got[3], 3);
	/* fs and mss search every box whatever BaseShapes= says */
	set_reading(t, TP_TORUS_SHAPES_CANONICAL, TP_TORUS_SHAPELESS_REFUSE);
	tp_box b;
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_BASE, &avail, 4, 0, &b), -1);
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_FS, &avail, 4, 0, &b), 0);
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_MSS, &avail, 4, 0, &b), 0);
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

/* A size with no canonical shape is shapeless for canonical base: on
 * 2x4, 3 nodes (1x3 only) are refused under Shapeless=refuse and never
 * placeable; under Shapeless=pack they get the lowest three nodes of the
 * first canonical 2x2 box, 0, 1, 4; under all the 1x3 box 0, 1, 2. */
START_TEST(test_base_shapeless_under_canonical)
{
	int dims[] = { 2, 4 }, got[8];
	tp_torus *t = gen(2, dims);
	tp_nodeset avail;
	tp_nodeset_init(&avail, 8);
	tp_nodeset_fill(&avail);
	set_reading(t, TP_TORUS_SHAPES_CANONICAL, TP_TORUS_SHAPELESS_REFUSE);
	ck_assert_int_eq(base_nodes(t, &avail, 3, got), -1);
	tp_alloc_cfg cfg = { .nnodes = 8, .torus = t };
	tp_error err;
	tp_alloc *a = tp_alloc_create("torus-base", &cfg, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	tp_placeable p;
	ck_assert_int_eq(tp_placeable_init(&p, 8), 0);
	ck_assert(!tp_placeable_test(&p, a, &avail, 3));
	ck_assert(tp_placeable_test(&p, a, &avail, 4));
	tp_placeable_fini(&p);
	tp_alloc_destroy(a);
	set_reading(t, TP_TORUS_SHAPES_CANONICAL, TP_TORUS_SHAPELESS_PACK);
	ck_assert_int_eq(base_nodes(t, &avail, 3, got), 3);
	int packed[] = { 0, 1, 4 };
	ck_assert_mem_eq(got, packed, sizeof(packed));
	set_reading(t, TP_TORUS_SHAPES_ALL, TP_TORUS_SHAPELESS_REFUSE);
	ck_assert_int_eq(base_nodes(t, &avail, 3, got), 3);
	int line[] = { 0, 1, 2 };
	ck_assert_mem_eq(got, line, sizeof(line));
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

/* ---- torus.conf and the loader -------------------------------------------- */

START_TEST(test_conf_key)
{
	tp_error err;
	tp_torus *t = tp_torus_load(tmpdir_write("a.conf",
		"Dimensions=4x2x2\nNodes=n[1-16]\n"), &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(tp_torus_options(t)->base_shapes, TP_TORUS_SHAPES_ALL);
	tp_torus_free(t);
	t = tp_torus_load(tmpdir_write("b.conf",
		"Dimensions=4x2x2\nBaseShapes=Canonical\nNodes=n[1-16]\n"), &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(tp_torus_options(t)->base_shapes,
			 TP_TORUS_SHAPES_CANONICAL);
	/* written back and read again: the same reading */
	const char *path = tmpdir_write("c.conf", "");
	FILE *fp = fopen(path, "w");
	ck_assert_int_eq(tp_torus_write_conf(t, fp), 0);
	fclose(fp);
	tp_torus_free(t);
	t = tp_torus_load(path, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(tp_torus_options(t)->base_shapes,
			 TP_TORUS_SHAPES_CANONICAL);
	tp_torus_free(t);
	path = tmpdir_write("bad.conf", "Dimensions=4x2x2\nNodes=n[1-16]\nBaseShapes=sorted\n");
	ck_assert_ptr_null(tp_torus_load(path, &err));
	char want[600]; /* a path of up to 511 bytes and the message */
	snprintf(want, sizeof(want), "%s:3: unknown BaseShapes=sorted (canonical or all)",
		 path);
	ck_assert_str_eq(err.msg, want);
	ck_assert_str_eq(tp_torus_base_shapes_name(TP_TORUS_SHAPES_CANONICAL),
			 "canonical");
}
END_TEST

/* The loader's spec replaces the file's reading (toposim --base-shapes). */
START_TEST(test_topo_override)
{
	const char *path = tmpdir_write("t.conf",
		"Dimensions=4x2x2\nNodes=n[1-16]\nMethod=base\n");
	tp_topo_spec s;
	tp_topo topo;
	tp_error err;
	tp_topo_spec_init(&s, TP_TOPO_TORUS);
	ck_assert_int_eq(s.base_shapes, -1);
	s.conf = path;
	ck_assert_msg(tp_topo_load(&topo, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(tp_torus_options(topo.torus)->base_shapes,
			 TP_TORUS_SHAPES_ALL);
	ck_assert_ptr_nonnull(strstr(topo.describe, "BaseShapes=all"));
	tp_topo_fini(&topo);
	s.base_shapes = TP_TORUS_SHAPES_CANONICAL;
	ck_assert_msg(tp_topo_load(&topo, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(tp_torus_options(topo.torus)->base_shapes,
			 TP_TORUS_SHAPES_CANONICAL);
	ck_assert_ptr_nonnull(strstr(topo.describe, "BaseShapes=canonical"));
	tp_topo_fini(&topo);
}
END_TEST

int main(void)
{
	if (tmpdir_make("check_torus_canonical")) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	Suite *s = suite_create("torus_canonical");
	TCase *tc = tcase_create("shapes");
	tcase_add_test(tc, test_canonical_size4_on_4x2x2);
	tcase_add_test(tc, test_canonical_follows_listed_order);
	tcase_add_test(tc, test_canonical_subset_of_all);
	suite_add_tcase(s, tc);
	tc = tcase_create("base");
	tcase_add_test(tc, test_base_hand_worked);
	tcase_add_test(tc, test_base_shapeless_under_canonical);
	suite_add_tcase(s, tc);
	tc = tcase_create("conf");
	tcase_add_test(tc, test_conf_key);
	tcase_add_test(tc, test_topo_override);
	suite_add_tcase(s, tc);
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
