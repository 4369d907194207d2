/* output_dist.c - the summary's distributions (metrics_dist.h) as JSON
 * members; key meanings in toposim(1). */
#include "output.h"

/* mean in `mean`'s format, the order statistics in `fmt`'s; null, all
 * of them, over no run. */
static void put_q(FILE *fp, const char *key, const tp_quantiles *q,
		  const char *mean, const char *fmt, bool any)
{
	static const char *const names[] = { "mean", "median", "p90", "p95",
					     "p99", "max" };
	const double v[] = { q->mean, q->median, q->p90, q->p95, q->p99, q->max };
	fprintf(fp, "\"%s\": {", key);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fprintf(fp, "%s\"%s\": ", i ? ", " : "", names[i]);
		sim_put_stat(fp, i ? fmt : mean, v[i], any);
	}
	fputc('}', fp);
}

/* Wait and response time are whole seconds (their means are not): the
 * order statistics without decimals; bounded slowdown is a ratio. */
static void put_part(FILE *fp, const tp_dist_part *d, const char *sep)
{
	bool any = d->runs > 0;
	put_q(fp, "wait", &d->wait, "%.3f", "%.0f", any);
	fputs(sep, fp);
	put_q(fp, "bounded_slowdown", &d->bsld, "%.4f", "%.4f", any);
	fputs(sep, fp);
	put_q(fp, "response_time", &d->response, "%.3f", "%.0f", any);
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
