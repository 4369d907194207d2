/* prio.c - Slurm's multifactor priority; see prio.h. */
#include "priority/prio.h"

#include <string.h>

void tp_prio_conf_default(tp_prio_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->max_age = 7 * 86400;
}

double tp_prio_age(const tp_prio_conf *c, int64_t now, int64_t eligible)
{
	if (eligible <= 0)
		return 0;
	/* Slurm keeps the difference in 32 bits */
	uint32_t diff = now > eligible ? (uint32_t)(now - eligible) : 0;
	if (diff < c->max_age)
		return (double)diff / (double)c->max_age;
	return 1.0;
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

double tp_prio_job_size(const tp_prio_conf *c, uint32_t nodes, uint32_t cpus,
			uint32_t time_limit)
{
	double js, n = (double)c->nodes, total = (double)c->cpus;
	if (!c->nodes || !c->cpus)
		return 0;
	if (c->flags & TP_PRIO_SIZE_RELATIVE) {
		/* CPUs by the machine's mean CPUs per node */
		js = (double)nodes * total / n;
		if (cpus > js)
			js = (double)cpus;
		js /= time_limit ? time_limit : 1;
		js /= total;
		if (c->favor_small)
			js = 1.0 - js;
	} else if (c->favor_small) {
		js = c->nodes > nodes ? (n - (double)nodes) / n : 0;
		if (cpus) {
			js += (total - (double)cpus) / total;
			js /= 2;
		}
	} else {
		js = (double)nodes / n;
		if (cpus) {
			js += (double)cpus / total;
			js /= 2;
		}
	}
	return clamp01(js);
}

/* A priority over the largest, or as it is with the NO_NORMAL flag. */
static double normal(uint32_t v, uint32_t max, bool as_is)
{
	if (as_is)
		return (double)v;
	return max ? (double)v / (double)max : 0;
}

static double tres_sum(const tp_prio_conf *c, const tp_prio_in *in)
{
	double sum = 0;
	for (int i = 0; i < TP_TRES_N; i++) {
		double f = 0;
		if (c->flags & TP_PRIO_NO_NORMAL_TRES)
			f = (double)in->tres[i];
		else if (in->tres[i] > 0 && in->part_tres[i] > 0)
			f = (double)in->tres[i] / (double)in->part_tres[i];
		sum += f * c->w_tres[i];
	}
	return sum;
}

void tp_prio_compute(const tp_prio_conf *c, const tp_prio_in *in,
		     tp_prio_factors *out)
{
	memset(out, 0, sizeof(*out));
	if (c->w_age)
		out->age = tp_prio_age(c, in->now, in->eligible);
	if (c->w_fs)
		out->fs = in->fairshare;
	if (c->w_js)
		out->js = tp_prio_job_size(c, in->nodes ? in->nodes : 1,
					   in->cpus, in->time_limit);
	if (in->part_factor && c->w_part)
		out->part = normal(in->part_factor, in->part_factor_max,
				   c->flags & TP_PRIO_NO_NORMAL_PART);
	if (c->w_assoc)
		out->assoc = normal(in->assoc_prio, in->assoc_prio_max,
				    c->flags & TP_PRIO_NO_NORMAL_ASSOC);
	if (in->qos_prio && c->w_qos)
		out->qos = normal(in->qos_prio, in->qos_prio_max,
				  c->flags & TP_PRIO_NO_NORMAL_QOS);
	out->tres = tres_sum(c, in);
	/* Slurm's order of the sum */
	double p = out->age * (double)c->w_age
		+ out->assoc * (double)c->w_assoc
		+ out->fs * (double)c->w_fs
		+ out->js * (double)c->w_js
		+ out->part * (double)c->w_part
		+ out->qos * (double)c->w_qos
		+ out->tres
		+ (double)in->site
		- (double)in->nice;
	if (p < 1)
		p = 1;
	if (p > (double)TP_PRIO_MAX)
		p = (double)TP_PRIO_MAX;
	out->priority = (uint32_t)p;
}
