/* check_fabrics.c - unit tests for fabrics (topology/fattree_fabric.c):
 * the connected components of a topology.conf's switches, the load
 * warning naming them, hop sums that never cross the virtual root, and
 * every fat-tree allocator (fattree, tree-greedy, tree-slurm,
 * tree-slurm-26.05) refusing a placement across two fabrics, alone and
 * under tp_alloc_place_req's constraints (required nodes, contiguous,
 * --switches). */
#include "check_util.h"
#include "tmpdir_util.h"

#include <stdio.h>
#include <string.h>

#include "alloc/alloc.h"
#include "machine/topo.h"
#include "topology/fattree.h"
#include "trace/rng.h"

/* Two 8-node islands of two 4-node leaves each, no spine, and a 2-node
 * leaf of its own: three fabrics.  Fabrics are numbered in node order,
 * which is file order: the orphan's nodes come first. */
#define THREE "SwitchName=orphan Nodes=n[17-18]\n" \
	"SwitchName=a1 Nodes=n[1-4]\nSwitchName=a2 Nodes=n[5-8]\n" \
	"SwitchName=b1 Nodes=n[9-12]\nSwitchName=b2 Nodes=n[13-16]\n" \
	"SwitchName=A Switches=a[1-2]\nSwitchName=B Switches=b[1-2]\n"
/* The two islands only. */
#define TWO "SwitchName=a1 Nodes=n[1-4]\nSwitchName=a2 Nodes=n[5-8]\n" \
	"SwitchName=b1 Nodes=n[9-12]\nSwitchName=b2 Nodes=n[13-16]\n" \
	"SwitchName=A Switches=a[1-2]\nSwitchName=B Switches=b[1-2]\n"
/* The same joined by a spine: one fabric. */
#define JOINED TWO "SwitchName=spine Switches=A,B\n"

static const char *const tree_allocs[] = { "fattree", "fattree-msu",
	"tree-greedy", "tree-slurm", "tree-slurm-26.05", NULL };
#define NALLOC 5

static tp_fattree *load(const char *name, const char *text)
{
	tp_error err = { { 0 } };
	tp_fattree *t = tp_fattree_load(tmpdir_write(name, text), &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static tp_alloc *make(const char *name, const tp_fattree *t)
{
	tp_error err = { { 0 } };
	tp_alloc_cfg cfg = { .nnodes = t->nnodes, .fattree = t };
	tp_alloc *a = tp_alloc_create(name, &cfg, &err);
	ck_assert_msg(a != NULL, "%s: %s", name, err.msg);
	return a;
}

static void msu(tp_fattree *t, int size)
{
	tp_fattree_opts o;
	tp_error err = { { 0 } };
	tp_fattree_opts_default(&o);
	o.msu_size = size;
	ck_assert_int_eq(tp_fattree_set_opts(t, &o, &err), 0);
}

/* Node set of the named nodes of t ("n1,n5,..."). */
static void named(const tp_fattree *t, tp_nodeset *s, const char *list)
{
	char buf[512], *save = NULL;
	ck_assert_int_eq(tp_nodeset_init(s, t->nnodes), 0);
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		int v = tp_fattree_node_index(t, p);
		ck_assert_msg(v >= 0, "no node %s", p);
		tp_nodeset_set(s, v);
	}
}

/* The placement's node names, "" when refused. */
static char *place_names(const tp_fattree *t, tp_alloc *a,
			 const tp_nodeset *free, tp_alloc_req req)
{
	tp_nodeset out;
	char *s = calloc(1, 1024);
	ck_assert_int_eq(tp_nodeset_init(&out, t->nnodes), 0);
	if (tp_alloc_place_req(a, free, &req, &out) == 0)
		for (int v = tp_nodeset_next(&out, 0); v >= 0;
		     v = tp_nodeset_next(&out, v + 1))
			snprintf(s + strlen(s), 1024 - strlen(s), "%s%s",
				 *s ? "," : "", t->node_name[v]);
	tp_nodeset_fini(&out);
	return s;
}

/* ---- the model ---- */

START_TEST(test_components)
{
	tp_fattree *t = load("three.conf", THREE);
	ck_assert_int_eq(t->nfabric, 3);
	ck_assert_str_eq(t->sw[t->fabric_root[0]].name, "orphan");
	ck_assert_str_eq(t->sw[t->fabric_root[1]].name, "A");
	ck_assert_str_eq(t->sw[t->fabric_root[2]].name, "B");
	const char *want[][2] = { { "n1", "A" }, { "n8", "A" }, { "n9", "B" },
		{ "n16", "B" }, { "n17", "orphan" }, { "n18", "orphan" } };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int f = tp_fattree_node_fabric(t, tp_fattree_node_index(t, want[i][0]));
		ck_assert_str_eq(t->sw[t->fabric_root[f]].name, want[i][1]);
	}
	for (int v = 0; v < t->nswitch; v++)
		if (t->sw[v].is_virtual)
			ck_assert_int_eq(t->sw[v].fabric, -1);
		else
			ck_assert_int_ge(t->sw[v].fabric, 0);
	char *nodes = tp_fattree_fabric_nodes(t, 2);
	ck_assert_str_eq(nodes, "n[9-16]");
	free(nodes);

	tp_nodeset s;
	int other = -1;
	named(t, &s, "n1,n5,n8");
	ck_assert_int_eq(tp_fattree_set_fabric(t, &s, &other), 1);
	tp_nodeset_set(&s, tp_fattree_node_index(t, "n17"));
	ck_assert_int_eq(tp_fattree_set_fabric(t, &s, &other), -2);
	ck_assert_str_eq(t->node_name[other], "n1"); /* n17 is node 0 */
	tp_nodeset_zero(&s);
	ck_assert_int_eq(tp_fattree_set_fabric(t, &s, NULL), -1);
	tp_nodeset_fini(&s);
	tp_fattree_free(t);

	t = load("joined.conf", JOINED);
	ck_assert_int_eq(t->nfabric, 1);
	ck_assert_str_eq(t->sw[t->fabric_root[0]].name, "spine");
	ck_assert_ptr_null(tp_fattree_fabrics_warning(t));
	tp_fattree_free(t);
	tp_error err = { { 0 } };
	t = tp_fattree_generate(3, 4, &err);
	ck_assert_int_eq(t->nfabric, 1);
	tp_fattree_free(t);
}
END_TEST

START_TEST(test_warning)
{
	tp_fattree *t = load("three.conf", THREE);
	char *w = tp_fattree_fabrics_warning(t), want[1024];
	snprintf(want, sizeof(want),
		 "%s/three.conf: 3 fabrics with no switch above them: fabric 1 = orphan (n[17-18]), fabric 2 = A (n[1-8]), fabric 3 = B (n[9-16]); no job will span two; write a spine switch to join them",
		 tmpdir);
	ck_assert_str_eq(w, want);
	free(w);
	tp_fattree_free(t);
	/* Many fabrics: the first eight named, the rest counted. */
	char text[2048] = "";
	for (int i = 1; i <= 11; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "SwitchName=s%d Nodes=n%d\n", i, i);
	t = load("eleven.conf", text);
	ck_assert_int_eq(t->nfabric, 11);
	w = tp_fattree_fabrics_warning(t);
	ck_assert_ptr_nonnull(strstr(w, ": 11 fabrics with no switch above them: fabric 1 = s1 (n1), "));
	ck_assert_ptr_nonnull(strstr(w, "fabric 8 = s8 (n8) and 3 more; no job will span two"));
	free(w);
	tp_fattree_free(t);
}
END_TEST

/* Hops inside a fabric are those of the same fabric joined by a spine:
 * the virtual root is never counted. */
START_TEST(test_hops_per_fabric)
{
	tp_fattree *two = load("two.conf", TWO), *one = load("joined.conf", JOINED);
	msu(two, 1);
	msu(one, 1);
	const char *sets[] = { "n1,n2", "n1,n5", "n1,n2,n5,n8", "n9,n13,n14" };
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		tp_nodeset a, b;
		named(two, &a, sets[i]);
		named(one, &b, sets[i]);
		ck_assert_int_eq(tp_fattree_hop_sum(two, &a), tp_fattree_hop_sum(one, &b));
		tp_nodeset_fini(&a);
		tp_nodeset_fini(&b);
	}
	int n1 = tp_fattree_node_index(two, "n1"), n5 = tp_fattree_node_index(two, "n5");
	ck_assert_int_eq(tp_fattree_hops(two, n1, n5), 3);
	tp_fattree_free(two);
	tp_fattree_free(one);
}
END_TEST

/* ---- every allocator alone ---- */

/* Five free nodes in each island (a whole leaf and one more): 6 nodes
 * would need both. */
START_TEST(test_alloc_refuses_span)
{
	tp_fattree *t = load("two.conf", TWO);
	msu(t, 4);
	{ /* one allocator a run: tcase_add_loop_test */
		const char *const *n = &tree_allocs[_i];
		tp_alloc *a = make(*n, t);
		tp_nodeset fr;
		named(t, &fr, "n1,n2,n3,n4,n5,n9,n10,n11,n12,n13");
		char *got = place_names(t, a, &fr, (tp_alloc_req){ .nodes = 6 });
		ck_assert_msg(!*got, "%s placed 6 nodes across fabrics: %s", *n, got);
		free(got);
		got = place_names(t, a, &fr, (tp_alloc_req){ .nodes = 4 });
		ck_assert_msg(!strcmp(got, "n1,n2,n3,n4") || !strcmp(got, "n9,n10,n11,n12"),
			      "%s: 4 nodes on %s", *n, got);
		free(got);
		tp_nodeset_fill(&fr);
		got = place_names(t, a, &fr, (tp_alloc_req){ .nodes = 9 });
		ck_assert_msg(!*got, "%s placed 9 nodes on two 8-node fabrics: %s", *n, got);
		free(got);
		got = place_names(t, a, &fr, (tp_alloc_req){ .nodes = 8 });
		ck_assert_msg(!strcmp(got, "n1,n2,n3,n4,n5,n6,n7,n8") ||
			      !strcmp(got, "n9,n10,n11,n12,n13,n14,n15,n16"),
			      "%s: 8 nodes on %s", *n, got);
		free(got);
		tp_nodeset_fini(&fr);
		tp_alloc_destroy(a);
	}
	tp_fattree_free(t);
}
END_TEST

/* Random free sets: a placement lies in one fabric; the tree allocators
 * place whenever one fabric has enough free nodes (as Slurm does). */
START_TEST(test_alloc_random)
{
	tp_fattree *t = load("three.conf", THREE);
	msu(t, 2);
	tp_rng rng;
	tp_rng_seed(&rng, 27);
	{ /* one allocator a run: tcase_add_loop_test */
		const char *const *n = &tree_allocs[_i];
		tp_alloc *a = make(*n, t);
		tp_nodeset fr, out;
		tp_nodeset_init(&fr, t->nnodes);
		tp_nodeset_init(&out, t->nnodes);
		for (int round = 0; round < 2000; round++) {
			int most = 0, cnt[3] = { 0 };
			tp_nodeset_zero(&fr);
			for (int v = 0; v < t->nnodes; v++)
				if (tp_rng_next(&rng) % 3) {
					tp_nodeset_set(&fr, v);
					cnt[tp_fattree_node_fabric(t, v)]++;
				}
			for (int f = 0; f < 3; f++)
				most = cnt[f] > most ? cnt[f] : most;
			int want = 1 + (int)(tp_rng_next(&rng) % 12);
			int rc = tp_alloc_place_req(a, &fr, &(tp_alloc_req){ .nodes = want }, &out);
			if (rc == 0 && tp_fattree_set_fabric(t, &out, NULL) < 0)
				ck_abort_msg("%s: %d nodes across fabrics", *n, want);
			if (rc == 0 && want > most)
				ck_abort_msg("%s: %d nodes placed, largest fabric has %d free", *n, want, most);
			if (rc != 0 && want <= most && strcmp(*n, "fattree-msu"))
				ck_abort_msg("%s: %d nodes refused, a fabric has %d free", *n, want, most);
		}
		tp_nodeset_fini(&fr);
		tp_nodeset_fini(&out);
		tp_alloc_destroy(a);
	}
	tp_fattree_free(t);
}
END_TEST

/* fattree with short units: the least unit count over all fabrics (3:
 * a1's unit and two of B's 2-node units) fits in none; B's four units
 * (k = 4) hold the job. */
START_TEST(test_fattree_short_units_one_fabric)
{
	tp_fattree *t = load("short.conf",
		"SwitchName=a1 Nodes=n[1-4]\n"
		"SwitchName=b1 Nodes=n[5-6]\nSwitchName=b2 Nodes=n[7-8]\n"
		"SwitchName=b3 Nodes=n[9-10]\nSwitchName=b4 Nodes=n[11-12]\n"
		"SwitchName=B Switches=b[1-4]\n");
	msu(t, 4);
	ck_assert_int_eq(t->nfabric, 2);
	tp_alloc *a = make("fattree-msu", t);
	tp_nodeset fr;
	tp_nodeset_init(&fr, t->nnodes);
	tp_nodeset_fill(&fr);
	char *got = place_names(t, a, &fr, (tp_alloc_req){ .nodes = 7 });
	ck_assert_str_eq(got, "n5,n6,n7,n8,n9,n10,n11");
	free(got);
	got = place_names(t, a, &fr, (tp_alloc_req){ .nodes = 9 });
	ck_assert_str_eq(got, "");
	free(got);
	tp_nodeset_fini(&fr);
	tp_alloc_destroy(a);
	tp_fattree_free(t);
}
END_TEST

/* ---- constraints through the machine (tp_alloc_place_req) ---- */

static void machine(tp_topo *m, const char *alloc)
{
	tp_topo_spec s;
	tp_error err = { { 0 } };
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.topology = tmpdir_write("two.conf", TWO);
	s.alloc = alloc;
	s.alloc_from = "--alloc ";
	ck_assert_msg(tp_topo_load(m, &s, &err) == 0, "%s", err.msg);
}

START_TEST(test_constraints_one_fabric)
{
	{ /* one allocator a run: tcase_add_loop_test */
		const char *const *n = &tree_allocs[_i];
		tp_topo m = { 0 };
		machine(&m, *n);
		const tp_fattree *t = m.tree;
		tp_nodeset fr, req;
		named(t, &fr, "n1,n2,n3,n4,n5,n6,n7,n8,n9,n10,n11,n12,n13,n14,n15,n16");
		/* required nodes in two fabrics: never */
		named(t, &req, "n1,n9");
		char *got = place_names(t, m.alloc, &fr,
			(tp_alloc_req){ .nodes = 4, .required = &req });
		ck_assert_msg(!*got, "%s: required n1,n9 placed: %s", *n, got);
		free(got);
		/* required n1: the rest from its fabric */
		tp_nodeset_fini(&req);
		named(t, &req, "n1");
		got = place_names(t, m.alloc, &fr,
			(tp_alloc_req){ .nodes = 2, .required = &req });
		ck_assert_msg(*got && tp_fattree_node_fabric(t, tp_fattree_node_index(t,
				strrchr(got, ',') ? strrchr(got, ',') + 1 : got)) == 0 &&
			      !strncmp(got, "n1,", 3),
			      "%s: required n1, 2 nodes: %s", *n, got);
		free(got);
		tp_nodeset_fini(&req);
		/* contiguous: n5..n12 free runs across the fabric boundary */
		tp_nodeset_fini(&fr);
		named(t, &fr, "n5,n6,n7,n8,n9,n10,n11,n12");
		got = place_names(t, m.alloc, &fr,
			(tp_alloc_req){ .nodes = 6, .contiguous = true });
		ck_assert_msg(!*got, "%s: contiguous 6 across fabrics: %s", *n, got);
		free(got);
		got = place_names(t, m.alloc, &fr,
			(tp_alloc_req){ .nodes = 4, .contiguous = true });
		ck_assert_msg(!strcmp(got, "n5,n6,n7,n8"), "%s: contiguous 4: %s", *n, got);
		free(got);
		/* --switches=2 with one free leaf in each fabric */
		tp_nodeset_fini(&fr);
		named(t, &fr, "n1,n2,n3,n4,n9,n10,n11,n12");
		got = place_names(t, m.alloc, &fr,
			(tp_alloc_req){ .nodes = 6, .max_groups = 2 });
		ck_assert_msg(!*got, "%s: --switches=2, 6 nodes across fabrics: %s", *n, got);
		free(got);
		tp_nodeset_fini(&fr);
		tp_topo_fini(&m);
	}
}
END_TEST

int main(void)
{
	if (tmpdir_make("check_fabrics"))
		return EXIT_FAILURE;
	Suite *s = suite_create("fabrics");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_components);
	tcase_add_test(tc, test_warning);
	tcase_add_test(tc, test_hops_per_fabric);
	tcase_add_loop_test(tc, test_alloc_refuses_span, 0, NALLOC);
	tcase_add_loop_test(tc, test_alloc_random, 0, NALLOC);
	tcase_add_test(tc, test_fattree_short_units_one_fabric);
	tcase_add_loop_test(tc, test_constraints_one_fabric, 0, NALLOC);
	suite_add_tcase(s, tc);
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
