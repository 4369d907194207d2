/* check_plugin_torus_map.c - select/torus's translation between Slurm's
 * node bitmaps (bitstr_t, slurm.conf order; libslurmfull) and torus node
 * sets (torus.conf order) by node name: plugins/common/tpl_nodemap.c with
 * the torus's name index (tp_torus_node_index), and boxes
 * seen through the map (machine/torus_describe.c). */
#include "check_util.h"

#include <stdio.h>
#include <string.h>

#include "trace/rng.h"
#include "topology/torus.h"
#include "tpl_nodemap.h"
#include "machine/torus_describe.h"

#define NSLURM 64

/* 4x4x2x2 torus n1..n64; Slurm lists the same names in a shuffled order
 * (seeded), as a slurm.conf with several NodeName lines may. */
typedef struct fixture {
	tp_torus *t;
	char *names[NSLURM];
	tpl_nodemap m;
} fixture;

static int torus_index(const void *t, const char *name)
{
	return tp_torus_node_index(t, name);
}

static void fixture_init(fixture *f, uint64_t seed)
{
	int dims[] = { 4, 4, 2, 2 };
	tp_error err = { { 0 } };
	f->t = tp_torus_generate(4, dims, NULL, &err);
	ck_assert_msg(f->t, "%s", err.msg);
	int order[NSLURM];
	for (int i = 0; i < NSLURM; i++)
		order[i] = i;
	tp_rng rng;
	tp_rng_seed(&rng, seed);
	for (int i = NSLURM - 1; i > 0; i--) {
		int j = (int)tp_rng_below(&rng, (uint64_t)i + 1);
		int x = order[i];
		order[i] = order[j];
		order[j] = x;
	}
	for (int i = 0; i < NSLURM; i++) {
		char buf[16];
		snprintf(buf, sizeof(buf), "n%d", order[i] + 1);
		f->names[i] = strdup(buf);
	}
	ck_assert_int_eq(tpl_nodemap_build(&f->m, (const char *const *)f->names,
					   NSLURM, f->t, 64,
					   torus_index, &err), 0);
}

static void fixture_fini(fixture *f)
{
	tpl_nodemap_fini(&f->m);
	for (int i = 0; i < NSLURM; i++)
		free(f->names[i]);
	tp_torus_free(f->t);
}

START_TEST(test_map_by_name)
{
	fixture f;
	fixture_init(&f, 7);
	ck_assert_int_eq(f.m.nmissing, 0);
	ck_assert_int_eq(f.m.nunused, 0);
	for (int i = 0; i < NSLURM; i++) {
		int j = f.m.to_topo[i];
		ck_assert_str_eq(tp_torus_node_name(f.t, j), f.names[i]);
		ck_assert_int_eq(f.m.to_slurm[j], i);
	}
	fixture_fini(&f);
}
END_TEST

/* A box placed by the core, handed to Slurm as a bitmap and read back,
 * is the same box; the bitmap's bits name exactly the box's nodes. */
START_TEST(test_box_through_bitmap)
{
	fixture f;
	fixture_init(&f, 11);
	tp_nodeset s, back;
	tp_nodeset_init(&s, 64);
	tp_nodeset_init(&back, 64);
	bitstr_t *b = bit_alloc(NSLURM);
	int len[TP_TORUS_MAX_DIMS] = { 3, 2, 1, 2 };
	long np = tp_torus_placements(f.t, len);
	ck_assert_int_eq(np, 4 * 4 * 2 * 1); /* spanned ring 3: offset 0 */
	for (long k = 0; k < np; k++) {
		tp_box want, got;
		tp_torus_placement(f.t, len, k, &want);
		tp_nodeset_zero(&s);
		tp_torus_box_nodes(f.t, &want, &s);
		tpl_set_to_bits(&f.m, &s, b);
		ck_assert_int_eq(bit_set_count(b), 12);
		for (int i = 0; i < NSLURM; i++) {
			int j = tp_torus_node_index(f.t, f.names[i]);
			ck_assert_int_eq(bit_test(b, i) != 0,
					 tp_torus_box_contains(f.t, &want, j));
		}
		tpl_bits_to_set(&f.m, b, &back);
		ck_assert(tp_nodeset_equal(&s, &back));
		ck_assert_int_eq(tp_box_of(f.t, &back, &got), 0);
		ck_assert(tp_torus_box_equal(f.t, &want, &got));
	}
	bit_free(b);
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&back);
	fixture_fini(&f);
}
END_TEST

/* A Slurm bitmap that is not a box in Slurm's order can be one on the
 * torus, and the other way round: the test is on torus coordinates. */
START_TEST(test_box_is_a_torus_notion)
{
	fixture f;
	fixture_init(&f, 3);
	bitstr_t *b = bit_alloc(NSLURM);
	tp_nodeset s;
	tp_nodeset_init(&s, 64);
	tp_box box;

	/* Slurm bits 0..3 (consecutive in slurm.conf): almost surely no
	 * box on the torus with this shuffle; n1..n4 (torus indices 0..3,
	 * a 1x1x2x2 box) are spread over Slurm's order. */
	for (int i = 0; i < 4; i++)
		bit_set(b, i);
	tpl_bits_to_set(&f.m, b, &s);
	bool first4_box = tp_box_of(f.t, &s, &box) == 0;
	tp_nodeset_zero(&s);
	tp_nodeset_set_range(&s, 0, 4);
	tpl_set_to_bits(&f.m, &s, b);
	int lo = NSLURM, hi = -1;
	for (int i = 0; i < NSLURM; i++)
		if (bit_test(b, i)) {
			lo = i < lo ? i : lo;
			hi = i > hi ? i : hi;
		}
	ck_assert_int_eq(bit_set_count(b), 4);
	tpl_bits_to_set(&f.m, b, &s);
	ck_assert_int_eq(tp_box_of(f.t, &s, &box), 0);
	ck_assert_int_eq(box.len[2] * box.len[3], 4);
	/* with seed 3 the four Slurm indices are not consecutive, and Slurm's
	 * first four are not a box: the fixture shows what it claims */
	ck_assert_int_gt(hi - lo, 3);
	ck_assert(!first4_box);
	bit_free(b);
	tp_nodeset_fini(&s);
	fixture_fini(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plugin_torus_map");
	TCase *tc = tcase_create("map");
	tcase_add_test(tc, test_map_by_name);
	tcase_add_test(tc, test_box_through_bitmap);
	tcase_add_test(tc, test_box_is_a_torus_notion);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
