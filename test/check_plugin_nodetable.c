/* check_plugin_nodetable.c - unit tests for plugins/common/tpl_nodetable.c
 * against a node table of libslurmfull: the CPU -> node rule that
 * sched/topo and the select plugins share, on a partition with nodes of
 * two sizes; slurm.conf's nodes that topology.conf lacks. */
#include "check_util.h"
#include "tmpdir_util.h"

#include <string.h>

#include "model/job.h"
#include "tpl_nodetable.h"

#define NNODES 4

static node_record_t nodes[NNODES];
static node_record_t *table[NNODES];

/* n1, n2 with 2 CPUs; n3, n4 with 4; a partition of `first..last`. */
static bitstr_t *setup_partition(part_record_t *p, int first, int last)
{
	static const uint16_t cpus[NNODES] = { 2, 2, 4, 4 };
	static char names[NNODES][8];
	for (int i = 0; i < NNODES; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		snprintf(names[i], sizeof(names[i]), "n%d", i + 1);
		nodes[i].name = names[i];
		nodes[i].cpus = cpus[i];
		nodes[i].real_memory = 4000;
		nodes[i].index = i;
		table[i] = &nodes[i];
	}
	node_record_table_ptr = table;
	node_record_count = NNODES;
	memset(p, 0, sizeof(*p));
	p->node_bitmap = bit_alloc(NNODES);
	bit_nset(p->node_bitmap, first, last);
	return p->node_bitmap;
}

START_TEST(test_min_cpus_of_mixed_partition)
{
	part_record_t p;
	bitstr_t *b = setup_partition(&p, 0, 3);
	ck_assert_uint_eq(tpl_part_min_cpus(&p), 2);
	bit_nclear(b, 0, 1); /* only the 4-CPU nodes */
	ck_assert_uint_eq(tpl_part_min_cpus(&p), 4);
	bit_nclear(b, 0, 3);
	ck_assert_uint_eq(tpl_part_min_cpus(&p), 0);
	ck_assert_uint_eq(tpl_part_min_cpus(NULL), 0);
	FREE_NULL_BITMAP(p.node_bitmap);
}
END_TEST

/* -n 6 on a partition of 2- and 4-CPU nodes: 3 nodes, enough whichever
 * nodes the allocator picks (2 would do only on the large ones); both
 * drivers derive it from the same two calls. */
START_TEST(test_job_nodes_on_mixed_partition)
{
	part_record_t p;
	setup_partition(&p, 0, 3);
	uint32_t cpn = tpl_part_min_cpus(&p);
	ck_assert_int_eq(tp_job_nodes(1, 6, cpn), 3);
	ck_assert_int_eq(tp_job_nodes(0, 1, cpn), 1);
	ck_assert_int_eq(tp_job_nodes(4, 6, cpn), 4);  /* -N wins when larger */
	ck_assert_int_eq(tp_job_nodes(1, 7, cpn), 4);  /* rounds up */
	ck_assert_int_eq(tp_job_nodes(1, 6, 0), 1);    /* unknown CPUs */
	FREE_NULL_BITMAP(p.node_bitmap);
	setup_partition(&p, 2, 3);                     /* large nodes only */
	ck_assert_int_eq(tp_job_nodes(1, 6, tpl_part_min_cpus(&p)), 2);
	FREE_NULL_BITMAP(p.node_bitmap);
}
END_TEST

/* --mem-per-cpu=1900 on 4000 MB nodes: two CPUs a node, so -n 8 needs 4
 * nodes of the 4-CPU ones, not 2 (the count the CPUs alone give, which
 * select refuses every time: a job sched/topo never started); per-node
 * memory, or none, leaves the CPUs alone; memory no node holds leaves
 * the node count to -N. */
START_TEST(test_job_cpus_with_memory_per_cpu)
{
	part_record_t p;
	struct job_details d;
	job_record_t j;
	memset(&d, 0, sizeof(d));
	memset(&j, 0, sizeof(j));
	j.details = &d;
	setup_partition(&p, 2, 3);
	d.pn_min_memory = 1900 | MEM_PER_CPU;
	ck_assert_uint_eq(tpl_part_job_cpus(&p, &j), 2);
	ck_assert_int_eq(tp_job_nodes(1, 8, tpl_part_job_cpus(&p, &j)), 4);
	d.pn_min_memory = 900 | MEM_PER_CPU;
	ck_assert_uint_eq(tpl_part_job_cpus(&p, &j), 4);
	d.pn_min_memory = 1900; /* per node */
	ck_assert_uint_eq(tpl_part_job_cpus(&p, &j), 4);
	d.pn_min_memory = NO_VAL64;
	ck_assert_uint_eq(tpl_part_job_cpus(&p, &j), 4);
	d.pn_min_memory = 5000 | MEM_PER_CPU;
	ck_assert_uint_eq(tpl_part_job_cpus(&p, &j), 0);
	ck_assert_int_eq(tp_job_nodes(1, 8, tpl_part_job_cpus(&p, &j)), 1);
	FREE_NULL_BITMAP(p.node_bitmap);
}
END_TEST

/* slurm.conf has n1..n4, topology.conf n1..n3: the machine gets n4 as a
 * node outside the tree (it used to be an error that stopped slurmctld),
 * and where Slurm's own choice stands in, this release's rule (22.05:
 * never, as select/linear with topology/tree) keeps n4 out of it. */
START_TEST(test_map_node_outside_the_tree)
{
	part_record_t p;
	tp_topo t;
	tp_topo_spec s;
	tpl_nodemap m;
	tp_error err = { { 0 } };

	setup_partition(&p, 0, 3);
	ck_assert_int_eq(tmpdir_make("check_plugin_nodetable"), 0);
	tp_topo_spec_init(&s, TP_TOPO_FATTREE);
	s.topology = tmpdir_write("topology.conf", "SwitchName=s0 Nodes=n[1-3]\n");
	ck_assert_msg(tp_topo_load(&t, &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(tpl_topo_map(&m, &t, "test/plugin"), 0);
	ck_assert_int_eq(t.ninside, 3);
	ck_assert_int_eq(t.nnodes, 4);
	ck_assert_int_eq(m.ntopo, 4);
	ck_assert_int_eq(m.nmissing, 0);
	ck_assert_int_eq(m.to_topo[3], 3);
	ck_assert_int_eq(m.to_slurm[3], 3);
	ck_assert_str_eq(tp_topo_node_name(&t, 3), "n4");

	bitstr_t *b = bit_alloc(NNODES);
	bit_nset(b, 0, 3);
	tpl_keep_usable(&m, &t, &(tp_alloc_req){ .nodes = 1, .max_nodes = 1 }, b);
	ck_assert_int_eq(bit_set_count(b), 3);
	ck_assert(!bit_test(b, 3));
	/* the allocator keeps to the same rule */
	tp_nodeset only4;
	ck_assert_int_eq(tp_nodeset_init(&only4, 4), 0);
	tp_nodeset_set(&only4, 3);
	tp_nodeset out;
	ck_assert_int_eq(tp_nodeset_init(&out, 4), 0);
	ck_assert_int_eq(tp_alloc_place(t.alloc, &only4, 1, &out), -1);

	/* mapped again (reconfigure kept the machine): the same outside node */
	tpl_nodemap again;
	ck_assert_int_eq(tpl_topo_map(&again, &t, "test/plugin"), 0);
	ck_assert_int_eq(again.to_topo[3], 3);
	ck_assert_int_eq(t.nnodes, 4);
	tpl_nodemap_fini(&again);

	tp_nodeset_fini(&only4);
	tp_nodeset_fini(&out);
	FREE_NULL_BITMAP(b);
	tpl_nodemap_fini(&m);
	tp_topo_fini(&t);
	FREE_NULL_BITMAP(p.node_bitmap);
	tmpdir_remove();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plugin_nodetable");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_min_cpus_of_mixed_partition);
	tcase_add_test(tc, test_job_nodes_on_mixed_partition);
	tcase_add_test(tc, test_job_cpus_with_memory_per_cpu);
	tcase_add_test(tc, test_map_node_outside_the_tree);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
