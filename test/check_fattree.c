/* check_fattree.c - unit tests for fattree.c and fattree_msu.c. */
#include "check_util.h"
#include "tmpdir_util.h"
#include "topology/fattree.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---- */

/* Check records every passing assertion (one write each); checks inside
 * big loops use this and call Check only on failure. */
#define QUIET_EQ(a, b) do { long long qa_ = (a), qb_ = (b); \
	if (qa_ != qb_) ck_abort_msg("failed: %s == %s (%lld != %lld)", #a, #b, qa_, qb_); } while (0)


/* Scratch directory made by main(); tmpfs when there is one (the tests
 * write thousands of small files). */


/* Write text to tmpdir/name; the path goes to path. */
static void write_file(char *path, size_t len, const char *name,
		       const char *text)
{
	snprintf(path, len, "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

static tp_fattree *load_real(const char *file)
{
	char path[1024];
	tp_error err = { "" };
	snprintf(path, sizeof(path), "%s/topology/%s", tp_data_dir(), file);
	tp_fattree *t = tp_fattree_load(path, &err);
	ck_assert_msg(t != NULL, "%s: %s", file, err.msg);
	return t;
}

/* Load text expected to fail; the message must name FILE:LINE and value. */
static void expect_error(const char *name, const char *text, int line,
			 const char *value)
{
	char path[1024], want[1100];
	tp_error err = { "" };
	write_file(path, sizeof(path), name, text);
	tp_fattree *t = tp_fattree_load(path, &err);
	ck_assert_msg(t == NULL, "%s loaded but should not", name);
	if (line > 0)
		snprintf(want, sizeof(want), "%s:%d:", path, line);
	else
		snprintf(want, sizeof(want), "%s:", path);
	ck_assert_msg(strstr(err.msg, want) != NULL, "%s: '%s' lacks '%s'",
		      name, err.msg, want);
	ck_assert_msg(strstr(err.msg, value) != NULL, "%s: '%s' lacks '%s'",
		      name, err.msg, value);
}

/* Slurm level of the lowest common switch of nodes a, b in the regular
 * tree generate(levels, width), computed from the numbering alone. */
static int regular_lca_level(int a, int b, int width)
{
	int la = a / width, lb = b / width, lvl = 0;
	while (la != lb) {
		la /= width;
		lb /= width;
		lvl++;
	}
	return lvl;
}

/* ---- parser: the real files ---- */

START_TEST(test_real_files)
{
	static const struct {
		const char *file;
		int nodes, leaves, levels, nunit, nmsu;
		bool virtual_root;
		const char *first, *last;
	} cases[] = {
		{ "maatthias-site.topology.conf", 39, 4, 2, 4, 12, true,
		  "hpc001", "saturn4" },
		{ "nstda-tara.topology.conf", 10, 4, 2, 4, 4, false,
		  "tara-c-001", "tara-dgx1-002" },
		{ "ubccr-medium_cluster.topology.conf", 234, 3, 2, 4, 59, false,
		  "n001", "b024" },
		{ "ubccr-micro_cluster.topology.conf", 10, 3, 2, 4, 3, false,
		  "n1", "b1" },
		{ "unsw-abacus.topology.conf", 13, 4, 2, 4, 4, false,
		  "abacusc-0-0", "abacus" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tp_fattree *t = load_real(cases[i].file);
		ck_assert_int_eq(tp_fattree_nnodes(t), cases[i].nodes);
		ck_assert_int_eq(t->nleaf, cases[i].leaves);
		ck_assert_int_eq(t->levels, cases[i].levels);
		ck_assert_int_eq(tp_fattree_nunit(t), cases[i].nunit);
		ck_assert_int_eq(tp_fattree_nmsu(t), cases[i].nmsu);
		ck_assert(t->sw[t->root].is_virtual == cases[i].virtual_root);
		ck_assert_str_eq(tp_fattree_node_name(t, 0), cases[i].first);
		ck_assert_str_eq(tp_fattree_node_name(t, cases[i].nodes - 1),
				 cases[i].last);
		for (int v = 0; v < t->nnodes; v++)
			QUIET_EQ(tp_fattree_node_index(t, tp_fattree_node_name(t, v)), v);
		ck_assert_int_eq(tp_fattree_node_index(t, "no-such-node"), -1);
		ck_assert_ptr_null(tp_fattree_node_name(t, cases[i].nodes));
		tp_fattree_free(t);
	}
}
END_TEST

/* circe-superpod lists circe-n051 under s2 (line 4) and s4 (line 6):
 * Slurm's topology/tree warns and keeps it under both, which this model
 * cannot: an error naming the second line, the node and the first leaf
 * (before, a lenient load kept it under s2 with a warning). */
START_TEST(test_real_file_multihomed)
{
	char path[1024];
	tp_error err = { "" };
	snprintf(path, sizeof(path), "%s/topology/circe-superpod.topology.conf",
		 tp_data_dir());
	ck_assert_ptr_null(tp_fattree_load(path, &err));
	ck_assert_msg(strstr(err.msg, ":6:") && strstr(err.msg, "circe-n051") &&
		      strstr(err.msg, "'s2' (line 4)"), "%s", err.msg);
}
END_TEST

START_TEST(test_real_file_levels_and_hops)
{
	tp_fattree *t = load_real("unsw-abacus.topology.conf");
	int root = tp_fattree_switch_index(t, "abacusc-net");
	ck_assert_int_eq(t->root, root);
	ck_assert_int_eq(t->sw[root].level, 1);
	ck_assert_int_eq(t->sw[tp_fattree_switch_index(t, "abacusc-neta")].level, 0);
	int a = tp_fattree_node_index(t, "abacusc-0-0");
	int b = tp_fattree_node_index(t, "abacusc-0-3");
	int c = tp_fattree_node_index(t, "abacus");
	ck_assert_int_eq(tp_fattree_hops(t, a, b), 1);
	ck_assert_int_eq(tp_fattree_hops(t, a, c), 3);
	ck_assert_int_eq(tp_fattree_hops(t, c, c), 0);
	ck_assert_int_eq(t->sw[root].nchild, 4);
	tp_fattree_free(t);
}
END_TEST

/* ---- parser: syntax and bad input ---- */

START_TEST(test_syntax_accepted)
{
	char path[1024];
	tp_error err = { "" };
	/* case-insensitive keys, comments, continuation, parents before
	 * children, leaves out of tree order, padded hostlists */
	write_file(path, sizeof(path), "ok.conf",
		   "# comment line\n"
		   "switchname=top SWITCHES=mid[1-2] # trailing comment\n"
		   "SwitchName=mid2 Switches=l3\n"
		   "SwitchName=l1 Nodes=a[01-02] LinkSpeed=10\n"
		   "SwitchName=mid1 \\\n"
		   "   Switches=l1,l2\n"
		   "SwitchName=l3 nodes=c7\n"
		   "SwitchName=l2 Nodes=b[8-10]\n");
	tp_fattree *t = tp_fattree_load(path, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(t->nnodes, 6);
	/* first appearance in the file: l1, then l3, then l2 */
	const char *order[] = { "a01", "a02", "c7", "b8", "b9", "b10" };
	for (int i = 0; i < 6; i++)
		ck_assert_str_eq(tp_fattree_node_name(t, i), order[i]);
	ck_assert_int_eq(t->levels, 3);
	ck_assert_int_eq(t->sw[tp_fattree_switch_index(t, "l1")].link_speed, 10);
	ck_assert_int_eq(tp_fattree_hops(t, 0, 1), 1);  /* same leaf */
	ck_assert_int_eq(tp_fattree_hops(t, 0, 3), 3);  /* l1 mid1 l2 */
	ck_assert_int_eq(tp_fattree_hops(t, 0, 2), 5);  /* l1 mid1 top mid2 l3 */
	tp_fattree_free(t);
}
END_TEST

START_TEST(test_syntax_errors)
{
	expect_error("key.conf", "SwitchName=s0 Nodes=n1\nSwitchName=s1 Nodes=n2 Foo=bar\n",
		     2, "Foo");
	expect_error("unknown.conf", "SwitchName=s0 Nodes=n1\n\nSwitchName=top Switches=s0,s9\n",
		     3, "s9");
	expect_error("parents.conf",
		     "SwitchName=s0 Nodes=n1\nSwitchName=a Switches=s0\nSwitchName=b Switches=s0\n",
		     3, "'s0' has two parents");
	expect_error("twoleaves.conf",
		     "SwitchName=s0 Nodes=n[1-3]\nSwitchName=s1 Nodes=n[3-4]\n",
		     2, "'n3'");
	expect_error("twice.conf", "SwitchName=s0 Nodes=n1,n2,n1\n", 1, "'n1'");
	expect_error("cycle.conf",
		     "SwitchName=l Nodes=n1\nSwitchName=r Switches=l\n"
		     "SwitchName=a Switches=b\nSwitchName=b Switches=a\n",
		     -1, "cycle");
	expect_error("self.conf", "SwitchName=l Nodes=n1\nSwitchName=a Switches=a,l\n",
		     2, "'a'");
	expect_error("emptyname.conf", "SwitchName= Nodes=n1\n", 1, "SwitchName=");
	expect_error("noname.conf", "SwitchName=s0 Nodes=n1\nNodes=n2\n", 2, "SwitchName");
	expect_error("dup.conf", "SwitchName=s0 Nodes=n1\nSwitchName=s0 Nodes=n2\n",
		     2, "'s0' already defined at line 1");
	expect_error("both.conf", "SwitchName=s0 Nodes=n1 Switches=s1\n", 1, "'s0'");
	expect_error("neither.conf", "SwitchName=s0 LinkSpeed=3\n", 1, "'s0'");
	expect_error("speed.conf", "SwitchName=s0 Nodes=n1 LinkSpeed=fast\n", 1, "'fast'");
	expect_error("hostlist.conf", "SwitchName=s0 Nodes=n[1-\n", 1, "n[1-");
	expect_error("twokeys.conf", "SwitchName=s0 Nodes=n1 nodes=n2\n", 1, "nodes");
	expect_error("empty.conf", "# nothing here\n", 0, "no switches");
	tp_error err = { "" };
	ck_assert_ptr_null(tp_fattree_load("/nonexistent/topology.conf", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/topology.conf"));
}
END_TEST

/* The cycle message names a switch on the cycle and its line. */
START_TEST(test_cycle_line)
{
	char path[1024];
	tp_error err = { "" };
	write_file(path, sizeof(path), "cycle3.conf",
		   "SwitchName=l Nodes=n1\nSwitchName=r Switches=l\n"
		   "SwitchName=a Switches=b\nSwitchName=b Switches=c\n"
		   "SwitchName=c Switches=a\nSwitchName=d Switches=c2\n"
		   "SwitchName=c2 Nodes=n2\n");
	ck_assert_ptr_null(tp_fattree_load(path, &err));
	ck_assert_msg((strstr(err.msg, ":3:") && strstr(err.msg, "'a'")) ||
		      (strstr(err.msg, ":4:") && strstr(err.msg, "'b'")) ||
		      (strstr(err.msg, ":5:") && strstr(err.msg, "'c'")),
		      "%s", err.msg);
}
END_TEST

/* ---- generator, hops, writer ---- */

START_TEST(test_generate_patent_tree)
{
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_generate(3, 4, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(tp_fattree_nnodes(t), 64);
	ck_assert_int_eq(t->nleaf, 16);
	ck_assert_int_eq(t->nswitch, 21);
	ck_assert_int_eq(t->levels, 3);
	ck_assert_str_eq(tp_fattree_node_name(t, 0), "n1");
	ck_assert_str_eq(tp_fattree_node_name(t, 63), "n64");
	int n1 = tp_fattree_node_index(t, "n1"), n64 = tp_fattree_node_index(t, "n64");
	ck_assert_int_eq(tp_fattree_hops(t, n1, n64), 5);   /* patent Fig. 1 */
	ck_assert_int_eq(tp_fattree_hops(t, 0, 1), 1);      /* same leaf */
	ck_assert_int_eq(tp_fattree_hops(t, 0, 4), 3);      /* same middle */
	ck_assert_int_eq(tp_fattree_hops(t, 0, 16), 5);     /* via the root */
	ck_assert_int_eq(tp_fattree_hops(t, 5, 5), 0);
	ck_assert_str_eq(t->sw[t->root].name, "s2-0");
	ck_assert_int_eq(t->sw[t->root].level, 2);
	/* Nunit = Nleaf = 4: one MSU per leaf */
	ck_assert_int_eq(tp_fattree_nunit(t), 4);
	ck_assert_int_eq(tp_fattree_nmsu(t), 16);
	ck_assert_int_eq(tp_fattree_msu_hops(t, 0, 15), 5);
	ck_assert_int_eq(tp_fattree_msu_hops(t, 0, 1), 3);
	tp_fattree_free(t);
}
END_TEST

START_TEST(test_generate_hops_formula)
{
	static const int shapes[][2] = { { 1, 5 }, { 2, 3 }, { 3, 4 }, { 4, 3 },
					 { 5, 2 }, { 2, 7 } };
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		int levels = shapes[s][0], width = shapes[s][1];
		tp_error err = { "" };
		tp_fattree *t = tp_fattree_generate(levels, width, &err);
		ck_assert_msg(t != NULL, "%s", err.msg);
		ck_assert_int_eq(t->levels, levels);
		for (int a = 0; a < t->nnodes; a++)
			for (int b = 0; b < t->nnodes; b++) {
				int want = a == b ? 0 : 2 * regular_lca_level(a, b, width) + 1;
				QUIET_EQ(tp_fattree_hops(t, a, b), want);
				QUIET_EQ(tp_fattree_hops(t, a, b), tp_fattree_hops(t, b, a));
			}
		tp_fattree_free(t);
	}
}
END_TEST

START_TEST(test_generate_errors)
{
	tp_error err = { "" };
	ck_assert_ptr_null(tp_fattree_generate(0, 4, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "levels (0)"));
	ck_assert_ptr_null(tp_fattree_generate(3, 0, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "width (0)"));
	ck_assert_ptr_null(tp_fattree_generate(2, 5000, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "5000^2"));
}
END_TEST

/* write_conf -> load gives the same nodes, names, switches and hops. */
static void check_roundtrip(const tp_fattree *t, const char *name)
{
	char path[1024];
	tp_error err = { "" };
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(tp_fattree_write_conf(t, fp), 0);
	fclose(fp);
	tp_fattree *u = tp_fattree_load(path, &err);
	ck_assert_msg(u != NULL, "%s: %s", name, err.msg);
	ck_assert_int_eq(u->nnodes, t->nnodes);
	ck_assert_int_eq(u->nswitch, t->nswitch);
	ck_assert_int_eq(u->levels, t->levels);
	for (int v = 0; v < t->nnodes; v++)
		ck_assert_str_eq(u->node_name[v], t->node_name[v]);
	for (int s = 0; s < t->nswitch; s++)
		if (!t->sw[s].is_virtual)
			ck_assert_str_eq(u->sw[s].name, t->sw[s].name);
	for (int a = 0; a < t->nnodes; a += 1 + t->nnodes / 50)
		for (int b = 0; b < t->nnodes; b++)
			QUIET_EQ(tp_fattree_hops(u, a, b), tp_fattree_hops(t, a, b));
	tp_fattree_free(u);
}

START_TEST(test_write_conf_roundtrip)
{
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_generate(3, 4, &err);
	check_roundtrip(t, "gen.conf");
	/* compact: leaves as n[1-4], parents as s0-[0-3] */
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	tp_fattree_write_conf(t, fp);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "SwitchName=s0-0 Nodes=n[1-4]\n"));
	ck_assert_ptr_nonnull(strstr(buf, "SwitchName=s1-3 Switches=s0-[12-15]\n"));
	ck_assert_ptr_nonnull(strstr(buf, "SwitchName=s2-0 Switches=s1-[0-3]\n"));
	free(buf);
	tp_fattree_free(t);
	const char *files[] = { "maatthias-site.topology.conf",
				"nstda-tara.topology.conf",
				"ubccr-medium_cluster.topology.conf",
				"ubccr-micro_cluster.topology.conf",
				"unsw-abacus.topology.conf" };
	for (size_t i = 0; i < 5; i++) {
		t = load_real(files[i]);
		check_roundtrip(t, files[i]);
		tp_fattree_free(t);
	}
}
END_TEST

/* ---- MSUs ---- */

START_TEST(test_nunit_rule)
{
	ck_assert_int_eq(tp_fattree_nunit_rule(64, 4), 4);
	ck_assert_int_eq(tp_fattree_nunit_rule(4096, 2), 2);
	ck_assert_int_eq(tp_fattree_nunit_rule(4096, 16), 4);
	ck_assert_int_eq(tp_fattree_nunit_rule(100, 5), 4);
	ck_assert_int_eq(tp_fattree_nunit_rule(4097, 8), 8);
	ck_assert_int_eq(tp_fattree_nunit_rule(4097, 3), 3);
	ck_assert_int_eq(tp_fattree_nunit_rule(65536, 16), 8);
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_generate(2, 16, &err);   /* 256 nodes */
	ck_assert_int_eq(tp_fattree_nunit(t), 4);
	ck_assert_int_eq(tp_fattree_nmsu(t), 64);
	tp_fattree_free(t);
	t = tp_fattree_generate(4, 9, &err);                 /* 6561 nodes */
	ck_assert_int_eq(tp_fattree_nunit(t), 8);
	/* leaves of 9 nodes: units of 8 and 1 */
	ck_assert_int_eq(tp_fattree_nmsu(t), 2 * 729);
	ck_assert_int_eq(tp_fattree_msu_size(t, 0), 8);
	ck_assert_int_eq(tp_fattree_msu_size(t, 1), 1);
	ck_assert_int_eq(t->msu_lo[2], 9);
	tp_fattree_free(t);
}
END_TEST

START_TEST(test_msu_partition_irregular)
{
	tp_fattree *t = load_real("ubccr-medium_cluster.topology.conf");
	/* leaves 102, 100, 32; Nleaf = 102 > 4 -> Nunit 4 */
	const tp_fattree_switch *ibn = &t->sw[tp_fattree_switch_index(t, "IBN")];
	ck_assert_int_eq(ibn->msu_hi - ibn->msu_lo, 26);
	ck_assert_int_eq(tp_fattree_msu_size(t, ibn->msu_hi - 1), 2);
	int sum = 0;
	for (int m = 0; m < t->nmsu; m++) {
		sum += tp_fattree_msu_size(t, m);
		ck_assert_int_le(tp_fattree_msu_size(t, m), 4);
		for (int v = t->msu_lo[m]; v < t->msu_lo[m + 1]; v++) {
			QUIET_EQ(t->node_msu[v], m);
			QUIET_EQ(t->node_leaf[v], t->msu_leaf[m]);
		}
	}
	ck_assert_int_eq(sum, 234);
	/* msu_size overrides; 1 = node granularity */
	tp_fattree_opts o;
	tp_error err = { "" };
	tp_fattree_opts_default(&o);
	o.msu_size = 1;
	ck_assert_int_eq(tp_fattree_set_opts(t, &o, &err), 0);
	ck_assert_int_eq(tp_fattree_nmsu(t), 234);
	o.msu_size = 3;
	ck_assert_int_eq(tp_fattree_set_opts(t, &o, &err), 0);
	ck_assert_int_eq(tp_fattree_nmsu(t), 34 + 34 + 11);
	o.msu_size = -1;
	ck_assert_int_eq(tp_fattree_set_opts(t, &o, &err), -1);
	ck_assert_int_eq(tp_fattree_nunit(t), 3);
	tp_fattree_free(t);
	t = load_real("ubccr-micro_cluster.topology.conf");
	ck_assert_int_eq(tp_fattree_msu_size(t, 2), 2);      /* IBG: g1, b1 */
	tp_fattree_free(t);
}
END_TEST

START_TEST(test_opts_default)
{
	tp_fattree_opts o;
	tp_error err = { "" };
	tp_fattree_opts_default(&o);
	ck_assert_int_eq(o.msu_size, 0);
	ck_assert_int_eq(o.busy_fallback, 1);
	ck_assert_int_eq(o.prefer_full, 1);
	/* parsed from fattree.conf only: test/check_topo.c */
	(void)err;
}
END_TEST

/* hop_sum (tree aggregation) equals the sum over pairs of msu_hops. */
static long long pairwise(const tp_fattree *t, const tp_nodeset *s)
{
	long long sum = 0;
	char *touched = calloc((size_t)t->nmsu, 1);
	for (int v = 0; v < t->nnodes; v++)
		if (tp_nodeset_test(s, v))
			touched[t->node_msu[v]] = 1;
	for (int a = 0; a < t->nmsu; a++)
		for (int b = a + 1; b < t->nmsu; b++)
			if (touched[a] && touched[b])
				sum += tp_fattree_msu_hops(t, a, b);
	free(touched);
	return sum;
}

START_TEST(test_hop_sum)
{
	tp_error err = { "" };
	tp_fattree *t = tp_fattree_generate(3, 4, &err);
	tp_nodeset s;
	tp_nodeset_init(&s, 64);
	tp_nodeset_set(&s, 0);
	tp_nodeset_set(&s, 63);
	ck_assert_int_eq(tp_fattree_hop_sum(t, &s), 5);
	tp_nodeset_zero(&s);
	tp_nodeset_set_range(&s, 0, 4);             /* one MSU */
	ck_assert_int_eq(tp_fattree_hop_sum(t, &s), 0);
	tp_nodeset_zero(&s);
	tp_nodeset_set(&s, 0);
	tp_nodeset_set(&s, 4);
	tp_nodeset_set(&s, 9);                      /* 3 MSUs, same middle */
	ck_assert_int_eq(tp_fattree_hop_sum(t, &s), 9);
	tp_nodeset_fini(&s);
	tp_fattree_free(t);

	const char *files[] = { "maatthias-site.topology.conf",
				"ubccr-medium_cluster.topology.conf",
				"unsw-abacus.topology.conf" };
	unsigned seed = 12345;
	for (size_t f = 0; f < 3; f++) {
		t = load_real(files[f]);
		tp_nodeset_init(&s, t->nnodes);
		for (int rep = 0; rep < 200; rep++) {
			tp_nodeset_zero(&s);
			int p = rand_r(&seed) % 100;
			for (int v = 0; v < t->nnodes; v++)
				if (rand_r(&seed) % 100 < p)
					tp_nodeset_set(&s, v);
			QUIET_EQ(tp_fattree_hop_sum(t, &s), pairwise(t, &s));
		}
		tp_nodeset_fini(&s);
		tp_fattree_free(t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fattree");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_real_files);
	tcase_add_test(tc, test_real_file_multihomed);
	tcase_add_test(tc, test_real_file_levels_and_hops);
	tcase_add_test(tc, test_syntax_accepted);
	tcase_add_test(tc, test_syntax_errors);
	tcase_add_test(tc, test_cycle_line);
	tcase_add_test(tc, test_generate_patent_tree);
	tcase_add_test(tc, test_generate_hops_formula);
	tcase_add_test(tc, test_generate_errors);
	tcase_add_test(tc, test_write_conf_roundtrip);
	tcase_add_test(tc, test_nunit_rule);
	tcase_add_test(tc, test_msu_partition_irregular);
	tcase_add_test(tc, test_opts_default);
	tcase_add_test(tc, test_hop_sum);
	suite_add_tcase(s, tc);
	if (tmpdir_make("check_fattree")) {
		perror(tmpdir);
		return EXIT_FAILURE;
	}
	int rc = tp_check_run(s);
	tmpdir_remove();
	return rc;
}
