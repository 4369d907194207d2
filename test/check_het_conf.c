/* check_het_conf.c - the heterogeneous machine and job files: what they
 * read, and every bad input named by file, line and value. */
#include <string.h>

#include "check_util.h"
#include "hetsim/het_conf.h"
#include "tmpdir_util.h"

static const char *machine_text =
	"# two classes, a node in two partitions\n"
	"PartitionName=a Nodes=n[1-4] Class=fast\n"
	"PartitionName=b Nodes=n[4-6]\n"
	"PartitionName=c Nodes=m1 Class=fast\n";

static void read_machine(tp_het_conf *c)
{
	tp_error err = { "" };
	const char *p = tmpdir_write("m.conf", machine_text);
	ck_assert_msg(tp_het_conf_read(p, c, &err) == 0, "%s", err.msg);
}

START_TEST(test_machine)
{
	tp_het_conf c;
	read_machine(&c);
	ck_assert_int_eq(c.nnodes, 7);
	ck_assert_int_eq(c.nparts, 3);
	ck_assert_str_eq(c.part[1].name, "b");
	ck_assert_int_eq(c.part[1].nnodes, 3);
	/* Numbered by first appearance: n4 is node 3 in both partitions. */
	ck_assert_int_eq(c.part[1].node[0], 3);
	ck_assert_int_eq(c.part[1].node[2], 5);
	ck_assert_str_eq(c.node_name[6], "m1");
	ck_assert_int_eq(c.nmclass, 2);
	ck_assert_str_eq(c.mclass_name[c.part[0].mclass], "fast");
	ck_assert_str_eq(c.mclass_name[c.part[1].mclass], "b");
	ck_assert_int_eq(c.part[2].mclass, c.part[0].mclass);
	ck_assert_int_eq(tp_het_conf_part(&c, "c"), 2);
	ck_assert_int_eq(tp_het_conf_part(&c, "d"), -1);
	tp_het_conf_fini(&c);
}
END_TEST

/* Nodes are numbered through a hash: each name was compared with every
 * node before it, so a 19-byte "Nodes=n[1-200000]" took 2*10^10
 * comparisons (10,000 nodes took 5.4 s under the fuzzer's sanitizers,
 * 20,000 took 23 s); this test then ran out of Check's time. */
START_TEST(test_many_nodes)
{
	tp_het_conf c;
	tp_error err = { "" };
	const char *p = tmpdir_write("big.conf",
		"PartitionName=a Nodes=n[1-200000]\n"
		"PartitionName=b Nodes=n[150001-250000],m1 Class=a\n");
	ck_assert_msg(tp_het_conf_read(p, &c, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(c.nnodes, 250001);
	ck_assert_int_eq(c.part[1].nnodes, 100001);
	ck_assert_int_eq(c.part[1].node[0], 150000); /* n150001, shared */
	ck_assert_str_eq(c.node_name[250000], "m1");
	ck_assert_int_eq(c.nmclass, 1);
	tp_het_conf_fini(&c);
	p = tmpdir_write("twice.conf", "PartitionName=a Nodes=n[1-200000],n7\n");
	ck_assert_int_eq(tp_het_conf_read(p, &c, &err), -1);
	ck_assert_msg(strstr(err.msg, ":1: Nodes: node named twice 'n7'"), "%s", err.msg);
}
END_TEST

START_TEST(test_jobs)
{
	tp_het_conf c;
	tp_het_workload w;
	tp_error err = { "" };
	read_machine(&c);
	const char *p = tmpdir_write("j.conf",
		"JobId=1 Submit=0 Class=sleep Partitions=a,b Nodes=1-4 TimeLimit=120\n"
		"JobId=7 Submit=30 Class=cc Partitions=b Nodes=2 TimeLimit=5 Priority=2\n"
		"JobId=3 Submit=30 Class=sleep Partitions=c,a Nodes=1-9 TimeLimit=60\n");
	ck_assert_msg(tp_het_jobs_read(p, &c, &w, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w.n, 3);
	ck_assert_int_eq(w.job[0].nmin, 1);
	ck_assert_int_eq(w.job[0].nmax, 4);
	ck_assert_int_eq(w.job[0].nparts, 2);
	ck_assert_int_eq(w.job[0].parts[1], 1);
	ck_assert_int_eq(w.job[0].prio, 0);
	ck_assert_int_eq(w.job[1].id, 7);
	ck_assert_int_eq(w.job[1].submit, 30);
	ck_assert_int_eq(w.job[1].nmin, 2);
	ck_assert_int_eq(w.job[1].nmax, 2);
	ck_assert_int_eq(w.job[1].estimate, 5);
	ck_assert_int_eq(w.job[1].prio, 2);
	ck_assert_int_eq(w.njclass, 2);
	ck_assert_int_eq(w.job[2].jclass, w.job[0].jclass);
	/* A range wider than any partition is capped at the widest. */
	ck_assert_int_eq(w.job[2].nmax, 4);
	tp_het_workload_fini(&w);
	tp_het_conf_fini(&c);
}
END_TEST

/* Write and read back: the same machine and jobs. */
START_TEST(test_roundtrip)
{
	tp_het_conf c, c2;
	tp_het_workload w, w2;
	tp_error err = { "" };
	read_machine(&c);
	const char *p = tmpdir_write("j.conf",
		"JobId=1 Submit=0 Class=x Partitions=a,b Nodes=1-3 TimeLimit=9 Priority=1\n");
	ck_assert_msg(tp_het_jobs_read(p, &c, &w, &err) == 0, "%s", err.msg);
	char path[512];
	snprintf(path, sizeof(path), "%s/m2.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	ck_assert_int_eq(tp_het_conf_write(fp, &c), 0);
	fclose(fp);
	ck_assert_msg(tp_het_conf_read(path, &c2, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(c2.nnodes, c.nnodes);
	ck_assert_int_eq(c2.part[1].nnodes, 3);
	snprintf(path, sizeof(path), "%s/j2.conf", tmpdir);
	fp = fopen(path, "w");
	ck_assert_int_eq(tp_het_jobs_write(fp, &c2, &w), 0);
	fclose(fp);
	ck_assert_msg(tp_het_jobs_read(path, &c2, &w2, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(w2.job[0].nmax, 3);
	ck_assert_int_eq(w2.job[0].prio, 1);
	ck_assert_int_eq(w2.job[0].estimate, 9);
	tp_het_workload_fini(&w);
	tp_het_workload_fini(&w2);
	tp_het_conf_fini(&c);
	tp_het_conf_fini(&c2);
}
END_TEST

/* Each bad machine line: the message names the file, the line and the
 * value. */
static void bad_machine(const char *text, const char *want)
{
	tp_het_conf c;
	tp_error err = { "" };
	const char *p = tmpdir_write("bad.conf", text);
	ck_assert_int_eq(tp_het_conf_read(p, &c, &err), -1);
	ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, "bad.conf:"),
		      "want '%s' in '%s'", want, err.msg);
}

START_TEST(test_machine_errors)
{
	bad_machine("PartitionName=a Nodes=n[1-2]\nPartitionName=b Nodes=n[3-\n",
		    ":2: Nodes:");
	bad_machine("PartitionName=a Nodes=n1 Speed=3\n", ":1: unknown key (PartitionName, Nodes, Class) 'Speed'");
	bad_machine("PartitionName=a\n", ":1: a partition needs PartitionName= and Nodes= 'a'");
	bad_machine("PartitionName=a Nodes=n1\n\nPartitionName=a Nodes=n2\n",
		    ":3: PartitionName: partition defined twice 'a'");
	bad_machine("PartitionName=a Nodes=n[1-2],n1\n", ":1: Nodes: node named twice 'n1'");
	bad_machine("# nothing\n", "no partitions");
	/* the second replaced the first without a word (found by
	 * fuzz/fuzz_het_machine) */
	bad_machine("PartitionName=a PartitionName=b Nodes=n1\n",
		    ":1: key given twice 'PartitionName'");
}
END_TEST

static void bad_jobs(const char *text, const char *want)
{
	tp_het_conf c;
	tp_het_workload w;
	tp_error err = { "" };
	read_machine(&c);
	const char *p = tmpdir_write("badj.conf", text);
	ck_assert_int_eq(tp_het_jobs_read(p, &c, &w, &err), -1);
	ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, "badj.conf"),
		      "want '%s' in '%s'", want, err.msg);
	tp_het_conf_fini(&c);
}

START_TEST(test_job_errors)
{
	const char *ok = "JobId=1 Submit=0 Class=s Partitions=a Nodes=1 TimeLimit=5\n";
	char buf[512];
	snprintf(buf, sizeof(buf), "%sJobId=2 Submit=0 Class=s Partitions=a,z Nodes=1 TimeLimit=5\n", ok);
	bad_jobs(buf, ":2: Partitions: no such partition 'z'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a Nodes=4-2 TimeLimit=5\n",
		 ":1: Nodes: expected N or N-M (1 <= N <= M) '4-2'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a Nodes=0 TimeLimit=5\n",
		 ":1: Nodes: expected N or N-M (1 <= N <= M) '0'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=b Nodes=4 TimeLimit=5\n",
		 ":1: Nodes: more than any of its partitions has (3) '4'");
	bad_jobs("JobId=1 Submit=-3 Class=s Partitions=a Nodes=1 TimeLimit=5\n",
		 ":1: Submit: expected a whole number of seconds >= 0 '-3'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a Nodes=1 TimeLimit=0\n",
		 ":1: TimeLimit: expected a whole number of seconds >= 1 '0'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a Nodes=1 TimeLimit=5 Priority=x\n",
		 ":1: Priority: expected a level from 0 (first) to 1000 'x'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a Nodes=1\n",
		 ":1: missing TimeLimit=");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a,a Nodes=1 TimeLimit=5\n",
		 ":1: Partitions: partition named twice 'a'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a Nodes=1 TimeLimit=5 Mem=3\n",
		 ":1: unknown key (JobId, Submit, Class, Partitions, Nodes, TimeLimit, Priority) 'Mem'");
	snprintf(buf, sizeof(buf), "%s%s", ok, ok);
	bad_jobs(buf, "JobId: two jobs have the id '1'");
	bad_jobs("JobId=1 Submit=0 Class=s Partitions=a Nodes=1 TimeLimit=5 Partitions=b\n",
		 ":1: key given twice 'Partitions'");
}
END_TEST

static void setup(void) { ck_assert_int_eq(tmpdir_make("hetconf"), 0); }
static void teardown(void) { tmpdir_remove(); }

int main(void)
{
	Suite *s = suite_create("het_conf");
	TCase *tc = tcase_create("files");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_machine);
	tcase_add_test(tc, test_many_nodes);
	tcase_add_test(tc, test_jobs);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_machine_errors);
	tcase_add_test(tc, test_job_errors);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
