/* check_least_loaded.c - unit tests for tasks/least_loaded.c: the pick
 * rule, and the worked example of patent CN105159769 ([0038]-[0047]). */
#include "check_util.h"
#include "tasks/least_loaded.h"

static tp_ll_nodes nodes;

/* count nodes of `cores` cores and `mem` memory, nothing used. */
static void setup_nodes(int count, int cores, double mem)
{
	ck_assert_int_eq(tp_ll_init(&nodes, count), 0);
	for (int k = 0; k < count; k++) {
		nodes.cores[k] = cores;
		nodes.mem[k] = mem;
	}
}

static void teardown(void)
{
	tp_ll_fini(&nodes);
}

static void use(int k, int cores, double mem)
{
	nodes.used_cores[k] = cores;
	nodes.used_mem[k] = mem;
}

START_TEST(test_init)
{
	tp_ll_nodes n;
	ck_assert_int_eq(tp_ll_init(&n, 3), 0);
	ck_assert_int_eq(n.n, 3);
	for (int k = 0; k < 3; k++) {
		ck_assert(n.up[k]);
		ck_assert_double_eq(n.speed[k], 1.0);
		ck_assert_int_eq(n.used_cores[k], 0);
	}
	/* nothing announced: nothing fits */
	ck_assert_int_eq(tp_ll_pick(&n, 1, 0, NULL, 0), -1);
	tp_ll_fini(&n);
	tp_ll_fini(&n); /* twice is harmless */
	ck_assert_int_eq(tp_ll_init(&n, -1), -1);
	ck_assert_int_eq(tp_ll_init(&n, 0), 0);
	ck_assert_int_eq(tp_ll_pick(&n, 1, 0, NULL, 0), -1);
	tp_ll_fini(&n);
}
END_TEST

/* Utilisation is used/announced cores, not the count of free cores. */
START_TEST(test_utilisation_order)
{
	setup_nodes(3, 4, 1000);
	nodes.cores[1] = 8;
	use(0, 1, 0); /* 1/4 = 0.25, 3 free */
	use(1, 4, 0); /* 4/8 = 0.5, 4 free: more free cores, busier */
	use(2, 2, 0); /* 0.5 */
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 100, NULL, 0), 0);
	use(0, 3, 0); /* 0.75 */
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 100, NULL, 0), 1); /* tie 1,2 */
	use(1, 5, 0); /* 0.625 */
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 100, NULL, 0), 2);
	/* a task of 2 cores: node 0 has one free core only */
	use(2, 3, 0); /* 0.75, 1 free */
	use(1, 7, 0); /* 0.875, 1 free */
	ck_assert_int_eq(tp_ll_pick(&nodes, 2, 100, NULL, 0), -1);
	use(1, 6, 0); /* 0.75, 2 free */
	ck_assert_int_eq(tp_ll_pick(&nodes, 2, 100, NULL, 0), 1);
	teardown();
}
END_TEST

START_TEST(test_ties_lower_index)
{
	setup_nodes(4, 6, 1000);
	nodes.cores[0] = 3;
	nodes.cores[2] = 6;
	use(0, 1, 0); /* 1/3 */
	use(1, 2, 0); /* 2/6: the same, exactly */
	use(2, 2, 0);
	use(3, 2, 0);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, NULL, 0), 0);
	int ex0[] = { 0 };
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, ex0, 1), 1);
	/* all idle: the first */
	for (int k = 0; k < 4; k++)
		use(k, 0, 0);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, NULL, 0), 0);
	teardown();
}
END_TEST

/* Only nodes with enough free memory count; equal is enough. */
START_TEST(test_memory_filter)
{
	setup_nodes(3, 4, 1000);
	use(0, 0, 700);  /* idle but 300 free */
	use(1, 2, 0);
	use(2, 1, 500);  /* 500 free */
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 300, NULL, 0), 0);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 301, NULL, 0), 2);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 500, NULL, 0), 2);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 501, NULL, 0), 1);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 1001, NULL, 0), -1);
	ck_assert(tp_ll_fits(&nodes, 0, 4, 300));
	ck_assert(!tp_ll_fits(&nodes, 0, 5, 300));
	teardown();
}
END_TEST

/* No free core anywhere: -1 even with memory to spare (claim 7). */
START_TEST(test_no_free_core)
{
	setup_nodes(3, 2, 1000);
	for (int k = 0; k < 3; k++)
		use(k, 2, 0);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 1, NULL, 0), -1);
	ck_assert_int_eq(tp_ll_pick_first(&nodes, 1, 1, NULL, 0), -1);
	tp_ll_release(&nodes, 2, 1, 0);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 1, NULL, 0), 2);
	teardown();
}
END_TEST

/* Replicas: a node holding a sibling copy is skipped. */
START_TEST(test_exclusion)
{
	setup_nodes(3, 4, 1000);
	use(1, 1, 0);
	use(2, 2, 0);
	int ex[] = { 0, 1 };
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, ex, 1), 1);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, ex, 2), 2);
	int all[] = { 2, 0, 1 };
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, all, 3), -1);
	ck_assert_int_eq(tp_ll_pick_first(&nodes, 1, 0, ex, 2), 2);
	teardown();
}
END_TEST

START_TEST(test_down_nodes)
{
	setup_nodes(2, 4, 1000);
	use(1, 3, 0);
	nodes.up[0] = false;
	ck_assert(!tp_ll_fits(&nodes, 0, 1, 0));
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, NULL, 0), 1);
	ck_assert_int_eq(tp_ll_pick_first(&nodes, 1, 0, NULL, 0), 1);
	nodes.up[1] = false;
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, NULL, 0), -1);
	teardown();
}
END_TEST

/* The baseline takes the first node that fits, loaded or not. */
START_TEST(test_pick_first)
{
	setup_nodes(3, 4, 1000);
	use(0, 4, 0);
	use(1, 3, 900);
	use(2, 0, 0);
	ck_assert_int_eq(tp_ll_pick_first(&nodes, 1, 100, NULL, 0), 1);
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 100, NULL, 0), 2);
	ck_assert_int_eq(tp_ll_pick_first(&nodes, 1, 101, NULL, 0), 2);
	teardown();
}
END_TEST

START_TEST(test_take_release)
{
	setup_nodes(1, 4, 1000);
	tp_ll_take(&nodes, 0, 3, 600);
	ck_assert_int_eq(tp_ll_free_cores(&nodes, 0), 1);
	ck_assert_double_eq(tp_ll_free_mem(&nodes, 0), 400);
	tp_ll_release(&nodes, 0, 2, 500);
	ck_assert_int_eq(tp_ll_free_cores(&nodes, 0), 3);
	ck_assert_double_eq(tp_ll_free_mem(&nodes, 0), 900);
	teardown();
}
END_TEST

/* ---- the patent's worked example --------------------------------------
 *
 * The patent gives each node's free "resource capability" as (memory G,
 * CPU), with CPU in steps of 0.5: a task there takes half a CPU.  Here a
 * core is half a CPU (the patent's 3.5 is 7 cores) and memory is counted
 * in 1/1000 G, so every number is a whole one.  The nodes' totals are not
 * in the text (the paragraph before [0038] is missing from the seed); all
 * nodes get 4 CPUs (8 cores) and 8 G, so the lowest utilisation is the
 * most free CPU, which is the order job 4 ([0043]) follows to the task.
 * The example is restarted from the text's own numbers at each paragraph,
 * so a slip in one step does not carry into the next.
 */
#define G 1000.0

/* Free (memory G, CPU) per node, as the patent writes them. */
static void patent_state(int count, const double (*freeg)[2])
{
	for (int k = 0; k < count; k++) {
		nodes.used_mem[k] = nodes.mem[k] - freeg[k][0] * G;
		nodes.used_cores[k] = nodes.cores[k] - (int)(freeg[k][1] * 2);
	}
}

static void assert_free(int k, double g, double cpu)
{
	ck_assert_double_eq(tp_ll_free_mem(&nodes, k), g * G);
	ck_assert_int_eq(tp_ll_free_cores(&nodes, k), (int)(cpu * 2));
}

/* Place one task of (1 core, mem) by the rule; the node it got. */
static int place(double mem, const int *ex, int nex)
{
	int k = tp_ll_pick(&nodes, 1, mem, ex, nex);
	if (k >= 0)
		tp_ll_take(&nodes, k, 1, mem);
	return k;
}

/* [0038]-[0039]: after job 1 the nodes are (2G,3) (1G,3.5) (4G,2); job 2's
 * three tasks go to node2, node1, node3 and leave (1.5G,2.5) (0G,3)
 * (3.5G,1.5).  Nodes 1 and 3 lose 0.5 G each, so a job-2 task needs
 * 0.5 G; node2 losing 1 G does not add up.  The first two choices are
 * the rule's (node2 is the least loaded; then node1 and node2 tie and the
 * lower index wins).  For task2_3 the rule gives node2 (2.5 CPU free of
 * 4 against node1's 2.5 and node3's 2; 0.5 G left fits), not the text's
 * node3: asserted as the rule gives it. */
START_TEST(test_patent_job2)
{
	setup_nodes(3, 8, 8 * G);
	patent_state(3, (const double[][2]){ { 2, 3 }, { 1, 3.5 }, { 4, 2 } });
	ck_assert_int_eq(place(0.5 * G, NULL, 0), 1);  /* task2_1: node2 */
	ck_assert_int_eq(place(0.5 * G, NULL, 0), 0);  /* task2_2: node1 */
	ck_assert_int_eq(place(0.5 * G, NULL, 0), 1);  /* task2_3: text node3 */
	assert_free(0, 1.5, 2.5);                      /* as the text */
	assert_free(1, 0, 2.5);
	teardown();
}
END_TEST

/* [0040]: from the text's state after job 2, job 3's tasks go to node1,
 * node3, node3, as in the text.  Its tasks need 1 G (worked out in
 * [0044]); node2 has no memory left, node1 keeps 0.5 G after task3_1. */
START_TEST(test_patent_job3)
{
	setup_nodes(3, 8, 8 * G);
	patent_state(3, (const double[][2]){ { 1.5, 2.5 }, { 0, 3 }, { 3.5, 1.5 } });
	ck_assert_int_eq(place(1 * G, NULL, 0), 0);  /* task3_1: node1 */
	ck_assert_int_eq(place(1 * G, NULL, 0), 2);  /* task3_2: node3 */
	ck_assert_int_eq(place(1 * G, NULL, 0), 2);  /* task3_3: node3 */
	assert_free(0, 0.5, 2);
	assert_free(2, 1.5, 0.5);
	ck_assert_int_eq(place(2 * G, NULL, 0), -1); /* no node has 2 G */
	teardown();
}
END_TEST

/* [0043]-[0044]: job 1 done, the nodes are (2G,3) (1G,3.5) (1G,0.5); job
 * 4 has 16 tasks of half a CPU and 0.1 G.  The text: task4_1, 4_3, ...,
 * 4_13 on node2, task4_2, 4_4, ..., 4_12 on node1, task4_14 on node3,
 * then no node has a free CPU though memory is free, and task4_15 and
 * task4_16 wait in the delay queue.  The rule gives exactly that. */
START_TEST(test_patent_job4)
{
	setup_nodes(3, 8, 8 * G);
	patent_state(3, (const double[][2]){ { 2, 3 }, { 1, 3.5 }, { 1, 0.5 } });
	/* job 3 still runs: task3_1 on node1, task3_2 and 3_3 on node3 */
	for (int t = 1; t <= 14; t++) {
		int want = t == 14 ? 2 : t % 2 ? 1 : 0;
		ck_assert_msg(place(0.1 * G, NULL, 0) == want,
			      "task4_%d not on node%d", t, want + 1);
	}
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(tp_ll_free_cores(&nodes, k), 0);
		ck_assert(tp_ll_free_mem(&nodes, k) > 0.1 * G);
	}
	ck_assert_int_eq(place(0.1 * G, NULL, 0), -1); /* task4_15 waits */
	ck_assert_int_eq(place(0.1 * G, NULL, 0), -1); /* task4_16 waits */

	/* [0044]: job 3 ends; the text has node1 at (2.4G,0.5) and node3 at
	 * (2.9G,1): true when a job-3 task held 1 G and half a CPU and a
	 * job-4 task 0.1 G (2 - 0.6 + 1 = 2.4, 1 - 0.1 + 2 = 2.9). */
	tp_ll_release(&nodes, 0, 1, 1 * G);
	tp_ll_release(&nodes, 2, 1, 1 * G);
	tp_ll_release(&nodes, 2, 1, 1 * G);
	ck_assert_double_eq_tol(tp_ll_free_mem(&nodes, 0), 2.4 * G, 1e-9);
	ck_assert_double_eq_tol(tp_ll_free_mem(&nodes, 2), 2.9 * G, 1e-9);
	ck_assert_int_eq(tp_ll_free_cores(&nodes, 0), 1);
	ck_assert_int_eq(tp_ll_free_cores(&nodes, 2), 2);
	/* The text runs task4_15 and task4_16 both on node3.  The rule puts
	 * task4_15 on node3 (1 CPU free against 0.5) and then, node1 and
	 * node3 tied, task4_16 on node1.  The simulator (tasksim.h) serves
	 * each node as it frees a core: when node3's two job-3 tasks end
	 * before node1's, both go to node3, as in the text. */
	ck_assert_int_eq(place(0.1 * G, NULL, 0), 2);
	ck_assert_int_eq(place(0.1 * G, NULL, 0), 0);
	teardown();
}
END_TEST

/* [0045]-[0047]: node4 joins with (2G,4) free; job 5's three tasks each
 * get a backup (R = 2) on another node; primaries first, then backups.
 * From (3G,3.5) (1G,1.5) (3G,1.5) (2G,4) the rule puts task5_1 on node4
 * (idle), task5_2 on node1 (tied with node4, lower index) and task5_3 on
 * node4 again (the least loaded; only copies of one task are kept
 * apart).  The text writes node3, node1, node2; its next state, (2G,3)
 * (0G,3) (3G,1.5) (1G,3.5), has one task each on node1, node2 and node4
 * and none on node3, and [0047] reads task5_1's result from its backup
 * when node4 fails: so task5_1 was on node4 and the text's "node3" is a
 * slip.  Asserted as the rule gives it. */
START_TEST(test_patent_job5_primaries)
{
	setup_nodes(4, 8, 8 * G);
	patent_state(4, (const double[][2]){ { 3, 3.5 }, { 1, 1.5 }, { 3, 1.5 },
					     { 2, 4 } });
	ck_assert_int_eq(place(1 * G, NULL, 0), 3); /* task5_1: node4 */
	ck_assert_int_eq(place(1 * G, NULL, 0), 0); /* task5_2: node1 */
	ck_assert_int_eq(place(1 * G, NULL, 0), 3); /* task5_3: text node2 */
	teardown();
}
END_TEST

/* [0046]-[0047]: from the text's state with the primaries on node4, node1
 * and node2, the backups go to node1, node4, node1, as in the text, never
 * beside their primary.  node4 fails: every task keeps a copy elsewhere
 * (task5_1', task5_2, task5_3 give the result, as in [0047]). */
START_TEST(test_patent_job5_backups)
{
	setup_nodes(4, 8, 8 * G);
	patent_state(4, (const double[][2]){ { 2, 3 }, { 0, 3 }, { 3, 1.5 },
					     { 1, 3.5 } });
	int primary[3] = { 3, 0, 1 };
	int backup[3];
	static const int text[3] = { 0, 3, 0 };
	for (int t = 0; t < 3; t++) {
		backup[t] = place(1 * G, &primary[t], 1);
		ck_assert_int_eq(backup[t], text[t]);
		ck_assert_int_ne(backup[t], primary[t]);
	}
	nodes.up[3] = false;
	for (int t = 0; t < 3; t++)
		ck_assert(primary[t] != 3 || backup[t] != 3);
	/* node2 (2 of 8 cores used) would be the least loaded, node4 is out */
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, NULL, 0), 1);
	nodes.up[3] = true;
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, NULL, 0), 1);
	int ex12[] = { 1, 2 };
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, ex12, 2), 3);
	nodes.up[3] = false;
	ck_assert_int_eq(tp_ll_pick(&nodes, 1, 0, ex12, 2), 0);
	teardown();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("least_loaded");
	TCase *tc = tcase_create("pick");
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_utilisation_order);
	tcase_add_test(tc, test_ties_lower_index);
	tcase_add_test(tc, test_memory_filter);
	tcase_add_test(tc, test_no_free_core);
	tcase_add_test(tc, test_exclusion);
	tcase_add_test(tc, test_down_nodes);
	tcase_add_test(tc, test_pick_first);
	tcase_add_test(tc, test_take_release);
	suite_add_tcase(s, tc);
	TCase *pe = tcase_create("patent");
	tcase_add_test(pe, test_patent_job2);
	tcase_add_test(pe, test_patent_job3);
	tcase_add_test(pe, test_patent_job4);
	tcase_add_test(pe, test_patent_job5_primaries);
	tcase_add_test(pe, test_patent_job5_backups);
	suite_add_tcase(s, pe);
	return s;
}

int main(void)
{
	return tp_check_run(suite());
}
