/* check_plugin_fattree_conf.c - unit tests for select/fattree's settings
 * (plugins/select_fattree/ft_config.c) and state loading (ft_state.c). */
#include "check_util.h"
#include "tmpdir_util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ft_config.h"
#include "ft_state.h"


START_TEST(test_missing_file_gives_defaults)
{
	ft_config c;
	tp_error err = { { 0 } };
	ck_assert_int_eq(ft_config_read(&c, "/nonexistent/fattree.conf",
					"/etc/slurm", &err), 0);
	ck_assert_str_eq(c.allocator, "fattree");
	ck_assert_str_eq(c.topology_file, "/etc/slurm/topology.conf");
	ck_assert_ptr_null(c.source);
	ck_assert_int_eq(c.opts.msu_size, 0);
	ck_assert_int_eq(c.opts.busy_fallback, 0);
	ck_assert_int_eq(c.opts.prefer_full, 1);
	ft_config_fini(&c);
}
END_TEST

START_TEST(test_all_keys)
{
	ck_assert_int_eq(tmpdir_make("check_plugin_conf"), 0);
	const char *p = tmpdir_write("fattree.conf",
		"# settings\n"
		"allocator=first-free TopologyFile=tree/t.conf\n"
		"MsuSize=2 BusyFallback=yes \\\n"
		"  PreferFull=no\n");
	ft_config c;
	tp_error err = { { 0 } };
	ck_assert_msg(ft_config_read(&c, p, "/etc/slurm", &err) == 0, "%s",
		      err.msg);
	ck_assert_str_eq(c.allocator, "first-free");
	ck_assert_str_eq(c.topology_file, "/etc/slurm/tree/t.conf");
	ck_assert_str_eq(c.source, p);
	ck_assert_int_eq(c.opts.msu_size, 2);
	ck_assert_int_eq(c.opts.busy_fallback, 1);
	ck_assert_int_eq(c.opts.prefer_full, 0);
	ft_config_fini(&c);

	/* An absolute TopologyFile is kept as it is. */
	p = tmpdir_write("abs.conf", "TopologyFile=/srv/topo.conf\n");
	ck_assert_int_eq(ft_config_read(&c, p, "/etc/slurm", &err), 0);
	ck_assert_str_eq(c.topology_file, "/srv/topo.conf");
	ft_config_fini(&c);
	tmpdir_remove();
}
END_TEST

/* Each bad line: the error names file:line and the offending value. */
START_TEST(test_errors_name_file_line_value)
{
	static const struct {
		const char *text, *line, *value;
	} bad[] = {
		{ "MsuSize=4\nMsuSize=-1\n", ":2:", "'-1'" },
		{ "MsuSize=four\n", ":1:", "'four'" },
		{ "\n\nBusyFallback=maybe\n", ":3:", "'maybe'" },
		{ "PreferFull=2\n", ":1:", "'2'" },
		{ "Allocator=nosuch\n", ":1:", "'nosuch'" },
		{ "# c\nMsuSze=4\n", ":2:", "'MsuSze'" },
		{ "Allocator\n", ":1:", "'Allocator'" },
	};
	ck_assert_int_eq(tmpdir_make("check_plugin_conf"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *p = tmpdir_write("fattree.conf", bad[i].text);
		ft_config c;
		tp_error err = { { 0 } };
		ck_assert_int_eq(ft_config_read(&c, p, tmpdir, &err), -1);
		ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, bad[i].line) &&
			      strstr(err.msg, bad[i].value),
			      "case %zu: '%s'", i, err.msg);
		ck_assert_ptr_null(c.allocator); /* emptied on error */
	}
	tmpdir_remove();
}
END_TEST

/* A real topology.conf: the tree, its MSUs and the allocator load. */
START_TEST(test_state_loads_real_topology)
{
	char topo[PATH_MAX];
	snprintf(topo, sizeof(topo), "%s/topology/ubccr-micro_cluster.topology.conf",
		 tp_data_dir());
	ck_assert_int_eq(tmpdir_make("check_plugin_conf"), 0);
	char text[PATH_MAX + 64];
	snprintf(text, sizeof(text), "TopologyFile=%s\nAllocator=first-free\nMsuSize=2\n", topo);
	const char *p = tmpdir_write("fattree.conf", text);
	ft_state s;
	tp_error err = { { 0 } };
	ck_assert_msg(ft_state_load(&s, p, tmpdir, &err) == 0, "%s", err.msg);
	/* n[1-4], m[1-4], g1, b1 */
	ck_assert_int_eq(tp_fattree_nnodes(s.tree), 10);
	ck_assert_int_eq(tp_fattree_nunit(s.tree), 2);
	ck_assert_int_ge(tp_fattree_node_index(s.tree, "m3"), 0);
	ck_assert_int_eq(s.alloc->nnodes, 10);

	/* Units touched: n1,n2 share an MSU of 2; m1 is another. */
	tp_nodeset ns;
	tp_nodeset_init(&ns, 10);
	tp_nodeset_set(&ns, tp_fattree_node_index(s.tree, "n1"));
	tp_nodeset_set(&ns, tp_fattree_node_index(s.tree, "n2"));
	ck_assert_int_eq(ft_state_units(&s, &ns), 1);
	tp_nodeset_set(&ns, tp_fattree_node_index(s.tree, "m1"));
	ck_assert_int_eq(ft_state_units(&s, &ns), 2);
	tp_nodeset_fini(&ns);
	ft_state_fini(&s);
	tmpdir_remove();
}
END_TEST

START_TEST(test_state_missing_topology)
{
	ck_assert_int_eq(tmpdir_make("check_plugin_conf"), 0);
	const char *p = tmpdir_write("fattree.conf", "Allocator=first-free\n");
	ft_state s;
	tp_error err = { { 0 } };
	/* Default topology.conf beside fattree.conf does not exist. */
	ck_assert_int_eq(ft_state_load(&s, p, tmpdir, &err), -1);
	ck_assert_msg(strstr(err.msg, "topology.conf"), "%s", err.msg);
	ck_assert_ptr_null(s.tree);
	tmpdir_remove();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plugin_fattree_conf");
	TCase *tc = tcase_create("conf");
	tcase_add_test(tc, test_missing_file_gives_defaults);
	tcase_add_test(tc, test_all_keys);
	tcase_add_test(tc, test_errors_name_file_line_value);
	tcase_add_test(tc, test_state_loads_real_topology);
	tcase_add_test(tc, test_state_missing_topology);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
