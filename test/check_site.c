/* check_site.c - unit tests for site.c: slurm.conf's nodes and partitions
 * read as slurmctld reads them (DEFAULT lines, Include, geometry, GRES,
 * limits), and bad input named by file, line and value. */
#include "check_util.h"
#include "site/site.h"
#include "tmpdir_util.h"

#include <string.h>

static void setup(void)
{
	ck_assert_int_eq(tmpdir_make("check_site"), 0);
}

static void teardown(void)
{
	tmpdir_remove();
}

static void read_ok(const char *path, tp_site *s)
{
	tp_error err = { "" };
	int rc = tp_site_read(path, s, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
}

/* DEFAULT lines apply to the lines after them only, and a line's own
 * value wins; CPUs from the geometry; gpu counts added up. */
START_TEST(test_nodes)
{
	tp_site s;
	read_ok(tmpdir_write("slurm.conf",
		"ClusterName=c\n"
		"NodeName=a1 CPUs=2\n"
		"NodeName=DEFAULT CPUs=32 RealMemory=128000\n"
		"NodeName=n[1-2]\n"
		"NodeName=big RealMemory=512000 Gres=gpu:a100:2,gpu:v100:2(S:0-1),shard:8\n"
		"NodeName=DEFAULT CPUs=0 Sockets=2 CoresPerSocket=8 ThreadsPerCore=2\n"
		"NodeName=geo\n"), &s);
	ck_assert_uint_eq(s.nnodes, 5);
	ck_assert_str_eq(s.nodes[0].name, "a1");
	ck_assert_int_eq(s.nodes[0].cpus, 2);
	ck_assert_int_eq(s.nodes[0].mem_mb, 1); /* Slurm's default */
	ck_assert_int_eq(s.nodes[2].cpus, 32);
	ck_assert_int_eq(s.nodes[2].mem_mb, 128000);
	ck_assert_int_eq(s.nodes[3].mem_mb, 512000);
	ck_assert_int_eq(s.nodes[3].gpus, 4);
	ck_assert_int_eq(s.nodes[4].cpus, 2 * 8 * 2);
	ck_assert_int_eq(tp_site_node_find(&s, "n2"), 2);
	ck_assert_int_eq(tp_site_node_find(&s, "n3"), -1);
	tp_site_fini(&s);
}
END_TEST

/* Partitions: DEFAULT values, Nodes=ALL, limits in Slurm's time forms,
 * the old Priority= and Shared= keys, an Include beside the file. */
START_TEST(test_partitions_and_include)
{
	tp_site s;
	tmpdir_write("nodes.conf", "NodeName=n[1-4] CPUs=8\n");
	read_ok(tmpdir_write("slurm.conf",
		"Include nodes.conf\n"
		"NodeName=g1 CPUs=16 Gres=gpu:2\n"
		"PartitionName=DEFAULT MaxTime=1-00:00:00 State=UP\n"
		"PartitionName=batch Nodes=n[1-4] Default=YES OverSubscribe=EXCLUSIVE MaxNodes=2\n"
		"PartitionName=shared Nodes=n[3-4],g1 MaxTime=90 PriorityTier=10 PriorityJobFactor=5 OverSubscribe=FORCE:4\n"
		"PartitionName=DEFAULT MaxTime=UNLIMITED\n"
		"PartitionName=all Nodes=ALL Priority=3 Shared=YES State=DRAIN DefaultTime=2-12\n"), &s);
	ck_assert_uint_eq(s.nnodes, 5);
	ck_assert_uint_eq(s.nparts, 3);
	const tp_site_part *b = tp_site_part_find(&s, "batch");
	const tp_site_part *sh = tp_site_part_find(&s, "shared");
	const tp_site_part *all = tp_site_part_find(&s, "all");
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(sh);
	ck_assert_ptr_nonnull(all);
	ck_assert_ptr_null(tp_site_part_find(&s, "Batch"));
	ck_assert_int_eq(b->max_time, 86400);
	ck_assert_int_eq(b->max_nodes, 2);
	ck_assert_int_eq(b->oversub, TP_OVERSUB_EXCLUSIVE);
	ck_assert(b->is_default);
	ck_assert_uint_eq(b->nnodes, 4);
	ck_assert_int_eq(sh->max_time, 90 * 60);
	ck_assert_int_eq(sh->priority_tier, 10);
	ck_assert_int_eq(sh->priority_job_factor, 5);
	ck_assert_int_eq(sh->oversub, TP_OVERSUB_FORCE);
	ck_assert_int_eq(sh->oversub_count, 4);
	ck_assert_uint_eq(sh->nnodes, 3);
	ck_assert_int_eq(sh->nodes[2], 4); /* g1 */
	ck_assert_int_eq(sh->max_nodes, TP_SITE_UNLIMITED);
	ck_assert_int_eq(all->max_time, TP_SITE_UNLIMITED);
	ck_assert_int_eq(all->default_time, 2 * 86400 + 12 * 3600);
	ck_assert_int_eq(all->priority_tier, 3);
	ck_assert_int_eq(all->priority_job_factor, 3);
	ck_assert_int_eq(all->oversub, TP_OVERSUB_YES);
	ck_assert_int_eq(all->oversub_count, 4); /* Slurm's default */
	ck_assert_int_eq(b->oversub_count, 1);
	ck_assert_int_eq(all->state, TP_PART_DRAIN);
	ck_assert_uint_eq(all->nnodes, 5);
	ck_assert_int_eq(b->state, TP_PART_UP);
	tp_site_fini(&s);
}
END_TEST

static void expect_error(const char *text, const char *msg)
{
	tp_site s;
	tp_error err = { "" };
	ck_assert_int_eq(tp_site_read(tmpdir_write("bad.conf", text), &s, &err), -1);
	ck_assert_msg(strstr(err.msg, msg), "'%s' lacks '%s'", err.msg, msg);
	ck_assert_uint_eq(s.nnodes, 0);
	tp_site_fini(&s);
}

START_TEST(test_errors)
{
	expect_error("NodeName=n1\nNodeName=n[0-1]\n", "bad.conf:2: node defined twice 'n1'");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n[1-2]\n",
		     "bad.conf:2: partition node without a NodeName line 'n2'");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n1\nPartitionName=p Nodes=n1\n",
		     "bad.conf:3: partition defined twice 'p'");
	expect_error("NodeName=n1 CPUs=x\n", "bad.conf:1: bad CPUs 'x'");
	expect_error("NodeName=n1 Gres=gpu:a100:many\n", "bad.conf:1: bad Gres 'gpu:a100:many'");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n1 MaxTime=1-25\n",
		     "bad.conf:2: bad MaxTime '1-25'");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n1 OverSubscribe=EXCLUSIVE:2\n",
		     "bad.conf:2: bad OverSubscribe 'EXCLUSIVE:2'");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n1 OverSubscribe=FORCE:0\n",
		     "bad.conf:2: bad OverSubscribe 'FORCE:0'");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n1 State=SLEEPING\n",
		     "bad.conf:2: bad State 'SLEEPING'");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n1 MaxNodes=-2\n",
		     "bad.conf:2: bad MaxNodes '-2'");
	expect_error("Include missing.conf\n", "missing.conf: cannot open");
	expect_error("Include bad.conf\n", "Include nested more than 8 deep");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("site");
	TCase *tc = tcase_create("slurm.conf");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_nodes);
	tcase_add_test(tc, test_partitions_and_include);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
