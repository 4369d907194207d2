/* check_outside.c - unit tests for nodes outside the topology: the one
 * decision which jobs may use them (alloc/outside.c) and a machine that
 * has them (machine/topo_outside.c): a 16-node fat tree or a 2x2 torus
 * with a node more, as a slurm.conf that lists a node its topology.conf
 * or torus.conf lacks. */
#include "check_util.h"
#include "tmpdir_util.h"

#include <string.h>

#include "alloc/outside.h"
#include "alloc/place.h"
#include "machine/describe.h"
#include "machine/topo.h"
#include "machine/torus_describe.h"
#include "trace/rng.h"

#define TREE16 "SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Nodes=n[5-8]\n" \
	"SwitchName=s2 Nodes=n[9-12]\nSwitchName=s3 Nodes=n[13-16]\n" \
	"SwitchName=top Switches=s[0-3]\n"

/* ---- helpers ---- */

/* The 16-node tree (TREE16) with allocator `alloc`, and n17 outside it
 * under `rule`. */
static void tree17(tp_topo *t, const char *alloc, tp_outside_rule rule)
{
	tp_topo_spec s;
	tp_error err = { { 0 } };
	const char *n17[] = { "n17" };
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.topology = tmpdir_write("topology.conf", TREE16);
	s.alloc = alloc;
	s.alloc_from = "--alloc ";
	ck_assert_msg(tp_topo_load(t, &s, &err) == 0, "%s", err.msg);
	ck_assert_msg(tp_topo_add_outside(t, n17, 1, rule, &err) == 0, "%s",
		      err.msg);
}

/* A node set of n nodes holding `idx` (ends at -1). */
static void set_of(tp_nodeset *s, int n, const int *idx)
{
	ck_assert_int_eq(tp_nodeset_init(s, n), 0);
	for (; *idx >= 0; idx++)
		tp_nodeset_set(s, *idx);
}

/* Place `req` on `free`: the placement as "0-1,16", "" when refused. */
static char *placed(tp_topo *t, const tp_nodeset *free, tp_alloc_req req)
{
	tp_nodeset out;
	ck_assert_int_eq(tp_nodeset_init(&out, t->nnodes), 0);
	int rc = tp_alloc_place_req(t->alloc, free, &req, &out);
	char *s = rc ? strdup("") : tp_nodeset_format(&out);
	tp_nodeset_fini(&out);
	return s;
}

static void assert_placed(tp_topo *t, const tp_nodeset *free_set,
			  tp_alloc_req req, const char *want)
{
	char *got = placed(t, free_set, req);
	ck_assert_msg(!strcmp(got, want), "placed '%s', want '%s'", got, want);
	free(got);
}

/* ---- the decision ---- */

START_TEST(test_allowed)
{
	tp_nodeset one, two;
	set_of(&one, 20, (int[]){ 16, -1 });
	set_of(&two, 20, (int[]){ 0, 16, -1 });
	/* Slurm 24.11's topology/tree, 22.05's select/linear + tree: never */
	ck_assert(!tp_outside_allowed(TP_OUTSIDE_NEVER, &(tp_alloc_req){ .nodes = 1 }));
	/* 26.05's: a job of one node only */
	ck_assert(tp_outside_allowed(TP_OUTSIDE_ONE_NODE, &(tp_alloc_req){ .nodes = 1 }));
	ck_assert(tp_outside_allowed(TP_OUTSIDE_ONE_NODE,
				     &(tp_alloc_req){ .nodes = 1, .max_nodes = 1 }));
	ck_assert(tp_outside_allowed(TP_OUTSIDE_ONE_NODE,
				     &(tp_alloc_req){ .nodes = 1, .required = &one }));
	ck_assert(!tp_outside_allowed(TP_OUTSIDE_ONE_NODE, &(tp_alloc_req){ .nodes = 2 }));
	/* a range that may grow past one node (Slurm's max_nodes > 1) */
	ck_assert(!tp_outside_allowed(TP_OUTSIDE_ONE_NODE,
				      &(tp_alloc_req){ .nodes = 1, .max_nodes = 2 }));
	/* two required nodes make a placement of two */
	ck_assert(!tp_outside_allowed(TP_OUTSIDE_ONE_NODE,
				      &(tp_alloc_req){ .nodes = 1, .required = &two }));
	tp_nodeset_fini(&one);
	tp_nodeset_fini(&two);
}
END_TEST

START_TEST(test_usable)
{
	tp_outside o = { .ninside = 16, .nnodes = 18, .rule = TP_OUTSIDE_ONE_NODE };
	tp_nodeset s;
	ck_assert_int_eq(tp_nodeset_init(&s, 18), 0);
	tp_nodeset_fill(&s);
	tp_outside_usable(&o, &(tp_alloc_req){ .nodes = 1 }, &s);
	ck_assert_int_eq(tp_nodeset_count(&s), 18);
	tp_outside_usable(&o, &(tp_alloc_req){ .nodes = 3 }, &s);
	ck_assert_int_eq(tp_nodeset_count(&s), 16);
	ck_assert_int_eq(tp_nodeset_next(&s, 16), -1);
	o.rule = TP_OUTSIDE_NEVER;
	tp_nodeset_fill(&s);
	tp_outside_usable(&o, &(tp_alloc_req){ .nodes = 1 }, &s);
	ck_assert_int_eq(tp_nodeset_count(&s), 16);
	tp_nodeset_fini(&s);

	tp_outside_rule r;
	ck_assert_int_eq(tp_outside_rule_parse("one-node", &r), 0);
	ck_assert_int_eq(r, TP_OUTSIDE_ONE_NODE);
	ck_assert_int_eq(tp_outside_rule_parse("never", &r), 0);
	ck_assert_int_eq(r, TP_OUTSIDE_NEVER);
	ck_assert_int_eq(tp_outside_rule_parse("always", &r), -1);
	ck_assert_str_eq(tp_outside_rule_name(TP_OUTSIDE_ONE_NODE), "one-node");
}
END_TEST

/* ---- a fat tree with a node outside it ---- */

START_TEST(test_tree_machine)
{
	tp_topo t;
	char line[1024];
	tree17(&t, "fattree", TP_OUTSIDE_ONE_NODE);
	ck_assert_int_eq(t.nnodes, 17);
	ck_assert_int_eq(t.ninside, 16);
	ck_assert_int_eq(tp_topo_noutside(&t), 1);
	ck_assert_int_eq(tp_topo_node_index(&t, "n17"), 16);
	ck_assert_int_eq(tp_topo_node_index(&t, "n16"), 15);
	ck_assert_int_eq(tp_topo_node_index(&t, "n18"), -1);
	ck_assert_str_eq(tp_topo_node_name(&t, 16), "n17");
	ck_assert_ptr_null(tp_topo_node_name(&t, 17));
	ck_assert_int_eq(t.alloc->nnodes, 17);
	ck_assert_str_eq(t.alloc->ops->name, "fattree");
	/* outside nodes are one node group more (--switches) */
	ck_assert_int_eq(t.groups->ngroups, 5);
	ck_assert_int_eq(t.groups->of[16], 4);
	ck_assert_int_eq(t.groups->of[15], 3);

	tp_topo_machine_line(&t, line, sizeof(line));
	ck_assert_msg(strstr(line, "16 nodes, 4 leaf switches, 2 switch levels, 1 fabric, and 1 node outside it"),
		      "%s", line);
	ck_assert_int_eq(tp_topo_outside_line(&t, line, sizeof(line)), 1);
	ck_assert_msg(strstr(line, "1 node is not in ") && strstr(line, "topology.conf: n17; outside the tree, only a job of one node"),
		      "%s", line);
	ck_assert_ptr_nonnull(strstr(t.describe, "1 node(s) outside it (outside nodes: one-node)"));
	tp_topo_fini(&t);

	/* without outside nodes there is no such line */
	tp_topo_spec s;
	tp_error err = { { 0 } };
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.topology = tmpdir_write("topology.conf", TREE16);
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), 0);
	ck_assert_int_eq(tp_topo_outside_line(&t, line, sizeof(line)), 0);
	ck_assert_str_eq(line, "");
	tp_topo_machine_line(&t, line, sizeof(line));
	ck_assert_ptr_null(strstr(line, "outside it"));
	tp_topo_fini(&t);
}
END_TEST

/* Slurm 26.05's rule: one-node jobs may use n17, the topology first. */
START_TEST(test_tree_one_node_rule)
{
	tp_topo t;
	tp_nodeset all, n1_n17, n17;
	tree17(&t, "fattree", TP_OUTSIDE_ONE_NODE);
	ck_assert_int_eq(tp_nodeset_init(&all, 17), 0);
	tp_nodeset_fill(&all);
	set_of(&n1_n17, 17, (int[]){ 0, 16, -1 });
	set_of(&n17, 17, (int[]){ 16, -1 });

	/* a topology node while there is one */
	char *got = placed(&t, &all, (tp_alloc_req){ .nodes = 1 });
	ck_assert_msg(strcmp(got, "16") && got[0], "%s", got);
	free(got);
	assert_placed(&t, &n1_n17, (tp_alloc_req){ .nodes = 1 }, "0");
	/* n17 when the tree is full */
	assert_placed(&t, &n17, (tp_alloc_req){ .nodes = 1 }, "16");
	assert_placed(&t, &n17, (tp_alloc_req){ .nodes = 1, .max_nodes = 1 }, "16");
	/* never in a placement of more nodes */
	assert_placed(&t, &n1_n17, (tp_alloc_req){ .nodes = 2 }, "");
	assert_placed(&t, &n17, (tp_alloc_req){ .nodes = 1, .max_nodes = 2 }, "");
	/* -w n17 alone; -w n17,n1 is two nodes */
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 1, .required = &n17 }, "16");
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 2, .required = &n17 }, "");
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 1, .required = &n1_n17 }, "");
	/* constraints hold on n17 too */
	assert_placed(&t, &n17, (tp_alloc_req){ .nodes = 1, .contiguous = true }, "16");
	assert_placed(&t, &n17, (tp_alloc_req){ .nodes = 1, .max_groups = 1 }, "16");
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 1, .allowed = &n17 }, "16");
	/* a range: the most nodes that fit, then one node */
	tp_nodeset out;
	ck_assert_int_eq(tp_nodeset_init(&out, 17), 0);
	ck_assert_int_eq(tp_place_range(t.alloc, &n1_n17, 1, 2, NULL, &out), 1);
	ck_assert_int_eq(tp_nodeset_next(&out, 0), 0);
	/* the cost and the log line of a placement on n17 */
	ck_assert(tp_alloc_cost(t.alloc, &n17) == 0.0);
	char desc[256];
	tp_describe_fattree(&t, t.alloc, &n17, 1, desc, sizeof(desc));
	ck_assert_str_eq(desc, "outside the tree");
	/* outside nodes take no part in the tree's fragmentation */
	ck_assert_uint_eq(tp_topo_fragmentation(&t, &all), 0);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&n1_n17);
	tp_nodeset_fini(&n17);
	tp_topo_fini(&t);
}
END_TEST

/* Slurm 24.11's rule: n17 is never used. */
START_TEST(test_tree_never_rule)
{
	tp_topo t;
	tp_nodeset all, n17;
	tree17(&t, "tree-slurm", TP_OUTSIDE_NEVER);
	ck_assert_int_eq(tp_nodeset_init(&all, 17), 0);
	tp_nodeset_fill(&all);
	set_of(&n17, 17, (int[]){ 16, -1 });
	assert_placed(&t, &n17, (tp_alloc_req){ .nodes = 1 }, "");
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 1, .required = &n17 }, "");
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 17 }, "");
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 16 }, "0-15");
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&n17);
	tp_topo_fini(&t);
}
END_TEST

/* Every fat-tree allocator, random free sets: a placement of more than
 * one node never holds n17, one of one node holds it only when no tree
 * node is free; and never one at all under TP_OUTSIDE_NEVER. */
START_TEST(test_tree_allocators_property)
{
	static const char *const allocs[] = { "fattree", "fattree-msu",
					      "tree-greedy", "tree-slurm",
					      "first-free" };
	for (size_t a = 0; a < 5; a++)
		for (int rule = 0; rule < 2; rule++) {
			tp_topo t;
			tp_rng rng;
			tp_nodeset free, out;
			tree17(&t, allocs[a], (tp_outside_rule)rule);
			tp_rng_seed(&rng, 7 + a);
			ck_assert_int_eq(tp_nodeset_init(&free, 17), 0);
			ck_assert_int_eq(tp_nodeset_init(&out, 17), 0);
			ck_assert(!(t.alloc->flags & TP_ALLOC_FLAT));
			int seen17 = 0;
			for (int k = 0; k < 400; k++) {
				/* every 8th: a full tree, n17 free (the case) */
				double density = k % 8 ? tp_rng_uniform(&rng) * 0.6 : 0;
				tp_nodeset_zero(&free);
				for (int i = 0; i < 17; i++)
					if (tp_rng_uniform(&rng) < density)
						tp_nodeset_set(&free, i);
				if (k % 8 == 0)
					tp_nodeset_set(&free, 16);
				int n = 1 + (int)(tp_rng_uniform(&rng) * 4);
				if (tp_alloc_place_req(t.alloc, &free,
						       &(tp_alloc_req){ .nodes = n }, &out))
					continue;
				bool on17 = tp_nodeset_test(&out, 16);
				seen17 += on17;
				int inside_free = tp_nodeset_count(&free) -
						  tp_nodeset_test(&free, 16);
				ck_assert_msg(!on17 || (rule == TP_OUTSIDE_ONE_NODE &&
					      n == 1 && inside_free == 0),
					      "%s rule %d: %d nodes on n17 with %d tree nodes free",
					      allocs[a], rule, n, inside_free);
			}
			/* the case was met (the draws are seeded) */
			if (rule == TP_OUTSIDE_ONE_NODE)
				ck_assert_int_gt(seen17, 0);
			tp_nodeset_fini(&free);
			tp_nodeset_fini(&out);
			tp_topo_fini(&t);
		}
}
END_TEST

START_TEST(test_add_outside_errors)
{
	tp_topo t;
	tp_topo_spec s;
	tp_error err = { { 0 } };
	const char *taken[] = { "n17", "n3" }, *twice[] = { "x1", "x2", "x1" };
	const char *empty[] = { "" }, *ok[] = { "x1" };

	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.topology = tmpdir_write("topology.conf", TREE16);
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), 0);
	ck_assert_int_eq(tp_topo_add_outside(&t, taken, 2, TP_OUTSIDE_NEVER, &err), -1);
	ck_assert_msg(strstr(err.msg, "node 'n3' is in ") &&
		      strstr(err.msg, "topology.conf"), "%s", err.msg);
	tp_topo_fini(&t);

	ck_assert_int_eq(tp_topo_load(&t, &s, &err), 0);
	ck_assert_int_eq(tp_topo_add_outside(&t, twice, 3, TP_OUTSIDE_NEVER, &err), -1);
	ck_assert_msg(strstr(err.msg, "node 'x1' is given twice"), "%s", err.msg);
	tp_topo_fini(&t);

	ck_assert_int_eq(tp_topo_load(&t, &s, &err), 0);
	ck_assert_int_eq(tp_topo_add_outside(&t, empty, 1, TP_OUTSIDE_NEVER, &err), -1);
	ck_assert_msg(strstr(err.msg, "empty node name"), "%s", err.msg);
	tp_topo_fini(&t);

	/* once per machine; none: nothing changes */
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), 0);
	ck_assert_int_eq(tp_topo_add_outside(&t, ok, 0, TP_OUTSIDE_NEVER, &err), 0);
	ck_assert_int_eq(t.nnodes, 16);
	ck_assert_int_eq(tp_topo_add_outside(&t, ok, 1, TP_OUTSIDE_NEVER, &err), 0);
	ck_assert_int_eq(tp_topo_add_outside(&t, ok, 1, TP_OUTSIDE_NEVER, &err), -1);
	ck_assert_msg(strstr(err.msg, "known already"), "%s", err.msg);
	tp_topo_fini(&t);

	/* a flat machine has no topology file to lack a node */
	tp_topo_spec_init(&s, TP_TOPO_FLAT);
	s.nnodes = 4;
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), 0);
	ck_assert_int_eq(tp_topo_add_outside(&t, ok, 1, TP_OUTSIDE_NEVER, &err), -1);
	ck_assert_msg(strstr(err.msg, "flat machine"), "%s", err.msg);
	tp_topo_fini(&t);
}
END_TEST

/* ---- a torus with a node outside it ---- */

START_TEST(test_torus_machine)
{
	tp_topo t;
	tp_topo_spec s;
	tp_error err = { { 0 } };
	const char *n5[] = { "n5" };
	char line[512], desc[256];
	tp_nodeset all, two, out;

	tp_topo_spec_init(&s, TP_TOPO_TORUS);
	s.conf = tmpdir_write("torus.conf", "Dimensions=2x2\nNodes=n[1-4]\n");
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(tp_topo_add_outside(&t, n5, 1, TP_OUTSIDE_ONE_NODE, &err), 0);
	ck_assert_int_eq(tp_topo_node_index(&t, "n5"), 4);
	tp_topo_machine_line(&t, line, sizeof(line));
	ck_assert_msg(strstr(line, "torus of ") && strstr(line, ": 2x2, 4 nodes, and 1 node outside it"),
		      "%s", line);
	tp_topo_outside_line(&t, line, sizeof(line));
	ck_assert_msg(strstr(line, "outside the torus"), "%s", line);

	ck_assert_int_eq(tp_nodeset_init(&all, 5), 0);
	ck_assert_int_eq(tp_nodeset_init(&out, 5), 0);
	tp_nodeset_fill(&all);
	/* a box of the torus, never with n5 */
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 4 }, "0-3");
	assert_placed(&t, &all, (tp_alloc_req){ .nodes = 5 }, "");
	set_of(&two, 5, (int[]){ 3, 4, -1 });
	assert_placed(&t, &two, (tp_alloc_req){ .nodes = 2 }, "");
	assert_placed(&t, &two, (tp_alloc_req){ .nodes = 1 }, "3");
	tp_nodeset_clear(&two, 3);
	assert_placed(&t, &two, (tp_alloc_req){ .nodes = 1 }, "4");
	tp_describe_torus_topo(&t, t.alloc, &two, 1, desc, sizeof(desc));
	ck_assert_str_eq(desc, "outside the torus");
	tp_nodeset_zero(&out);
	tp_nodeset_set(&out, 0);
	tp_nodeset_set(&out, 1);
	tp_describe_torus_topo(&t, t.alloc, &out, 2, desc, sizeof(desc));
	ck_assert_msg(strstr(desc, "box_len=") && !strstr(desc, "outside="), "%s", desc);
	/* the fragmentation of the torus alone: n5 free or not */
	tp_nodeset_clear(&all, 4);
	uint64_t f = tp_topo_fragmentation(&t, &all);
	tp_nodeset_set(&all, 4);
	ck_assert_uint_eq(tp_topo_fragmentation(&t, &all), f);
	ck_assert_uint_eq(f, 0);
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&two);
	tp_nodeset_fini(&out);
	tp_topo_fini(&t);
}
END_TEST

int main(void)
{
	if (tmpdir_make("check_outside"))
		return EXIT_FAILURE;
	Suite *s = suite_create("outside");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_allowed);
	tcase_add_test(tc, test_usable);
	tcase_add_test(tc, test_tree_machine);
	tcase_add_test(tc, test_tree_one_node_rule);
	tcase_add_test(tc, test_tree_never_rule);
	tcase_add_test(tc, test_tree_allocators_property);
	tcase_add_test(tc, test_add_outside_errors);
	tcase_add_test(tc, test_torus_machine);
	suite_add_tcase(s, tc);
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
