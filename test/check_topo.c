/* check_topo.c - unit tests for the one topology loader
 * (machine/topo.c): a flat machine, a fat tree from fattree.conf
 * (machine/fattree_conf.c) + topology.conf, a torus from torus.conf with
 * its method and Ntransit, errors naming FILE:LINE or the setting, and
 * the transit nodes a torus allocator may add within a request's
 * max_nodes. */
#include "check_util.h"
#include "tmpdir_util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "base/conffile.h"
#include "settings/settings.h"
#include "trace/rng.h"
#include "machine/fattree_conf.h"
#include "machine/topo.h"

/* ---- helpers ------------------------------------------------------------ */

/* Is `s` exactly the node set of one box of the torus?  Brute force over
 * the shapes of that many nodes and all their placements. */
static bool is_box(const tp_torus *t, const tp_nodeset *s)
{
	int n = tp_torus_ndims(t), N = tp_torus_nnodes(t), count;
	const int *d = tp_torus_dims(t);
	int len[TP_TORUS_MAX_DIMS] = { 0 };
	tp_nodeset b;
	bool found = false;
	if ((count = tp_nodeset_count(s)) == 0)
		return false;
	tp_nodeset_init(&b, N);
	for (int i = 0; i < n; i++)
		len[i] = 1;
	for (;;) {
		int size = 1;
		for (int i = 0; i < n; i++)
			size *= len[i];
		long np = size == count ? tp_torus_placements(t, len) : 0;
		for (long k = 0; k < np && !found; k++) {
			tp_box box;
			tp_torus_placement(t, len, k, &box);
			tp_nodeset_zero(&b);
			tp_torus_box_nodes(t, &box, &b);
			found = tp_nodeset_equal(&b, s);
		}
		int i = 0;
		while (i < n && ++len[i] > d[i])
			len[i++] = 1;
		if (i == n || found)
			break;
	}
	tp_nodeset_fini(&b);
	return found;
}

static void assert_err_has(const tp_error *err, const char *want)
{
	ck_assert_msg(strstr(err->msg, want), "'%s' lacks '%s'", err->msg, want);
}

/* An emptied tp_topo (after a failed load). */
static void assert_empty(const tp_topo *t)
{
	ck_assert_ptr_null(t->tree);
	ck_assert_ptr_null(t->torus);
	ck_assert_ptr_null(t->alloc);
	ck_assert_ptr_null(t->conf);
	ck_assert_ptr_null(t->topology);
	ck_assert_int_eq(t->nnodes, 0);
}

/* MSUs touched by `nodes` (select/fattree's placement logs). */
static int units_touched(const tp_fattree *tree, const tp_nodeset *nodes)
{
	int n = 0;
	bool seen[64] = { false };
	for (int i = tp_nodeset_next(nodes, 0); i >= 0;
	     i = tp_nodeset_next(nodes, i + 1)) {
		int m = tree->node_msu[i];
		ck_assert_int_lt(m, 64);
		n += !seen[m];
		seen[m] = true;
	}
	return n;
}

/* ---- flat ------------------------------------------------------------------ */

START_TEST(test_flat)
{
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	tp_topo_spec_init(&s, TP_TOPO_FLAT);
	ck_assert_int_eq(s.kind, TP_TOPO_FLAT);
	ck_assert_int_eq(s.ntransit, -1);
	ck_assert_ptr_null(s.conf);
	ck_assert_ptr_null(s.alloc);

	s.nnodes = 8;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(t.kind, TP_TOPO_FLAT);
	ck_assert_int_eq(t.nnodes, 8);
	ck_assert_str_eq(t.alloc_name, "first-free");
	ck_assert_int_eq(t.alloc->nnodes, 8);
	ck_assert(tp_alloc_is_flat(t.alloc));
	ck_assert_ptr_null(t.tree);
	ck_assert_ptr_null(t.torus);
	ck_assert_ptr_nonnull(strstr(t.describe, "first-free"));
	ck_assert_ptr_nonnull(strstr(t.describe, "8 nodes"));
	ck_assert_int_eq(tp_topo_node_index(&t, "n1"), -1);
	ck_assert_ptr_null(tp_topo_node_name(&t, 0));
	tp_topo_fini(&t);
	ck_assert_ptr_null(t.alloc);

	/* no node count */
	s.nnodes = 0;
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "node count");
	assert_empty(&t);
	/* an allocator that needs a topology, named by its setting */
	s.nnodes = 8;
	s.alloc = "fattree";
	s.alloc_from = "--alloc ";
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "--alloc fattree");
	assert_empty(&t);
	s.alloc = "nosuch";
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "'nosuch'");
	assert_empty(&t);
	/* an unknown kind */
	s.kind = (tp_topo_kind)7;
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "kind");

	ck_assert_str_eq(tp_topo_kind_name(TP_TOPO_FLAT), "flat");
	ck_assert_str_eq(tp_topo_kind_name(TP_TOPO_FATTREE), "fattree");
	ck_assert_str_eq(tp_topo_kind_name(TP_TOPO_TORUS), "torus");
}
END_TEST

/* ---- fattree.conf ----------------------------------------------------------- */

START_TEST(test_fattree_conf_missing_file_gives_defaults)
{
	tp_fattree_conf c;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tp_fattree_conf_read(&c, "/nonexistent/fattree.conf",
					      "/etc/slurm", &err), 0);
	ck_assert_str_eq(c.allocator, "fattree");
	ck_assert_str_eq(c.topology_file, "/etc/slurm/topology.conf");
	ck_assert_ptr_null(c.source);
	ck_assert_int_eq(c.opts.msu_size, 0);
	ck_assert_int_eq(c.opts.busy_fallback, 1);
	ck_assert_int_eq(c.opts.prefer_full, 1);
	tp_fattree_conf_fini(&c);
	ck_assert_ptr_null(c.allocator);

	/* no file at all */
	ck_assert_int_eq(tp_fattree_conf_read(&c, NULL, "/etc/slurm", &err), 0);
	ck_assert_str_eq(c.allocator, "fattree");
	ck_assert_ptr_null(c.source);
	tp_fattree_conf_fini(&c);
	/* no confdir: topology.conf as is */
	ck_assert_int_eq(tp_fattree_conf_read(&c, NULL, NULL, &err), 0);
	ck_assert_str_eq(c.topology_file, "topology.conf");
	tp_fattree_conf_fini(&c);
}
END_TEST

START_TEST(test_fattree_conf_all_keys)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	const char *p = tmpdir_write("fattree.conf",
		"# settings\n"
		"allocator=first-free TopologyFile=tree/t.conf\n"
		"MsuSize=2 BusyFallback=no \\\n"
		"  PreferFull=no\n");
	tp_fattree_conf c;
	tp_error err = { { 0 } };
	ck_assert_msg(tp_fattree_conf_read(&c, p, "/etc/slurm", &err) == 0, "%s",
		      err.msg);
	ck_assert_str_eq(c.allocator, "first-free");
	ck_assert_str_eq(c.topology_file, "/etc/slurm/tree/t.conf");
	ck_assert_str_eq(c.source, p);
	ck_assert_int_eq(c.opts.msu_size, 2);
	ck_assert_int_eq(c.opts.busy_fallback, 0);
	ck_assert_int_eq(c.opts.prefer_full, 0);
	tp_fattree_conf_fini(&c);

	/* An absolute TopologyFile is kept as it is. */
	p = tmpdir_write("abs.conf", "TopologyFile=/srv/topo.conf\n");
	ck_assert_int_eq(tp_fattree_conf_read(&c, p, "/etc/slurm", &err), 0);
	ck_assert_str_eq(c.topology_file, "/srv/topo.conf");
	ck_assert_str_eq(c.allocator, "fattree"); /* keys not given: defaults */
	ck_assert_int_eq(c.opts.prefer_full, 1);
	tp_fattree_conf_fini(&c);

	/* Every registered allocator is accepted. */
	for (const char *const *n = tp_alloc_names(); *n; n++) {
		char text[128];
		snprintf(text, sizeof(text), "Allocator=%s\n", *n);
		p = tmpdir_write("fattree.conf", text);
		ck_assert_msg(tp_fattree_conf_read(&c, p, tmpdir, &err) == 0, "%s",
			      err.msg);
		ck_assert_str_eq(c.allocator, *n);
		tp_fattree_conf_fini(&c);
	}
	tmpdir_remove();
}
END_TEST

/* Each bad line: the error names file:line and the offending value. */
START_TEST(test_fattree_conf_errors_name_file_line_value)
{
	static const struct {
		const char *text, *line, *value;
	} bad[] = {
		{ "BusyFallback=yes\nMsuSize=-1\n", ":2:", "'-1'" },
		{ "MsuSize=four\n", ":1:", "'four'" },
		{ "\n\nBusyFallback=maybe\n", ":3:", "'maybe'" },
		{ "PreferFull=2\n", ":1:", "'2'" },
		{ "Allocator=nosuch\n", ":1:", "'nosuch'" },
		{ "# c\nMsuSze=4\n", ":2:", "'MsuSze'" },
		{ "Allocator\n", ":1:", "'Allocator'" },
		/* a key given twice: neither value is taken (the later one
		 * used to win without a word) */
		{ "Allocator=fattree\nMsuSize=2\nallocator=tree-slurm\n", ":3:",
		  "Allocator= given again (first at line 1)" },
		{ "MsuSize=2 MsuSize=4\n", ":1:", "MsuSize= given again (first at line 1)" },
	};
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *p = tmpdir_write("fattree.conf", bad[i].text);
		tp_fattree_conf c;
		tp_error err = { { 0 } };
		ck_assert_int_eq(tp_fattree_conf_read(&c, p, tmpdir, &err), -1);
		ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, bad[i].line) &&
			      strstr(err.msg, bad[i].value),
			      "case %zu: '%s'", i, err.msg);
		ck_assert_ptr_null(c.allocator); /* emptied on error */
		ck_assert_ptr_null(c.topology_file);
		ck_assert_ptr_null(c.source);

		/* the loader reports the same */
		tp_topo_spec s;
		tp_topo t;
		tp_error err2 = { { 0 } };
		tp_topo_spec_init(&s, TP_TOPO_FATTREE);
		s.conf = p;
		s.confdir = tmpdir;
		ck_assert_int_eq(tp_topo_load(&t, &s, &err2), -1);
		ck_assert_str_eq(err2.msg, err.msg);
		assert_empty(&t);
	}
	tmpdir_remove();
}
END_TEST

/* ---- fat trees through the loader --------------------------------------- */

/* A real topology.conf: the tree, its MSUs and the allocator load. */
START_TEST(test_fattree_loads_real_topology)
{
	char topo[PATH_MAX];
	snprintf(topo, sizeof(topo), "%s/topology/ubccr-micro_cluster.topology.conf",
		 tp_data_dir());
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char text[PATH_MAX + 64];
	snprintf(text, sizeof(text), "TopologyFile=%s\nAllocator=first-free\nMsuSize=2\n", topo);
	const char *p = tmpdir_write("fattree.conf", text);
	char conf[PATH_MAX];
	snprintf(conf, sizeof(conf), "%s", p);
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.conf = conf;
	s.confdir = tmpdir;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(t.kind, TP_TOPO_FATTREE);
	/* n[1-4], m[1-4], g1, b1 */
	ck_assert_int_eq(t.nnodes, 10);
	ck_assert_int_eq(tp_fattree_nnodes(t.tree), 10);
	ck_assert_int_eq(tp_fattree_nunit(t.tree), 2);
	ck_assert_int_eq(t.ninside, 10);
	ck_assert_int_eq(tp_topo_noutside(&t), 0);
	ck_assert_int_ge(tp_topo_node_index(&t, "m3"), 0);
	ck_assert_int_eq(tp_topo_node_index(&t, "x9"), -1);
	ck_assert_str_eq(tp_topo_node_name(&t, tp_topo_node_index(&t, "g1")), "g1");
	ck_assert_int_eq(t.alloc->nnodes, 10);
	ck_assert_str_eq(t.alloc_name, "first-free");
	ck_assert_ptr_nonnull(strstr(t.alloc_from, "fattree.conf Allocator="));
	ck_assert_str_eq(t.conf, conf);
	ck_assert_str_eq(t.topology, topo);
	ck_assert_ptr_nonnull(strstr(t.describe, "first-free"));
	ck_assert_ptr_nonnull(strstr(t.describe, topo));
	ck_assert_ptr_nonnull(strstr(t.describe, conf));

	/* Units touched: n1,n2 share an MSU of 2; m1 is another. */
	tp_nodeset ns;
	tp_nodeset_init(&ns, 10);
	tp_nodeset_set(&ns, tp_topo_node_index(&t, "n1"));
	tp_nodeset_set(&ns, tp_topo_node_index(&t, "n2"));
	ck_assert_int_eq(units_touched(t.tree, &ns), 1);
	tp_nodeset_set(&ns, tp_topo_node_index(&t, "m1"));
	ck_assert_int_eq(units_touched(t.tree, &ns), 2);
	tp_nodeset_fini(&ns);
	tp_topo_fini(&t);

	/* the caller's allocator replaces fattree.conf's, and is wrapped
	 * (the failure memo) unless a node count answers for it */
	s.alloc = "fattree-msu";
	s.alloc_from = "--alloc ";
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.alloc_name, "fattree-msu");
	ck_assert_str_eq(t.alloc_from, "--alloc ");
	ck_assert(!tp_alloc_is_flat(t.alloc));
	tp_nodeset all, out;
	tp_nodeset_init(&all, 10);
	tp_nodeset_init(&out, 10);
	tp_nodeset_fill(&all);
	ck_assert_int_eq(tp_alloc_place(t.alloc, &all, 2, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 2);
	ck_assert_int_eq(units_touched(t.tree, &out), 1); /* one MSU of 2 */
	tp_topo_fini(&t);
	s.alloc = "fattree";
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.alloc_name, "fattree");
	ck_assert_int_eq(t.tree->nfabric, 1);
	ck_assert(tp_alloc_is_flat(t.alloc)); /* one fabric: counts decide */
	ck_assert(tp_alloc_is_monotone(t.alloc));
	ck_assert_int_eq(tp_alloc_place(t.alloc, &all, 2, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 2);
	ck_assert_int_eq(units_touched(t.tree, &out), 1);
	tp_nodeset_fini(&all);
	tp_nodeset_fini(&out);
	tp_topo_fini(&t);

	/* a bad one is named with where it came from */
	s.alloc = "nosuch";
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "--alloc nosuch");
	assert_empty(&t);
	tmpdir_remove();
}
END_TEST

/* Relative TopologyFile and the default topology.conf come from confdir;
 * spec.topology replaces fattree.conf's; no fattree.conf means defaults. */
START_TEST(test_fattree_paths)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	tmpdir_write("topology.conf", "SwitchName=s1 Nodes=a[1-4]\n"
				      "SwitchName=s2 Nodes=a[5-8]\n"
				      "SwitchName=top Switches=s[1-2]\n");
	tmpdir_write("small.conf", "SwitchName=s1 Nodes=b[1-2]\n");
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	char want[PATH_MAX];

	/* no fattree.conf: topology.conf in confdir, allocator fattree */
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.confdir = tmpdir;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	snprintf(want, sizeof(want), "%s/topology.conf", tmpdir);
	ck_assert_str_eq(t.topology, want);
	ck_assert_ptr_null(t.conf);
	ck_assert_str_eq(t.alloc_name, "fattree");
	ck_assert_ptr_nonnull(strstr(t.alloc_from, "default"));
	ck_assert_ptr_nonnull(strstr(t.describe, "settings default"));
	ck_assert_int_eq(t.nnodes, 8);
	ck_assert_int_eq(tp_topo_node_index(&t, "a8"), 7);
	tp_topo_fini(&t);

	/* a fattree.conf that names a relative TopologyFile */
	char conf[PATH_MAX];
	snprintf(conf, sizeof(conf), "%s",
		 tmpdir_write("fattree.conf", "TopologyFile=small.conf\n"));
	s.conf = conf;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	snprintf(want, sizeof(want), "%s/small.conf", tmpdir);
	ck_assert_str_eq(t.topology, want);
	ck_assert_int_eq(t.nnodes, 2);
	ck_assert_str_eq(t.conf, conf);
	ck_assert_ptr_nonnull(strstr(t.alloc_from, "fattree.conf Allocator="));
	tp_topo_fini(&t);

	/* spec.topology wins over TopologyFile */
	snprintf(want, sizeof(want), "%s/topology.conf", tmpdir);
	s.topology = want;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.topology, want);
	ck_assert_int_eq(t.nnodes, 8);
	tp_topo_fini(&t);
	tmpdir_remove();
}
END_TEST

START_TEST(test_fattree_missing_topology)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char conf[PATH_MAX];
	snprintf(conf, sizeof(conf), "%s",
		 tmpdir_write("fattree.conf", "Allocator=first-free\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.conf = conf;
	s.confdir = tmpdir;
	/* Default topology.conf beside fattree.conf does not exist. */
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "topology.conf");
	assert_empty(&t);
	/* nor does a named one */
	s.topology = "/nonexistent/tree.conf";
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "/nonexistent/tree.conf");
	assert_empty(&t);
	tmpdir_remove();
}
END_TEST

/* A node under two leaf switches: Slurm's topology/tree keeps it in
 * both, which this model cannot, so it is an error naming the file, the
 * second line, the node and the first leaf.  Before, it was kept under
 * the first with a warning, and an 8-node file whose second leaf repeated
 * the first's nodes became a 4-node machine that replayed without error. */
START_TEST(test_fattree_node_under_two_leaves)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char topo[PATH_MAX];
	snprintf(topo, sizeof(topo), "%s",
		 tmpdir_write("topology.conf", "SwitchName=s1 Nodes=a[1-4]\n"
					       "SwitchName=s2 Nodes=a[1-4]\n"
					       "SwitchName=top Switches=s[1-2]\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.topology = topo;
	s.alloc = "first-free";
	s.alloc_from = "--alloc ";
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	char want[PATH_MAX + 8];
	snprintf(want, sizeof(want), "%s:2:", topo);
	ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, "'a1'") &&
		      strstr(err.msg, "'s1' (line 1)"), "%s", err.msg);
	assert_empty(&t);
	tmpdir_remove();
}
END_TEST

/* A switch listed twice by one parent: named as such (it read "two
 * parents: 'top' and 'top'"). */
START_TEST(test_fattree_child_listed_twice)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	const char *topo = tmpdir_write("topology.conf",
					"SwitchName=s1 Nodes=a[1-2]\n"
					"SwitchName=top Switches=s1,s1\n");
	tp_error err = { { 0 } };
	ck_assert_ptr_null(tp_fattree_load(topo, &err));
	ck_assert_msg(strstr(err.msg, ":2:") &&
		      strstr(err.msg, "switch 'top' lists switch 's1' twice"),
		      "%s", err.msg);
	tmpdir_remove();
}
END_TEST

/* ---- torus.conf ---------------------------------------------------------- */

static const char conf_4422[] =
	"# 64 nodes\n"
	"Dimensions=4x4x2x2 Nodes=n[1-64]\n"
	"Method=fs\n";

static void torus_spec(tp_topo_spec *s, const char *conf)
{
	tp_topo_spec_init(s, TP_TOPO_TORUS);
	s->conf = conf;
	s->confdir = tmpdir;
}

START_TEST(test_torus_method_from_file_and_option)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", tmpdir_write("torus.conf", conf_4422));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };

	torus_spec(&s, p);
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(t.kind, TP_TOPO_TORUS);
	ck_assert_str_eq(t.alloc_name, "torus-fs");
	ck_assert_int_eq(tp_torus_default_method(t.torus), TP_TORUS_FS);
	ck_assert_ptr_nonnull(strstr(t.alloc_from, "torus.conf"));
	ck_assert_str_eq(t.conf, p);
	ck_assert_int_eq(t.nnodes, 64);
	ck_assert_int_eq(tp_torus_nnodes(t.torus), 64);
	ck_assert_int_eq(t.alloc->nnodes, 64);
	ck_assert(!tp_alloc_is_flat(t.alloc));
	ck_assert(tp_alloc_is_monotone(t.alloc));
	ck_assert_int_eq(tp_topo_node_index(&t, "n1"), 0);
	ck_assert_int_eq(tp_topo_node_index(&t, "n64"), 63);
	ck_assert_int_eq(tp_topo_node_index(&t, "n65"), -1);
	ck_assert_str_eq(tp_topo_node_name(&t, 63), "n64");
	ck_assert_ptr_nonnull(strstr(t.describe, "torus-fs"));
	ck_assert_ptr_nonnull(strstr(t.describe, p));
	ck_assert_ptr_nonnull(strstr(t.describe, "Ntransit=0"));
	tp_topo_fini(&t);

	/* select/torus: torus_method= from SchedulerParameters overrides */
	tp_settings set;
	ck_assert_int_eq(tp_settings_parse_params(&set, NULL,
		"bf_interval=1,torus_method=mss", TP_SCOPE_TORUS, NULL, NULL), 0);
	char name[32];
	snprintf(name, sizeof(name), "torus-%s", set.torus_method);
	s.alloc = name;
	s.alloc_from = "SchedulerParameters torus_method=";
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.alloc_name, "torus-mss");
	ck_assert_ptr_nonnull(strstr(t.alloc_from, "torus_method"));
	ck_assert_ptr_nonnull(strstr(t.describe, "torus_method"));
	/* the torus keeps its own Method= */
	ck_assert_int_eq(tp_torus_default_method(t.torus), TP_TORUS_FS);

	/* the allocator places boxes */
	tp_nodeset free_all, out;
	tp_nodeset_init(&free_all, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_set_range(&free_all, 0, 64);
	for (int k = 1; k <= 64; k *= 2) {
		ck_assert_int_eq(tp_alloc_place(t.alloc, &free_all, k, &out), 0);
		ck_assert_int_eq(tp_nodeset_count(&out), k);
		ck_assert_msg(is_box(t.torus, &out), "size %d", k);
	}
	ck_assert_int_eq(tp_alloc_place(t.alloc, &free_all, 65, &out), -1);
	tp_nodeset_fini(&free_all);
	tp_nodeset_fini(&out);
	tp_topo_fini(&t);

	/* a torus.conf without Method=: compact */
	snprintf(p, sizeof(p), "%s",
		 tmpdir_write("plain.conf", "Dimensions=2x3 Nodes=a[1-6]\n"));
	torus_spec(&s, p);
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.alloc_name, "torus-compact");
	tp_topo_fini(&t);
	tmpdir_remove();
}
END_TEST

/* Method=anchor (torus.conf) and torus_method=anchor (the plugins'
 * SchedulerParameters) both give the torus-anchor allocator, which
 * places boxes on its anchor grid. */
START_TEST(test_torus_method_anchor)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", tmpdir_write("anchor.conf",
		"Dimensions=4x4x2x2 Nodes=n[1-64]\nMethod=anchor\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	torus_spec(&s, p);
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.alloc_name, "torus-anchor");
	ck_assert_int_eq(tp_torus_default_method(t.torus), TP_TORUS_ANCHOR);
	ck_assert_ptr_nonnull(strstr(t.describe, "torus-anchor"));
	ck_assert(tp_alloc_is_monotone(t.alloc));
	tp_nodeset free_all, out;
	tp_nodeset_init(&free_all, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_set_range(&free_all, 0, 64);
	for (int k = 1; k <= 64; k *= 2) {
		ck_assert_int_eq(tp_alloc_place(t.alloc, &free_all, k, &out), 0);
		ck_assert_int_eq(tp_nodeset_count(&out), k);
		ck_assert_msg(is_box(t.torus, &out), "size %d", k);
	}
	tp_topo_fini(&t);

	/* the plugins' path: torus_method=anchor over a Method=base file */
	snprintf(p, sizeof(p), "%s", tmpdir_write("base.conf",
		"Dimensions=4x4x2x2 Nodes=n[1-64] Method=base\n"));
	tp_settings set;
	ck_assert_int_eq(tp_settings_parse_params(&set, NULL,
		"torus_method=anchor", TP_SCOPE_TORUS, NULL, NULL), 0);
	char alloc[32];
	tp_topo_spec_torus(&s, &set, p, tmpdir, alloc, sizeof(alloc));
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.alloc_name, "torus-anchor");
	ck_assert_ptr_nonnull(strstr(t.alloc_from, "torus_method"));
	ck_assert_int_eq(tp_alloc_place(t.alloc, &free_all, 8, &out), 0);
	ck_assert(is_box(t.torus, &out));
	tp_nodeset_fini(&free_all);
	tp_nodeset_fini(&out);
	tp_topo_fini(&t);
	tmpdir_remove();
}
END_TEST

/* The torus.conf path is taken as it is given (confdir is for paths
 * inside fattree.conf); select/torus resolves a relative torus_conf=
 * against slurm.conf's directory first, as here. */
START_TEST(test_torus_other_conf)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s",
		 tmpdir_write("other.conf", "Dimensions=2x3 Nodes=a[1-6] Method=base\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	torus_spec(&s, p);
	s.confdir = "/elsewhere";
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.conf, p);
	ck_assert_str_eq(t.alloc_name, "torus-base");
	ck_assert_int_eq(t.nnodes, 6);
	ck_assert_int_eq(tp_topo_node_index(&t, "a6"), 5);
	ck_assert_str_eq(tp_topo_node_name(&t, 0), "a1");
	tp_topo_fini(&t);

	/* SchedulerParameters torus_conf=other.conf, slurm.conf in tmpdir */
	tp_settings set;
	ck_assert_int_eq(tp_settings_parse_params(&set, NULL,
		"torus_conf=other.conf", TP_SCOPE_TORUS, NULL, NULL), 0);
	char *path = tp_conf_path_join(tmpdir, set.torus_conf);
	ck_assert_str_eq(path, p);
	torus_spec(&s, path);
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(t.conf, p);
	tp_topo_fini(&t);
	free(path);
	/* an absolute one is kept */
	char abs[PATH_MAX + 16];
	snprintf(abs, sizeof(abs), "torus_conf=%s", p);
	ck_assert_int_eq(tp_settings_parse_params(&set, NULL, abs,
		TP_SCOPE_TORUS, NULL, NULL), 0);
	path = tp_conf_path_join("/elsewhere", set.torus_conf);
	ck_assert_str_eq(path, p);
	free(path);
	tmpdir_remove();
}
END_TEST

START_TEST(test_torus_errors_name_file_line_or_setting)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char bad[PATH_MAX];
	snprintf(bad, sizeof(bad), "%s",
		 tmpdir_write("bad.conf", "Dimensions=4x4\nNodes=n[1-16] Colour=red\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	char want[PATH_MAX + 16];

	torus_spec(&s, bad);
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	snprintf(want, sizeof(want), "%s:2:", bad);
	assert_err_has(&err, want);
	assert_err_has(&err, "Colour");
	assert_empty(&t);

	/* torus.conf is required */
	torus_spec(&s, "/nonexistent/torus.conf");
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "/nonexistent/torus.conf");
	assert_empty(&t);
	torus_spec(&s, NULL);
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "torus.conf");
	assert_empty(&t);

	/* a bad allocator names the setting it came from */
	char good[PATH_MAX];
	snprintf(good, sizeof(good), "%s", tmpdir_write("torus.conf", conf_4422));
	torus_spec(&s, good);
	s.alloc = "torus-fast";
	s.alloc_from = "SchedulerParameters torus_method=";
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "SchedulerParameters torus_method=");
	assert_err_has(&err, "'torus-fast'");
	assert_empty(&t);
	/* one that needs a fat tree */
	s.alloc = "fattree";
	s.alloc_from = "--alloc ";
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	assert_err_has(&err, "--alloc fattree");
	assert_empty(&t);
	/* a bad Method= in the file names file and line */
	snprintf(bad, sizeof(bad), "%s",
		 tmpdir_write("bad.conf", "Dimensions=4x4 Nodes=n[1-16]\nMethod=fast\n"));
	torus_spec(&s, bad);
	ck_assert_int_eq(tp_topo_load(&t, &s, &err), -1);
	snprintf(want, sizeof(want), "%s:2:", bad);
	assert_err_has(&err, want);
	assert_err_has(&err, "fast");
	assert_empty(&t);
	tmpdir_remove();
}
END_TEST

/* spec.ntransit replaces the file's Ntransit= (-1 keeps it). */
START_TEST(test_torus_ntransit_override)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", tmpdir_write("torus.conf",
		"Dimensions=4x4x2x2 Nodes=n[1-64] Method=mss Ntransit=1\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	torus_spec(&s, p);
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(tp_torus_ntransit(t.torus), 1);
	ck_assert_ptr_nonnull(strstr(t.describe, "Ntransit=1"));
	tp_topo_fini(&t);
	for (int n = 0; n <= 3; n++) {
		s.ntransit = n;
		ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(tp_torus_ntransit(t.torus), n);
		char want[32];
		snprintf(want, sizeof(want), "Ntransit=%d", n);
		ck_assert_ptr_nonnull(strstr(t.describe, want));
		/* the other options stay the file's */
		ck_assert_int_eq(tp_torus_default_method(t.torus), TP_TORUS_MSS);
		tp_topo_fini(&t);
	}
	tmpdir_remove();
}
END_TEST

/* With Ntransit=2 a request of k nodes may get a box of k..k+2 nodes; a
 * request's max_nodes caps that (max_nodes = k: exactly k), a cap below
 * the request never places, max_nodes 0 is the torus's own rule.
 * Placements are boxes of the allowed sizes.  Through the loader, so
 * through the failure memo too. */
START_TEST(test_torus_request_limits_transit)
{
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", tmpdir_write("torus.conf",
		"Dimensions=4x4x2x2 Nodes=n[1-64] Method=mss Ntransit=2\n"
		"Shapeless=refuse\n" /* boxes only: what this test checks */));
	tp_topo_spec s;
	tp_topo t;
	tp_error err = { { 0 } };
	torus_spec(&s, p);
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	tp_nodeset avail, out;
	tp_nodeset_init(&avail, 64);
	tp_nodeset_init(&out, 64);

	/* 3 nodes on the empty torus: exactly 3 under max_nodes 3; 3..5
	 * without a cap */
	tp_nodeset_fill(&avail);
	tp_alloc_req req = { .nodes = 3, .max_nodes = 3 };
	ck_assert_int_eq(tp_alloc_place_req(t.alloc, &avail, &req, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 3);
	ck_assert(is_box(t.torus, &out));
	req.max_nodes = 0;
	ck_assert_int_eq(tp_alloc_place_req(t.alloc, &avail, &req, &out), 0);
	ck_assert_int_ge(tp_nodeset_count(&out), 3);
	ck_assert_int_le(tp_nodeset_count(&out), 5);
	ck_assert(is_box(t.torus, &out));
	req.max_nodes = 2;
	ck_assert_int_eq(tp_alloc_place_req(t.alloc, &avail, &req, &out), -1);

	tp_rng rng;
	tp_rng_seed(&rng, 5);
	int bigger = 0, exact = 0;
	for (int round = 0; round < 40; round++) {
		/* a random state: about a third of the nodes busy */
		tp_nodeset_zero(&avail);
		for (int j = 0; j < 64; j++)
			if (round == 0 || tp_rng_below(&rng, 3))
				tp_nodeset_set(&avail, j);
		for (int k = 1; k <= 9; k++) {
			req = (tp_alloc_req){ .nodes = k, .max_nodes = 0 };
			if (tp_alloc_place_req(t.alloc, &avail, &req, &out) == 0) {
				int got = tp_nodeset_count(&out);
				ck_assert(got >= k && got <= k + 2);
				ck_assert(tp_nodeset_subset(&out, &avail));
				ck_assert(is_box(t.torus, &out));
				bigger += got > k;
			}
			req.max_nodes = k;
			if (tp_alloc_place_req(t.alloc, &avail, &req, &out) == 0) {
				ck_assert_int_eq(tp_nodeset_count(&out), k);
				ck_assert(tp_nodeset_subset(&out, &avail));
				ck_assert(is_box(t.torus, &out));
				exact++;
			}
			if (k > 1) { /* below the request: no (0 = no limit) */
				req.max_nodes = k - 1;
				ck_assert_int_eq(tp_alloc_place_req(t.alloc, &avail,
								    &req, &out), -1);
				ck_assert_int_eq(tp_nodeset_count(&out), 0);
			}
			req.max_nodes = k + 1;
			if (tp_alloc_place_req(t.alloc, &avail, &req, &out) == 0) {
				ck_assert_int_le(tp_nodeset_count(&out), k + 1);
				ck_assert_int_ge(tp_nodeset_count(&out), k);
				ck_assert(is_box(t.torus, &out));
			}
			/* tp_alloc_place is the request without a cap */
			int rc = tp_alloc_place(t.alloc, &avail, k, &out);
			if (rc == 0)
				ck_assert_int_le(tp_nodeset_count(&out), k + 2);
		}
	}
	/* the limit mattered, and exact placements were found */
	ck_assert_int_gt(bigger, 0);
	ck_assert_int_gt(exact, 100);
	/* the torus keeps its configured Ntransit */
	ck_assert_int_eq(tp_torus_ntransit(t.torus), 2);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&out);
	tp_topo_fini(&t);
	tmpdir_remove();
}
END_TEST

/* ---- fragmentation (topology_g_get_fragmentation) ------------------------ */

static void set_nodes(tp_nodeset *s, const int *busy, int nbusy)
{
	tp_nodeset_fill(s);
	for (int i = 0; i < nbusy; i++)
		tp_nodeset_clear(s, busy[i]);
}

START_TEST(test_fragmentation)
{
	tp_error err = { { 0 } };
	tp_nodeset free;

	/* fat tree: MSUs that are not whole */
	tp_topo ft = { .kind = TP_TOPO_FATTREE };
	ft.tree = tp_fattree_generate(2, 4, &err);
	ck_assert_msg(ft.tree, "%s", err.msg);
	ft.nnodes = tp_fattree_nnodes(ft.tree);
	ck_assert_int_eq(ft.nnodes, 16);
	int unit = tp_fattree_msu_size(ft.tree, 0);
	ck_assert_int_ge(unit, 2);
	tp_nodeset_init(&free, 16);
	set_nodes(&free, NULL, 0);
	ck_assert_uint_eq(tp_topo_fragmentation(&ft, &free), 0);
	set_nodes(&free, (int[]){ 0 }, 1);
	ck_assert_uint_eq(tp_topo_fragmentation(&ft, &free), 1);
	set_nodes(&free, (int[]){ 0, 1 }, 2);        /* one unit */
	ck_assert_uint_eq(tp_topo_fragmentation(&ft, &free), 1);
	set_nodes(&free, (int[]){ 0, unit }, 2);     /* two units */
	ck_assert_uint_eq(tp_topo_fragmentation(&ft, &free), 2);
	tp_nodeset_zero(&free);
	ck_assert_uint_eq(tp_topo_fragmentation(&ft, &free),
			  (uint64_t)tp_fattree_nmsu(ft.tree));
	tp_nodeset_fini(&free);
	tp_fattree_free(ft.tree);

	/* torus: phi(all) - phi(free); a busy block fragments less than
	 * the same number of busy nodes scattered */
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s",
		 tmpdir_write("t44.conf", "Dimensions=4x4 Nodes=a[1-16]\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_topo_spec_init(&s, TP_TOPO_TORUS);
	s.conf = p;
	s.confdir = tmpdir;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	tp_nodeset_init(&free, 16);
	set_nodes(&free, NULL, 0);
	ck_assert_uint_eq(tp_topo_fragmentation(&t, &free), 0);
	set_nodes(&free, (int[]){ 0, 1, 4, 5 }, 4);   /* a 2x2 block */
	uint64_t block = tp_topo_fragmentation(&t, &free);
	set_nodes(&free, (int[]){ 0, 5, 10, 15 }, 4); /* a diagonal */
	uint64_t diag = tp_topo_fragmentation(&t, &free);
	ck_assert_uint_gt(block, 0);
	ck_assert_uint_gt(diag, block);
	tp_nodeset_fini(&free);
	tp_topo_fini(&t);
	tmpdir_remove();

	/* flat: busy nodes */
	tp_topo_spec_init(&s, TP_TOPO_FLAT);
	s.nnodes = 8;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	tp_nodeset_init(&free, 8);
	set_nodes(&free, (int[]){ 2, 7 }, 2);
	ck_assert_uint_eq(tp_topo_fragmentation(&t, &free), 2);
	tp_nodeset_fini(&free);
	tp_topo_fini(&t);
}
END_TEST

/* ---- the largest free unit (toposim --frag-csv) ------------------------- */

static int largest_without(const tp_topo *t, const int *busy, int nbusy)
{
	tp_nodeset free;
	tp_nodeset_init(&free, t->nnodes);
	set_nodes(&free, busy, nbusy);
	int n = tp_topo_largest_free(t, &free);
	tp_nodeset_fini(&free);
	return n;
}

START_TEST(test_largest_free)
{
	tp_error err = { { 0 } };
	/* fat tree of 4 leaves of 4: a whole subtree, else one leaf's free
	 * nodes */
	tp_topo ft = { .kind = TP_TOPO_FATTREE };
	ft.tree = tp_fattree_generate(2, 4, &err);
	ck_assert_msg(ft.tree, "%s", err.msg);
	ft.nnodes = ft.ninside = 16;
	ck_assert_int_eq(largest_without(&ft, NULL, 0), 16);
	ck_assert_int_eq(largest_without(&ft, (int[]){ 0 }, 1), 4);
	ck_assert_int_eq(largest_without(&ft, (int[]){ 0, 4, 8, 12 }, 4), 3);
	ck_assert_int_eq(largest_without(&ft, (int[]){ 0, 1, 2, 4, 5, 8, 12 }, 7),
			 3);
	int all[16];
	for (int i = 0; i < 16; i++)
		all[i] = i;
	ck_assert_int_eq(largest_without(&ft, all, 16), 0);
	tp_fattree_free(ft.tree);
	/* three levels: one busy node leaves three whole subtrees of 16 */
	ft.tree = tp_fattree_generate(3, 4, &err);
	ck_assert_msg(ft.tree, "%s", err.msg);
	ft.nnodes = ft.ninside = 64;
	ck_assert_int_eq(largest_without(&ft, NULL, 0), 64);
	ck_assert_int_eq(largest_without(&ft, (int[]){ 0 }, 1), 16);
	ck_assert_int_eq(largest_without(&ft, (int[]){ 0, 16, 32, 48 }, 4), 4);
	tp_fattree_free(ft.tree);

	/* torus 4x4: the largest free box */
	ck_assert_int_eq(tmpdir_make("check_topo"), 0);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s",
		 tmpdir_write("t44.conf", "Dimensions=4x4 Nodes=a[1-16]\n"));
	tp_topo_spec s;
	tp_topo t;
	tp_topo_spec_init(&s, TP_TOPO_TORUS);
	s.conf = p;
	s.confdir = tmpdir;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(largest_without(&t, NULL, 0), 16);
	ck_assert_int_eq(largest_without(&t, (int[]){ 0 }, 1), 12);
	ck_assert_int_eq(largest_without(&t, (int[]){ 0, 1, 4, 5 }, 4), 8);
	ck_assert_int_eq(largest_without(&t, all, 16), 0);
	tp_topo_fini(&t);
	tmpdir_remove();

	/* flat: the free nodes */
	tp_topo_spec_init(&s, TP_TOPO_FLAT);
	s.nnodes = 8;
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(largest_without(&t, (int[]){ 2, 7 }, 2), 6);
	tp_topo_fini(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topo");
	TCase *tc = tcase_create("flat");
	tcase_add_test(tc, test_flat);
	suite_add_tcase(s, tc);
	tc = tcase_create("fattree");
	tcase_add_test(tc, test_fattree_conf_missing_file_gives_defaults);
	tcase_add_test(tc, test_fattree_conf_all_keys);
	tcase_add_test(tc, test_fattree_conf_errors_name_file_line_value);
	tcase_add_test(tc, test_fattree_loads_real_topology);
	tcase_add_test(tc, test_fattree_paths);
	tcase_add_test(tc, test_fattree_missing_topology);
	tcase_add_test(tc, test_fattree_node_under_two_leaves);
	tcase_add_test(tc, test_fattree_child_listed_twice);
	suite_add_tcase(s, tc);
	tc = tcase_create("torus");
	tcase_add_test(tc, test_torus_method_from_file_and_option);
	tcase_add_test(tc, test_torus_method_anchor);
	tcase_add_test(tc, test_torus_other_conf);
	tcase_add_test(tc, test_torus_errors_name_file_line_or_setting);
	tcase_add_test(tc, test_torus_ntransit_override);
	tcase_add_test(tc, test_torus_request_limits_transit);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tc = tcase_create("fragmentation");
	tcase_add_test(tc, test_fragmentation);
	tcase_add_test(tc, test_largest_free);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
