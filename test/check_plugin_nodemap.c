/* check_plugin_nodemap.c - unit tests for plugins/common/tpl_nodemap.c
 * (Slurm's bitstr_t from libslurmfull <-> the core's tp_nodeset). */
#include "check_util.h"

#include <string.h>

#include "tpl_nodemap.h"

/* A "topology" that is just an array of names. */
typedef struct names_topo {
	const char *const *names;
	int n;
} names_topo;

static int names_index(const void *topo, const char *name)
{
	const names_topo *t = topo;
	for (int j = 0; j < t->n; j++)
		if (!strcmp(t->names[j], name))
			return j;
	return -1;
}

/* Topology order differs from slurm.conf order; Slurm has a hole (NULL),
 * a node the tree lacks (x9), and the tree a node Slurm lacks (c4). */
static const char *const topo_names[] = { "a1", "a2", "b1", "b2", "c4" };
static const char *const slurm_names[] = { "b2", NULL, "a1", "x9", "b1", "a2" };

START_TEST(test_build_both_directions)
{
	names_topo t = { topo_names, 5 };
	tpl_nodemap m;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tpl_nodemap_build(&m, slurm_names, 6, &t, 5,
					   names_index, &err), 0);
	static const int want_to_topo[] = { 3, -1, 0, -1, 2, 1 };
	static const int want_to_slurm[] = { 2, 5, 4, 0, -1 };
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(m.to_topo[i], want_to_topo[i]);
	for (int j = 0; j < 5; j++)
		ck_assert_int_eq(m.to_slurm[j], want_to_slurm[j]);
	ck_assert_int_eq(m.nmissing, 1); /* x9; the hole does not count */
	ck_assert_int_eq(m.nunused, 1);  /* c4 */
	tpl_nodemap_fini(&m);
}
END_TEST

START_TEST(test_duplicate_mapping_is_an_error)
{
	static const char *const dup[] = { "a1", "b1", "a1" };
	names_topo t = { topo_names, 5 };
	tpl_nodemap m;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tpl_nodemap_build(&m, dup, 3, &t, 5, names_index,
					   &err), -1);
	ck_assert_msg(strstr(err.msg, "'a1'"), "%s", err.msg);
	ck_assert_ptr_null(m.to_topo);
}
END_TEST

START_TEST(test_bits_round_trip)
{
	names_topo t = { topo_names, 5 };
	tpl_nodemap m;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tpl_nodemap_build(&m, slurm_names, 6, &t, 5,
					   names_index, &err), 0);
	bitstr_t *b = bit_alloc(6);
	tp_nodeset s;
	tp_nodeset_init(&s, 5);

	/* b2, x9 (not in the tree: dropped), a2 */
	bit_set(b, 0);
	bit_set(b, 3);
	bit_set(b, 5);
	tpl_bits_to_set(&m, b, &s);
	char *txt = tp_nodeset_format(&s);
	ck_assert_str_eq(txt, "1,3"); /* a2 = 1, b2 = 3 */
	free(txt);

	/* Back: c4 (not in Slurm) is dropped, old bits are cleared. */
	tp_nodeset_set(&s, 4);
	tp_nodeset_set(&s, 0);
	tpl_set_to_bits(&m, &s, b);
	ck_assert_int_eq(bit_set_count(b), 3);
	ck_assert(bit_test(b, 0) && bit_test(b, 2) && bit_test(b, 5));
	ck_assert(!bit_test(b, 3));

	/* Every subset of mapped nodes survives the round trip. */
	for (int mask = 0; mask < 16; mask++) {
		tp_nodeset_zero(&s);
		for (int j = 0; j < 4; j++)
			if (mask & (1 << j))
				tp_nodeset_set(&s, j);
		tp_nodeset back;
		tp_nodeset_init(&back, 5);
		tpl_set_to_bits(&m, &s, b);
		tpl_bits_to_set(&m, b, &back);
		ck_assert(tp_nodeset_equal(&s, &back));
		ck_assert_int_eq(bit_set_count(b), tp_nodeset_count(&s));
		tp_nodeset_fini(&back);
	}
	tp_nodeset_fini(&s);
	bit_free(b);
	tpl_nodemap_fini(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plugin_nodemap");
	TCase *tc = tcase_create("nodemap");
	tcase_add_test(tc, test_build_both_directions);
	tcase_add_test(tc, test_duplicate_mapping_is_an_error);
	tcase_add_test(tc, test_bits_round_trip);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
