/* check_torus.c - unit tests for torus.c, torus_box.c and alloc_torus.c
 * (model, torus.conf parser, shapes and placements, base/fs allocators). */
#include "check_util.h"
#include "alloc/alloc.h"
#include "topology/torus.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/check_torus.XXXXXX";

/* Write `text` to a file in tmpdir; returns its path (static buffer). */
static const char *conf_file(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static tp_torus *gen(int n, const int *dims, const bool *wrap)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(n, dims, wrap, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

/* ---- model --------------------------------------------------------- */

START_TEST(test_row_major_index)
{
	int dims[] = { 4, 4, 3, 3 };
	tp_torus *t = gen(4, dims, NULL);
	ck_assert_int_eq(tp_torus_nnodes(t), 144);
	/* last dimension fastest: (1,2,0,2) = ((1*4+2)*3+0)*3+2 = 56 */
	int c[] = { 1, 2, 0, 2 }, back[4];
	ck_assert_int_eq(tp_torus_index(t, c), 56);
	tp_torus_coord(t, 56, back);
	ck_assert_mem_eq(back, c, sizeof(c));
	ck_assert_str_eq(tp_torus_node_name(t, 56), "n57");
	ck_assert_int_eq(tp_torus_node_index(t, "n57"), 56);
	ck_assert_int_eq(tp_torus_node_index(t, "n145"), -1);
	for (int i = 0; i < 144; i++) {
		tp_torus_coord(t, i, back);
		ck_assert_int_eq(tp_torus_index(t, back), i);
		ck_assert_int_eq(tp_torus_node_index(t, tp_torus_node_name(t, i)), i);
	}
	int bad[] = { 0, 4, 0, 0 };
	ck_assert_int_eq(tp_torus_index(t, bad), -1);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_distance)
{
	int dims[] = { 8, 4 };
	bool wrap[] = { true, false };
	tp_torus *t = gen(2, dims, wrap);
	int a[] = { 0, 0 }, b[] = { 7, 3 };
	int u = tp_torus_index(t, a), v = tp_torus_index(t, b);
	ck_assert_int_eq(tp_torus_distance_between(t, u, v), 7 + 3);
	tp_torus_opts o = *tp_torus_options(t);
	o.distance = TP_TORUS_DIST_TORUS;
	ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
	/* ring of 8: 7 steps one way = 1 the other; the line keeps 3 */
	ck_assert_int_eq(tp_torus_distance_between(t, u, v), 1 + 3);
	o.ntransit = -1;
	tp_error err;
	ck_assert_int_eq(tp_torus_set_options(t, &o, &err), -1);
	tp_torus_free(t);
}
END_TEST

/* ---- parser -------------------------------------------------------- */

START_TEST(test_load_hostlist)
{
	const char *p = conf_file("ok1.conf",
		"# 4D torus, row-major names\n"
		"Dimensions=4x4x3x3 Wrap=yes,yes,no,yes\n"
		"Nodes=n[001-144]\n"
		"Ntransit=2 Method=fs Distance=torus FsOrder=diameter\n");
	tp_error err;
	tp_torus *t = tp_torus_load(p, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(tp_torus_ndims(t), 4);
	ck_assert_int_eq(tp_torus_dims(t)[2], 3);
	ck_assert(tp_torus_wrap(t)[1] && !tp_torus_wrap(t)[2]);
	ck_assert_int_eq(tp_torus_ntransit(t), 2);
	ck_assert_int_eq(tp_torus_default_method(t), TP_TORUS_FS);
	ck_assert_int_eq(tp_torus_options(t)->distance, TP_TORUS_DIST_TORUS);
	ck_assert_int_eq(tp_torus_options(t)->fs_order, TP_TORUS_FS_DIAMETER);
	ck_assert_str_eq(tp_torus_node_name(t, 0), "n001");
	ck_assert_str_eq(tp_torus_node_name(t, 143), "n144");
	int c[4];
	tp_torus_coord(t, tp_torus_node_index(t, "n010"), c);
	/* index 9 = (0,1,0,0): last dims 3x3 = 9 per step of dim 1 */
	ck_assert_int_eq(c[0], 0);
	ck_assert_int_eq(c[1], 1);
	ck_assert_int_eq(c[2] + c[3], 0);
	tp_torus_free(t);
}
END_TEST

/* Method=anchor names Slurm 26.05's anchored placements (torus-anchor):
 * parsed in any case, written back as it is named, and refused by
 * tp_torus_place, whose methods are doc/methods.md B's three. */
START_TEST(test_method_anchor)
{
	const char *p = conf_file("anchor.conf",
		"Dimensions=4x4\nNodes=n[1-16]\nMethod=Anchor\n");
	tp_error err;
	tp_torus *t = tp_torus_load(p, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(tp_torus_default_method(t), TP_TORUS_ANCHOR);
	ck_assert_str_eq(tp_torus_method_name(TP_TORUS_ANCHOR), "anchor");
	tp_torus_method m = TP_TORUS_BASE;
	ck_assert_int_eq(tp_torus_method_parse("ANCHOR", &m), 0);
	ck_assert_int_eq(m, TP_TORUS_ANCHOR);

	char path[256], line[128];
	snprintf(path, sizeof(path), "%s/anchor-rt.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	ck_assert_int_eq(tp_torus_write_conf(t, fp), 0);
	fclose(fp);
	bool found = false;
	fp = fopen(path, "r");
	while (fgets(line, sizeof(line), fp))
		found |= !strcmp(line, "Method=anchor\n");
	fclose(fp);
	ck_assert(found);

	tp_nodeset avail;
	tp_box b;
	tp_nodeset_init(&avail, 16);
	tp_nodeset_set_range(&avail, 0, 16);
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_ANCHOR, &avail, 4, 0, &b), -1);
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_FS, &avail, 4, 0, &b), 0);
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_load_explicit_and_roundtrip)
{
	const char *p = conf_file("ok2.conf",
		"Dimensions=2x3\n"
		"Wrap=no\n"
		"NodeName=c Coord=0,2\n"
		"NodeName=a Coord=1,0\n"
		"NodeName=f Coord=0,0\n"
		"NodeName=b Coord=1,2\n"
		"NodeName=e Coord=0,1\n"
		"NodeName=d Coord=1,1\n");
	tp_error err;
	tp_torus *t = tp_torus_load(p, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert(!tp_torus_wrap(t)[0] && !tp_torus_wrap(t)[1]);
	ck_assert_int_eq(tp_torus_node_index(t, "c"), 2);
	ck_assert_int_eq(tp_torus_node_index(t, "a"), 3);
	ck_assert_int_eq(tp_torus_node_index(t, "f"), 0);
	ck_assert_int_eq(tp_torus_default_method(t), TP_TORUS_COMPACT);
	ck_assert_int_eq(tp_torus_ntransit(t), 0);

	char path[256];
	snprintf(path, sizeof(path), "%s/rt.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	ck_assert_int_eq(tp_torus_write_conf(t, fp), 0);
	fclose(fp);
	tp_torus *u = tp_torus_load(path, &err);
	ck_assert_msg(u != NULL, "%s", err.msg);
	ck_assert_int_eq(tp_torus_nnodes(u), 6);
	for (int i = 0; i < 6; i++)
		ck_assert_str_eq(tp_torus_node_name(u, i), tp_torus_node_name(t, i));
	ck_assert(!tp_torus_wrap(u)[1]);
	tp_torus_free(u);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_generate_roundtrip_options)
{
	int dims[] = { 3, 2, 2 };
	bool wrap[] = { true, false, true };
	tp_torus *t = gen(3, dims, wrap);
	tp_torus_opts o = { .ntransit = 3, .method = TP_TORUS_BASE,
			    .distance = TP_TORUS_DIST_TORUS,
			    .fs_order = TP_TORUS_FS_DIAMETER };
	ck_assert_int_eq(tp_torus_set_options(t, &o, NULL), 0);
	char path[256];
	snprintf(path, sizeof(path), "%s/gen.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	ck_assert_int_eq(tp_torus_write_conf(t, fp), 0);
	fclose(fp);
	tp_error err;
	tp_torus *u = tp_torus_load(path, &err);
	ck_assert_msg(u != NULL, "%s", err.msg);
	ck_assert_mem_eq(tp_torus_options(u), &o, sizeof(o));
	ck_assert_mem_eq(tp_torus_wrap(u), wrap, sizeof(wrap));
	ck_assert_str_eq(tp_torus_node_name(u, 11), "n12");
	tp_torus_free(u);
	tp_torus_free(t);
}
END_TEST

/* Each bad file and the exact error it must produce ("FILE:LINE: ..."). */
static const struct {
	const char *text, *msg;
} bad_confs[] = {
	{ "Dimensions=2x2\nNodes=n[1-3]\n",
	  "%s:2: Nodes=n[1-3] lists 3 nodes, Dimensions=2x2 needs 4" },
	{ "Dimensions=2x2\nNodeName=a Coord=0,0\nNodeName=b Coord=0,1\n"
	  "NodeName=c Coord=0,0\nNodeName=d Coord=1,1\n",
	  "%s:4: coordinate 0,0 of node 'c' already used by 'a' (line 2)" },
	{ "Dimensions=2x2\nNodeName=a Coord=0,0\nNodeName=b Coord=0,2\n",
	  "%s:3: coordinate 2 out of range 0..1 in dimension 1 of Coord=0,2" },
	{ "Dimensions=2x2\nNodeName=a Coord=0,0\nNodeName=b Coord=0,1\n"
	  "NodeName=a Coord=1,0\nNodeName=d Coord=1,1\n",
	  "%s:4: duplicate node name 'a' (first at line 2)" },
	{ "Dimensions=2x2\nNodes=a,b,a,c\n",
	  "%s:2: duplicate node name 'a' in Nodes=a,b,a,c" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nColour=blue\n",
	  "%s:3: unknown key 'Colour'" },
	{ "Dimensions=2x2\nNodeName=a Coord=0,0 Rack=3\n",
	  "%s:2: unknown key 'Rack' on a NodeName line" },
	/* two values on one NodeName line: the first was taken silently */
	{ "Dimensions=2x2\nNodeName=a Coord=0,0 Coord=1,1\n",
	  "%s:2: Coord= given twice on a NodeName line ('0,0', then '1,1')" },
	{ "Dimensions=2x2\nNodeName=a NodeName=b Coord=0,0\n",
	  "%s:2: NodeName= given twice on a NodeName line ('a', then 'b')" },
	{ "Dimensions=4xfourx3\nNodes=n[1-48]\n",
	  "%s:1: bad number 'four' in Dimensions=4xfourx3 (need an integer >= 1)" },
	{ "Dimensions=4x0\nNodes=n1\n",
	  "%s:1: bad number '0' in Dimensions=4x0 (need an integer >= 1)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nNtransit=-1\n",
	  "%s:3: bad number '-1' for Ntransit= (need an integer >= 0)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nNtransit=2x\n",
	  "%s:3: bad number '2x' for Ntransit= (need an integer >= 0)" },
	{ "Dimensions=2x2\nNodeName=a Coord=0,x\n",
	  "%s:2: bad number 'x' in Coord=0,x" },
	{ "Dimensions=2x2\nNodeName=a Coord=0,0,0\n",
	  "%s:2: Coord=0,0,0 has 3 values for 2 dimensions" },
	{ "Dimensions=2x2x2\nWrap=yes,no\nNodes=n[1-8]\n",
	  "%s:2: Wrap=yes,no has 2 values for 3 dimensions (give one or 3)" },
	{ "Dimensions=2x2\nWrap=maybe\nNodes=n[1-4]\n",
	  "%s:2: bad value 'maybe' in Wrap=maybe (need yes or no)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nMethod=best\n",
	  "%s:3: unknown Method=best (compact, base, fs, mss or anchor)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nMethod=anchors\n",
	  "%s:3: unknown Method=anchors (compact, base, fs, mss or anchor)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nDistance=euclid\n",
	  "%s:3: unknown Distance=euclid (manhattan or torus)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nFsOrder=random\n",
	  "%s:3: unknown FsOrder=random (offset or diameter)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nShapeless=wait\n",
	  "%s:3: unknown Shapeless=wait (pack or refuse)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nDimensions=4\n",
	  "%s:3: Dimensions= given again (first at line 1)" },
	{ "Dimensions=2x2\n# three of four\nNodeName=a Coord=0,0\n"
	  "NodeName=b Coord=1,1\nNodeName=c Coord=0,1\n",
	  "%s:1: Dimensions=2x2 needs 4 nodes, NodeName lines give 3 (none at coordinate 1,0)" },
	{ "Dimensions=2x2\nNodes=n[1-4]\nNodeName=a Coord=0,0\n",
	  "%s:3: NodeName= lines cannot be combined with Nodes= (line 2)" },
	{ "Nodes=n[1-4]\n", "%s: no Dimensions= line" },
	{ "Dimensions=2x2\n", "%s: no Nodes= or NodeName= lines" },
	{ "Dimensions=2x2\nNodes=n[4-1]\n",
	  "%s:2: Nodes=n[4-1]: bad range '4-1'" },
	{ "Dimensions=2x2\nNodeName=n[1-2] Coord=0,0\n",
	  "%s:2: NodeName= takes one name, got 'n[1-2]'" },
	{ "Dimensions=2x2\nNodeName=a\n", "%s:2: NodeName=a has no Coord=" },
	{ "Dimensions=2x2x2x2x2x2x2x2x2\nNodes=n[1-512]\n",
	  "%s:1: Dimensions=2x2x2x2x2x2x2x2x2: more than 8 dimensions" },
	{ "Dimensions=2048x1024\nNodes=n[1-4]\n",
	  "%s:1: Dimensions=2048x1024: more than 1048576 nodes" },
};

START_TEST(test_parser_errors)
{
	for (size_t i = 0; i < sizeof(bad_confs) / sizeof(bad_confs[0]); i++) {
		char name[32], want[512];
		snprintf(name, sizeof(name), "bad%zu.conf", i);
		const char *p = conf_file(name, bad_confs[i].text);
		snprintf(want, sizeof(want), bad_confs[i].msg, p);
		tp_error err = { "" };
		tp_torus *t = tp_torus_load(p, &err);
		ck_assert_msg(t == NULL, "case %zu loaded", i);
		ck_assert_str_eq(err.msg, want);
	}
	tp_error err;
	ck_assert_ptr_null(tp_torus_load("/nonexistent/torus.conf", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/torus.conf: cannot open"));
}
END_TEST

/* ---- boxes and shapes ------------------------------------------------- */

static void box_indices(const tp_torus *t, const tp_box *b, int *idx, int n)
{
	tp_nodeset s;
	tp_nodeset_init(&s, tp_torus_nnodes(t));
	tp_torus_box_nodes(t, b, &s);
	ck_assert_int_eq(tp_nodeset_count(&s), n);
	int k = 0;
	for (int i = tp_nodeset_next(&s, 0); i >= 0; i = tp_nodeset_next(&s, i + 1))
		idx[k++] = i;
	tp_nodeset_fini(&s);
}

START_TEST(test_box_wraparound)
{
	/* 4x4, both rings; index = 4x + y */
	int dims[] = { 4, 4 }, got[16];
	tp_torus *t = gen(2, dims, NULL);
	int len13[] = { 1, 3 }, len41[] = { 4, 1 }, len22[] = { 2, 2 };
	/* 1x3: 4 offsets in x times 4 in y (a 3-arc of a 4-ring) */
	ck_assert_int_eq(tp_torus_placements(t, len13), 16);
	/* spanning the x ring: only offset 0 there */
	ck_assert_int_eq(tp_torus_placements(t, len41), 4);
	tp_box b;
	/* placement 3 of 1x3 = offset (0,3): y = 3, 0, 1 -> nodes 3, 0, 1 */
	tp_torus_placement(t, len13, 3, &b);
	ck_assert_int_eq(b.off[0], 0);
	ck_assert_int_eq(b.off[1], 3);
	box_indices(t, &b, got, 3);
	ck_assert_int_eq(got[0], 0);
	ck_assert_int_eq(got[1], 1);
	ck_assert_int_eq(got[2], 3);
	/* 2x2 at (3,3): x = 3,0 and y = 3,0 -> 0, 3, 12, 15 */
	tp_torus_placement(t, len22, 15, &b);
	ck_assert_int_eq(tp_torus_box_corner(t, &b), 15);
	box_indices(t, &b, got, 4);
	ck_assert_int_eq(got[0], 0);
	ck_assert_int_eq(got[1], 3);
	ck_assert_int_eq(got[2], 12);
	ck_assert_int_eq(got[3], 15);
	ck_assert(tp_torus_box_contains(t, &b, 12));
	ck_assert(!tp_torus_box_contains(t, &b, 13));
	/* intersections across the seam */
	tp_box c = { .off = { 1, 0 }, .len = { 1, 4 } };
	ck_assert(!tp_torus_box_intersects(t, &b, &c));
	c.off[0] = 0;
	ck_assert(tp_torus_box_intersects(t, &b, &c));
	tp_torus_free(t);

	/* the same torus without wraparound: 1x3 has 4 x 2 placements */
	bool nowrap[] = { false, false };
	t = gen(2, dims, nowrap);
	ck_assert_int_eq(tp_torus_placements(t, len13), 8);
	ck_assert_int_eq(tp_torus_placements(t, len41), 4);
	tp_torus_placement(t, len13, 3, &b); /* offsets (1,1) */
	ck_assert_int_eq(tp_torus_box_corner(t, &b), 5);
	box_indices(t, &b, got, 3);
	ck_assert_int_eq(got[0], 5);
	ck_assert_int_eq(got[2], 7);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_shapes_and_mean_diameter)
{
	int dims[] = { 4, 4, 3, 3 };
	tp_torus *t = gen(4, dims, NULL);
	tp_torus_shape *sh;
	/* 4 = 2*2 six ways, 4 two ways (the 3-dims cannot hold 4) */
	int n = tp_torus_shapes(t, 4, 0, &sh);
	ck_assert_int_eq(n, 8);
	/* 2x2 square: 4 pairs at 1, 2 at 2 -> 8/6; line of 4: 10/6 */
	for (int i = 0; i < 6; i++)
		ck_assert_double_eq_tol(sh[i].mean_diameter, 4.0 / 3, 1e-12);
	ck_assert_double_eq_tol(sh[6].mean_diameter, 5.0 / 3, 1e-12);
	int first[] = { 1, 1, 2, 2 }, last[] = { 4, 1, 1, 1 };
	ck_assert_mem_eq(sh[0].len, first, sizeof(first));
	ck_assert_mem_eq(sh[7].len, last, sizeof(last));
	free(sh);

	/* 3 with one transit node: lines of 3 (8/6 = 4/3) tie with the 2x2
	 * squares (16/12 = 4/3); the tie goes to the smaller size */
	n = tp_torus_shapes(t, 3, 1, &sh);
	ck_assert_int_eq(n, 4 + 8);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(sh[i].size, 3);
		ck_assert_double_eq_tol(sh[i].mean_diameter, 4.0 / 3, 1e-12);
	}
	ck_assert_int_eq(sh[4].size, 4);
	int l3[] = { 1, 1, 1, 3 };
	ck_assert_mem_eq(sh[0].len, l3, sizeof(l3));
	free(sh);

	ck_assert_int_eq(tp_torus_shapes(t, 145, 0, &sh), 0);
	ck_assert_int_eq(tp_torus_shapes(t, 0, 0, &sh), 0);
	/* 144 = the whole torus, one shape */
	ck_assert_int_eq(tp_torus_shapes(t, 144, 5, &sh), 1);
	free(sh);

	/* wrapped distance: a full 4-ring has pairs 1,2,1,1,2,1 -> 8/6;
	 * a 3-arc of a 4-ring keeps 1,1,2 -> 4/6 */
	int ring4[] = { 4, 1, 1, 1 }, arc3[] = { 3, 1, 1, 1 };
	ck_assert_double_eq_tol(tp_torus_mean_diameter(t, ring4), 5.0 / 3, 1e-12);
	tp_torus_opts o = *tp_torus_options(t);
	o.distance = TP_TORUS_DIST_TORUS;
	tp_torus_set_options(t, &o, NULL);
	ck_assert_double_eq_tol(tp_torus_mean_diameter(t, ring4), 4.0 / 3, 1e-12);
	ck_assert_double_eq_tol(tp_torus_mean_diameter(t, arc3), 4.0 / 3, 1e-12);
	tp_torus_free(t);
}
END_TEST

/* Brute force: mean over all pairs of the box's nodes of the distance
 * measured along the box (local positions 0..len-1 per dimension; on a
 * ring under Distance=torus the shorter way round). */
static double brute_mean(const tp_torus *t, const tp_box *b)
{
	int n = tp_torus_ndims(t), size = tp_torus_box_size(t, b);
	const int *dims = tp_torus_dims(t);
	bool ring = tp_torus_options(t)->distance == TP_TORUS_DIST_TORUS;
	double sum = 0;
	for (int p = 0; p < size; p++)
		for (int q = p + 1; q < size; q++) {
			int rp = p, rq = q;
			for (int i = n - 1; i >= 0; i--) {
				int a = rp % b->len[i], c = rq % b->len[i];
				int d = a > c ? a - c : c - a;
				if (ring && tp_torus_wrap(t)[i] && dims[i] - d < d)
					d = dims[i] - d;
				sum += d;
				rp /= b->len[i];
				rq /= b->len[i];
			}
		}
	return size > 1 ? sum / (size * (size - 1) / 2.0) : 0;
}

/* tp_torus_shapes_maximal against its definition: the shapes of the
 * range (tp_torus_shapes, in its order) that no dimension can lengthen
 * within the range, on tori of 1 to 5 dimensions and ranges of every
 * width. */
START_TEST(test_shapes_maximal)
{
	tp_error err = { "" };
	unsigned x = 12345;
	for (int round = 0; round < 300; round++) {
		int n = 1 + round % 5, dims[5];
		for (int i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			dims[i] = 1 + (int)((x >> 8) % (n > 3 ? 6 : 9));
		}
		tp_torus *t = tp_torus_generate(n, dims, NULL, &err);
		ck_assert_msg(t, "%s", err.msg);
		int N = tp_torus_nnodes(t);
		x = x * 1103515245u + 12345u;
		int lo = 1 + (int)((x >> 8) % (unsigned)N);
		x = x * 1103515245u + 12345u;
		int hi = lo + (int)((x >> 8) % (unsigned)(lo + 1));
		tp_torus_shape *all, *got;
		int nall = tp_torus_shapes(t, lo, hi - lo, &all);
		int ngot = tp_torus_shapes_maximal(t, lo, hi, &got);
		ck_assert_int_ge(nall, 0);
		ck_assert_int_ge(ngot, 0);
		int k = 0;
		for (int r = 0; r < nall; r++) {
			bool grows = false;
			for (int i = 0; i < n; i++)
				grows |= all[r].len[i] < dims[i] &&
					 all[r].size / all[r].len[i] * (all[r].len[i] + 1) <= hi;
			if (grows)
				continue;
			ck_assert_int_lt(k, ngot);
			ck_assert_int_eq(got[k].size, all[r].size);
			ck_assert(!memcmp(got[k].len, all[r].len, (size_t)n * sizeof(int)));
			ck_assert(got[k].pair_sum == all[r].pair_sum);
			k++;
		}
		ck_assert_int_eq(k, ngot);
		free(all);
		free(got);
		tp_torus_free(t);
	}
}
END_TEST

START_TEST(test_mean_diameter_closed_form)
{
	/* closed form (shape) and histogram form (any set, used by cost)
	 * against pairwise brute force, both distances, odd and even rings */
	int dims[] = { 7, 6, 5 };
	bool wrap[] = { true, true, false };
	tp_torus *t = gen(3, dims, wrap);
	tp_nodeset s;
	tp_nodeset_init(&s, tp_torus_nnodes(t));
	for (int dist = 0; dist < 2; dist++) {
		tp_torus_opts o = *tp_torus_options(t);
		o.distance = dist ? TP_TORUS_DIST_TORUS : TP_TORUS_DIST_MANHATTAN;
		tp_torus_set_options(t, &o, NULL);
		for (int a = 1; a <= 7; a++)
			for (int b = 1; b <= 6; b++)
				for (int c = 1; c <= 5; c += 2) {
					tp_box box = { .off = { 3, 4, 0 },
						       .len = { a, b, c } };
					if (a == 7)
						box.off[0] = 0;
					if (b == 6)
						box.off[1] = 0;
					double want = brute_mean(t, &box);
					ck_assert_double_eq_tol(tp_torus_mean_diameter(t, box.len), want, 1e-9);
					tp_nodeset_zero(&s);
					tp_torus_box_nodes(t, &box, &s);
					ck_assert_double_eq_tol(tp_torus_set_mean_distance(t, &s), want, 1e-9);
				}
	}
	tp_nodeset_fini(&s);
	tp_torus_free(t);
}
END_TEST

/* ---- random states ---------------------------------------------------- */

static unsigned rnd_state;
static unsigned rnd(unsigned n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/* Lock random boxes until about `load` of the nodes are busy, then flip a
 * few single nodes so states are not only unions of boxes. */
static void random_state(const tp_torus *t, tp_nodeset *avail, double load)
{
	int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
	const int *dims = tp_torus_dims(t);
	tp_nodeset_fill(avail);
	for (int tries = 0; tries < 400 && tp_nodeset_count(avail) > N * (1 - load);
	     tries++) {
		int len[TP_TORUS_MAX_DIMS];
		for (int i = 0; i < n; i++)
			len[i] = 1 + (int)rnd((unsigned)(dims[i] + 1) / 2);
		tp_box b;
		tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), &b);
		if (!tp_torus_box_all_free(t, &b, avail))
			continue;
		tp_nodeset lock;
		tp_nodeset_init(&lock, N);
		tp_torus_box_nodes(t, &b, &lock);
		tp_nodeset_andnot(avail, &lock);
		tp_nodeset_fini(&lock);
	}
	for (int k = 0; k < N / 20; k++) {
		int v = (int)rnd((unsigned)N);
		if (tp_nodeset_test(avail, v))
			tp_nodeset_clear(avail, v);
		else
			tp_nodeset_set(avail, v);
	}
}

static tp_torus *random_torus(void)
{
	int n = 3 + (int)rnd(2), dims[4];
	bool wrap[4];
	for (int i = 0; i < n; i++) {
		dims[i] = 2 + (int)rnd(n == 3 ? 5 : 3);
		wrap[i] = rnd(3) != 0;
	}
	tp_torus *t = gen(n, dims, wrap);
	tp_torus_opts o = *tp_torus_options(t);
	o.ntransit = (int)rnd(3);
	o.distance = rnd(2) ? TP_TORUS_DIST_TORUS : TP_TORUS_DIST_MANHATTAN;
	o.fs_order = rnd(2) ? TP_TORUS_FS_DIAMETER : TP_TORUS_FS_OFFSET;
	tp_torus_set_options(t, &o, NULL);
	return t;
}

START_TEST(test_counts_match_node_by_node)
{
	rnd_state = 7;
	for (int round = 0; round < 30; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
		const int *dims = tp_torus_dims(t);
		tp_nodeset avail, box_nodes;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&box_nodes, N);
		random_state(t, &avail, 0.5);
		tp_torus_counts *c = tp_torus_counts_new(t, &avail);
		for (int k = 0; k < 200; k++) {
			int len[TP_TORUS_MAX_DIMS];
			for (int i = 0; i < n; i++)
				len[i] = 1 + (int)rnd((unsigned)dims[i]);
			tp_box b;
			tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), &b);
			tp_nodeset_zero(&box_nodes);
			tp_torus_box_nodes(t, &b, &box_nodes);
			int want = tp_nodeset_count(&box_nodes);
			tp_nodeset_and(&box_nodes, &avail);
			want -= tp_nodeset_count(&box_nodes);
			ck_assert_int_eq(tp_torus_counts_locked(c, &b), want);
			ck_assert(tp_torus_box_all_free(t, &b, &avail) == (want == 0));
		}
		tp_torus_counts_free(c);
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&box_nodes);
		tp_torus_free(t);
	}
}
END_TEST

/* Box node sets (built a row at a time) hold exactly the nodes
 * tp_torus_box_contains says a box has, and the histogram form of the
 * mean distance (built from runs of consecutive nodes) equals the mean
 * over every pair of a random set, boxes or not, under ring distances. */
START_TEST(test_box_nodes_and_mean_distance_random)
{
	rnd_state = 99;
	long sets = 0;
	for (int round = 0; round < 40; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t), n = tp_torus_ndims(t);
		const int *dims = tp_torus_dims(t);
		tp_torus_opts o = *tp_torus_options(t);
		o.distance = TP_TORUS_DIST_TORUS;
		tp_torus_set_options(t, &o, NULL);
		tp_nodeset s;
		tp_nodeset_init(&s, N);
		for (int k = 0; k < 30; k++) {
			int len[TP_TORUS_MAX_DIMS];
			for (int i = 0; i < n; i++)
				len[i] = 1 + (int)rnd((unsigned)dims[i]);
			tp_box b;
			tp_torus_placement(t, len, (long)rnd((unsigned)tp_torus_placements(t, len)), &b);
			tp_nodeset_zero(&s);
			tp_torus_box_nodes(t, &b, &s);
			for (int v = 0; v < N; v++)
				ck_assert(tp_nodeset_test(&s, v) == tp_torus_box_contains(t, &b, v));
			if (k % 2)
				random_state(t, &s, 0.3 + 0.1 * (k % 5));
			long pairs = 0, sum = 0;
			for (int u = tp_nodeset_next(&s, 0); u >= 0; u = tp_nodeset_next(&s, u + 1))
				for (int v = tp_nodeset_next(&s, u + 1); v >= 0; v = tp_nodeset_next(&s, v + 1)) {
					sum += tp_torus_distance_between(t, u, v);
					pairs++;
				}
			double want = pairs ? (double)sum / (double)pairs : 0.0;
			ck_assert_double_eq_tol(tp_torus_set_mean_distance(t, &s), want, 1e-9);
			sets++;
		}
		tp_nodeset_fini(&s);
		tp_torus_free(t);
	}
	ck_assert_int_eq(sets, 1200);
}
END_TEST

/* ---- allocators ------------------------------------------------------- */

START_TEST(test_create_needs_torus)
{
	tp_error err;
	tp_alloc_cfg cfg = { .nnodes = 16 };
	ck_assert_ptr_null(tp_alloc_create("torus-mss", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'torus-mss' needs a torus (--torus FILE)");
	ck_assert_ptr_null(tp_alloc_create("torus-base", &cfg, &err));
	ck_assert_str_eq(err.msg, "allocator 'torus-base' needs a torus (--torus FILE)");
	int dims[] = { 4, 4 };
	tp_torus *t = gen(2, dims, NULL);
	cfg.torus = t;
	cfg.nnodes = 15;
	ck_assert_ptr_null(tp_alloc_create("torus-fs", &cfg, &err));
	cfg.nnodes = 16;
	tp_alloc *a = tp_alloc_create("torus-fs", &cfg, &err);
	ck_assert_ptr_nonnull(a);
	ck_assert(!tp_alloc_is_flat(a));
	tp_alloc_destroy(a);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_base_hand_worked)
{
	/* 4x4x3x3, all rings, all free, 3 nodes + 1 transit: lines of 3 and
	 * 2x2 squares tie at 4/3; size 3 first, lengths (1,1,1,3) first; it
	 * spans ring 3, so its first placement is corner 0: nodes 0, 1, 2. */
	int dims[] = { 4, 4, 3, 3 };
	tp_torus *t = gen(4, dims, NULL);
	tp_torus_opts o = *tp_torus_options(t);
	o.ntransit = 1;
	tp_torus_set_options(t, &o, NULL);
	tp_alloc_cfg cfg = { .nnodes = 144, .torus = t };
	tp_error err;
	tp_alloc *a = tp_alloc_create("torus-base", &cfg, &err);
	tp_nodeset avail, out;
	tp_nodeset_init(&avail, 144);
	tp_nodeset_init(&out, 144);
	tp_nodeset_fill(&avail);
	ck_assert_int_eq(tp_alloc_place(a, &avail, 3, &out), 0);
	char *s = tp_nodeset_format(&out);
	ck_assert_str_eq(s, "0-2");
	free(s);
	/* lock node 1: (1,1,1,3) next fits at corner 3 (0,0,1,0) */
	tp_nodeset_clear(&avail, 1);
	ck_assert_int_eq(tp_alloc_place(a, &avail, 3, &out), 0);
	s = tp_nodeset_format(&out);
	ck_assert_str_eq(s, "3-5");
	free(s);
	/* cost: a line of 3 has mean diameter 4/3 */
	ck_assert_double_eq_tol(tp_alloc_cost(a, &out), 4.0 / 3, 1e-12);
	tp_alloc_destroy(a);
	tp_torus_free(t);

	/* 2x2 ring torus, 3 nodes + 1 transit: no 3-box fits in 2x2, so the
	 * job gets the whole 2x2 box (transit node included). */
	int d2[] = { 2, 2 };
	t = gen(2, d2, NULL);
	tp_torus_set_options(t, &o, NULL);
	cfg = (tp_alloc_cfg){ .nnodes = 4, .torus = t };
	a = tp_alloc_create("torus-base", &cfg, &err);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&out);
	tp_nodeset_init(&avail, 4);
	tp_nodeset_init(&out, 4);
	tp_nodeset_fill(&avail);
	ck_assert_int_eq(tp_alloc_place(a, &avail, 3, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 4);
	/* Without transit nodes 3 has no shape on 2x2: Shapeless=pack (the
	 * default) gives the lowest 3 nodes of the free 2x2 box;
	 * Shapeless=refuse, nothing. */
	o.ntransit = 0;
	tp_torus_set_options(t, &o, NULL);
	ck_assert_int_eq(tp_alloc_place(a, &avail, 3, &out), 0);
	s = tp_nodeset_format(&out);
	ck_assert_str_eq(s, "0-2");
	free(s);
	o.shapeless = TP_TORUS_SHAPELESS_REFUSE;
	tp_torus_set_options(t, &o, NULL);
	ck_assert_int_eq(tp_alloc_place(a, &avail, 3, &out), -1);
	tp_alloc_destroy(a);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&out);
	tp_torus_free(t);
}
END_TEST

/* Positions slurm.conf lacks (tp_torus_set_present).  4x2x3, the last
 * dimension fastest: the first 9 positions are the x=0 plane (6) and
 * x=1, y=0 (3).  No 9-node box (3x1x3, ...) lies in them: with them
 * present only, 9 is shapeless here and runs packed on all 9; with every
 * position present it takes a box.  6 has a present box (the x=0 plane):
 * while that is busy the job waits (-1), as any job with a shape does. */
START_TEST(test_present_positions)
{
	int dims[] = { 4, 2, 3 };
	tp_torus *t = gen(3, dims, NULL);
	tp_alloc_cfg cfg = { .nnodes = 24, .torus = t };
	tp_error err = { { 0 } };
	tp_alloc *a = tp_alloc_create("torus-base", &cfg, &err);
	ck_assert_ptr_nonnull(a);
	tp_nodeset present, avail, out;
	tp_nodeset_init(&present, 24);
	tp_nodeset_init(&avail, 24);
	tp_nodeset_init(&out, 24);
	tp_nodeset_set_range(&present, 0, 9);
	ck_assert(tp_torus_size_has_box(t, TP_TORUS_SHAPES_ALL, 9));
	ck_assert_int_eq(tp_torus_set_present(t, &present), 0);
	ck_assert(!tp_torus_size_has_box(t, TP_TORUS_SHAPES_ALL, 9));
	ck_assert(tp_torus_size_has_box(t, TP_TORUS_SHAPES_ALL, 6));
	tp_nodeset_copy(&avail, &present); /* absent positions are never free */
	ck_assert_int_eq(tp_alloc_place(a, &avail, 9, &out), 0);
	ck_assert(tp_nodeset_equal(&out, &present));
	tp_nodeset_clear(&avail, 0); /* the x=0 plane busy: 6 waits */
	ck_assert_int_eq(tp_alloc_place(a, &avail, 6, &out), -1);
	/* Every position present again: 9 is a box, never packed. */
	tp_nodeset_fill(&present);
	ck_assert_int_eq(tp_torus_set_present(t, &present), 0);
	tp_nodeset_fill(&avail);
	ck_assert_int_eq(tp_alloc_place(a, &avail, 9, &out), 0);
	tp_box b;
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_BASE, &avail, 9, 0, &b), 0);
	tp_nodeset_zero(&present);
	tp_torus_box_nodes(t, &b, &present);
	ck_assert(tp_nodeset_equal(&out, &present));
	ck_assert(!tp_nodeset_test(&out, 3)); /* not the first 9: x=0..2 */
	tp_alloc_destroy(a);
	tp_nodeset_fini(&present);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&out);
	tp_torus_free(t);
}
END_TEST

START_TEST(test_fs_orders_hand_worked)
{
	/* 4x4 lines (no wrap); free: node 0 and the 2x2 block at (2,2).
	 * job of 1 node... trivially node 0 for both; job of 2:
	 *   base / FsOrder=diameter: shape 1x2 first -> (2,2)-(2,3) = 10,11
	 *   FsOrder=offset: lowest corner 10, shape 1x2 first -> 10,11 too;
	 * make them differ: free also the 2x1 column (0,3),(1,3) = 3, 7:
	 *   base: shape (1,2) at corner 10 (no 1x2 lower) -> 10,11
	 *   offset: corner 3 with (2,1) -> 3, 7 */
	int dims[] = { 4, 4 };
	bool nowrap[] = { false, false };
	tp_torus *t = gen(2, dims, nowrap);
	tp_nodeset avail;
	tp_nodeset_init(&avail, 16);
	int fr[] = { 0, 3, 7, 10, 11, 14, 15 };
	for (size_t i = 0; i < sizeof(fr) / sizeof(fr[0]); i++)
		tp_nodeset_set(&avail, fr[i]);
	tp_box b;
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_BASE, &avail, 2, 0, &b), 0);
	ck_assert_int_eq(tp_torus_box_corner(t, &b), 10);
	ck_assert_int_eq(b.len[1], 2);
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_FS, &avail, 2, 0, &b), 0);
	ck_assert_int_eq(tp_torus_box_corner(t, &b), 3);
	ck_assert_int_eq(b.len[0], 2);
	tp_torus_opts o = *tp_torus_options(t);
	o.fs_order = TP_TORUS_FS_DIAMETER;
	tp_torus_set_options(t, &o, NULL);
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_FS, &avail, 2, 0, &b), 0);
	ck_assert_int_eq(tp_torus_box_corner(t, &b), 10);
	/* 4 nodes: only the 2x2 block */
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_FS, &avail, 4, 0, &b), 0);
	ck_assert_int_eq(tp_torus_box_corner(t, &b), 10);
	ck_assert_int_eq(tp_torus_place(t, TP_TORUS_BASE, &avail, 5, 0, &b), -1);
	tp_nodeset_fini(&avail);
	tp_torus_free(t);
}
END_TEST

/* Property: every allocation of every allocator is a box of free nodes of
 * size Wnodes..Wnodes+Ntransit equal to the box tp_torus_place returns;
 * base is the first free candidate shape-major (checked against a scan of
 * all candidates); fs with FsOrder=diameter equals base; the node-by-node
 * (direct) free test gives the same boxes as the prefix sums. */
/* Shapeless=pack on random states, against a brute force: a size no box
 * shape has gets the lowest-numbered w available nodes of the first box
 * (sizes w+1 .. 2w, shape order, then placement order) with w available;
 * the allocator stays monotone (its own placement places again); a size
 * with a shape is placed as a box or not at all, as with Shapeless=refuse. */
START_TEST(test_shapeless_pack)
{
	static const char *const names[] = { "torus-base", "torus-fs", "torus-mss" };
	rnd_state = 777;
	int packed = 0, refused = 0;
	for (int round = 0; round < 40; round++) {
		tp_torus *t = random_torus();
		tp_torus_opts o = *tp_torus_options(t);
		o.ntransit = 0;
		tp_torus_set_options(t, &o, NULL);
		int N = tp_torus_nnodes(t);
		tp_nodeset avail, out, bn, again;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&out, N);
		tp_nodeset_init(&bn, N);
		tp_nodeset_init(&again, N);
		random_state(t, &avail, 0.2 + 0.5 * rnd(100) / 100.0);
		tp_alloc_cfg cfg = { .nnodes = N, .torus = t };
		for (int m = 0; m < 3; m++) {
			tp_error err;
			tp_alloc *a = tp_alloc_create(names[m], &cfg, &err);
			ck_assert_msg(a != NULL, "%s", err.msg);
			for (int w = 1; w <= 12 && w <= N; w++) {
				tp_torus_shape *sh = NULL;
				int nsh = tp_torus_shapes(t, w, 0, &sh);
				free(sh);
				int rc = tp_alloc_place(a, &avail, w, &out);
				tp_box b;
				if (nsh > 0) {
					ck_assert_int_eq(rc, tp_torus_place(t, (tp_torus_method)m,
									    &avail, w, 0, &b));
					continue;
				}
				bool found = false;
				for (int size = w + 1; size <= 2 * w && size <= N && !found; size++) {
					int n2 = tp_torus_shapes(t, size, 0, &sh);
					for (int r = 0; r < n2 && !found; r++)
						for (long k = 0; k < tp_torus_placements(t, sh[r].len) && !found; k++) {
							tp_torus_placement(t, sh[r].len, k, &b);
							tp_nodeset_zero(&bn);
							tp_torus_box_nodes(t, &b, &bn);
							tp_nodeset_and(&bn, &avail);
							found = tp_nodeset_count(&bn) >= w;
						}
					free(sh);
				}
				ck_assert_int_eq(rc, found ? 0 : -1);
				if (rc) {
					refused++;
					continue;
				}
				packed++;
				ck_assert_int_eq(tp_nodeset_count(&out), w);
				ck_assert(tp_nodeset_subset(&out, &bn));
				int i = -1;
				for (int k = 0; k < w; k++) {
					i = tp_nodeset_next(&bn, i + 1);
					ck_assert(tp_nodeset_test(&out, i));
				}
				ck_assert_int_eq(tp_alloc_place(a, &out, w, &again), 0);
				ck_assert(tp_nodeset_equal(&again, &out));
			}
			tp_alloc_destroy(a);
		}
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&out);
		tp_nodeset_fini(&bn);
		tp_nodeset_fini(&again);
		tp_torus_free(t);
	}
	ck_assert_int_gt(packed, 20); /* the case was exercised */
	/* and the refusal, which the search settles from its largest
	 * shapes alone when none of them holds the job */
	ck_assert_int_gt(refused, 20);
}
END_TEST

START_TEST(test_allocations_are_free_boxes)
{
	static const char *const names[] = { "torus-base", "torus-fs", "torus-mss" };
	rnd_state = 12345;
	for (int round = 0; round < 60; round++) {
		tp_torus *t = random_torus();
		int N = tp_torus_nnodes(t), ntr = tp_torus_ntransit(t);
		tp_nodeset avail, out, bn;
		tp_nodeset_init(&avail, N);
		tp_nodeset_init(&out, N);
		tp_nodeset_init(&bn, N);
		random_state(t, &avail, 0.3 + 0.4 * rnd(100) / 100.0);
		tp_alloc_cfg cfg = { .nnodes = N, .torus = t };
		/* boxes only here (test_shapeless_pack has the rest) */
		tp_torus_opts so = *tp_torus_options(t);
		so.shapeless = TP_TORUS_SHAPELESS_REFUSE;
		tp_torus_set_options(t, &so, NULL);
		for (int m = 0; m < 3; m++) {
			tp_error err;
			tp_alloc *a = tp_alloc_create(names[m], &cfg, &err);
			ck_assert_msg(a != NULL, "%s", err.msg);
			for (int w = 1; w <= 12; w++) {
				int rc = tp_alloc_place(a, &avail, w, &out);
				tp_box b, bd;
				int rc2 = tp_torus_place(t, (tp_torus_method)m, &avail, w, 0, &b);
				int rc3 = tp_torus_place(t, (tp_torus_method)m, &avail, w,
							 TP_TORUS_PLACE_DIRECT, &bd);
				ck_assert_int_eq(rc, rc2);
				ck_assert_int_eq(rc, rc3);
				if (rc)
					continue;
				ck_assert(tp_torus_box_equal(t, &b, &bd));
				tp_nodeset_zero(&bn);
				tp_torus_box_nodes(t, &b, &bn);
				ck_assert(tp_nodeset_equal(&bn, &out));
				ck_assert(tp_nodeset_subset(&out, &avail));
				int k = tp_nodeset_count(&out);
				ck_assert_int_ge(k, w);
				ck_assert_int_le(k, w + ntr);
				ck_assert_int_eq(k, tp_torus_box_size(t, &b));
			}
			tp_alloc_destroy(a);
		}
		/* base = first free candidate, shape-major, by a full scan;
		 * fs(diameter) = base */
		tp_torus_opts o = *tp_torus_options(t);
		o.fs_order = TP_TORUS_FS_DIAMETER;
		tp_torus_set_options(t, &o, NULL);
		for (int w = 1; w <= 12; w++) {
			tp_torus_shape *sh;
			int nsh = tp_torus_shapes(t, w, ntr, &sh);
			tp_box want;
			bool found = false;
			for (int r = 0; r < nsh && !found; r++)
				for (long k = 0; k < tp_torus_placements(t, sh[r].len) && !found; k++) {
					tp_torus_placement(t, sh[r].len, k, &want);
					found = tp_torus_box_all_free(t, &want, &avail);
				}
			free(sh);
			tp_box b1, b2;
			int rc1 = tp_torus_place(t, TP_TORUS_BASE, &avail, w, 0, &b1);
			int rc2 = tp_torus_place(t, TP_TORUS_FS, &avail, w, 0, &b2);
			ck_assert_int_eq(rc1, found ? 0 : -1);
			ck_assert_int_eq(rc2, rc1);
			if (found) {
				ck_assert(tp_torus_box_equal(t, &b1, &want));
				ck_assert(tp_torus_box_equal(t, &b2, &want));
			}
		}
		tp_nodeset_fini(&avail);
		tp_nodeset_fini(&out);
		tp_nodeset_fini(&bn);
		tp_torus_free(t);
	}
}
END_TEST

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	Suite *s = suite_create("torus");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, test_row_major_index);
	tcase_add_test(tc, test_distance);
	tcase_add_test(tc, test_load_hostlist);
	tcase_add_test(tc, test_load_explicit_and_roundtrip);
	tcase_add_test(tc, test_method_anchor);
	tcase_add_test(tc, test_generate_roundtrip_options);
	tcase_add_test(tc, test_parser_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("boxes");
	tcase_add_test(tc, test_box_wraparound);
	tcase_add_test(tc, test_shapes_and_mean_diameter);
	tcase_add_test(tc, test_mean_diameter_closed_form);
	tcase_add_test(tc, test_shapes_maximal);
	tcase_add_test(tc, test_counts_match_node_by_node);
	tcase_add_test(tc, test_box_nodes_and_mean_distance_random);
	suite_add_tcase(s, tc);
	tc = tcase_create("alloc");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_create_needs_torus);
	tcase_add_test(tc, test_base_hand_worked);
	tcase_add_test(tc, test_fs_orders_hand_worked);
	tcase_add_test(tc, test_allocations_are_free_boxes);
	tcase_add_test(tc, test_shapeless_pack);
	tcase_add_test(tc, test_present_positions);
	suite_add_tcase(s, tc);
	int rc = tp_check_run(s);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		rc = EXIT_FAILURE;
	return rc;
}
