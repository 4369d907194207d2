/* output_dist.c - the summary's distributions (metrics_dist.h) as JSON
 * members; key meanings in toposim(1). */
#include "output.h"

/* mean in `mean`'s format, the order statistics in `fmt`'s */
static void put_q(FILE *fp, const char *key, const tp_quantiles *q,
		  const char *mean, const char *fmt)
{
	char f[160];
	snprintf(f, sizeof(f), "\"%%s\": {\"mean\": %s, \"median\": %s, "
		 "\"p90\": %s, \"p95\": %s, \"p99\": %s, \"max\": %s}", mean,
		 fmt, fmt, fmt, fmt, fmt);
	fprintf(fp, f, key, q->mean, q->median, q->p90, q->p95, q->p99,
		q->max);
}

/* Wait and response time are whole seconds (their means are not): the
 * order statistics without decimals; bounded slowdown is a ratio. */
static void put_part(FILE *fp, const tp_dist_part *d, const char *sep)
{
	put_q(fp, "wait", &d->wait, "%.3f", "%.0f");
	fputs(sep, fp);
	put_q(fp, "bounded_slowdown", &d->bsld, "%.4f", "%.4f");
	fputs(sep, fp);
	put_q(fp, "response_time", &d->response, "%.3f", "%.0f");
}

static void put_class(FILE *fp, const tp_dist *d, int c)
{
	int lo, hi;
	tp_size_class_bounds(c, &lo, &hi);
	fprintf(fp, "    {\"min_nodes\": %d, \"max_nodes\": ", lo);
	if (hi < 0)
		fputs("null", fp);
	else
		fprintf(fp, "%d", hi);
	fprintf(fp, ", \"runs\": %zu", d->cls[c].runs);
	if (d->cls[c].runs) {
		fputs(",\n     ", fp);
		put_part(fp, &d->cls[c], ",\n     ");
	}
	fprintf(fp, "}%s\n", c + 1 < TP_SIZE_CLASSES ? "," : "");
}

void sim_write_dist_json(FILE *fp, const tp_dist *d)
{
	fputs("  ", fp);
	put_part(fp, &d->all, ",\n  ");
	fputs(",\n  \"size_classes\": [\n", fp);
	for (int c = 0; c < TP_SIZE_CLASSES; c++)
		put_class(fp, d, c);
	fputs("  ],\n", fp);
}
