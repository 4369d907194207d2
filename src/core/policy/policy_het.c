/*
 * policy_het.c - the heterogeneous schedules in the policy registry, so
 * that topo_policy= and toposim --policy name them like every other
 * policy.  They plan over partitions of different speeds, not over one
 * tp_cluster: the drivers call tp_het_pass() (hetero/het.h) for them.
 */
#include "hetero/het.h"
#include "policy/policy.h"

#define HET_POLICY(var, name_, algo, text)                              \
	const tp_policy_ops var = { .name = name_, .summary = text,      \
				    .het_algo = (algo) + 1 }

HET_POLICY(tp_policy_olb, "olb", TP_HET_OLB,
	   "heterogeneous: queue order, each job where it can start first");
HET_POLICY(tp_policy_min_min, "min-min", TP_HET_MIN_MIN,
	   "heterogeneous: the job that can end first goes first, where it ends first");
HET_POLICY(tp_policy_min_max, "min-max", TP_HET_MIN_MAX,
	   "heterogeneous: the job that ends last at best goes first, where it ends first");
HET_POLICY(tp_policy_sjs, "sjs", TP_HET_SJS,
	   "heterogeneous: min-min or min-max, the smaller sum of expected waits and run times");
HET_POLICY(tp_policy_pjs, "pjs", TP_HET_PJS,
	   "heterogeneous: SJS plus profitable parallel options (partition and node count) while the sum improves");
