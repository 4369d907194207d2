/* switches.c - the --switches wait; see switches.h. */
#include "driver/switches.h"

int tp_switch_limit(int64_t req, int64_t wait, int64_t since, int64_t now,
		    bool has_groups)
{
	if (req <= 0 || !has_groups)
		return 0;
	if (wait != TP_SWITCH_WAIT_FOREVER && now - since >= wait)
		return 0;
	return req > INT32_MAX ? INT32_MAX : (int)req;
}

bool tp_switch_sits_out(tp_alloc *a, const tp_nodeset *free,
			const tp_job *job, tp_nodeset *scratch)
{
	return job->max_groups > 0 && !tp_job_fits(a, free, job, scratch);
}
