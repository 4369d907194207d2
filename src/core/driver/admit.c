/* admit.c - could a job ever run on these nodes; see admit.h. */
#include "driver/admit.h"

#include "alloc/place.h"

bool tp_driver_admit(tp_placeable *p, tp_alloc *a, const tp_nodeset *all,
		     const tp_job *job)
{
	tp_alloc_req req = tp_job_req(job);
	if (!tp_alloc_req_constrained(&req) && !tp_job_has_range(job))
		return tp_placeable_test(p, a, all, job->nodes);
	return tp_job_fits(a, all, job, &p->scratch);
}

bool tp_driver_admit_res(tp_placeable *p, tp_alloc *a, const tp_res *idle,
			 const tp_nodeset *all, const tp_job *job,
			 tp_nodeset *hosts)
{
	if (!job->ask || job->ask->whole)
		return tp_driver_admit(p, a, all, job);
	int n = tp_res_hosts(idle, job->ask, all, hosts);
	return n >= job->nodes &&
	       tp_job_fits_res(a, hosts, n, 0, idle, true, job, &p->scratch);
}

bool tp_driver_admit_range(tp_alloc *a, const tp_nodeset *ever, int lo,
			   int hi, const tp_alloc_req *req,
			   tp_nodeset *scratch)
{
	tp_alloc_req any = *req;
	any.max_groups = 0;
	return tp_place_range(a, ever, lo, hi, &any, scratch) >= 0;
}
