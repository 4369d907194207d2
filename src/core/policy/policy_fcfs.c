/*
 * policy_fcfs.c - first come, first served: start queued jobs strictly in
 * order and stop at the first one that cannot be placed.  Never reorders.
 */
#include "policy/first_fit.h"
#include "policy/policy.h"

static void fcfs_pass(tp_policy *p, tp_cluster *c)
{
	(void)p;
	tp_first_fit(c, 1);
}

const tp_policy_ops tp_policy_fcfs = {
	.name = "fcfs",
	.summary = "first come, first served; never reorders",
	.pass = fcfs_pass,
};
